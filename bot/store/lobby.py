"""The lobby: tables and their seats, the bot's own settings and people's locales."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.store.database import Params, Session
from bot.store.errors import AlreadySeated, NotFound, SeatTaken, StaleStatus
from bot.store.repository import LIVE, Repository, TableBump, as_json, locking
from bot.store.rows import Rules, SeatRow, StandingChoices, TableRow, TableStatus


async def table_in(db: Session, table_id: int, *, lock: bool = False) -> TableRow:
    """The table's row; with ``lock``, locked for the rest of this write."""
    row = await db.one(f"SELECT * FROM game_tables WHERE id = ?{locking(db, lock)}",
                       (table_id,))
    if row is None:
        raise NotFound(f"no table {table_id}")
    return TableRow.of(row)


async def insert_seat_in(db: Session, table_id: int, seat: int, user_id: int | None,
                         display_name: str, at: float) -> None:
    await db.run("INSERT INTO seats (table_id, seat, user_id, is_computer,"
                 " display_name, joined_at) VALUES (?, ?, ?, ?, ?, ?)",
                 (table_id, seat, user_id, int(user_id is None), display_name, at))


async def seat_in(db: Session, table_id: int, seat: int) -> SeatRow:
    row = await db.one("SELECT * FROM seats WHERE table_id = ? AND seat = ?",
                     (table_id, seat))
    if row is None:
        raise NotFound(f"seat {seat} of table {table_id} is empty")
    return SeatRow.of(row)


class Lobby(Repository):
    """Tables, their seats, the bot's settings and people's locales."""

    # ---- tables ----------------------------------------------------------------------

    async def create_table(self, *, guild_id: int, channel_id: int, creator_id: int,
                           rules: Rules, at: float,
                           options: Mapping[str, Any] | None = None,
                           creator_name: str | None = None) -> TableRow:
        """A new table in the lobby; with ``creator_name``, its creator sits in seat 0 in
        the same transaction: a seat refused leaves no table."""
        async with self._write() as db:
            row = await db.one(
                "INSERT INTO game_tables (guild_id, channel_id, creator_id, rules, options,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING *",
                (guild_id, channel_id, creator_id, rules, as_json(dict(options or {})), at))
            assert row is not None  # an INSERT … RETURNING returns its row
            if creator_name is not None:
                await insert_seat_in(db, row["id"], 0, creator_id, creator_name, at)
            return TableRow.of(row)

    async def get_table(self, table_id: int) -> TableRow | None:
        row = await self._one("SELECT * FROM game_tables WHERE id = ?", (table_id,))
        return TableRow.of(row) if row else None

    async def table_at(self, table_id: int, *, guild_id: int, channel_id: int
                       ) -> TableRow | None:
        """The table ``table_id`` if it is one of that server's channel (None: there is
        no such table there, whether it is elsewhere or nowhere)."""
        row = await self._one_at_once(  # a click's first question: no trip (SQLite)
            "SELECT * FROM game_tables WHERE id = ? AND guild_id = ? AND channel_id = ?",
            (table_id, guild_id, channel_id))
        return TableRow.of(row) if row else None

    async def tables_in_channel(self, channel_id: int, *,
                                live_only: bool = False) -> list[TableRow]:
        """The channel's tables, oldest first (live only: lobby or playing)."""
        live = f" AND status IN {LIVE}" if live_only else ""
        rows = await self._all(
            f"SELECT * FROM game_tables WHERE channel_id = ?{live} ORDER BY id", (channel_id,))
        return [TableRow.of(r) for r in rows]

    async def live_tables(self) -> list[TableRow]:
        """Every table in a lobby or in play: what a restart must bring back."""
        rows = await self._all(
            f"SELECT * FROM game_tables WHERE status IN {LIVE} ORDER BY id")
        return [TableRow.of(r) for r in rows]

    async def count_live(self) -> int:
        """How many tables are in a lobby or in play (start-up's report: no row read)."""
        row = await self._one(f"SELECT count(*) AS n FROM game_tables WHERE status IN {LIVE}")
        return 0 if row is None else int(row["n"])

    async def set_status(self, table_id: int, status: TableStatus, *,
                         expected: TableStatus | Iterable[TableStatus] | None = None,
                         fence: TableBump | None = None) -> TableRow:
        """Move a table to ``status``; with ``expected``, only from that status.

        ``expected`` makes it a compare-and-set, so two racing Start (or Cancel) clicks
        cannot both take effect: the loser gets `StaleStatus`.
        """
        allowed = [expected] if isinstance(expected, str) else expected
        async with self._write(fence) as db:
            current = await table_in(db, table_id, lock=True)
            if allowed is not None and current.status not in allowed:
                raise StaleStatus(f"table {table_id} is {current.status}, not "
                                  f"{' or '.join(allowed)}")
            await db.run("UPDATE game_tables SET status = ? WHERE id = ?", (status, table_id))
            return await table_in(db, table_id)

    async def set_options(self, table_id: int, options: Mapping[str, Any]) -> TableRow:
        return await self._update_table(table_id, "options = ?", (as_json(dict(options)),))

    async def set_lobby_message(self, table_id: int, message_id: int | None) -> TableRow:
        return await self._update_table(table_id, "lobby_message_id = ?", (message_id,))

    async def set_table_message(self, table_id: int, message_id: int | None,
                                posted_at: float | None) -> TableRow:
        """The channel's table picture: which message, and when it was (re-)posted."""
        return await self._update_table(
            table_id, "table_message_id = ?, table_message_posted_at = ?",
            (message_id, posted_at))

    async def set_ping_message(self, table_id: int, message_id: int | None) -> TableRow:
        """The channel's standing "your turn" mention (None: none stands)."""
        return await self._update_table(table_id, "ping_message_id = ?", (message_id,))

    async def set_permission_error_reported(self, table_id: int, reported: bool) -> TableRow:
        """Remember that a missing permission was already reported (say it once)."""
        return await self._update_table(table_id, "permission_error_reported = ?",
                                        (int(reported),))

    async def _update_table(self, table_id: int, assignments: str, params: Params) -> TableRow:
        async with self._write() as db:
            count = await db.run(f"UPDATE game_tables SET {assignments} WHERE id = ?",
                                  (*params, table_id))
            if count == 0:
                raise NotFound(f"no table {table_id}")
            return await table_in(db, table_id)

    # ---- seats -----------------------------------------------------------------------

    async def sit(self, table_id: int, seat: int, *, user_id: int, display_name: str,
                  at: float, fence: TableBump | None = None) -> SeatRow:
        """Seat a person; `SeatTaken` or `AlreadySeated` if that cannot be."""
        return await self._sit(table_id, seat, user_id, display_name, at, fence=fence)

    async def sit_computer(self, table_id: int, seat: int, *, display_name: str,
                           at: float, fence: TableBump | None = None) -> SeatRow:
        """Seat a computer player in an empty seat."""
        return await self._sit(table_id, seat, None, display_name, at, fence=fence)

    async def _sit(self, table_id: int, seat: int, user_id: int | None, display_name: str,
                   at: float, *, fence: TableBump | None = None) -> SeatRow:
        async with self._write(fence) as db:
            await table_in(db, table_id, lock=True)  # one seat change at a time
            if await db.one("SELECT 1 FROM seats WHERE table_id = ? AND seat = ?",
                          (table_id, seat)):
                raise SeatTaken(f"seat {seat} of table {table_id} is taken")
            if user_id is not None and await db.one(
                    "SELECT 1 FROM seats WHERE table_id = ? AND user_id = ?",
                    (table_id, user_id)):
                raise AlreadySeated(f"user {user_id} already sits at table {table_id}")
            await insert_seat_in(db, table_id, seat, user_id, display_name, at)
            return await seat_in(db, table_id, seat)

    async def leave(self, table_id: int, seat: int, *, fence: TableBump | None = None) -> None:
        """Empty a seat (in the lobby; during play use `make_computer`)."""
        async with self._write(fence) as db:
            count = await db.run("DELETE FROM seats WHERE table_id = ? AND seat = ?",
                                  (table_id, seat))
            if count == 0:
                raise NotFound(f"seat {seat} of table {table_id} is empty")

    async def make_computer(self, table_id: int, seat: int, *, display_name: str) -> SeatRow:
        """Hand a person's seat to a computer player (they left mid-match)."""
        return await self._update_seat(
            table_id, seat, "user_id = NULL, is_computer = 1, display_name = ?, away = 0,"
                            " consecutive_timeouts = 0, dm_closed = 0", (display_name,))

    async def set_away(self, table_id: int, seat: int, away: bool,
                       *, fence: TableBump | None = None) -> SeatRow:
        return await self._update_seat(table_id, seat, "away = ?", (int(away),), fence=fence)

    async def add_timeout(self, table_id: int, seat: int,
                          *, fence: TableBump | None = None) -> SeatRow:
        """Count one more decision in a row that timed out."""
        return await self._update_seat(
            table_id, seat, "consecutive_timeouts = consecutive_timeouts + 1", (), fence=fence)

    async def reset_timeouts(self, table_id: int, seat: int,
                             *, fence: TableBump | None = None) -> SeatRow:
        """The player acted: their run of timeouts is over."""
        return await self._update_seat(table_id, seat, "consecutive_timeouts = 0", (), fence=fence)

    async def set_choices(self, table_id: int, seat: int, choices: StandingChoices,
                          *, fence: TableBump | None = None) -> SeatRow:
        return await self._update_seat(table_id, seat, "choices = ?", (choices.to_json(),),
                                       fence=fence)

    async def set_dm_closed(self, table_id: int, seat: int, closed: bool) -> SeatRow:
        """Remember a refused DM, so the channel notice is posted once, not every turn."""
        return await self._update_seat(table_id, seat, "dm_closed = ?", (int(closed),))

    async def seats(self, table_id: int) -> list[SeatRow]:
        """The occupied seats of a table, by seat number."""
        rows = await self._all("SELECT * FROM seats WHERE table_id = ? ORDER BY seat",
                                    (table_id,))
        return [SeatRow.of(r) for r in rows]

    async def seat_of(self, table_id: int, user_id: int) -> SeatRow | None:
        row = await self._one_at_once(  # a click's first question: no trip (SQLite)
            "SELECT * FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user_id))
        return SeatRow.of(row) if row else None

    async def seats_of_user(self, user_id: int, *, live_only: bool = True) -> list[SeatRow]:
        """Where a person sits (for `/mahjong hand`): live tables only by default."""
        live = f" AND t.status IN {LIVE}" if live_only else ""
        rows = await self._all(
            "SELECT s.* FROM seats s JOIN game_tables t ON t.id = s.table_id"
            f" WHERE s.user_id = ?{live} ORDER BY s.table_id", (user_id,))
        return [SeatRow.of(r) for r in rows]

    async def _update_seat(self, table_id: int, seat: int, assignments: str,
                           params: Params, *, fence: TableBump | None = None) -> SeatRow:
        async with self._write(fence) as db:
            count = await db.run(f"UPDATE seats SET {assignments} WHERE table_id = ? AND seat = ?",
                (*params, table_id, seat))
            if count == 0:
                raise NotFound(f"seat {seat} of table {table_id} is empty")
            return await seat_in(db, table_id, seat)

    # ---- the bot's settings, people's locales -----------------------------------------

    async def setting(self, key: str) -> str | None:
        """One of the bot's own settings (see migration 0006), or None if never set."""
        row = await self._one("SELECT value FROM bot_settings WHERE key = ?", (key,))
        return row["value"] if row is not None else None

    async def set_setting(self, key: str, value: str, *, at: float) -> None:
        async with self._write() as db:
            await db.run("INSERT INTO bot_settings (key, value, updated_at) VALUES (?, ?, ?)"
                           " ON CONFLICT (key) DO UPDATE SET value = excluded.value,"
                           " updated_at = excluded.updated_at", (key, value, at))

    async def set_user_locale(self, user_id: int, locale: str, at: float) -> bool:
        """Remember the locale a person last used (whether or not they sit anywhere);
        True if it changed, False when it was already known (nothing written). One
        statement in as few trips as can be (`Database.run_alone`): every click on a
        cold table asks it, its person forgotten with the table (issue 32)."""
        count = await self._db.run_alone(
            "INSERT INTO user_locales (user_id, locale, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale,"
            " updated_at = excluded.updated_at"
            " WHERE user_locales.locale <> excluded.locale", (user_id, locale, at))
        return count > 0

    async def user_locales(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The remembered locale of each of these people who has one."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        marks = ", ".join("?" * len(wanted))
        rows = await self._all(
            f"SELECT user_id, locale FROM user_locales WHERE user_id IN ({marks})", wanted)
        return {r["user_id"]: r["locale"] for r in rows}
