"""Matches: their rows, starting one with its first hand, dealing the next hand, and
people leaving mid-match (the computer takes the seat; penalties, departures)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from bot.store import hands, leaderboard, lobby, outbox
from bot.store.database import Session
from bot.store.deadlines import replace_deadlines_in
from bot.store.errors import Conflict, ConstraintError, NotFound, StaleStatus
from bot.store.repository import Repository, TableBump, locking
from bot.store.rows import (
    Departure,
    HandRow,
    LeaderboardDelta,
    MatchRow,
    MatchStatus,
    NewHand,
    SeatRow,
    TableRow,
    fraction_text,
    totals_json,
)


async def match_in(db: Session, match_id: int, *, lock: bool = False) -> MatchRow:
    """The match's row; with ``lock``, locked for the rest of this write."""
    row = await db.one(f"SELECT * FROM matches WHERE id = ?{locking(db, lock)}",
                       (match_id,))
    if row is None:
        raise NotFound(f"no match {match_id}")
    return MatchRow.of(row)


async def create_in(db: Session, table_id: int, first_dealer: int,
                    at: float) -> MatchRow:
    await lobby.table_in(db, table_id, lock=True)  # one new match at a time
    if await db.one("SELECT 1 FROM matches WHERE table_id = ? AND status = 'playing'",
                    (table_id,)):
        raise Conflict(f"table {table_id} already has a match in play")
    row = await db.one(
        "INSERT INTO matches (table_id, number, first_dealer, started_at)"
        " VALUES (?, (SELECT COALESCE(MAX(number), 0) + 1 FROM matches"
        " WHERE table_id = ?), ?, ?) RETURNING *", (table_id, table_id, first_dealer, at))
    assert row is not None  # an INSERT … RETURNING returns its row
    return MatchRow.of(row)


async def finish_in(db: Session, match_id: int,
                    totals: Mapping[int, Fraction] | None, at: float,
                    status: MatchStatus) -> None:
    match = await match_in(db, match_id, lock=True)
    if match.status != "playing":
        raise StaleStatus(f"match {match_id} is already {match.status}")
    await db.run("UPDATE matches SET status = ?, finished_at = ?, totals = ?"
                   " WHERE id = ?",
               (status, at, totals_json(totals) if totals is not None else None, match_id))


async def deal_in(db: Session, match_id: int, new: NewHand, at: float) -> HandRow:
    """The match's next hand, its first deadlines and its announcements (the hand's
    commitment), in the caller's transaction: `StaleStatus` unless the match is in
    play, `Conflict` if it already has a live hand."""
    hands.check_wall(new.wall)
    match = await match_in(db, match_id, lock=True)  # one new hand at a time
    if match.status != "playing":
        raise StaleStatus(f"match {match_id} is {match.status}")
    hand = await hands.insert_in(db, match_id, new, at)
    if new.deadlines:
        await replace_deadlines_in(db, hand.id, new.deadlines)
    await outbox.announce_in(db, hand.table_id, new.announcements, at, hand)
    return hand


class Matches(Repository):
    """Matches, their deals, and people leaving them."""

    async def create(self, table_id: int, *, first_dealer: int, at: float,
                     fence: TableBump | None = None) -> MatchRow:
        """The table's next match (numbered 1, 2, …); one in play at a time."""
        async with self._write(fence) as db:
            return await create_in(db, table_id, first_dealer, at)

    async def start(self, table_id: int, *, first_dealer: int, at: float,
                    hand: NewHand,
                    fence: TableBump | None = None) -> tuple[TableRow, MatchRow, HandRow]:
        """Start a table in ONE transaction: from the lobby to ``playing``, its match,
        and the match's first hand (its announcements and first deadlines with it).

        Another process therefore never reads a table playing with no match or no hand
        (shared mode), nor does a crash leave one. `StaleStatus` unless the table is in
        the lobby (two Start clicks: the loser's); nothing is written then."""
        async with self._write(fence) as db:
            table = await lobby.table_in(db, table_id, lock=True)
            if table.status != "lobby":
                raise StaleStatus(f"table {table_id} is {table.status}, not lobby")
            await db.run("UPDATE game_tables SET status = 'playing' WHERE id = ?",
                         (table_id,))
            match = await create_in(db, table_id, first_dealer, at)
            row = await deal_in(db, match.id, hand, at)
            return await lobby.table_in(db, table_id), match, row

    async def get(self, match_id: int) -> MatchRow | None:
        row = await self._one("SELECT * FROM matches WHERE id = ?", (match_id,))
        return MatchRow.of(row) if row else None

    async def live(self, table_id: int) -> MatchRow | None:
        row = await self._one(
            "SELECT * FROM matches WHERE table_id = ? AND status = 'playing'", (table_id,))
        return MatchRow.of(row) if row else None

    async def of_table(self, table_id: int) -> list[MatchRow]:
        rows = await self._all("SELECT * FROM matches WHERE table_id = ? ORDER BY number",
                                    (table_id,))
        return [MatchRow.of(r) for r in rows]

    async def finish(self, match_id: int, *, totals: Mapping[int, Fraction] | None,
                     at: float, status: MatchStatus = "finished") -> MatchRow:
        """End a match (finished with totals, or abandoned)."""
        async with self._write() as db:
            await finish_in(db, match_id, totals, at, status)
            return await match_in(db, match_id)

    async def deal(self, match_id: int, hand: NewHand, *, at: float,
                   fence: TableBump | None = None) -> HandRow:
        """The match's next hand (numbered 1, 2, …); one live at a time.

        The wall is the dealing order, two characters a tile ("1m5z2p…"): the
        commitment shown at the start must be checkable against it at the end. The
        hand's announcements (its commitment) and first deadlines are written with it.
        The service deals with `start` and `Endings.finish_and_deal`; this one mends a
        database a crash of an older version left with a match and no live hand.
        """
        async with self._write(fence) as db:
            return await deal_in(db, match_id, hand, at)

    async def replace_by_computer(self, table_id: int, seat: int, *, display_name: str,
                                  match_id: int | None = None,
                                  penalties: Mapping[int, Fraction] | None = None,
                                  reason: str = "abandon",
                                  deltas: Sequence[LeaderboardDelta] = (),
                                  at: float = 0.0,
                                  left: tuple[int, int] | None = None,
                                  fence: TableBump | None = None) -> SeatRow:
        """A person leaves mid-match, in ONE transaction: the computer takes the seat,
        any penalty is recorded against the match, the standings are charged, and
        (``left``: the running hand's id and the actions it had) who the person was is
        kept (`departures`)."""
        async with self._write(fence) as db:
            table = await lobby.table_in(db, table_id)
            if left is not None:
                person = await db.one("SELECT user_id, display_name FROM seats"
                                      " WHERE table_id = ? AND seat = ? AND user_id IS NOT NULL",
                                      (table_id, seat))
                if person is None:
                    raise NotFound(f"seat {seat} of table {table_id} holds no person")
                await db.run("INSERT INTO departures (hand_id, seat, seq, user_id,"
                             " display_name, at) VALUES (?, ?, ?, ?, ?, ?)",
                             (left[0], seat, left[1], person["user_id"],
                              person["display_name"], at))
            count = await db.run(
                "UPDATE seats SET user_id = NULL, is_computer = 1, display_name = ?,"
                " away = 0, consecutive_timeouts = 0, dm_closed = 0"
                " WHERE table_id = ? AND seat = ?", (display_name, table_id, seat))
            if count == 0:
                raise NotFound(f"seat {seat} of table {table_id} is empty")
            for s, amount in (penalties or {}).items():
                if match_id is None:
                    raise ConstraintError("a penalty needs the match it belongs to")
                await db.run("INSERT INTO penalties (match_id, seat, amount, reason, at)"
                               " VALUES (?, ?, ?, ?, ?)",
                           (match_id, s, fraction_text(amount), reason, at))
            await leaderboard.apply_in(db, table.guild_id, table.channel_id, table.rules,
                                        deltas)
            return await lobby.seat_in(db, table_id, seat)

    async def departures(self, match_id: int) -> list[Departure]:
        """The people who left the match while it ran, in the order they left."""
        rows = await self._all(
            "SELECT d.*, h.number FROM departures d JOIN hands h ON h.id = d.hand_id"
            " WHERE h.match_id = ? ORDER BY h.number, d.seq, d.id", (match_id,))
        return [Departure.of(r) for r in rows]

    async def penalty_totals(self, match_id: int) -> dict[int, Fraction]:
        """Each seat's penalties in a match (seats without any are left out)."""
        rows = await self._all("SELECT seat, amount FROM penalties WHERE match_id = ?",
                                    (match_id,))
        totals: dict[int, Fraction] = {}
        for r in rows:
            totals[r["seat"]] = totals.get(r["seat"], Fraction(0)) + Fraction(r["amount"])
        return totals
