"""Benchmark of the hand state machine and the computer player (never a timed test).

    python bench/game.py [--hands N]

Prints ``NAME VALUE UNIT`` lines: self-play speed per rule set on one core (goal ≥ 20
hands/s), the median cost of `apply` and `legal_actions` over real hands, and the
memory one live hand state holds (goal ≤ 100 KB).
"""

from __future__ import annotations

import argparse
import gc
import pickle
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import rules
from engine.ai import choose_action
from engine.game import Action, apply, deciding_seats, legal_actions, new_hand
from engine.game.state import HandState, Phase
from engine.selfplay import selfplay


def emit(name: str, value: float, unit: str) -> None:
    print(f"{name} {value:.3f} {unit}" if isinstance(value, float) else f"{name} {value} {unit}")


def recorded_hands(rules_name: str, count: int, seed: int
                   ) -> list[tuple[HandState, list[Action]]]:
    """Hands played by computer players: the starting state and the actions taken."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        wall = rules.get(rules_name).tile_set()
        rng.shuffle(wall)
        start, _ = new_hand(rules_name, {}, tuple(wall), rng.randrange(4), (2, 5))
        state, actions = start, []
        while state.phase is not Phase.ENDED:
            action = choose_action(state, deciding_seats(state)[0], rng)
            actions.append(action)
            state, _ = apply(state, action)
        out.append((start, actions))
    return out


def time_engine_calls(hands: list[tuple[HandState, list[Action]]]) -> tuple[list[float],
                                                                           list[float]]:
    applies: list[float] = []
    legals: list[float] = []
    for start, actions in hands:
        state = start
        for action in actions:
            t0 = time.perf_counter_ns()
            legal_actions(state, action.seat)
            t1 = time.perf_counter_ns()
            state, _ = apply(state, action)
            t2 = time.perf_counter_ns()
            legals.append((t1 - t0) / 1000)
            applies.append((t2 - t1) / 1000)
    return applies, legals


def state_memory(start: HandState, actions: list[Action]) -> tuple[int, int]:
    """Bytes a mid-hand state keeps alive (tracemalloc) and its pickled size."""
    half = actions[: len(actions) // 2]
    warm = start
    for action in half:  # fill the analysis caches first: they are not the state's
        warm, _ = apply(warm, action)
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    state = start
    for action in half:
        state, _ = apply(state, action)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return held, len(pickle.dumps(state))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=200)
    args = parser.parse_args()
    for rules_name in rules.RULESETS:
        summary = selfplay(rules_name, args.hands, seed=1, check_views=False)
        emit(f"selfplay_hands_per_second_{rules_name}", float(summary["hands_per_second"]),
             "hands/s")
        emit(f"selfplay_actions_per_hand_{rules_name}", summary["actions"] / summary["hands"],
             "actions")
    hands = recorded_hands("hangzhou", 40, 2) + recorded_hands("shanghai", 40, 2)
    applies, legals = time_engine_calls(hands)
    emit("apply_median_us", statistics.median(applies), "us")
    emit("legal_actions_median_us", statistics.median(legals), "us")
    held, pickled = max(state_memory(s, a) for s, a in hands[:20])
    emit("hand_state_memory_kb", held / 1024, "KB")
    emit("hand_state_pickled_kb", pickled / 1024, "KB")


if __name__ == "__main__":
    main()
