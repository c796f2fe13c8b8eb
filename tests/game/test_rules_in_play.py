"""Rules that only show in play (each can otherwise break with no test failing): the
Hangzhou 暴头 chain with 杠 and its resets, 放铳 below a streak of 3, 抓打 lifted by the
discarder's draw, a lesser claim counting as a pass, no robbing of exposed or concealed
kongs, and 荒番 / 吃三口包 / 承包 reaching the settlement of a played hand."""

from __future__ import annotations

from engine.game import Phase
from engine.rules.common import ChainStep, WinKind
from engine.tiles import Tile
from tests.game.helpers import CK, PASS, PONG, QUIET, WIN, D, play, start

# ---------------------------------------------------------------------------
# The Hangzhou 暴头 chain: 杠 and 飘 in it, and where it stops


def _bao_tou_win(state):
    """The dealer's 暴头 self-draw that ends ``state``: (chain, sorted patterns)."""
    (record,) = state.result.wins
    assert record.win is WinKind.SELF_DRAW and record.winner == 0
    return record.context.chain, sorted(record.settlement.patterns)


def test_a_kong_and_a_piao_in_consecutive_turns_both_count_gang_piao() -> None:
    # 杠飘: the dealer kongs 4444m, takes 9s, discards a 财神; the others may only
    # discard what they draw (抓打); the dealer's next draw wins 暴头 with both links.
    hands = {0: "4444m123p456p78s5z5z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, back="9s", draws="1m9m7z1z")
    state = play(state, CK(0, "4444m"))
    assert state.seats[0].chain == (ChainStep.GANG,) and state.seats[0].drawn is Tile.S9
    state = play(state, D(0, "5z"), D(1, "1m"), D(2, "9m"), D(3, "7z"), WIN(0))
    assert _bao_tou_win(state) == ((ChainStep.GANG, ChainStep.PIAO),
                                   ["bao_tou", "cai_piao", "gang_kai"])
    assert state.result.payments == (48, -16, -16, -16)  # 底分 1 × 庄闲分 2 × F 8


def test_a_kong_replacement_completing_a_bao_tou_hand_is_gang_bao() -> None:
    # 杠暴: 4444m 123p 456p 789s and a 财神; the kong's replacement wins at once.
    hands = {0: "4444m123p456p789s5z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, back="1z")
    state = play(state, CK(0, "4444m"), WIN(0))
    assert _bao_tou_win(state) == ((ChainStep.GANG,), ["bao_tou", "gang_kai"])
    assert state.result.payments == (24, -8, -8, -8)


def test_a_kong_replacement_completing_a_plain_hand_is_gang_kai() -> None:
    hands = {0: "4444m123p456p789s1z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, back="1z")
    state = play(state, CK(0, "4444m"), WIN(0))
    (record,) = state.result.wins
    assert record.settlement.patterns == ("gang_kai",)
    assert state.result.payments == (12, -4, -4, -4)


def test_an_ordinary_discard_ends_the_chain() -> None:
    # The kong's turn ends with 3z, not a 财神: the later 暴头 win has no 杠 in its chain.
    hands = {0: "4444m123p456p78s5z5z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, back="3z", draws="1m9m7z1z")
    state = play(state, CK(0, "4444m"), D(0, "3z"))
    assert state.seats[0].chain == ()
    # The dealer could pong each discard with its two 财神, and lets them go.
    state = play(state, D(1, "1m"), PASS(0), D(2, "9m"), PASS(0), D(3, "7z"), PASS(0), WIN(0))
    assert _bao_tou_win(state) == ((), ["bao_tou"])
    assert state.result.payments == (12, -4, -4, -4)


# The dealer discards a 财神 (飘), then pongs seat 3's 9m, so its next turn begins with
# a pong: that turn is outside the chain, and so is the earlier 飘 (the chain stops).
SCENE_PONG_TURN = {0: "123p456p789s5z5z5z9m9m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}


def test_a_piao_in_a_turn_that_began_with_a_pong_does_not_count() -> None:
    state, _ = start("hangzhou", SCENE_PONG_TURN, draws="1m2m9m" + "7m3m7z" + "1z")
    state = play(state, D(0, "5z"), D(1, "1m"), PASS(0), D(2, "2m"), PASS(0), D(3, "9m"),
                 PONG(0, "99m"))
    state = play(state, D(0, "5z"))  # a 飘 made in the pong's turn
    assert state.seats[0].chain == ()
    state = play(state, D(1, "7m"), D(2, "3m"), D(3, "7z"), WIN(0))
    assert _bao_tou_win(state) == ((), ["bao_tou"])
    assert state.result.payments == (12, -4, -4, -4)


def test_a_kong_in_a_turn_that_began_with_a_pong_does_not_count() -> None:
    # The dealer 飘s, pongs 9m, kongs 4444m in the same turn and wins 暴头 on the
    # replacement: the pong stopped the chain, and the kong is inside the pong's turn.
    hands = {0: "4444m123p456p5z5z9m9m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, draws="1m2m9m", back="1z")
    state = play(state, D(0, "5z"), D(1, "1m"), D(2, "2m"), D(3, "9m"), PONG(0, "99m"))
    assert state.seats[0].chain == ()
    state = play(state, CK(0, "4444m"), WIN(0))
    assert _bao_tou_win(state) == ((), ["bao_tou"])
    assert state.result.payments == (12, -4, -4, -4)
