"""Shanghai's special wins as they come up in play: after flowers, after kongs, in the
first go-round, and the timer's default when a win is allowed."""

from __future__ import annotations

from engine.game import timeout_action
from engine.tiles import Tile
from tests.engine.helpers import fractions
from tests.game.helpers import CK, QUIET, WIN, D, offered, play, result_of, start

READY = "123m456m789p23s55p"
"""Seat 1's hand, one 1s or 4s from complete: a plain hand (not winnable alone)."""


def test_a_win_on_a_flower_s_replacement_is_gang_kai() -> None:
    hands = {0: QUIET[0] + "9m", 1: READY, 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("shanghai", hands, draws="7z6z5z7z1f", back="4s")
    state = play(state, D(0, "9m"), D(1, "7z"), D(2, "6z"), D(3, "5z"), D(0, "7z"))
    assert state.turn == 1 and state.seats[1].drawn is Tile.S4  # the flower's replacement
    assert not state.first_go_round and offered(state, WIN(1))
    state = play(state, WIN(1))
    (won,) = result_of(state).wins
    assert set(won.settlement.patterns) == {"gang_kai", "men_qing"}
    assert won.settlement.value == 20  # (1 stake + 1 flower) × 2² = 8 花: one 喇


def test_the_dealer_s_first_fourteen_after_flowers_are_tian_hu() -> None:
    hands = {0: "1f1112345678999m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("shanghai", hands, back="5m")
    assert state.seats[0].flowers == (Tile.SPRING,) and offered(state, WIN(0))
    state = play(state, WIN(0))
    assert "tian_hu" in result_of(state).wins[0].settlement.patterns


def test_big_crane_after_four_concealed_kongs() -> None:
    hands = {0: "1111m2222m3333m45m", 1: "147p258p369s1234z", 2: "369p147s258s1467z",
             3: "258p369p147s2347z"}
    state, _ = start("shanghai", hands, back="4m4m4m5m")
    state = play(state, CK(0, "1111m"), CK(0, "2222m"), CK(0, "3333m"), CK(0, "4444m"))
    assert state.seats[0].hand == (Tile.M5, Tile.M5)
    state = play(state, WIN(0))
    (won,) = result_of(state).wins
    assert set(won.settlement.patterns) == {"qing_peng", "da_diao_che"}
    assert won.settlement.value == 60


def test_a_non_dealer_s_self_draw_in_the_first_go_round_is_di_hu() -> None:
    hands = {0: QUIET[0] + "9m", 1: READY, 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("shanghai", hands, draws="4s")
    state = play(state, D(0, "9m"))
    assert offered(state, WIN(1))
    assert timeout_action(state, 1) == WIN(1)  # the timer wins for a player away
    state = play(state, WIN(1))
    (won,) = result_of(state).wins
    assert won.settlement.patterns == ("di_hu",) and won.settlement.value == 160
    assert result_of(state).payments == fractions(-160, 480, -160, -160)
