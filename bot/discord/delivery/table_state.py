"""What the presenter knows of each table while it shows it.

Part of it is remembered across restarts through the `PresenterMemory` (message ids,
the picture's time, closed DMs): read once per table, on first use. The rest lives only
here: the newest table notice and the one shown (the picture's coalescing), the claim
windows already mentioned, and the newest decision seen for each seat (`due`), from
which a reminder that came too late is dropped without asking anyone.

In shared mode (several processes drawing the same tables) what the memory keeps is
read again before each delivery (`SharedTables.fresh`): another process may have re-posted a
message or seen a player's DMs close or open since.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot.discord.delivery.memory import PresenterMemory
from bot.service import TableNotice
from bot.store.presenter_memory import HandReplyRow


def channel_queue(table_id: int) -> tuple[str, int]:
    """The `Outbox` key of a table's channel messages (each seat's DMs have their own)."""
    return ("chan", table_id)


@dataclass
class TableState:
    latest: TableNotice | None = None
    shown: TableNotice | None = None
    scheduled: bool = False
    last_edit: float = 0.0
    lobby_message: int | None = None
    table_message: int | None = None
    table_posted: float = 0.0
    ping_message: int | None = None
    dm_closed: dict[int, int] = field(default_factory=dict)
    """Seats whose DMs Discord refused → the hand it happened in (0: before a restart)."""
    claim_pings: set[tuple[int, int, bool]] = field(default_factory=set)
    """(hand, step, reminder) of the claim windows already mentioned."""
    turn_pings: set[tuple[int, int, int]] = field(default_factory=set)
    """(seat, hand, step) of the turns already mentioned (a closed-DMs player is
    mentioned once a decision: not again at its half time)."""
    due: dict[int, tuple[int, int | None]] = field(default_factory=dict)
    """Seat → (hand, step) of the newest private notice seen for it: the decision in
    front of it now (step None: none)."""
    dm_messages: dict[int, int] = field(default_factory=dict)
    """Seat → its DM with move buttons, as the memory last said: in shared mode read
    before each delivery; with one process, those the memory kept from before the
    start and not yet replaced (`DmPresenter` knows the newer ones)."""
    dm_orders: dict[int, int] = field(default_factory=dict)
    """Shared mode: seat → the step its newest DM with a decision shows, as the memory
    last said (a DM owed after a crash is not sent twice)."""
    hand_replies: dict[int, HandReplyRow] = field(default_factory=dict)
    """Seat → its `/mahjong hand` reply that follows the game (`bot.discord.hand.replies`):
    in shared mode as the memory last said; with one process, those the memory kept
    from before the start and not yet followed again."""
    loaded: bool = False
    loading: asyncio.Lock = field(default_factory=asyncio.Lock)

    def is_due(self, seat: int, hand: int, step: int) -> bool:
        """Whether the decision (hand, step) is still the newest one seen for ``seat``."""
        return self.due.get(seat) == (hand, step)

    def dm_blocked(self, seat: int, hand: int) -> bool:
        """Closed DMs are tried again once a new hand starts, so a player who opened
        them meanwhile is written to again; within the hand they stay closed."""
        if seat not in self.dm_closed:
            return False
        if self.dm_closed[seat] == 0:
            self.dm_closed[seat] = hand  # known from the memory only: closed as of this hand
        return self.dm_closed[seat] >= hand


class Tables:
    """Each table's `TableState`, its remembered part loaded once."""

    def __init__(self, memory: PresenterMemory) -> None:
        self.memory = memory
        self._states: dict[int, TableState] = {}

    def get(self, table_id: int) -> TableState:
        """The state as known so far (not loaded: for what is kept in memory only)."""
        return self._states.setdefault(table_id, TableState())

    async def load(self, table_id: int) -> TableState:
        """The state with what the memory remembers (after a restart) read in."""
        st = self.get(table_id)
        if st.loaded:
            return st
        # the channel's and each seat's queues run at once: none may go on before the
        # load has finished (a mention or a DM would miss what it remembers)
        async with st.loading:
            if st.loaded:
                return st
            mem = await self.memory.recall(table_id)
            st.lobby_message = st.lobby_message or mem.lobby_message
            st.table_message = st.table_message or mem.table_message
            st.table_posted = st.table_posted or mem.table_posted
            st.ping_message = st.ping_message or mem.ping_message
            for seat in mem.dm_closed:
                st.dm_closed.setdefault(seat, 0)
            st.hand_replies = dict(mem.hand_replies)
            st.dm_messages = dict(mem.dm_messages)
            st.loaded = True
        return st

    async def fresh(self, table_id: int) -> TableState:
        """The state before a delivery: one process, `load` alone (what it remembers is
        what this process wrote; shared mode: `SharedTables`)."""
        return await self.load(table_id)

    def forget(self, table_id: int) -> TableState | None:
        return self._states.pop(table_id, None)

    def coalescing(self) -> bool:
        """Whether a table's picture waits for its coalescing timer (tests wait for it)."""
        return any(st.scheduled for st in self._states.values())


class SharedTables(Tables):
    """Shared mode: what the memory keeps is read again before each delivery."""

    async def fresh(self, table_id: int) -> TableState:
        """`load`, and the memory read again (one query): its message ids, the
        picture's time, each seat's closed DMs and DM with buttons are what they are
        now, whichever process wrote them."""
        st = await self.load(table_id)
        mem = await self.memory.recall(table_id)
        st.lobby_message, st.table_message = mem.lobby_message, mem.table_message
        st.table_posted, st.ping_message = mem.table_posted, mem.ping_message
        for seat in set(st.dm_closed) - mem.dm_closed:  # opened, as another process saw
            del st.dm_closed[seat]
        for seat in mem.dm_closed:
            st.dm_closed.setdefault(seat, 0)
        st.dm_messages = dict(mem.dm_messages)
        st.dm_orders = dict(mem.dm_orders)
        st.hand_replies = dict(mem.hand_replies)
        return st
