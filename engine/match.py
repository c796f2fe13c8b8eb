"""A match: a table's sequence of hands, carrying dealer, 老庄 streak, 荒番 and totals.

Pure and deterministic: the caller rolls the dice and picks the first dealer (with
`secrets`), the match only says what follows from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from engine import rules
from engine.rules import RuleSet
from engine.rules.common import SEATS, TableOptions


class MatchError(ValueError):
    """A match step that cannot happen now; the text says why."""


@dataclass(frozen=True)
class HandSetup:
    """What the next hand starts with."""

    number: int
    dealer: int
    dice: tuple[int, int]
    streak: int
    """Hangzhou 老庄: 1 平庄, 2, 3 (and beyond, counted as 3)."""
    huangfan: bool
    """Shanghai: whether this is a 荒番 hand (settlement doubled)."""


@dataclass(frozen=True)
class HandOutcome:
    """How a hand ended: its winners (empty for a draw), the discarder when the win
    was on a discard, and the signed amount of each seat."""

    winners: tuple[int, ...]
    discarder: int | None
    payments: tuple[Fraction, ...]

    @property
    def drawn(self) -> bool:
        return not self.winners


@dataclass(frozen=True)
class MatchState:
    rules: str
    options: TableOptions
    dealer: int
    hands_played: int = 0
    streak: int = 1
    huangfan: int = 0
    """Shanghai 荒番 counter (after the dice of the current hand, while one is running)."""
    totals: tuple[Fraction, ...] = (Fraction(0),) * SEATS
    wins: tuple[int, ...] = (0,) * SEATS
    computer: tuple[bool, ...] = (False,) * SEATS
    """Seats played by the computer player (added as such, or left the match)."""
    current: HandSetup | None = None

    @property
    def ruleset(self) -> RuleSet:
        return rules.get(self.rules)

    @property
    def finished(self) -> bool:
        return self.current is None and self.hands_played >= self.options.hands


def new_match(rules_name: str, options: TableOptions, first_dealer: int,
              computer: Sequence[bool] = (False,) * SEATS) -> MatchState:
    ruleset = rules.get(rules_name)
    if not isinstance(options, ruleset.options_type):
        raise MatchError(f"options are not {rules_name} options")
    if not 0 <= first_dealer < SEATS:
        raise MatchError(f"the first dealer must be a seat 0–3, not {first_dealer}")
    return MatchState(rules_name, options, first_dealer, computer=tuple(computer))


def _check_dice(dice: tuple[int, int]) -> None:
    a, b = dice
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise MatchError(f"dice show 1–6, not {a}+{b}")


def start_hand(match: MatchState, dice: tuple[int, int]) -> tuple[MatchState, HandSetup]:
    if match.current is not None:
        raise MatchError("a hand is already running")
    if match.finished:
        raise MatchError(f"the match is over after {match.options.hands} hands")
    _check_dice(dice)
    counter = match.ruleset.huangfan_after_dice(match.huangfan, dice)
    setup = HandSetup(match.hands_played + 1, match.dealer, dice, match.streak, counter > 0)
    return replace(match, huangfan=counter, current=setup), setup


def finish_hand(match: MatchState, outcome: HandOutcome) -> MatchState:
    """Add the hand's payments and move dealer, streak and 荒番 on."""
    if match.current is None:
        raise MatchError("no hand is running")
    if len(outcome.payments) != SEATS or sum(outcome.payments) != 0:
        raise MatchError("a hand's payments are four amounts that sum to zero")
    totals = tuple(t + p for t, p in zip(match.totals, outcome.payments, strict=True))
    wins = tuple(w + (1 if s in outcome.winners else 0) for s, w in enumerate(match.wins))
    dealer, streak = match.ruleset.next_dealer(match.dealer, match.streak, outcome.winners,
                                               outcome.discarder)
    counter = match.ruleset.huangfan_after_hand(match.huangfan, outcome.drawn)
    return replace(match, dealer=dealer, streak=streak, huangfan=counter, totals=totals,
                   wins=wins, hands_played=match.hands_played + 1, current=None)


def leave(match: MatchState, seat: int, penalty: Sequence[Fraction] | None = None
          ) -> MatchState:
    """A player leaves: the seat goes on as a computer player; a penalty (逃跑, from the
    rule set's `abandon_penalty`) is added to the totals as it is."""
    if not 0 <= seat < SEATS:
        raise MatchError(f"no seat {seat}")
    if match.computer[seat]:
        raise MatchError(f"seat {seat} is already played by the computer")
    computer = tuple(c or s == seat for s, c in enumerate(match.computer))
    totals = match.totals
    if penalty is not None:
        totals = tuple(t + p for t, p in zip(totals, penalty, strict=True))
    return replace(match, computer=computer, totals=totals)
