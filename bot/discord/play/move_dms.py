"""Which DM of each seat still shows move buttons: known here, or kept in the shared
memory. Chosen once, where the presenter is made (`DiscordNotifier(shared=…)`), so
`DmPresenter` never asks which.

- `KnownHere` (one process): this process knows the DM it sent last; the memory's is
  read once, after a start, so that a DM from before a restart loses its buttons too;
  the step each DM shows is written for a restart (`Presenter.owed_dms`).
- `SwappedDms` (shared mode): the memory's DM is the one, whichever process sent it; a
  new one is swapped in (`PresenterMemory.swap_dm_message`) and the one it replaced
  loses its buttons, so a player keeps one DM with buttons however processes race.
"""

from __future__ import annotations

from typing import Protocol

from bot.discord.delivery.memory import PresenterMemory
from bot.discord.delivery.table_state import Tables, TableState
from engine.rules.common import SEATS

Key = tuple[int, int]


class MoveDms(Protocol):
    """Each seat's DM with move buttons."""

    clicked_off: dict[Key, int]
    """(table, seat) → the DM this process took the buttons off at a click (not edited
    again when a newer DM replaces it)."""

    async def replace(self, key: Key, buttons: int | None, *, order: int | None,
                      shows: int | None) -> list[int]:
        """``buttons`` (None: none) is now the seat's DM with move buttons (``order``:
        the step it shows, ``shows``: the state); the DMs whose buttons go, in order."""
        ...

    def answered_on(self, key: Key, spared: int | None, st: TableState) -> bool:
        """Whether the DM known to show the seat's buttons is the one answered on (or
        none): nothing to take off."""
        ...

    def stored(self, key: Key, st: TableState) -> int | None:
        """The seat's DM with buttons, as known now (`Tables.fresh` read first)."""
        ...

    async def void(self, key: Key) -> int | None:
        """The table was cancelled: the seat's DM whose buttons go, with the words."""
        ...

    def clicked(self, key: Key, message_id: int | None) -> None:
        """The adapter took the buttons off ``message_id`` (a move was played on it)."""
        ...

    def forget(self, table_id: int) -> None:
        """The table is over."""
        ...

    def leave(self, table_id: int, st: TableState | None) -> dict[int, int] | None:
        """The table leaves this memory (idle, or over): nothing of it is kept here any
        more. Returns each seat's DM still showing move buttons when this process knows
        them better than the memory (``st`` loaded, one process), for `Tables.drop`."""
        ...


class KnownHere:
    """One process: the DM this process sent last, else the memory's from before."""

    def __init__(self, tables: Tables, memory: PresenterMemory) -> None:
        self._tables = tables
        self._memory = memory
        self.move_dms: dict[Key, int] = {}
        """(table, seat) → the newest DM still showing move buttons."""
        self.clicked_off: dict[Key, int] = {}

    async def replace(self, key: Key, buttons: int | None, *, order: int | None,
                      shows: int | None) -> list[int]:
        off = []
        old = self.move_dms.pop(key, None)
        if buttons is not None and self.clicked_off.get(key) == buttons:
            del self.clicked_off[key]  # clicked before its send's reply was read here
        elif buttons is not None:
            self.move_dms[key] = buttons
        # the seat's DM with buttons sent before this process started, if any
        kept = (await self._tables.load(key[0])).dm_messages.pop(key[1], None)
        if kept is not None and kept not in (old, buttons, self.clicked_off.pop(key, None)):
            off.append(kept)
        if order is not None:  # the step shown, kept for a restart (`owed_dms`); what
            # it replaced is known here: a write alone, no swap (a transaction reading
            # the seat first, on every click)
            await self._memory.set_dm_message(*key, buttons, order)
        if old is not None and old != buttons:  # the same: Discord gave back the DM
            off.append(old)  # a nonce made before (a send tried again)
        return off

    def answered_on(self, key: Key, spared: int | None, st: TableState) -> bool:
        # (not loaded yet: a DM from before the start may show them)
        return self.move_dms.get(key) in (None, spared) and st.loaded \
            and st.dm_messages.get(key[1]) in (None, spared)

    def stored(self, key: Key, st: TableState) -> int | None:
        return self.move_dms.get(key, st.dm_messages.get(key[1]))

    async def void(self, key: Key) -> int | None:
        message = self.move_dms.pop(key, None)
        if message is not None:
            return message
        # the seat's DM from before the start not replaced since
        kept = (await self._tables.load(key[0])).dm_messages
        if kept.get(key[1]) != self.clicked_off.pop(key, None):
            return kept.pop(key[1], None)
        return None

    def clicked(self, key: Key, message_id: int | None) -> None:
        if self.move_dms.get(key) == message_id:
            del self.move_dms[key]
        elif message_id is not None:
            # a DM from before the start, maybe; or one whose send's reply is not read
            # yet (the click came by the gateway first, as a quick player's can): not
            # taken for one showing buttons when it is (`replace`), nor edited again
            self.clicked_off[key] = message_id

    def forget(self, table_id: int) -> None:
        for seat in range(SEATS):
            self.move_dms.pop((table_id, seat), None)
            self.clicked_off.pop((table_id, seat), None)

    def leave(self, table_id: int, st: TableState | None) -> dict[int, int] | None:
        """The memory's DM of a seat is the one this process sent last with a decision
        (`replace` writes only those): one whose buttons went since (a DM without a
        decision, a click) is still there. What is known here goes with the residue."""
        dms = None
        if st is not None and st.loaded:
            dms = {}
            for seat, kept in st.dm_messages.items():  # from before the start
                if kept != self.clicked_off.get((table_id, seat)):
                    dms[seat] = kept
            for seat in range(SEATS):
                if (table_id, seat) in self.move_dms:
                    dms[seat] = self.move_dms[(table_id, seat)]
        self.forget(table_id)
        return dms


class SwappedDms:
    """Shared mode: the memory's DM, swapped, whichever process sent it."""

    def __init__(self, tables: Tables, memory: PresenterMemory) -> None:
        self._tables = tables
        self._memory = memory
        self.clicked_off: dict[Key, int] = {}

    async def replace(self, key: Key, buttons: int | None, *, order: int | None,
                      shows: int | None) -> list[int]:
        """A DM of an older step than the stored one (another process sent the newer one
        first) comes back from the swap itself and loses its own buttons; a DM without a
        decision (``shows``) older than the stored decision takes nothing off it."""
        old = await self._swap(key, buttons, order, shows)
        return [] if old is None else [old]

    async def _swap(self, key: Key, new: int | None, order: int | None,
                    shows: int | None = None) -> int | None:
        """``new`` becomes the seat's DM with buttons; returns the one whose buttons are
        to go (None: none, or this process's click took them off)."""
        table_id, seat = key
        stored = self._tables.get(table_id).dm_messages.get(seat)  # read by `_deliver`
        if new is None and stored is None:
            return None  # nothing to take off, nothing to keep: no write
        if new is not None and new == stored:
            return None  # Discord gave back the DM a nonce made before: kept already
        old = await self._memory.swap_dm_message(table_id, seat, new, order, shows=shows)
        if new is not None and old != new:  # stored: known here until the next read
            self._tables.get(table_id).dm_messages[seat] = new
        elif new is None and old is not None:
            self._tables.get(table_id).dm_messages.pop(seat, None)
        if old is not None and self.clicked_off.get(key) == old:
            del self.clicked_off[key]
            return None
        return old

    def answered_on(self, key: Key, spared: int | None, st: TableState) -> bool:
        """Another process may have sent it: the memory is asked in the seat's queue."""
        known = st.dm_messages.get(key[1])
        return known is not None and known == spared

    def stored(self, key: Key, st: TableState) -> int | None:
        return st.dm_messages.get(key[1])

    async def void(self, key: Key) -> int | None:
        """The memory hands each seat's DM to one process (the swap)."""
        message = await self._memory.swap_dm_message(key[0], key[1], None)
        if message is not None and self.clicked_off.pop(key, None) == message:
            return None  # this process's click took its buttons off already
        return message

    def clicked(self, key: Key, message_id: int | None) -> None:
        if message_id is not None:
            self.clicked_off[key] = message_id

    def forget(self, table_id: int) -> None:
        for seat in range(SEATS):
            self.clicked_off.pop((table_id, seat), None)

    def leave(self, table_id: int, st: TableState | None) -> dict[int, int] | None:
        """The memory is read before each delivery: nothing to add to it."""
        self.forget(table_id)
        return None
