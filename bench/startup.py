"""``python bench/startup.py``: the bot's start-up (login → discord.py's ready) with N
live tables, part by part, this checkout beside another revision's code in the same
run (issue 32: ≤ 2 s whatever the number of live tables); never a timed test.

    python bench/startup.py [--size 100000] [--baseline 978472f] [--starts 3]
                            [--sqlite-only | --postgres-only]

For each database (a SQLite file; PostgreSQL: a fresh database on the tests' server,
``MAHJONG_TEST_POSTGRES``, left out when unset) and each code (the baseline's, from a
git worktree, then this checkout's), the database is made as `bench/scale.py` makes it
(one table opened and dealt by that code's real bot against the fake Discord, its rows
copied to N tables), then the bot of that code starts on it ``--starts`` times, each in
a process of its own (as `bench/scale.py`'s start-up: login, connect, ready). Each start
times its parts (every one that the code has: the store's open, the recovery's
statements, the DMs a crash left unsent, the stats' and ratings' start, the commands'
sync check); each figure is the median of the starts, printed ``NAME BEFORE NOW UNIT``
with the machine's load average.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import inspect
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# bench/discord.py is in this folder: it must not shadow the discord package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(ROOT))
from bench import scale  # noqa: E402  (puts --code's checkout first in a child)

PARTS: dict[str, tuple[str, str]] = {
    "store_open": ("bot.store.store", "Store.open"),
    "setup_hook": ("bot.discord.client", "MahjongBot.setup_hook"),
    "recover": ("bot.service.service", "TableService.recover"),
    "redeliver": ("bot.service.recovery", "Recovery.redeliver"),
    "defer_overdue": ("bot.store.deadlines", "Deadlines.defer_overdue"),
    "count_live": ("bot.store.lobby", "Lobby.count_live"),
    "count_deadlines": ("bot.store.deadlines", "Deadlines.count"),
    "stranded": ("bot.store.deadlines", "Deadlines.stranded"),
    "load_batch": ("bot.service.tables", "LiveTables.load_batch"),
    "resend_dms": ("bot.service.service", "TableService.resend_dms"),
    "owed_dms": ("bot.store.presenter", "Presenter.owed_dms"),
    "start_facts": ("bot.service.service", "TableService.start_facts"),
    "start_ratings": ("bot.service.service", "TableService.start_ratings"),
    "sync": ("bot.discord.client", "MahjongBot.sync"),
    "collector_tune": ("bot.discord.core.collector", "tune"),
}
"""Each part timed: its module and the function's place in it (``Class.method`` or a
module's function; a part a revision does not have is left out)."""


def _timed(spent: dict[str, float], name: str, function: Callable[..., Any]
           ) -> Callable[..., Any]:
    def add(began: float) -> None:
        spent[name] = spent.get(name, 0.0) + time.perf_counter() - began

    if not inspect.iscoroutinefunction(function):
        def timed_call(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                add(began)
        return timed_call

    async def timed(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return await function(*args, **kwargs)
        finally:
            add(began)
    return timed


def instrument(spent: dict[str, float]) -> None:
    """Every part of `PARTS` the measured code has, timed into ``spent``."""
    for name, (module_name, place) in PARTS.items():
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        owner_name, _, attribute = place.rpartition(".")
        owner = getattr(module, owner_name, None) if owner_name else module
        raw = getattr(owner, "__dict__", {}).get(attribute) if owner is not None else None
        if isinstance(raw, classmethod):
            setattr(owner, attribute, classmethod(_timed(spent, name, raw.__func__)))
        elif callable(raw):
            setattr(owner, attribute, _timed(spent, name, raw))


async def bot_main(args: argparse.Namespace) -> None:
    """The child: one start of the measured checkout's bot; prints ``PARTS {json}``."""
    import discord.gateway
    import discord.http
    import yarl
    from fakediscord.runner import GUILD_READY_TIMEOUT

    spent: dict[str, float] = {}
    instrument(spent)
    from bot.discord.client import MahjongBot

    discord.http.Route.BASE = args.api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.gateway)
    bot = MahjongBot(database_path=args.db, computer_pause=0.0, table_interval=2.0,
                     picture_processes=1, service_options={"grace": scale.GRACE})
    bot._connection.guild_ready_timeout = GUILD_READY_TIMEOUT
    began = time.monotonic()
    await bot.login("fake-token")  # the store opened and the live tables recovered
    spent["login"] = time.monotonic() - began
    connection = asyncio.create_task(bot.connect(reconnect=False))
    await asyncio.wait_for(bot.wait_until_ready(), scale.READY_TIMEOUT)
    spent["startup"] = time.monotonic() - began
    spent["connect_to_ready"] = spent["startup"] - spent["login"]
    print("PARTS", json.dumps(spent), flush=True)
    await bot.close()
    await asyncio.wait_for(connection, 30)


async def one_start(world: scale.World, code: Path, db: scale.Db) -> dict[str, float]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(Path(__file__).resolve()), "--role", "bot", "--code",
        str(code), "--db", db.target, "--api", world.fake.api_url, "--gateway",
        world.fake.gateway_url, stdout=asyncio.subprocess.PIPE, cwd=code)
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), scale.READY_TIMEOUT)
    await asyncio.wait_for(proc.wait(), 60)
    words = line.decode().split(maxsplit=1)
    if not words or words[0] != "PARTS":
        raise RuntimeError(f"the bot's process said {line!r}")
    parts: dict[str, float] = json.loads(words[1])
    return parts


async def measure(world: scale.World, code: Path, backend: str, folder: Path,
                  args: argparse.Namespace) -> dict[str, float]:
    """The median of each part over ``--starts`` starts of ``code`` on its own database."""
    label = "now" if code == ROOT else "before"
    async with scale.database(backend, folder, f"startup_{label}_n{args.size}") as db:
        template = await world.template(code, db)
        await scale.copy_tables(db, template, args.size - 1)
        starts = [await one_start(world, code, db) for _ in range(args.starts)]
    names = {name for start in starts for name in start}
    return {name: statistics.median(s.get(name, 0.0) for s in starts) for name in names}


async def run(args: argparse.Namespace) -> None:
    backends = scale.backends_of(args)
    world = scale.World()
    await world.start()
    try:
        with scale.contextmanager_or_none(args.baseline) as old_code, \
                tempfile.TemporaryDirectory() as tmp:
            for backend in backends:
                tag = "" if backend == "sqlite" else "_postgres"
                before = await measure(world, old_code, backend, Path(tmp), args) \
                    if old_code is not None else {}
                now = await measure(world, ROOT, backend, Path(tmp), args)
                order = ["startup", "login", "connect_to_ready", *PARTS]
                for name in order:
                    if name in before or name in now:
                        scale.show(f"startup{tag}_{args.size}_{name}", before.get(name),
                                   now.get(name), "s")
    finally:
        await world.fake.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000, help="live tables")
    parser.add_argument("--baseline", default="978472f",
                        help="the git revision measured beside this checkout ('' for none)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--sqlite-only", action="store_true")
    where.add_argument("--postgres-only", action="store_true")
    parser.add_argument("--starts", type=int, default=3, help="starts of each code")
    scale.child_arguments(parser)
    args = parser.parse_args(argv)
    if args.role == "bot":
        asyncio.run(bot_main(args))
        return 0
    args.baseline = args.baseline or None
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
