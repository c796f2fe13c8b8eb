"""The computer player's count of unseen tiles (each seat's shown tiles remembered by its
`SeatState`, packed a byte a kind) is the plain count, tile by tile, of
`tests.engine.ai_reference`: for every seat at every state of seeded self-play, claims,
kongs and the turned 财神 included."""

from __future__ import annotations

from typing import Any

import pytest

from engine import ai, memo
from engine.game.state import HandState
from engine.selfplay import selfplay
from tests.engine.ai_reference import unseen_counts_as_first_written


@pytest.mark.parametrize(("rules_name", "options"), [
    ("shanghai", {}), ("hangzhou", {}), ("hangzhou", {"caishen": "flip"})])
def test_unseen_counts_are_the_plain_counts_in_self_play(
        monkeypatch: pytest.MonkeyPatch, rules_name: str, options: dict[str, Any]) -> None:
    states: list[HandState] = []
    choose = ai.choose_action

    def recorded(state: HandState, seat: int, rng: Any) -> Any:
        states.append(state)
        return choose(state, seat, rng)

    memo.clear()
    monkeypatch.setattr("engine.selfplay.choose_action", recorded)
    selfplay(rules_name, 12, seed=23, options=options, check_views=False)
    assert len(states) > 500
    melded = 0
    for state in states:
        melded += any(s.melds for s in state.seats)
        for seat in range(4):
            assert ai.unseen_counts(state, seat) == \
                unseen_counts_as_first_written(state, seat), (seat, state)
    assert melded > 50  # the memo of shown tiles met melds, not only rivers
