"""Deadlines: each seat's timer in a live hand, its half-time reminder, and (several
processes on one database, 0008) claiming the ones whose moment has come."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store import hands
from bot.store.database import Session
from bot.store.errors import NotFound
from bot.store.repository import DEADLINE_SELECT, Repository, TableBump, marks, skip_locked
from bot.store.rows import DeadlineKind, DeadlineRow, NewDeadline, Waiting


def moment_of(alias: str = "") -> str:
    """A deadline's next moment as SQL (``alias``: the deadlines table's, with its dot):
    a person's reminder at half their timer (`DeadlineRow.half_at`, computed the same
    way) until it went out, then the warning when a quarter is left (``warn_at``) until
    it went out, then the deadline. Without an alias it is migration 0031's index
    expression, word for word (the queries below are written so as to use that index)."""
    a = alias
    return (f"CASE WHEN {a}kind <> 'computer' AND {a}reminded_at IS NULL"
            f" THEN {a}set_at + (COALESCE({a}timer_at, {a}due_at) - {a}set_at) / 2"
            f" WHEN {a}kind <> 'computer' AND {a}warn_at IS NOT NULL AND {a}warned_at IS NULL"
            f" THEN {a}warn_at ELSE {a}due_at END")


MOMENT = moment_of()
"""The index's expression (migration 0031: ``deadlines_by_moment``)."""
_MOMENT = moment_of("d.")
_CLAIMABLE = f"{_MOMENT} <= ? AND (d.claimed_until IS NULL OR d.claimed_until < ?)"
Moment = tuple[float, int, int]
"""A deadline's place in the order moments come: its next moment, hand, seat."""
WAITING = ("FROM seats s JOIN game_tables t ON t.id = s.table_id"
           " JOIN matches m ON m.table_id = t.id AND m.status = 'playing'"
           " JOIN hands h ON h.match_id = m.id AND h.status = 'live'"
           " JOIN deadlines d ON d.hand_id = h.id AND d.seat = s.seat"
           " WHERE s.user_id IS NOT NULL AND s.away = 0 AND t.status = 'playing'"
           " AND d.kind IN ('turn', 'claim')")
"""The decisions that wait for a person (seat ``s``, table ``t``, deadline ``d``): a turn
or claim deadline of their seat in a live hand of a playing table (not one the computer
plays: away, or a standing choice); a query adds its own conditions with AND."""


_DM_OWED = ("CASE WHEN EXISTS (SELECT 1 FROM hands h JOIN matches m ON m.id = h.match_id"
            " JOIN seats s ON s.table_id = m.table_id WHERE h.id = ? AND s.seat = ?"
            " AND s.dm_order >= h.number * 4294967296 + ?) THEN 0 ELSE 1 END")
"""A new decision's ``dm_owed`` (migration 0035), given its hand, seat and step: 0 when
the seat's stored DM already shows it (a deadline written again for a decision whose DM
went out), else 1; the seats' trigger clears it when a DM showing it is stored later."""
_COLUMNS = "hand_id, seat, seq, kind, set_at, due_at, timer_at, warn_at, dm_owed"


def _values(hand_id: int, d: NewDeadline) -> tuple[object, ...]:
    return (hand_id, d.seat, d.seq, d.kind, d.set_at, d.due_at, d.timer_at, d.warn_at,
            hand_id, d.seat, d.seq)


_FRESH = ("seq = excluded.seq, kind = excluded.kind, set_at = excluded.set_at,"
          " due_at = excluded.due_at, timer_at = excluded.timer_at,"
          " warn_at = excluded.warn_at, reminded_at = NULL, warned_at = NULL,"
          " claimed_by = NULL, claimed_until = NULL, dm_owed = excluded.dm_owed")
"""Every column of a deadline upserted over a seat's old one, as a new row has it."""


async def replace_deadlines_in(db: Session, hand_id: int,
                               deadlines: Sequence[NewDeadline]) -> None:
    """Delete then insert: two deadlines for one seat break the primary key. On
    PostgreSQL (each statement a round trip, on every move) one statement: the other
    seats' deadlines deleted in its WITH, these upserted each as a new row (a seat twice
    still goes the two statements' way, refused by the primary key)."""
    seats = [d.seat for d in deadlines]
    if db.for_update and seats and len(set(seats)) == len(seats):
        rows = ", ".join(f"(?, ?, ?, ?, ?, ?, ?, ?, {_DM_OWED})" for _ in deadlines)
        await db.run(f"WITH gone AS (DELETE FROM deadlines WHERE hand_id = ? AND seat NOT IN"
                     f" ({marks(seats)})) INSERT INTO deadlines ({_COLUMNS}) VALUES {rows}"
                     f" ON CONFLICT (hand_id, seat) DO UPDATE SET {_FRESH}",
                     (hand_id, *seats, *(v for d in deadlines for v in _values(hand_id, d))))
        return
    await db.run("DELETE FROM deadlines WHERE hand_id = ?", (hand_id,))
    if not deadlines:
        return
    await db.run_many(f"INSERT INTO deadlines ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?,"
                      f" {_DM_OWED})", [_values(hand_id, d) for d in deadlines])


async def _upsert_in(db: Session, hand_id: int,
                     d: NewDeadline) -> None:
    await db.run(f"INSERT INTO deadlines ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?,"
                 f" {_DM_OWED}) ON CONFLICT (hand_id, seat)"
                 " DO UPDATE SET seq = excluded.seq, kind = excluded.kind, set_at ="
                 " excluded.set_at, due_at = excluded.due_at, timer_at = excluded.timer_at,"
                 " warn_at = excluded.warn_at, reminded_at = NULL, warned_at = CASE WHEN"
                 " deadlines.seq = excluded.seq THEN deadlines.warned_at END,"
                 " claimed_by = NULL, claimed_until = NULL, dm_owed = excluded.dm_owed",
                 _values(hand_id, d))


async def _deadline_in(db: Session, hand_id: int,
                       seat: int) -> DeadlineRow:
    row = await db.one(f"{DEADLINE_SELECT} WHERE d.hand_id = ? AND d.seat = ?",
                     (hand_id, seat))
    if row is None:
        raise NotFound(f"no deadline for seat {seat} in hand {hand_id}")
    return DeadlineRow.of(row)


class Deadlines(Repository):
    """The hands' deadlines."""

    async def set(self, hand_id: int, seat: int, *, seq: int, kind: DeadlineKind,
                  set_at: float, due_at: float, timer_at: float | None = None,
                  warn_at: float | None = None, fence: TableBump | None = None
                  ) -> DeadlineRow:
        """Set or replace a seat's deadline in a hand (a new one is not yet reminded)."""
        async with self._write(fence) as db:
            await hands.live_hand_in(db, hand_id)
            await _upsert_in(db, hand_id, NewDeadline(seat, seq, kind, set_at, due_at,
                                                      timer_at, warn_at))
            return await _deadline_in(db, hand_id, seat)

    async def replace(self, hand_id: int,
                      deadlines: Sequence[NewDeadline],
                      *, fence: TableBump | None = None) -> list[DeadlineRow]:
        """Make these the hand's only deadlines (e.g. a claim window opens)."""
        async with self._write(fence) as db:
            await hands.live_hand_in(db, hand_id)
            await replace_deadlines_in(db, hand_id, deadlines)
        return await self.all(hand_id)

    async def clear(self, hand_id: int, seat: int) -> bool:
        """Drop a seat's deadline (it answered); False if it had none."""
        async with self._write() as db:
            count = await db.run("DELETE FROM deadlines WHERE hand_id = ? AND seat = ?",
                                  (hand_id, seat))
            return count > 0

    async def clear_hand(self, hand_id: int) -> int:
        """Drop all of a hand's deadlines; returns how many there were."""
        async with self._write() as db:
            count = await db.run("DELETE FROM deadlines WHERE hand_id = ?", (hand_id,))
            return count

    async def mark_reminded(self, hand_id: int, seat: int, at: float,
                            *, fence: TableBump | None = None) -> DeadlineRow:
        """The half-time reminder went out: never send it twice."""
        async with self._write(fence) as db:
            # the claim of the reminder's moment ends: the deadline's own is the next one
            count = await db.run("UPDATE deadlines SET reminded_at = ?, claimed_by = NULL,"
                                 " claimed_until = NULL WHERE hand_id = ? AND seat = ?",
                                 (at, hand_id, seat))
            if count == 0:
                raise NotFound(f"no deadline for seat {seat} in hand {hand_id}")
            return await _deadline_in(db, hand_id, seat)

    async def mark_warned(self, hand_id: int, seat: int, at: float,
                          *, fence: TableBump | None = None) -> DeadlineRow:
        """The quarter-left warning went out: never send it twice (a reminder not yet
        sent by then is not sent any more either: the warning says more)."""
        async with self._write(fence) as db:
            count = await db.run("UPDATE deadlines SET warned_at = ?, reminded_at ="
                                 " COALESCE(reminded_at, ?), claimed_by = NULL,"
                                 " claimed_until = NULL WHERE hand_id = ? AND seat = ?",
                                 (at, at, hand_id, seat))
            if count == 0:
                raise NotFound(f"no deadline for seat {seat} in hand {hand_id}")
            return await _deadline_in(db, hand_id, seat)

    async def defer_overdue(self, until: float, *, computer_until: float | None = None) -> int:
        """Move every deadline due before ``until`` to ``until`` (restart grace period).

        Downtime must not cost anyone a turn: call with now + grace after a restart.
        With ``computer_until``, the moves nobody waits for a person to make (kind
        "computer": a computer, an away seat, a standing choice) are moved there
        instead, since grace is for people. Returns how many deadlines moved.
        """
        async with self._write() as db:
            if computer_until is None:
                count = await db.run("UPDATE deadlines SET due_at = ? WHERE due_at < ?",
                                      (until, until))
                return count
            people = await db.run("UPDATE deadlines SET due_at = ? WHERE due_at < ?"
                                       " AND kind <> 'computer'", (until, until))
            computers = await db.run("UPDATE deadlines SET due_at = ? WHERE due_at < ?"
                                          " AND kind = 'computer'",
                                      (computer_until, computer_until))
            return people + computers

    async def earliest(self) -> DeadlineRow | None:
        """What the scheduler sleeps until."""
        row = await self._one(f"{DEADLINE_SELECT} ORDER BY d.due_at, d.hand_id, d.seat"
                                   " LIMIT 1")
        return DeadlineRow.of(row) if row else None

    async def due(self, now: float) -> list[DeadlineRow]:
        """Every deadline due at or before ``now``, soonest first."""
        rows = await self._all(f"{DEADLINE_SELECT} WHERE d.due_at <= ?"
                                    " ORDER BY d.due_at, d.hand_id, d.seat", (now,))
        return [DeadlineRow.of(r) for r in rows]

    async def all(self, hand_id: int | None = None) -> list[DeadlineRow]:
        """All deadlines (of one hand, or everywhere: reloaded after a restart)."""
        where, params = (" WHERE d.hand_id = ?", (hand_id,)) if hand_id is not None else ("", ())
        rows = await self._all(f"{DEADLINE_SELECT}{where} ORDER BY d.due_at, d.hand_id,"
                                    " d.seat", params)
        return [DeadlineRow.of(r) for r in rows]

    async def claim(self, now: float, *, owner: str, until: float,
                    limit: int = 20) -> list[DeadlineRow]:
        """Claim for ``owner`` (until ``until``) the deadlines whose moment has come — the
        half-time reminder a person's owes, else the deadline itself — and that nobody
        holds (or whose holder's lease ran out: a killed process). The moment come
        first first (through migration 0031's index, whatever the number of deadlines). On
        PostgreSQL the rows are taken ``FOR UPDATE SKIP LOCKED``: a process claiming at
        the same moment neither waits for them nor gets them (SQLite's write lock
        serialises the claims)."""
        async with self._write() as db:
            # in the order the moments come: a range of migration 0031's index
            rows = await db.all(f"{DEADLINE_SELECT} WHERE {_CLAIMABLE}"
                                f" ORDER BY {_MOMENT}, d.hand_id, d.seat LIMIT ?"
                                f"{skip_locked(db, 'd')}", (now, now, limit))
            await db.run_many("UPDATE deadlines SET claimed_by = ?, claimed_until = ?"
                              " WHERE hand_id = ? AND seat = ?",
                              [(owner, until, r["hand_id"], r["seat"]) for r in rows])
            return [DeadlineRow.of(r) for r in rows]

    async def next_claimable(self) -> float | None:
        """The earliest moment a deadline nobody holds comes due (reminder or deadline)."""
        row = await self._one(f"SELECT min({_MOMENT}) AS at FROM deadlines d"
                                   " WHERE d.claimed_by IS NULL")
        return None if row is None or row["at"] is None else float(row["at"])

    async def page(self, after: Moment | None, limit: int
                   ) -> list[tuple[Moment, DeadlineRow]]:
        """The next ``limit`` deadlines in the order their next moments come (`MOMENT`,
        then hand and seat), after ``after`` (None: from the first), each with its place
        in that order: what the scheduler holds next (scheduler.py). One range of
        migration 0031's index, whatever the number of deadlines."""
        where, params = "", ()  # type: tuple[str, tuple[float, ...]]
        if after is not None:
            where, params = f" WHERE ({_MOMENT}, d.hand_id, d.seat) > (?, ?, ?)", after
        rows = await self._all(f"SELECT d.*, m.table_id, {_MOMENT} AS moment FROM deadlines d"
                               " JOIN hands h ON h.id = d.hand_id"
                               " JOIN matches m ON m.id = h.match_id"
                               f"{where} ORDER BY {_MOMENT}, d.hand_id, d.seat LIMIT ?",
                               (*params, limit))
        return [((float(r["moment"]), r["hand_id"], r["seat"]), DeadlineRow.of(r))
                for r in rows]

    async def count(self) -> int:
        """How many deadlines are stored (the start-up's report)."""
        row = await self._one("SELECT count(*) AS n FROM deadlines")
        return 0 if row is None else int(row["n"])

    async def stranded(self) -> list[int]:
        """The tables a crash of an older version left playing with no live hand with a
        deadline (between two writes), as migration 0035 listed them when it upgraded
        the database (`look_for_stranded`): start-up mends them at once, then takes each
        off the list (`mended`). One read of that list, whatever the number of tables."""
        rows = await self._all("SELECT table_id FROM stranded_tables ORDER BY table_id")
        return [int(r["table_id"]) for r in rows]

    async def mended(self, table_ids: Sequence[int]) -> None:
        """These `stranded` tables were mended: off the list."""
        if table_ids:
            async with self._write() as db:
                await db.run_many("DELETE FROM stranded_tables WHERE table_id = ?",
                                  [(t,) for t in table_ids])

    async def look_for_stranded(self) -> int:
        """Every playing table whose match has no live hand with a deadline, put on the
        `stranded` list: what migration 0035 did once (only a version older than it
        leaves one, and such a version refuses the database since); tests standing for
        such a crash call it. How many tables the list holds."""
        async with self._write() as db:
            await db.run(
                "INSERT INTO stranded_tables (table_id) SELECT t.id FROM game_tables t"
                " WHERE t.status = 'playing' AND NOT EXISTS (SELECT 1 FROM matches m"
                " JOIN hands h ON h.match_id = m.id AND h.status = 'live'"
                " JOIN deadlines d ON d.hand_id = h.id"
                " WHERE m.table_id = t.id AND m.status = 'playing')"
                " ON CONFLICT (table_id) DO NOTHING")
            row = await db.one("SELECT COUNT(*) AS n FROM stranded_tables")
        return 0 if row is None else int(row["n"])

    async def waiting_for(self, user_id: int) -> list[Waiting]:
        """The decisions that wait for this person right now, at every table of every
        server: their seat's turn or claim deadline in a live hand of a playing table
        (not a seat the computer plays: away, or a standing choice, kind "computer"),
        the soonest deadline first. Only the person's own seats: nothing of another
        seat (whether it is asked in a claim window is its secret)."""
        rows = await self._all(
            "SELECT t.*, s.seat AS w_seat, h.number AS w_number, d.kind AS w_kind,"
            " d.seq AS w_seq, d.set_at AS w_set_at, d.due_at AS w_due_at"
            f" {WAITING} AND s.user_id = ? ORDER BY d.due_at, t.id", (user_id,))
        return [Waiting.of(r) for r in rows]
