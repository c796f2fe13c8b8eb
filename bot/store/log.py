"""A hand's log: its actions, appended by compare-and-set and chained by a running
digest, and its snapshot (the state an action reached, sealed with that digest); once
the hand ended, the same actions in one compact row (`bot.store.compact`), read back
here as the rows they were."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.store import hands, premoves
from bot.store.compact import Decoded, decode, digest_of
from bot.store.database import Database, Session
from bot.store.deadlines import replace_deadlines_in
from bot.store.errors import ConstraintError, StaleAction
from bot.store.hand_logs import text_of
from bot.store.repository import Repository, TableBump, as_json, marks
from bot.store.rows import (
    ActionRow,
    ActionSource,
    NewAction,
    NewDeadline,
    NewSnapshot,
    SnapshotRow,
    log_digest,
    next_log_digest,
    state_digest,
)

ANSWERS_READ = 200
"""A person's newest answer times `ActionLog.answer_times` reads (their pace now)."""

ANSWER_HANDS = 20
"""Ended hands `ActionLog.answer_times` decodes at a time, newest first."""

DIGESTS_KEPT = 10_000
"""Live hands whose last digest a store remembers (`ActionLog._remember`): one forgotten
costs its next append one more read."""


async def _append_now(db: Session, hand_id: int, action: NewAction,
                      deadlines: Sequence[NewDeadline] | None, snapshot: NewSnapshot | None,
                      cached: tuple[int, str] | None, spent: Sequence[int] = (),
                      banks: Mapping[int, float] | None = None) -> tuple[ActionRow, str]:
    """`ActionLog.append`'s transaction, handed to the database whole
    (`Database.write_at_once`): the hand is live, ``action`` carries the next seq
    (compare-and-set) and the log's running digest up to it, the deadlines replaced, the
    snapshot (if any) sealed with that digest. Returns the action's row and the digest
    (``cached``: the one up to the seq before, if this process knows it)."""
    # PostgreSQL: the hand's row locked first (a racing append waits for this commit);
    # SQLite's write lock holds the whole file already, so the hand's being live is a
    # condition of the action's insert instead of a statement before it (every click)
    locked = bool(db.for_update)
    if locked:
        await hands.lock_live_in(db, hand_id)
    payload, digest = await _insert_next(db, hand_id, action, cached, locked=locked)
    if deadlines is not None:
        await replace_deadlines_in(db, hand_id, deadlines)
    if spent:
        await premoves.clear_in(db, hand_id, spent)
    if banks:
        await set_banks_in(db, hand_id, banks)
    if snapshot is not None:
        # the older snapshots go in the same statement (a trigger, migration 0007)
        await db.run("INSERT INTO hand_snapshots (hand_id, seq, version, log_digest, state,"
                     " state_digest) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (hand_id, seq)"
                     " DO UPDATE SET version = excluded.version, log_digest ="
                     " excluded.log_digest, state = excluded.state, state_digest ="
                     " excluded.state_digest",
                     (hand_id, snapshot.seq, snapshot.version, digest,
                      snapshot.state, state_digest(snapshot.version, snapshot.state)))
    return (ActionRow(hand_id, action.expected_seq, action.seat, action.kind,
                      json.loads(payload), action.source, float(action.at)), digest)


async def set_banks_in(db: Session, hand_id: int, banks: Mapping[int, float]) -> None:
    """The seats' time banks in the hand now (seat → seconds left)."""
    await db.run_many("INSERT INTO time_banks (hand_id, seat, seconds) VALUES (?, ?, ?)"
                      " ON CONFLICT (hand_id, seat) DO UPDATE SET seconds = excluded.seconds",
                      [(hand_id, seat, max(0.0, float(left)))
                       for seat, left in sorted(banks.items())])


async def _insert_next(db: Session, hand_id: int, action: NewAction,
                       cached: tuple[int, str] | None, *, locked: bool = True
                       ) -> tuple[str, str]:
    """The log's compare-and-set (the hand locked first, or, not ``locked``: SQLite,
    whose write lock holds the file, the hand's being live a condition of the insert,
    and `NotFound` or `HandEnded` told when it did not land): ``action`` lands only as
    the hand's next seq, else `StaleAction`. Returns the payload's stored JSON text and
    the log's running digest up to it (`next_log_digest`, stored with the action).

    The digest is chained from the one stored with the action before: from ``cached``
    (this process's last append to the hand) when the insert finds that one stored, so
    the check, the chain and the insert are one statement (one round trip to a
    PostgreSQL server on every move); else from the stored one, read first. The next
    seq is read on its own only to tell a stale action."""
    seq = action.expected_seq
    payload = as_json(action.payload)
    previous = "" if seq == 1 else cached[1] if cached and cached[0] == seq - 1 else None
    if previous is not None:
        digest = await _insert_chained(db, hand_id, action, payload, previous,
                                       live=not locked)
        if digest is not None:
            return payload, digest
    if not locked:  # the hand's state first, as when locked: which refusal, if any
        await hands.lock_live_in(db, hand_id)
    if previous is not None:
        await _refuse_stale(db, hand_id, seq)
        # the seq is the next one, but this process's digest is not the stored one
    digest = await _insert_chained(db, hand_id, action, payload,
                                   await _digest_upto(db, hand_id, seq - 1))
    if digest is None:
        await _refuse_stale(db, hand_id, seq)
        raise ConstraintError(f"action {seq} of hand {hand_id} does not follow its log")
    return payload, digest


_INSERT_CHAINED = (
    "INSERT INTO actions (hand_id, seq, seat, kind, payload, source, at, log_digest,"
    " asked_at) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?"
    " WHERE ? = (SELECT COALESCE(MAX(seq), 0) + 1"
    " FROM actions WHERE hand_id = ?) AND ? = COALESCE((SELECT log_digest FROM actions"
    " WHERE hand_id = ? AND seq = ?), ?)")
_IF_LIVE = " AND EXISTS (SELECT 1 FROM hands WHERE id = ? AND status = 'live')"


async def _insert_chained(db: Session, hand_id: int, action: NewAction, payload: str,
                          previous: str, *, live: bool = False) -> str | None:
    """Insert ``action`` with the digest chained from ``previous`` if its seq is the
    next and ``previous`` is the digest stored with the action before it (none stored:
    a log written before migration 0012, whose digest ``previous`` was worked out from
    the rows), and, with ``live``, if the hand is live; its digest, or None if nothing
    was written."""
    seq = action.expected_seq
    digest = next_log_digest(previous, seq, action.seat, action.kind, payload)
    params: tuple[object, ...] = (
        hand_id, seq, action.seat, action.kind, payload, action.source, action.at,
        bytes.fromhex(digest), action.asked_at, seq, hand_id, bytes.fromhex(previous),
        hand_id, seq - 1, bytes.fromhex(previous))
    if live:
        landed = await db.run(_INSERT_CHAINED + _IF_LIVE, (*params, hand_id))
    else:
        landed = await db.run(_INSERT_CHAINED, params)
    return digest if landed else None


async def _refuse_stale(db: Session, hand_id: int, seq: int) -> None:
    """`StaleAction` unless ``seq`` is the hand's next."""
    row = await db.one("SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE hand_id = ?",
                       (hand_id,))
    next_seq = int(row[0]) if row else 1
    if next_seq != seq:
        raise StaleAction(hand_id, seq, next_seq)


async def _digest_upto(db: Session, hand_id: int, seq: int) -> str:
    """The running digest of the hand's log up to action ``seq`` as stored with it; for
    a log written before migration 0012, worked out from the rows themselves."""
    if seq == 0:
        return ""
    row = await db.one("SELECT log_digest FROM actions WHERE hand_id = ? AND seq = ?",
                       (hand_id, seq))
    if row is not None and row[0] is not None:
        return bytes(row[0]).hex()
    return log_digest((r[0], r[1], r[2], r[3]) for r in await db.all(
        "SELECT seq, seat, kind, payload FROM actions WHERE hand_id = ? AND seq <= ?"
        " ORDER BY seq", (hand_id, seq)))


class ActionLog(Repository):
    """The hands' actions and snapshots."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self._digests: dict[int, tuple[int, str]] = {}
        """Per live hand: the last seq this process appended and the running digest of
        the log up to it (`log_digest`), so the next append chains from it in its one
        insert; updated only after a commit, forgotten when the hand ends (or, past
        `DIGESTS_KEPT` hands, the oldest). A hand not here (after a start), or whose
        stored digest is another (another process appended), reads the stored one."""

    async def append(self, hand_id: int, expected_seq: int, seat: int, kind: str,
                     payload: Any, source: ActionSource, at: float, *,
                     deadlines: Sequence[NewDeadline] | None = None,
                     snapshot: NewSnapshot | None = None,
                     premoves_spent: Sequence[int] = (),
                     asked_at: float | None = None,
                     banks: Mapping[int, float] | None = None,
                     fence: TableBump | None = None) -> ActionRow:
        """Write action number ``expected_seq`` of a live hand: a compare-and-set.

        It lands only if ``expected_seq`` is exactly the next seq (1 for the first);
        otherwise `StaleAction` (someone else's click got there first) and nothing is
        written. With ``deadlines``, the hand's deadlines are replaced by these in the
        same transaction, so a crash cannot leave a move without its next timer. With
        ``snapshot`` (the state this action reached), it becomes the hand's one snapshot
        in the same transaction, sealed with the digest of the log up to it. The seats of
        ``premoves_spent`` lose their next discard chosen in advance (played, or asked
        instead: `bot.store.premoves`) in the same transaction too.
        ``asked_at``: a person's own move, when its decision was put to them (their
        answer time: the lobby's expected pace). ``banks``: the seats' time banks as
        this move leaves them (seat → seconds left), in the same transaction.
        """
        action = NewAction(expected_seq, seat, kind, payload, source, at, asked_at)
        if snapshot is not None and snapshot.seq != expected_seq:
            raise ConstraintError(f"a snapshot written with action {expected_seq} is of "
                                  f"that action, not of {snapshot.seq}")
        cached = self._digests.get(hand_id)
        row, running = await self._at_once(_append_now, hand_id, action, deadlines,
                                           snapshot, cached, tuple(premoves_spent),
                                           banks, fence=fence)
        self._remember(hand_id, expected_seq, running)  # committed: the log has it
        return row

    def known(self, hand_id: int, seq: int, digest: str | None) -> None:
        """The hand's log as a rebuild read it: its last action ``seq`` and the digest
        stored with it, so that the next append chains from it in its one insert
        instead of reading it first (a cold table's click: one round trip less on
        PostgreSQL). Only ever a guess the insert checks: a log another process
        appended to since is read then, as for a hand not known."""
        if digest is None or seq <= 0:
            return
        mine = self._digests.get(hand_id)
        if mine is None or mine[0] < seq:
            self._remember(hand_id, seq, digest)

    def _remember(self, hand_id: int, seq: int, digest: str) -> None:
        """Keep the hand's newest digest, newest hands last; past `DIGESTS_KEPT` hands
        the one appended to longest ago goes (in shared mode another process may end a
        hand this one appended to: its end is never seen here)."""
        digests = self._digests
        digests.pop(hand_id, None)
        digests[hand_id] = (seq, digest)
        if len(digests) > DIGESTS_KEPT:
            del digests[next(iter(digests))]

    async def snapshots(self, hand_id: int) -> list[SnapshotRow]:
        """A hand's snapshots, oldest first (a live hand keeps at most one)."""
        rows = await self._all("SELECT * FROM hand_snapshots WHERE hand_id = ?"
                                    " ORDER BY seq", (hand_id,))
        return [SnapshotRow.of(r) for r in rows]

    async def actions(self, hand_id: int, *, after: int = 0) -> list[ActionRow]:
        """The hand's log in seq order (from ``after + 1``): replayed to rebuild state,
        or read back once it ended (its compact row, `bot.store.compact`)."""
        rows = await self._all(
            "SELECT * FROM actions WHERE hand_id = ? AND seq > ? ORDER BY seq", (hand_id, after))
        if rows:
            return [ActionRow.of(r) for r in rows]
        return [d.row for d in (await self._decoded([hand_id])).get(hand_id, [])
                if d.row.seq > after]

    async def logs(self, hand_ids: Iterable[int]) -> dict[int, list[ActionRow]]:
        """Each of these hands' logs in seq order, as `actions` reads one (a hand with
        no action left out), in two reads."""
        wanted = sorted(set(hand_ids))
        out: dict[int, list[ActionRow]] = {}
        if not wanted:
            return out
        for r in await self._all(f"SELECT * FROM actions WHERE hand_id IN ({marks(wanted)})"
                                 " ORDER BY hand_id, seq", wanted):
            out.setdefault(int(r["hand_id"]), []).append(ActionRow.of(r))
        for hand_id, decoded in (await self._decoded(
                [h for h in wanted if h not in out])).items():
            out[hand_id] = [d.row for d in decoded]
        return out

    async def _decoded(self, hand_ids: Sequence[int]) -> dict[int, list[Decoded]]:
        """The compact logs of these hands, decoded."""
        if not hand_ids:
            return {}
        rows = await self._all(
            "SELECT l.hand_id, h.started_at, l.log, l.packed FROM hand_logs l JOIN hands h"
            f" ON h.id = l.hand_id WHERE l.hand_id IN ({marks(hand_ids)})", list(hand_ids))
        return {int(r[0]): decode(int(r[0]), float(r[1]), text_of(str(r[2]), r[3]))
                for r in rows}

    async def verify(self, hand_id: int) -> bool:
        """Whether the hand's log, as stored now (its rows or its compact row), gives
        the running digest stored with its last action (`next_log_digest`): True for a
        log written before migration 0012, which has none to check against."""
        rows = await self._all("SELECT seq, seat, kind, payload, log_digest FROM actions"
                               " WHERE hand_id = ? ORDER BY seq", (hand_id,))
        if rows:
            stored = rows[-1]["log_digest"]
            worked = log_digest((r[0], r[1], r[2], r[3]) for r in rows)
        else:
            row = await self._one("SELECT log_digest FROM hand_logs WHERE hand_id = ?",
                                  (hand_id,))
            if row is None:
                return False
            stored = row[0]
            worked = digest_of((await self._decoded([hand_id])).get(hand_id, []))
        return stored is None or bytes(stored).hex() == worked

    async def answer_times(self, user_ids: Iterable[int], *, recent: int = ANSWERS_READ
                           ) -> dict[int, list[float]]:
        """Each person's own answer times (seconds from a decision put to them to their
        move, ``asked_at`` to ``at``: migration 0023), their ``recent`` newest, newest
        first, at every table they sat at; a person with none on record is left out.
        Only their own moves count (not a timer's or the computer's), attributed through
        the seat they sat in. The hands still played are read from their rows; the ended
        ones from their compact logs, newest hands first, a few at a time until
        ``recent`` are found."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        found: dict[int, list[tuple[float, float]]] = {}  # person → (at, seconds)
        rows = await self._all(
            "SELECT user_id, at, seconds FROM (SELECT s.user_id, a.at,"
            " a.at - a.asked_at AS seconds,"
            " ROW_NUMBER() OVER (PARTITION BY s.user_id ORDER BY a.at DESC) AS n"
            " FROM seats s JOIN matches m ON m.table_id = s.table_id"
            " JOIN hands h ON h.match_id = m.id"
            " JOIN actions a ON a.hand_id = h.id AND a.seat = s.seat"
            f" WHERE s.user_id IN ({marks(wanted)}) AND a.source = 'player'"
            " AND a.asked_at IS NOT NULL) t WHERE n <= ? ORDER BY user_id, n",
            (*wanted, recent))
        for r in rows:
            found.setdefault(int(r["user_id"]), []).append(
                (float(r["at"]), max(0.0, float(r["seconds"]))))
        for user in wanted:
            await self._compact_answers(user, recent, found.setdefault(user, []))
        out: dict[int, list[float]] = {}
        for user, times in found.items():
            if times:
                times.sort(key=lambda t: -t[0])
                out[user] = [seconds for _, seconds in times[:recent]]
        return out

    async def _compact_answers(self, user_id: int, recent: int,
                               into: list[tuple[float, float]]) -> None:
        """The person's answer times from the compact logs of the hands they sat in,
        newest hands first, until ``recent`` are found (or their hands run out)."""
        mine: list[tuple[float, float]] = []
        before: int | None = None
        while len(mine) < recent:
            rows = await self._all(
                "SELECT h.id, h.started_at, s.seat, l.log, l.packed FROM seats s"
                " JOIN matches m ON m.table_id = s.table_id JOIN hands h ON h.match_id = m.id"
                " JOIN hand_logs l ON l.hand_id = h.id WHERE s.user_id = ?"
                + ("" if before is None else " AND h.id < ?")
                + f" ORDER BY h.id DESC LIMIT {ANSWER_HANDS}",
                (user_id,) if before is None else (user_id, before))
            for r in rows:
                seat = int(r["seat"])
                mine.extend((d.row.at, max(0.0, d.row.at - d.asked_at))
                            for d in decode(int(r["id"]), float(r["started_at"]),
                                            text_of(str(r["log"]), r["packed"]))
                            if d.row.seat == seat and d.row.source == "player"
                            and d.asked_at is not None)
            if len(rows) < ANSWER_HANDS:
                break
            before = int(rows[-1]["id"])
        into.extend(mine)

    async def next_seq(self, hand_id: int) -> int:
        """The seq the hand's next action must carry."""
        row = await self._one(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE hand_id = ?", (hand_id,))
        return int(row[0]) if row else 1

    async def insert_in(self, db: Session, hand_id: int, action: NewAction) -> None:
        """``action`` as the hand's next, in the caller's transaction (the hand locked
        first): the compare-and-set of `append`, for a hand's final action."""
        await _insert_next(db, hand_id, action, self._digests.get(hand_id))

    def forget(self, hand_id: int) -> None:
        """The hand ended: its digest is no longer needed."""
        self._digests.pop(hand_id, None)
