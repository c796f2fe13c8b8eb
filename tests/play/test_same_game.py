"""The faster engine plays exactly the game it played before: 2,400 seeded hands (every
legal-action list, computer move, event and final state, and every view in one hand of
forty) fold into the fingerprints recorded on the engine before the speed work
(commit 3384145), by `tests.play.sameness`."""

from __future__ import annotations

import random

import pytest

from engine.ai import choose_action
from engine.game import Action, legal_actions
from engine.game.state import HandState
from tests.play import sameness
from tests.play.sameness import RUNS, fingerprint

RECORDED = {
    "shanghai": "4acecefd25563acde08e29e2b6fb2b67a938ad7d03fdf35cc7f2ac073cfc4276",
    "hangzhou_fixed": "562de137a4ab833f4ad4f5adc9300fd4720b98505cd3684ee285e28ff5a84d23",
    "hangzhou_flip": "d794916b824279a10efcf18644190c0b49a797836f61a916730a1a6928c71324",
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_seeded_hands_play_exactly_as_before_the_speed_work(name: str) -> None:
    assert fingerprint(*RUNS[name]) == RECORDED[name]


def test_the_fingerprint_sees_a_single_different_move(monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    rules_name, options, seed, _, every = RUNS["shanghai"]
    honest = fingerprint(rules_name, options, seed, 2, every)
    calls = []

    def one_odd_move(state: HandState, seat: int, rng: random.Random) -> Action:
        chosen = choose_action(state, seat, rng)
        calls.append(seat)
        others = [a for a in legal_actions(state, seat) if a != chosen]
        return others[0] if len(calls) == 30 and others else chosen

    monkeypatch.setattr(sameness, "choose_action", one_odd_move)
    assert fingerprint(rules_name, options, seed, 2, every) != honest
