"""``python bench/discord.py``: the real bot against the fake Discord, 20 tables at once.

Twenty tables of four people each play concurrently; every player clicks the
components of their newest DM after a think time (``--think``, default 0.5 s on
average, jittered ×0.5–1.5: quicker than people are). ``--think 0`` clicks the instant
a DM arrives: a saturation test, whose latencies are then queueing (the whole process
— bot, fake and 80 players — handles about 80–100 clicks a second on this machine).
Printed, one ``NAME VALUE UNIT`` line each:

- ``click_response_{median,p99}_ms``: from the click being sent to the bot to its
  interaction response reaching Discord (goal p99 ≤ 150 ms);
- ``click_dms_{median,p99}_ms``: from the click to the last DM it caused being
  accepted by Discord (goal p99 ≤ 500 ms);
- ``clicks``, ``tables``, ``wall_s``.

The fake, the 80 players and the bot share one process and one event loop on this
2-core machine, so the figures include the fake's own work: real Discord adds network
latency, but the bot's share is what is measured here.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# this file is named discord.py: its folder must not shadow the discord package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import yarl  # noqa: E402
from botkit import World, choose, make_bot, open_table  # noqa: E402
from fakediscord import BotLauncher, ErrorLog, FakeDiscord, FakeMessage, FakeUser  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Bench:
    def __init__(self, fake: FakeDiscord, tables: int, clicks: int, think: float) -> None:
        self.fake = fake
        self.think = think
        self.rng = random.Random(7)
        self.tables = tables
        self.budget = clicks
        self.responses: list[float] = []
        self.started: dict[int, float] = {}
        self.dm_done: dict[int, float] = {}
        self.seen = 0
        self.dm_user: dict[int, int] = {}
        self.newest: dict[int, FakeMessage] = {}

    def dm_sent(self, table: int, seat: int, cause: int | None) -> None:
        if cause is not None:
            self.dm_done[cause] = time.perf_counter()

    def worlds(self) -> list[World]:
        fake = self.fake
        users = [fake.add_user(1000 + i, f"u{i}") for i in range(4 * self.tables)]
        outsider = fake.add_user(999, "stranger")
        guild = fake.add_guild(900, "Club", members=[*users, outsider],
                               channels=[f"t{i}" for i in range(self.tables)])
        return [World(fake, guild, fake.channel(guild, f"t{i}"), users[4 * i:4 * i + 4],
                      outsider) for i in range(self.tables)]

    async def click(self, user: FakeUser, message: FakeMessage) -> None:
        move = choose(self.fake, message)
        if move is None:
            return
        custom_id, values = move
        t0 = time.perf_counter()
        if values is None:
            handle = await self.fake.click(user, message, custom_id)
        else:
            handle = await self.fake.select(user, message, custom_id, values)
        self.started[handle.id] = t0
        await handle.response(timeout=30)
        self.responses.append(time.perf_counter() - t0)

    def scan(self) -> None:
        """Index the messages sent since the last scan: each user's newest DM (the
        fake keeps every message in one dict, in order)."""
        messages = self.fake.state.messages
        if len(messages) == self.seen:
            return
        fresh = list(messages.values())[self.seen:]
        self.seen = len(messages)
        for m in fresh:
            user = self.dm_user.get(m.channel_id)
            if user is None:
                user = next((u for u, c in self.fake.state.dm_channels.items()
                             if c == m.channel_id), None)
                if user is None:
                    continue
                self.dm_user[m.channel_id] = user
            self.newest[user] = m

    async def play(self, world: World) -> None:
        """One table's players, clicking their newest DM's components."""
        done: set[int] = set()
        clicks = 0
        idle_since = time.perf_counter()
        while clicks < self.budget and time.perf_counter() - idle_since < 10:
            self.scan()
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
            if moved:
                idle_since = time.perf_counter()
            else:
                await asyncio.sleep(0.005)

    def dm_latencies(self) -> list[float]:
        return [self.dm_done[i] - t0 for i, t0 in self.started.items() if i in self.dm_done]


async def main(tables: int, clicks: int, think: float = 0.5) -> None:
    fake = FakeDiscord()
    await fake.start()
    discord.http.Route.BASE = fake.api_url  # type: ignore[misc]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    bench = Bench(fake, tables, clicks, think)
    worlds = bench.worlds()
    launcher = BotLauncher(fake, ErrorLog())
    with tempfile.TemporaryDirectory() as tmp:
        bot = make_bot(Path(tmp) / "bench.sqlite3", table_interval=2.0, picture_processes=1)
        await launcher.start(bot)
        await asyncio.gather(*(open_table(w, hands=16) for w in worlds))
        await launcher.idle(timeout=60)
        bot.notifier.on_dm_sent = bench.dm_sent
        start = time.perf_counter()
        await asyncio.gather(*(bench.play(w) for w in worlds))
        wall = time.perf_counter() - start
        await launcher.stop_all()
    await fake.stop()
    dms = bench.dm_latencies()
    print(f"tables {tables} count")
    print(f"think_s {think} s")
    print(f"clicks {len(bench.responses)} count")
    print(f"wall_s {wall:.1f} s")
    print(f"click_response_median_ms {statistics.median(bench.responses) * 1000:.1f} ms")
    print(f"click_response_p99_ms {percentile(bench.responses, 0.99) * 1000:.1f} ms")
    print(f"click_dms_median_ms {statistics.median(dms) * 1000:.1f} ms")
    print(f"click_dms_p99_ms {percentile(dms, 0.99) * 1000:.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--clicks", type=int, default=60, help="clicks per table")
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean seconds a player takes to click (0: at once)")
    args = parser.parse_args()
    asyncio.run(main(args.tables, args.clicks, args.think))
