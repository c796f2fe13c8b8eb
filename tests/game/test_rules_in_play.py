"""Rules that only show in play (each can otherwise break with no test failing): the
Hangzhou 暴头 chain with 杠 and its resets (a kong claimed on a discard is a link, not a
restart), 放铳 below a streak of 3, 抓打 lifted by the discarder's draw, a lesser claim
counting as a pass, 漏胡/漏碰 of what a flip-mode 5z plays as and lifted by any draw of the
bound seat, no robbing of exposed or concealed kongs (nor of added ones in Hangzhou),
where the hand ends (Hangzhou's last window at 20 tiles, Shanghai's empty wall), the
timer discarding the drawn tile, and 荒番 / 吃三口包 / 承包 / 倒承包 shared by two reaching
the settlement of a played hand."""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from engine import rules
from engine.game import (
    ActionKind,
    ClaimWindowOpened,
    HandState,
    NotAWin,
    Phase,
    Restricted,
    apply,
    deciding_seats,
    legal_actions,
    new_hand,
    timeout_action,
)
from engine.game.settle import judge
from engine.game.state import replace
from engine.match import HandOutcome, finish_hand, new_match, start_hand
from engine.rules.common import ChainStep, WinKind
from engine.tiles import Tile, full_set
from tests.engine.helpers import fractions
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
    refuse,
    result_of,
    start,
    window_of,
)
from tests.game.test_claims import SCENE_P, SCENE_ROB
from tests.game.test_hangzhou_play import SCENE_H1, h1

# ---------------------------------------------------------------------------
# The Hangzhou 暴头 chain: 杠 and 飘 in it, and where it stops


def _bao_tou_win(state: HandState) -> tuple[tuple[ChainStep, ...], list[str]]:
    """The dealer's 暴头 self-draw that ends ``state``: (chain, sorted patterns)."""
    (record,) = result_of(state).wins
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
    assert result_of(state).payments == fractions(48, -16, -16, -16)  # 底分 1 × 庄闲分 2 × F 8


def test_a_kong_replacement_completing_a_bao_tou_hand_is_gang_bao() -> None:
    # 杠暴: 4444m 123p 456p 789s and a 财神; the kong's replacement wins at once.
    hands = {0: "4444m123p456p789s5z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, back="1z")
    state = play(state, CK(0, "4444m"), WIN(0))
    assert _bao_tou_win(state) == ((ChainStep.GANG,), ["bao_tou", "gang_kai"])
    assert result_of(state).payments == fractions(24, -8, -8, -8)


def test_a_kong_replacement_completing_a_plain_hand_is_gang_kai() -> None:
    hands = {0: "4444m123p456p789s1z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, back="1z")
    state = play(state, CK(0, "4444m"), WIN(0))
    (record,) = result_of(state).wins
    assert record.settlement.patterns == ("gang_kai",)
    assert result_of(state).payments == fractions(12, -4, -4, -4)


def test_an_ordinary_discard_ends_the_chain() -> None:
    # The kong's turn ends with 3z, not a 财神: the later 暴头 win has no 杠 in its chain.
    hands = {0: "4444m123p456p78s5z5z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, back="3z", draws="1m9m7z1z")
    state = play(state, CK(0, "4444m"), D(0, "3z"))
    assert state.seats[0].chain == ()
    # The dealer could pong each discard with its two 财神, and lets them go.
    state = play(state, D(1, "1m"), PASS(0), D(2, "9m"), PASS(0), D(3, "7z"), PASS(0), WIN(0))
    assert _bao_tou_win(state) == ((), ["bao_tou"])
    assert result_of(state).payments == fractions(12, -4, -4, -4)


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
    assert result_of(state).payments == fractions(12, -4, -4, -4)


def test_a_kong_in_a_turn_that_began_with_a_pong_does_not_count() -> None:
    # The dealer 飘s, pongs 9m, kongs 4444m in the same turn and wins 暴头 on the
    # replacement: the pong stopped the chain, and the kong is inside the pong's turn.
    hands = {0: "4444m123p456p5z5z9m9m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, draws="1m2m9m", back="1z")
    state = play(state, D(0, "5z"), D(1, "1m"), D(2, "2m"), D(3, "9m"), PONG(0, "99m"))
    assert state.seats[0].chain == ()
    state = play(state, CK(0, "4444m"), WIN(0))
    # The kong is kept as the pong turn's (for a plain win's 杠开), not as a chain link.
    assert _bao_tou_win(state) == ((ChainStep.GANG,), ["bao_tou"])
    assert result_of(state).wins[0].context.claimed_turn
    assert result_of(state).payments == fractions(12, -4, -4, -4)


def drawn_of(state: HandState, seat: int) -> Tile:
    """The tile ``seat`` has just drawn."""
    drawn = state.seats[seat].drawn
    assert drawn is not None, "no tile drawn"
    return drawn


def _discard_unclaimed(state: HandState, seat: int, tile: str) -> HandState:
    """``seat`` discards ``tile`` and every seat that could claim it lets it go."""
    state = play(state, D(seat, tile))
    while state.phase is Phase.CLAIM:
        state = play(state, PASS(window_of(state).undecided[0]))
    return state


def test_the_chain_starts_again_with_the_next_drawn_turn_after_a_pong() -> None:
    # The dealer pongs 9m and ends that turn with 1z; in its next turn (a draw) it
    # floats a 财神, which counts: the next draw wins 暴头 with one 财飘.
    hands = {0: "123p456p78s5z5z9m9m1z2z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, draws="1m4m9m" + "7m1m4m" + "9s" + "7m1m4m" + "7m")
    for seat, tile in ((0, "2z"), (1, "1m"), (2, "4m")):
        state = _discard_unclaimed(state, seat, tile)
    state = play(state, D(3, "9m"), PONG(0, "99m"), D(0, "1z"))
    assert state.seats[0].claimed_turn
    for seat, tile in ((1, "7m"), (2, "1m"), (3, "4m")):
        state = _discard_unclaimed(state, seat, tile)
    assert state.seats[0].drawn is Tile.S9 and not state.seats[0].claimed_turn
    state = _discard_unclaimed(state, 0, "5z")
    assert state.seats[0].chain == (ChainStep.PIAO,)
    for seat, tile in ((1, "7m"), (2, "1m"), (3, "4m")):
        state = _discard_unclaimed(state, seat, tile)
    state = play(state, WIN(0))
    assert _bao_tou_win(state) == ((ChainStep.PIAO,), ["bao_tou", "cai_piao"])
    assert result_of(state).payments == fractions(24, -8, -8, -8)


def test_kongs_in_a_pong_turn_still_make_a_plain_win_gang_kai() -> None:
    # Outside 暴头, 杠开 counts each kong of the winning turn, whatever began it: the
    # dealer pongs 9m, kongs 4444m and 8888p and wins a plain hand on the second
    # replacement (双杠开).
    hands = {0: "4444m888p99m12s1z1z6z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, draws="1m2m9m", back="8p1m3s")
    state = play(state, D(0, "6z"), D(1, "1m"), D(2, "2m"), D(3, "9m"), PONG(0, "99m"),
                 CK(0, "4444m"), CK(0, "8888p"), WIN(0))
    (record,) = result_of(state).wins
    assert record.settlement.patterns == ("gang_kai", "gang_kai")
    assert result_of(state).payments == fractions(24, -8, -8, -8)


# ---------------------------------------------------------------------------
# Hangzhou 放铳 with `discard_win_streak` below 3


def test_discard_win_streak_two_allows_a_discard_win_from_streak_two() -> None:
    state = h1(streak=2, discard_win_streak=2)
    assert offered(state, WIN(1)) and offered(state, WIN(2))
    state = play(state, WIN(1))
    assert result_of(state).wins[0].win is WinKind.DISCARD
    assert result_of(state).payments == fractions(-4, 4, 0, 0)  # 底分 1 × 庄闲分 4 (streak 2) × F 1
    state = h1(streak=1, discard_win_streak=2)
    refuse(state, WIN(1), NotAWin, "streak at 2 or more (now 1)")


def test_discard_win_streak_one_allows_a_discard_win_at_once() -> None:
    state = play(h1(streak=1, discard_win_streak=1), WIN(2), PASS(1))
    assert [w.winner for w in result_of(state).wins] == [2]
    assert result_of(state).payments == fractions(-2, 0, 2, 0)
    # Never between two non-dealers, whatever the option says.
    hands = {3: "7z147m258p369s1234z", 0: "3m258m369p147s124z", 1: SCENE_H1[1],
             2: SCENE_H1[2]}
    state, _ = start("hangzhou", hands, dealer=3, draws="6z",
                     options={"discard_win_streak": 1})
    state = play(state, D(3, "7z"), D(0, "3m"))
    refuse(state, WIN(1), NotAWin, "between the dealer and another")


# ---------------------------------------------------------------------------
# 抓打 ends when the 财神's discarder draws


def test_zhua_da_is_lifted_when_the_discarder_draws_again() -> None:
    # The dealer discards a 财神; the others may only discard what they draw. When the
    # dealer draws (9p) the restriction is gone: seat 2 may pong the dealer's 9p, and
    # seat 3 may discard a tile it did not just draw.
    hands = {0: QUIET[0] + "5z", 1: QUIET[2], 2: "99p258m36p147s123z", 3: QUIET[3]}
    state, _ = start("hangzhou", hands, draws="6z6z7z9p" + "8m")
    state = play(state, D(0, "5z"))
    assert state.zhua_da == 0
    refuse(state, D(1, "1z"), Restricted, "抓打")
    state = play(state, D(1, "6z"), D(2, "6z"), D(3, "7z"))
    assert state.turn == 0 and state.seats[0].drawn is Tile.P9
    assert state.zhua_da is None
    state = play(state, D(0, "9p"))
    assert window_of(state).asked == (2,) and offered(state, PONG(2, "99p"))
    state = play(state, PASS(2), D(1, "1z"), D(2, "2z"))
    assert state.turn == 3 and offered(state, D(3, "2z"))
    state = play(state, D(3, "2z"))
    assert state.turn == 0


# ---------------------------------------------------------------------------
# A lesser claim counts as passing the greater one (漏胡, 漏碰 follow)


def test_choosing_chi_over_a_win_is_a_passed_win() -> None:
    # Seat 1 may win on the dealer's 3m or chi it; it chooses chi, seat 3's pong takes
    # the tile. When the dealer discards the last 3m, seat 1 (no draw since) may not win.
    state, _ = start("hangzhou", SCENE_H1, streak=3, draws="3m")
    state = play(state, D(0, "3m"), CHI(1, "12m"), PASS(2), PONG(3, "33m"))
    assert state.turn == 3 and state.seats[1].passed_wins == {Tile.M3}
    state = play(state, D(3, "9m"))
    assert state.turn == 0 and state.seats[0].drawn is Tile.M3
    state = play(state, D(0, "3m"))
    assert set(legal_actions(state, 1)) == {CHI(1, "12m"), PASS(1)}
    refuse(state, WIN(1), Restricted, "漏胡")


# 漏碰 by chi: the dealer may chi (78p) or pong (99p) seat 3's 9p and chooses chi;
# seat 1's 9p then finds the dealer bound until its next draw (seat 2 may chi it).
SCENE_CHI_OVER_PONG = {0: "78p99p147m258s1234z", 1: "9p369m258s14p2346z",
                       2: "78p258m147s12346z", 3: "9p369m147s25p1467z"}


def test_choosing_chi_over_a_pong_is_a_passed_pong() -> None:
    state, _ = start("hangzhou", SCENE_CHI_OVER_PONG, draws="8m8s8m8m")
    state = play(state, D(0, "1z"), D(1, "8m"), D(2, "8s"), D(3, "9p"))
    assert set(legal_actions(state, 0)) == {CHI(0, "78p"), PONG(0, "99p"), PASS(0)}
    state = play(state, CHI(0, "78p"))
    assert state.turn == 0 and state.seats[0].passed_pongs == {Tile.P9}
    state = play(state, D(0, "2z"), D(1, "9p"))
    assert set(legal_actions(state, 2)) == {CHI(2, "78p"), PASS(2)}
    refuse(state, PONG(0, "99p"), Restricted, "漏碰")


# ---------------------------------------------------------------------------
# Only an added kong may be robbed (抢杠): never an exposed or a concealed one


def test_an_exposed_kong_cannot_be_robbed() -> None:
    # Seat 2 waits on 4m and lets the dealer's 4m go; seat 1 kongs it with 444m.
    state, _ = start("shanghai", SCENE_ROB, back="8m")
    state = play(state, D(0, "4m"), PASS(2), KONG(1, "444m"))
    assert state.phase is Phase.TURN and state.turn == 1
    assert state.seats[1].drawn is Tile.M8 and state.window is None
    assert legal_actions(state, 2) == ()


def test_a_concealed_kong_cannot_be_robbed() -> None:
    # Seat 1 kongs 4444m on its turn while seat 2 waits on 4m.
    hands = {0: "258m369p147s1234z9m", 1: "4444m258p369s157z", 2: SCENE_ROB[2],
             3: QUIET[3]}
    state, _ = start("shanghai", hands, draws="8s", back="6s")
    state = play(state, D(0, "3z"), CK(1, "4444m"))
    assert state.phase is Phase.TURN and state.turn == 1
    assert state.seats[1].drawn is Tile.S6 and state.window is None
    assert legal_actions(state, 2) == ()


# ---------------------------------------------------------------------------
# 荒番 and the three-claim liabilities reach the settlement of a played hand


def _scene_p_win(huangfan: bool, options: dict[str, Any] | None = None
                 ) -> tuple[Fraction, ...]:
    """Seat 3 wins on the dealer's first discard, 9s (地胡 8 喇 + 混碰 1 喇 = 180 花)."""
    state, _ = start("shanghai", SCENE_P, huangfan=huangfan, options=options)
    state = play(state, D(0, "9s"), WIN(3))
    return result_of(state).payments


def test_a_huangfan_hand_pays_double_in_play() -> None:
    assert _scene_p_win(False) == fractions(-180, 0, 0, 180)
    assert _scene_p_win(True) == fractions(-360, 0, 0, 360)
    assert _scene_p_win(True, {"huangfan_multiplier": 3}) == fractions(-540, 0, 0, 540)


def test_a_huangfan_hand_started_by_the_match_pays_double_into_the_totals() -> None:
    # Dice 1+1 make the hand being started a 荒番 hand: the settlement and the match
    # totals carry the doubled payments.
    options = rules.get("shanghai").options({})
    match, setup = start_hand(new_match("shanghai", options, 0), (1, 1))
    assert setup.huangfan
    state, _ = start("shanghai", SCENE_P, huangfan=setup.huangfan)
    state = play(state, D(0, "9s"), WIN(3))
    match = finish_hand(match, HandOutcome((3,), 0, result_of(state).payments))
    assert match.totals == fractions(-360, 0, 0, 360)


# Seat 1 chis three of the dealer's discards (3m, 6m, 9m) and then wins by self-draw on
# 1m: 123m 456m 789m 111m 22m, one suit (Shanghai: 清一色, 1 喇). The others only
# discard what they draw.
SCENE_THREE_CHIS = {0: "3m6m9m" + "258p147s" + "1234z" + "7p", 1: "12m45m78m11m22m136z",
                    2: QUIET[2], 3: QUIET[3]}
THREE_CHIS_DRAWS = "2p5s6p" + "8p1p4s" + "9p8s3p" + "1m"


def _three_chis(rules_name: str, streak: int = 1) -> HandState:
    state, _ = start(rules_name, SCENE_THREE_CHIS, draws=THREE_CHIS_DRAWS, streak=streak)
    state = play(state, D(0, "3m"), CHI(1, "12m"), D(1, "1z"), D(2, "2p"), D(3, "5s"),
                 D(0, "6m"), CHI(1, "45m"), D(1, "3z"), D(2, "8p"), D(3, "1p"),
                 D(0, "9m"), CHI(1, "78m"), D(1, "6z"), D(2, "9p"), D(3, "8s"),
                 D(0, "7p"))
    assert state.claims[1][0] == 3 and state.seats[1].drawn is Tile.M1
    return play(state, WIN(1))


def test_shanghai_three_claims_make_the_discarder_pay_five_shares_in_play() -> None:
    state = _three_chis("shanghai")
    (record,) = result_of(state).wins
    assert "qing_yi_se" in record.settlement.patterns and record.settlement.liability
    assert result_of(state).payments == fractions(-100, 100, 0, 0)  # 5 shares of 20 花, others 0


def test_hangzhou_three_claims_make_the_discarder_pay_for_all_in_play() -> None:
    # 承包 needs the dealer at streak 3 (a third 摊 is allowed only then): the others
    # would pay 8 + 1 + 1, and the dealer pays all of it.
    state = _three_chis("hangzhou", streak=3)
    (record,) = result_of(state).wins
    assert record.settlement.liability
    assert result_of(state).payments == fractions(-10, 10, 0, 0)


# ---------------------------------------------------------------------------
# A kong claimed on a discard is a link of the 暴头 chain (it does not restart it)


def test_an_exposed_kong_after_a_piao_keeps_the_piao_in_the_chain() -> None:
    # 飘杠: the dealer discards a 财神; under its own 抓打 window it may still claim, and
    # kongs seat 1's 4m (seat 1 may only discard the 4m it drew). The replacement wins
    # 暴头 (123p 456p 789s and the kong, with a 财神 left over): the chain is 飘 then
    # 杠, F = 暴头 × 财飘 × 杠开 = 8.
    hands = {0: "444m123p456p789s5z5z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, draws="4m", back="1z")
    state = play(state, D(0, "5z"))
    assert state.zhua_da == 0 and state.seats[0].chain == (ChainStep.PIAO,)
    state = play(state, D(1, "4m"))
    assert offered(state, KONG(0, "444m"))
    state = play(state, KONG(0, "444m"))
    assert state.seats[0].chain == (ChainStep.PIAO, ChainStep.GANG)
    assert state.seats[0].drawn is Tile.EAST and offered(state, WIN(0))
    state = play(state, WIN(0))
    assert _bao_tou_win(state) == ((ChainStep.PIAO, ChainStep.GANG),
                                   ["bao_tou", "cai_piao", "gang_kai"])
    assert result_of(state).payments == fractions(48, -16, -16, -16)  # 底分 1 × 庄闲分 2 × F 8


# ---------------------------------------------------------------------------
# Flip mode: 漏胡 and 漏碰 bind the tile a 5z stands for, not the White Dragon


def test_flip_mode_passed_win_and_pong_bind_the_tile_the_white_dragon_plays_as() -> None:
    # 1m is turned: the other three 1m are 财神 and every 5z plays as 1m. The dealer
    # (streak 3) holds 23m and a pair of 5z (two 1m): seat 1's 5z is a win (123m) and a
    # pong, both passed. Seat 2's 5z is then the same tile, 1m, to the rules: seat 3 may
    # chi it, the dealer may neither win nor pong until it draws again.
    hands = {0: "23m456p789p111s5z5z7z", 1: QUIET[1], 2: QUIET[2], 3: "238m147p369s2347z"}
    state, _ = start("hangzhou", hands, streak=3, draws="5z5z", back="1m",
                     options={"caishen": "flip"})
    assert state.flipped is Tile.M1 and state.wildcards.plays_as(Tile.WHITE) is Tile.M1
    state = play(state, D(0, "7z"), D(1, "5z"))
    assert set(legal_actions(state, 0)) == {WIN(0), PONG(0, "5z5z"), PASS(0)}
    state = play(state, PASS(0))
    assert state.seats[0].passed_wins == {Tile.M1} == state.seats[0].passed_pongs
    state = play(state, D(2, "5z"))
    assert window_of(state).asked == (3,) and offered(state, CHI(3, "23m"))
    refuse(state, WIN(0), Restricted, "漏胡: you passed a win on 1m")
    refuse(state, PONG(0, "5z5z"), Restricted, "漏碰: you passed a pong of 1m")


# ---------------------------------------------------------------------------
# Hangzhou: an added kong opens no window (hangzhou.md, decision: no 抢杠)


def test_hangzhou_an_added_kong_opens_no_window_even_for_a_waiting_dealer() -> None:
    # The dealer (streak 3) waits on 4m, and a 4m discarded by seat 1 would win. Seat 1
    # pongs the dealer's 4m and later adds the fourth it draws: nobody is asked, seat 1
    # takes its replacement (8m) at once and one more tile leaves the back.
    hands = {0: "345m666m777m999m11z", 1: "44m258p147s1234z9s", 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, streak=3, draws="6z7z6z4m", back="8m")
    state = play(state, D(0, "4m"), PONG(1, "44m"))
    for seat, tile in ((1, "9s"), (2, "6z"), (3, "7z"), (0, "6z")):
        state = _discard_unclaimed(state, seat, tile)
    assert state.turn == 1 and state.seats[1].drawn is Tile.M4
    as_discard = judge(state, 0, WinKind.DISCARD, Tile.M4, 1)
    assert as_discard.settlement.valid  # the same tile discarded would win
    back = state.back
    state, events = apply(state, AK(1, "4m"))
    assert not any(isinstance(e, ClaimWindowOpened) for e in events)
    assert state.phase is Phase.TURN and state.turn == 1 and state.window is None
    assert state.seats[1].drawn is Tile.M8 and state.back == back + 2
    assert legal_actions(state, 0) == ()


# ---------------------------------------------------------------------------
# 漏胡 / 漏碰 are lifted by the bound seat's own draw, however that draw is made


def test_a_passed_win_is_lifted_by_a_draw_after_a_discard_nobody_claims() -> None:
    # The dealer passes a win on seat 1's 3m. Seat 3's 6z is claimed by nobody and the
    # dealer draws after it (the general way: nobody asked for the turn's offers), which
    # lifts 漏胡: seat 1's next 3m may be won on.
    hands = {0: "12m456p789p111s22s7z", 1: "3m369m147p258s146z", 2: QUIET[1],
             3: "369m258p369s2346z"}
    state, _ = start("hangzhou", hands, streak=3, draws="2z3z6z5s3m")
    state = play(state, D(0, "7z"), D(1, "3m"))
    assert offered(state, WIN(0))
    state = play(state, PASS(0))
    assert state.seats[0].passed_wins == {Tile.M3}
    state = play(state, D(2, "3z"), D(3, "6z"))
    assert state.turn == 0 and state.seats[0].drawn is Tile.S5
    assert state.seats[0].passed_wins == frozenset()
    state = play(state, D(0, "5s"), D(1, "3m"))
    assert offered(state, WIN(0))


def test_a_passed_pong_is_lifted_by_a_kong_replacement() -> None:
    # The dealer passes a pong of seat 1's 9p, then kongs seat 2's 7z: the replacement
    # is its own draw, so seat 3's 9p may be ponged.
    hands = {0: "99p777z147m258s123z", 1: "9p369m258s14p2346z", 2: "7z258m147s368p124z",
             3: "9p369m147s25p1346z"}
    state, _ = start("hangzhou", hands, draws="8m8s", back="5s")
    state = play(state, D(0, "3z"), D(1, "9p"))
    assert offered(state, PONG(0, "99p"))
    state = play(state, PASS(0), D(2, "7z"))
    assert offered(state, KONG(0, "777z"))
    state = play(state, KONG(0, "777z"))
    assert state.seats[0].drawn is Tile.S5 and state.seats[0].passed_pongs == frozenset()
    state = _discard_unclaimed(state, 0, "5s")
    for seat in (1, 2):
        state = _discard_unclaimed(state, seat, drawn_of(state, seat).notation)
    state = play(state, D(3, "9p"))
    assert offered(state, PONG(0, "99p"))


# ---------------------------------------------------------------------------
# Where the hand ends: Hangzhou after the window of the first discard at 20 tiles or
# fewer (kongs' replacements and burnt tiles count), Shanghai when a draw finds the
# wall empty


def _by_timeouts(state: HandState) -> tuple[HandState, list[int]]:
    """Play ``state`` to its end by the timer's defaults: (the end, the tiles left to
    draw at each discard)."""
    left_at_discards = []
    while state.phase is not Phase.ENDED:
        action = timeout_action(state, deciding_seats(state)[0])
        if action.kind is ActionKind.DISCARD:
            left_at_discards.append(state.wall_remaining)
        state, _ = apply(state, action)
    return state, left_at_discards


QUIET_HANDS = {0: QUIET[0] + "9m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}


def _hangzhou_with_left(left: int, hands: Mapping[int, str] = QUIET_HANDS, back: str = ""
                        ) -> HandState:
    state, _ = start("hangzhou", hands, back=back)
    return replace(state, front=len(state.wall) - state.back - left)


def test_hangzhou_the_hand_ends_after_the_first_discard_at_twenty_tiles_left() -> None:
    state, left = _by_timeouts(_hangzhou_with_left(23))
    assert left == [23, 22, 21, 20] and result_of(state).drawn
    assert state.wall_remaining == 20


def test_hangzhou_a_kong_brings_the_end_nearer_by_its_replacement_and_burnt_tile() -> None:
    hands = {0: "8888p258m369s1234z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state = play(_hangzhou_with_left(22, hands, back="6s"), CK(0, "8888p"))
    assert state.wall_remaining == 20 and state.seats[0].drawn is Tile.S6
    state, left = _by_timeouts(state)
    assert left == [20] and result_of(state).drawn and state.wall_remaining == 20
    state = play(_hangzhou_with_left(23, hands, back="6s"), CK(0, "8888p"))
    state, left = _by_timeouts(state)
    assert left == [21, 20] and result_of(state).drawn


def test_shanghai_the_last_tile_is_discarded_and_the_next_draw_ends_the_hand() -> None:
    state, _ = start("shanghai", QUIET_HANDS, draws="1m2m3m")
    state = replace(state, wall=state.wall[:state.front + 3])  # three tiles left
    state, left = _by_timeouts(state)
    assert left == [3, 2, 1, 0] and result_of(state).drawn
    assert state.wall_remaining == 0 and result_of(state).payments == fractions(0, 0, 0, 0)


def test_shanghai_the_last_discard_may_still_be_won_on() -> None:
    # Seat 3 draws the last tile and discards it; the dealer's 清一色 wins on it.
    hands = {0: "11123455678999m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("shanghai", hands, draws="7z6z3m")
    state = replace(state, wall=state.wall[:state.front + 3])
    state = play(state, D(0, "5m"), D(1, "7z"), D(2, "6z"), D(3, "3m"))
    assert state.wall_remaining == 0 and offered(state, WIN(0))
    state = play(state, WIN(0))
    assert [w.winner for w in result_of(state).wins] == [0]


# ---------------------------------------------------------------------------
# A timeout on one's turn discards the tile just drawn (a replacement too)


def test_a_timeout_discards_the_tile_just_drawn_even_a_kong_replacement() -> None:
    hands = {0: "8888p258m369s1234z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, draws="1m", back="6s")
    state = play(state, CK(0, "8888p"))
    assert timeout_action(state, 0) == D(0, "6s")  # not the rightmost tile, 4z
    state = play(state, timeout_action(state, 0))
    assert state.seats[0].discards[-1].tile is Tile.S6 and state.seats[1].drawn is Tile.M1
    assert timeout_action(state, 1) == D(1, "1m")
    state = play(state, timeout_action(state, 1))
    assert Tile.M1 not in state.seats[1].hand


def test_every_timeout_on_a_turn_with_a_drawn_tile_wins_or_discards_it() -> None:
    for rules_name in ("shanghai", "hangzhou"):
        for seed in range(6):
            wall = full_set(rules_name == "shanghai")
            random.Random(seed).shuffle(wall)
            state, _ = new_hand(rules_name, {}, wall, seed % 4, (3, 5))
            while state.phase is not Phase.ENDED:
                seat = deciding_seats(state)[0]
                action = timeout_action(state, seat)
                drawn = state.seats[seat].drawn
                if state.phase is Phase.TURN and drawn is not None:
                    assert action in (WIN(seat), D(seat, drawn.notation)), (seed, action)
                state, _ = apply(state, action)


def test_hangzhou_two_liable_players_share_the_reverse_liability_in_play() -> None:
    # Seats 1 and 2 have each claimed three of the dealer's discards (streak 3); the
    # dealer wins by self-draw: 2 × (8 + 8 + 8) = 48 received, 24 from each of the two
    # (hangzhou.md, decision "two liable players"), nothing from seat 3.
    hands = {0: "123m456p234789s1z7z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, streak=3, draws="2m5s8p1z")
    state = replace(state, claims=((0,) * 4, (3, 0, 0, 0), (3, 0, 0, 0), (0,) * 4))
    state = _discard_unclaimed(state, 0, "7z")
    for seat in (1, 2, 3):
        state = _discard_unclaimed(state, seat, drawn_of(state, seat).notation)
    assert state.turn == 0 and state.seats[0].drawn is Tile.EAST
    state = play(state, WIN(0))
    (record,) = result_of(state).wins
    assert record.settlement.liability and "倒承包" in record.settlement.liability
    assert result_of(state).payments == fractions(48, -24, -24, 0)
