"""Self-play: computer players finish hundreds of hands with every invariant checked."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys

import pytest

from engine import selfplay as selfplay_module
from engine.ai import choose_action, unseen_counts
from engine.game import apply, deciding_seats, legal_actions, new_hand
from engine.game.state import HandState, Phase, replace
from engine.melds import MeldKind
from engine.rules.common import make_meld
from engine.selfplay import SelfPlayError, check_secrecy, selfplay
from engine.tiles import Tile, full_set, parse_tiles
from engine.view import PlayerView, advice_inputs, view
from tests.conftest import ROOT
from tests.game.helpers import QUIET, start


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


def _hangzhou_flip_turn() -> HandState:
    state, _ = start("hangzhou", {0: QUIET[0] + "9s", 1: QUIET[1], 2: QUIET[2],
                                  3: QUIET[3]}, back="5p", options={"caishen": "flip"})
    return state


def test_the_check_passes_an_honest_state() -> None:
    check_secrecy(_hangzhou_flip_turn())


def test_the_check_refuses_advice_worked_out_from_another_seats_melds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = _hangzhou_flip_turn()
    others = (make_meld(MeldKind.PONG, tuple(parse_tiles("999p")), 2, state.wildcards),)

    def leaky(state: HandState, seat: int, hand_number: int = 1) -> PlayerView:
        honest = view(state, seat, hand_number)
        known = advice_inputs(honest)
        assert known is not None
        return PlayerView(honest.table, seat, honest.concealed, honest.drawn,
                          knowledge=dataclasses.replace(known, melds=others))

    monkeypatch.setattr(selfplay_module, "view", leaky)
    with pytest.raises(SelfPlayError, match="melds that are not its own"):
        check_secrecy(state)


def test_the_check_refuses_a_view_given_its_advice_ready_made(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def ready_made(state: HandState, seat: int, hand_number: int = 1) -> PlayerView:
        honest = view(state, seat, hand_number)
        return PlayerView(honest.table, seat, honest.concealed, honest.drawn, honest.moves,
                          honest.waits, honest.shanten, honest.suggested)

    monkeypatch.setattr(selfplay_module, "view", ready_made)
    with pytest.raises(SelfPlayError, match="without its advice inputs"):
        check_secrecy(_hangzhou_flip_turn())


def test_the_check_refuses_a_computer_player_counting_a_burned_tile_as_seen(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # unseen_counts once counted every set-aside tile of the turned kind as seen: a kong's
    # burned tile, face down, too. The check compares with what the view shows.
    state = _hangzhou_flip_turn()
    burned = replace(state, set_aside=(*state.set_aside, Tile.P5))
    check_secrecy(burned)

    def counts_the_burned_tile(state: HandState, seat: int) -> tuple[int, ...]:
        unseen = list(unseen_counts(state, seat))
        unseen[Tile.P5] -= sum(1 for t in state.set_aside[1:] if t is Tile.P5)
        return tuple(unseen)

    monkeypatch.setattr(selfplay_module, "remembered_unseen", counts_the_burned_tile)
    check_secrecy(state)  # nothing burned: the same count
    with pytest.raises(SelfPlayError, match="counts tiles it cannot see"):
        check_secrecy(burned)
