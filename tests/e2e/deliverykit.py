"""Helpers of the delivery tests (issue 33): a table of people and computers opened by
slash commands, the database each test runs on (SQLite, PostgreSQL, PostgreSQL in
shared mode), and a `Watch` that measures how long each decision waited for its DM."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from botkit import Driver, World, quiet, slash
from fakediscord import BotLauncher, FakeDiscord, FakeMessage, FakeUser

from bot.discord.client import MahjongBot
from bot.service import Cause, Refused
from bot.store import Store
from tests.pgcluster import Server

DATABASES = ("sqlite", "postgres", "shared")
SHARED = {"shared": True, "claim_lease": 2.0, "claim_poll": 0.05, "announce_lease": 4.0}
"""Shared mode with short leases: a dead process's work is taken over within seconds."""
LATE = 10.0
"""Seconds a decision may wait for its DM past Discord's return (the issue's bound)."""


@dataclass
class Database:
    """Where a test's bots keep their tables: ``target`` (a SQLite file or a
    PostgreSQL URL) and the service's options (shared mode)."""

    kind: str
    target: str
    options: dict[str, Any] = field(default_factory=dict)
    stores: list[Store] = field(default_factory=list)

    async def bot(self, **kwargs: Any) -> MahjongBot:
        """A bot on this database (not started)."""
        store = await Store.open(self.target)
        self.stores.append(store)
        options = {"picture_processes": 0, "service_options": dict(self.options),
                   **kwargs}
        bot = MahjongBot(store=store, computer_pause=0.0, table_interval=0.05, **options)
        return bot

    async def store(self) -> Store:
        store = await Store.open(self.target)
        self.stores.append(store)
        return store


@contextlib.asynccontextmanager
async def database_of(request: pytest.FixtureRequest, kind: str, folder: Path
                      ) -> AsyncIterator[Database]:
    if kind == "sqlite":
        db = Database(kind, str(folder / "db.sqlite3"))
        url = None
    else:
        server: Server = request.getfixturevalue("pg_server")
        url = await server.database()
        db = Database(kind, url, dict(SHARED) if kind == "shared" else {})
    try:
        yield db
    finally:
        for store in db.stores:
            with contextlib.suppress(Exception):
                await store.close()
        if url is not None:
            await server.drop(url)


async def open_with_computers(world: World, people: list[FakeUser], *, hands: int = 1,
                              rules: str = "shanghai") -> None:
    """The first of ``people`` opens a table, the others join, computers take the
    seats left, and it starts: by slash commands, as players would."""
    host = people[0]
    await (await slash(world, host, "new", rules=rules, hands=hands)).response()
    for person in people[1:]:
        await (await slash(world, person, "join")).response()
    for _ in range(4 - len(people)):
        await (await slash(world, host, "addbot")).response()
    await (await slash(world, host, "start")).response()


def decision_ids(table: int, hand: int, public_step: int) -> tuple[str, ...]:
    return (f"mj:mv:{table}:{hand}:p{public_step}:", f"mj:dc:{table}:{hand}:p{public_step}:")


def dm_shows(fake: FakeDiscord, user: FakeUser, table: int, hand: int, public_step: int
             ) -> FakeMessage | None:
    """The DM that shows ``user`` the decision's buttons now, if any."""
    wanted = decision_ids(table, hand, public_step)
    for message in reversed(fake.dms(user)):
        if any(c.startswith(wanted) for c in fake.custom_ids(message)):
            return message
    return None


async def decision_of(bot: MahjongBot, user: FakeUser, table: int = 1
                      ) -> tuple[int, int] | None:
    """(hand, public step) of the decision waiting for ``user`` at ``table`` (None:
    none, or the seat is away)."""
    assert bot.service is not None
    try:
        info = await bot.service.hand(Cause(user.id), table)
    except Refused:
        return None
    if info.public_step is None or info.away:
        return None
    return info.hand_number, info.public_step


async def pending_dm(driver: Driver, bots: BotLauncher, user: FakeUser,
                     tries: int = 400) -> FakeMessage:
    """``user``'s DM with a decision, the driver playing the others meanwhile."""
    for _ in range(tries):
        message = driver.pending(user)
        if message is not None:
            return message
        others = [p for p in driver.world.players if p is not user]
        moved = False
        for other in others:
            found = driver.pending(other)
            if found is not None:
                moved |= await driver.click(other, found)
        if not moved:
            await quiet(bots)
    raise AssertionError(f"{user.name} was never asked anything")


@dataclass
class Watch:
    """Looks, every ``every`` seconds, at the decision waiting for each person and at
    their DMs: how long each decision went without a DM showing its buttons."""

    fake: FakeDiscord
    bot: Callable[[], MahjongBot]
    people: list[FakeUser]
    table: int = 1
    every: float = 0.05
    waiting: dict[tuple[int, int, int], float] = field(default_factory=dict)
    """(user, hand, public step) → when it was first seen without its DM."""
    lags: list[float] = field(default_factory=list)
    """For each decision seen without its DM: how long until the DM came, counted from
    Discord's last return when it came later than the decision."""
    _task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            await self.look()
            await asyncio.sleep(self.every)

    async def look(self) -> None:
        bot = self.bot()
        if bot.is_closed() or bot.service is None:
            return
        now = time.time()
        for user in self.people:
            decision = await decision_of(bot, user, self.table)
            for old in [k for k in self.waiting if k[0] == user.id
                        and (decision is None or k[1:] != decision)]:
                del self.waiting[old]  # passed (another seat's claim closed the window)
            if decision is None:
                continue
            key = (user.id, *decision)
            if dm_shows(self.fake, user, self.table, *decision) is not None:
                if key in self.waiting:
                    self.lags.append(now - max(self.waiting.pop(key), self.returned()))
            else:
                self.waiting.setdefault(key, now)

    def returned(self) -> float:
        return self.fake.faults.returned_at or 0.0

    def late(self, bound: float = LATE) -> list[tuple[tuple[int, int, int], float]]:
        """Decisions still without their DM more than ``bound`` past Discord's return,
        and DMs that came later than that."""
        now = time.time()
        still = [(k, now - max(t, self.returned())) for k, t in self.waiting.items()
                 if now - max(t, self.returned()) > bound and not self.fake.faults.in_outage]
        return still + [((0, 0, 0), lag) for lag in self.lags if lag > bound]
