"""A match of hands: dealer rotation, 老庄 streak, 荒番 counter and dice, totals, leaving."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine import rules
from engine.match import (
    HandOutcome,
    MatchError,
    finish_hand,
    leave,
    new_match,
    start_hand,
)
from engine.rules import hangzhou
from engine.rules.shanghai import dice_huangfan
from tests.engine.helpers import fractions

F = Fraction


def _win(winners: tuple[int, ...], discarder: int | None = None) -> HandOutcome:
    pay = [F(0)] * 4
    for w in winners:
        pay[w] += 10
    loser = discarder if discarder is not None else next(s for s in range(4) if s not in winners)
    pay[loser] -= 10 * len(winners)
    return HandOutcome(winners, discarder, tuple(pay))


DRAW = HandOutcome((), None, (F(0),) * 4)


@pytest.mark.parametrize(("dice", "added"), [
    ((1, 1), 2), ((4, 4), 2), ((1, 3), 1), ((6, 4), 1), ((2, 2), 1), ((6, 6), 1),
    ((2, 3), 0), ((5, 6), 0), ((3, 5), 0),
])
def test_dice_add_to_the_huangfan_counter(dice: tuple[int, int], added: int) -> None:
    assert dice_huangfan(dice) == added


def test_huangfan_counter_over_draws_and_wins() -> None:
    m = new_match("shanghai", rules.SHANGHAI.options({"hands": 8}), first_dealer=2)
    m, setup = start_hand(m, (2, 3))
    assert not setup.huangfan and setup.dealer == 2
    for _ in range(2):  # two drawn hands in a row ...
        m = finish_hand(m, DRAW)
        m, setup = start_hand(m, (2, 3))
        assert setup.dealer == 2  # the dealer deals again after a draw
    assert setup.huangfan and m.huangfan == 2
    m = finish_hand(m, DRAW)
    # ... each later win takes one off: the next three hands are 荒番 hands.
    flags = []
    for _ in range(4):
        m, setup = start_hand(m, (2, 3))
        flags.append(setup.huangfan)
        m = finish_hand(m, _win((setup.dealer,)))
    assert flags == [True, True, True, False]


def test_dice_make_the_hand_being_started_a_huangfan_hand() -> None:
    m = new_match("shanghai", rules.SHANGHAI.options(), first_dealer=0)
    m, setup = start_hand(m, (1, 1))
    assert setup.huangfan and m.huangfan == 2
    m = finish_hand(m, _win((1,)))
    assert m.huangfan == 1 and m.dealer == 1


def test_shanghai_several_winners_nearest_to_the_discarder_deals() -> None:
    m = new_match("shanghai", rules.SHANGHAI.options(), first_dealer=0)
    m, _ = start_hand(m, (2, 3))
    m = finish_hand(m, _win((0, 2), discarder=3))
    assert m.dealer == 0  # 3 -> 0 is nearer than 3 -> 2
    assert m.totals == (F(10), F(0), F(10), F(-20)) and m.wins == (1, 0, 1, 0)


def test_hangzhou_streak_grows_to_three_and_passes_on() -> None:
    m = new_match("hangzhou", rules.HANGZHOU.options(), first_dealer=1)
    streaks = []
    for outcome in (_win((1,)), DRAW, _win((1,)), _win((3,)), _win((3,))):
        m, setup = start_hand(m, (3, 5))
        streaks.append((setup.dealer, setup.streak))
        m = finish_hand(m, outcome)
    assert streaks == [(1, 1), (1, 2), (1, 3), (1, 3), (3, 1)]
    assert (m.dealer, m.streak) == (3, 2)


def test_the_match_ends_after_its_hands() -> None:
    m = new_match("hangzhou", rules.HANGZHOU.options({"hands": 2}), first_dealer=0)
    for _ in range(2):
        m, _setup = start_hand(m, (3, 5))
        m = finish_hand(m, DRAW)
    assert m.finished
    with pytest.raises(MatchError, match="over after 2 hands"):
        start_hand(m, (3, 5))


def test_match_refusals() -> None:
    m = new_match("hangzhou", rules.HANGZHOU.options(), first_dealer=0)
    with pytest.raises(MatchError, match="no hand is running"):
        finish_hand(m, DRAW)
    m, _ = start_hand(m, (3, 5))
    with pytest.raises(MatchError, match="already running"):
        start_hand(m, (3, 5))
    with pytest.raises(MatchError, match="sum to zero"):
        finish_hand(m, HandOutcome((1,), None, (F(1), F(0), F(0), F(0))))
    with pytest.raises(MatchError, match="not shanghai options"):
        new_match("shanghai", rules.HANGZHOU.options(), 0)
    for bad in ((0, 7), (3, 7)):
        for ruleset in (rules.SHANGHAI, rules.HANGZHOU):
            fresh = new_match(ruleset.name, ruleset.options(), 0)
            with pytest.raises(MatchError, match="dice"):
                start_hand(fresh, bad)


def test_leaving_costs_the_abandon_penalty_and_a_computer_takes_over() -> None:
    opts = rules.HANGZHOU.options({"base": 2})
    assert isinstance(opts, hangzhou.Options)
    assert hangzhou.abandon_penalty(opts, 1, None, False) == fractions(0, -16, 0, 0)
    assert hangzhou.abandon_penalty(opts, 1, 3, False) == fractions(0, -64, 0, 0)
    assert hangzhou.abandon_penalty(opts, 1, 3, True) == fractions(0, -64, 0, 64)
    m = new_match("hangzhou", opts, first_dealer=0)
    m = leave(m, 1, hangzhou.abandon_penalty(opts, 1, None, False))
    assert m.computer == (False, True, False, False) and m.totals[1] == -16
    with pytest.raises(MatchError, match="already played by the computer"):
        leave(m, 1)
