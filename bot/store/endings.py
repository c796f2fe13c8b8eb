"""The end of a hand (settled, and the next one dealt or the match finished) and of a
table (cancelled), each in ONE transaction, and the settlements they leave."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from bot.store import (
    claim_answers,
    hands,
    leaderboard,
    lobby,
    matches,
    outbox,
    premoves,
    ratings,
)
from bot.store.database import Database, Session
from bot.store.errors import StaleStatus
from bot.store.fact_sources import Derive, project_in
from bot.store.hand_logs import compact_in
from bot.store.log import ActionLog
from bot.store.repository import HAND_SELECT, Repository, TableBump, as_json
from bot.store.rows import (
    LIVE_TABLE_STATUSES,
    HandRow,
    LeaderboardDelta,
    NewAction,
    NewAnnouncement,
    NewHand,
    Settlement,
    SettlementRow,
    TableRow,
    fraction_text,
)


class Endings(Repository):
    """Hands and tables ending."""

    def __init__(self, db: Database, log: ActionLog) -> None:
        super().__init__(db)
        self._log = log
        """The hands' logs: a hand's final action goes through their compare-and-set,
        and its digest is forgotten when it ends."""

    async def finish_hand(self, hand_id: int, final: NewAction | None, *,
                          settlements: Sequence[Settlement],
                          deltas: Sequence[LeaderboardDelta], at: float,
                          match_totals: Mapping[int, Fraction] | None = None,
                          announcements: Sequence[NewAnnouncement] = (),
                          facts: Derive | None = None,
                          rating: ratings.Formula | None = None,
                          fence: TableBump | None = None) -> HandRow:
        """End a hand in ONE transaction: final action, settlements, status, standings,
        and what the channel must be told of it (``announcements``, about this hand).

        ``final`` (if the hand ends on an action) goes through the same compare-and-set
        as `ActionLog.append`. The hand's deadlines are cleared. With ``match_totals`` the
        match and its table finish too. A crash or any error leaves none of it written.
        A hand after which the match goes on ends with `finish_and_deal` instead.
        With ``facts`` (the service's derivation) the hand's facts are written too, and
        the match's when it finishes (`bot.store.fact_sources.project_in`); with
        ``rating`` (a formula) the finished match is rated in the same transaction
        (`bot.store.ratings.project_match_in`, from the facts written with it).
        """
        async with self._write(fence) as db:
            ended = await self._finish_in(db, hand_id, final, settlements, deltas, at,
                                          match_totals, announcements, facts)
            if match_totals is not None and rating is not None:
                await ratings.project_match_in(db, ended.match_id, rating)
            return ended

    async def finish_and_deal(self, hand_id: int, final: NewAction | None, *,
                              settlements: Sequence[Settlement],
                              deltas: Sequence[LeaderboardDelta], at: float,
                              announcements: Sequence[NewAnnouncement] = (),
                              deal: NewHand, facts: Derive | None = None,
                              fence: TableBump | None = None) -> tuple[HandRow, HandRow]:
        """`finish_hand` and the match's next hand (``deal``) in ONE transaction: the
        ended hand's row and the new one's. No process ever reads, and no crash leaves,
        a match between two hands (shared mode: a peer's recovery would deal it too)."""
        async with self._write(fence) as db:
            ended = await self._finish_in(db, hand_id, final, settlements, deltas, at,
                                          None, announcements, facts)
            return ended, await matches.deal_in(db, ended.match_id, deal, at)

    async def _finish_in(self, db: Session, hand_id: int, final: NewAction | None,
                         settlements: Sequence[Settlement],
                         deltas: Sequence[LeaderboardDelta], at: float,
                         match_totals: Mapping[int, Fraction] | None,
                         announcements: Sequence[NewAnnouncement],
                         facts: Derive | None = None) -> HandRow:
        hand = await hands.live_hand_in(db, hand_id)
        if final is not None:
            await self._log.insert_in(db, hand_id, final)
        for s in settlements:
            await db.run("INSERT INTO settlements (hand_id, seat, amount, patterns, value,"
                         " win, from_seat, caishen) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         (hand_id, s.seat, fraction_text(s.amount), as_json(s.patterns),
                          s.value, s.win, s.from_seat, s.caishen))
        await db.run("UPDATE hands SET status = 'ended', ended_at = ? WHERE id = ?",
                     (at, hand_id))
        await self._ended_in(db, hand_id, at)
        table = await lobby.table_in(db, hand.table_id)
        await leaderboard.apply_in(db, table.guild_id, table.channel_id, table.rules,
                                    deltas)
        if match_totals is not None:
            await matches.finish_in(db, hand.match_id, match_totals, at, "finished")
            await db.run("UPDATE game_tables SET status = 'finished'"
                         " WHERE id = ? AND status = 'playing'", (hand.table_id,))
        if facts is not None:  # the projection, with what it is derived from
            await project_in(db, facts, hand_id - 1, hand_id)
        await outbox.announce_in(db, hand.table_id, announcements, at, hand)
        return await hands.hand_in(db, hand_id)

    async def _ended_in(self, db: Session, hand_id: int, at: float) -> None:
        """What a hand that ended leaves behind: nothing of its play (deadlines,
        snapshot, answers and discards chosen in advance, time banks), and its log as
        one compact row (`bot.store.hand_logs`: its facts are derived from that form);
        and the announcements delivered long ago are forgotten
        (`outbox.prune_delivered_in`)."""
        await db.run("DELETE FROM deadlines WHERE hand_id = ?", (hand_id,))
        await db.run("DELETE FROM hand_snapshots WHERE hand_id = ?", (hand_id,))
        await db.run("DELETE FROM time_banks WHERE hand_id = ?", (hand_id,))
        await claim_answers.clear_in(db, hand_id)
        await premoves.clear_hand_in(db, hand_id)
        await compact_in(db, self._db.dialect, hand_id)
        await outbox.prune_delivered_in(db, at)
        self._log.forget(hand_id)

    async def cancel_table(self, table_id: int, *, at: float,
                           announcements: Sequence[NewAnnouncement] = (),
                           fence: TableBump | None = None) -> TableRow:
        """Cancel a table in ONE transaction: from the lobby or play to ``cancelled``,
        its live hand ended without settlement (void), its match abandoned, and what
        the channel must be told (the void hand's wall, the match's end) recorded.

        `StaleStatus` if the table is already over; nothing is written then."""
        async with self._write(fence) as db:
            table = await lobby.table_in(db, table_id, lock=True)
            if table.status not in LIVE_TABLE_STATUSES:
                raise StaleStatus(f"table {table_id} is {table.status}, not lobby or playing")
            await db.run("UPDATE game_tables SET status = 'cancelled' WHERE id = ?",
                       (table_id,))
            live = await db.one(f"{HAND_SELECT} WHERE m.table_id = ? AND h.status = 'live'",
                              (table_id,))
            if live is not None:
                await db.run("UPDATE hands SET status = 'ended', ended_at = ? WHERE id = ?",
                           (at, live["id"]))
                await self._ended_in(db, live["id"], at)
            await db.run("UPDATE matches SET status = 'abandoned', finished_at = ?"
                           " WHERE table_id = ? AND status = 'playing'", (at, table_id))
            await outbox.announce_in(db, table_id, announcements, at)
            return await lobby.table_in(db, table_id)

    async def settlements(self, hand_id: int) -> list[SettlementRow]:
        rows = await self._all("SELECT * FROM settlements WHERE hand_id = ? ORDER BY seat",
                                    (hand_id,))
        return [SettlementRow.of(r) for r in rows]

    async def match_settlements(self, match_id: int) -> list[SettlementRow]:
        """Every settlement row of a match's hands (rebuilding its totals after a restart)."""
        rows = await self._all(
            "SELECT s.* FROM settlements s JOIN hands h ON h.id = s.hand_id"
            " WHERE h.match_id = ? ORDER BY h.number, s.seat", (match_id,))
        return [SettlementRow.of(r) for r in rows]
