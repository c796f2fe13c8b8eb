"""`wildcards_held`: the 财神 a winning hand holds (what Hangzhou's "财神 wins" count,
kept with the settlement): concealed tiles with the winning tile and those inside its
melds; in `flip` mode the turned tile's other copies, a White Dragon then an ordinary
tile; None for a rule set without 财神."""

from __future__ import annotations

from engine.game.settle import judge, wildcards_held
from engine.rules.common import WinKind
from engine.tiles import Tile
from tests.game.helpers import PONG, QUIET, D, play, start


def test_a_caishen_inside_a_claimed_meld_counts_with_the_concealed_one() -> None:
    hands = {0: "4m" + QUIET[0], 1: "4m7m258p369s124z5z5z", 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands)
    state = play(state, D(0, "4m"), PONG(1, "4m5z"))
    assert Tile.WHITE in state.seats[1].melds[0].tiles
    record = judge(state, 1, WinKind.SELF_DRAW, Tile.M7)
    assert wildcards_held(state, record) == 2


def test_flip_mode_counts_the_turned_tile_s_copies_and_not_the_white_dragon() -> None:
    hands = {0: "4m" + QUIET[0], 1: "33m258p369s1234z5z", 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, back="3m", options={"caishen": "flip"})
    assert state.flipped is Tile.M3
    state = play(state, D(0, "4m"))
    record = judge(state, 1, WinKind.DISCARD, Tile.M4, 0)
    assert wildcards_held(state, record) == 2  # the two 3m; the 5z plays as a 3m
    fixed, _ = start("hangzhou", hands)
    fixed = play(fixed, D(0, "4m"))
    assert wildcards_held(fixed, judge(fixed, 1, WinKind.DISCARD, Tile.M4, 0)) == 1


def test_a_rule_set_without_caishen_has_none() -> None:
    hands = {0: "4m" + QUIET[0], 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("shanghai", hands)
    state = play(state, D(0, "4m"))
    assert wildcards_held(state, judge(state, 1, WinKind.DISCARD, Tile.M4, 0)) is None
