"""What the projection (`bot.store.facts`) is derived from, read from the stored rows of
settled hands and finished matches — without replaying a hand: a hand's row, match and
table, its seats and departures, its settlements, and its actions (an ended hand's
compact log, `bot.store.compact`, read as text by `bot.store.fact_log`; a hand whose
rows stayed, read by window functions, which SQLite ≥ 3.25 and PostgreSQL both have),
for one hand at its settlement or for thousands at a time in a rebuild.

The derivation itself is the service's (`bot.service.facts`, a `Derive`): the store
reads the sources and writes the rows it returns, in the caller's transaction
(`project_in`), so a hand's facts are written with its settlement.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol

from bot.store.database import Session
from bot.store.fact_log import KIND_LETTERS, compact_log, in_order, read_log
from bot.store.hand_logs import text_of
from bot.store.repository import grouped, marks
from bot.store.rows import (
    HAND_FACT_COLUMNS,
    MATCH_FACT_COLUMNS,
    HandFact,
    HandSource,
    MatchFact,
    MatchSource,
    SeatActs,
    SettlementRow,
    TailAction,
    TakenClaim,
)

SEATS = 4


def _upsert(table: str, columns: Sequence[str], key: Sequence[str], rows: int | str) -> str:
    """An upsert of ``rows`` rows at once (one statement: PostgreSQL's driver sends a
    statement a row with executemany, a round trip each), or of every row of the table
    named ``rows``."""
    rest = [c for c in columns if c not in key]
    names = ", ".join(columns)
    if isinstance(rows, str):
        source = f"SELECT {names} FROM {rows}"
    else:
        source = "VALUES " + ", ".join([f"({marks(columns)})"] * rows)
    return (f"INSERT INTO {table} ({names}) {source}"
            f" ON CONFLICT ({', '.join(key)}) DO UPDATE SET "
            + ", ".join(f"{c} = excluded.{c}" for c in rest))


_CHUNK = 400
"""Rows an upsert writes at once: 400 × 26 values stay below both databases' limit on
parameters (SQLite 32,766, PostgreSQL 32,767)."""


_COPY_FROM = 2 * 400
"""Rows from which PostgreSQL's write goes through COPY into a staging table (a
rebuild's batch; a settlement's few rows stay one upsert)."""


async def _write(db: Session, table: str, columns: Sequence[str], key: Sequence[str],
                 rows: Sequence[tuple[object, ...]]) -> None:
    if len(rows) >= _COPY_FROM and db.for_update:
        # PostgreSQL: the rows copied in one transfer into a temporary table of this
        # connection, then upserted from it in one statement (a settlement written
        # meanwhile by another process is replaced by the same row, as below)
        stage = f"{table}_stage"
        await db.run(f"CREATE TEMPORARY TABLE IF NOT EXISTS {stage} (LIKE {table})"
                     " ON COMMIT DELETE ROWS")
        await db.run(f"TRUNCATE {stage}")
        if await db.copy_in(stage, columns, rows):
            await db.run(_upsert_sql(table, tuple(columns), tuple(key), stage))
            return
    for start in range(0, len(rows), _CHUNK):
        chunk = rows[start:start + _CHUNK]
        await db.run(_upsert_sql(table, tuple(columns), tuple(key), len(chunk)),
                     [value for row in chunk for value in row])


@functools.lru_cache(maxsize=16)
def _upsert_sql(table: str, columns: tuple[str, ...], key: tuple[str, ...],
                rows: int | str) -> str:
    return _upsert(table, columns, key, rows)


async def write_in(db: Session, hands: Sequence[HandFact],
                   matches: Sequence[MatchFact] = ()) -> None:
    """Write (or replace) these rows in the caller's transaction."""
    if hands:
        await _write(db, "hand_facts", HAND_FACT_COLUMNS, ("hand_id", "seat"),
                     [f.params() for f in hands])
    if matches:
        await _write(db, "match_facts", MATCH_FACT_COLUMNS, ("match_id", "seat"),
                     [f.params() for f in matches])


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


def _log_sql(buckets: Sequence[float], postgres: bool, one: bool = False) -> str:
    """Each hand's log in one text, ``fact_log.WIDTH`` characters an action in seq order:
    its seat; its source (``P`` a person's own move, ``T`` a timeout, ``C`` a turn or
    claim the computer played for the seat, ``X`` its pass or win); the move time's
    bucket as a hexadecimal digit (a person's own move's, ``0`` for the others); its
    kind's letter (`KIND_LETTERS`); the last digit of its seq (`read_log` checks the order
    with it). Beside it the first seq and the count. The time from the action before
    (the hand's start for the first) is the one lookup; the rest is read in Python by
    string operations, not action by action. ``one``: of one action (a third
    parameter, its seq) of the hands."""
    if len(buckets) > 16:
        raise ValueError("at most 16 move-time buckets (one hexadecimal digit)")
    cases = "".join(f" WHEN took <= {float(high)!r} THEN '{i:x}'"
                    for i, high in enumerate(buckets) if math.isfinite(high))
    bucket = f"CASE{cases} ELSE '{len(buckets) - 1:x}' END"
    kind = "CASE kind" + "".join(f" WHEN '{k}' THEN '{v}'" for k, v in KIND_LETTERS.items()) \
        + " ELSE '?' END"
    source = ("CASE source WHEN 'player' THEN 'P' WHEN 'timeout' THEN 'T'"
              " WHEN 'computer' THEN CASE WHEN kind IN ('pass', 'win') THEN 'X' ELSE 'C'"
              " END ELSE '?' END")
    head = f"CAST(seat AS TEXT) || {source} || CASE WHEN source <> 'player' THEN '0' ELSE "
    tail = f" END || {kind} || CAST(seq % 10 AS TEXT)"
    if postgres:  # a window over the hands' actions
        window = ("SELECT hand_id, seq, seat, kind, source, at - COALESCE(LAG(at) OVER"
                  " (PARTITION BY hand_id ORDER BY seq), (SELECT h.started_at FROM hands h"
                  " WHERE h.id = actions.hand_id)) AS took FROM actions"
                  " WHERE hand_id > ? AND hand_id <= ?")
        return (f"SELECT hand_id, MIN(seq) AS first, MAX(seq) AS last, COUNT(*) AS n,"
                f" string_agg({head}{bucket}{tail}, '' ORDER BY seq) AS log"
                f" FROM ({window}) a{' WHERE seq = ?' if one else ''} GROUP BY hand_id")
    # SQLite: the time of a person's own move alone, the action before it looked up by
    # the primary key (2.5 times faster there than a window over every action); its
    # group_concat keeps the order rows come in (the primary key's here), which
    # `read_log` checks by each action's last digit of seq
    took = ("a.at - COALESCE((SELECT p.at FROM actions p WHERE p.hand_id = a.hand_id"
            " AND p.seq < a.seq ORDER BY p.seq DESC LIMIT 1), (SELECT h.started_at"
            " FROM hands h WHERE h.id = a.hand_id))")
    return (f"SELECT hand_id, MIN(seq) AS first, MAX(seq) AS last, COUNT(*) AS n,"
            f" group_concat({head}(SELECT {bucket} FROM (SELECT {took} AS took)){tail}, '')"
            " AS log FROM actions a WHERE hand_id > ? AND hand_id <= ?"
            f"{' AND seq = ?' if one else ''} GROUP BY hand_id")


async def _ordered_log(db: Session, hand_id: int, buckets: Sequence[float]
                       ) -> tuple[str, list[int]]:
    """A hand's log and seqs when its text did not come in seq order (or has gaps)."""
    whole = _log_sql(buckets, bool(db.for_update), one=True)
    seqs = [int(r[0]) for r in await db.all(
        "SELECT seq FROM actions WHERE hand_id = ? ORDER BY seq", (hand_id,))]
    parts = []
    for seq in seqs:
        row = await db.one(whole, (hand_id - 1, hand_id, seq))
        parts.append("" if row is None else str(row["log"]))
    return "".join(parts), seqs


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
    highs = [high * 1000 for high in buckets[:-1]]
    logs: dict[int, tuple[str, Sequence[int]]] = {
        int(r[0]): compact_log(text_of(str(r[1]), r[2]), highs) for r in await db.all(
            "SELECT hand_id, log, packed FROM hand_logs WHERE hand_id > ? AND hand_id <= ?",
            span)}
    for r in await db.all(_log_sql(buckets, bool(db.for_update)), span):  # rows stayed
        hand_id, first, last, count = int(r[0]), int(r[1]), int(r[2]), int(r[3])
        text = str(r[4])
        logs[hand_id] = ((text, range(first, last + 1))
                         if in_order(text, first, last, count)
                         else await _ordered_log(db, hand_id, buckets))
    out = []
    options: dict[str, Mapping[str, Any]] = {}  # a table's options parsed once a batch
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
        log = logs.get(hand_id)
        if log is None:
            acts: tuple[SeatActs, ...] = tuple(SeatActs(seat) for seat in range(SEATS))
            tail: tuple[TailAction, ...] = ()
            claims: tuple[TakenClaim, ...] = ()
        else:
            acts, tail, claims = read_log(log[0], log[1], gone, len(buckets))
        out.append(HandSource(
            hand_id, match_id, table_id, int(h["guild_id"]), int(h["channel_id"]),
            str(h["rules"]), _parsed(options, str(h["options"])), int(h["number"]),
            int(h["dealer"]),
            int(h["huangfan"]), float(h["started_at"]), float(h["ended_at"]), tuple(users),
            tuple(gone), tuple(settled.get(hand_id, ())), tail, claims, acts))
    return out


def _parsed(seen: dict[str, Mapping[str, Any]], text: str) -> Mapping[str, Any]:
    """A table's options (JSON) read once for every hand of the batch that has them:
    the same mapping, never changed."""
    found = seen.get(text)
    if found is None:
        found = seen[text] = json.loads(text)
    return found


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
