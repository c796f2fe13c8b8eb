"""What rebuilding live tables reads (`TableLoad`), for many tables at once."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from bot.store import claim_answers, premoves
from bot.store.database import Session
from bot.store.repository import DEADLINE_SELECT, HAND_SELECT, Repository, grouped, marks
from bot.store.rows import (
    ActionRow,
    DeadlineRow,
    HandLog,
    HandRow,
    MatchRow,
    PersonRow,
    Row,
    SeatRow,
    SettlementRow,
    SnapshotRow,
    TableLoad,
    TableRow,
)

_CHUNK = 500
"""Tables read per statement by `Rebuilds.load` (SQLite limits ``?`` per statement)."""


async def _loads_in(db: Session, ids: list[int],
                    snapshots: bool) -> dict[int, TableLoad]:
    tables = [TableRow.of(r) for r in await db.all(
        f"SELECT * FROM game_tables WHERE id IN ({marks(ids)})", ids)]
    seats = grouped((SeatRow.of(r) for r in await db.all(
        f"SELECT * FROM seats WHERE table_id IN ({marks(ids)}) ORDER BY table_id, seat",
        ids)),  # in the primary key's order: no sorting
        lambda s: s.table_id)
    matches = {m.table_id: m for m in (MatchRow.of(r) for r in await db.all(
        f"SELECT * FROM matches WHERE status = 'playing' AND table_id IN"
        f" ({marks(ids)})", ids))}
    # the matches a table has had: the number of the one in play, else counted (a
    # table "playing" with none in play, `LiveTables._rebuild_match`): a cold table's
    # click is one statement, one round trip on PostgreSQL, shorter (issue 32)
    played = {m.table_id: m.number for m in matches.values()}
    unmatched = [i for i in ids if i not in matches]
    if unmatched:
        played.update({int(r[0]): int(r[1]) for r in await db.all(
            f"SELECT table_id, COUNT(*) FROM matches WHERE table_id IN ({marks(unmatched)})"
            " GROUP BY table_id", unmatched)})
    match_ids = [m.id for m in matches.values()]
    hands = grouped((HandRow.of(r) for r in await db.all(
        f"{HAND_SELECT} WHERE h.match_id IN ({marks(match_ids)})"
        " ORDER BY h.match_id, h.number", match_ids)), lambda h: h.match_id)
    # settlements only where a hand ended (a match's first hand has none to read)
    ended = [m for m, hs in hands.items() if any(h.status != "live" for h in hs)]
    settled = await db.all(
        "SELECT s.*, h.match_id FROM settlements s JOIN hands h ON h.id = s.hand_id"
        f" WHERE h.match_id IN ({marks(ended)}) ORDER BY h.number, s.seat",
        ended) if ended else []
    settlements = grouped(((r["match_id"], SettlementRow.of(r)) for r in settled),
                           lambda pair: pair[0])
    penalties: dict[int, dict[int, Fraction]] = {}
    for r in await db.all("SELECT match_id, seat, amount FROM penalties WHERE match_id"
                          f" IN ({marks(match_ids)})", match_ids):
        charged = penalties.setdefault(r["match_id"], {})
        charged[r["seat"]] = charged.get(r["seat"], Fraction(0)) + Fraction(r["amount"])
    live_hands = [hs[-1].id for hs in hands.values() if hs[-1].status == "live"]
    logs = await _logs_in(db, live_hands, snapshots)
    deadlines = grouped((DeadlineRow.of(r) for r in await db.all(
        f"{DEADLINE_SELECT} WHERE d.hand_id IN ({marks(live_hands)})"
        " ORDER BY d.seat", live_hands)), lambda d: d.hand_id)
    answers = grouped(await claim_answers.of_hands_in(db, live_hands), lambda a: a.hand_id)
    chosen = await premoves.of_hands_in(db, live_hands)
    banks: dict[int, dict[int, float]] = {}
    for r in await db.all(f"SELECT hand_id, seat, seconds FROM time_banks WHERE hand_id IN"
                          f" ({marks(live_hands)})", live_hands):
        banks.setdefault(r["hand_id"], {})[r["seat"]] = float(r["seconds"])
    users = sorted({s.user_id for ss in seats.values() for s in ss
                    if s.user_id is not None})
    locales = {r["user_id"]: r["locale"] for r in await db.all(
        f"SELECT user_id, locale FROM user_locales WHERE user_id IN ({marks(users)})",
        users)}
    people = {r["user_id"]: PersonRow.of(r) for r in await db.all(
        f"SELECT * FROM people WHERE user_id IN ({marks(users)})", users)}
    out = {}
    for t in tables:
        match = matches.get(t.id)
        mine = hands.get(match.id, []) if match else []
        last = mine[-1] if mine and mine[-1].status == "live" else None
        seated = seats.get(t.id, [])
        out[t.id] = TableLoad(
            t, tuple(seated),
            {s.user_id: locales[s.user_id] for s in seated
             if s.user_id is not None and s.user_id in locales},
            match, tuple(mine),
            tuple(s for _, s in settlements.get(match.id, [])) if match else (),
            penalties.get(match.id, {}) if match else {},
            logs.get(last.id) if last else None,
            tuple(deadlines.get(last.id, [])) if last else (), played.get(t.id, 0),
            tuple(answers.get(last.id, [])) if last else (),
            {seat: tile for seat, (tile, _) in chosen.get(last.id, {}).items()} if last else {},
            people={s.user_id: people[s.user_id] for s in seated
                    if s.user_id is not None and s.user_id in people},
            banks=banks.get(last.id, {}) if last else {},
            premoves_exact=frozenset(seat for seat, (_, on) in chosen.get(last.id, {}).items()
                                     if not on) if last else frozenset())
    return out


async def _logs_in(db: Session, hand_ids: list[int],
                   snapshots: bool) -> dict[int, HandLog]:
    """Each hand's newest snapshot, the running digest stored with the action it was
    written with, and the actions after it (all of them without a snapshot): the
    actions before a snapshot are not read at all (migration 0012)."""
    newest: dict[int, SnapshotRow] = {}
    if snapshots:
        for r in await db.all(f"SELECT * FROM hand_snapshots WHERE hand_id IN"
                                f" ({marks(hand_ids)}) ORDER BY seq", hand_ids):
            newest[r["hand_id"]] = SnapshotRow.of(r)  # the last one read is the newest
    snapped = [h for h in hand_ids if h in newest]
    whole = [h for h in hand_ids if h not in newest]
    # from each hand's newest snapshot's own action on (its stored digest): driven
    # from the snapshots (CROSS JOIN keeps SQLite's loop order), each hand's actions
    # are a range of the primary key, not all of them filtered (a join the other
    # way round read every action of every hand, most of a rebuild's reading)
    rows: list[Row] = await db.all(
        "SELECT a.* FROM (SELECT hand_id, MAX(seq) AS seq FROM hand_snapshots"
        f" WHERE hand_id IN ({marks(snapped)}) GROUP BY hand_id) s CROSS JOIN actions a"
        " WHERE a.hand_id = s.hand_id AND a.seq >= s.seq ORDER BY a.hand_id, a.seq",
        snapped) if snapped else []
    if whole:
        rows += await db.all("SELECT * FROM actions WHERE hand_id IN"
                             f" ({marks(whole)}) ORDER BY hand_id, seq", whole)
    by_hand = grouped(rows, lambda r: r["hand_id"])
    logs: dict[int, HandLog] = {}
    for hand_id in hand_ids:
        mine = by_hand.get(hand_id, [])
        snap = newest.get(hand_id)
        digest = None
        if snap is not None and mine and mine[0]["seq"] == snap.seq:
            stored = mine[0]["log_digest"]  # None: a log written before 0012
            digest = None if stored is None else bytes(stored).hex()
        upto = snap.seq if snap is not None else 0
        last = mine[-1]["log_digest"] if mine else None
        logs[hand_id] = HandLog(hand_id, snap, digest,
                                tuple(ActionRow.of(r) for r in mine if r["seq"] > upto),
                                mine[-1]["seq"] if mine else 0,
                                None if last is None else bytes(last).hex())
    return logs


class Rebuilds(Repository):
    """Reads for rebuilding tables."""

    async def load(self, table_ids: Iterable[int], *, snapshots: bool = True
                   ) -> dict[int, TableLoad]:
        """What rebuilding each of these tables reads (`TableLoad`), for many tables in
        a dozen statements rather than a dozen per table, in one read transaction (one
        consistent view). Tables that do not exist are left out. Without ``snapshots``
        each live hand's whole log is read, as if it had none."""
        wanted = sorted(set(table_ids))
        if len(wanted) <= _CHUNK:  # a table's first use: one transaction handed over whole
            return await self._db.read_at_once(_loads_in, wanted, snapshots)
        out: dict[int, TableLoad] = {}
        async with self._db.read() as db:
            for start in range(0, len(wanted), _CHUNK):
                chunk = wanted[start:start + _CHUNK]
                out.update(await _loads_in(db, chunk, snapshots))
        return out
