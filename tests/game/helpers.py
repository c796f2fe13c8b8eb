"""Scripted hands: stacked walls and short action constructors."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.game import (
    Action,
    ActionKind,
    ClaimWindow,
    Event,
    HandResult,
    HandState,
    IllegalAction,
    apply,
    legal_actions,
    new_hand,
    stack_wall,
)
from engine.tiles import Tile, parse_tiles, tile_from_notation

# Hands that can neither pong nor chi anything (no pairs, suit tiles three apart, no
# 财神), whatever is discarded: the seats a scripted test does not look at.
QUIET = ("147m258p369s1234z", "258m369p147s1234z", "369m147p258s1467z", "258m147p369s2347z")


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tiles(text, max_copies=False))


def start(rules: str, hands: Mapping[int, str], *, dealer: int = 0, draws: str = "",
          back: str = "", options: Mapping[str, Any] | None = None, streak: int = 1,
          huangfan: bool = False) -> tuple[HandState, tuple[Event, ...]]:
    wall = stack_wall(rules, hands, dealer, draws, back)
    return new_hand(rules, options or {}, wall, dealer, (2, 3), streak=streak,
                    huangfan=huangfan)


def result_of(state: HandState) -> HandResult:
    """The ended hand's result."""
    assert state.result is not None, "the hand has not ended"
    return state.result


def window_of(state: HandState) -> ClaimWindow:
    """The open claim window."""
    assert state.window is not None, "no claim window is open"
    return state.window


def play(state: HandState, *actions: Action) -> HandState:
    for action in actions:
        state, _ = apply(state, action)
    return state


def refuse(state: HandState, action: Action, error: type[IllegalAction], words: str) -> str:
    """Assert ``action`` is refused with ``error`` mentioning ``words``, and not offered."""
    try:
        apply(state, action)
    except error as exc:
        assert words in exc.reason, exc.reason
        assert action not in legal_actions(state, action.seat)
        return exc.reason
    raise AssertionError(f"{action} was not refused with {error.__name__}")


def offered(state: HandState, action: Action) -> bool:
    return action in legal_actions(state, action.seat)


def D(seat: int, tile: str) -> Action:
    return Action(ActionKind.DISCARD, seat, tile_from_notation(tile))


def PONG(seat: int, hand: str) -> Action:
    return Action(ActionKind.PONG, seat, tiles=tiles(hand))


def KONG(seat: int, hand: str) -> Action:
    return Action(ActionKind.KONG, seat, tiles=tiles(hand))


def CHI(seat: int, hand: str) -> Action:
    return Action(ActionKind.CHI, seat, tiles=tiles(hand))


def CK(seat: int, hand: str) -> Action:
    return Action(ActionKind.CONCEALED_KONG, seat, tiles=tiles(hand))


def AK(seat: int, tile: str) -> Action:
    return Action(ActionKind.ADDED_KONG, seat, tile_from_notation(tile))


def WIN(seat: int) -> Action:
    return Action(ActionKind.WIN, seat)


def PASS(seat: int) -> Action:
    return Action(ActionKind.PASS, seat)
