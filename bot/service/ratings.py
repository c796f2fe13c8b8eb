"""The rating formula (issue 31): a skill rating per person per server and rule set, from
each finished match's final placements, with openskill's Plackett–Luce model (a
maintained library, not a hand-written formula). Pure: no I/O; the store applies it
(`bot.store.ratings`).

- The four seats are four players ranked by their placement (ties share a rank, as the
  placements do: 1, 2, 2, 4).
- A computer seat (one that never had a person in the match) is a fixed anchor: it
  plays at the model's starting rating every time, and is never updated nor stored.
  A match with two or more computer seats is not rated.
- A seat a person left or went away from is rated for that person (the facts credit
  the seat's placement to them).
- The number shown is conservative: μ − 3σ (what the model is fairly sure the skill is
  above), scaled to a familiar range, ``round(1000 + 40 × (μ − 3σ))``, never below 0.
  A newcomer shows 1000; it is provisional until `PROVISIONAL_MATCHES` rated matches.

Changing anything here that changes a number changes `RATING_FORMULA`: at the next
start every rating is rebuilt by replaying the finished matches in order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.store.ratings import PROVISIONAL_MATCHES, Placed, Skill

RATING_FORMULA = "plackett-luce-1"
"""The formula's name and version, kept in ``bot_settings`` ('rating_formula')."""
MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
TAU = MU / 300
"""The model's parameters, openskill's usual ones, written out so that a change of the
library's defaults cannot change the ratings unannounced."""
BASE = 1000
SCALE = 40
"""Shown = round(BASE + SCALE × (μ − 3σ)), at least 0."""
START = Skill(MU, SIGMA)
"""A person's rating before their first rated match, and a computer seat's, always."""
MOST_COMPUTERS = 1
"""A match with more computer seats than this is not rated."""

__all__ = ["BASE", "FORMULA", "PROVISIONAL_MATCHES", "RATING_FORMULA", "SCALE",
           "PlackettLuceFormula", "shown_of"]


def shown_of(mu: float, sigma: float) -> int:
    """The number players see for a rating."""
    return max(0, round(BASE + SCALE * (mu - 3 * sigma)))


@dataclass(frozen=True)
class PlackettLuceFormula:
    """`bot.store.ratings.Formula` with openskill's Plackett–Luce model."""

    name: str = RATING_FORMULA
    start: Skill = START

    def rate(self, seats: Sequence[Placed], computers: int,
             skills: Mapping[int, Skill]) -> dict[int, Skill] | None:
        """Each person's rating after the match, or None: not rated (two or more
        computer seats, or fewer than two seats)."""
        anchors = sum(1 for s in seats if s.user_id is None)
        if max(computers, anchors) > MOST_COMPUTERS or len(seats) < 2:
            return None
        model = _model()
        teams = [[model.rating(mu=skill.mu, sigma=skill.sigma)]
                 for skill in (self.start if s.user_id is None
                               else skills.get(s.user_id, self.start) for s in seats)]
        rated = model.rate(teams, ranks=[float(s.placement) for s in seats])
        return {s.user_id: Skill(float(team[0].mu), float(team[0].sigma))
                for s, team in zip(seats, rated, strict=True) if s.user_id is not None}

    def shown(self, skill: Skill) -> int:
        return shown_of(skill.mu, skill.sigma)


def _model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


FORMULA = PlackettLuceFormula()
"""The formula the bot rates with."""
