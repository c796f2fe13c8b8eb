"""Starting a hand: the deal, Shanghai's flowers, Hangzhou's turned 财神; and
`stack_wall`, which builds a wall that deals given hands (for tests and replays)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine import rules
from engine.game.events import (
    Event,
    FlowerLaidAside,
    HandStarted,
    TileDrawn,
    TilesDealt,
    WildcardTurned,
)
from engine.game.hand import FLOWERS_FOR_BA_HUA, end
from engine.game.settle import eight_flowers
from engine.game.state import HandState, SeatState, replace, unshared
from engine.rules.common import SEATS, TableOptions
from engine.tiles import Tile, parse_tiles

DEALT = 13 * SEATS + 1
"""Tiles dealt from the front: 13 each and the dealer's 14th."""


def deal_order(dealer: int) -> tuple[int, ...]:
    """Which seat takes each of the first ``DEALT`` tiles of the wall: three rounds of
    four tiles each from the dealer on, one tile each, then the dealer's 14th."""
    order: list[int] = []
    for _ in range(3):
        for i in range(SEATS):
            order += [(dealer + i) % SEATS] * 4
    order += [(dealer + i) % SEATS for i in range(SEATS)]
    order.append(dealer)
    return tuple(order)


def new_hand(ruleset_name: str, options: Mapping[str, Any] | TableOptions | None,
             wall: Sequence[Tile], dealer: int, dice: tuple[int, int], *,
             streak: int = 1, huangfan: bool = False
             ) -> tuple[HandState, tuple[Event, ...]]:
    """Deal a hand from ``wall`` (drawn from the front; replacements from the back)."""
    ruleset = rules.get(ruleset_name)
    opts = _options(ruleset, options)
    wall = tuple(wall)
    _check_start(ruleset, wall, dealer, dice, streak)
    dice = (dice[0], dice[1])  # a caller's list becomes the record's pair
    hands: list[list[Tile]] = [[] for _ in range(SEATS)]
    for tile, seat in zip(wall, deal_order(dealer), strict=False):
        hands[seat].append(tile)
    # Each record with a dictionary of its own, which the hand's copies keep (`unshared`).
    state = unshared(HandState(
        rules=ruleset.name, options=opts, wall=wall, dealer=dealer, dice=dice,
        streak=streak, huangfan=huangfan and ruleset.has_huangfan,
        seats=tuple(unshared(SeatState(hand=tuple(sorted(h)))) for h in hands),
        front=DEALT, turn=dealer))
    events: list[Event] = [HandStarted(ruleset.name, dealer, dice, streak,
                                       state.huangfan, len(wall))]
    events += [TilesDealt(s, tuple(hands[s])) for s in _from_dealer(dealer)]
    if ruleset.has_flowers:
        state = _deal_flowers(state, events)
    if ruleset.turns_wildcard(opts):
        state = _turn_wildcard(state, events)
    return state, tuple(events)


def _from_dealer(dealer: int) -> list[int]:
    return [(dealer + i) % SEATS for i in range(SEATS)]


def _options(ruleset: rules.RuleSet, options: Mapping[str, Any] | TableOptions | None
             ) -> TableOptions:
    if isinstance(options, ruleset.options_type):
        return options
    if isinstance(options, TableOptions):
        raise TypeError(f"{type(options).__name__} are not options for {ruleset.name}")
    return ruleset.options(options)


def _check_start(ruleset: rules.RuleSet, wall: tuple[Tile, ...], dealer: int,
                 dice: tuple[int, int], streak: int) -> None:
    full = ruleset.tile_set()
    if Counter(wall) != Counter(full):
        size = len(full)
        raise ValueError(f"the wall must be a full set of {size} tiles for {ruleset.name}")
    if dealer not in range(SEATS):
        raise ValueError(f"dealer must be a seat 0–3, not {dealer!r}")
    if len(dice) != 2 or any(d not in range(1, 7) for d in dice):
        raise ValueError(f"dice must be two numbers 1–6, not {dice!r}")
    top = ruleset.max_streak
    if not 1 <= streak <= top:
        raise ValueError(f"streak must be 1–{top}, not {streak!r}")


def _deal_flowers(state: HandState, events: list[Event]) -> HandState:
    """补花 after the deal: the dealer first, then each seat in turn order, each until
    its hand holds no flower; then 八花 if a seat already holds all eight."""
    for seat in _from_dealer(state.dealer):
        while any(t.is_flower for t in state.seats[seat].hand):
            state = _replace_flowers(state, seat, events)
    for seat in _from_dealer(state.dealer):
        if len(state.seats[seat].flowers) == FLOWERS_FOR_BA_HUA:
            ev: list[Event] = []
            state = end(state, (eight_flowers(state, seat),), ev)
            events += ev
            break
    return state


def _replace_flowers(state: HandState, seat: int, events: list[Event]) -> HandState:
    s = state.seats[seat]
    flowers = tuple(t for t in s.hand if t.is_flower)
    hand = [t for t in s.hand if not t.is_flower]
    events += [FlowerLaidAside(seat, f) for f in flowers]
    for _ in flowers:
        tile = state.wall[-1 - state.back]
        state = replace(state, back=state.back + 1)
        events.append(TileDrawn(seat, tile, from_back=True))
        hand.append(tile)
    return state.with_seat(seat, hand=tuple(sorted(hand)), flowers=(*s.flowers, *flowers))


def _turn_wildcard(state: HandState, events: list[Event]) -> HandState:
    """翻财神: one tile turned from the back and set aside; its other copies are 财神."""
    tile = state.wall[-1 - state.back]
    events.append(WildcardTurned(tile))
    return replace(state, back=state.back + 1, flipped=tile, set_aside=(tile,))


# ---------------------------------------------------------------------------
# Building walls


def stack_wall(ruleset_name: str, hands: Mapping[int, str | Sequence[Tile]], dealer: int,
               draws: str | Sequence[Tile] = (), back: str | Sequence[Tile] = ()
               ) -> tuple[Tile, ...]:
    """A wall that deals ``hands`` (13 tiles, the dealer 14), then gives ``draws`` from
    the front in order and ``back`` from the back in order (flower and kong
    replacements, the turned 财神, burnt tiles). The rest of the set fills the middle in
    a fixed order."""
    ruleset = rules.get(ruleset_name)
    dealt = {s: list(_tiles(hands[s])) for s in range(SEATS)}
    for s, tiles in dealt.items():
        want = 14 if s == dealer else 13
        if len(tiles) != want:
            raise ValueError(f"seat {s} must be dealt {want} tiles, not {len(tiles)}")
    front = [dealt[s].pop(0) for s in deal_order(dealer)] + list(_tiles(draws))
    tail = list(_tiles(back))
    rest = Counter(ruleset.tile_set())
    rest.subtract(Counter(front + tail))
    if any(n < 0 for n in rest.values()):
        extra = sorted(t for t, n in rest.items() if n < 0)
        raise ValueError("more copies than a set holds of "
                         + " ".join(t.notation for t in extra))
    middle = sorted(rest.elements(), key=_filler_order)
    return tuple(front + middle + tail[::-1])


def _tiles(spec: str | Sequence[Tile]) -> tuple[Tile, ...]:
    if isinstance(spec, str):
        return tuple(parse_tiles(spec, allow_empty=True, max_copies=False))
    return tuple(spec)


def _filler_order(tile: Tile) -> tuple[int, int]:
    # Spread the filler so that unscripted draws rarely make pongs or runs by accident.
    return (tile % 7, tile)
