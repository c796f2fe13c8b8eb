"""`StoreMemory`: the Discord presenter's memory of each table, kept in the store.

It implements the presenter's `PresenterMemory` (bot/discord/delivery/memory.py) over columns
the store already has: the table's message ids, picture time and permission flag
(``game_tables``), and each seat's refused DMs (``seats.dm_closed``). The store does
not import the adapter: the interface is met by shape. Each seat's DM with move buttons
(``seats.dm_message_id``, 0009) and the atomic swaps are shared mode's
(`bot.discord.delivery.memory`); each seat's followed `/mahjong hand` reply (``seats.reply_*``,
0015) is kept in every mode (a restart follows it on); `recall` reads it all in one
query.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.store.rows import HandReplyRow

if TYPE_CHECKING:
    from bot.store.store import Store

__all__ = ["HandReplyRow", "StoreMemory", "TableMemory"]


@dataclass(frozen=True)
class TableMemory:
    """A table's presenter memory as read back (`recall`): what the presenter posted and
    learnt. One type for the store (`StoreMemory`) and the adapter (`InMemory`, the
    presenter), kept here since the store does not import the adapter."""

    lobby_message: int | None = None
    table_message: int | None = None
    table_posted: float = 0.0
    """When the table picture was (re-)posted (0: never)."""
    ping_message: int | None = None
    """The standing "your turn" mention (None: none stands)."""
    dm_closed: frozenset[int] = frozenset()
    """Seats whose DMs Discord refused."""
    permission_error_reported: bool = False
    dm_messages: Mapping[int, int] = field(default_factory=dict)
    """Seat → its DM still showing move buttons (kept in shared mode only)."""
    dm_orders: Mapping[int, int] = field(default_factory=dict)
    """Seat → the step its newest DM with a decision shows (`swap_dm_message`'s
    ``order``)."""
    hand_replies: Mapping[int, HandReplyRow] = field(default_factory=dict)
    """Seat → its `/mahjong hand` reply that follows the game."""
    residue: str | None = None
    """What the presenter knew of the table in memory only when the table left its
    memory idle (`set_residue`, 0034; the presenter's own JSON), until it is read back."""


class StoreMemory:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def recall(self, table_id: int) -> TableMemory:
        rows = await self.store.presenter.view_messages(table_id)
        if not rows:
            return TableMemory()
        row = rows[0]
        seats = [r for r in rows if r["seat"] is not None]
        return TableMemory(
            lobby_message=row["lobby_message_id"], table_message=row["table_message_id"],
            table_posted=row["table_message_posted_at"] or 0.0,
            ping_message=row["ping_message_id"],
            dm_closed=frozenset(r["seat"] for r in seats if r["dm_closed"]),
            permission_error_reported=bool(row["permission_error_reported"]),
            dm_messages={r["seat"]: r["dm_message_id"] for r in seats
                         if r["dm_message_id"] is not None},
            dm_orders={r["seat"]: int(r["dm_order"]) for r in seats
                       if r["dm_order"] is not None},
            hand_replies={r["seat"]: reply for r in seats
                          if (reply := self.store.presenter.hand_reply_of(r)) is not None},
            residue=row["presenter_residue"])

    async def set_lobby_message(self, table_id: int, message_id: int) -> None:
        await self.store.lobby.set_lobby_message(table_id, message_id)

    async def set_table_message(self, table_id: int, message_id: int,
                                posted_at: float) -> None:
        await self.store.lobby.set_table_message(table_id, message_id, posted_at)

    async def set_ping_message(self, table_id: int, message_id: int | None) -> None:
        await self.store.lobby.set_ping_message(table_id, message_id)

    async def set_dm_closed(self, table_id: int, seat: int, closed: bool) -> None:
        await self.store.lobby.set_dm_closed(table_id, seat, closed)

    async def set_permission_error_reported(self, table_id: int) -> None:
        await self.store.lobby.set_permission_error_reported(table_id, True)

    async def set_residue(self, table_id: int, residue: str | None) -> None:
        await self.store.presenter.set_residue(table_id, residue)

    async def swap_message(self, table_id: int, which: str, message_id: int | None,
                           posted_at: float = 0.0) -> int | None:
        return await self.store.presenter.swap_view_message(table_id, which, message_id, posted_at)

    async def swap_dm_message(self, table_id: int, seat: int, message_id: int | None,
                              order: int | None = None, *, shows: int | None = None
                              ) -> int | None:
        return await self.store.presenter.swap_dm_message(table_id, seat, message_id, order,
                                                          shows=shows)

    async def set_dm_message(self, table_id: int, seat: int, message_id: int | None,
                             order: int) -> None:
        await self.store.presenter.set_dm_message(table_id, seat, message_id, order)

    async def forget_dm_messages(self, table_id: int) -> None:
        await self.store.presenter.clear_dm_messages(table_id)

    async def swap_hand_reply(self, table_id: int, seat: int, message_id: int | None, *,
                              token: str = "", user_id: int = 0, until: float = 0.0,
                              order: int = 0) -> HandReplyRow | None:
        reply = None if message_id is None else \
            HandReplyRow(message_id, token, user_id, until, order)
        return await self.store.presenter.swap_hand_reply(table_id, seat, reply)

    async def advance_hand_reply(self, table_id: int, seat: int, message_id: int,
                                 order: int) -> bool:
        return await self.store.presenter.advance_hand_reply(table_id, seat, message_id, order)
