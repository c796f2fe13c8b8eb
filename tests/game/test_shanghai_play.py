"""Shanghai in play: wins only when the hand qualifies, 天胡, 地胡, the first go-round,
gang_kai on a replacement, and the drawn hand when the wall runs out."""

from __future__ import annotations

import random

from engine.game import HandState, NotAWin, Phase, apply, deciding_seats, new_hand, timeout_action
from engine.tiles import Tile, full_set
from tests.engine.helpers import fractions
from tests.game.helpers import CHI, CK, PASS, QUIET, WIN, D, offered, play, refuse, result_of, start
from tests.game.test_claims import SCENE_P, SCENE_TWO


def test_heavenly_hand_the_dealer_wins_on_the_dealt_fourteen() -> None:
    hands = {0: "11123455678999m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("shanghai", hands)
    assert offered(state, WIN(0))
    state = play(state, WIN(0))
    (record,) = result_of(state).wins
    assert "tian_hu" in record.settlement.patterns and record.context.first_go_round
    assert result_of(state).payments[0] > 0 and sum(result_of(state).payments) == 0


def test_a_plain_complete_hand_is_not_offered_a_win() -> None:
    # Seat 1 completes 123m 456m 789p 234s 55p with its second draw (after the first
    # go-round, so no 地胡 either): complete, but no qualifying pattern.
    hands = {0: QUIET[0] + "9m", 1: "123m456m789p23s55p", 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("shanghai", hands, draws="7z6z5z7z4s")
    state = play(state, D(0, "9m"), D(1, "7z"), D(2, "6z"), D(3, "5z"), D(0, "7z"))
    assert state.turn == 1 and state.seats[1].drawn is Tile.S4
    refuse(state, WIN(1), NotAWin, "plain hand cannot win")


def test_earthly_hand_on_the_dealers_first_discard() -> None:
    state, _ = start("shanghai", SCENE_TWO)
    state = play(state, D(0, "5p"), PASS(1), WIN(2))
    assert "di_hu" in result_of(state).wins[0].settlement.patterns


def test_the_first_go_round_ends_when_the_dealer_draws_again() -> None:
    hands = {0: QUIET[0] + "5m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("shanghai", hands, draws="6m6p6s9m")
    state = play(state, D(0, "5m"), D(1, "6m"), D(2, "6p"))
    assert state.first_go_round
    state = play(state, D(3, "6s"))
    assert state.turn == 0 and not state.first_go_round


def test_a_claim_ends_the_first_go_round_and_no_win_without_a_drawn_tile() -> None:
    state, _ = start("shanghai", SCENE_P)
    state = play(state, D(0, "9s"), CHI(1, "78s"), PASS(2), PASS(3))
    assert not state.first_go_round
    refuse(state, WIN(1), NotAWin, "no tile has been drawn")


def test_win_on_a_kong_replacement_counts_gang_kai() -> None:
    # The dealer kongs 8888p and draws 6s from the back: 123m 456m 678s 99s, a plain hand
    # that 杠开 makes winnable.
    hands = {0: "8888p123m456m78s99s", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("shanghai", hands, back="6s")
    assert offered(state, CK(0, "8888p"))
    state = play(state, CK(0, "8888p"))
    assert state.seats[0].drawn is Tile.S6 and state.replacement is not None
    state = play(state, WIN(0))
    (record,) = result_of(state).wins
    assert "gang_kai" in record.settlement.patterns and record.context.replacement


def _drawn_hand(rules: str) -> HandState:
    """Play hands by the timer defaults (no claims are ever made) until one is drawn."""
    for seed in range(50):
        wall = full_set(rules == "shanghai")
        random.Random(seed).shuffle(wall)
        state, _ = new_hand(rules, {}, wall, seed % 4, (3, 5))
        while state.phase is not Phase.ENDED:
            seat = deciding_seats(state)[0]
            state, _ = apply(state, timeout_action(state, seat))
        if result_of(state).drawn:
            return state
    raise AssertionError("no drawn hand in 50 tries")


def test_shanghai_hand_is_drawn_when_a_draw_finds_the_wall_empty() -> None:
    state = _drawn_hand("shanghai")
    assert state.wall_remaining == 0 and state.tile_count() == 144
    assert result_of(state).payments == fractions(0, 0, 0, 0)


def test_hangzhou_hand_is_drawn_after_the_window_at_twenty_tiles() -> None:
    state = _drawn_hand("hangzhou")
    assert 18 <= state.wall_remaining <= 20 and state.tile_count() == 136
