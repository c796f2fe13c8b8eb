"""Self-play: computer players finish hundreds of hands with every invariant checked."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from engine.ai import choose_action
from engine.game import apply, deciding_seats, legal_actions, new_hand
from engine.game.state import Phase
from engine.selfplay import selfplay
from engine.tiles import full_set
from tests.conftest import ROOT


@pytest.mark.parametrize("rules_name", ["shanghai", "hangzhou"])
def test_two_hundred_hands_without_a_broken_invariant(rules_name: str) -> None:
    summary = selfplay(rules_name, 200, seed=11, check_views=False)
    assert summary["hands"] == 200
    assert summary["wins"] + summary["draws"] == 200
    assert summary["wins"] > 100, "computer players should win most hands"


@pytest.mark.parametrize("rules_name", ["shanghai", "hangzhou"])
def test_views_never_leak_during_play(rules_name: str) -> None:
    summary = selfplay(rules_name, 12, seed=5, check_views=True)
    assert summary["hands"] == 12


@pytest.mark.parametrize("options", [{"caishen": "flip"}, {"caishen_melds": False},
                                     {"liability": False, "discard_win_streak": 1}])
def test_hangzhou_options_play_through(options: dict) -> None:
    assert selfplay("hangzhou", 30, seed=3, options=options, check_views=False)["hands"] == 30


def test_computer_moves_are_always_legal_and_deterministic() -> None:
    def run(seed: int) -> list[str]:
        rng = random.Random(seed)
        wall = full_set(True)
        rng.shuffle(wall)
        state, _ = new_hand("shanghai", {}, tuple(wall), 1, (2, 5))
        moves = []
        while state.phase is not Phase.ENDED:
            seat = deciding_seats(state)[0]
            action = choose_action(state, seat, rng)
            assert action in legal_actions(state, seat)
            moves.append(str(action))
            state, _ = apply(state, action)
        return moves
    assert run(4) == run(4)


def test_command_line_prints_a_json_summary_last() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "engine.selfplay", "--rules", "hangzhou", "--hands", "3",
         "--seed", "1"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    summary = json.loads(out.strip().splitlines()[-1])
    assert {"hands", "wins", "draws", "seconds", "hands_per_second", "actions",
            "patterns"} <= set(summary)
    bad = subprocess.run(
        [sys.executable, "-m", "engine.selfplay", "--rules", "hangzhou", "--hands", "1",
         "--options", '{"caishen": "gold"}'], cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 1 and "caishen" in bad.stderr
