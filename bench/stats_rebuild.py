"""One rebuild of the stats' projection and the ratings, alone in a process: what
`bench/stats.py` times for each revision it compares (never a timed test).

    python bench/stats_rebuild.py TARGET [--code DIR]
    python bench/stats_rebuild.py TARGET --make --hands N --seed-hands N --seed N [--code DIR]

TARGET is a SQLite file or a PostgreSQL URL holding finished hands; ``--code`` a
checkout (another revision's, exported) whose ``bot`` package does the rebuild instead
of this one's. The rebuild is the one start-up runs after a formula change, on a store
opened for it: `rebuild_facts(force=True)`, every row dropped and derived from the logs,
then every server's ratings replayed (`store.ratings.rebuild`). Prints ``NAME VALUE
UNIT`` lines: ``rebuild_facts_s``, ``rebuild_ratings_s``, ``rebuild_s`` (wall clock),
the same with ``_cpu`` (the process's CPU time, every thread: SQLite's included,
PostgreSQL's server not), ``rebuild_gc_s`` (time inside the garbage collector) and
``rebuild_load`` (the one-minute load average at the end).

With ``--make`` it makes TARGET's database instead, as ``--code``'s own
``bench/stats.py`` does (its ``seed`` and ``replicate``): a revision's rebuild is timed
on a database its own code made (how a finished hand's log is stored changed with
migration 0032; an older revision reads none from a newer database).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import time
from pathlib import Path


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python bench/stats_rebuild.py")
    parser.add_argument("target")
    parser.add_argument("--code", default=str(Path(__file__).resolve().parents[1]))
    parser.add_argument("--make", action="store_true")
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed-hands", type=int, default=240)
    parser.add_argument("--seed", type=int, default=31)
    return parser.parse_args(argv)


async def make(args: argparse.Namespace) -> None:
    import random

    from bench.stats import replicate, seed
    from bot.store import Store

    store = await Store.open(args.target)
    try:
        await seed(store, args.seed_hands, random.Random(args.seed))
        await replicate(store, args.hands)
    finally:
        await store.close()


class GcClock:
    """Seconds spent in the garbage collector while installed."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._start


async def run(target: str) -> None:
    from bot.service.facts import rebuild_facts
    from bot.service.ratings import FORMULA
    from bot.store import Store

    store = await Store.open(target)
    clock = GcClock()
    gc.callbacks.append(clock)
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        done = await rebuild_facts(store, time.time, force=True)
        assert done.done and done.hands > 0, done
        facts = time.perf_counter() - wall, time.process_time() - cpu
        wall, cpu = time.perf_counter(), time.process_time()
        await store.ratings.rebuild(FORMULA)
        ratings = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        gc.callbacks.remove(clock)
        await store.close()
    for name, (w, c) in (("rebuild_facts", facts), ("rebuild_ratings", ratings),
                         ("rebuild", (facts[0] + ratings[0], facts[1] + ratings[1]))):
        print(f"{name}_s {w:.3f} s")
        print(f"{name}_cpu_s {c:.3f} s")
    print(f"rebuild_gc_s {clock.seconds:.3f} s")
    print(f"rebuild_hands {done.hands} hands")
    print(f"rebuild_load {os.getloadavg()[0]:.2f} load")


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    here = Path(__file__).resolve().parent
    # the code measured first on the path; never this folder (its discord.py, engine.py
    # and render.py are benches, not those packages)
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    sys.path.insert(0, str(Path(args.code).resolve()))
    asyncio.run(make(args) if args.make else run(args.target))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
