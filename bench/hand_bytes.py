"""Database bytes per finished hand (issue 32, "a hand costs its log"), this checkout
beside another revision's in the same run; never a timed test.

    python bench/hand_bytes.py [--hands 50] [--baseline 2b35dd9] [--sqlite-only |
                               --postgres-only] [--by-table]

For each code (``--baseline``'s, exported from git, then this checkout's) and each
database (a SQLite file; PostgreSQL: a database made on the tests' server,
``MAHJONG_TEST_POSTGRES``, left out when unset), a child process of that code opens a
fresh database (migrated) and plays a few hands on it (`WARM_UP`: every table and index
past its first page, which a fresh database lacks), the footprint is taken
(`bot.store.footprint`, this checkout's: it reads the database alone), then the child
plays ``--hands`` finished hands of each rule set through the table service
(`bench.stats_play`: people's moves, timeouts, a leaver now and then, computers in some
seats; the same seed for both codes), and the footprint is taken again. Prints
``hand_bytes[_postgres] BEFORE NOW bytes`` per finished hand (``-`` without a
baseline), and with ``--by-table`` each table's and index's share; then the machine's
load average.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the checkout on the path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROOT = Path(__file__).resolve().parents[1]
ENV_URL = "MAHJONG_TEST_POSTGRES"
SEED = 32
WARM_UP = 4
"""Hands of each rule set played before the first footprint."""


async def _play(target: str, hands: int) -> None:
    """The child: ``target`` opened (migrated), then ``hands`` finished hands of each
    rule set played on it (the code imported is the checkout the child runs in)."""
    import random

    from bench.stats_play import play_matches, seeded_deals
    from bot.service import FakeClock, RecordingNotifier, TableService
    from bot.store import Store

    store = await Store.open(target)
    try:
        if hands:
            row = await store._db.one("SELECT COUNT(*) FROM hands WHERE status = 'ended'")
            start = int(row[0]) if row else 0
            rng = random.Random(SEED + start)
            clock = FakeClock()
            service = TableService(store, RecordingNotifier(), clock=clock,
                                   computer_pause=0.0)
            seeded_deals(service, rng)
            for n, rules in enumerate(("shanghai", "hangzhou")):
                done = 0
                while done < hands * (n + 1):
                    people = tuple(rng.sample(range(1, 9), 4 if done % 3 else 3))
                    await play_matches(service, clock, rng, people=people, guild_id=7,
                                       channel_id=70 + n, rules=rules,
                                       hands=min(4, hands * (n + 1) - done),
                                       computers=4 - len(people), timeouts=0.03,
                                       leaves=0.01)
                    row = await store._db.one(
                        "SELECT COUNT(*) FROM hands WHERE status = 'ended'")
                    done = (int(row[0]) if row else 0) - start
    finally:
        await store.close()


def _child(root: Path, target: str, hands: int) -> None:
    subprocess.run([sys.executable, __file__, "--play", target, "--root", str(root),
                    "--hands", str(hands)],
                   cwd=root, check=True, env={**os.environ, "PYTHONPATH": str(root)})


async def _measure(root: Path, target: str, hands: int) -> tuple[float, dict[str, float]]:
    from bot.store.footprint import footprint

    _child(root, target, WARM_UP)  # every table and index past its first pages
    before = await footprint(target)
    _child(root, target, hands)
    after = await footprint(target)
    return after.per_hand_since(before), after.growth_since(before)


async def _on_postgres(url: str, root: Path, hands: int
                       ) -> tuple[float, dict[str, float]]:
    from tests.pgcluster import create_database, drop_database

    name = f"hand_bytes_{uuid.uuid4().hex[:12]}"
    target = await create_database(url, name)
    try:
        return await _measure(root, target, hands)
    finally:
        await drop_database(url, name)


async def measure(root: Path, hands: int, backend: str) -> tuple[float, dict[str, float]]:
    """Bytes per finished hand of ``root``'s code on ``backend`` and each table's share."""
    if backend == "postgres":
        return await _on_postgres(os.environ[ENV_URL], root, hands)
    with tempfile.TemporaryDirectory() as tmp:
        return await _measure(root, str(Path(tmp) / "hands.sqlite3"), hands)


def _exported(rev: str, into: str) -> Path:
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", into], input=archive, check=True)
    return Path(into)


async def main_async(args: argparse.Namespace) -> None:
    backends = [b for b in ("sqlite", "postgres")
                if not (b == "sqlite" and args.postgres_only)
                and not (b == "postgres" and (args.sqlite_only or not os.environ.get(ENV_URL)))]
    with tempfile.TemporaryDirectory() as tmp:
        old_root = _exported(args.baseline, tmp) if args.baseline else None
        for backend in backends:
            suffix = "" if backend == "sqlite" else "_postgres"
            old = await measure(old_root, args.hands, backend) if old_root else None
            now = await measure(ROOT, args.hands, backend)
            before = f"{old[0]:.0f}" if old else "-"
            print(f"hand_bytes{suffix} {before} {now[0]:.0f} bytes", flush=True)
            if args.by_table:
                for name in sorted(set(now[1]) | set(old[1] if old else {}),
                                   key=lambda n: -max(now[1].get(n, 0),
                                                      old[1].get(n, 0) if old else 0)):
                    was = f"{old[1].get(name, 0):.0f}" if old else "-"
                    print(f"  {backend} {name:36} {was:>8} {now[1].get(name, 0):8.0f}")
    print(f"load_average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50,
                        help="finished hands of each rule set (default 50)")
    parser.add_argument("--baseline", help="a git revision measured beside this checkout")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--sqlite-only", action="store_true")
    where.add_argument("--postgres-only", action="store_true")
    parser.add_argument("--by-table", action="store_true")
    parser.add_argument("--play", help=argparse.SUPPRESS)
    parser.add_argument("--root", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.play:  # a child: the code of --root plays on the database --play
        sys.path.insert(0, args.root)
        asyncio.run(_play(args.play, args.hands))
        return 0
    asyncio.run(main_async(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
