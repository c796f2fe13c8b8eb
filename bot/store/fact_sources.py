"""What the projection (`bot.store.facts`) is derived from, read from the stored rows of
settled hands and finished matches — in SQL, without replaying a hand: a hand's row,
match and table, its seats and departures, its settlements, and its actions counted by
window functions (which SQLite ≥ 3.25 and PostgreSQL both have), for one hand at its
settlement or for thousands at a time in a rebuild.

The derivation itself is the service's (`bot.service.facts`, a `Derive`): the store
reads the sources and writes the rows it returns, in the caller's transaction
(`project_in`), so a hand's facts are written with its settlement.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Protocol

from bot.store.database import Session
from bot.store.repository import grouped, marks
from bot.store.rows import (
    HAND_FACT_COLUMNS,
    MATCH_FACT_COLUMNS,
    HandFact,
    HandSource,
    MatchFact,
    MatchSource,
    Row,
    SeatActs,
    SettlementRow,
    TailAction,
    TakenClaim,
)

SEATS = 4


def _upsert(table: str, columns: Sequence[str], key: Sequence[str]) -> str:
    rest = [c for c in columns if c not in key]
    return (f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks(columns)})"
            f" ON CONFLICT ({', '.join(key)}) DO UPDATE SET "
            + ", ".join(f"{c} = excluded.{c}" for c in rest))


_HAND_UPSERT = _upsert("hand_facts", HAND_FACT_COLUMNS, ("hand_id", "seat"))
_MATCH_UPSERT = _upsert("match_facts", MATCH_FACT_COLUMNS, ("match_id", "seat"))


async def write_in(db: Session, hands: Sequence[HandFact],
                   matches: Sequence[MatchFact] = ()) -> None:
    """Write (or replace) these rows in the caller's transaction."""
    if hands:
        await db.run_many(_HAND_UPSERT, [f.params() for f in hands])
    if matches:
        await db.run_many(_MATCH_UPSERT, [f.params() for f in matches])
_TURN = "('discard', 'added_kong', 'concealed_kong')"
"""A turn's own actions: what a hand's end is read back from (the last of them)."""
_NEXT = "('discard', 'added_kong', 'concealed_kong', 'win')"
"""What follows a claim window: the turn of whoever took the tile (or a win)."""


class Derive(Protocol):
    """The service's derivation: rows from their sources, the same for a settlement
    and a rebuild."""

    def hands(self, sources: Sequence[HandSource]) -> list[HandFact]: ...

    def matches(self, sources: Sequence[MatchSource]) -> list[MatchFact]: ...

    @property
    def buckets(self) -> Sequence[float]:
        """The upper bounds of the move times counted (the last bucket is open)."""
        ...


async def project_in(db: Session, derive: Derive, after: int, upto: int) -> int:
    """Derive and write the facts of the settled hands with ids in (``after``,
    ``upto``] and of the finished matches whose last hand is among them, in the
    caller's transaction; the number of hands written."""
    sources = await hand_sources_in(db, after, upto, derive.buckets)
    await write_in(db, derive.hands(sources))
    ended = [int(r[0]) for r in await db.all(
        "SELECT m.id FROM matches m WHERE m.status = 'finished' AND m.id IN (SELECT"
        " h.match_id FROM hands h WHERE h.id > ? AND h.id <= ?) AND NOT EXISTS (SELECT 1"
        " FROM hands h WHERE h.match_id = m.id AND h.id > ?) ORDER BY m.id",
        (after, upto, upto))]
    if ended:
        await write_in(db, (), derive.matches(await match_sources_in(db, ended)))
    return len(sources)


def _acts_sql(buckets: Sequence[float], departed: bool) -> str:
    """Each seat's counted actions in a range of hands; ``departed``: only the hands
    someone left, counting a seat's actions up to its departure as its person's."""
    mine = "CASE WHEN d.seq IS NULL OR a.seq <= d.seq THEN 1 ELSE 0 END" if departed \
        else "1"
    join = " LEFT JOIN departures d ON d.hand_id = a.hand_id AND d.seat = a.seat" \
        if departed else ""
    where = " AND a.hand_id IN (SELECT hand_id FROM departures WHERE hand_id > ?" \
            " AND hand_id <= ?)" if departed else ""
    counted = []
    low: float | None = None
    for high in buckets:  # each bucket: above the last one's bound, up to its own
        within = [f"took > {low!r}"] if low is not None else []
        if math.isfinite(high):
            within.append(f"took <= {float(high)!r}")
        counted.append("SUM(CASE WHEN moved = 1"
                       + "".join(f" AND {w}" for w in within) + " THEN 1 ELSE 0 END)")
        low = float(high)
    return (
        "SELECT hand_id, seat, SUM(moved) AS moves,"
        " SUM(CASE WHEN source = 'timeout' AND mine = 1 THEN 1 ELSE 0 END) AS timeouts,"
        " MAX(CASE WHEN source = 'computer' AND mine = 1 AND kind <> 'pass'"
        " AND kind <> 'win' THEN 1 ELSE 0 END) AS taken_over, "
        + ", ".join(f"{c} AS b{i}" for i, c in enumerate(counted))
        + " FROM (SELECT a.hand_id, a.seat, a.kind, a.source,"
        f" {mine} AS mine,"
        f" CASE WHEN a.source = 'player' AND {mine} = 1 THEN 1 ELSE 0 END AS moved,"
        " a.at - COALESCE(LAG(a.at) OVER (PARTITION BY a.hand_id ORDER BY a.seq),"
        " (SELECT h.started_at FROM hands h WHERE h.id = a.hand_id)) AS took"
        f" FROM actions a{join} WHERE a.hand_id > ? AND a.hand_id <= ?{where}) y"
        " GROUP BY hand_id, seat")


_ENDS_SQL = (
    "SELECT hand_id, seq, seat, kind,"
    " CASE WHEN k1 = 'discard' THEN s1 WHEN k2 = 'discard' THEN s2"
    " WHEN k3 = 'discard' THEN s3 END AS from_seat,"
    f" CASE WHEN n1 IN {_NEXT} THEN t1 WHEN n2 IN {_NEXT} THEN t2"
    f" WHEN n3 IN {_NEXT} THEN t3 END AS next_seat,"
    " CASE WHEN seq >= last_turn THEN 1 ELSE 0 END AS tail"
    " FROM (SELECT hand_id, seq, seat, kind,"
    " LAG(kind, 1) OVER w AS k1, LAG(seat, 1) OVER w AS s1,"
    " LAG(kind, 2) OVER w AS k2, LAG(seat, 2) OVER w AS s2,"
    " LAG(kind, 3) OVER w AS k3, LAG(seat, 3) OVER w AS s3,"
    " LEAD(kind, 1) OVER w AS n1, LEAD(seat, 1) OVER w AS t1,"
    " LEAD(kind, 2) OVER w AS n2, LEAD(seat, 2) OVER w AS t2,"
    " LEAD(kind, 3) OVER w AS n3, LEAD(seat, 3) OVER w AS t3,"
    f" MAX(CASE WHEN kind IN {_TURN} THEN seq ELSE 0 END)"
    " OVER (PARTITION BY hand_id) AS last_turn"
    " FROM actions WHERE hand_id > ? AND hand_id <= ? AND kind <> 'pass'"
    " WINDOW w AS (PARTITION BY hand_id ORDER BY seq)) f"
    " WHERE seq >= last_turn OR kind IN ('chi', 'pong', 'kong')")
"""Without the passes, a claim window's other answers (two at most) sit between a claim
and its discard, and between it and the turn that follows: a claim took its tile when
that turn (or win) is its own seat's. And a hand's end: from its last turn action on."""


async def hand_sources_in(db: Session, after: int, upto: int,
                          buckets: Sequence[float]) -> list[HandSource]:
    """The sources of the settled hands with ids in (``after``, ``upto``], by id (a
    voided hand, which has no settlement, is not one)."""
    hands = await db.all(
        "SELECT h.id, h.match_id, h.number, h.dealer, h.huangfan, h.started_at,"
        " h.ended_at, m.table_id, t.guild_id, t.channel_id, t.rules, t.options"
        " FROM hands h JOIN matches m ON m.id = h.match_id"
        " JOIN game_tables t ON t.id = m.table_id"
        " WHERE h.id > ? AND h.id <= ? AND h.status = 'ended'"
        " AND EXISTS (SELECT 1 FROM settlements s WHERE s.hand_id = h.id) ORDER BY h.id",
        (after, upto))
    if not hands:
        return []
    span = (after, upto)
    settled = grouped((SettlementRow.of(r) for r in await db.all(
        "SELECT * FROM settlements WHERE hand_id > ? AND hand_id <= ?"
        " ORDER BY hand_id, seat", span)), lambda s: s.hand_id)
    tables = sorted({int(h["table_id"]) for h in hands})
    seated = {(int(r["table_id"]), int(r["seat"])): r["user_id"] for r in await db.all(
        f"SELECT table_id, seat, user_id FROM seats WHERE table_id IN ({marks(tables)})",
        tables)}
    match_ids = sorted({int(h["match_id"]) for h in hands})
    left = {(int(r["match_id"]), int(r["seat"])): r for r in await db.all(
        "SELECT d.seat, d.seq, d.user_id, d.hand_id, h.number, h.match_id FROM departures d"
        " JOIN hands h ON h.id = d.hand_id"
        f" WHERE h.match_id IN ({marks(match_ids)})", match_ids)}
    acts = _acts(await db.all(_acts_sql(buckets, False), span), len(buckets))
    acts.update(_acts(await db.all(_acts_sql(buckets, True), (*span, *span)),
                      len(buckets)))
    tails: dict[int, list[TailAction]] = {}
    claims: dict[int, list[TakenClaim]] = {}
    for r in await db.all(_ENDS_SQL, span):
        hand_id = int(r["hand_id"])
        if r["kind"] in ("chi", "pong", "kong") and r["next_seat"] == r["seat"] \
                and r["from_seat"] is not None:
            claims.setdefault(hand_id, []).append(
                TakenClaim(int(r["seq"]), int(r["seat"]), int(r["from_seat"])))
        if r["tail"]:
            tails.setdefault(hand_id, []).append(
                TailAction(int(r["seq"]), int(r["seat"]), str(r["kind"])))
    out = []
    for h in hands:
        hand_id, match_id, table_id = int(h["id"]), int(h["match_id"]), int(h["table_id"])
        users: list[int | None] = []
        gone: list[int | None] = []
        for seat in range(SEATS):
            d = left.get((match_id, seat))
            if d is None:
                user = seated.get((table_id, seat))
                users.append(None if user is None else int(user))
                gone.append(None)
            else:  # the person's until the hand they left; the computer's after it
                users.append(int(d["user_id"]) if d["number"] >= h["number"] else None)
                gone.append(int(d["seq"]) if int(d["hand_id"]) == hand_id else None)
        out.append(HandSource(
            hand_id, match_id, table_id, int(h["guild_id"]), int(h["channel_id"]),
            str(h["rules"]), json.loads(h["options"]), int(h["number"]), int(h["dealer"]),
            int(h["huangfan"]), float(h["started_at"]), float(h["ended_at"]), tuple(users),
            tuple(gone), tuple(settled.get(hand_id, ())), tuple(tails.get(hand_id, ())),
            tuple(claims.get(hand_id, ())),
            tuple(acts.get((hand_id, seat), SeatActs(seat)) for seat in range(SEATS))))
    return out


def _acts(rows: Sequence[Row], buckets: int) -> dict[tuple[int, int], SeatActs]:
    return {(int(r["hand_id"]), int(r["seat"])): SeatActs(
                int(r["seat"]), int(r["moves"]), tuple(int(r[f"b{i}"]) for i in range(buckets)),
                int(r["timeouts"]), bool(r["taken_over"])) for r in rows}


async def match_sources_in(db: Session, match_ids: Sequence[int]) -> list[MatchSource]:
    """The sources of these finished matches (their hands' facts already written)."""
    ids = list(match_ids)
    rows = await db.all(
        "SELECT m.id, m.table_id, m.finished_at, m.totals, t.guild_id, t.channel_id,"
        " t.rules FROM matches m JOIN game_tables t ON t.id = m.table_id"
        f" WHERE m.status = 'finished' AND m.id IN ({marks(ids)}) ORDER BY m.id", ids)
    seats = {(int(r["match_id"]), int(r["seat"])): r for r in await db.all(
        "SELECT match_id, seat, MAX(user_id) AS user_id, COUNT(user_id) AS hands"
        f" FROM hand_facts WHERE match_id IN ({marks(ids)}) GROUP BY match_id, seat", ids)}
    out = []
    for m in rows:
        match_id = int(m["id"])
        mine = [seats.get((match_id, seat)) for seat in range(SEATS)]
        out.append(MatchSource(
            match_id, int(m["table_id"]), int(m["guild_id"]), int(m["channel_id"]),
            str(m["rules"]), float(m["finished_at"]),
            {int(k): Fraction(v) for k, v in json.loads(m["totals"] or "{}").items()},
            tuple(None if r is None or r["user_id"] is None else int(r["user_id"])
                  for r in mine),
            tuple(0 if r is None else int(r["hands"]) for r in mine)))
    return out
