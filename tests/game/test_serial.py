"""Timer defaults, the JSON forms of actions and events, and replay."""

from __future__ import annotations

import json
import random

import pytest

from engine.game import (
    Action,
    ActionKind,
    Event,
    HandState,
    MalformedAction,
    Phase,
    apply,
    deciding_seats,
    legal_actions,
    new_hand,
    replay,
    timeout_action,
)
from engine.tiles import Tile, full_set
from tests.game.helpers import AK, CHI, CK, KONG, PASS, PONG, QUIET, WIN, D, play, start
from tests.game.test_claims import SCENE_P


def test_timeout_passes_in_a_claim_window() -> None:
    state, _ = start("shanghai", SCENE_P)
    state = play(state, D(0, "9s"))
    assert timeout_action(state, 3) == PASS(3)  # even with a win on offer


def test_timeout_discards_the_drawn_tile() -> None:
    hands = {0: QUIET[0] + "5m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("shanghai", hands, draws="9m")
    assert timeout_action(state, 0) == D(0, "4z")  # the opening: no drawn tile
    state = play(state, D(0, "5m"))
    assert timeout_action(state, 1) == D(1, "9m")


def test_timeout_after_a_chi_discards_the_rightmost_tile() -> None:
    state, _ = start("shanghai", SCENE_P)
    state = play(state, D(0, "9s"), CHI(1, "78s"), PASS(2), PASS(3))
    assert timeout_action(state, 1) == D(1, "6z")


def test_timeout_wins_when_a_win_is_allowed() -> None:
    hands = {0: "11123455678999m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("shanghai", hands)
    assert timeout_action(state, 0) == WIN(0)
    with pytest.raises(ValueError):
        timeout_action(state, 1)


@pytest.mark.parametrize("action", [
    D(2, "5m"), PONG(1, "3m5z"), KONG(3, "999p"), CHI(1, "46s"), CK(0, "1111z"),
    AK(2, "7z"), WIN(1), PASS(3)])
def test_action_json_round_trip(action: Action) -> None:
    data = json.loads(json.dumps(action.to_json()))
    assert Action.from_json(data) == action


@pytest.mark.parametrize("data", [
    {"kind": "discard", "seat": 0}, {"kind": "fly", "seat": 0}, {"kind": "win", "seat": 4},
    {"kind": "win", "seat": True}, {"kind": "pong", "seat": 1, "tiles": "3m"},
    {"kind": "discard", "seat": 1, "tile": "0m"}, {"kind": "win", "seat": 1, "x": 1},
    {"kind": "pass", "seat": 1, "tile": "3m"}, ["win"]])
def test_malformed_json_is_refused(data: object) -> None:
    with pytest.raises(MalformedAction):
        Action.from_json(data)  # type: ignore[arg-type]  # malformed, on purpose


def test_a_malformed_action_object_is_refused_by_apply() -> None:
    state, _ = start("shanghai", SCENE_P)
    with pytest.raises(MalformedAction):
        apply(state, Action(ActionKind.DISCARD, 0))
    with pytest.raises(MalformedAction):
        apply(state, Action(ActionKind.WIN, 7))


def _random_hand(rules: str, seed: int
                 ) -> tuple[tuple[Tile, ...], list[Action], HandState, list[Event]]:
    rng = random.Random(seed)
    wall = full_set(rules == "shanghai")
    rng.shuffle(wall)
    state, events = new_hand(rules, {}, wall, 1, (2, 2), streak=3)
    actions: list[Action] = []
    log = list(events)
    while state.phase is not Phase.ENDED:
        seat = rng.choice(deciding_seats(state))
        legal = legal_actions(state, seat)
        wins = [a for a in legal if a.kind is ActionKind.WIN]
        action = wins[0] if wins else rng.choice(legal)
        state, events = apply(state, action)
        actions.append(action)
        log += events
    return tuple(wall), actions, state, log


@pytest.mark.parametrize("rules", ["shanghai", "hangzhou"])
def test_replay_reaches_the_identical_state(rules: str) -> None:
    for seed in range(5):
        wall, actions, final, _ = _random_hand(rules, seed)
        logged = [Action.from_json(json.loads(json.dumps(a.to_json()))) for a in actions]
        again = replay(rules, {}, wall, (2, 2), 1, logged, streak=3)
        assert again == final and again.seq == len(actions)


@pytest.mark.parametrize("rules", ["shanghai", "hangzhou"])
def test_events_are_json(rules: str) -> None:
    for seed in range(3):
        *_, log = _random_hand(rules, seed)
        out = [json.loads(json.dumps(e.to_json())) for e in log]
        assert out[0]["event"] == "hand_started" and out[-1]["event"] == "hand_ended"
        assert all(isinstance(e["event"], str) for e in out)


def test_hand_ended_json_carries_the_settlement() -> None:
    hands = {0: "11123455678999m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("shanghai", hands)
    _, events = apply(state, WIN(0))
    data = json.loads(json.dumps(events[-1].to_json()))
    (win,) = data["result"]["wins"]
    assert win["winner"] == 0 and win["win"] == "self_draw"
    assert "tian_hu" in win["settlement"]["patterns"]
    assert sum(data["result"]["payments"]) == 0


def test_only_the_owner_may_see_drawn_and_dealt_tiles() -> None:
    hands = {0: QUIET[0] + "5m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, events = start("shanghai", hands, draws="9m")
    dealt = [e for e in events if e.name == "tiles_dealt"]
    assert [e.private_to for e in dealt] == [0, 1, 2, 3]
    _, events = apply(state, D(0, "5m"))
    assert [(e.name, e.private_to) for e in events] == [("tile_discarded", None),
                                                        ("tile_drawn", 1)]
