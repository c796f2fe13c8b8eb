"""``python bench/discord.py``: the real bot against the fake Discord, tables playing at once.

Every table's four people click the components of their newest DM after a think time
(``--think``, default 0.5 s on average, jittered ×0.5–1.5: quicker than people are).
``--think 0`` clicks the instant a DM arrives: a saturation test, whose latencies are
then queueing. Printed, one ``NAME VALUE UNIT`` line each:

- ``click_response_{median,p99}_ms``: from the click being sent to the bot to its
  interaction response reaching Discord (goal p99 ≤ 50 ms at 200 tables);
- ``gateway_response_{median,p99}_ms``: the same from the click written to the bot's
  gateway connection (the players' process making and sending it left out);
- with ``--mode split``, ``bot_answer_{median,p99}_ms``: inside the bot, from discord.py
  parsing the click to its first response leaving (the bot's own part of the above);
- ``click_dms_{median,p99}_ms``: from the click to the last DM it caused being
  accepted by Discord;
- ``clicks_per_s`` (clicks answered per second of play), ``clicks``, ``tables``, ``wall_s``;
- ``clicks_answered_with_move_pct``: the clicks whose first response was the clicked
  message edited with the move (one response; the others were acknowledged first);
- ``click_response_p99_after_opening_ms``: the same without the first ``OPENING``
  seconds (the opening burst: every table's dealer clicks at once), and
  ``click_response_max_in_opening_ms`` the slowest answer of those seconds;
- with ``--mode split``: ``bot_cpu_ms_per_click`` (the bot process's CPU, its threads
  included, over the play, per click), ``pictures_cpu_ms_per_click`` (the picture
  processes), ``players_cpu_ms_per_click`` (the fake Discord and the players) and
  ``bot_capacity_clicks_per_s`` (1 s of one core ÷ the bot's CPU per click: what the
  bot alone could serve if it had a core to itself), ``table_pictures_per_click`` and
  ``hand_pictures_per_click`` (the pictures drawn, the DMs' included), and the bot's
  garbage collections over the play (``gc_young_collections`` and
  ``gc_full_collections``; the longest pause and the pauses in total of the full and of
  the young collections, ``gc_middle_*`` the middle generation's among the young: a
  pause stops the event loop, every answer with it; ``gc_collected_objects``, the
  garbage in reference cycles they freed) and the objects the collector tracks before
  and after the play;
  ``sqlite_thread_trips_per_click`` (jobs handed to aiosqlite's thread over the play,
  per click: `ThreadTrips`);
  ``requests_per_click`` (the bot's requests to the fake Discord from the start of
  play until it stopped, per click) and ``requests_per_click.KIND`` of each kind
  (`request_kind`).

Modes (``--mode``):

- ``inproc`` (the old one, the default): the fake, the players and the bot share one
  process and one event loop, so the figures include the fake's own work;
- ``split``: the fake Discord and the players run in a child process, the bot alone in
  this one (talking over 127.0.0.1 as it would to Discord); the bot's CPU is measured
  on its own;
- ``both``: ``inproc`` then ``split``, their lines prefixed ``inproc.`` and ``split.``.

``--profile FILE`` (split): the bot process's play under cProfile, saved to FILE
(``python -m pstats FILE``), timed by the event loop thread's own CPU (`time.thread_time`:
not the wall clock, which on a busy machine counts the time the loop waited for a core
or for the GIL in whatever call it was in). cProfile's cost per call inflates code of
many small calls several times over: compare functions within one profile only.
``bot_system_cpu_ms_per_click``: the kernel's part of ``bot_cpu_ms_per_click``.

``--loop-counts`` (split): the bot's event loop counted in the play window, a click's
share: ``loop_iterations_per_click`` (its selector's polls), ``loop_callbacks_per_click``
(call_soon), ``loop_timers_per_click`` (call_at: call_later and asyncio.timeout too),
``loop_tasks_per_click``, ``loop_futures_per_click``; the counting inflates that run's
CPU figures.

``--baseline REV``: first the same run (same options, this bench's fake Discord and
players) on the bot of git revision REV, checked out in a temporary worktree, its lines
named ``NAME_before_REV``; then this checkout's. Libraries this checkout depends on and
REV did not are hidden from REV's run.

Whose CPU a click costs (split): ``service_cpu_ms_per_click`` is the bot's event loop and
its picture processes together (what a real deployment pays per click);
``players_cpu_ms_per_click`` the bench's own fake Discord and players (Discord's work in
a deployment), ``bench_share_of_cpu_pct`` its share of the three; and
``service_capacity_clicks_per_s`` what the bot could serve with this machine's two cores
to itself (its loop on one core, so never above ``bot_capacity_clicks_per_s``, the
pictures beside it).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import importlib.abc
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CODE = Path(sys.argv[sys.argv.index("--code") + 1]).resolve() if "--code" in sys.argv[:-1] \
    else ROOT
"""The checkout whose bot is measured: this one, or ``--code DIR`` (how ``--baseline``
measures an older revision's bot, with this bench's fake Discord and players)."""
PICTURES_TIMEOUT = 300.0
"""Seconds the bot's picture processes may take to start before the play (`pictures_ready`)."""
HIDDEN_ENV = "BENCH_HIDDEN_MODULES"
"""Modules the measured checkout does not depend on, hidden from it (``--baseline``: a
library that discord.py uses when it is installed, orjson, must not speed up the old
code)."""
# this file is named discord.py: its folder must not shadow the discord package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(ROOT))
from bench.baseline import use_bot_checkout  # noqa: E402  (this checkout's, before CODE's)

use_bot_checkout(CODE)


class _Hidden(importlib.abc.MetaPathFinder):
    """Refuses the modules named in `HIDDEN_ENV`, as if they were not installed."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> None:
        if fullname.split(".")[0] in self.names:
            raise ModuleNotFoundError(f"hidden by the bench: {fullname}", name=fullname)


if os.environ.get(HIDDEN_ENV):
    sys.meta_path.insert(0, _Hidden(set(os.environ[HIDDEN_ENV].split(","))))

import discord  # noqa: E402
import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import discord.state  # noqa: E402
import discord.webhook.async_  # noqa: E402
import yarl  # noqa: E402
from fakediscord import BotLauncher, ErrorLog, FakeDiscord, FakeMessage, FakeUser  # noqa: E402
from fakediscord.runner import GUILD_READY_TIMEOUT  # noqa: E402
from playkit import World, choose, open_table  # noqa: E402  (no bot: any revision's)

SETUP_BATCH = 10
"""Tables opened at once while setting up (all 200 at once time out in the fake)."""
RESULTS_LIMIT = 1 << 26
"""Bytes of the players' one-line results (every click's timing) the pipe may carry."""
OPENING = 2.0
"""Seconds of play after which ``click_response_p99_after_opening_ms`` counts: at the
start every table's dealer clicks at the same instant (one burst of ``--tables``
clicks, answered one after the other); afterwards the tables drift apart."""
UPDATE_MESSAGE = 7
"""The interaction response that edits the clicked message (answered with the move)."""
IDLE_END = 10.0
"""A table's players stop after this long without anything to click."""
DEALT_WAIT = 120.0
"""Seconds the play waits for every table's first decision's DM (`Players.dealt`)."""


def measured_bot(db: Path) -> Any:
    """The measured checkout's bot (`MahjongBot`, whose constructor has taken these
    options since the bot's first commit), as the tests make it: no computer pause, the
    table picture coalesced over 2 s, one picture process."""
    from bot.discord.client import MahjongBot
    return MahjongBot(database_path=db, computer_pause=0.0, table_interval=2.0,
                      picture_processes=1)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class _Answers(list[Any]):
    """An interaction's responses that wake its one waiter when the first arrives (the
    fake's own `InteractionHandle.response` re-checks every waiter on every request:
    with 200 clicks waiting at once, most of the players' process went there)."""

    def __init__(self, done: asyncio.Future[None], *items: Any) -> None:
        super().__init__(items)
        self.done = done

    def append(self, item: Any) -> None:
        super().append(item)
        if not self.done.done():
            self.done.set_result(None)


async def answered(record: Any) -> None:
    """Until the fake recorded a response to the interaction ``record``."""
    if record.responses:
        return
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    record.responses = _Answers(done)
    await done


class Players:
    """The fake's world and its people: each clicks the newest DM it was sent.

    New messages are seen as the fake creates them (a hook on its state), so a table's
    players wake only when one of them got something: no scan of every message."""

    def __init__(self, fake: FakeDiscord, tables: int, clicks: int, think: float) -> None:
        self.fake = fake
        self.think = think
        self.rng = random.Random(7)
        self.tables = tables
        self.budget = clicks
        self.responses: list[float] = []
        self.from_gateway: list[float] = []
        """The same from the interaction written to the bot's gateway (the fake's own
        making and sending of the click left out: at the opening, 200 of them queue in
        the players' process before the bot can see them)."""
        self.first_types: list[int] = []
        """Each answered click's first response type (7: the message edited with the
        move, in one response; 6: acknowledged first, the edit to follow)."""
        self.sent: list[float] = []
        """When each answered click was sent, in seconds from the start of play."""
        self.began = 0.0
        self.started: dict[int, float] = {}
        """Interaction id → when it was sent (``time.monotonic``: one clock for both
        processes)."""
        self.newest: dict[int, FakeMessage] = {}
        self.table_of: dict[int, int] = {}
        self.woken: list[asyncio.Event] = [asyncio.Event() for _ in range(tables)]
        self._dm_user: dict[int, int] = {}
        created = fake.state.create_message

        def create_message(*args: Any, **kwargs: Any) -> FakeMessage:
            message = created(*args, **kwargs)
            self._arrived(message)
            return message

        fake.state.create_message = create_message  # type: ignore[method-assign]  # a hook

    def _arrived(self, message: FakeMessage) -> None:
        user = self._dm_user.get(message.channel_id)
        if user is None and len(self._dm_user) != len(self.fake.state.dm_channels):
            self._dm_user = {c: u for u, c in self.fake.state.dm_channels.items()}
            user = self._dm_user.get(message.channel_id)
        if user is None or user not in self.table_of:
            return
        self.newest[user] = message
        self.woken[self.table_of[user]].set()

    def worlds(self) -> list[World]:
        fake = self.fake
        users = [fake.add_user(1000 + i, f"u{i}") for i in range(4 * self.tables)]
        outsider = fake.add_user(999, "stranger")
        guild = fake.add_guild(900, "Club", members=[*users, outsider],
                               channels=[f"t{i}" for i in range(self.tables)])
        for i, user in enumerate(users):
            self.table_of[user.id] = i // 4
        return [World(fake, guild, fake.channel(guild, f"t{i}"), users[4 * i:4 * i + 4],
                      outsider) for i in range(self.tables)]

    async def open(self, worlds: list[World]) -> None:
        for i in range(0, len(worlds), SETUP_BATCH):
            await asyncio.gather(*(open_table(w, hands=16)
                                   for w in worlds[i:i + SETUP_BATCH]))

    async def dealt(self, worlds: list[World], timeout: float = DEALT_WAIT) -> None:
        """Until every table's first decision reached its player: a DM with something
        to click (an older bot sent the first DMs only once its picture process had
        started, seconds after the fake went quiet)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout

        def waiting() -> int:
            return sum(1 for w in worlds if not any(
                (m := self.newest.get(u.id)) is not None and choose(self.fake, m) is not None
                for u in w.players))

        while waiting():
            if loop.time() > deadline:
                raise TimeoutError(f"{waiting()} tables without a first decision's DM")
            await asyncio.sleep(0.05)

    async def click(self, user: FakeUser, message: FakeMessage) -> None:
        move = choose(self.fake, message)
        if move is None:
            return
        custom_id, values = move
        # The fake's loop serves the bot's requests between two clicks: at the opening a
        # click's answer does not wait for the other 199 clicks to be made first (the
        # players' one loop made them all in one go, ~3 ms each, before taking any answer).
        await asyncio.sleep(0)
        t0 = time.monotonic()
        if values is None:
            handle = await self.fake.click(user, message, custom_id)
        else:
            handle = await self.fake.select(user, message, custom_id, values)
        t1 = time.monotonic()
        self.started[handle.id] = t0
        await asyncio.wait_for(answered(handle.record), 30)
        done = time.monotonic()
        self.first_types.append(handle.record.responses[0].type)
        self.responses.append(done - t0)
        self.from_gateway.append(done - t1)
        self.sent.append(t0 - self.began)

    async def play(self, index: int, world: World) -> None:
        """One table's players, clicking their newest DM's components."""
        done: set[int] = set()
        clicks = 0
        woken = self.woken[index]
        while clicks < self.budget:
            woken.clear()
            moved = False
            for user in world.players:
                message = self.newest.get(user.id)
                if message is None or message.id in done or not message.components:
                    continue
                done.add(message.id)
                if choose(self.fake, message) is not None:
                    if self.think:
                        await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
                    await self.click(user, message)
                    clicks += 1
                    moved = True
            if not moved:
                try:
                    await asyncio.wait_for(woken.wait(), IDLE_END)
                except TimeoutError:
                    return

    async def play_all(self, worlds: list[World]) -> float:
        self.began = time.monotonic()
        await asyncio.gather(*(self.play(i, w) for i, w in enumerate(worlds)))
        return time.monotonic() - self.began


def figures(responses: list[float], sent: list[float], dms: list[float], wall: float,
            tables: int, think: float, from_gateway: list[float] | None = None,
            first_types: list[int] | None = None) -> dict[str, tuple[float, str]]:
    out: dict[str, tuple[float, str]] = {
        "tables": (tables, "count"), "think_s": (think, "s"),
        "clicks": (len(responses), "count"), "wall_s": (wall, "s"),
        "clicks_per_s": (len(responses) / wall if wall else 0.0, "1/s")}
    if first_types:
        out["clicks_answered_with_move_pct"] = (
            100 * first_types.count(UPDATE_MESSAGE) / len(first_types), "%")
    if responses:
        out["click_response_median_ms"] = (statistics.median(responses) * 1000, "ms")
        out["click_response_p99_ms"] = (percentile(responses, 0.99) * 1000, "ms")
        later = [r for r, at in zip(responses, sent, strict=True) if at >= OPENING]
        opening = [r for r, at in zip(responses, sent, strict=True) if at < OPENING]
        if opening:
            out["click_response_max_in_opening_ms"] = (max(opening) * 1000, "ms")
        if later:
            out["click_response_p99_after_opening_ms"] = (percentile(later, 0.99) * 1000,
                                                          "ms")
    if from_gateway:
        out["gateway_response_median_ms"] = (statistics.median(from_gateway) * 1000, "ms")
        out["gateway_response_p99_ms"] = (percentile(from_gateway, 0.99) * 1000, "ms")
    if dms:
        out["click_dms_median_ms"] = (statistics.median(dms) * 1000, "ms")
        out["click_dms_p99_ms"] = (percentile(dms, 0.99) * 1000, "ms")
    return out


def request_kind(method: str, path: str, body: Any, files: int, dms: set[int]) -> str:
    """A request the bot made to Discord, by what it does: ``callback_<type>`` (an
    interaction's response), ``original_edit`` / ``followup`` (its later answers),
    ``dm_send`` / ``dm_edit`` and ``channel_send`` / ``channel_edit`` /
    ``channel_delete``; ``+file`` when it uploads a picture."""
    parts = path.removeprefix("/api/v10").strip("/").split("/")
    if parts[0] == "interactions":
        kind = f"callback_{body.get('type') if isinstance(body, dict) else '?'}"
    elif parts[0] == "webhooks":
        kind = "followup" if len(parts) == 3 else f"original_{method.lower()}"
    elif parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
        where = "dm" if int(parts[1]) in dms else "channel"
        what = {"POST": "send", "PATCH": "edit", "DELETE": "delete"}.get(method, "get")
        kind = f"{where}_{what}"
    else:
        kind = f"{method.lower()}_{parts[0]}"
    return kind + ("+file" if files else "")


def request_figures(kinds: dict[str, int], clicks: int) -> dict[str, tuple[float, str]]:
    """The bot's requests to Discord per click, in all and of each kind."""
    n = max(1, clicks)
    out = {"requests_per_click": (sum(kinds.values()) / n, "1")}
    for kind in sorted(kinds):
        out[f"requests_per_click.{kind}"] = (kinds[kind] / n, "1")
    return out


def show(found: dict[str, tuple[float, str]], prefix: str = "") -> None:
    for name, (value, unit) in found.items():
        text = f"{value:.0f}" if unit == "count" else f"{value:.1f}"
        print(f"{prefix}{name} {text} {unit}", flush=True)


def point_at(fake_api: str, fake_gateway: str) -> None:
    """discord.py talks to the fake instead of Discord."""
    discord.http.Route.BASE = fake_api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake_gateway)


# ---------------------------------------------------------------------------- inproc


async def inproc(tables: int, clicks: int, think: float) -> dict[str, tuple[float, str]]:
    """Bot, fake and players in this process, on one event loop (the old mode)."""
    fake = FakeDiscord()
    await fake.start()
    point_at(fake.api_url, fake.gateway_url)
    players = Players(fake, tables, clicks, think)
    worlds = players.worlds()
    launcher = BotLauncher(fake, ErrorLog())
    dm_done: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        bot = measured_bot(Path(tmp) / "bench.sqlite3")
        await launcher.start(bot)
        await players.open(worlds)
        await launcher.idle(timeout=120)
        await players.dealt(worlds)
        bot.notifier.on_dm_sent = _recorder(dm_done)
        wall = await players.play_all(worlds)
        await bot.notifier.outbox.drain(120)  # the last clicks' DMs, before stopping
        await launcher.stop_all()
    await fake.stop()
    return figures(players.responses, players.sent, _latencies(players.started, dm_done),
                   wall, tables, think, players.from_gateway, players.first_types)


async def pictures_ready(bot: Any) -> None:
    """Until the bot's picture processes have started (`Pictures.start`, which the bot
    runs beside its start-up): until then a bot draws each picture in a thread of its
    own process, a start-up's cost that the play's CPU per click would otherwise count
    as much as the time the workers take to start on a busy machine (at a load of 12,
    some 40 % of the bot's CPU over a 1,200-click play was hand pictures drawn in its
    threads). The floor (`bench/floor.py`) likewise draws its picture before playing.
    A bot without `Pictures.start` (before 2026-12-01) is not waited for."""
    start = getattr(getattr(bot, "pictures", None), "start", None)
    if start is not None:
        await asyncio.wait_for(start(), PICTURES_TIMEOUT)


def _recorder(into: dict[int, float]) -> Callable[[int, int, int | None], None]:
    def dm_sent(table: int, seat: int, cause: int | None) -> None:
        if cause is not None:
            into[cause] = time.monotonic()
    return dm_sent


def _latencies(started: dict[int, float], done: dict[int, float]) -> list[float]:
    return [done[i] - t0 for i, t0 in started.items() if i in done]


# ---------------------------------------------------------------------------- split


class GcPauses:
    """The garbage collector's pauses in this process (gc.callbacks), by generation."""

    def __init__(self) -> None:
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self.collected = 0
        """Objects the collections freed: garbage in reference cycles, which refcounting
        could not free (`tests/e2e/test_bot_garbage.py`)."""
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.pauses[info["generation"]].append(time.perf_counter() - self._began)
            self.collected += info["collected"]

    def figures(self) -> dict[str, tuple[float, str]]:
        young, full = self.pauses[0] + self.pauses[1], self.pauses[2]
        middle = self.pauses[1]
        return {"gc_young_collections": (len(young), "count"),
                "gc_collected_objects": (self.collected, "count"),
                "gc_full_collections": (len(full), "count"),
                "gc_full_pause_max_ms": (max(full, default=0.0) * 1000, "ms"),
                "gc_full_pause_total_ms": (sum(full) * 1000, "ms"),
                "gc_young_pause_max_ms": (max(young, default=0.0) * 1000, "ms"),
                "gc_young_pause_total_ms": (sum(young) * 1000, "ms"),
                # of those, the middle generation's (`collector.MIDDLE`): the long ones
                "gc_middle_collections": (len(middle), "count"),
                "gc_middle_pause_max_ms": (max(middle, default=0.0) * 1000, "ms"),
                "gc_middle_pause_total_ms": (sum(middle) * 1000, "ms")}


class BotSide:
    """In the bot's process: when each interaction reached discord.py's parsing and when
    its first response left (its callback request being made), so that the bot's own
    part of an answer is told apart from the fake's (whose one loop, at the opening,
    also makes the 200 clicks and takes their 200 answers)."""

    def __init__(self) -> None:
        self.arrived: dict[int, float] = {}
        self.answered: dict[int, float] = {}
        state = discord.state.ConnectionState
        adapter = discord.webhook.async_.AsyncWebhookAdapter
        self._originals = (state.parse_interaction_create,
                           adapter.create_interaction_response)
        parse, respond = self._originals
        arrived, answered = self.arrived, self.answered

        def parse_interaction_create(state: Any, data: Any) -> Any:
            arrived[int(data["id"])] = time.monotonic()
            return parse(state, data)

        def create_interaction_response(adapter: Any, interaction_id: int, *args: Any,
                                        **kwargs: Any) -> Any:
            answered.setdefault(int(interaction_id), time.monotonic())
            return respond(adapter, interaction_id, *args, **kwargs)

        # Timing wrappers in place of discord.py's methods, for this process's run:
        parse_wrapper, respond_wrapper = parse_interaction_create, create_interaction_response
        state.parse_interaction_create = parse_wrapper  # type: ignore[method-assign, assignment]  # timed
        adapter.create_interaction_response = respond_wrapper  # type: ignore[method-assign, assignment]  # timed

    def close(self) -> None:
        state = discord.state.ConnectionState
        adapter = discord.webhook.async_.AsyncWebhookAdapter
        parse, respond = self._originals
        state.parse_interaction_create = parse  # type: ignore[method-assign]  # put back
        adapter.create_interaction_response = respond  # type: ignore[method-assign]  # put back

    def figures(self, clicks: set[int]) -> dict[str, tuple[float, str]]:
        spans = sorted((self.answered[i] - self.arrived[i]) * 1000 for i in clicks
                       if i in self.answered and i in self.arrived)
        if not spans:
            return {}
        return {"bot_answer_median_ms": (statistics.median(spans), "ms"),
                "bot_answer_p99_ms": (percentile(spans, 0.99), "ms")}


class ThreadTrips:
    """Jobs handed to aiosqlite's thread in this process (its connection's `_execute`:
    every await on it, or a whole transaction handed over at once): each a queue put
    that wakes the thread and a wake-up of the event loop when it is done."""

    def __init__(self) -> None:
        import aiosqlite.core
        self.count = 0
        self._connection = aiosqlite.core.Connection
        original: Callable[..., Awaitable[Any]] = self._connection._execute
        self._original = original

        def counted(conn: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return original(conn, fn, *args, **kwargs)

        self._connection._execute = counted  # type: ignore[method-assign, assignment]  # counted

    def close(self) -> None:
        self._connection._execute = self._original  # type: ignore[method-assign, assignment]  # put back


class LoopCounts:
    """``--loop-counts``: what the bot's event loop does in the play window, counted on
    the running loop (its iterations, callbacks, timers, tasks and futures). The
    counting costs the loop time of its own: the CPU figures of such a run are not the
    bot's."""

    NAMES = ("call_soon", "call_at", "create_task", "create_future")

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.counts = dict.fromkeys((*self.NAMES, "select"), 0)
        selector: Any = self.loop._selector  # type: ignore[attr-defined]  # its selector
        self._patched: list[tuple[Any, str]] = [(self.loop, n) for n in self.NAMES]
        self._patched.append((selector, "select"))
        for owner, name in self._patched:
            setattr(owner, name, self._counted(name, getattr(owner, name)))

    def _counted(self, name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        counts = self.counts

        def counted(*args: Any, **kwargs: Any) -> Any:
            counts[name] += 1
            return original(*args, **kwargs)
        return counted

    def close(self) -> None:
        for owner, name in self._patched:
            delattr(owner, name)  # the class's own again

    def figures(self, clicks: int) -> dict[str, tuple[float, str]]:
        c, n = self.counts, max(1, clicks)
        return {"loop_iterations_per_click": (c["select"] / n, "1"),
                "loop_callbacks_per_click": (c["call_soon"] / n, "1"),
                "loop_timers_per_click": (c["call_at"] / n, "1"),
                "loop_tasks_per_click": (c["create_task"] / n, "1"),
                "loop_futures_per_click": (c["create_future"] / n, "1")}


def _cpu_of(pid: int, *, system: bool = False) -> float:
    """CPU seconds (user + system; ``system``: the kernel's part alone) a process has
    used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[12]) if system else int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


async def split(tables: int, clicks: int, think: float, profile: str | None,
                loop_counts: bool = False) -> dict[str, tuple[float, str]]:
    """The bot in this process; the fake and the players in a child (`players_main`)."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--role", "players", "--tables", str(tables),
        "--clicks", str(clicks), "--think", str(think), "--code", str(CODE),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=ROOT,
        limit=RESULTS_LIMIT)
    assert child.stdin is not None and child.stdout is not None
    lines, say = child.stdout, child.stdin

    async def hear(expected: str) -> list[str]:
        words = (await lines.readline()).decode().split(maxsplit=1)
        if not words or words[0] != expected:
            raise RuntimeError(f"the players' process said {words!r}, not {expected}")
        return words[1:]

    async def tell(word: str) -> None:
        say.write(f"{word}\n".encode())
        await say.drain()

    bot_side, trips = BotSide(), ThreadTrips()
    api, gateway = (await hear("URLS"))[0].split()
    point_at(api, gateway)
    dm_done: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        bot = measured_bot(Path(tmp) / "bench.sqlite3")
        bot._connection.guild_ready_timeout = GUILD_READY_TIMEOUT
        await bot.login("fake-token")
        connection = asyncio.create_task(bot.connect(reconnect=False))
        await asyncio.wait_for(bot.wait_until_ready(), 30)
        await pictures_ready(bot)
        await tell("READY")
        await hear("PLAY")
        bot.notifier.on_dm_sent = _recorder(dm_done)
        # pids() and drawn: since 2026-12-01 (an older bot's figures are left out)
        me = os.getpid()
        pictures = bot.pictures.pids() if hasattr(bot.pictures, "pids") else []
        cpu0 = _cpu_of(me), sum(map(_cpu_of, pictures)), _cpu_of(child.pid)
        system0 = _cpu_of(me, system=True)
        drawn0, trips0 = dict(getattr(bot.pictures, "drawn", {})), trips.count
        pauses, tracked0 = GcPauses(), len(gc.get_objects())
        gc.callbacks.append(pauses)
        profiler = cProfile.Profile(time.thread_time) if profile else None
        if profiler is not None:
            profiler.enable()
        counting = LoopCounts() if loop_counts else None
        result = json.loads((await hear("DONE"))[0])
        await bot.notifier.outbox.drain(30)  # the last clicks' DMs
        if counting is not None:
            counting.close()
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(profile or "")
        cpu1 = _cpu_of(me), sum(map(_cpu_of, pictures)), _cpu_of(child.pid)
        system1 = _cpu_of(me, system=True)
        trips1 = trips.count
        gc.callbacks.remove(pauses)
        tracked = len(gc.get_objects())
        drawn = {k: v - drawn0[k] for k, v in getattr(bot.pictures, "drawn", {}).items()}
        await bot.close()
        await asyncio.wait_for(connection, 10)
    await tell("STOP")
    kinds = json.loads((await hear("REQUESTS"))[0])
    await child.wait()
    bot_side.close()
    trips.close()
    started = {int(k): v for k, v in result["started"].items()}
    out = figures(result["responses"], result["sent"], _latencies(started, dm_done),
                  result["wall"], tables, think, result["from_gateway"],
                  result["first_types"])
    n = max(1, len(result["responses"]))
    out.update(cpu_shares(*((b - a) * 1000 / n for a, b in zip(cpu0, cpu1, strict=True))))
    out["bot_system_cpu_ms_per_click"] = ((system1 - system0) * 1000 / n, "ms")
    if drawn:
        out["table_pictures_per_click"] = (drawn["public"] / n, "1")
        out["hand_pictures_per_click"] = (drawn["hands"] / n, "1")
    out["sqlite_thread_trips_per_click"] = ((trips1 - trips0) / n, "1")
    out.update(request_figures(kinds, len(result["responses"])))
    out.update(pauses.figures())
    out.update(bot_side.figures(set(started)))
    out["gc_tracked_objects_before"] = (tracked0, "count")
    out["gc_tracked_objects_after"] = (tracked, "count")
    if counting is not None:
        out.update(counting.figures(n))
    return out


def cpu_shares(bot: float, pictures: float, players: float) -> dict[str, tuple[float, str]]:
    """Whose CPU a click costs (ms each): the bot's event loop, its picture processes,
    and the bench's own fake Discord and players, which a real deployment does not pay
    (Discord does that work). ``service_*``: the bot and its pictures alone, the figure
    "through the service" stands on."""
    service = bot + pictures
    total = service + players
    capacity = min(1000 / bot, 2000 / service) if bot and service else 0.0
    return {"bot_cpu_ms_per_click": (bot, "ms"),
            "pictures_cpu_ms_per_click": (pictures, "ms"),
            "players_cpu_ms_per_click": (players, "ms"),
            "service_cpu_ms_per_click": (service, "ms"),
            "bench_share_of_cpu_pct": (100 * players / total if total else 0.0, "%"),
            "bot_capacity_clicks_per_s": (1000 / bot if bot else 0.0, "1/s"),
            "service_capacity_clicks_per_s": (capacity, "1/s")}


async def players_main(tables: int, clicks: int, think: float) -> None:
    """The child of `split`: the fake Discord and the players; one word a line on
    stdout (URLS, PLAY, DONE with the results), waiting on stdin for READY and STOP."""
    loop = asyncio.get_running_loop()

    async def hear() -> str:
        line: str = await loop.run_in_executor(None, sys.stdin.readline)
        return line.strip()

    fake = FakeDiscord()
    await fake.start()
    players = Players(fake, tables, clicks, think)
    worlds = players.worlds()
    print("URLS", fake.api_url, fake.gateway_url, flush=True)
    if await hear() != "READY":
        return
    await players.open(worlds)
    await fake.settle(quiet=1.0, timeout=120)
    await players.dealt(worlds)
    print("PLAY", flush=True)
    first_request = len(fake.state.requests)
    wall = await players.play_all(worlds)
    print("DONE", json.dumps({"responses": players.responses, "sent": players.sent,
                              "from_gateway": players.from_gateway,
                              "first_types": players.first_types,
                              "started": players.started,
                              "wall": wall}), flush=True)
    await hear()  # STOP: the bot has shut down (its last sends needed the fake)
    dms = set(fake.state.dm_channels.values())
    kinds: dict[str, int] = {}
    for r in fake.state.requests[first_request:]:
        kind = request_kind(r.method, r.path, r.body, len(r.files), dms)
        kinds[kind] = kinds.get(kind, 0) + 1
    print("REQUESTS", json.dumps(kinds), flush=True)
    await fake.stop()


def dependencies(pyproject: Path) -> set[str]:
    """The import names of a checkout's dependencies (a distribution's name, lower case,
    ``-`` as ``_``: right for those whose difference matters here)."""
    project = tomllib.loads(pyproject.read_text())["project"]
    names = [re.match(r"[A-Za-z0-9_.-]+", spec) for spec in project.get("dependencies", ())]
    return {m.group(0).lower().replace("-", "_") for m in names if m is not None}


def without(argv: list[str], option: str) -> list[str]:
    """``argv`` less ``option`` and its value."""
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == option:
            skip = True
        elif not arg.startswith(f"{option}="):
            out.append(arg)
    return out


def run_baseline(rev: str, argv: list[str]) -> None:
    """This bench, with the same options and the same fake Discord and players, on the
    bot of git revision ``rev`` checked out in a temporary worktree; each line printed
    with ``_before_<rev>`` added to its name. The libraries this checkout depends on and
    ``rev`` did not are hidden from it (`HIDDEN_ENV`)."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet",
                        str(tree), rev], check=True)
        try:
            hidden = dependencies(ROOT / "pyproject.toml") - dependencies(
                tree / "pyproject.toml")
            env = {**os.environ, HIDDEN_ENV: ",".join(sorted(hidden))}
            proc = subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), *without(argv, "--baseline"),
                 "--code", str(tree)], stdout=subprocess.PIPE, text=True, env=env)
            assert proc.stdout is not None
            for line in proc.stdout:
                name, *rest = line.split()
                print(" ".join([f"{name}_before_{rev}", *rest]), flush=True)
            if proc.wait():
                raise SystemExit(f"the bench failed on {rev}")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(tree)], check=True)


async def main(args: argparse.Namespace) -> None:
    if args.role == "players":
        await players_main(args.tables, args.clicks, args.think)
        return
    if args.baseline:
        run_baseline(args.baseline, sys.argv[1:])
    modes = ["inproc", "split"] if args.mode == "both" else [args.mode]
    for mode in modes:
        prefix = f"{mode}." if args.mode == "both" else ""
        run: Awaitable[dict[str, tuple[float, str]]] = (
            inproc(args.tables, args.clicks, args.think) if mode == "inproc"
            else split(args.tables, args.clicks, args.think, args.profile,
                       args.loop_counts))
        show(await run, prefix)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--clicks", type=int, default=60, help="clicks per table")
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean seconds a player takes to click (0: at once)")
    parser.add_argument("--mode", choices=("inproc", "split", "both"), default="inproc")
    parser.add_argument("--profile", default=None, help="split: cProfile the bot to FILE")
    parser.add_argument("--loop-counts", action="store_true",
                        help="split: count the bot's loop iterations, callbacks, timers, "
                             "tasks and futures a click (its CPU figures then inflated)")
    parser.add_argument("--baseline", metavar="REV", default=None,
                        help="first the same bench on the bot of git revision REV")
    parser.add_argument("--code", metavar="DIR", default=None,
                        help="measure the bot of the checkout DIR (used by --baseline)")
    parser.add_argument("--role", choices=("bot", "players"), default="bot",
                        help=argparse.SUPPRESS)
    asyncio.run(main(parser.parse_args()))
