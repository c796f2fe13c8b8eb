"""Where a table's channel messages (the lobby, the picture, the standing mention) are
remembered, and what a new one does to the one it replaces: chosen once, where the
presenter is made (`DiscordNotifier(shared=…)`), so no caller asks which.

- `KeptHere` (one process): this process knows its messages; a new one is written
  through to the memory (for a restart), and the one it replaces is deleted as this
  process knows it.
- `Swapped` (shared mode: several processes drawing the same tables): the memory is the
  truth; a new message is swapped in (`PresenterMemory.swap_message`) and the one it
  replaced, whichever process posted it, is deleted: two racing posts leave one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Literal, Protocol

import discord

from bot.discord.delivery.memory import PresenterMemory
from bot.discord.delivery.posting import Poster
from bot.discord.delivery.table_state import TableState
from bot.service import TableRef

Kept = Literal["lobby", "table"]
Send = Callable[[], Awaitable[discord.Message | None]]


class ChannelMessages(Protocol):
    """A table's channel messages, one of each kind."""

    async def keep(self, ref: TableRef, which: Kept, message_id: int, *,
                   old: int | None = None, posted_at: float = 0.0) -> None:
        """``message_id`` is the table's new ``which`` message (``old``: the one this
        process knew before it)."""
        ...

    async def post_ping(self, ref: TableRef, st: TableState, send: Send) -> None:
        """The standing mention is posted again (``send``); the previous one goes."""
        ...

    async def drop_ping(self, ref: TableRef, st: TableState) -> None:
        """The standing mention goes (the hand or the table is over)."""
        ...

    async def forget(self, ref: TableRef, st: TableState | None) -> None:
        """The table is over: its mention goes, and what is kept of its DMs."""
        ...


class KeptHere:
    """One process: its messages are the ones it knows, written through."""

    def __init__(self, memory: PresenterMemory, post: Poster) -> None:
        self._memory = memory
        self._post = post

    async def keep(self, ref: TableRef, which: Kept, message_id: int, *,
                   old: int | None = None, posted_at: float = 0.0) -> None:
        if which == "lobby":
            await self._memory.set_lobby_message(ref.table_id, message_id)
        else:
            await self._memory.set_table_message(ref.table_id, message_id, posted_at)
            if old is not None:  # one live picture: the stale one goes
                await self._post.delete(ref, old)

    async def post_ping(self, ref: TableRef, st: TableState, send: Send) -> None:
        old, st.ping_message = st.ping_message, None
        if old is not None:
            await self._post.delete(ref, old)
        message = await send()
        st.ping_message = message.id if message is not None else None
        await self._keep_ping(ref, old, st.ping_message)

    async def drop_ping(self, ref: TableRef, st: TableState) -> None:
        old, st.ping_message = st.ping_message, None
        if old is not None:
            await self._post.delete(ref, old)
            await self._keep_ping(ref, old, None)

    async def forget(self, ref: TableRef, st: TableState | None) -> None:
        if st is not None:
            await self.drop_ping(ref, st)

    async def _keep_ping(self, ref: TableRef, old: int | None, new: int | None) -> None:
        """The standing mention's id is remembered, so that after a restart it is still
        deleted when the next one is posted or the hand ends."""
        if new != old:
            await self._memory.set_ping_message(ref.table_id, new)


class Swapped:
    """Shared mode: the memory's message is the one, whichever process posted it."""

    def __init__(self, memory: PresenterMemory, post: Poster) -> None:
        self._memory = memory
        self._post = post

    async def keep(self, ref: TableRef, which: Kept, message_id: int, *,
                   old: int | None = None, posted_at: float = 0.0) -> None:
        await self._swap(ref, which, message_id, posted_at)

    async def post_ping(self, ref: TableRef, st: TableState, send: Send) -> None:
        message = await send()  # posted first, then swapped in
        new = message.id if message is not None else None
        st.ping_message = new
        await self._swap(ref, "ping", new)

    async def drop_ping(self, ref: TableRef, st: TableState) -> None:
        st.ping_message = None
        await self._swap(ref, "ping", None)

    async def forget(self, ref: TableRef, st: TableState | None) -> None:
        """Whichever process posted the mention and the DMs."""
        await self.drop_ping(ref, st or TableState())
        await self._memory.forget_dm_messages(ref.table_id)

    async def _swap(self, ref: TableRef, which: Literal["lobby", "table", "ping"],
                    new: int | None, posted_at: float = 0.0) -> None:
        old = await self._memory.swap_message(ref.table_id, which, new, posted_at)
        if old is not None and old != new:
            await self._post.delete(ref, old)
