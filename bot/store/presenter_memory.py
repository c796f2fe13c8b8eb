"""`StoreMemory`: the Discord presenter's memory of each table, kept in the store.

It implements the presenter's `PresenterMemory` (bot/discord/memory.py) over columns
the store already has: the table's message ids, picture time and permission flag
(``game_tables``), and each seat's refused DMs (``seats.dm_closed``). The store does
not import the adapter: the interface is met by shape.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.store import Store


@dataclass(frozen=True)
class TableMemoryRow:
    """A table's presenter memory as the store holds it."""

    lobby_message: int | None = None
    table_message: int | None = None
    table_posted: float = 0.0
    ping_message: int | None = None
    dm_closed: frozenset[int] = frozenset()
    permission_error_reported: bool = False


class StoreMemory:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def recall(self, table_id: int) -> TableMemoryRow:
        row = await self.store.get_table(table_id)
        if row is None:
            return TableMemoryRow()
        seats = await self.store.seats(table_id)
        return TableMemoryRow(
            lobby_message=row.lobby_message_id, table_message=row.table_message_id,
            table_posted=row.table_message_posted_at or 0.0,
            ping_message=row.ping_message_id,
            dm_closed=frozenset(s.seat for s in seats if s.dm_closed),
            permission_error_reported=row.permission_error_reported)

    async def set_lobby_message(self, table_id: int, message_id: int) -> None:
        await self.store.set_lobby_message(table_id, message_id)

    async def set_table_message(self, table_id: int, message_id: int,
                                posted_at: float) -> None:
        await self.store.set_table_message(table_id, message_id, posted_at)

    async def set_ping_message(self, table_id: int, message_id: int | None) -> None:
        await self.store.set_ping_message(table_id, message_id)

    async def set_dm_closed(self, table_id: int, seat: int, closed: bool) -> None:
        await self.store.set_dm_closed(table_id, seat, closed)

    async def set_permission_error_reported(self, table_id: int) -> None:
        await self.store.set_permission_error_reported(table_id, True)
