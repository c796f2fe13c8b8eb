"""What the presenter remembers of each table, and the one interface it goes through.

The presenter (`bot.discord.table.notifier`) keeps, per table, the ids of the messages it
posted (the lobby, the table picture and when it was posted, the standing mention),
the seats whose DMs Discord refused, and whether a missing permission was already
reported. A restart must not forget them (an old picture would stay, a closed DM be
tried and announced again), so they are kept by a `PresenterMemory`: the bot's is
`bot.store.StoreMemory` (the SQL stays in bot/store); `InMemory` here serves tests.
Both give back a table's memory as one plain type, `bot.store.TableMemory` (each seat's
followed `/mahjong hand` reply a `HandReplyRow`), kept in bot/store since the store
does not import the adapter.

One process (the default): the presenter reads a table's memory once (`recall`, the
first time it shows the table after a start) and then writes each change through; it
never reads it back. It stores the step each seat's DM with a decision shows
(`swap_dm_message`'s ``order``) in every mode: after a crash the service DMs the
decisions whose DM never went out (`Presenter.owed_dms`).

Shared mode (several processes on one database, each drawing the changes it made): the
memory is the truth, not what this process last saw. Before each delivery the
presenter reads it again (`recall`, one query), and a message it posts is *swapped* in
(`swap_message`, `swap_dm_message`): the new id is stored and the one it replaces is
handed back in one atomic step, and the replacer deletes that message (or takes its
buttons off). Every id ever stored is handed back to exactly one replacer, so however
two processes race, the channel keeps one lobby message, one table picture and at most
one mention, and a player one DM with move buttons: the one stored last.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal, Protocol

from bot.store.presenter_memory import HandReplyRow, TableMemory

ViewMessage = Literal["lobby", "table", "ping"]
"""The table's channel messages the presenter keeps one of."""


class PresenterMemory(Protocol):
    async def recall(self, table_id: int) -> TableMemory:
        """The table's memory (all empty for a table it knows nothing of)."""

    async def set_lobby_message(self, table_id: int, message_id: int) -> None: ...

    async def set_table_message(self, table_id: int, message_id: int,
                                posted_at: float) -> None: ...

    async def set_ping_message(self, table_id: int, message_id: int | None) -> None: ...

    async def set_dm_closed(self, table_id: int, seat: int, closed: bool) -> None: ...

    async def set_permission_error_reported(self, table_id: int) -> None: ...

    async def set_residue(self, table_id: int, residue: str | None) -> None:
        """What the presenter knew of the table in memory only, kept while the table is
        out of its memory (`Tables.drop`; None: nothing)."""

    async def swap_message(self, table_id: int, which: ViewMessage, message_id: int | None,
                           posted_at: float = 0.0) -> int | None:
        """Store ``message_id`` as the table's ``which`` message (``posted_at``: the
        picture's time) and return the id it replaced, in one atomic step."""

    async def swap_dm_message(self, table_id: int, seat: int, message_id: int | None,
                              order: int | None = None, *, shows: int | None = None
                              ) -> int | None:
        """Store the seat's DM with move buttons (None: none) and return the one it
        replaced, in one atomic step. ``order`` (`dm_order`): the step the DM shows; a DM
        older than the stored one is not stored and its own id comes back. ``shows``: a
        DM without a decision, the state it shows (same numbering): older than the
        stored decision, it changes nothing."""

    async def set_dm_message(self, table_id: int, seat: int, message_id: int | None,
                             order: int) -> None:
        """One process: store the seat's DM with move buttons (None: none) and the step
        ``order`` it shows, unless the stored one shows a newer step; nothing comes back
        (the process knows the DM it replaces): `swap_dm_message`'s write alone, in one
        statement, for a restart (`Presenter.owed_dms`)."""

    async def forget_dm_messages(self, table_id: int) -> None:
        """The table is over: no seat's DM (or reply) is kept any more."""

    async def swap_hand_reply(self, table_id: int, seat: int, message_id: int | None, *,
                              token: str = "", user_id: int = 0, until: float = 0.0,
                              order: int = 0) -> HandReplyRow | None:
        """Store the seat's followed reply (``message_id`` None: none) and return the
        one it replaced, in one atomic step."""

    async def advance_hand_reply(self, table_id: int, seat: int, message_id: int,
                                 order: int) -> bool:
        """The reply ``message_id`` shows the state ``order`` from now on, when it is
        still the seat's stored reply and showed an older one (True: draw it)."""


_FIELDS = {"lobby": "lobby_message", "table": "table_message", "ping": "ping_message"}


@dataclass
class InMemory:
    """A `PresenterMemory` in a dict: forgotten with the process (tests; a restart is
    simulated by handing the same object to a new presenter)."""

    tables: dict[int, TableMemory] = field(default_factory=dict)
    dm_orders: dict[tuple[int, int], int | None] = field(default_factory=dict)
    """(table, seat) → the order of the stored DM (`swap_dm_message`)."""
    replies: dict[tuple[int, int], HandReplyRow] = field(default_factory=dict)
    """(table, seat) → its followed reply (`swap_hand_reply`)."""

    async def recall(self, table_id: int) -> TableMemory:
        orders = {seat: order for (table, seat), order in self.dm_orders.items()
                  if table == table_id and order is not None}
        replies = {seat: r for (table, seat), r in self.replies.items() if table == table_id}
        return replace(self.tables.get(table_id, TableMemory()), dm_orders=orders,
                       hand_replies=replies)

    async def set_lobby_message(self, table_id: int, message_id: int) -> None:
        self.tables[table_id] = replace(await self.recall(table_id),
                                        lobby_message=message_id)

    async def set_table_message(self, table_id: int, message_id: int,
                                posted_at: float) -> None:
        self.tables[table_id] = replace(await self.recall(table_id),
                                        table_message=message_id, table_posted=posted_at)

    async def set_ping_message(self, table_id: int, message_id: int | None) -> None:
        self.tables[table_id] = replace(await self.recall(table_id),
                                        ping_message=message_id)

    async def set_dm_closed(self, table_id: int, seat: int, closed: bool) -> None:
        old = await self.recall(table_id)
        seats = old.dm_closed | {seat} if closed else old.dm_closed - {seat}
        self.tables[table_id] = replace(old, dm_closed=seats)

    async def set_permission_error_reported(self, table_id: int) -> None:
        self.tables[table_id] = replace(await self.recall(table_id),
                                        permission_error_reported=True)

    async def set_residue(self, table_id: int, residue: str | None) -> None:
        self.tables[table_id] = replace(await self.recall(table_id), residue=residue)

    async def swap_message(self, table_id: int, which: ViewMessage, message_id: int | None,
                           posted_at: float = 0.0) -> int | None:
        # no await between the read and the write: atomic on the event loop
        old = self.tables.get(table_id, TableMemory())
        if which == "table":
            new = replace(old, table_message=message_id, table_posted=posted_at)
        elif which == "lobby":
            new = replace(old, lobby_message=message_id)
        else:
            new = replace(old, ping_message=message_id)
        self.tables[table_id] = new
        replaced: int | None = getattr(old, _FIELDS[which])
        return replaced

    async def swap_dm_message(self, table_id: int, seat: int, message_id: int | None,
                              order: int | None = None, *, shows: int | None = None
                              ) -> int | None:
        old = self.tables.get(table_id, TableMemory())
        stored = self.dm_orders.get((table_id, seat))
        mine = order if order is not None else shows
        if stored is not None and mine is not None and mine < stored:
            return message_id
        if order is not None:  # a DM without a decision keeps the last one's order
            self.dm_orders[(table_id, seat)] = order
        dms = {s: m for s, m in old.dm_messages.items() if s != seat}
        if message_id is not None:
            dms[seat] = message_id
        self.tables[table_id] = replace(old, dm_messages=dms)
        return old.dm_messages.get(seat)

    async def set_dm_message(self, table_id: int, seat: int, message_id: int | None,
                             order: int) -> None:
        await self.swap_dm_message(table_id, seat, message_id, order)

    async def forget_dm_messages(self, table_id: int) -> None:
        self.tables[table_id] = replace(await self.recall(table_id), dm_messages={})
        for held in (self.dm_orders, self.replies):
            for key in [k for k in held if k[0] == table_id]:
                del held[key]

    async def swap_hand_reply(self, table_id: int, seat: int, message_id: int | None, *,
                              token: str = "", user_id: int = 0, until: float = 0.0,
                              order: int = 0) -> HandReplyRow | None:
        old = self.replies.pop((table_id, seat), None)
        if message_id is not None:
            self.replies[(table_id, seat)] = HandReplyRow(message_id, token, user_id, until,
                                                       order)
        return old

    async def advance_hand_reply(self, table_id: int, seat: int, message_id: int,
                                 order: int) -> bool:
        kept = self.replies.get((table_id, seat))
        if kept is None or kept.message_id != message_id or kept.order >= order:
            return False
        self.replies[(table_id, seat)] = replace(kept, order=order)
        return True
