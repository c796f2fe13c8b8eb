"""``python bench/faults.py``: what players are owed after a Discord outage, and when
they get it — the bot of this checkout beside BASE's (``--baseline``), in the same run.

Each scenario is one outage length (``--outages``, default 10 s, 60 s and 10 min): the
real bot against the fake Discord, ``--tables`` tables of one person and three
computers (each in its own channel), played until every person has a decision. Then
every REST call of the bot fails (``--status``, default 503: as Discord's incidents,
and the one status discord.py never retries) except interaction callbacks and
webhooks, which Discord's incidents spare; each person answers their decision (a
click: an interaction), the computers play on, and each person's next decision comes
up during the outage. When Discord is back, the bench waits until each table's person
has the DM of that decision and the table's picture is redrawn, at most ``--cap``
seconds (today's code never sends them: it stalls until the next move, hours with the
default turn timer; the cap is printed). Then each person plays ``--after`` more
decisions and the doubled messages are counted (``FakeDiscord.duplicates``).

Printed, one ``NAME VALUE UNIT`` line each, per outage (``outage_<N>s.``), the bot of
this checkout's without a suffix and BASE's with ``_before_<rev>``:

- ``delivery_delay_{p50,p99}_s``: from Discord's return to each thing owed (the DM of
  a person's decision, a table's picture) being accepted by Discord; one not delivered
  within the cap counts as the cap;
- ``dm_delay_{p50,p99}_s`` and ``picture_delay_{p50,p99}_s``: the same of each kind;
- ``undelivered``: things owed still not delivered at the cap;
- ``duplicates``: messages that look doubled (same channel, content and files);
- ``requests_in_outage``: the bot's REST calls that failed during the outage (a bot
  that loops on failures makes thousands);
- ``load_average_{start,end}`` and ``wait_cap_s``.

The scenarios run at once, each in a process of its own (an outage is mostly waiting):
the whole run takes the longest outage plus the cap plus set-up. ``--serial`` runs
them one after another.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BASE = "2b35dd9"
"""Today's code when issue 33 was taken up (session 20's BASE)."""
CODE_FLAG = "--code"
CODE = Path(sys.argv[sys.argv.index(CODE_FLAG) + 1]).resolve() if CODE_FLAG in sys.argv[:-1] \
    else ROOT
"""The checkout whose bot a scenario measures: this one, or ``--code DIR`` (BASE's, in
a git worktree); the fake Discord is always this checkout's (it has the faults)."""
# bench/discord.py is in this folder: it must not shadow the discord package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path[:0] = [str(CODE), str(ROOT / "tests" / "e2e")]

import discord  # noqa: E402
import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import yarl  # noqa: E402
from fakediscord import BotLauncher, ErrorLog, FakeDiscord, FakeMessage, FakeUser  # noqa: E402

MOVES = ("mj:mv:", "mj:dc:")
"""The custom_id prefixes of a decision's move buttons and discard menu."""
READY_WAIT = 120.0
"""How long set-up may take to bring every person a decision."""
POLL = 0.05


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def point_at(fake: FakeDiscord) -> None:
    """discord.py talks to the fake instead of Discord."""
    discord.http.Route.BASE = fake.api_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)


def make_bot(db: Path) -> discord.Client:
    """The measured checkout's bot: computers without a pause, no picture process."""
    from bot.discord.client import MahjongBot
    bot: discord.Client = MahjongBot(database_path=db, computer_pause=0.0,
                                     table_interval=0.05, picture_processes=0)
    return bot


def pending(fake: FakeDiscord, user: FakeUser, clicked: set[int]) -> FakeMessage | None:
    """The person's newest DM, if it offers a decision not yet answered."""
    for message in reversed(fake.dms(user)):
        if message.id in clicked:
            return None
        if any(c.startswith(MOVES) for c in fake.custom_ids(message)):
            return message
    return None


def a_move(fake: FakeDiscord, message: FakeMessage) -> tuple[str, list[str] | None]:
    """Pass when offered, else discard (the suggested tile, or the first), else the
    first move: a hand that goes on."""
    items = fake.components(message)
    buttons = [c.custom_id for c in items if c.custom_id and c.custom_id.startswith(MOVES)
               and not c.options]
    for button in buttons:
        if button.split(":")[5] == "x":
            return button, None
    for c in items:
        if c.custom_id and c.custom_id.startswith("mj:dc:") and c.options:
            starred = [o["value"] for o in c.raw.get("options", []) if o.get("emoji")]
            return c.custom_id, [(starred or list(c.options))[0]]
    return buttons[0], None


@dataclass
class Table:
    """One table: its person, channel and what the outage left owed."""

    person: FakeUser
    channel_id: int
    clicked: set[int] = field(default_factory=set)
    answered_at: float = 0.0
    """When the person answered during the outage (``time.time()``)."""
    dm_at: float | None = None
    picture_at: float | None = None


async def play(fake: FakeDiscord, table: Table) -> bool:
    """The person answers their pending decision, if they have one."""
    message = pending(fake, table.person, table.clicked)
    if message is None:
        return False
    table.clicked.add(message.id)
    custom_id, values = a_move(fake, message)
    if values is None:
        handle = await fake.click(table.person, message, custom_id)
    else:
        handle = await fake.select(table.person, message, custom_id, values)
    await handle.response(timeout=30)
    return True


async def until(what: str, predicate: Any, timeout: float) -> None:
    """Wait (polling) until ``predicate()`` holds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"bench: no {what} within {timeout} s")
        await asyncio.sleep(POLL)


async def open_tables(fake: FakeDiscord, count: int) -> list[Table]:
    """``count`` tables of one person and three computers, each in its own channel."""
    people = [fake.add_user(1000 + i, f"person{i}") for i in range(count)]
    guild = fake.add_guild(900, "Club", members=people,
                           channels=[f"t{i}" for i in range(count)])
    return [Table(p, fake.channel(guild, f"t{i}").id) for i, p in enumerate(people)]


async def start_tables(fake: FakeDiscord, tables: list[Table]) -> None:
    """Each person opens a table, adds three computers and starts it."""
    guild = next(iter(fake.state.guilds.values()))
    for table in tables:
        channel = fake.state.channels[table.channel_id]
        for command, options in (("new", {"rules": "shanghai", "hands": 16}),
                                 ("addbot", {}), ("addbot", {}), ("addbot", {}),
                                 ("start", {})):
            handle = await fake.slash(table.person, guild, channel, "mahjong", command,
                                      options=options)
            await handle.response(timeout=30)


def table_picture_at(fake: FakeDiscord, table: Table) -> float | None:
    """When Discord first took the table's picture after the person answered during
    the outage (its answer lost or not: ``--status lost`` carries calls out)."""
    for request in fake.state.requests:
        if (request.channel_id == table.channel_id and request.time >= table.answered_at
                and (request.status == 200 or request.fault == "lost")
                and any(f.filename.startswith("table-") for f in request.files)):
            return request.finished
    return None


def dm_at(fake: FakeDiscord, table: Table) -> float | None:
    """When the DM of the person's next decision (after the one they answered during
    the outage) was accepted."""
    for message in fake.dms(table.person):
        if message.created_ms / 1000 > table.answered_at and any(
                c.startswith(MOVES) for c in fake.custom_ids(message)):
            return message.created_ms / 1000
    return None


async def scenario(outage: float, count: int, cap: float, status: str, after: int
                   ) -> dict[str, tuple[float, str]]:
    """One outage of ``outage`` seconds; its figures."""
    fake = FakeDiscord()
    await fake.start()
    point_at(fake)
    tables = await open_tables(fake, count)
    launcher = BotLauncher(fake, ErrorLog())
    with tempfile.TemporaryDirectory() as tmp:
        await launcher.start(make_bot(Path(tmp) / "bench.sqlite3"))
        try:
            return await _measured(fake, tables, outage, cap, status, after)
        finally:
            fake.faults.restore()
            for running in launcher.running:
                await running.stop()
            await fake.stop()


async def _measured(fake: FakeDiscord, tables: list[Table], outage: float, cap: float,
                    status: str, after: int) -> dict[str, tuple[float, str]]:
    await start_tables(fake, tables)
    await until("decision for every person", lambda: all(
        pending(fake, t.person, t.clicked) for t in tables), READY_WAIT)
    await asyncio.sleep(0.5)  # the table pictures of the deal drawn and sent
    fake.faults.outage(int(status) if status.isdigit() else status)
    began = time.time()
    for table in tables:
        table.answered_at = time.time()
        await play(fake, table)
    await asyncio.sleep(max(0.0, outage - (time.time() - began)))
    fake.faults.restore(cut=False)  # calls hanging (--status timeout) hang on
    back = fake.faults.returned_at or time.time()
    in_outage = len(fake.faults.injected)

    def delivered() -> bool:
        for table in tables:
            table.dm_at = table.dm_at or dm_at(fake, table)
            table.picture_at = table.picture_at or table_picture_at(fake, table)
        return all(t.dm_at and t.picture_at for t in tables)

    with contextlib.suppress(TimeoutError):
        await until("delivery", delivered, cap)
    delivered()
    def delay(at: float | None) -> float:  # made during the outage ("lost"): 0
        return cap if at is None else max(0.0, min(cap, at - back))

    dms = [delay(t.dm_at) for t in tables]
    pictures = [delay(t.picture_at) for t in tables]
    undelivered = sum(t.dm_at is None for t in tables) + sum(
        t.picture_at is None for t in tables)
    for _ in range(after):
        moved = [await play(fake, t) for t in tables]
        if not any(moved):
            break
        await asyncio.sleep(0.5)
    await asyncio.sleep(1.0)
    return {
        "delivery_delay_p50_s": (percentile(dms + pictures, 0.5), "s"),
        "delivery_delay_p99_s": (percentile(dms + pictures, 0.99), "s"),
        "dm_delay_p50_s": (percentile(dms, 0.5), "s"),
        "dm_delay_p99_s": (percentile(dms, 0.99), "s"),
        "picture_delay_p50_s": (percentile(pictures, 0.5), "s"),
        "picture_delay_p99_s": (percentile(pictures, 0.99), "s"),
        "undelivered": (undelivered, "count"),
        "duplicates": (len(fake.duplicates()), "count"),
        "requests_in_outage": (in_outage, "count"),
        "owed": (2 * len(tables), "count"),
    }


# ------------------------------------------------------------------ the whole run


def label(outage: float) -> str:
    """``outage_10s`` for a 10-second outage."""
    return f"outage_{outage:g}s"


def scenario_command(outage: float, args: argparse.Namespace, code: Path) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "--scenario", f"{outage:g}",
            "--tables", str(args.tables), "--cap", f"{args.cap:g}", "--status", args.status,
            "--after", str(args.after), CODE_FLAG, str(code)]


async def run_all(jobs: list[tuple[str, list[str]]], serial: bool) -> dict[str, str]:
    """Each job's command run (at once unless ``serial``); its output by name."""
    async def one(command: list[str]) -> str:
        child = await asyncio.create_subprocess_exec(
            *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await child.communicate()
        if child.returncode:
            raise SystemExit(f"bench: a scenario failed ({' '.join(command[2:])}):\n"
                             + err.decode()[-3000:])
        return out.decode()

    if serial:
        return {name: await one(command) for name, command in jobs}
    outputs = await asyncio.gather(*(one(command) for _, command in jobs))
    return {name: out for (name, _), out in zip(jobs, outputs, strict=True)}


def worktree(rev: str, where: Path) -> Path:
    """``rev`` checked out (detached) at ``where``."""
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet",
                    str(where), rev], check=True)
    return where


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--outages", default="10,60,600",
                        help="outage lengths in seconds, comma-separated")
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--cap", type=float, default=120.0,
                        help="seconds after Discord's return to wait for what is owed")
    parser.add_argument("--status", default="503",
                        help="what every call fails with: a 5xx, 429, timeout, reset, lost")
    parser.add_argument("--after", type=int, default=3,
                        help="decisions each person plays after the delivery")
    parser.add_argument("--baseline", default=BASE,
                        help="the git revision measured beside this checkout ('' for none)")
    parser.add_argument("--serial", action="store_true")
    parser.add_argument("--scenario", type=float, help=argparse.SUPPRESS)
    parser.add_argument(CODE_FLAG, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.scenario is not None:
        figures = asyncio.run(scenario(args.scenario, args.tables, args.cap, args.status,
                                       args.after))
        for name, (value, unit) in figures.items():
            print(f"{name} {value:.3f} {unit}" if unit == "s" else f"{name} {value} {unit}")
        return 0
    outages = [float(x) for x in args.outages.split(",") if x]
    print(f"load_average_start {os.getloadavg()[0]:.2f} load", flush=True)
    print(f"wait_cap_s {args.cap:g} s", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        tree = worktree(args.baseline, Path(tmp) / "base") if args.baseline else None
        try:
            jobs = [(label(o), scenario_command(o, args, ROOT)) for o in outages]
            if tree is not None:
                jobs += [(f"{label(o)}@base", scenario_command(o, args, tree))
                         for o in outages]
            outputs = asyncio.run(run_all(jobs, args.serial))
        finally:
            if tree is not None:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(tree)], check=True)
    for outage in outages:
        name = label(outage)
        now = _lines(outputs[name])
        before = _lines(outputs.get(f"{name}@base", ""))
        for figure, (shown, unit) in now.items():
            if figure in before:
                print(f"{name}.{figure}_before_{args.baseline} {before[figure][0]} {unit}")
            print(f"{name}.{figure} {shown} {unit}")
    print(f"load_average_end {os.getloadavg()[0]:.2f} load", flush=True)
    return 0


def _lines(out: str) -> dict[str, tuple[str, str]]:
    """The ``NAME VALUE UNIT`` lines of a scenario's output (anything else the bot
    may print left out)."""
    found = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1].replace(".", "", 1).isdigit():
            found[parts[0]] = (parts[1], parts[2])
    return found


if __name__ == "__main__":
    raise SystemExit(main())

