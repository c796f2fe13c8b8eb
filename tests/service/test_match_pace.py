"""The lobby's expected pace as a pure function (bot/service/match_pace.py), and its
constant checked against the engine: decisions that hold up a hand, per rule set."""

from __future__ import annotations

import random
import statistics

import pytest

from bot.service.match_pace import DAY, MIN_ANSWERS, days_a_match, median_answer
from engine import rules as rulesets
from engine.ai import choose_action
from engine.game import Phase, apply, deciding_seats, new_hand
from engine.tiles import full_set

MINUTES_20 = [1200.0] * MIN_ANSWERS


def test_a_median_only_once_enough_answers_are_known() -> None:
    assert median_answer([60.0] * (MIN_ANSWERS - 1)) is None
    assert median_answer([1.0] * 10 + [100.0] * 11) == 100.0
    assert median_answer([5.0, 3.0, 9000.0] * MIN_ANSWERS) == 5.0  # one slow answer: no matter


def test_days_a_match_from_the_seated_people_s_medians() -> None:
    four = [MINUTES_20] * 4
    # 8 Shanghai hands, 79 decisions each, everyone 20 minutes: 8 × 79 × 20 min
    assert days_a_match("shanghai", 8, four) == pytest.approx(8 * 79 * 1200 / DAY)
    # computers take no time; an empty seat plays at the seated people's mean
    assert days_a_match("shanghai", 8, [MINUTES_20, True, True, True]) == \
        pytest.approx(8 * 79 / 4 * 1200 / DAY)
    slow = [3600.0] * MIN_ANSWERS
    assert days_a_match("hangzhou", 4, [MINUTES_20, slow, None, True]) == \
        pytest.approx(4 * 53 / 4 * (1200 + 3600 + 2400) / DAY)


def test_nothing_is_said_while_not_enough_is_known() -> None:
    assert days_a_match("shanghai", 8, [MINUTES_20, [60.0] * 3, True, True]) is None
    assert days_a_match("shanghai", 8, [MINUTES_20, [], None, None]) is None
    assert days_a_match("shanghai", 8, [True, True, True, None]) is None
    assert days_a_match("no such rules", 8, [MINUTES_20] * 4) is None


def decisions(rules: str, hands: int, seed: int) -> float:
    """Decisions that hold up a hand, on average: each turn, each claim window once."""
    rng = random.Random(seed)
    ruleset = rulesets.get(rules)
    options = ruleset.options({})
    counts = []
    for _ in range(hands):
        wall = full_set(ruleset.has_flowers)
        rng.shuffle(wall)
        state, _ = new_hand(rules, options, tuple(wall), rng.randrange(4), (3, 4))
        seen: set[tuple[str, int]] = set()
        while state.phase is not Phase.ENDED:
            if state.phase is Phase.TURN:
                seen.add(("turn", state.seq + 1))
            else:
                assert state.window is not None
                seen.add(("window", state.window.opened_at))
            state, _ = apply(state, choose_action(state, deciding_seats(state)[0], rng))
        counts.append(len(seen))
    return statistics.fmean(counts)


@pytest.mark.parametrize("rules", ["shanghai", "hangzhou"])
def test_the_decisions_per_hand_are_the_engine_s(rules: str) -> None:
    measured = decisions(rules, 30, seed=11)
    assert measured == pytest.approx(rulesets.get(rules).decisions_per_hand, rel=0.15), \
        measured
