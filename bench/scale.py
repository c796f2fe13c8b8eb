"""``python bench/scale.py``: what live tables and finished hands cost one bot process
(issue 32), this checkout beside BASE's code in the same run; never a timed test.

    python bench/scale.py [--sizes 1000,10000,100000] [--baseline 2b35dd9]
                          [--baseline-sizes …] [--sqlite-only | --postgres-only]
                          [--clicks 60] [--deadlines 40] [--hands 20] [--no-floor]
                          [--floor-rounds 3] [--floor-only]

For each database (a SQLite file; PostgreSQL: a fresh database on the tests' server,
``MAHJONG_TEST_POSTGRES``, left out when unset), each size N and each code (BASE's, from
a git worktree, then this checkout's):

1. **N live tables.** The real bot of that code, in a child process, against this
   bench's fake Discord (in this process), opens one table of four people as people do
   (`playkit.open_table`) and deals its first hand: the dealer's decision DM is out.
   The bot stops; the table's rows are copied N − 1 times in SQL (`copy_tables`: every
   table whose rows belong to a game table, found from the schema's foreign keys, each
   copy's ids and people moved by a stride), so 100,000 tables take seconds, not a
   hundred thousand games.
2. **Start-up.** The bot starts again on that database (its own process: RSS is the bot's,
   discord.py included, its picture process apart): ``startup_s`` from its login (the
   store opened, migrations checked, the live tables recovered) to discord.py's ready.
3. **Cold clicks.** Once the bot's picture processes have started
   (``pictures_ready_s`` after discord.py's ready: until then the bot draws in threads
   of its own and every click of those seconds waits for them, a start-up's cost that
   ``--click-at-ready`` measures instead), ``--clicks`` tables the process has not
   touched are clicked, one after the other, each by its dealer on its decision DM (a
   discard from the menu the first table's DM showed, its table id changed; that DM is
   the one the seat the database says decides was sent by that bot, `World.template`):
   ``cold_click_p99_ms`` from the click sent to the bot's first response reaching the
   fake Discord; ``cold_click_refused`` the clicks not answered with their move. A
   refused click is printed (what it was told, the hand's log) and, once the size's
   clicks are done, stops the bench with exit status 1 (`ClicksRefused`): its figures
   would time refusals, not moves.
4. **Deadlines.** ``--deadlines`` other tables have their dealer's deadline set (before
   the start) to come ``--deadline-lead`` (20) to 30 s after it;
   ``deadline_late_p99_s`` is how late each timer's move was stored after its deadline
   (read from the database's action rows); ``deadline_missed`` those not played 60 s
   after their moment (the bot runs with a restart grace of `GRACE` s, not 120: a
   start-up defers every deadline due sooner).
5. **Memory.** ``rss_ready_mib``: the bot process's resident memory when discord.py is
   ready; ``rss_peak_mib``: its peak (VmHWM) over the run; ``rss_mib``: at the end, once
   its background start-up work (BASE's ``warm``, which replays every live table) is
   done or ``--warm-cap`` seconds passed (``warm_done`` 0: still warming, the RSS a
   lower bound).

Then ``bytes_per_hand``: database bytes per finished hand (`bench/hand_bytes.py`'s
measure, `bot.store.footprint`), each code, each database; and unless ``--no-floor``
the click bench's ratio to discord.py's floor: `bench/discord.py --mode split`
(``--baseline`` too) and `bench/floor.py` with the same players and clicks, the bot's
CPU per click of each over the floor's, in ``--floor-rounds`` (3) rounds of the bench
then the floor (each round's figures, the ratio pooled over the rounds,
``click_floor_ratio``, and the median of the rounds' ratios); ``--floor-only`` measures
that alone (its last line ``{"click_floor_ratio"}``).

Each figure is printed ``NAME BEFORE NOW UNIT`` (``-`` where a code was not run at that
size) with the machine's load average beside it; the last line is one JSON object for
this checkout's code, SQLite's figures (PostgreSQL's with ``--postgres-only``):
``{"live_tables": {N: {"rss_mib", "startup_s", "cold_click_p99_ms",
"deadline_late_p99_s"}}, "bytes_per_hand", "click_floor_ratio"}`` (the last without
``--no-floor``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CODE = Path(sys.argv[sys.argv.index("--code") + 1]).resolve() if "--code" in sys.argv[:-1] \
    else ROOT
"""The checkout whose bot a child process runs (``--code``); this one in the parent."""
# bench/discord.py is in this folder: it must not shadow the discord package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(ROOT))
from bench.baseline import use_bot_checkout  # noqa: E402  (this checkout's, before CODE's)

use_bot_checkout(CODE)

BASE = "2b35dd9"
"""Today's code when issue 32 was taken up (DESIGN20.md's BASE)."""
ENV_URL = "MAHJONG_TEST_POSTGRES"
PEOPLE = 10_000_000
"""The first table's four people are PEOPLE … PEOPLE + 3; copy k's, PEOPLE + 4k + i."""
ID_COLUMNS = {"table_id": "game_tables", "match_id": "matches", "hand_id": "hands"}
"""Columns that hold a row's id without a declared foreign key (facts, say)."""
USER_COLUMNS = ("user_id", "creator_id", "reply_user_id")
"""Columns that hold a person's id: each copy's people are its own."""
UNIQUE_TEXT = ("key",)
"""Text columns unique across tables (an announcement's key): each copy's marked."""
PER_PERSON = ("people", "user_locales")
"""A person's own rows, copied with each copy's people."""
DEADLINE_LEAD = 20.0
"""Seconds from the bot's start to the first measured deadline."""
DEADLINE_SPREAD = 10.0
"""Seconds over which the measured deadlines come, evenly."""
DEADLINE_MISSED = 60.0
"""A deadline not played this long after its moment is counted missed."""
READY_TIMEOUT = 900.0
GRACE = 2.0
PICTURES_CAP = 300.0
"""Seconds the clicks wait at most for the bot's picture processes (`_pictures_started`)."""
"""The bot's restart grace (seconds; 120 by default): a start-up moves every deadline
due sooner than that to it, the measured ones included."""


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank); NaN for none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


# ------------------------------------------------------------------ the bot's process


def _rss() -> tuple[int, int]:
    """This process's resident memory now and at its peak (bytes)."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) * 1024
    return fields["VmRSS"], fields["VmHWM"]


async def _pictures_started(bot: Any, cap: float) -> None:
    """Until every picture process of ``bot`` has started (or the loop's clock reaches
    ``cap``): the bot starts them beside its start-up and, meanwhile, draws in threads
    of its own process (`bot.discord.core.pictures`)."""
    loop = asyncio.get_running_loop()
    while loop.time() < cap:
        pools = list(getattr(bot.pictures, "_pools", {}).values())
        if pools and all(pool.ready() for pool in pools):
            return
        await asyncio.sleep(0.05)


async def bot_main(args: argparse.Namespace) -> None:
    """The child: the measured checkout's bot against the fake Discord at ``--api`` /
    ``--gateway`` on database ``--db``; one word a line on stdout (READY seconds, RSS,
    WARM, STOPPED), orders on stdin (RSS, WARM cap, STOP)."""
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

    async def hear() -> list[str]:
        line: str = await loop.run_in_executor(None, sys.stdin.readline)
        return line.split() or ["STOP"]

    bot = MahjongBot(database_path=args.db, computer_pause=0.0, table_interval=2.0,
                     picture_processes=1, service_options={"grace": GRACE})
    bot._connection.guild_ready_timeout = GUILD_READY_TIMEOUT
    began = time.monotonic()
    await bot.login("fake-token")  # the store opened and the live tables recovered
    connection = asyncio.create_task(bot.connect(reconnect=False))
    await asyncio.wait_for(bot.wait_until_ready(), READY_TIMEOUT)
    ready = time.monotonic()
    say("READY", ready - began, _rss()[0])
    while True:
        order = await hear()
        if order[0] == "RSS":
            say("RSS", *_rss())
        elif order[0] == "PICTURES":
            await _pictures_started(bot, loop.time() + float(order[1]))
            say("PICTURES", time.monotonic() - ready)
        elif order[0] == "WARM":  # BASE warmed every live table after its start-up
            cap = loop.time() + float(order[1])
            while any(t.get_name().startswith("mahjong-warm") for t in asyncio.all_tasks()):
                if loop.time() > cap:
                    break
                await asyncio.sleep(0.2)
            warming = any(t.get_name().startswith("mahjong-warm")
                          for t in asyncio.all_tasks())
            say("WARM", 0 if warming else 1)
        else:
            await bot.close()
            await asyncio.wait_for(connection, 30)
            say("STOPPED")
            return


class BotProcess:
    """A bot child (`bot_main`) seen from the bench."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def start(cls, code: Path, db: str, api: str, gateway: str) -> BotProcess:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(Path(__file__).resolve()), "--role", "bot", "--code",
            str(code), "--db", db, "--api", api, "--gateway", gateway,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=code)
        return cls(proc)

    async def hear(self, expected: str, timeout: float = READY_TIMEOUT) -> list[str]:
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        words = line.decode().split()
        if not words or words[0] != expected:
            raise RuntimeError(f"the bot's process said {words!r}, not {expected}")
        return words[1:]

    async def ask(self, order: str, answer: str, timeout: float = READY_TIMEOUT
                  ) -> list[str]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{order}\n".encode())
        await self.proc.stdin.drain()
        return await self.hear(answer, timeout)

    async def stop(self) -> None:
        try:
            await self.ask("STOP", "STOPPED", 60)
        finally:
            if self.proc.returncode is None:
                try:
                    await asyncio.wait_for(self.proc.wait(), 30)
                except TimeoutError:
                    self.proc.kill()
                    await self.proc.wait()


# ------------------------------------------------------------------ databases


class Db:
    """A database the bench fills and reads (SQLite file or PostgreSQL URL)."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.postgres = target.startswith(("postgres://", "postgresql://"))

    async def rows(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        if self.postgres:
            import asyncpg
            conn = await asyncpg.connect(self.target)
            try:
                return [tuple(r) for r in await conn.fetch(_pg(sql), *params)]
            finally:
                await conn.close()
        with _sqlite(self.target) as conn:
            return list(conn.execute(sql, params).fetchall())

    async def script(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        """Statements in one transaction."""
        if self.postgres:
            import asyncpg
            conn = await asyncpg.connect(self.target)
            try:
                async with conn.transaction():
                    for sql, params in statements:
                        await conn.execute(_pg(sql), *params)
            finally:
                await conn.close()
            return
        with _sqlite(self.target) as conn:
            conn.execute("BEGIN IMMEDIATE")
            for sql, params in statements:
                conn.execute(sql, params)
            conn.execute("COMMIT")

    async def schema(self) -> tuple[dict[str, list[str]], dict[str, dict[str, str]]]:
        """Each table's columns, and its foreign keys (column → table referred to)."""
        columns: dict[str, list[str]] = {}
        keys: dict[str, dict[str, str]] = {}
        if self.postgres:
            for table, column in await self.rows(
                    "SELECT table_name, column_name FROM information_schema.columns"
                    " WHERE table_schema = current_schema() ORDER BY ordinal_position"):
                columns.setdefault(table, []).append(column)
            for table, column, other in await self.rows(
                    "SELECT tc.table_name, kcu.column_name, ccu.table_name"
                    " FROM information_schema.table_constraints tc"
                    " JOIN information_schema.key_column_usage kcu"
                    " ON tc.constraint_name = kcu.constraint_name"
                    " AND tc.table_schema = kcu.table_schema"
                    " JOIN information_schema.constraint_column_usage ccu"
                    " ON ccu.constraint_name = tc.constraint_name"
                    " AND ccu.table_schema = tc.table_schema"
                    " WHERE tc.constraint_type = 'FOREIGN KEY'"
                    " AND tc.table_schema = current_schema()"):
                keys.setdefault(table, {})[column] = other
            return columns, keys
        names = [r[0] for r in await self.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%'")]
        for name in names:
            columns[name] = [r[1] for r in await self.rows(f"PRAGMA table_info({name})")]
            keys[name] = {r[3]: r[2] for r in await self.rows(
                f"PRAGMA foreign_key_list({name})")}
        return columns, keys


def _pg(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$n``."""
    parts = sql.split("?")
    return parts[0] + "".join(f"${n}{part}" for n, part in enumerate(parts[1:], 1))


@contextmanager
def _sqlite(path: str) -> Any:
    conn = sqlite3.connect(path, isolation_level=None, timeout=30)
    try:
        yield conn
    finally:
        conn.close()


@dataclass
class Template:
    """The first table as its bot left it: ids and the dealer's decision DM."""

    table_id: int
    hand_id: int
    seq: int
    """The hand's last action's seq (0: none yet)."""
    dealer: int
    """The dealer's person id."""
    content: str
    components: list[Any]
    custom_id: str
    values: list[str] | None
    strides: dict[str, int] = field(default_factory=dict)
    """Each copied table's id stride (its largest id in the first table's rows)."""


def owned_tables(columns: dict[str, list[str]], keys: dict[str, dict[str, str]]
                 ) -> list[str]:
    """The tables whose rows belong to a game table (through foreign keys, or the id
    columns of `ID_COLUMNS`), parents first."""
    depth = {"game_tables": 0}
    changed = True
    while changed:
        changed = False
        for table, cols in columns.items():
            refs = set(keys.get(table, {}).values()) | {
                ID_COLUMNS[c] for c in cols if c in ID_COLUMNS}
            known = [depth[r] for r in refs if r in depth and r != table]
            if known and depth.get(table, -1) < 1 + max(known):
                depth[table] = 1 + max(known)
                changed = True
    return sorted(depth, key=lambda t: (depth[t], t))


async def copy_tables(db: Db, template: Template, copies: int) -> None:
    """The first table's rows copied ``copies`` times: copy k's ids are the first's plus
    k times each table's stride, its people `PEOPLE` + 4k + seat."""
    columns, keys = await db.schema()
    owned = owned_tables(columns, keys)
    for table in owned:
        if "id" in columns[table]:
            top = (await db.rows(f"SELECT MAX(id) FROM {table}"))[0][0]
            template.strides[table] = int(top or 0) or 1
    count = (await db.rows("SELECT COUNT(*) FROM game_tables"))[0][0]
    if count != 1:
        raise RuntimeError(f"the template database holds {count} tables, not one")

    def expression(table: str, column: str) -> str:
        ref = table if column == "id" else (keys.get(table, {}).get(column)
                                            or ID_COLUMNS.get(column))
        if ref in template.strides:
            return f"{column} + k * {template.strides[ref]}"
        if column in USER_COLUMNS:
            return f"{column} + k * 4"
        if column in UNIQUE_TEXT:
            return f"{column} || '#' || k"
        return column

    numbers = ("(SELECT generate_series(1, ?) AS k) AS copies" if db.postgres
               else "copies")
    statements: list[tuple[str, tuple[Any, ...]]] = []
    if not db.postgres:
        statements += [("CREATE TEMP TABLE copies (k INTEGER PRIMARY KEY)", ()),
                       ("WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n"
                        " WHERE k < ?) INSERT INTO copies SELECT k FROM n", (copies,))]
    for table in [*owned, *(t for t in PER_PERSON if t in columns)]:
        names = columns[table]
        exprs = ", ".join(expression(table, c) for c in names)
        statements.append((f"INSERT INTO {table} ({', '.join(names)}) SELECT {exprs}"
                           f" FROM {table}, {numbers}",
                           (copies,) if db.postgres else ()))
    if db.postgres:
        statements += [(f"SELECT setval(pg_get_serial_sequence('{t}', 'id'),"
                        f" (SELECT MAX(id) FROM {t}))", ())
                       for t in template.strides if t in owned]
    await db.script(statements)
    if db.postgres:
        await db.rows("ANALYZE")


async def set_deadlines(db: Db, template: Template, tables: list[int], first: float,
                        spread: float) -> dict[int, float]:
    """The dealer's deadline of copies ``tables`` due from ``first`` over ``spread``
    seconds (its reminder taken as sent, no warning, no time bank); hand id → moment."""
    columns, _ = await db.schema()
    due: dict[int, float] = {}
    statements: list[tuple[str, tuple[Any, ...]]] = []
    stride = template.strides["hands"]
    for n, k in enumerate(tables):
        hand = template.hand_id + k * stride
        at = first + spread * n / max(1, len(tables))
        due[hand] = at
        sets = ["due_at = ?", "set_at = ?", "reminded_at = ?"]
        params: list[Any] = [at, at - 120.0, at - 60.0]
        for extra in ("timer_at", "warn_at", "warned_at"):
            if extra in columns["deadlines"]:
                sets.append(f"{extra} = NULL")
        statements.append((f"UPDATE deadlines SET {', '.join(sets)} WHERE hand_id = ?",
                           (*params, hand)))
        if "time_banks" in columns:
            statements.append(("DELETE FROM time_banks WHERE hand_id = ?", (hand,)))
    await db.script(statements)
    return due


@asynccontextmanager
async def database(backend: str, folder: Path, name: str) -> AsyncIterator[Db]:
    """A fresh database: a SQLite file in ``folder``, or a new PostgreSQL database."""
    if backend == "sqlite":  # a size measured twice must not find the first's tables
        yield Db(str(folder / f"{name}_{uuid.uuid4().hex[:8]}.sqlite3"))
        return
    from tests.pgcluster import create_database, drop_database

    url = os.environ[ENV_URL]
    dbname = f"scale_{name}_{uuid.uuid4().hex[:8]}"
    target = await create_database(url, dbname)
    try:
        yield Db(target)
    finally:
        await drop_database(url, dbname)


# ------------------------------------------------------------------ one size, one code


def _retabled(value: Any, old: int, new: int) -> Any:
    """A DM's components with the table id in their custom ids changed."""
    if isinstance(value, dict):
        return {k: _retabled(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_retabled(v, old, new) for v in value]
    if isinstance(value, str) and value.startswith("mj:"):
        parts = value.split(":")
        if len(parts) > 2 and parts[2] == str(old):
            parts[2] = str(new)
        return ":".join(parts)
    return value


def template_move(dms: list[tuple[Any, tuple[str, list[str] | None] | None]], table: int,
                  number: int, seat: int) -> tuple[Any, tuple[str, list[str] | None]] | None:
    """The newest of ``dms`` (message, the move `playkit.choose` found on it) whose move
    is table ``table``'s, hand ``number``'s, seat ``seat``'s (custom ids
    ``mj:…:{table}:{hand_number}:p{step}…[:s{seat}]``); None: no such DM."""
    for message, move in reversed(dms):
        if move is None:
            continue
        parts = move[0].split(":")
        marked = parts[-1] if len(parts) > 5 and re.fullmatch(r"s[0-3]", parts[-1]) \
            else None  # ids made before a move carried its seat have none
        if len(parts) > 3 and parts[2] == str(table) and parts[3] == str(number) \
                and marked in (None, f"s{seat}"):
            return message, move
    return None


class World:
    """This bench's fake Discord: one server, one channel, the people of the tables the
    bench clicks or times (the others' people need not exist: nothing happens there)."""

    def __init__(self) -> None:
        from fakediscord import FakeDiscord
        self.fake = FakeDiscord()
        self.guild: Any = None
        self.channel: Any = None
        self.made = 0

    async def start(self) -> None:
        await self.fake.start()
        self.guild = self.fake.add_guild(900, "Club", members=[], channels=["lobby"])

    def person(self, user_id: int) -> Any:
        user = self.fake.state.users.get(user_id)
        if user is None:
            user = self.fake.add_user(user_id, f"p{user_id - PEOPLE}")
            self.fake.add_member(self.guild, user)
        return user

    async def template(self, code: Path, db: Db) -> Template:
        """The first table, opened and dealt by ``code``'s bot on ``db``, and the decision
        DM its deciding seat was sent.

        Every template is opened by the same four people (each copy's people are theirs
        moved by a stride), so their DMs hold the earlier templates' too, decisions of
        another table 1 that look the same: only this bot's DMs are looked at, and only
        the DM of the seat the database says decides (its one deadline), for this hand
        (`template_move`)."""
        from playkit import World as Players
        from playkit import choose, open_table
        people = [self.person(PEOPLE + i) for i in range(4)]
        before = {user.id: len(self.fake.dms(user)) for user in people}
        self.made += 1  # a channel of its own: the lobby found is this table's
        self.channel = self.fake.add_channel(self.guild, f"tables-{self.made}")
        bot = await BotProcess.start(code, db.target, self.fake.api_url,
                                     self.fake.gateway_url)

        def sent(user: Any) -> list[Any]:  # this bot's DMs to ``user``
            return self.fake.dms(user)[before[user.id]:]

        try:
            await bot.hear("READY")
            await open_table(Players(self.fake, self.guild, self.channel, people,
                                     self.person(PEOPLE - 1)), hands=16)
            await self.fake.wait_for(
                lambda: any(m.components and choose(self.fake, m)
                            for user in people for m in sent(user)), 120, "the first DM")
            await self.fake.settle(quiet=1.0, timeout=60)
        finally:
            await bot.stop()
        table, hand, number = (await db.rows(
            "SELECT t.id, h.id, h.number FROM game_tables t JOIN matches m"
            " ON m.table_id = t.id JOIN hands h ON h.match_id = m.id"
            " WHERE h.status = 'live'"))[0]
        deciding = await db.rows("SELECT d.seat, s.user_id FROM deadlines d JOIN seats s"
                                 " ON s.seat = d.seat AND s.table_id = ? WHERE d.hand_id = ?",
                                 table, hand)
        seq = (await db.rows("SELECT MAX(seq) FROM actions WHERE hand_id = ?", hand))[0][0]
        if len(deciding) != 1:
            raise RuntimeError(f"the first table's hand has {len(deciding)} deciding seats"
                               f" (its deadlines), not one: no single decision to copy")
        seat, user_id = int(deciding[0][0]), int(deciding[0][1])
        user = self.person(user_id)
        found = template_move([(m, choose(self.fake, m)) for m in sent(user)
                               if m.components], int(table), int(number), seat)
        if found is None:
            raise RuntimeError(f"no decision DM of table {table}, hand {number}, seat"
                               f" {seat + 1} reached its player {user_id}")
        message, (custom_id, values) = found
        payload = message.payload(self.fake.state.base_url)
        return Template(int(table), int(hand), int(seq or 0), user.id,
                        payload.get("content") or "", payload.get("components") or [],
                        custom_id, values)

    async def click(self, template: Template, k: int) -> tuple[float, bool]:
        """Copy k's dealer clicks its decision: seconds to the first response, and
        whether it was the move (the clicked DM edited, or acknowledged to be)."""
        table = template.table_id + k * template.strides["game_tables"]
        user = self.person(template.dealer + 4 * k)
        for seat in range(4):  # the table's other people, for the DMs that follow
            self.person(PEOPLE + 4 * k + seat)
        channel = self.fake.state.dm_channel(user.id)
        body = {"content": template.content,
                "components": _retabled(template.components, template.table_id, table)}
        message = self.fake.state.create_message(channel.id, body, [])
        custom_id = _retabled(template.custom_id, template.table_id, table)
        began = time.monotonic()
        if template.values is None:
            handle = await self.fake.click(user, message, custom_id)
        else:
            handle = await self.fake.select(user, message, custom_id, template.values)
        response = await handle.response(timeout=60)
        took = time.monotonic() - began
        moved = response.type in (6, 7)
        if not moved:  # what it was told instead, for whoever reads the run
            text = response.message.content if response.message is not None else ""
            print(f"cold click on table {table}: answer type {response.type}: {text!r}",
                  file=sys.stderr, flush=True)
        return took, moved


@dataclass
class Figures:
    rss_mib: float
    startup_s: float
    cold_click_p99_ms: float
    deadline_late_p99_s: float
    cold_click_median_ms: float = 0.0
    cold_click_refused: int = 0
    deadline_missed: int = 0
    warm_done: int = 1
    make_s: float = 0.0
    rss_ready_mib: float = 0.0
    rss_peak_mib: float = 0.0
    pictures_ready_s: float = float("nan")

    def lines(self) -> dict[str, tuple[float, str]]:
        return {"rss_mib": (self.rss_mib, "MiB"), "rss_ready_mib": (self.rss_ready_mib, "MiB"),
                "rss_peak_mib": (self.rss_peak_mib, "MiB"),
                "pictures_ready_s": (self.pictures_ready_s, "s"),
                "startup_s": (self.startup_s, "s"),
                "cold_click_median_ms": (self.cold_click_median_ms, "ms"),
                "cold_click_p99_ms": (self.cold_click_p99_ms, "ms"),
                "cold_click_refused": (self.cold_click_refused, "count"),
                "deadline_late_p99_s": (self.deadline_late_p99_s, "s"),
                "deadline_missed": (self.deadline_missed, "count"),
                "warm_done": (self.warm_done, "1"), "make_s": (self.make_s, "s")}


def _sample(clicks: int, deadlines: int, among: int) -> tuple[list[int], list[int]]:
    """Copies to click and copies to time, apart, spread evenly over 1 … ``among``; when
    there are fewer copies than both want, each gets its share (at least one of each
    wanted, from two copies on)."""
    total = min(clicks + deadlines, among)
    timed_count = deadlines
    if total < clicks + deadlines:
        timed_count = round(total * deadlines / (clicks + deadlines))
        if deadlines and total > 1:
            timed_count = max(1, timed_count)
        if clicks and total > 1:
            timed_count = min(total - 1, timed_count)
    points = sorted({1 + i * among // total for i in range(total)}) if total else []
    timed = [points[(2 * i + 1) * len(points) // (2 * timed_count)]
             for i in range(min(timed_count, len(points)))]
    return [k for k in points if k not in set(timed)][:clicks], timed


class ClicksRefused(RuntimeError):
    """Cold clicks answered with something else than their move: the bench's figures
    would not be of moves, so it stops (each refusal was printed as it came)."""


async def measure_size(world: World, code: Path, backend: str, folder: Path, size: int,
                       args: argparse.Namespace) -> Figures:
    """One code at one size on one database (`Figures`)."""
    label = "now" if code == ROOT else "before"
    async with database(backend, folder, f"{label}_n{size}") as db:
        began = time.monotonic()
        template = await world.template(code, db)
        await copy_tables(db, template, size - 1)
        clicked, timed = _sample(args.clicks, args.deadlines, size - 1)
        first = time.time() + args.deadline_lead
        due = await set_deadlines(db, template, timed, first, DEADLINE_SPREAD)
        made = time.monotonic() - began
        for k in timed:  # their people, for the DMs after the timer's move
            for seat in range(4):
                world.person(PEOPLE + 4 * k + seat)
        bot = await BotProcess.start(code, db.target, world.fake.api_url,
                                     world.fake.gateway_url)
        try:
            startup, ready_rss = map(float, await bot.hear("READY"))
            pictures = float("nan")
            if not args.click_at_ready:
                pictures = float((await bot.ask(f"PICTURES {PICTURES_CAP}", "PICTURES"))[0])
            took, refused = [], 0
            for k in clicked:
                seconds, moved = await world.click(template, k)
                took.append(seconds)
                refused += not moved
                if not moved:  # what the table's log holds, beside the first table's
                    hand = template.hand_id + k * template.strides["hands"]
                    log = await db.rows("SELECT seq, seat, kind, payload, source FROM"
                                        " actions WHERE hand_id = ? ORDER BY seq", hand)
                    deciding = await db.rows("SELECT seat, seq, kind FROM deadlines WHERE"
                                             " hand_id = ? ORDER BY seat", hand)
                    print(f"  its log: {log}; its deadlines (seat, seq, kind): {deciding};"
                          f" the first table's last seq {template.seq}, its move"
                          f" {template.custom_id} {template.values}",
                          file=sys.stderr, flush=True)
                await asyncio.sleep(0.02)
            lateness = await _deadlines(db, due, template.seq)
            warmed = int((await bot.ask(f"WARM {args.warm_cap}", "WARM"))[0])
            rss, peak = map(int, await bot.ask("RSS", "RSS"))
        finally:
            await bot.stop()
    if refused:
        raise ClicksRefused(f"{refused} of {len(clicked)} cold clicks were refused"
                            f" ({label}'s code, {backend}, {size} tables): see above")
    late = sorted(lateness.values())
    return Figures(rss / 2**20, startup, percentile(took, 0.99) * 1000,
                   percentile(late, 0.99) if late else float("nan"),
                   cold_click_median_ms=percentile(took, 0.5) * 1000,
                   cold_click_refused=refused,
                   deadline_missed=len(due) - len(lateness), warm_done=warmed, make_s=made,
                   rss_ready_mib=ready_rss / 2**20, rss_peak_mib=peak / 2**20,
                   pictures_ready_s=pictures)


async def _deadlines(db: Db, due: dict[int, float], seq: int) -> dict[int, float]:
    """How late each timed table's timer move was stored (hand id → seconds), waiting
    until each is played or `DEADLINE_MISSED` after the last moment."""
    if not due:
        return {}
    last = max(due.values()) + DEADLINE_MISSED
    marks = ", ".join("?" * len(due))
    found: dict[int, float] = {}
    while True:
        rows = await db.rows(f"SELECT hand_id, MIN(at) FROM actions WHERE seq > ?"
                             f" AND hand_id IN ({marks}) GROUP BY hand_id", seq, *due)
        found = {int(h): float(at) - due[int(h)] for h, at in rows}
        if len(found) == len(due) or time.time() > last:
            return found
        await asyncio.sleep(0.5)


# ------------------------------------------------------------------ the whole run


@contextmanager
def worktree(rev: str) -> Any:
    """Git revision ``rev`` checked out in a temporary worktree (removed after)."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet",
                        str(tree), rev], check=True)
        try:
            yield tree
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(tree)], check=True)


def show(name: str, before: float | None, now: float | None, unit: str) -> None:
    def text(value: float | None) -> str:
        if value is None:
            return "-"
        return f"{value:.0f}" if unit == "count" else f"{value:.3g}" if abs(value) < 10 \
            else f"{value:.1f}"
    print(f"{name} {text(before)} {text(now)} {unit} load {load()}", flush=True)


def _run_figures(command: list[str]) -> dict[str, float]:
    done = subprocess.run([sys.executable, *command], cwd=ROOT, capture_output=True,
                          text=True)
    if done.returncode:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-3000:]}")
    out = {}
    for line in done.stdout.splitlines():
        words = line.split()
        if len(words) >= 2:
            with suppress(ValueError):
                out[words[0]] = float(words[1])
    return out


def floor_ratio(baseline: str | None, tables: int, clicks: int, rounds: int = 1) -> float:
    """The click bench's bot CPU per click over discord.py's floor, same players, in
    ``rounds`` rounds: each runs the bench (BASE's bot, then this checkout's) and then the
    floor, so that the machine's drift (the floor alone moved by a third between runs on
    2026-12-06) falls on both sides of each round's ratio. Printed: each round's figures
    (``click_round_K_*``), then the ratio pooled over the rounds (the CPU of every round's
    clicks over every round's floor: ``click_floor_ratio``) and the median of the rounds'
    ratios (``click_floor_ratio_median``)."""
    common = ["--tables", str(tables), "--clicks", str(clicks), "--think", "0"]
    old: list[float] = []
    now: list[float] = []
    floor: list[float] = []
    for k in range(1, rounds + 1):
        bench = _run_figures(["bench/discord.py", "--mode", "split", *common,
                              *(["--baseline", baseline] if baseline else [])])
        floors = _run_figures(["bench/floor.py", "--players", str(tables), "--clicks",
                               str(clicks)])
        floor.append(floors["bot_cpu_ms_per_click"])
        now.append(bench["bot_cpu_ms_per_click"])
        was = bench.get(f"bot_cpu_ms_per_click_before_{baseline}")
        if was is not None:
            old.append(was)
        if rounds > 1:
            show(f"click_round_{k}_bot_cpu_ms", was, now[-1], "ms")
            show(f"click_round_{k}_floor_cpu_ms", None, floor[-1], "ms")
            show(f"click_round_{k}_floor_ratio", was / floor[-1] if was else None,
                 now[-1] / floor[-1], "x")
    show("click_bot_cpu_ms", statistics.mean(old) if old else None, statistics.mean(now),
         "ms")
    show("click_floor_cpu_ms", None, statistics.mean(floor), "ms")
    show("click_floor_ratio", sum(old) / sum(floor) if old else None,
         sum(now) / sum(floor), "x")
    if rounds > 1:
        show("click_floor_ratio_median",
             statistics.median(o / f for o, f in zip(old, floor, strict=True)) if old
             else None, statistics.median(n / f for n, f in zip(now, floor, strict=True)),
             "x")
    return sum(now) / sum(floor)


def backends_of(args: argparse.Namespace) -> list[str]:
    """The databases a run measures: SQLite unless ``--postgres-only``, PostgreSQL
    unless ``--sqlite-only`` or no server is given (`ENV_URL`)."""
    return [b for b in ("sqlite", "postgres")
            if not (b == "sqlite" and args.postgres_only)
            and not (b == "postgres" and (args.sqlite_only or not os.environ.get(ENV_URL)))]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from bench import hand_bytes
    backends = backends_of(args)
    sizes = [int(s) for s in args.sizes.split(",")]
    old_sizes = {int(s) for s in (args.baseline_sizes or args.sizes).split(",")}
    result: dict[str, Any] = {"live_tables": {}, "bytes_per_hand": None}
    main_backend = backends[0]
    world = World()
    await world.start()
    try:
        with contextmanager_or_none(args.baseline) as old_code, \
                tempfile.TemporaryDirectory() as tmp:
            for backend in backends:
                tag = "" if backend == "sqlite" else "_postgres"
                for size in sizes:
                    before = None
                    if old_code is not None and size in old_sizes:
                        before = await measure_size(world, old_code, backend, Path(tmp),
                                                    size, args)
                    now = await measure_size(world, ROOT, backend, Path(tmp), size, args)
                    old_lines = before.lines() if before else {}
                    for name, (value, unit) in now.lines().items():
                        was = old_lines.get(name, (None, unit))[0]
                        show(f"scale{tag}_{size}_{name}", was, value, unit)
                    if backend == main_backend:
                        result["live_tables"][size] = {
                            "rss_mib": round(now.rss_mib, 1),
                            "startup_s": round(now.startup_s, 3),
                            "cold_click_p99_ms": round(now.cold_click_p99_ms, 1),
                            "deadline_late_p99_s": round(now.deadline_late_p99_s, 3)}
                if args.hands:
                    old_bytes = (await hand_bytes.measure(old_code, args.hands, backend))[0] \
                        if old_code is not None else None
                    now_bytes = (await hand_bytes.measure(ROOT, args.hands, backend))[0]
                    show(f"bytes_per_hand{tag}", old_bytes, now_bytes, "bytes")
                    if backend == main_backend:
                        result["bytes_per_hand"] = round(now_bytes)
    finally:
        await world.fake.stop()
    if not args.no_floor:
        result["click_floor_ratio"] = round(floor_ratio(
            args.baseline, args.floor_tables, args.floor_clicks, args.floor_rounds), 2)
    return result


@contextmanager
def contextmanager_or_none(rev: str | None) -> Any:
    if rev is None:
        yield None
        return
    with worktree(rev) as tree:
        yield tree


def child_arguments(parser: argparse.ArgumentParser) -> None:
    """The hidden arguments a bench's child takes to run a bot (``--role bot``, the
    checkout ``--code``, the database ``--db`` and the fake Discord's ``--api`` and
    ``--gateway``): `BotProcess.start` passes them; bench/startup.py and
    bench/coldclick.py start their children the same way."""
    parser.add_argument("--role", choices=("bench", "bot"), default="bench",
                        help=argparse.SUPPRESS)
    parser.add_argument("--code", help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--api", help=argparse.SUPPRESS)
    parser.add_argument("--gateway", help=argparse.SUPPRESS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000",
                        help="live tables, comma-separated")
    parser.add_argument("--baseline", default=BASE,
                        help="the git revision measured beside this checkout ('' for none)")
    parser.add_argument("--baseline-sizes", default=None,
                        help="the sizes the baseline is measured at (default --sizes)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--sqlite-only", action="store_true")
    where.add_argument("--postgres-only", action="store_true")
    parser.add_argument("--clicks", type=int, default=50, help="cold tables clicked")
    parser.add_argument("--deadlines", type=int, default=30, help="deadlines timed")
    parser.add_argument("--deadline-lead", type=float, default=DEADLINE_LEAD,
                        help="seconds from the bot's start to the first timed deadline")
    parser.add_argument("--warm-cap", type=float, default=90.0,
                        help="seconds the RSS waits for background start-up work")
    parser.add_argument("--hands", type=int, default=20,
                        help="finished hands of each rule set for bytes_per_hand (0: none)")
    parser.add_argument("--no-floor", action="store_true")
    parser.add_argument("--click-at-ready", action="store_true",
                        help="click as soon as discord.py is ready, while the picture "
                             "processes may still be starting (a start-up's figure)")
    parser.add_argument("--floor-tables", type=int, default=20)
    parser.add_argument("--floor-clicks", type=int, default=30)
    parser.add_argument("--floor-rounds", type=int, default=3,
                        help="rounds of the click bench and the floor, alternated")
    parser.add_argument("--floor-only", action="store_true",
                        help="only the click bench's ratio to the floor (no sizes)")
    child_arguments(parser)
    args = parser.parse_args(argv)
    if args.role == "bot":
        asyncio.run(bot_main(args))
        return 0
    args.baseline = args.baseline or None
    if args.floor_only:
        ratio = floor_ratio(args.baseline, args.floor_tables, args.floor_clicks,
                            args.floor_rounds)
        print(json.dumps({"click_floor_ratio": round(ratio, 2)}), flush=True)
        return 0
    try:
        result = asyncio.run(run(args))
    except ClicksRefused as exc:
        print(f"bench/scale.py: {exc}", file=sys.stderr, flush=True)
        return 1
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
