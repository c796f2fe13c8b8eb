"""Benchmark of the computer player's choice of discard (never a timed test).

    python bench/choice.py [--hands N] [--baseline REV] [--rounds N]

Plays ``python -m engine.selfplay --rules <rules> --hands N --seed 11`` with its secrecy
checks, from empty memos, for each rule set, timing every call of
`engine.ai.choose_discard` (the computer's choice of a discard, as `choose_action` makes
it) and every `choose_action` on a turn, and prints ``NAME VALUE UNIT`` lines:
- ``choose_discard_median_us_<rules>`` (and p90, mean): one discard's choice;
- ``turn_move_median_us_<rules>``: the whole turn's decision (kongs weighed too);
- ``selfplay_checked_hands_per_second_<rules>``: the same run's hands per CPU second;
- ``weighing_warm_median_us_<rules>``: the run's discard decisions (`engine.ai._best_discards`
  without its own memo) once the memos hold the run's shapes, each timed as its fastest
  of `WARM_PASSES` passes: what a choice costs once nothing is left to fill;
- ``shape_tables_mb`` and ``shape_memos_mb`` (engines with `engine.shape_tables`): the
  per-group tables read at import, and what the run added to the memos beside them
  (vectors numbered, merges, `engine.ai._HELPING`, and from session 10
  `engine.ai._RESTS`), with their entry counts.

Times are CPU time of the bench's own thread, so other work on the shared machine counts
less. With ``--baseline REV`` the engine of git revision REV (exported to a temporary
directory) and this one are measured in turn, ``--rounds`` times each (base, now, base,
now, ...), and the figures printed side by side, ``round<N> NAME BEFORE NOW UNIT``.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

if Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:  # run as a script
    # The checkout on the path instead of this folder (whose discord.py, engine.py and
    # render.py are not those packages): `bench.baseline` is read from it.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.baseline import hands_and_rounds_main, use_engine_root

use_engine_root()

import engine  # noqa: E402
from engine import ai, memo  # noqa: E402
from engine.game.state import Phase  # noqa: E402
from engine.selfplay import selfplay  # noqa: E402


def emit(name: str, value: float, unit: str) -> None:
    print(f"{name} {value:.3f} {unit}", flush=True)


def p90(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.9)]


WARM_PASSES = 4


def warm_median(weigh: Any, decisions: list[tuple[Any, ...]]) -> float:
    """The median of each recorded decision's fastest of `WARM_PASSES` passes (µs)."""
    clock = time.thread_time_ns
    fastest = [float("inf")] * len(decisions)
    for _ in range(WARM_PASSES):
        for number, args in enumerate(decisions):
            started = clock()
            weigh(*args)
            fastest[number] = min(fastest[number], (clock() - started) / 1000)
    return statistics.median(fastest)


def measure(hands: int) -> None:
    # Which engine is measured (a baseline run must not import this checkout's).
    print(f"# engine {Path(engine.__file__).parent}", file=sys.stderr)
    clock = time.thread_time_ns
    discards: list[float] = []
    turns: list[float] = []
    choose_discard, choose_action = ai.choose_discard, ai.choose_action

    def timed_discard(*args: Any, **kwargs: Any) -> Any:
        started = clock()
        try:
            return choose_discard(*args, **kwargs)
        finally:
            discards.append((clock() - started) / 1000)

    def timed_action(state: Any, seat: int, rng: Any) -> Any:
        if state.phase is not Phase.TURN:
            return choose_action(state, seat, rng)
        started = clock()
        try:
            return choose_action(state, seat, rng)
        finally:
            turns.append((clock() - started) / 1000)

    decisions: list[tuple[Any, ...]] = []
    best_discards = ai._best_discards

    def recorded(*args: Any) -> Any:
        decisions.append(args)
        return best_discards(*args)

    ai.choose_discard = timed_discard
    ai._best_discards = recorded  # type: ignore[assignment]  # recording, for the bench
    selfplay_module = sys.modules["engine.selfplay"]
    selfplay_module.choose_action = timed_action  # type: ignore[attr-defined]  # timed
    for rules_name in ("shanghai", "hangzhou"):
        memo.clear()
        discards.clear()
        turns.clear()
        decisions.clear()
        cpu = time.process_time()
        summary = selfplay(rules_name, hands, seed=11, check_views=True)
        cpu = time.process_time() - cpu
        emit(f"choose_discard_median_us_{rules_name}", statistics.median(discards), "us")
        emit(f"choose_discard_p90_us_{rules_name}", p90(discards), "us")
        emit(f"choose_discard_mean_us_{rules_name}", statistics.fmean(discards), "us")
        emit(f"turn_move_median_us_{rules_name}", statistics.median(turns), "us")
        emit(f"discards_{rules_name}", float(len(discards)), "calls")
        emit(f"selfplay_checked_hands_per_second_{rules_name}", summary["hands"] / cpu,
             "hands/s")
        warm = warm_median(memo.uncached(best_discards), decisions)
        emit(f"weighing_warm_median_us_{rules_name}", warm, "us")
    shape_memory()


def shape_memory() -> None:
    """The shape tables' size and their memos' (an engine before them prints nothing)."""
    if not (Path(engine.__file__).parent / "shape_tables.py").exists():
        return  # an engine before them (the installed checkout's would be found instead)
    from engine import shape_tables
    tables = (shape_tables.SUIT_RUNS, shape_tables.SUIT_PUNGS, shape_tables.HONOURS)
    emit("shape_tables_mb", sum(sys.getsizeof(t) for t in tables) / 1e6, "MB")
    vectors = shape_tables.VECTORS
    helping = getattr(ai, "_HELPING", {})
    rests = getattr(ai, "_RESTS", {})  # session 10's (an engine before has none)
    memos = (sys.getsizeof(vectors.merged) + sys.getsizeof(vectors.ids)
             + sum(sys.getsizeof(v) for v in vectors.vectors)
             + sum(sys.getsizeof(v) for v in vectors.values)
             + sys.getsizeof(helping) + sum(sys.getsizeof(v) for v in helping.values())
             + sys.getsizeof(rests)
             + sum(sys.getsizeof(k) + sys.getsizeof(v) for k, v in rests.items()))
    emit("shape_memos_mb", memos / 1e6, "MB")
    emit("shape_vectors", float(len(vectors.vectors)), "entries")
    emit("shape_merges", float(len(vectors.merged)), "entries")
    emit("shape_helping", float(len(helping)), "entries")
    emit("shape_rests", float(len(rests)), "entries")


if __name__ == "__main__":
    hands_and_rounds_main(__file__, measure, default_hands=60)
