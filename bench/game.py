"""Benchmark of the hand state machine and the computer player (never a timed test).

    python bench/game.py [--hands N] [--baseline REV] [--best-of N] [--recorded N]

Prints ``NAME VALUE UNIT`` lines:
- ``selfplay_checked_hands_per_second_<rules>``: `python -m engine.selfplay --rules
  <rules> --hands N --seed 11` with its secrecy checks (every view after every move);
  ``selfplay_hands_per_second_<rules>`` the same without them. The checked ones have a
  floor (`FLOOR`: today's figures, issue 32; the goal of 100 hands/s is retired).
  Each run starts from empty engine memos, as the command does.
- ``apply_median_us`` / ``legal_actions_median_us`` (and p90): over every move of 80
  recorded hands (``--recorded`` of each rule set), each move's `legal_actions` asked first as a
  player's view does (a state remembers them, and `apply` then trusts an offered move).
  Their medians have a floor (`FLOOR`; the goal of 10 µs is retired: no compiled core).
  ``apply_unasked_median_us`` (and p90): the same moves
  applied to states nobody asked anything, so every move is validated in full. With
  ``--best-of N`` each move's time is its fastest of N passes over the same hands (on a
  loaded machine the other work only ever adds time, so this is the steadier figure).
- ``hand_state_memory_kb`` / ``hand_state_pickled_kb``: what one live hand state holds
  (goal ≤ 100 KB).
- ``memo_<name>_entries`` / ``…_hit_rate``: every engine memo (`engine.memo`), its size
  against its bound, after all of the above.

Times are CPU time of the bench's own process (thread), so that other work on the
shared machine does not count; self-play is hands per CPU second on one core.

With ``--baseline REV`` the same measurements are first run on the engine of git
revision REV (exported to a temporary directory), and the figures are printed side by
side: ``NAME BEFORE NOW FLOOR UNIT`` (``!`` after a figure past its floor), in one run on
the same machine state. REV may be any commit with a hand to play (engine.game, 2026-11-30
03:49 on); the measured engine's modules come from REV's checkout alone.
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
from typing import Any

if Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:  # run as a script
    # The checkout on the path instead of this folder (whose discord.py, engine.py and
    # render.py are not those packages): `bench.baseline` is read from it.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.baseline import engine_root, exported, run_figures, use_engine_root

use_engine_root()

from engine import rules  # noqa: E402
from engine.ai import choose_action  # noqa: E402
from engine.game import Action, apply, deciding_seats, legal_actions, new_hand  # noqa: E402
from engine.game.state import HandState, Phase  # noqa: E402
from engine.selfplay import selfplay  # noqa: E402

RECORDED = 40
"""Recorded hands of each rule set whose every move is timed."""
FLOOR: dict[str, tuple[float, str]] = {
    "apply_median_us": (23.2, "us"),
    "legal_actions_median_us": (6.4, "us"),
    "selfplay_checked_hands_per_second_shanghai": (39.0, "hands/s"),
    "selfplay_checked_hands_per_second_hangzhou": (47.0, "hands/s"),
}
"""Today's figures, kept as a floor (issue 32 retired the goals of ``apply`` ≤ 10 µs and
checked self-play ≥ 100 hands/s: no compiled core): a time at most, a rate at least.
The issue's side-by-side figures (apply 18.5–19.8 µs, legal_actions 4.7–5.0 µs, checked
self-play 42–47 / 47–71 hands/s) as issue 29's one-path work left them (apply +13 %,
legal_actions +7 % best to best, bench/README.md): the worst of those runs at
``--best-of 3``. Clock figures on a shared machine: a figure past its floor is a reason to
measure again beside the floor's commit (``--baseline``), not a verdict."""


def emit(name: str, value: float, unit: str) -> None:
    print(f"{name} {value:.3f} {unit}" if isinstance(value, float) else f"{name} {value} {unit}",
          flush=True)


def recorded_hands(rules_name: str, count: int, seed: int
                   ) -> list[tuple[HandState, list[Action]]]:
    """Hands played by computer players: the starting state and the actions taken."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        wall = full_wall(rules_name)
        rng.shuffle(wall)
        start, _ = new_hand(rules_name, {}, tuple(wall), rng.randrange(4), (2, 5))
        state, actions = start, []
        while state.phase is not Phase.ENDED:
            action = choose_action(state, deciding_seats(state)[0], rng)
            actions.append(action)
            state, _ = apply(state, action)
        out.append((start, actions))
    return out


def full_wall(rules_name: str) -> list[Any]:
    """A full set of the rule set's tiles, unshuffled: asked of the rule set
    (`RuleSet.tile_set`) or, in an engine from before it had that (2026-12-01 and
    earlier), made as that engine made it (`engine.tiles.full_set`)."""
    ruleset = rules.get(rules_name)
    if hasattr(ruleset, "tile_set"):
        return list(ruleset.tile_set())
    from engine import tiles
    return list(tiles.full_set(ruleset.has_flowers))


def time_engine_calls(hands: list[tuple[HandState, list[Action]]]) -> tuple[list[float],
                                                                           list[float]]:
    """Microseconds of each `legal_actions` of the seat about to move, and of its move."""
    applies: list[float] = []
    legals: list[float] = []
    clock = time.thread_time_ns
    for start, actions in hands:
        state = start
        for action in actions:
            t0 = clock()
            legal_actions(state, action.seat)
            t1 = clock()
            state, _ = apply(state, action)
            t2 = clock()
            legals.append((t1 - t0) / 1000)
            applies.append((t2 - t1) / 1000)
    return applies, legals


def time_unasked_applies(hands: list[tuple[HandState, list[Action]]]) -> list[float]:
    """Microseconds of each move applied to a state whose legal actions were not asked."""
    applies: list[float] = []
    clock = time.thread_time_ns
    for start, actions in hands:
        state = start
        for action in actions:
            t0 = clock()
            state, _ = apply(state, action)
            applies.append((clock() - t0) / 1000)
    return applies


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


def p90(values: list[float]) -> float:
    return sorted(values)[int(0.9 * len(values))]


def fastest(runs: list[list[float]]) -> list[float]:
    """Each move's fastest time over several passes."""
    return [min(times) for times in zip(*runs, strict=True)]


def measure(hands: int, best_of: int = 1, recorded_each: int = RECORDED) -> None:
    for rules_name in rules.RULESETS:
        for checked in (True, False):
            _cold_memos()  # each run from empty caches, as the command line starts
            cpu = time.process_time()
            summary = selfplay(rules_name, hands, seed=11, check_views=checked)
            cpu = time.process_time() - cpu
            label = "checked_" if checked else ""
            emit(f"selfplay_{label}hands_per_second_{rules_name}", summary["hands"] / cpu,
                 "hands/s")
    recorded = (recorded_hands("hangzhou", recorded_each, 2)
                + recorded_hands("shanghai", recorded_each, 2))
    passes = [time_engine_calls(recorded) for _ in range(best_of)]
    applies, legals = fastest([p[0] for p in passes]), fastest([p[1] for p in passes])
    emit("apply_median_us", statistics.median(applies), "us")
    emit("apply_p90_us", p90(applies), "us")
    emit("legal_actions_median_us", statistics.median(legals), "us")
    emit("legal_actions_p90_us", p90(legals), "us")
    unasked = fastest([time_unasked_applies(recorded) for _ in range(best_of)])
    emit("apply_unasked_median_us", statistics.median(unasked), "us")
    emit("apply_unasked_p90_us", p90(unasked), "us")
    held, pickled = max(state_memory(s, a) for s, a in recorded[:20])
    emit("hand_state_memory_kb", held / 1024, "KB")
    emit("hand_state_pickled_kb", pickled / 1024, "KB")
    if not (engine_root() / "engine" / "memo.py").exists():
        return  # a baseline from before the memos were bounded
    from engine import memo
    for cache in memo.stats():
        short = cache.name.removeprefix("engine.")
        emit(f"memo_{short}_entries", cache.size, f"of_{cache.maxsize}")
        if cache.hit_rate is not None:  # a `PlainMemo` does not count its hits
            emit(f"memo_{short}_hit_rate", cache.hit_rate, "ratio")
    memo_memory(memo)


def _cold_memos() -> None:
    """Empty the engine's memos (when it has them): the unchecked run plays the hands
    the checked one just played, and would otherwise find its analysis already done."""
    if (engine_root() / "engine" / "memo.py").exists():
        from engine import memo
        memo.clear()


def memo_memory(memo: Any) -> None:
    """What the memos hold: traced from empty through 20 hands of each rule set with
    views, and that per entry times every memo's bound (the most they can ever hold)."""
    memo.clear()
    gc.collect()
    tracemalloc.start()
    for rules_name in rules.RULESETS:
        selfplay(rules_name, 20, seed=5, check_views=True)
    gc.collect()
    filled = tracemalloc.get_traced_memory()[0]
    entries = sum(cache.size for cache in memo.stats())
    memo.clear()
    gc.collect()
    held = filled - tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    bound = sum(cache.maxsize for cache in memo.stats())
    emit("memo_memory_kb", held / 1024, "KB")
    emit("memo_memory_at_bounds_mb_estimate", held / max(entries, 1) * bound / 2**20, "MB")


def past_floor(name: str, value: float) -> bool:
    """Whether ``value`` of figure ``name`` is worse than its `FLOOR`."""
    if name not in FLOOR:
        return False
    floor, unit = FLOOR[name]
    return value > floor if unit == "us" else value < floor


def side_by_side(rev: str, hands: int, best_of: int, recorded_each: int) -> None:
    """Run the measurements on ``rev``'s engine, then on this one; print both, and the
    floor of the figures that have one (``!`` where now is past it)."""
    args = ["--hands", str(hands), "--best-of", str(best_of), "--recorded",
            str(recorded_each)]
    with exported(rev) as tmp:
        before = run_figures(__file__, args, engine=tmp)
    now = run_figures(__file__, args)
    print(f"{'figure':48} {'before':>10} {'now':>10} {'floor':>8} unit")
    for name, (value, unit) in now.items():
        old = before.get(name, ("-", unit))[0]
        floor = f"{FLOOR[name][0]:g}" if name in FLOOR else ""
        mark = " !" if past_floor(name, float(value)) else ""
        print(f"{name:48} {old:>10} {value:>10} {floor:>8} {unit}{mark}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--baseline", help="a git revision to measure first, side by side")
    parser.add_argument("--best-of", type=int, default=1,
                        help="time each engine call as its fastest of this many passes")
    parser.add_argument("--recorded", type=int, default=RECORDED,
                        help="recorded hands of each rule set whose moves are timed")
    parser.add_argument("--engine-root", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.baseline:
        side_by_side(args.baseline, args.hands, args.best_of, args.recorded)
    else:
        measure(args.hands, args.best_of, args.recorded)


if __name__ == "__main__":
    main()
