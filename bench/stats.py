"""Benchmark of ``/mahjong stats`` over a large history (issue 31, "Scale"); never a
timed test.

    python bench/stats.py [--hands 100000] [--seed-hands 240] [--queries 300]
                          [--recounts 20] [--sqlite-only | --postgres-only]
                          [--postgres | --database-url postgresql://…]
                          [--baseline REV [--rounds N]] [--no-rebuild]

For each dialect — SQLite (a real file in a temporary folder) and PostgreSQL (a cluster
started for the run with PostgreSQL's durable defaults with ``--postgres``, or the
server of ``--database-url``, else of the tests' ``MAHJONG_TEST_POSTGRES``; left out
when there is none) — the bench fills a
database with ``--hands`` finished hands: ``--seed-hands`` real ones played by people
through the table service (`bench.stats_play`: the computer player's choices made by
the people, timeouts, away takeovers, a leaver now and then; both rule sets), then
copied in SQL with new ids, 400 people and 50 channels in 10 servers, each copy later
in time than the one before (what is copied: tables, seats, matches, hands, actions,
settlements, departures and the facts the settlements wrote). Making the database is
not measured. Then it prints ``NAME VALUE UNIT`` lines (``_postgres`` added on
PostgreSQL):

- ``stats_hands``: finished hands in the database; ``stats_actions``: their actions.
- ``stats_p50_ms`` / ``stats_p99_ms``: one `TableService.player_stats` call (the whole
  service path: the rule sets played, the hands' and matches' sums, the biggest hand,
  the rating, a head-to-head in one query of four) for ``--queries`` random asks: a
  random person of the 400, a scope among channel (one they played in), server and
  all, the rule set they played most, a fourth of them against another person. Goal
  p99 ≤ 200 ms.
- ``recount_ms``: the same figures the old way, from the logs without the projection:
  the person's hands found through their seats and departures, every action and
  settlement of those hands read, each hand's facts derived in Python
  (`bot.service.facts`, what the rebuild uses) and added up; the median over
  ``--recounts`` of the same asks.
- ``rebuild_s``: dropping and rebuilding the whole projection from the logs (the facts
  helper's rebuild, as start-up runs it after a formula change) and then every
  server's ratings (``store.ratings``); ``rebuild_facts_s`` and ``rebuild_ratings_s``
  each alone, each with its CPU time (``…_cpu_s``: the rebuilding process's, every
  thread; PostgreSQL's server not counted), the time in the garbage collector
  (``rebuild_gc_s``) and the one-minute load average at its end (``rebuild_load``: the
  machine is often shared). Goal ≤ 60 s. Each rebuild runs in a process of its own on
  a store it opens, as start-up does (`bench/stats_rebuild.py`), after the bench closed
  its own: not in the bench's process, whose heap (the seed's service, about 580,000
  objects) the garbage collector would walk again and again (at 10,000 hands 7.5 s of
  collection in the bench's process against 1.5 s in a fresh one: the 18 s the
  SQLite figure once had over a freshly opened store).

With ``--baseline REV`` the same rebuild is first run by revision REV's code (exported
from git; e.g. 2b35dd9, session 20's starting point) on a database REV's own code made
the same way (its ``bench/stats.py``'s seed and copies, in a process of its own: how a
finished hand's log is stored changed with migration 0032, and an older revision reads
none from a newer database), and its figures printed before this code's, each with
``_base`` added to its name (``rebuild_s_base`` then ``rebuild_s``); ``--rounds N``
alternates the two N times (``_base2``/``2``, … for the rounds after the first).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the checkout on the path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.baseline import exported
from bench.stats_play import play_matches, seeded_deals
from bench.stats_recount import recount
from bot.service import Cause, FakeClock, Place, RecordingNotifier, TableService
from bot.service.stats import PlayerStats
from bot.store import Store
from bot.store.stats import Scope

SEED_GUILD, SEED_CHANNEL = 7, 70
SEED_PEOPLE = tuple(range(1, 9))
PEOPLE, FIRST_PERSON = 400, 1000
CHANNELS, GUILDS, FIRST_CHANNEL, FIRST_GUILD = 50, 10, 5000, 100
STRIDE = 37
"""Seed person i of copy k is person FIRST_PERSON + (3k + STRIDE·(i − 1)) mod PEOPLE:
eight different people in each copy, each person in a tenth of the copies."""

SUFFIX = ""
ENV_URL = "MAHJONG_TEST_POSTGRES"


def emit(name: str, value: float | int, unit: str) -> None:
    name += SUFFIX
    print(f"{name} {value:.3f} {unit}" if isinstance(value, float) else f"{name} {value} {unit}",
          flush=True)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


# --- making the database (not measured) -----------------------------------------------


async def seed(store: Store, hands: int, rng: random.Random) -> None:
    """Real hands, played by people through the service, until ``hands`` have ended."""
    clock = FakeClock()
    service = TableService(store, RecordingNotifier(), clock=clock, computer_pause=0.0)
    seeded_deals(service, rng)
    done, n = 0, 0
    while done < hands:
        people = tuple(rng.sample(SEED_PEOPLE, 4 if n % 3 else 3))
        await play_matches(service, clock, rng, people=people, guild_id=SEED_GUILD,
                           channel_id=SEED_CHANNEL, rules=("shanghai", "hangzhou")[n % 2],
                           hands=rng.choice((2, 3, 4)), computers=4 - len(people),
                           timeouts=0.03, leaves=0.01)
        n += 1
        row = await store._db.one("SELECT COUNT(*) FROM hands WHERE status = 'ended'")
        done = int(row[0]) if row else 0


async def _columns(store: Store, table: str) -> list[str]:
    if store.dialect == "sqlite":
        return [r["name"] for r in await store._db.all(f"PRAGMA table_info({table})")]
    rows = await store._db.all("SELECT column_name FROM information_schema.columns"
                               " WHERE table_name = ? ORDER BY ordinal_position", (table,))
    return [r["column_name"] for r in rows]


COPIED: dict[str, tuple[str, dict[str, str]]] = {
    # table: (which rows are the seed's, {column: what a copy holds})
    "game_tables": ("id <= :t", {"id": "id + :dt", "guild_id": ":guild",
                                 "channel_id": ":channel", "creator_id": "PERSON(creator_id)",
                                 "created_at": "created_at + :time"}),
    "seats": ("table_id <= :t", {"table_id": "table_id + :dt", "user_id": "PERSON(user_id)",
                                 "joined_at": "joined_at + :time"}),
    "matches": ("id <= :m", {"id": "id + :dm", "table_id": "table_id + :dt",
                             "started_at": "started_at + :time",
                             "finished_at": "finished_at + :time"}),
    "hands": ("id <= :h", {"id": "id + :dh", "match_id": "match_id + :dm",
                           "started_at": "started_at + :time", "ended_at": "ended_at + :time"}),
    "actions": ("hand_id <= :h", {"hand_id": "hand_id + :dh", "at": "at + :time"}),
    # an ended hand's log (0032): its times run from the hand's start, moved with it
    "hand_logs": ("hand_id <= :h", {"hand_id": "hand_id + :dh"}),
    "settlements": ("hand_id <= :h", {"hand_id": "hand_id + :dh"}),
    "departures": ("id <= :d", {"id": "id + :dd", "hand_id": "hand_id + :dh",
                                "user_id": "PERSON(user_id)", "at": "at + :time"}),
    "hand_facts": ("hand_id <= :h", {"hand_id": "hand_id + :dh", "match_id": "match_id + :dm",
                                     "table_id": "table_id + :dt", "guild_id": ":guild",
                                     "channel_id": ":channel", "user_id": "PERSON(user_id)",
                                     "ended_at": "ended_at + :time"}),
    "match_facts": ("match_id <= :m", {"match_id": "match_id + :dm",
                                       "table_id": "table_id + :dt", "guild_id": ":guild",
                                       "channel_id": ":channel", "user_id": "PERSON(user_id)",
                                       "finished_at": "finished_at + :time"}),
}


def _sql(template: str, values: dict[str, int | float]) -> str:
    """The copy's values written into its statement (all numbers the bench made)."""
    out = template
    while "PERSON(" in out:
        start = out.index("PERSON(")
        end = out.index(")", start)
        column = out[start + 7:end]
        out = (out[:start] + f"({FIRST_PERSON} + ((:k3 + ({column} - 1) * {STRIDE}) % {PEOPLE}))"
               + out[end + 1:])
    for name in sorted(values, key=len, reverse=True):
        out = out.replace(f":{name}", repr(values[name]))
    return out


async def replicate(store: Store, hands: int) -> None:
    """Copies of the seed's rows, with new ids, people, channels and times, until the
    database holds ``hands`` finished hands."""
    one = await store._db.one(
        "SELECT (SELECT MAX(id) FROM game_tables) AS t, (SELECT MAX(id) FROM matches) AS m,"
        " (SELECT MAX(id) FROM hands) AS h, (SELECT COALESCE(MAX(id), 0) FROM departures)"
        " AS d, (SELECT COUNT(*) FROM hands WHERE status = 'ended') AS n,"
        " (SELECT MIN(created_at) FROM game_tables) AS t0,"
        " (SELECT MAX(ended_at) FROM hands) AS t1")
    assert one is not None
    seed_n = int(one["n"])
    span = float(one["t1"]) - float(one["t0"]) + 3600.0
    columns = {table: await _columns(store, table) for table in COPIED}
    copies = -(-hands // seed_n)
    for k in range(1, copies):
        channel = k % CHANNELS
        values: dict[str, int | float] = {
            "t": one["t"], "m": one["m"], "h": one["h"], "d": one["d"],
            "dt": k * one["t"], "dm": k * one["m"], "dh": k * one["h"], "dd": k * one["d"],
            "guild": FIRST_GUILD + channel % GUILDS, "channel": FIRST_CHANNEL + channel,
            "time": k * span, "k3": 3 * k}
        for table, (seed_rows, changed) in COPIED.items():
            cols = columns[table]
            exprs = [changed.get(c, c) for c in cols]
            await store._db.execute(_sql(
                f"INSERT INTO {table} ({', '.join(cols)}) SELECT {', '.join(exprs)}"
                f" FROM {table} WHERE {seed_rows}", values))
    # the seed's own rows: moved into the same world of people and channels
    values = {"t": one["t"], "m": one["m"], "h": one["h"], "d": one["d"], "k3": 0,
              "guild": FIRST_GUILD, "channel": FIRST_CHANNEL}
    for table in ("game_tables", "hand_facts", "match_facts"):
        await store._db.execute(_sql(f"UPDATE {table} SET guild_id = :guild,"
                                     f" channel_id = :channel WHERE {COPIED[table][0]}",
                                     values))
    for table, column in (("seats", "user_id"), ("departures", "user_id"),
                          ("hand_facts", "user_id"), ("match_facts", "user_id"),
                          ("game_tables", "creator_id")):
        await store._db.execute(_sql(f"UPDATE {table} SET {column} = PERSON({column})"
                                     f" WHERE {COPIED[table][0]}", values))
    await store._db.execute("ANALYZE")


# --- measuring ------------------------------------------------------------------------


Ask = tuple[int, Place, str, int | None]
"""(person, where they ask, scope, versus)."""


async def asks(store: Store, count: int, rng: random.Random) -> list[Ask]:
    """Random asks: a person, a channel they played in, a scope, maybe another person."""
    played = [(int(r["user_id"]), int(r["guild_id"]), int(r["channel_id"]))
              for r in await store._db.all(
                  "SELECT DISTINCT s.user_id, t.guild_id, t.channel_id FROM seats s"
                  " JOIN game_tables t ON t.id = s.table_id WHERE s.user_id IS NOT NULL")]
    out: list[Ask] = []
    for _ in range(count):
        user, guild, channel = rng.choice(played)
        scope = rng.choice(("channel", "server", "all"))
        versus = None
        if rng.random() < 0.25:
            versus = rng.choice([u for u, _, _ in played if u != user])
        out.append((user, Place(guild, channel), scope, versus))
    return out


async def time_stats(service: TableService, todo: list[Ask]
                     ) -> tuple[list[float], list[PlayerStats]]:
    """Milliseconds of each ask through the service, and its answers."""
    took, said = [], []
    for user, place, scope, versus in todo:
        start = time.perf_counter()
        said.append(await service.player_stats(Cause(user, place=place), None, None, scope,
                                               versus))
        took.append((time.perf_counter() - start) * 1000)
    return took, said


async def old_way(store: Store, stats: PlayerStats, versus: int | None) -> object:
    """The same figures from the logs: the person's hands replayed, matches placed."""
    scope = Scope(stats.scope, stats.guild_id, stats.channel_id)
    return await recount(store, stats.user_id, stats.rules, scope, versus)


async def measure(store: Store, args: argparse.Namespace) -> None:
    rng = random.Random(args.seed + 1)
    row = await store._db.one("SELECT (SELECT COUNT(*) FROM hands WHERE status = 'ended'),"
                              " (SELECT COUNT(*) FROM actions)")
    assert row is not None
    emit("stats_hands", int(row[0]), "hands")
    emit("stats_actions", int(row[1]), "actions")
    service = TableService(store, RecordingNotifier(), clock=FakeClock())
    todo = await asks(store, args.queries, rng)
    await time_stats(service, todo[:10])  # warm: the planner's and the file's caches
    took, said = await time_stats(service, todo)
    emit("stats_p50_ms", statistics.median(took), "ms")
    emit("stats_p99_ms", percentile(took, 0.99), "ms")
    if args.recounts:
        old = []
        for ask, stats in list(zip(todo, said, strict=True))[:args.recounts]:
            start = time.perf_counter()
            await old_way(store, stats, ask[3])
            old.append((time.perf_counter() - start) * 1000)
        emit("recount_ms", statistics.median(old), "ms")


REBUILD_SCRIPT = Path(__file__).with_name("stats_rebuild.py")


def rebuilt(target: Path | str, code: str | None) -> list[tuple[str, str, str]]:
    """`bench/stats_rebuild.py` run on ``target`` in a process of its own (by
    ``code``'s checkout, else this one's): its figures."""
    where = ["--code", code] if code else []
    out = subprocess.run([sys.executable, str(REBUILD_SCRIPT), str(target), *where],
                         check=True, capture_output=True, text=True).stdout
    return [(name, value, unit) for name, value, unit in
            (line.split() for line in out.splitlines())]


def made(target: Path | str, code: str, args: argparse.Namespace) -> None:
    """``target``'s database made by ``code``'s checkout, as it makes its own."""
    subprocess.run([sys.executable, str(REBUILD_SCRIPT), str(target), "--code", code,
                    "--make", "--hands", str(args.hands), "--seed-hands",
                    str(args.seed_hands), "--seed", str(args.seed)],
                   check=True, capture_output=True, text=True)


def rebuilds(target: Path | str, args: argparse.Namespace,
             baseline: tuple[str, Path | str] | None) -> None:
    """The rebuild by the baseline's code (an exported checkout, on a database of its
    own) then by this one, ``args.rounds`` times; the figures printed pairwise."""
    if baseline is not None:
        made(baseline[1], baseline[0], args)
    for number in range(1, args.rounds + 1):
        tag = "" if number == 1 else str(number)
        before = rebuilt(baseline[1], baseline[0]) if baseline else []
        now = rebuilt(target, None)
        old = {name: (value, unit) for name, value, unit in before}
        for name, value, unit in now:
            if name in old:
                print(f"{name}_base{tag}{SUFFIX} {old[name][0]} {unit}", flush=True)
            print(f"{name}{tag}{SUFFIX} {value} {unit}", flush=True)


async def run_one(target: Path | str, args: argparse.Namespace,
                  baseline: tuple[str, Path | str] | None = None) -> None:
    store = await Store.open(target)
    try:
        await seed(store, args.seed_hands, random.Random(args.seed))
        await replicate(store, args.hands)
        await measure(store, args)
    finally:
        await store.close()
    if args.rebuild:
        await asyncio.to_thread(rebuilds, target, args, baseline)


async def main_async(args: argparse.Namespace) -> None:
    with contextlib.ExitStack() as stack:
        baseline = stack.enter_context(exported(args.baseline)) if args.baseline else None
        await dialects(args, baseline)


async def dialects(args: argparse.Namespace, baseline: str | None) -> None:
    global SUFFIX
    if not args.postgres_only:
        SUFFIX = ""
        with tempfile.TemporaryDirectory() as tmp:
            await run_one(Path(tmp) / "stats.sqlite3", args,
                          None if baseline is None else (baseline, Path(tmp) / "base.sqlite3"))
    if args.sqlite_only:
        return
    from tests.pgcluster import Cluster, ClusterUnavailable, create_database, drop_database
    from tests.pgcluster import fresh_name as fresh
    url = args.database_url or (None if args.postgres else os.environ.get(ENV_URL))
    cluster = None
    if not url:
        if not args.postgres:
            print("# no PostgreSQL given: its figures are left out", file=sys.stderr)
            return
        try:
            cluster = Cluster.start(durable=True)
        except ClusterUnavailable:
            print("# no PostgreSQL here: its figures are left out", file=sys.stderr)
            return
        url = cluster.url
    SUFFIX = "_postgres"
    name = fresh("stats_bench")
    base_name = fresh("stats_bench_base") if baseline is not None else None
    try:
        target = await create_database(url, name)
        base = None
        if baseline is not None and base_name is not None:
            base = (baseline, await create_database(url, base_name))
        try:
            await run_one(target, args, base)
        finally:
            await drop_database(url, name)
            if base_name is not None:
                await drop_database(url, base_name)
    finally:
        if cluster is not None:
            cluster.stop()


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python bench/stats.py", description=__doc__)
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed-hands", type=int, default=240)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--recounts", type=int, default=20)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--no-rebuild", dest="rebuild", action="store_false")
    parser.add_argument("--baseline", default=None,
                        help="a git revision whose rebuild is timed before this code's")
    parser.add_argument("--rounds", type=int, default=1,
                        help="with --baseline: the two rebuilds alternated this many times")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--sqlite-only", action="store_true")
    where.add_argument("--postgres-only", action="store_true")
    parser.add_argument("--postgres", action="store_true",
                        help="start a PostgreSQL cluster for the run (durable defaults)")
    parser.add_argument("--database-url", default=None,
                        help="a PostgreSQL server where the bench may create a database")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    asyncio.run(main_async(parse(argv)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
