"""What the presenter knows of each table while it shows it.

Part of it is remembered across restarts through the `PresenterMemory` (message ids,
the picture's time, closed DMs): read once per table, on first use. The rest lives only
here: the newest table notice and the one shown (the picture's coalescing), the claim
windows already mentioned, and the newest decision seen for each seat (`due`), from
which a reminder that came too late is dropped without asking anyone.

In shared mode (several processes drawing the same tables) what the memory keeps is
read again before each delivery (`SharedTables.fresh`): another process may have re-posted a
message or seen a player's DMs close or open since.

A table the service lets go idle leaves here too (`Tables.drop`, when nothing of it is
being delivered: `DiscordNotifier.unloaded`), so what is kept here is bounded by the
tables in use, not by every table ever shown. What only this memory knew and a later
delivery needs (each seat's last decision seen, the mentions made of open decisions,
the hand each closed DM was refused in, what the picture shows — its digest —; with
one process each seat's DM still showing buttons, which shared mode's memory keeps
itself) is written to the memory then
(`set_residue`) and read back, once, when the table is shown again (`load`): it comes
back as it left. In shared mode the process that shows it next reads it, whichever it
is: what the last process to let it go had seen.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from bot.discord.delivery.memory import PresenterMemory
from bot.service import TableNotice
from bot.store.presenter_memory import HandReplyRow

log = logging.getLogger(__name__)


def picture_digest(notice: TableNotice) -> str:
    """What a table picture shows, as a short text kept across processes: two notices
    with the same digest draw the same picture (a repr that differs, say in an order,
    only makes a picture be drawn again)."""
    shown = repr((notice.hand_number, notice.resting, notice.view()))
    return hashlib.sha256(shown.encode()).hexdigest()[:32]


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
    shown_digest: str | None = None
    """The `picture_digest` of the picture shown when the table left memory (its
    residue), until a picture is drawn since."""
    recalled_due: dict[int, tuple[int, int | None]] = field(default_factory=dict)
    """Each seat's `due` as the table left memory (its residue): the seat's decision
    before the first notice since it came back (`DmPresenter`'s echo)."""

    def shows(self, notice: TableNotice) -> bool:
        """Whether the picture shown draws what ``notice`` would (nothing public
        changed), as known here or, back from out of memory, by its digest."""
        if self.shown is not None:
            return notice.hand_number == self.shown.hand_number \
                and notice.resting == self.shown.resting \
                and notice.view() == self.shown.view()
        return self.shown_digest is not None and picture_digest(notice) == self.shown_digest

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


def residue_of(st: TableState, dms: dict[int, int] | None) -> str | None:
    """What only this memory knows of the table that a later delivery needs, as the
    memory keeps it (JSON; None: nothing). ``dms``: each seat's DM still showing move
    buttons, when known better here than in the memory (one process)."""
    kept: dict[str, Any] = {}
    if st.due:
        kept["due"] = sorted([seat, *d] for seat, d in st.due.items())
    if st.turn_pings:
        kept["turn"] = sorted(list(p) for p in st.turn_pings)
    if st.claim_pings:
        kept["claim"] = sorted([h, s, int(r)] for h, s, r in st.claim_pings)
    closed = sorted([seat, hand] for seat, hand in st.dm_closed.items() if hand)
    if closed:
        kept["closed"] = closed
    if dms is not None:
        kept["dms"] = sorted([seat, m] for seat, m in dms.items())
    shown = picture_digest(st.shown) if st.shown is not None else st.shown_digest
    if shown is not None:
        kept["shown"] = shown
    return json.dumps(kept, separators=(",", ":")) if kept else None


def _take_residue(st: TableState, text: str) -> bool:
    """Put back what `residue_of` kept (before anything newer: a notice since wins);
    whether it knew each seat's DM with buttons."""
    try:
        kept = json.loads(text)
        due = {int(seat): (int(h), None if s is None else int(s))
               for seat, h, s in kept.get("due", ())}
        turn = {(int(a), int(b), int(c)) for a, b, c in kept.get("turn", ())}
        claim = {(int(a), int(b), bool(c)) for a, b, c in kept.get("claim", ())}
        closed = {int(seat): int(hand) for seat, hand in kept.get("closed", ())}
        dms = {int(seat): int(m) for seat, m in kept["dms"]} if "dms" in kept else None
        shown = kept.get("shown")
        if shown is not None and not isinstance(shown, str):
            raise TypeError(shown)
    except (ValueError, TypeError, KeyError, AttributeError):
        log.warning("an unreadable presenter residue was ignored: %r", text[:200])
        return False
    st.recalled_due = due
    if st.shown is None:
        st.shown_digest = shown
    for seat, d in due.items():
        st.due.setdefault(seat, d)
    st.turn_pings |= turn
    st.claim_pings |= claim
    for seat, hand in closed.items():
        if st.dm_closed.get(seat) == 0:  # the memory says closed: since that hand
            st.dm_closed[seat] = hand
    if dms is not None:
        st.dm_messages = dms
    return dms is not None


class Tables:
    """Each table's `TableState`, its remembered part loaded once."""

    def __init__(self, memory: PresenterMemory) -> None:
        self.memory = memory
        self._states: dict[int, TableState] = {}
        self._spills: dict[int, asyncio.Task[None]] = {}
        """Tables whose residue is being written (`drop`): a load waits for it."""

    def __contains__(self, table_id: int) -> bool:
        return table_id in self._states

    def __len__(self) -> int:
        return len(self._states)

    def known(self, table_id: int) -> TableState | None:
        """The state if this memory has one (none is made)."""
        return self._states.get(table_id)

    def get(self, table_id: int) -> TableState:
        """The state as known so far (not loaded: for what is kept in memory only)."""
        st = self._states.get(table_id)
        if st is None:  # not setdefault: a click asks ~11 times, a new state is 9 objects
            st = self._states[table_id] = TableState()
        return st

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
            spill = self._spills.get(table_id)
            if spill is not None:  # it left moments ago: its residue first
                await asyncio.shield(spill)
            mem = await self.memory.recall(table_id)
            st.lobby_message = st.lobby_message or mem.lobby_message
            st.table_message = st.table_message or mem.table_message
            st.table_posted = st.table_posted or mem.table_posted
            st.ping_message = st.ping_message or mem.ping_message
            for seat in mem.dm_closed:
                st.dm_closed.setdefault(seat, 0)
            st.hand_replies = dict(mem.hand_replies)
            st.dm_messages = dict(mem.dm_messages)
            if mem.residue is not None:
                _take_residue(st, mem.residue)
                # read once: a crash later must not bring back what is passed by then
                await self.memory.set_residue(table_id, None)
            st.loaded = True
        return st

    async def fresh(self, table_id: int) -> TableState:
        """The state before a delivery: one process, `load` alone (what it remembers is
        what this process wrote; shared mode: `SharedTables`)."""
        return await self.load(table_id)

    def settled(self, table_id: int) -> TableState | None:
        """The state `fresh` would give now, when that needs no read (one process, the
        table loaded); None when it would read (not loaded, or shared mode)."""
        st = self._states.get(table_id)
        return st if st is not None and st.loaded else None

    def forget(self, table_id: int) -> TableState | None:
        return self._states.pop(table_id, None)

    def busy(self, table_id: int) -> bool:
        """Whether the table's state may not leave now: its picture waits for its
        coalescing timer, or it is being loaded."""
        st = self._states.get(table_id)
        return st is not None and (st.scheduled or st.loading.locked())

    def drop(self, table_id: int, dms: dict[int, int] | None = None) -> None:
        """The table leaves this memory (nothing of it is being delivered: the caller
        knows). What only this memory knew is written first (`residue_of`; ``dms``: each
        seat's DM with buttons, when known here: one process); a load of the table
        meanwhile waits for that write."""
        st = self._states.pop(table_id, None)
        if st is None:
            return
        if st.loaded and residue_of(st, dms) is None:
            return  # nothing beyond what the memory says (its residue was read: none)
        self._spills[table_id] = asyncio.get_running_loop().create_task(
            self._spill(table_id, st, dms, self._spills.get(table_id)),
            name=f"residue-{table_id}")

    async def _spill(self, table_id: int, st: TableState, dms: dict[int, int] | None,
                     before: asyncio.Task[None] | None) -> None:
        try:
            if before is not None:  # the same table left twice in a moment: in order
                await asyncio.wait([before])
            if not st.loaded:  # notices came, no delivery read the memory: what it
                # keeps from an earlier time out of memory goes with what came since
                mem = await self.memory.recall(table_id)
                dms = None
                if mem.residue is not None and _take_residue(st, mem.residue):
                    dms = st.dm_messages
            residue = residue_of(st, dms)
            if residue is not None:
                await self.memory.set_residue(table_id, residue)
        except Exception:
            log.exception("table %s: what the presenter knew was not kept", table_id)
        finally:
            if self._spills.get(table_id) is asyncio.current_task():
                del self._spills[table_id]

    async def drain(self) -> None:
        """Wait for the residues being written (shutdown, tests)."""
        while self._spills:
            await asyncio.gather(*self._spills.values(), return_exceptions=True)

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

    def settled(self, table_id: int) -> TableState | None:
        """Never without a read: another process may have written since."""
        return None
