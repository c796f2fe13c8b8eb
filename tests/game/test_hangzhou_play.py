"""Hangzhou in play: one winner, 放铳 conditions, 漏胡, 漏碰, 抓打, 摊, chi limit, 财神
claims and melds, no win right after a chi or pong, the last window, the 飘 chain."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from engine.analysis import Wildcards
from engine.game import (
    ActionKind,
    HandState,
    InvalidMeld,
    NotAWin,
    NotYourDecision,
    Phase,
    Restricted,
    TileNotHeld,
    WrongPhase,
    legal_actions,
)
from engine.melds import Meld, MeldKind
from engine.rules import hangzhou
from engine.rules.common import ChainStep, ClaimCheck, TurnCheck, WinKind
from engine.tiles import Tile
from tests.engine.helpers import fractions
from tests.game.helpers import (
    AK,
    CHI,
    CK,
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

# The dealer (0) discards 3m. Seat 1 waits on it (12m) and may chi; seat 2 waits on it
# (45m). Seat 3 may pong it, which keeps a window open whatever else is refused.
SCENE_H1 = {0: "3m" + QUIET[0], 1: "12m456p789p111s22s", 2: "45m123p456s789s33z",
            3: "33m9m147p258s1467z"}


def h1(streak: int = 3, *, tan: int = 0, chis: int = 0, **options: object) -> HandState:
    """Scene H1 after the 3m discard; ``tan`` claims of seat 1 on the dealer and ``chis``
    chi melds of seat 1 are set up before the discard (the window is judged then)."""
    state, _ = start("hangzhou", SCENE_H1, streak=streak, options=options)
    claims = [[0] * 4 for _ in range(4)]
    claims[1][0] = tan
    chi = Meld(MeldKind.CHI, (Tile.P1, Tile.P2, Tile.P3), Tile.P1, 0, Tile.P1)
    state = replace(state.with_seat(1, melds=(chi,) * chis),
                    claims=tuple(tuple(r) for r in claims))
    return play(state, D(0, "3m"))


def test_one_winner_the_first_in_turn_order_from_the_discarder() -> None:
    state = h1()
    assert set(legal_actions(state, 1)) == {WIN(1), CHI(1, "12m"), PASS(1)}
    state = play(state, WIN(2))
    assert state.phase is Phase.CLAIM  # seat 1 is nearer and may still win
    state = play(state, WIN(1))
    assert [w.winner for w in result_of(state).wins] == [1]
    assert result_of(state).payments == fractions(-8, 8, 0, 0)  # 底分 1 × 庄闲分 8 (streak 3) × F 1


def test_the_farther_winner_wins_when_the_nearer_declines() -> None:
    state = play(h1(), WIN(2), CHI(1, "12m"))
    assert [w.winner for w in result_of(state).wins] == [2]


def test_discard_win_needs_the_streak() -> None:
    state = h1(streak=1)
    assert set(legal_actions(state, 1)) == {CHI(1, "12m"), PASS(1)}
    refuse(state, WIN(1), NotAWin, "streak")
    refuse(state, WIN(2), NotAWin, "streak")  # seat 2 is not asked: the reason still shows


def test_discard_win_never_between_two_non_dealers() -> None:
    hands = {3: "7z147m258p369s1234z", 0: "3m258m369p147s124z", 1: SCENE_H1[1],
             2: SCENE_H1[2]}
    state, _ = start("hangzhou", hands, dealer=3, streak=3, draws="6z")
    state = play(state, D(3, "7z"), D(0, "3m"))
    assert set(legal_actions(state, 1)) == {CHI(1, "12m"), PASS(1)}
    refuse(state, WIN(1), NotAWin, "between the dealer and another")


def test_seven_pairs_and_bao_tou_never_win_on_a_discard() -> None:
    # Seat 1 is 暴头 (four melds and a 财神) and may chi; seat 2 waits on seven pairs.
    hands = {0: "4m" + QUIET[0], 1: "123m456p789s111z5z", 2: "1122m3344p5566s4m",
             3: QUIET[3]}
    state, _ = start("hangzhou", hands, streak=3)
    state = play(state, D(0, "4m"))
    assert window_of(state).asked == (1,) and offered(state, CHI(1, "3m5z"))
    refuse(state, WIN(1), NotAWin, "暴头")
    refuse(state, WIN(2), NotAWin, "seven-pairs hand wins by self-draw only")


# 漏胡: the dealer passes a win on seat 1's 3m; seat 3's 3m is then refused until the
# dealer draws again.
SCENE_LOU_HU = {0: "12m456p789p111s22s7z", 1: QUIET[2], 2: QUIET[1],
                3: "369m258p369s2346z"}


def test_passed_win_binds_until_own_next_draw() -> None:
    state, _ = start("hangzhou", SCENE_LOU_HU, streak=3, draws="2z3z3m5s3m")
    state = play(state, D(0, "7z"), D(1, "3m"))
    assert window_of(state).asked == (0,) and offered(state, WIN(0))
    state = play(state, PASS(0))
    assert state.seats[0].passed_wins == {Tile.M3}
    state = play(state, D(2, "3z"), D(3, "3m"))
    assert set(legal_actions(state, 0)) == {CHI(0, "12m"), PASS(0)}
    refuse(state, WIN(0), Restricted, "漏胡")
    state = play(state, PASS(0))
    assert state.seats[0].passed_wins == frozenset() and state.seats[0].drawn is Tile.S5
    state = play(state, D(0, "5s"), D(1, "3m"))
    assert offered(state, WIN(0))


SCENE_LOU_PENG = {0: "78p99p147m258s1234z", 1: "9p369m258s14p2346z",
                  2: "258m356p147s1234z", 3: "9p369m147s25p1467z"}


def test_passed_pong_binds_until_own_next_draw() -> None:
    state, _ = start("hangzhou", SCENE_LOU_PENG, draws="8m8s8s")
    state = play(state, D(0, "1z"), D(1, "9p"))
    assert set(legal_actions(state, 0)) == {PONG(0, "99p"), PASS(0)}
    state = play(state, PASS(0), D(2, "8s"), D(3, "9p"))
    assert set(legal_actions(state, 0)) == {CHI(0, "78p"), PASS(0)}
    refuse(state, PONG(0, "99p"), Restricted, "漏碰")
    state = play(state, PASS(0))
    assert state.seats[0].passed_pongs == frozenset()


# 抓打: the dealer discards a 财神 (5z). Until it draws again the others may not claim,
# and on their turns only self-draw, concealed kong or the drawn tile's discard.
SCENE_ZHUA = {0: "5z99p147m258s12347z", 1: "258m369s147p1234z", 2: "9p5z1111s369m47s67z",
              3: "258m147p369s2346z"}


def test_zhua_da_restricts_the_others_until_the_discarder_draws() -> None:
    state, _ = start("hangzhou", SCENE_ZHUA, draws="9p5z8m6p")
    state = play(state, D(0, "5z"))
    assert state.zhua_da == 0 and state.seats[0].chain == (ChainStep.PIAO,)
    assert state.window is None  # a discarded 财神 is never claimed
    assert {a.kind for a in legal_actions(state, 1)} == {ActionKind.DISCARD}
    assert legal_actions(state, 1) == (D(1, "9p"),)
    refuse(state, D(1, "1z"), Restricted, "抓打")
    state = play(state, D(1, "9p"))
    assert window_of(state).asked == (0,)  # the 财神 discarder itself may still claim
    refuse(state, PONG(2, "5z9p"), Restricted, "抓打")
    state = play(state, PASS(0))
    assert offered(state, CK(2, "1111s")) and offered(state, CK(2, "111s5z"))
    refuse(state, D(2, "9p"), Restricted, "抓打")
    state = play(state, D(2, "5z"))  # a second 财神: the window becomes seat 2's
    assert state.zhua_da == 2
    state = play(state, D(3, "8m"))
    assert state.turn == 0 and legal_actions(state, 0) == (D(0, "6p"),)
    refuse(state, D(0, "9p"), Restricted, "抓打")


def test_zhua_da_rule_allows_self_draw_and_concealed_kong_not_added_kong() -> None:
    opts = hangzhou.Options()
    wild = Wildcards.fixed()
    check = partial(TurnCheck, seat=1, wildcards=wild, drawn=Tile.M9, zhua_da=0)
    assert hangzhou.turn_refusal(check(ActionKind.WIN), opts) is None
    assert hangzhou.turn_refusal(check(ActionKind.CONCEALED_KONG), opts) is None
    assert "抓打" in str(hangzhou.turn_refusal(check(ActionKind.ADDED_KONG, tile=Tile.M1), opts)
                       or "")
    assert hangzhou.turn_refusal(check(ActionKind.DISCARD, tile=Tile.M9), opts) is None


def test_bao_tou_self_draw_counts_the_piao_chain() -> None:
    hands = {0: "123m456p789s666z5z5z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, draws="9m9p9s8m")
    state = play(state, D(0, "5z"), D(1, "9m"), D(2, "9p"), D(3, "9s"))
    assert window_of(state).asked == (0,)  # only the 财神 discarder may claim (chi 78s)
    state = play(state, PASS(0))
    assert state.turn == 0 and state.seats[0].drawn is Tile.M8
    state = play(state, WIN(0))
    (record,) = result_of(state).wins
    assert record.win is WinKind.SELF_DRAW and record.context.chain == (ChainStep.PIAO,)
    assert sorted(record.settlement.patterns) == ["bao_tou", "cai_piao"]
    assert result_of(state).payments == fractions(24, -8, -8, -8)


# Two seats may pong the dealer's 3m: seat 2 with 3m + 财神, seat 3 with 3m3m.
SCENE_NEAR = {0: "3m" + QUIET[0], 1: QUIET[1], 2: "3m5z258s147p1467z6m",
              3: "33m258p369s2347z9s"}


def test_between_two_pongs_the_nearer_seat_wins() -> None:
    state, _ = start("hangzhou", SCENE_NEAR)
    state = play(state, D(0, "3m"))
    assert offered(state, PONG(2, "3m5z")) and offered(state, PONG(3, "33m"))
    state = play(state, PONG(3, "33m"))
    assert state.phase is Phase.CLAIM  # seat 2 is nearer: its pong would win
    state = play(state, PONG(2, "3m5z"))
    assert state.turn == 2
    assert sorted(state.seats[2].melds[0].tiles) == [Tile.M3, Tile.M3, Tile.WHITE]


def test_the_nearer_pong_goes_through_at_once() -> None:
    state, _ = start("hangzhou", SCENE_NEAR)
    state = play(state, D(0, "3m"), PONG(2, "3m5z"))
    assert state.turn == 2


def test_caishen_melds_off_forbids_caishen_in_claims() -> None:
    state, _ = start("hangzhou", SCENE_NEAR, options={"caishen_melds": False})
    state = play(state, D(0, "3m"))
    assert window_of(state).asked == (3,)
    refuse(state, PONG(2, "3m5z"), Restricted, "caishen_melds")


def test_no_win_in_the_step_of_a_pong() -> None:
    hands = {0: "9p" + QUIET[0], 1: "99p123m456m789m11s", 2: QUIET[1], 3: QUIET[3]}
    state, _ = start("hangzhou", hands)
    state = play(state, D(0, "9p"), PONG(1, "99p"))
    refuse(state, WIN(1), Restricted, "no win in that same step")
    assert {a.kind for a in legal_actions(state, 1)} == {ActionKind.DISCARD}


def test_tan_limit_two_claims_on_one_player_three_for_dealer_at_streak_three() -> None:
    assert offered(h1(streak=2, tan=1), CHI(1, "12m"))
    refuse(h1(streak=2, tan=2), CHI(1, "12m"), Restricted, "摊")
    state = play(h1(streak=3, tan=2), PASS(2), PASS(3), CHI(1, "12m"))
    assert state.claims[1][0] == 3
    refuse(h1(streak=3, tan=3), CHI(1, "12m"), Restricted, "摊")
    # Between two non-dealers two is the limit even at streak 3.
    check = ClaimCheck(ActionKind.PONG, 1, 2, Tile.M3, 0, 3, ((0,) * 4, (0, 0, 2, 0),
                                                              (0,) * 4, (0,) * 4))
    assert "摊" in str(hangzhou.claim_refusal(check, hangzhou.Options()) or "")


def test_without_liability_no_third_chi() -> None:
    # Dealer and non-dealer at streak 3 may have a third 摊; without liability a third
    # chi is still refused, and the 摊 limit holds either way.
    refuse(h1(streak=3, tan=2, chis=2, liability=False), CHI(1, "12m"), Restricted,
           "chi more than 2 times")
    assert offered(h1(streak=3, tan=2, chis=2), CHI(1, "12m"))
    assert offered(h1(streak=3, tan=2, chis=1, liability=False), CHI(1, "12m"))
    refuse(h1(streak=1, tan=2, chis=1, liability=False), CHI(1, "12m"), Restricted, "摊")


def test_last_window_only_a_win_then_the_hand_is_drawn() -> None:
    state, _ = start("hangzhou", SCENE_H1, streak=3)
    state = replace(state, front=len(state.wall) - 20)
    state = play(state, D(0, "3m"))
    assert window_of(state).last
    assert set(legal_actions(state, 1)) == {WIN(1), PASS(1)}
    refuse(state, CHI(1, "12m"), Restricted, "流局")
    state = play(state, PASS(1), PASS(2))
    assert state.phase is Phase.ENDED and result_of(state).drawn
    assert result_of(state).payments == fractions(0, 0, 0, 0)


def test_last_window_with_no_claim_ends_the_hand_at_once() -> None:
    state, _ = start("hangzhou", SCENE_H1, streak=1)
    state = replace(state, front=len(state.wall) - 20)
    state = play(state, D(0, "3m"))
    assert state.phase is Phase.ENDED and result_of(state).drawn


def test_refusals_name_the_problem() -> None:
    state = h1()
    refuse(state, PONG(1, "33m"), TileNotHeld, "do not hold")
    refuse(state, PASS(0), NotYourDecision, "answering your tile")
    state, _ = start("hangzhou", SCENE_H1)
    refuse(state, AK(0, "3m"), InvalidMeld, "no pong")
    refuse(state, CK(0, "1m4m7m2p"), InvalidMeld, "not a concealed_kong")
    refuse(state, D(0, "9m"), TileNotHeld, "do not hold 9m")
    refuse(state, D(1, "1m"), NotYourDecision, "seat 0's turn")
    refuse(state, PONG(0, "33m"), WrongPhase, "your turn")


def test_a_discarded_caishen_is_never_claimed() -> None:
    check = ClaimCheck(ActionKind.PONG, 1, 0, Tile.WHITE, 0, 3, ((0,) * 4,) * 4,
                       Wildcards.fixed(), meld_tiles=(Tile.WHITE, Tile.WHITE))
    assert "财神 can never be claimed" in str(hangzhou.claim_refusal(check, hangzhou.Options())
                                           or "")
    hands = {0: "5z" + QUIET[0], 1: "55z147m258p369s12z", 2: QUIET[1], 3: QUIET[3]}
    state, _ = start("hangzhou", hands)
    state = play(state, D(0, "5z"))
    assert state.window is None and state.turn == 1
