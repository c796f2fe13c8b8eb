"""Hangzhou in play where the 财神 does most: melds of 财神 alone, the turned tile of
flip mode, kongs and the tile each burns, seven pairs won, and the restrictions at their
edges (漏胡 of one tile, the last window, 抓打 passed on and its timer)."""

from __future__ import annotations

from dataclasses import replace

from engine.game import Phase, legal_actions, timeout_action
from engine.melds import MeldKind
from engine.tiles import Tile
from tests.game.helpers import (
    AK,
    CHI,
    CK,
    KONG,
    PASS,
    PONG,
    QUIET,
    WIN,
    D,
    offered,
    play,
    result_of,
    start,
    window_of,
)


def test_melds_of_caishen_alone() -> None:
    hands = {0: "4m" + QUIET[0], 1: "7m258p369s1234z5z5z", 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands)
    state = play(state, D(0, "4m"))
    assert {CHI(1, "5z5z"), PONG(1, "5z5z")} <= set(legal_actions(state, 1))
    four = {0: "5z5z5z5z258p369s1234z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", four)
    state = play(state, CK(0, "5z5z5z5z"))
    assert state.back == 2  # the replacement and one more tile left the back
    state, _ = start("hangzhou", four, options={"caishen_melds": False})
    assert not offered(state, CK(0, "5z5z5z5z"))


def test_an_exposed_kong_of_three_caishen_and_an_added_kong_with_one_each_burn_a_tile(
        ) -> None:
    hands = {0: "4m" + QUIET[0], 1: "7m258p369s124z5z5z5z", 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands)
    state = play(state, D(0, "4m"), KONG(1, "5z5z5z"))
    assert state.back == 2 and state.claims[1][0] == 1
    hands = {0: "4m" + QUIET[0], 1: "4m7m258p369s124z5z5z", 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands)
    state = play(state, D(0, "4m"), PONG(1, "4m5z"))
    assert offered(state, AK(1, "5z"))
    state = play(state, AK(1, "5z"))
    assert state.back == 2 and state.seats[1].melds[0].kind is MeldKind.ADDED_KONG


def test_flip_mode_the_turned_tile_and_the_white_dragon_standing_in() -> None:
    hands = {0: "8888p258m369s1234z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, back="3m4p6p", options={"caishen": "flip"})
    assert state.flipped is Tile.M3
    state = play(state, CK(0, "8888p"))
    assert state.seats[0].drawn is Tile.P4  # the replacement, then the burnt tile
    assert state.back == 3 and state.set_aside == (Tile.M3, Tile.P6)
    state, _ = start("hangzhou", hands, back="5z", options={"caishen": "flip"})
    wild = state.wildcards
    assert wild.is_joker(Tile.WHITE) and wild.jokers_in_set == 3 and wild.stand_in == ()
    chi = {0: "4m" + QUIET[0], 1: "5m9m258p369s1234z5z", 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", chi, back="3m", options={"caishen": "flip"})
    state = play(state, D(0, "4m"))
    assert offered(state, CHI(1, "5m5z"))  # the 5z is a 3m


def test_a_kong_beats_a_farther_seat_s_pong_as_the_nearer_claim() -> None:
    hands = {0: "3m" + QUIET[0], 1: QUIET[1], 2: "3m5z258s147p1467z6m",
             3: "33m5z258p169s2347z"}
    state, _ = start("hangzhou", hands)
    state = play(state, D(0, "3m"), KONG(3, "33m5z"))
    assert state.phase is Phase.CLAIM
    state = play(state, PONG(2, "3m5z"))
    assert state.turn == 2


def _seven_pairs(hand: str, draw: str) -> object:
    hands = {0: "9m" + QUIET[1], 1: hand, 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, draws=draw)
    state = play(state, D(0, "9m"))
    if state.window is not None:
        state = play(state, *[PASS(s) for s in window_of(state).asked])
    assert state.turn == 1 and offered(state, WIN(1))
    return sorted(result_of(play(state, WIN(1))).wins[0].settlement.patterns)


def test_seven_pairs_won_in_play() -> None:
    assert _seven_pairs("1133m5577p2288s6z", "6z") == ["qi_dui", "qing_qi_dui"]
    assert _seven_pairs("1133m5577p2288s5z", "6z") == ["bao_tou", "qi_dui"]  # 七客
    assert _seven_pairs("1111m5577p2288s6z", "6z") == ["hao_hua", "qi_dui", "qing_qi_dui"]


def test_a_passed_win_bars_that_tile_only() -> None:
    hands = {0: "23m456p789p111s22s7z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, streak=3, draws="1m3z4m")
    state = play(state, D(0, "7z"), D(1, "1m"))
    assert offered(state, WIN(0))
    state = play(state, PASS(0), D(2, "3z"), D(3, "4m"))
    assert offered(state, WIN(0))  # 漏胡 of 1m: a win on 4m is still there


def test_with_21_tiles_left_the_window_is_an_ordinary_one() -> None:
    hands = {0: "3m" + QUIET[0], 1: "12m456p789p111s22s", 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, streak=3)
    state = replace(state, front=len(state.wall) - 21)
    state = play(state, D(0, "3m"))
    assert not window_of(state).last and offered(state, CHI(1, "12m"))


def test_zhua_da_passed_on_holds_the_first_discarder_and_its_timer_discards_the_draw(
        ) -> None:
    hands = {0: "5z11p258m369s12347z", 1: "258m369p147s1234z", 2: "369m47p258s1467z6p",
             3: "258m147p369s2347z"}
    state, _ = start("hangzhou", hands, draws="5z1p")
    state = play(state, D(0, "5z"))
    assert state.zhua_da == 0 and timeout_action(state, 1) == D(1, "5z")
    state = play(state, D(1, "5z"))
    assert state.zhua_da == 1
    state = play(state, D(2, "1p"))
    assert state.window is None  # seat 0's pong of 1p is barred: nobody may claim
