"""The public step a decision's buttons carry (bot/service/steps.py): worked out from
what every seat sees alone, and still exactly one number per decision of a hand.

Over many hands played by random legal moves (claims, kongs and passes as often as
discards), of both rule sets: every decision the hand waits for has one public step,
the same for every seat it waits for; two decisions never share one and later ones
have larger ones (the hand's seq numbering, `step_of`, is the reference: it is exact);
and the count it is made from is what the spectator's picture shows.
"""

from __future__ import annotations

import random

import pytest

from bot.service.live import step_of
from bot.service.steps import public_moves, public_step_of
from engine.game import HandState, Phase, apply, deciding_seats, legal_actions, new_hand
from engine.melds import MeldKind
from engine.tiles import full_set
from engine.view import spectator_view

HANDS = 60


def shown_moves(state: HandState) -> int:
    """The discards and melds the spectator's picture shows (an added kong: a pong and
    the tile added)."""
    table = spectator_view(state, 1)
    return sum(len(s.discards) + sum(2 if m.kind is MeldKind.ADDED_KONG else 1
                                     for m in s.melds) for s in table.seats)


@pytest.mark.parametrize("rules", ["shanghai", "hangzhou"])
def test_each_decision_has_its_own_public_step(rules: str) -> None:
    rng = random.Random(28)
    windows = 0
    for _ in range(HANDS):
        wall = full_set(rules == "shanghai")
        rng.shuffle(wall)
        state, _ = new_hand(rules, None, wall, rng.randrange(4), (3, 4))
        public_of: dict[int, int] = {}  # the decision's seq step -> its public step
        while state.phase is not Phase.ENDED:
            assert public_moves(state) == shown_moves(state)
            seats = deciding_seats(state)
            for seat in seats:
                step, public = step_of(state, seat), public_step_of(state, seat)
                assert step is not None and public is not None
                assert public_of.setdefault(step, public) == public
            for seat in set(range(4)) - set(seats):
                assert public_step_of(state, seat) is None
            windows += state.phase is not Phase.TURN
            state, _ = apply(state, rng.choice(legal_actions(state, seats[0])))
        steps = sorted(public_of)
        publics = [public_of[s] for s in steps]
        assert publics == sorted(set(publics)), publics  # one each, growing
    assert windows > HANDS  # claim windows were met, and answered
