"""A hand as its log keeps it, for reading it back once it ended: its table, its deal,
its actions, and who held each seat at each action (a person who left the hand held
the seat up to their departure, the computer after). `/mahjong history` and
`/mahjong replay` both read hands this way."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.service.fairness import parse_wall
from bot.service.live import options_of
from bot.service.notices import TableInfo
from bot.store import Store
from bot.store.rows import ActionRow, HandRow, TableRow
from engine.game import Action, HandState, new_hand
from engine.game.events import Event


@dataclass(frozen=True)
class HandLog:
    """One stored hand: its table's row, its own row (wall, salt, commitment, dealer,
    dice, streak, 荒番), its actions in order and the seats' names."""

    table: TableRow
    hand: HandRow
    actions: tuple[ActionRow, ...]
    names: tuple[str, ...]
    """Who held each seat at the hand's end."""
    handovers: tuple[tuple[int, int, str], ...]
    """(seq, seat, name): the seat's person left the hand after action ``seq``; before
    it the seat was ``name``'s. Ordered by seq."""
    computers: tuple[bool, ...]
    """Whether each seat was the computer's at the hand's end."""

    def names_at(self, seq: int) -> tuple[str, ...]:
        """Who held each seat when action ``seq`` was played (0: the deal)."""
        names = list(self.names)
        for left_after, seat, name in self.handovers:
            if seq <= left_after:
                names[seat] = name
        return tuple(names)

    def deal(self) -> tuple[HandState, tuple[Event, ...]]:
        """The hand as dealt, and the deal's events."""
        hand = self.hand
        return new_hand(self.table.rules, options_of(self.table), parse_wall(hand.wall),
                        hand.dealer, hand.dice, streak=hand.streak,
                        huangfan=hand.huangfan > 0)

    def moves(self) -> tuple[Action, ...]:
        return tuple(Action.from_json(a.payload) for a in self.actions)


async def hand_log(store: Store, table_info: Callable[[int], Awaitable[TableInfo]],
                   table: TableRow, hand: HandRow) -> HandLog:
    """``hand`` of ``table`` read back from the store."""
    info = await table_info(table.id)
    names = list(info.names)
    computers = [s is None or s.is_computer for s in info.seats]
    # A person who left this hand (or a later one) held their seat until then; the
    # computer made the seat's moves after.
    left = [d for d in await store.matches.departures(hand.match_id)
            if d.hand_number >= hand.number]
    for d in left:
        if d.hand_number > hand.number:
            names[d.seat] = d.display_name
            computers[d.seat] = False
    handovers = sorted((d.seq, d.seat, d.display_name) for d in left
                       if d.hand_number == hand.number)
    actions = tuple(await store.log.actions(hand.id))
    return HandLog(table, hand, actions, tuple(names), tuple(handovers), tuple(computers))
