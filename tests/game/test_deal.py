"""Starting a hand: the deal, flowers (补花), 八花, the 财神 and the draws that follow."""

from __future__ import annotations

from typing import Any

import pytest

from engine import rules
from engine.game import (
    DEALT,
    ActionKind,
    FlowerLaidAside,
    HandEnded,
    HandStarted,
    Phase,
    TileDrawn,
    WildcardTurned,
    apply,
    deal_order,
    legal_actions,
    new_hand,
    stack_wall,
)
from engine.rules.common import WinKind
from engine.tiles import Tile, full_set
from tests.engine.helpers import fractions
from tests.game.helpers import QUIET, D, result_of, start, tiles


def test_deal_gives_dealer_fourteen_from_the_front() -> None:
    wall = full_set(False)
    state, events = new_hand("hangzhou", {}, wall, 2, (1, 6))
    sizes = [len(s.hand) for s in state.seats]
    assert sizes == [13, 13, 14, 13]
    assert state.front == DEALT and state.back == 0 and state.turn == 2
    assert state.phase is Phase.TURN and state.tile_count() == 136
    assert deal_order(2)[:4] == (2, 2, 2, 2) and deal_order(2)[-1] == 2
    assert events[0].name == "hand_started"


def test_stacked_wall_deals_the_hands_asked_for() -> None:
    hands = {0: QUIET[0] + "5m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, draws="9p", back="8p")
    assert state.seats[0].hand == tuple(sorted(tiles(QUIET[0] + "5m")))
    assert state.wall[DEALT] is Tile.P9 and state.wall[-1] is Tile.P8


@pytest.mark.parametrize("bad", [
    dict(dealer=4), dict(dice=(0, 3)), dict(streak=4), dict(short=True)])
def test_new_hand_refuses_bad_input(bad: dict[str, Any]) -> None:
    wall = full_set(False)[: 135 if bad.get("short") else 136]
    with pytest.raises(ValueError):
        new_hand("hangzhou", {}, wall, bad.get("dealer", 0), bad.get("dice", (1, 1)),
                 streak=bad.get("streak", 1))


def test_new_hand_refuses_another_rule_sets_options() -> None:
    with pytest.raises(TypeError, match="not options for hangzhou"):
        new_hand("hangzhou", rules.SHANGHAI.options(), full_set(False), 0, (1, 1))


def test_new_hand_takes_its_own_options_and_dice_as_a_list() -> None:
    options = rules.HANGZHOU.options({"base": 2})
    dice = [3, 4]  # as JSON gives them
    state, events = new_hand("hangzhou", options, full_set(False), 0, dice)  # type: ignore[arg-type]  # a list
    assert state.options is options
    assert state.dice == (3, 4) and type(state.dice) is tuple
    assert isinstance(events[0], HandStarted) and events[0].dice == (3, 4)


def test_shanghai_flowers_are_replaced_from_the_back_dealer_first() -> None:
    hands = {0: "1f2f147m258p369s123z", 1: "3f258m369p147s123z", 2: QUIET[2], 3: QUIET[3]}
    state, events = start("shanghai", hands, back="4f9m8s6p")
    assert state.seats[0].flowers == (Tile.SPRING, Tile.SUMMER, Tile.WINTER)
    assert state.seats[1].flowers == (Tile.AUTUMN,)
    assert Tile.M9 in state.seats[0].hand and Tile.S8 in state.seats[0].hand
    assert Tile.P6 in state.seats[1].hand
    assert state.back == 4 and state.tile_count() == 144
    order = [(type(e).__name__, e.seat) for e in events
             if isinstance(e, FlowerLaidAside | TileDrawn)]
    assert order == [("FlowerLaidAside", 0), ("FlowerLaidAside", 0), ("TileDrawn", 0),
                     ("TileDrawn", 0), ("FlowerLaidAside", 0), ("TileDrawn", 0),
                     ("FlowerLaidAside", 1), ("TileDrawn", 1)]
    assert len(state.seats[0].hand) == 14 and len(state.seats[1].hand) == 13


def test_a_flower_drawn_in_play_is_replaced_from_the_back() -> None:
    hands = {0: QUIET[0] + "5m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("shanghai", hands, draws="1f", back="6m")
    state, events = apply(state, D(0, "5m"))
    assert state.seats[1].flowers == (Tile.SPRING,)
    assert state.seats[1].drawn is Tile.M6 and state.replacement is not None
    assert [e.name for e in events][-2:] == ["flower_laid_aside", "tile_drawn"]


def test_eight_flowers_in_the_deal_win_at_once() -> None:
    hands = {0: "12345678f147m258p", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, events = start("shanghai", hands, back="1s4s7s1p4p7p9m9p")
    assert state.phase is Phase.ENDED
    (win,) = result_of(state).wins
    assert win.winner == 0 and win.win is WinKind.SELF_DRAW
    assert win.settlement.patterns == ("ba_hua",)
    assert result_of(state).payments == fractions(360, -120, -120, -120)
    assert isinstance(events[-1], HandEnded)


def test_the_eighth_flower_drawn_in_play_wins_as_a_self_draw() -> None:
    hands = {0: QUIET[0] + "5m", 1: "1234567f258m369p", 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("shanghai", hands, back="1s4s7s1p4p7p9m", draws="8f")
    assert len(state.seats[1].flowers) == 7
    state, _ = apply(state, D(0, "5m"))
    assert state.phase is Phase.ENDED
    assert result_of(state).wins[0].winner == 1
    assert result_of(state).wins[0].settlement.patterns == ("ba_hua",)


def test_hangzhou_fixed_caishen_is_the_white_dragon() -> None:
    state, events = start("hangzhou", {0: QUIET[0] + "5m", 1: QUIET[1], 2: QUIET[2],
                                       3: QUIET[3]})
    assert state.wildcards.joker is Tile.WHITE and state.flipped is None
    assert not any(isinstance(e, WildcardTurned) for e in events)


def test_hangzhou_flip_turns_a_tile_from_the_back_and_sets_it_aside() -> None:
    hands = {0: QUIET[0] + "5m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, events = start("hangzhou", hands, back="3m", options={"caishen": "flip"})
    assert state.flipped is Tile.M3 and state.set_aside == (Tile.M3,)
    assert state.wildcards.joker is Tile.M3 and state.wildcards.plays_as(Tile.WHITE) is Tile.M3
    assert state.back == 1 and state.tile_count() == 136
    assert WildcardTurned(Tile.M3) in events


def test_next_seat_draws_from_the_front_when_nobody_claims() -> None:
    hands = {0: QUIET[0] + "5m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("shanghai", hands, draws="9m")
    state, events = apply(state, D(0, "5m"))
    assert state.window is None and state.turn == 1 and state.seats[1].drawn is Tile.M9
    assert state.front == DEALT + 1
    assert [e.name for e in events] == ["tile_discarded", "tile_drawn"]
    assert ActionKind.DISCARD in {a.kind for a in legal_actions(state, 1)}
    assert legal_actions(state, 0) == ()


def test_stack_wall_refuses_a_fifth_copy() -> None:
    with pytest.raises(ValueError, match="more copies"):
        stack_wall("hangzhou", {0: QUIET[0] + "5m", 1: QUIET[1], 2: QUIET[2],
                                3: QUIET[3]}, 0, draws="1m1m1m1m")
