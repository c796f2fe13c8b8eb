"""Benchmark of the table service over the real store (never a timed test).

    python bench/service.py [--actions-tables 1,10,200] [--restart-tables 1000]
                            [--restart-snapshot-every 2,1] [--baseline REV]
                            [--postgres | --database-url postgresql://…]

SQLite by default (files in a temporary folder). ``--postgres`` runs the same on a
PostgreSQL cluster started for the run (PostgreSQL's durable defaults: an fsync at
every commit, like SQLite's ``…_sync_full``); ``--database-url`` on a server where the
bench may create (and drop) databases. On PostgreSQL every name ends in ``_postgres``
and the SQLite-only figures (synchronous = FULL, file bytes) are left out.

Prints ``NAME VALUE UNIT`` lines:
- ``service_actions_per_s_<N>_tables``: moves through `TableService.act` (engine
  validation, compare-and-set append with the next deadlines, in-memory swap, notifier)
  with N tables playing at once; commits as the store makes them (WAL, synchronous =
  NORMAL: durable against a crash of the process); ``…_sync_full`` the same with an
  fsync at every commit (durable against a power cut). Goal ≥ 500/s at 200 tables.
- ``service_action_p50_ms`` / ``_p99_ms`` per table count: latency of one `act` call
  (at 200 tables it includes waiting for the event loop behind the other 199).
  Goal p99 ≤ 20 ms. ``service_action_cpu_us_<N>_tables``: the bench process's CPU time
  per move (the bench's own choice of moves included), which the load of a shared
  machine moves less than the wall time. ``…_snapshot_every_<K>``
  (``--snapshot-every``, default 0): the same with a state snapshot every K actions
  instead of the service's default (0: none), the cost of snapshots on the move path.
  ``…_viewing`` (``--viewing``): the same with every notice's view made, as the Discord
  notifier makes them for its pictures (the bench's own notifier makes none).
- ``service_restart_ready_s_<N>_tables``: `recover(eager=False)` with N live tables (the
  service is serving again; tables replay their log on first use); and
  ``service_restart_full_s_<N>_tables``: `recover(eager=True)` rebuilding every live
  table now: one batch of reads, each hand resumed from its newest state snapshot and
  the actions after it (``service_restart_resumed_hands_<N>_tables`` of them; the
  others replay their log). Goal ≤ 1 s. Beside it, from the same database in the same
  run: ``…_whole_logs`` (snapshots ignored: the batch of reads, every log replayed) and
  ``…_old_path`` (snapshots ignored, each table read on its own, as `recover(eager=True)`
  did before snapshots: `recover()` then `live(table)` for each). Each figure also as
  ``…_cpu_s_…``: the CPU time of the bench's process (SQLite's thread included), which
  the load of a shared machine moves less than the wall time. The ready and full
  figures are the median of ``--restart-repeats`` (3) restarts. The tables have played
  28–31 moves (by table number), so the actions after the newest snapshot are spread
  as a restart at any moment would find them. ``--restart-snapshot-every 2,1``: the
  same again on databases written with a snapshot every 2 (every 1) actions, named
  ``…_snapshot_every_<K>``.
- ``--baseline REV``: before all that, the same bench (same options) on the code of git
  revision REV, checked out in a temporary worktree, every name ending in
  ``_before_<REV>``: the old figures and the new ones side by side from one run.
- ``service_db_bytes_per_hand``: database growth per finished hand (after checkpoint),
  and ``…_without_snapshots`` the same with no snapshot written (a hand's snapshot is
  deleted when it ends, so the difference is pages the churn leaves behind);
  ``service_db_bytes_per_live_hand_snapshot``: the size of one stored snapshot row's
  state text, on average.
- ``service_actions_per_s_<N>_tables_<P>_processes`` (``--processes-tables``, with
  ``--processes`` 1,2): the same moves, in shared mode (bot/service/README.md), by P
  processes on one database, each playing N/P of the tables; the figure is all moves
  over the wall time from the moment every process is ready; ``…_p99_ms_…`` the worst
  process's p99. On PostgreSQL (``--postgres``, ``--database-url``) the real thing;
  on SQLite, shared mode forced on one file as the tests do (the bot itself allows
  one process per SQLite file).
- ``service_scheduler_entries_after_<A>_actions_<N>_tables`` / ``…_heap_…`` /
  ``…_deciding_seats_…``: after A moves in all spread over N tables (their hands still
  running), the scheduler's live entries, its heap (dead entries included) and the
  seats deciding; goal entries ≤ 2 × deciding seats (a due moment and a reminder each).
  ``service_engine_memo_entries_after_<A>_actions`` (unit ``of_<bounds>``): the
  engine's memo caches in the bench's process then (every bench before it included),
  against the sum of their bounds; ``…_fullest_…`` the fullest one.

The moves are the engine's timer defaults (cheap to choose), played by four people, so
that the figures measure the service and the store rather than the computer player. The
bench reads the service's in-memory state to choose them (nothing else may).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# the checkout whose code is measured: this one, or ``--code DIR`` (how ``--baseline``
# measures an older revision's code with this very bench)
sys.path.insert(0, str(Path(sys.argv[sys.argv.index("--code") + 1]).resolve()
                       if "--code" in sys.argv[:-1] else Path(__file__).resolve().parents[1]))

from bot.service import Cause, NullNotifier, Refused, SystemClock, TableService
from bot.service.live import step_of
from bot.service.notices import Notice
from bot.service.notifier import Notifier
from bot.service.snapshots import SNAPSHOT_EVERY
from bot.store import Store
from bot.store.sqlite import SqliteDatabase
from engine.game import Phase, deciding_seats, timeout_action
from engine.rules import RULESETS
from tests.pgcluster import Cluster, create_database, drop_database, fresh_name

CODE_ROOT = sys.path[0]
"""The checkout measured (inserted above): the processes bench's workers measure it too."""

RULE_NAMES = list(RULESETS)
"""The tables take the rule sets in turn."""

OPTIONS = {"hands": 1, "turn_timer": 3600, "claim_timer": 3600}


SUFFIX = ""
"""``_postgres`` when the bench runs on PostgreSQL: added to every name printed."""


def emit(name: str, value: float, unit: str) -> None:
    name += SUFFIX
    print(f"{name} {value:.3f} {unit}" if isinstance(value, float) else f"{name} {value} {unit}",
          flush=True)


class Databases:
    """Where the bench's databases go: SQLite files in a temporary folder, or new
    databases on a PostgreSQL server (dropped at the end)."""

    def __init__(self, folder: Path, server: str | None) -> None:
        self.folder = folder
        self.server = server
        self._made: list[str] = []

    async def new(self, name: str) -> Path | str:
        if self.server is None:
            return self.folder / f"{name}.sqlite3"
        database = fresh_name("bench")
        self._made.append(database)
        return await create_database(self.server, database)

    async def drop_all(self) -> None:
        if self.server is not None:
            for database in self._made:
                await drop_database(self.server, database)


class DeliveringNotifier:
    """Tells nobody, but takes each announcement as delivered, as the Discord notifier
    does once a message is accepted: otherwise every start of the restart bench would
    hand the thousand tables' announcements over again (a cost of the bench's notifier,
    not of a restart)."""

    async def publish(self, notice: Notice) -> None:
        receipt = getattr(notice, "receipt", None)
        if receipt is not None:
            await receipt.delivered()


class ViewingNotifier:
    """Tells nobody, but makes every notice's view, as the Discord notifier does for its
    pictures (`--viewing`): a private notice's view is one seat's."""

    async def publish(self, notice: Notice) -> None:
        view = getattr(notice, "view", None)
        if view is not None:
            view()


async def new_service(path: Path | str, sync_full: bool = False, *,
                      snapshot_every: int | None = None, use_snapshots: bool = True,
                      notifier: Notifier | None = None) -> TableService:
    store = await Store.open(path)
    if sync_full and isinstance(store._db, SqliteDatabase):
        # fsync at every commit: durable against a power cut too
        await store._db.connection.execute("PRAGMA synchronous = FULL")
    return TableService(store, notifier or NullNotifier(), clock=SystemClock(), computer_pause=0.0,
                        use_snapshots=use_snapshots,
                        snapshot_every=SNAPSHOT_EVERY if snapshot_every is None else snapshot_every)


async def open_tables(service: TableService, count: int, first_channel: int,
                      start: bool = True, options: dict[str, int] = OPTIONS) -> list[int]:
    """``count`` tables of four people (users 4k+1 … 4k+4), started."""
    ids = []
    for k in range(count):
        users = [4 * (first_channel + k) + i + 1 for i in range(4)]
        info = await service.create_table(Cause(users[0], f"P{users[0]}"), guild_id=1,
                                          channel_id=first_channel + k,
                                          rules=RULE_NAMES[k % len(RULE_NAMES)], options=options)
        for user in users[1:]:
            await service.join(Cause(user, f"P{user}"), info.ref.table_id)
        if start:
            await service.start(Cause(users[0]), info.ref.table_id)
        ids.append(info.ref.table_id)
    return ids


async def play(service: TableService, table_id: int, latencies: list[float],
               limit: int | None = None) -> int:
    """Play the table's hand to its end (or ``limit`` moves) with the timer defaults."""
    live = service._tables[table_id]  # the bench's one peek, to choose moves cheaply
    users = [s.user_id for s in live.seats if s is not None and s.user_id is not None]
    moves = 0
    while live.hand is not None and live.hand.state.phase is not Phase.ENDED:
        if limit is not None and moves >= limit:
            break
        state = live.hand.state
        seat = deciding_seats(state)[0]
        action = timeout_action(state, seat)
        t0 = time.perf_counter()
        try:
            result = await service.act(Cause(users[seat]), table_id, action,
                                       step=step_of(state, seat))
        except Refused:
            continue
        latencies.append(time.perf_counter() - t0)
        moves += 1
        if result.hand_ended:
            break
        await asyncio.sleep(0)  # let the other tables in
    return moves


async def bench_actions(dbs: Databases, tables: int, sync_full: bool = False,
                        snapshot_every: int | None = None, viewing: bool = False) -> None:
    suffix = "_sync_full" if sync_full else ""
    if snapshot_every is not None:
        suffix += f"_snapshot_every_{snapshot_every}"
    if viewing:
        suffix += "_viewing"
    service = await new_service(await dbs.new(f"actions-{tables}{suffix}"), sync_full,
                                snapshot_every=snapshot_every,
                                notifier=ViewingNotifier() if viewing else None)
    ids = await open_tables(service, tables, 1)
    latencies: list[float] = []
    c0, t0 = time.process_time(), time.perf_counter()
    counts = await asyncio.gather(*(play(service, t, latencies) for t in ids))
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    emit(f"service_actions_per_s_{tables}_tables{suffix}", sum(counts) / elapsed,
         "actions/s")
    emit(f"service_action_cpu_us_{tables}_tables{suffix}", cpu / sum(counts) * 1e6, "µs")
    latencies.sort()
    emit(f"service_action_p50_ms_{tables}_tables{suffix}",
         statistics.median(latencies) * 1000, "ms")
    emit(f"service_action_p99_ms_{tables}_tables{suffix}",
         latencies[int(len(latencies) * 0.99)] * 1000, "ms")
    await service.store.close()


RESTART_MOVES = 28
"""Moves per table before the restart bench's restart, plus the table's number modulo 4
(28–31): a restart comes at any moment of a hand, so the actions after its newest
snapshot (when one is not written with every action, as by default) are spread over
0–3 rather than always the same."""


async def bench_restart(dbs: Databases, tables: int, repeats: int = 3,
                        snapshot_every: int | None = None) -> None:
    suffix = "" if snapshot_every is None else f"_snapshot_every_{snapshot_every}"
    path = await dbs.new(f"restart{suffix}")
    service = await new_service(path, notifier=DeliveringNotifier(),
                                snapshot_every=snapshot_every)
    # several hands each: a table whose first hand ends early must stay live
    ids = await open_tables(service, tables, 100_000, options={**OPTIONS, "hands": 8})
    sink: list[float] = []
    for k, t in enumerate(ids):
        await play(service, t, sink, limit=RESTART_MOVES + k % 4)
    await service.store.close()
    states = {}
    for kind in ("ready", "full_old_path", "full_whole_logs", "full"):
        walls, cpus = [], []
        # the two figures of the goal are measured `repeats` times (median printed)
        for _ in range(repeats if kind in ("ready", "full") else 1):
            # each start from the same file: none of them writes (no deadline is overdue)
            service = await new_service(path, use_snapshots=kind == "full",
                                        notifier=DeliveringNotifier())
            c0, t0 = time.process_time(), time.perf_counter()
            report = await service.recover(eager=kind in ("full", "full_whole_logs"))
            if kind == "full_old_path":
                for row in await service.store.lobby.live_tables():
                    await service.tables.get(row.id)
            walls.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)  # this process's CPU, SQLite's thread too
            assert report.live_tables == tables and not report.failed, report
            if kind != "ready":
                states[kind] = {t: live.hand.state for t, live in service._tables.items()
                                if live.hand is not None}
            resumed = service.tables.resumed
            await service.store.close()
        emit(f"service_restart_{kind}_s_{tables}_tables{suffix}", statistics.median(walls),
             "s")
        emit(f"service_restart_{kind}_cpu_s_{tables}_tables{suffix}", statistics.median(cpus),
             "s")
        if kind == "full":
            emit(f"service_restart_resumed_hands_{tables}_tables{suffix}", resumed, "hands")
    # the bench's own check that every way rebuilt the very same hands
    assert states["full"] == states["full_whole_logs"] == states["full_old_path"]


async def bench_bytes(folder: Path, hands: int) -> None:
    for every, suffix in ((0, "_without_snapshots"), (None, "")):
        path = folder / f"bytes{suffix}.sqlite3"
        service = await new_service(path, snapshot_every=every)
        await service.store.close()
        empty = os.path.getsize(path)
        service = await new_service(path, snapshot_every=every)
        ids = await open_tables(service, hands, 200_000)
        sink: list[float] = []
        sizes = []
        for t in ids:
            await play(service, t, sink, limit=40)
            live = service._tables.get(t)
            if live is not None and live.hand is not None:  # else it ended in under 40 moves
                sizes += [len(s.state)
                          for s in await service.store.log.snapshots(live.hand.row.id)]
                await play(service, t, sink)
        await service.store.close()
        emit(f"service_db_bytes_per_hand{suffix}", (os.path.getsize(path) - empty) / hands,
             "bytes")
        if sizes:
            emit("service_db_bytes_per_live_hand_snapshot", sum(sizes) / len(sizes), "bytes")


async def bench_scheduler(dbs: Databases, tables: int, per_table: int) -> None:
    service = await new_service(await dbs.new(f"scheduler-{tables}"))
    ids = await open_tables(service, tables, 300_000, options={**OPTIONS, "hands": 8})
    sink: list[float] = []
    moves = sum(await asyncio.gather(*(play(service, t, sink, limit=per_table)
                                       for t in ids)))
    deciding = sum(len(live.pending) for live in service._tables.values())
    suffix = f"after_{moves}_actions_{tables}_tables"
    emit(f"service_scheduler_entries_{suffix}", len(service.scheduler), "entries")
    # the bench's peek at the heap itself (dead entries included)
    emit(f"service_scheduler_heap_{suffix}", len(service.scheduler._heap), "entries")
    emit(f"service_scheduler_deciding_seats_{suffix}", deciding, "seats")
    memo_figures(f"after_{moves}_actions")
    await service.store.close()


def memo_figures(when: str) -> None:
    """The engine's memo caches in this process (all bounded, `engine.memo`): their
    entries in all against the sum of their bounds, and the fullest one."""
    try:
        from engine import memo
    except ImportError:  # a baseline from before the memos were bounded
        return
    caches = memo.stats()
    emit(f"service_engine_memo_entries_{when}", sum(c.size for c in caches),
         f"of_{sum(c.maxsize for c in caches)}")
    fullest = max(caches, key=lambda c: c.size / c.maxsize)
    emit(f"service_engine_memo_fullest_{when}", fullest.size,
         f"of_{fullest.maxsize}_{fullest.name.rsplit('.', 1)[-1]}")


async def open_store(database: str) -> Store:
    """The store of a SQLite file (or, with the PostgreSQL backend, a URL)."""
    return await Store.open(database)


async def worker(database: str, first_channel: int, tables: int) -> int:
    """One process of the processes bench: its tables opened, it says READY, waits for a
    line on stdin, plays them (shared mode) and prints ``DONE moves p50_ms p99_ms``."""
    store = await open_store(database)
    service = TableService(store, NullNotifier(), clock=SystemClock(), computer_pause=0.0,
                           shared=True)
    ids = await open_tables(service, tables, first_channel)
    print("READY", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    latencies: list[float] = []
    counts = await asyncio.gather(*(play(service, t, latencies) for t in ids))
    latencies.sort()
    print(f"DONE {sum(counts)} {statistics.median(latencies) * 1000:.3f} "
          f"{latencies[int(len(latencies) * 0.99)] * 1000:.3f}", flush=True)
    await store.close()
    return 0


async def bench_processes(database: str, tables: int, processes: int) -> None:
    """``tables`` tables played by ``processes`` worker processes on one database."""
    store = await open_store(database)  # migrated once, before the workers race to it
    await store.close()
    share = tables // processes
    procs = [await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--worker", database, str(1 + k * share), str(share),
        "--code", CODE_ROOT, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE)
        for k in range(processes)]
    for proc in procs:
        assert proc.stdout is not None
        line = (await proc.stdout.readline()).decode().strip()
        assert line == "READY", line
    t0 = time.perf_counter()
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write(b"go\n")
        await proc.stdin.drain()
    done = []
    for proc in procs:
        assert proc.stdout is not None
        done.append((await proc.stdout.readline()).decode().split())
        await proc.wait()
    elapsed = time.perf_counter() - t0
    name = f"{tables}_tables_{processes}_processes"
    emit(f"service_actions_per_s_{name}", sum(int(d[1]) for d in done) / elapsed, "actions/s")
    emit(f"service_action_p99_ms_{name}", max(float(d[3]) for d in done), "ms")


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/service.py")
    parser.add_argument("--actions-tables", default="1,10,200")
    parser.add_argument("--restart-tables", type=int, default=1000)
    parser.add_argument("--restart-repeats", type=int, default=3,
                        help="restarts measured per figure of the goal (median printed)")
    parser.add_argument("--restart-snapshot-every", default="",
                        help="also measure the restart with a snapshot every N actions "
                             "(comma-separated), beside the service's default")
    parser.add_argument("--baseline", metavar="REV", default=None,
                        help="first run the same bench on the code of git revision REV "
                             "(a temporary worktree), its figures named …_before_REV")
    parser.add_argument("--code", metavar="DIR", default=None,
                        help="measure the code of the checkout DIR (used by --baseline)")
    parser.add_argument("--bytes-hands", type=int, default=50)
    parser.add_argument("--scheduler-tables", type=int, default=200)
    parser.add_argument("--scheduler-moves", type=int, default=40,
                        help="moves per table before the scheduler is measured")
    parser.add_argument("--snapshot-every", default="0",
                        help="also measure the moves with a snapshot every N actions "
                             "(0: none), beside the service's default")
    parser.add_argument("--viewing", action="store_true",
                        help="also measure the moves with every notice's view made")
    parser.add_argument("--sync-full-tables", default="1,200",
                        help="also measure these with PRAGMA synchronous = FULL")
    parser.add_argument("--processes-tables", type=int, default=200,
                        help="tables played by several processes in shared mode (0: skip)")
    parser.add_argument("--processes", default="1,2",
                        help="how many processes play --processes-tables")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--postgres", action="store_true",
                       help="run on a PostgreSQL cluster started for the run")
    where.add_argument("--database-url", default=None,
                       help="run on this PostgreSQL server (the bench creates databases)")
    args = parser.parse_args(argv)
    if args.baseline:
        await run_baseline(args.baseline, sys.argv[1:] if argv is None else argv)
    cluster = Cluster.start(durable=True) if args.postgres else None
    server = cluster.url if cluster is not None else args.database_url
    try:
        with tempfile.TemporaryDirectory() as tmp:
            dbs = Databases(Path(tmp), server)
            try:
                await run(args, dbs)
            finally:
                await dbs.drop_all()
    finally:
        if cluster is not None:
            cluster.stop()
    return 0


def without_baseline(argv: list[str]) -> list[str]:
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--baseline":
            skip = True
        elif not arg.startswith("--baseline="):
            out.append(arg)
    return out


async def run_baseline(rev: str, argv: list[str]) -> None:
    """This bench, with the same options, on the code of git revision ``rev`` checked
    out in a temporary worktree (its own databases); each line printed with
    ``_before_<rev>`` added to its name."""
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(root), "worktree", "add", "--detach", "--quiet",
                        str(tree), rev], check=True)
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, str(Path(__file__).resolve()), *without_baseline(argv),
                "--code", str(tree), stdout=asyncio.subprocess.PIPE)
            assert proc.stdout is not None
            async for line in proc.stdout:
                name, *rest = line.decode().split()
                print(" ".join([f"{name}_before_{rev}", *rest]), flush=True)
            if await proc.wait():
                raise SystemExit(f"the bench failed on {rev}")
        finally:
            subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force",
                            str(tree)], check=True)


async def run(args: argparse.Namespace, dbs: Databases) -> None:
    global SUFFIX
    on_sqlite = dbs.server is None
    SUFFIX = "" if on_sqlite else "_postgres"
    for n in (int(x) for x in args.actions_tables.split(",") if x):
        await bench_actions(dbs, n)
        for every in (int(x) for x in args.snapshot_every.split(",") if x):
            await bench_actions(dbs, n, snapshot_every=every)
        if args.viewing:
            await bench_actions(dbs, n, viewing=True)
    if on_sqlite:  # PRAGMA synchronous and file sizes are SQLite's
        for n in (int(x) for x in args.sync_full_tables.split(",") if x):
            await bench_actions(dbs, n, sync_full=True)
        if args.bytes_hands:
            await bench_bytes(dbs.folder, args.bytes_hands)
    if args.scheduler_tables:
        await bench_scheduler(dbs, args.scheduler_tables, args.scheduler_moves)
    if args.restart_tables:
        await bench_restart(dbs, args.restart_tables, args.restart_repeats)
        for every in (int(x) for x in args.restart_snapshot_every.split(",") if x):
            await bench_restart(dbs, args.restart_tables, args.restart_repeats, every)
    if args.processes_tables:
        for p in (int(x) for x in args.processes.split(",") if x):
            await bench_processes(str(await dbs.new(f"processes-{p}")),
                                  args.processes_tables, p)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        database, first, count = sys.argv[2:5]
        raise SystemExit(asyncio.run(worker(database, int(first), int(count))))
    raise SystemExit(asyncio.run(main()))
