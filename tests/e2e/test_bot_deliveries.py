"""What the bot owes players and channels survives Discord's own failures (issue 33).

Each test runs the real bot against the fake Discord with its faults (``fake.faults``)
on SQLite, PostgreSQL and PostgreSQL in shared mode: a decision that comes during an
outage is DMed within `LATE` seconds of Discord's return (the issue's finding: it never
was), whatever the failure (503, 502, reset connections, calls that hang, 429s); nothing
is doubled (``fake.duplicates()``: every message is created with a nonce); a refusal
(403) is never tried again in a loop; a bot SIGKILLed during the outage leaves what it
owed in the database, and the next start, or another process in shared mode, sends it.

The 10-minute outage runs only with MAHJONG_LONG_TESTS=1 (ten minutes of waiting).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from botkit import Driver, channel_files, latest_bot, make_world, quiet, slash
from deliverykit import (
    DATABASES,
    LATE,
    Database,
    Watch,
    database_of,
    decision_of,
    dm_shows,
    open_with_computers,
    pending_dm,
)
from fakediscord import BotLauncher, FakeDiscord, FakeUser
from playkit import World

from bot.discord.client import MahjongBot
from bot.discord.delivery import retry

OUTAGE = 60.0
LONG_OUTAGE = 600.0
KINDS: dict[str, int | str] = {"sqlite": 503, "postgres": 502, "shared": "reset"}
"""The failure each database's outage serves: every kind on some backend."""
CHILD = Path(__file__).with_name("outage_bot.py")
MESSAGING = r" /(channels|users/@me/channels)"
"""Every call on a channel's messages, and opening a DM channel."""


@pytest.fixture(params=DATABASES)
async def database(request: pytest.FixtureRequest, tmp_path: Path
                   ) -> AsyncIterator[Database]:
    """Named first by each test: its stores close after the bots stop."""
    async with database_of(request, request.param, tmp_path) as db:
        yield db


async def next_decision(bot: MahjongBot, user: FakeUser, after: tuple[int, int] | None,
                        timeout: float) -> tuple[int, int]:
    """The decision waiting for ``user`` once it is another than ``after``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        decision = await decision_of(bot, user)
        if decision is not None and decision != after:
            return decision
        await asyncio.sleep(0.05)
    raise AssertionError(f"{user.name} got no new decision in {timeout} s")


def asked(message_ids: list[str]) -> tuple[int, int]:
    """(hand, public step) of a DM's move buttons (``mj:mv:t:h:pN:…``)."""
    for custom_id in message_ids:
        if custom_id.startswith(("mj:mv:", "mj:dc:")):
            _, _, _, hand, step, *_ = custom_id.split(":")
            return int(hand), int(step.removeprefix("p"))
    raise AssertionError(f"no decision in {message_ids}")


def match_over(fake: FakeDiscord, world: World, hands: int) -> bool:
    return bool(channel_files(fake, world.channel, f"leaderboard-1-{hands}."))


def assert_one_picture(fake: FakeDiscord, world: World) -> None:
    """The channel keeps one table picture (a re-post deleted the one before)."""
    pictures = [m for m in channel_files(fake, world.channel, "table-1.")
                if not m.deleted]
    assert len(pictures) == 1, pictures


async def outage_after_a_discard(fake: FakeDiscord, bots: BotLauncher, database: Database,
                                 kind: int | str, seconds: float) -> None:
    """The issue's finding: right after alice's discard every call of the bot but the
    interactions' fails for ``seconds``; the computers play on and her next decision
    comes during the outage. Its DM comes within `LATE` seconds of Discord's return,
    once, and the match plays on to its end with nothing doubled."""
    world = make_world(fake, count=1)
    alice = world.players[0]
    await bots.start(await database.bot())
    bot = latest_bot(bots)
    await open_with_computers(world, [alice], hands=2)
    driver = Driver(world)
    message = await pending_dm(driver, bots, alice)
    before = asked(fake.custom_ids(message))
    fake.faults.hang_seconds = retry.CALL_TIMEOUT + 1  # the bot gives up first (the
    # fake's handler would stay in flight for 310 s: the bot never quiet)
    fake.faults.outage(kind, seconds=seconds)
    began = time.time()
    assert await driver.click(alice, message)
    decision = await next_decision(bot, alice, before, timeout=seconds - 5)
    assert fake.faults.in_outage and dm_shows(fake, alice, 1, *decision) is None
    await fake.wait_for(lambda: not fake.faults.in_outage, seconds + 5, "Discord's return")
    returned = fake.faults.returned_at
    assert returned is not None
    shown = await fake.wait_for(lambda: dm_shows(fake, alice, 1, *decision), LATE + 5,
                                "her DM")
    assert shown.created_ms / 1000 - returned <= LATE, shown.created_ms / 1000 - returned
    # the outage was not hammered: one probe at a time, at most every 2 s (and the
    # calls in flight when it began)
    during = [f for f in fake.faults.injected if began <= f.time <= returned]
    assert len(during) <= seconds / 2 + 40, len(during)
    await driver.play_until(lambda: match_over(fake, world, 2), idle=lambda: quiet(bots))
    await quiet(bots)
    assert fake.duplicates() == []
    assert_one_picture(fake, world)


async def test_a_decision_made_during_a_60_s_outage_is_dmed_once_discord_is_back(
        database: Database, fake: FakeDiscord, bots: BotLauncher) -> None:
    await outage_after_a_discard(fake, bots, database, KINDS[database.kind], OUTAGE)


@pytest.mark.skipif(not os.environ.get("MAHJONG_LONG_TESTS"),
                    reason="a 10-minute outage: set MAHJONG_LONG_TESTS=1")
@pytest.mark.parametrize("kind", ["timeout"])
async def test_a_10_minute_outage_mid_hand(database: Database, fake: FakeDiscord,
                                           bots: BotLauncher, kind: str) -> None:
    await outage_after_a_discard(fake, bots, database, kind, LONG_OUTAGE)


@pytest.mark.parametrize("rules", ["shanghai", "hangzhou"])
async def test_a_whole_match_at_5_percent_failures(
        database: Database, fake: FakeDiscord, bots: BotLauncher, rules: str) -> None:
    """5 % of the bot's calls fail at random (5xx, 429, hangs, resets, and calls
    carried out whose answer is lost): the match finishes, no decision waits for its
    DM more than `LATE` seconds, and nothing is doubled."""
    world = make_world(fake)
    await bots.start(await database.bot())
    bot = latest_bot(bots)
    watch = Watch(fake, lambda: bot, world.players)
    fake.faults.hang_seconds = retry.CALL_TIMEOUT + 1  # the bot gives up first; then
    # the fake's handler ends too (it would stay in flight, and the bot never quiet)
    fake.faults.random(0.05, kinds=("500", "502", "503", "504", "429", "timeout", "reset",
                                    "lost"), seed=33)
    await open_with_computers(world, world.players, hands=2, rules=rules)
    watch.start()
    try:
        await Driver(world).play_until(lambda: match_over(fake, world, 2),
                                       idle=lambda: quiet(bots))
        await quiet(bots)
        await watch.look()
    finally:
        await watch.stop()
    assert fake.faults.injected, "no fault was served"
    assert watch.late() == []
    assert fake.duplicates() == []
    assert_one_picture(fake, world)


async def test_a_429_storm_on_dm_creation_is_waited_out(
        database: Database, fake: FakeDiscord, bots: BotLauncher) -> None:
    """The first DMs of a hand meet 429s: each is tried again only after its
    ``retry_after``, and every player gets their DM once."""
    world = make_world(fake)
    await bots.start(await database.bot())

    def dm_creation(route: str) -> bool:
        method, path = route.split(" ", 1)
        parts = path.split("/")
        if method != "POST" or len(parts) != 4 or parts[3] != "messages":
            return False
        channel = fake.state.channels.get(int(parts[2]))
        return channel is not None and channel.is_dm

    fake.faults.rate_limit(dm_creation, count=20, retry_after=0.5)
    await open_with_computers(world, world.players, hands=1)
    driver = Driver(world)
    await driver.play_until(lambda: match_over(fake, world, 1), idle=lambda: quiet(bots))
    await quiet(bots)
    limited = fake.faults.served("429")
    assert len(limited) == 20
    requests = fake.requests()
    for fault in limited:  # the next call on that route came after its retry_after
        route = fault.route
        later = [r.time for r in requests if r.time > fault.time
                 and f"{r.method} {r.path.removeprefix('/api/v10')}" == route]
        assert not later or later[0] - fault.time >= 0.5 - 0.05, (route, later[0] - fault.time)
    assert all(fake.dms(p) for p in world.players)
    assert fake.duplicates() == []


async def test_a_refused_dm_during_an_outage_is_not_looped_on(
        database: Database, fake: FakeDiscord, bots: BotLauncher) -> None:
    """During an outage bob closes his DMs: once Discord is back his DM is refused
    (403, 50007) once, the channel tells him to use /mahjong hand once, he plays
    through it, and the others' DMs all come."""
    world = make_world(fake)
    bob = world.players[1]
    await bots.start(await database.bot())
    await open_with_computers(world, world.players, hands=1)
    driver = Driver(world)
    await pending_dm(driver, bots, bob)
    fake.faults.outage(503, seconds=12)
    fake.faults.forbid_dms(bob.id)
    driver.closed.add(bob.id)
    await driver.play_until(lambda: match_over(fake, world, 1), idle=lambda: quiet(bots))
    await quiet(bots)
    refused = fake.failures(50007)
    assert len(refused) == 1, refused
    # said once at most (not when his `/mahjong hand` reply already follows the game)
    told = [m for m in fake.messages(world.channel) if "can't send you direct" in m.content]
    assert len(told) <= 1 and all(f"<@{bob.id}>" in m.content for m in told)
    assert fake.duplicates() == []


class Child:
    """A bot process (tests/e2e/outage_bot.py) to kill."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.lines: list[str] = []
        assert proc.stdout is not None
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(cls, fake: FakeDiscord, database: Database) -> Child:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(CHILD), fake.api_url, fake.gateway_url, database.target,
            "1" if database.kind == "shared" else "0",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
        child = cls(proc)
        try:
            await fake.wait_for(lambda: "READY" in child.lines, 30, "the child's READY")
        except BaseException:
            await child.kill()
            raise
        return child

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        async for raw in self.proc.stdout:
            self.lines.append(raw.decode().rstrip("\n"))

    async def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        await self.proc.wait()
        await self._reader


async def test_a_bot_killed_during_an_outage_leaves_what_it_owed_to_the_next(
        database: Database, fake: FakeDiscord, bots: BotLauncher) -> None:
    """The bot is SIGKILLed while Discord is down and alice's decision waits for its DM:
    what it owed is in the database (`Presenter.owed_dms`). One process: the next
    start sends it once Discord is back. Shared mode: another process, running
    already, takes the dead one over and sends it."""
    world = make_world(fake, count=1)
    alice = world.players[0]
    store = await database.store()
    child = await Child.start(fake, database)
    try:
        await open_with_computers(world, [alice], hands=2)
        driver = Driver(world)
        message = await fake.wait_for(lambda: driver.pending(alice), 30, "her first DM")
        # the messages fail, not the login: the next start logs in (a start that
        # cannot log in stops, and its service manager starts it again)
        fake.faults.outage(503, routes=MESSAGING)
        handle_ids = fake.custom_ids(message)
        assert await driver.click(alice, message)
        before = asked(handle_ids)
        owed = []
        loop = asyncio.get_running_loop()
        end = loop.time() + 40
        while loop.time() < end:
            owed = [o for o in await store.presenter.owed_dms() if o.seat == 0]
            if owed and (owed[0].hand_number, owed[0].step) != before:
                break
            await asyncio.sleep(0.05)
        assert owed, "her next decision never came"
        if database.kind == "shared":  # another process, alive before the kill
            await bots.start(await database.bot())
        await child.kill()
        if database.kind != "shared":  # the next start, Discord still down
            await bots.start(await database.bot())
        bot = latest_bot(bots)
        decision = await next_decision(bot, alice, None, timeout=30)
        await asyncio.sleep(3)  # the outage goes on a while
        assert dm_shows(fake, alice, 1, *decision) is None
        fake.faults.restore()
        returned = fake.faults.returned_at
        assert returned is not None
        shown = await fake.wait_for(lambda: dm_shows(fake, alice, 1, *decision),
                                    LATE + 10, "her DM")
        assert shown.created_ms / 1000 - returned <= LATE, shown.created_ms / 1000 - returned
        await driver.play_until(lambda: match_over(fake, world, 2), idle=lambda: quiet(bots))
        await quiet(bots)
        assert fake.duplicates() == []
    finally:
        await child.kill()


async def test_a_dropped_gateway_loses_no_delivery(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    """The gateway drops mid-hand (and resumes): the DMs and the picture go on."""
    world = make_world(fake, count=1)
    alice = world.players[0]
    await bots.start(await _sqlite_bot(tmp_path))
    await open_with_computers(world, [alice], hands=1)
    driver = Driver(world)
    message = await pending_dm(driver, bots, alice)
    await fake.drop_gateway(resume=True)
    assert await driver.click(alice, message)
    await driver.play_until(lambda: match_over(fake, world, 1), idle=lambda: quiet(bots))
    await quiet(bots)
    assert fake.duplicates() == []
    assert_one_picture(fake, world)


async def _sqlite_bot(folder: Path) -> MahjongBot:
    from botkit import make_bot
    return make_bot(folder / "db.sqlite3", picture_processes=0)


async def test_slash_is_answered_during_an_outage(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    """Interactions keep working in Discord's incidents: `/mahjong hand` answers while
    the bot's own calls fail."""
    world = make_world(fake, count=1)
    alice = world.players[0]
    await bots.start(await _sqlite_bot(tmp_path))
    await open_with_computers(world, [alice], hands=1)
    await pending_dm(Driver(world), bots, alice)
    fake.faults.outage(503, seconds=5)
    handle = await slash(world, alice, "hand")
    assert (await handle.response()).ephemeral
    await fake.wait_for(lambda: not fake.faults.in_outage, 10, "Discord's return")
    await quiet(bots)
