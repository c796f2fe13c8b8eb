"""The lobby's expected pace: "at this table's pace, about N days a match".

Worked out from the seated people's own answer times (`ActionLog.answer_times`: from a
decision put to them to their move, at every table they sat at), once each of them has
`MIN_ANSWERS` on record; nothing is said before (`days_a_match` returns None).

The model, plainly: a hand waits for its rule set's ``decisions_per_hand`` (a named
constant of each rule set, `engine.rules.ruleset.RuleSet.decisions_per_hand`, measured
with the engine's computer player; tests/service/test_match_pace.py measures it again)
decisions one after another — each turn, and each claim window once (its seats are
asked at once) — shared evenly by the four seats, each taking its person's median answer time (a
computer takes none; an empty seat, the mean of the seated people's). A match is the
table's ``hands`` such hands. It leaves out what the timers cut short and what
pre-moves or answers given in advance play at once, except as far as the people's own
answer times already show them (a move played at once counts as answered at once).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from engine import rules as rulesets

MIN_ANSWERS = 20
"""Answered decisions a seated person needs on record before their pace is counted (a
median of fewer says little)."""

DAY = 86_400.0


def median_answer(times: Sequence[float]) -> float | None:
    """A person's median answer time in seconds, once `MIN_ANSWERS` are known."""
    return statistics.median(times) if len(times) >= MIN_ANSWERS else None


def days_a_match(rules: str, hands: int, seats: Sequence[Sequence[float] | bool | None]
                 ) -> float | None:
    """How many days a match of ``hands`` hands takes at these seats' pace, or None
    while not enough is known. ``seats``: for each seat, the person's answer times
    (seconds, any order), True for a computer, None for an empty seat. None when the rule
    set has no ``decisions_per_hand``, when no seat holds a person, or when any seated
    person has fewer than `MIN_ANSWERS` answers on record."""
    ruleset = rulesets.RULESETS.get(rules)
    per_hand = ruleset.decisions_per_hand if ruleset is not None else None
    if per_hand is None:
        return None
    medians: list[float] = []
    empty = 0
    for seat in seats:
        if seat is None:
            empty += 1
        elif not isinstance(seat, bool):  # a computer takes no time
            known = median_answer(seat)
            if known is None:
                return None
            medians.append(known)
    if not medians:
        return None
    waits = sum(medians) + empty * statistics.fmean(medians)
    return hands * per_hand / len(seats) * waits / DAY
