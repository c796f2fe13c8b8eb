"""``python bench/coldclick.py``: a click on a cold table (not in memory, idle) through
the real bot, end to end, this checkout beside another revision's code in the same run
(issue 32's goal: p99 ≤ 30 ms on SQLite, ≤ 60 ms on PostgreSQL at 100,000 live tables);
never a timed test.

    python bench/coldclick.py [--tables 1000] [--clicks 200] [--baseline 978472f]
                              [--sqlite-only | --postgres-only] [--gap 0.05]
                              [--profile DIR]

The tables are made as `bench/scale.py` makes them (its `World`, `copy_tables`: one
table opened and dealt by the measured code's bot, its rows copied ``--tables`` − 1
times), then each code's bot starts on its own database and ``--clicks`` of those
tables are clicked, one after the other ``--gap`` seconds apart, each by its dealer on
its decision DM: ``cold_click_ms`` percentiles from the click sent to the bot's first
response reaching the fake Discord, and ``cold_click_refused`` (clicks not answered
with their move: there must be none). The bot's own view of the same clicks is printed
too: ``loop_lag_max_ms`` (the longest its event loop did not run a ready task, a
blocking call), and with ``--profile DIR`` each code's cProfile of the clicks
(``DIR/{before,now}_{backend}.pstats``).

Each figure is printed ``NAME BEFORE NOW UNIT`` with the load average beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# bench/discord.py is in this folder: it must not shadow the discord package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(ROOT))
from bench import scale  # noqa: E402  (decides the bot's checkout from --code)

START = "978472f"
"""Main when session 21 began (DESIGN21.md's START)."""
LAG_TICK = 0.001
"""Seconds between two looks of the loop-lag watcher."""


# ------------------------------------------------------------------ the bot's process


async def bot_main(args: argparse.Namespace) -> None:
    """The child: ``--code``'s bot against the fake Discord, as `scale.bot_main` runs
    it; orders on stdin: WATCH (start the loop-lag watcher and the profiler), STOP
    (answer ``STOPPED lag_max_ms`` and end)."""
    import discord.gateway
    import discord.http
    import yarl
    from fakediscord.runner import GUILD_READY_TIMEOUT

    from bot.discord.client import MahjongBot

    discord.http.Route.BASE = args.api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.gateway)
    loop = asyncio.get_running_loop()

    def say(*words: object) -> None:
        print(*words, flush=True)

    spans = _spans() if args.spans else {}
    bot = MahjongBot(database_path=args.db, computer_pause=0.0, table_interval=2.0,
                     picture_processes=1, service_options={"grace": scale.GRACE})
    bot._connection.guild_ready_timeout = GUILD_READY_TIMEOUT
    await bot.login("fake-token")
    connection = asyncio.create_task(bot.connect(reconnect=False))
    await asyncio.wait_for(bot.wait_until_ready(), scale.READY_TIMEOUT)
    if args.pictures_ready:  # every picture process started (a diagnosis)
        while not all(pool.ready() for pool in bot.pictures._pools.values()):
            await asyncio.sleep(0.05)
    say("READY")
    lags: list[float] = []
    profile = cProfile.Profile() if args.profile else None

    async def watch() -> None:
        while True:
            began = loop.time()
            await asyncio.sleep(LAG_TICK)
            lags.append(loop.time() - began - LAG_TICK)

    watcher: asyncio.Task[None] | None = None
    cpu = os.times()
    while True:
        line: str = await loop.run_in_executor(None, sys.stdin.readline)
        order = line.split() or ["STOP"]
        if order[0] == "WATCH":
            watcher = asyncio.create_task(watch())
            cpu = os.times()
            if profile is not None:
                profile.enable()
            say("WATCHING")
            continue
        if profile is not None:
            profile.disable()
            profile.dump_stats(args.profile)
        if watcher is not None:
            watcher.cancel()
        lags.sort()
        spent = os.times()
        cpu_s = spent.user + spent.system - cpu.user - cpu.system if watcher else 0.0
        for name, times in spans.items():
            times.sort()
            if times:
                print(f"span {name}: n {len(times)} median"
                      f" {1000 * scale.percentile(times, 0.5):.2f} p90"
                      f" {1000 * scale.percentile(times, 0.9):.2f} max {1000 * times[-1]:.2f}"
                      " ms", file=sys.stderr, flush=True)
        await bot.close()
        await asyncio.wait_for(connection, 30)
        say("STOPPED", 1000 * (lags[-1] if lags else 0.0),
            1000 * (scale.percentile(lags, 0.99) if lags else 0.0), cpu_s)
        return


def _spans() -> dict[str, list[float]]:
    """Time spent in a few calls of the click's path, each call's wall time (the
    ``--spans`` diagnosis: where a cold click's time goes)."""
    import functools
    import time

    from bot.discord.core.answering import Answer
    from bot.service.moves import Moves
    from bot.service.service import TableService
    from bot.service.tables import LiveTables
    from bot.store.rebuilds import Rebuilds
    out: dict[str, list[float]] = {}

    def wrap(owner: Any, name: str) -> None:
        real = getattr(owner, name)
        times = out.setdefault(f"{owner.__name__}.{name}", [])

        @functools.wraps(real)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return await real(*args, **kwargs)
            finally:
                times.append(time.perf_counter() - began)
        setattr(owner, name, timed)

    for owner, name in ((TableService, "find_table"), (TableService, "act"),
                        (TableService, "seen"), (LiveTables, "get"),
                        (Rebuilds, "load"), (LiveTables, "rebuild"), (Moves, "commit"),
                        (Answer, "update"), (Answer, "acknowledge")):
        wrap(owner, name)
    return out


class Bot(scale.BotProcess):
    @classmethod
    async def begin(cls, code: Path, db: str, api: str, gateway: str,
                    profile: str | None, spans: bool, pictures_ready: bool) -> Bot:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(Path(__file__).resolve()), "--role", "bot", "--code",
            str(code), "--db", db, "--api", api, "--gateway", gateway,
            *(["--profile", profile] if profile else []), *(["--spans"] if spans else []),
            *(["--pictures-ready"] if pictures_ready else []),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=code)
        return cls(proc)


# ------------------------------------------------------------------ one code


def _spread(clicks: int, among: int) -> list[int]:
    """``clicks`` copies spread evenly over 1 … ``among``."""
    count = min(clicks, among)
    return sorted({1 + i * among // count for i in range(count)})


@dataclass
class Clicks:
    """One code's clicks over its rounds."""

    took: list[float] = field(default_factory=list)
    refused: int = 0
    lag_max: float = 0.0
    lag_p99: list[float] = field(default_factory=list)
    cpu_s: float = 0.0

    def figures(self) -> dict[str, float]:
        took = sorted(self.took)
        return {"cold_click_median_ms": 1000 * scale.percentile(took, 0.5),
                "cold_click_p90_ms": 1000 * scale.percentile(took, 0.9),
                "cold_click_p99_ms": 1000 * scale.percentile(took, 0.99),
                "cold_click_max_ms": 1000 * took[-1],
                "cold_click_refused": float(self.refused),
                "loop_lag_max_ms": self.lag_max,
                "loop_lag_p99_ms": max(self.lag_p99),
                "bot_cpu_ms_per_click": 1000 * self.cpu_s / max(1, len(took))}


async def session(world: scale.World, code: Path, db: scale.Db, template: scale.Template,
                  clicked: list[int], args: argparse.Namespace, label: str, backend: str,
                  into: Clicks) -> None:
    """One bot process of ``code`` started on ``db`` (every table cold), ``clicked``
    clicked one after the other."""
    profile = str(Path(args.profile) / f"{label}_{backend}.pstats") if args.profile else None
    bot = await Bot.begin(code, db.target, world.fake.api_url, world.fake.gateway_url,
                          profile, args.spans, args.pictures_ready)
    took: list[float] = []
    try:
        await bot.hear("READY")
        await asyncio.sleep(args.settle)
        await bot.ask("WATCH", "WATCHING")
        for k in clicked:
            seconds, moved = await world.click(template, k)
            took.append(seconds)
            into.refused += not moved
            await asyncio.sleep(args.gap)
        if args.each:
            print(f"{label} {backend} clicks ms:",
                  " ".join(f"{1000 * s:.0f}" for s in took), file=sys.stderr)
    finally:
        stopped = await bot.ask("STOP", "STOPPED", 60)
        await bot.proc.wait()
    into.took += took
    into.lag_max = max(into.lag_max, float(stopped[0]))
    into.lag_p99.append(float(stopped[1]))
    into.cpu_s += float(stopped[2])


async def run(args: argparse.Namespace) -> None:
    backends = scale.backends_of(args)
    world = scale.World()
    await world.start()
    try:
        with scale.contextmanager_or_none(args.baseline) as old_code, \
                tempfile.TemporaryDirectory() as tmp:
            codes = [("now", ROOT)] if old_code is None else [("before", old_code),
                                                              ("now", ROOT)]
            for backend in backends:
                tag = "" if backend == "sqlite" else "_postgres"
                async with contextlib.AsyncExitStack() as stack:
                    made = []
                    for label, code in codes:
                        db = await stack.enter_async_context(
                            scale.database(backend, Path(tmp), f"cc_{label}"))
                        template = await world.template(code, db)
                        await scale.copy_tables(db, template, args.tables - 1)
                        made.append((label, code, db, template, Clicks()))
                    clicks = _spread(args.clicks * args.rounds, args.tables - 1)
                    for r in range(args.rounds):  # the codes alternated, round by round
                        for label, code, db, template, into in made:
                            await session(world, code, db, template,
                                          clicks[r::args.rounds], args, label, backend,
                                          into)
                figures = {label: into.figures() for label, _, _, _, into in made}
                for name, value in figures["now"].items():
                    unit = "count" if name.endswith("refused") else "ms"
                    scale.show(f"coldclick{tag}_{args.tables}_{name}",
                               figures.get("before", {}).get(name), value, unit)
    finally:
        await world.fake.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000, help="live tables")
    parser.add_argument("--clicks", type=int, default=200, help="cold tables clicked")
    parser.add_argument("--rounds", type=int, default=1,
                        help="bot processes of each code, alternated, the clicks shared"
                             " among them (each round clicks tables not clicked before)")
    parser.add_argument("--gap", type=float, default=0.05,
                        help="seconds between a click's answer and the next click")
    parser.add_argument("--settle", type=float, default=0.0,
                        help="seconds between the bot's ready and the first click")
    parser.add_argument("--baseline", default=START,
                        help="the git revision measured beside this checkout ('' for none)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--sqlite-only", action="store_true")
    where.add_argument("--postgres-only", action="store_true")
    parser.add_argument("--profile", default=None,
                        help="a folder for each code's cProfile of its clicks")
    parser.add_argument("--spans", action="store_true",
                        help="print the time of a few calls of the click's path (stderr)")
    parser.add_argument("--pictures-ready", action="store_true",
                        help="the first click waits until the bot's picture processes"
                             " have started")
    parser.add_argument("--each", action="store_true",
                        help="print every click's time (stderr)")
    scale.child_arguments(parser)
    args = parser.parse_args(argv)
    if args.role == "bot":
        asyncio.run(bot_main(args))
        return 0
    args.baseline = args.baseline or None
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())

