"""Claim windows: who is asked, priorities, holding, several winners, chi, kongs, 抢杠."""

from __future__ import annotations

from engine.game import (
    AlreadyAnswered,
    ClaimWindowOpened,
    Event,
    HandState,
    NotYourDecision,
    Phase,
    Restricted,
    WrongPhase,
    apply,
    legal_actions,
)
from engine.melds import MeldKind
from engine.rules.common import WinKind
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
    refuse,
    result_of,
    start,
    window_of,
)

# Shanghai. The dealer (0) discards 9s: seat 1 may chi (78s), seat 2 pong (99s),
# seat 3 win (half-flush all pungs: 111s 222s 555z 666z + 9s).
SCENE_P = {0: QUIET[0] + "9m", 1: "147m258p78s12346z", 2: "99s369m147p12347z",
           3: "1112229s555666z"}


def scene_p(draws: str = "") -> tuple[HandState, tuple[Event, ...]]:
    state, _ = start("shanghai", SCENE_P, draws=draws)
    return apply(state, D(0, "9s"))


def test_window_asks_every_seat_with_a_claim_and_lists_exactly_its_claims() -> None:
    state, events = scene_p()
    assert state.phase is Phase.CLAIM
    assert ClaimWindowOpened(Tile.S9, 0, (1, 2, 3)) in events
    assert set(legal_actions(state, 1)) == {CHI(1, "78s"), PASS(1)}
    assert set(legal_actions(state, 2)) == {PONG(2, "99s"), PASS(2)}
    assert set(legal_actions(state, 3)) == {WIN(3), PASS(3)}
    assert legal_actions(state, 0) == ()
    refuse(state, PASS(0), NotYourDecision, "answering your tile")
    refuse(state, D(1, "1m"), WrongPhase, "claim it or pass")


def test_pong_beats_chi_and_a_win_still_undecided_holds_them() -> None:
    state, _ = scene_p()
    state = play(state, CHI(1, "78s"))
    assert state.phase is Phase.CLAIM  # pong (seat 2) and win (seat 3) still undecided
    refuse(state, PASS(1), AlreadyAnswered, "already answered")
    state = play(state, PONG(2, "99s"))
    assert state.phase is Phase.CLAIM  # the win still holds the pong
    state = play(state, PASS(3))
    assert state.phase is Phase.TURN and state.turn == 2
    meld = state.seats[2].melds[0]
    assert meld.kind is MeldKind.PONG and meld.from_seat == 0 and meld.claimed is Tile.S9
    assert state.seats[0].discards[-1].claimed_by == 2
    assert state.claims[2][0] == 1 and not state.first_go_round
    assert state.seats[2].drawn is None and len(state.seats[2].hand) == 11


def test_a_chosen_pong_does_not_wait_for_a_chi() -> None:
    state, _ = scene_p()
    state = play(state, PASS(3), PONG(2, "99s"))
    assert state.phase is Phase.TURN and state.turn == 2


def test_chi_goes_through_when_the_higher_claims_pass() -> None:
    state, _ = scene_p()
    state = play(state, CHI(1, "78s"), PASS(2), PASS(3))
    assert state.turn == 1 and state.seats[1].melds[0].kind is MeldKind.CHI


def test_all_pass_and_the_next_seat_draws() -> None:
    state, _ = scene_p(draws="5m")
    state = play(state, PASS(3), PASS(2), PASS(1))
    assert state.phase is Phase.TURN and state.turn == 1 and state.seats[1].drawn is Tile.M5


def test_a_win_takes_the_discard_at_once_when_nobody_else_may_win() -> None:
    state, _ = scene_p()
    state, events = apply(state, WIN(3))
    assert state.phase is Phase.ENDED
    (record,) = result_of(state).wins
    assert record.win is WinKind.DISCARD and record.from_seat == 0
    assert record.win_tile is Tile.S9 and "hun_peng" in record.settlement.patterns
    assert sum(result_of(state).payments) == 0 and result_of(state).payments[0] < 0
    assert events[-1].name == "hand_ended"


def test_chi_is_only_for_the_next_seat() -> None:
    state, _ = scene_p()
    refuse(state, CHI(2, "78s"), Restricted, "upper player")


# Two Shanghai players waiting on the dealer's 5p: seat 1 nine gates in dots, seat 2
# half-flush all pungs (111z 222z 333z 444z + 5p).
SCENE_TWO = {0: "147m369s5p567z" + "258m" + "7s", 1: "1112345678999p",
             2: "5p111z222z333z444z", 3: "258m147s369m567z8p"}


def test_shanghai_several_players_win_on_one_discard_and_each_settles() -> None:
    state, _ = start("shanghai", SCENE_TWO)
    state = play(state, D(0, "5p"), WIN(2))
    assert state.phase is Phase.CLAIM  # seat 1 may also win: wait for it
    state = play(state, WIN(1))
    assert [w.winner for w in result_of(state).wins] == [1, 2]
    for record in result_of(state).wins:
        pay = record.settlement.payments
        assert pay[0] < 0 and pay[3] == 0 and sum(pay) == 0
    assert result_of(state).payments[0] == sum(w.settlement.payments[0]
                                           for w in result_of(state).wins)


def test_shanghai_a_passed_second_win_leaves_one_winner() -> None:
    state, _ = start("shanghai", SCENE_TWO)
    state = play(state, D(0, "5p"), WIN(2), PASS(1))
    assert [w.winner for w in result_of(state).wins] == [2]


# Kongs. Seat 1 holds 999p (exposed kong on the dealer's 9p) and 4444m (concealed).
SCENE_K = {0: "9p258m258p369s1234z", 1: "999p4444m258s137z", 2: QUIET[2], 3: QUIET[3]}


def test_exposed_kong_takes_a_replacement_from_the_back() -> None:
    state, _ = start("shanghai", SCENE_K, back="6s")
    state = play(state, D(0, "9p"))
    assert set(legal_actions(state, 1)) == {PONG(1, "99p"), KONG(1, "999p"), PASS(1)}
    state = play(state, KONG(1, "999p"))
    s = state.seats[1]
    assert s.melds[0].kind is MeldKind.KONG and s.drawn is Tile.S6 and state.back == 1
    assert state.replacement is not None and state.claims[1][0] == 1
    assert state.tile_count() == 144


def test_concealed_kong_then_replacement_and_hangzhou_burns_one_more() -> None:
    for rules, back in (("shanghai", 1), ("hangzhou", 2)):
        hands = dict(SCENE_K)
        state, _ = start(rules, hands, back="6s8s", draws="3s")
        state = play(state, D(0, "9p"), PASS(1))
        assert offered(state, CK(1, "4444m"))
        state, events = apply(state, CK(1, "4444m"))
        assert state.seats[1].melds[-1].kind is MeldKind.CONCEALED_KONG
        assert state.seats[1].drawn is Tile.S6 and state.back == back
        assert len(state.set_aside) == back - 1
        assert ("tile_burned" in [e.name for e in events]) == (rules == "hangzhou")
        assert state.tile_count() == len(state.wall)


# 抢杠: seat 1 pongs the dealer's 4m with 44m, keeps the third 4m and adds it; seat 2
# waits on 4m (3m5m, half flush in characters) and lets the dealer's 4m go.
SCENE_ROB = {0: "4m147p258s369p2347z", 1: "444m258p369s1567z", 2: "35m666m777m999m11z",
             3: "258m147p369p2346z"}


def test_shanghai_added_kong_may_be_robbed_and_the_robbed_player_pays_three_shares() -> None:
    state, _ = start("shanghai", SCENE_ROB)
    state = play(state, D(0, "4m"), PASS(2), PONG(1, "44m"))
    assert offered(state, AK(1, "4m"))
    state = play(state, AK(1, "4m"))
    assert state.phase is Phase.ROB_KONG
    assert set(legal_actions(state, 2)) == {WIN(2), PASS(2)}
    refuse(state, PASS(3), NotYourDecision, "nothing to claim")
    refuse(state, PONG(2, "35m"), WrongPhase, "only be robbed by a win")
    state = play(state, WIN(2))
    (record,) = result_of(state).wins
    assert record.win is WinKind.ROB_KONG and record.from_seat == 1
    pay = record.settlement.payments
    assert pay[2] == -pay[1] > 0 and pay[0] == pay[3] == 0
    assert "qiang_gang" in record.settlement.patterns


def test_shanghai_robbing_passed_gives_the_kong_its_replacement() -> None:
    state, _ = start("shanghai", SCENE_ROB, back="8m")
    state = play(state, D(0, "4m"), PASS(2), PONG(1, "44m"), AK(1, "4m"), PASS(2))
    assert state.phase is Phase.TURN and state.turn == 1
    assert state.seats[1].melds[0].kind is MeldKind.ADDED_KONG
    assert state.seats[1].drawn is Tile.M8


def test_hangzhou_has_no_robbing_the_kong() -> None:
    state, _ = start("hangzhou", SCENE_ROB, back="8m")
    state = play(state, D(0, "4m"))
    assert window_of(state).asked == (1,)  # a discard win needs streak 3 here: seat 2 not asked
    state = play(state, PONG(1, "44m"), AK(1, "4m"))
    assert state.phase is Phase.TURN and state.seats[1].drawn is Tile.M8
