"""The rating formula alone (bot/service/ratings.py): Plackett–Luce over the four
placements, ties sharing a rank, a computer seat a fixed anchor, two computers not
rated, the conservative number shown."""

from __future__ import annotations

import pytest

from bot.service.ratings import FORMULA, RATING_FORMULA, START, shown_of
from bot.store import Placed, Skill


def seats(*people: int | None, places: tuple[int, ...] = (1, 2, 3, 4)) -> list[Placed]:
    return [Placed(seat, user, place)
            for seat, (user, place) in enumerate(zip(people, places, strict=True))]


def test_a_newcomer_shows_a_thousand_and_the_number_never_goes_below_zero() -> None:
    assert FORMULA.shown(START) == 1000 == shown_of(25.0, 25.0 / 3)
    assert shown_of(0.0, 25.0) == 0
    assert shown_of(30.0, 2.0) == 1000 + 40 * 24  # μ − 3σ = 24
    assert FORMULA.name == RATING_FORMULA


def test_the_order_of_places_orders_the_new_ratings() -> None:
    after = FORMULA.rate(seats(1, 2, 3, 4), 0, {})
    assert after is not None and sorted(after) == [1, 2, 3, 4]
    shown = [FORMULA.shown(after[u]) for u in (1, 2, 3, 4)]
    assert shown == sorted(shown, reverse=True) and shown[0] > 1000 > shown[3]
    assert all(after[u].sigma < START.sigma for u in after)  # a match teaches something


def test_tied_places_share_a_rank() -> None:
    after = FORMULA.rate(seats(1, 2, 3, 4, places=(1, 2, 2, 4)), 0, {})
    assert after is not None and after[2] == after[3]
    assert after[1].mu > after[2].mu > after[4].mu
    all_tied = FORMULA.rate(seats(1, 2, 3, 4, places=(1, 1, 1, 1)), 0, {})
    assert all_tied is not None and len(set(all_tied.values())) == 1


def test_a_computer_seat_is_an_anchor_never_rated() -> None:
    with_computer = FORMULA.rate(seats(1, 2, None, 3), 1, {})
    assert with_computer is not None and sorted(with_computer) == [1, 2, 3]
    # the computer plays at the starting rating whatever it did before: the same match
    # gives the same result however often computers won elsewhere
    again = FORMULA.rate(seats(1, 2, None, 3), 1, {})
    assert again == with_computer
    # beating a computer is beating a newcomer: the same as a person at the start
    person = FORMULA.rate(seats(1, 2, 9, 3), 0, {})
    assert person is not None
    assert {u: person[u] for u in (1, 2, 3)} == with_computer


@pytest.mark.parametrize("people", [(1, 2, None, None), (1, None, None, None),
                                    (None, None, None, None)])
def test_two_or_more_computers_are_not_rated(people: tuple[int | None, ...]) -> None:
    assert FORMULA.rate(seats(*people), sum(p is None for p in people), {}) is None


def test_the_facts_count_of_computers_decides_too() -> None:
    """A seat a person left is theirs (user id kept): only seats that never had a
    person are computers, as the facts count them."""
    assert FORMULA.rate(seats(1, 2, 3, None), 2, {}) is None
    left = FORMULA.rate(seats(1, 2, 3, None, places=(4, 1, 2, 3)), 1, {})
    assert left is not None and FORMULA.shown(left[1]) < 1000


def test_known_ratings_are_the_starting_point() -> None:
    strong = Skill(35.0, 3.0)
    after = FORMULA.rate(seats(1, 2, 3, 4), 0, {1: strong})
    fresh = FORMULA.rate(seats(1, 2, 3, 4), 0, {})
    assert after is not None and fresh is not None
    # the strong, well-known player's expected win moves them less than a newcomer's
    assert 0 < after[1].mu - strong.mu < fresh[1].mu - START.mu
    assert after[1].sigma < strong.sigma
    upset = FORMULA.rate(seats(2, 3, 4, 1), 0, {1: strong})
    assert upset is not None and upset[1].mu < strong.mu
    assert upset[2].mu - START.mu > fresh[1].mu - START.mu  # beating them is worth more
