"""After a restart: what the bot owes goes out as soon as the gateway is ready, however
slowly its picture processes start, and each decision keeps one DM with live buttons.

Timings are read from the fake's records: when it sent READY (`Session.ready_at`) and
when each request reached it (`RecordedRequest.time`), both ``time.time()``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import slow_pictures
from botkit import Driver, World, make_bot, make_world, open_table, quiet, tick
from fakediscord import BotLauncher, FakeDiscord, FakeMessage

import bot.discord.core.pictures
from bot.service import FakeClock, PrivateNotice, RecordingNotifier
from bot.store import Store
from tests.narrowing import known

OWED_WITHIN = 2.0
"""Seconds after READY by which a delivery owed at start-up has reached Discord."""


def _step_of(fake: FakeDiscord, message: FakeMessage) -> tuple[int, int] | None:
    """(hand, public step) the DM's move buttons carry (mj:mv:table:hand:p<step>:move…),
    if any."""
    for custom_id in fake.custom_ids(message):
        if custom_id.startswith(("mj:mv:", "mj:dc:")):
            parts = custom_id.split(":")
            return int(parts[3]), int(parts[4].removeprefix("p"))
    return None


async def _five_clicks_in(fake: FakeDiscord, bots: BotLauncher, db: Path,
                          guild_locale: str = "en-US") -> tuple[World, Any, Driver]:
    world = make_world(fake, guild_locale=guild_locale)
    running = await bots.start(make_bot(db))
    await open_table(world)
    driver = Driver(world)
    await driver.play_until(lambda: driver.clicks >= 5, idle=lambda: quiet(bots))
    await quiet(bots)
    return world, running, driver


async def _lose_a_move(bots: BotLauncher, running: Any, driver: Driver
                      ) -> set[tuple[int, tuple[int, int]]]:
    """A crash right after a move's commit: its DMs and its picture are owed. The
    (user, (hand, public step)) of the decisions whose DM is owed."""
    lost = RecordingNotifier()
    running.client.service.notifier = lost
    assert await driver.step()
    await quiet(bots)
    owed = {(known(n.user_id), (n.hand_number, n.public_step)) for n in lost.of("private_hand")
            if isinstance(n, PrivateNotice) and n.public_step is not None}
    assert owed, "the lost move opened no decision for a person"
    return owed


def _ready_at(fake: FakeDiscord) -> float:
    ready = fake.gateway.sessions[-1].ready_at
    assert ready is not None
    return ready


async def test_what_a_restart_owes_goes_out_as_soon_as_the_gateway_is_ready(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "db.sqlite3"
    world, running, driver = await _five_clicks_in(fake, bots, db)
    owed = await _lose_a_move(bots, running, driver)
    before = {p.id: len(fake.dms(p)) for p in world.players}
    requests = len(fake.state.requests)

    # the restarted bot's picture processes take long to start (a loaded machine), and
    # discord.py says it is ready 2 s after the last server came (its default)
    monkeypatch.setattr(bot.discord.core.pictures, "_prepare_worker", slow_pictures.slow_start)
    bots.guild_ready_timeout = 2.0
    running = await bots.restart(running, make_bot(db, picture_processes=1))
    ready = _ready_at(fake)

    def arrived() -> bool:
        return all(any(_step_of(fake, m) == step for m in fake.dms(user)[before[user]:])
                   for user, step in owed)

    await fake.wait_for(arrived, slow_pictures.DELAY + 10, "the owed DMs")
    await quiet(bots)
    dm_channels = {fake.dm_channel_id(p) for p in world.players}
    late: dict[str, float] = {}
    for r in fake.state.requests[requests:]:
        if (r.method == "POST" and r.channel_id in dm_channels) or \
                (r.channel_id == world.channel.id and r.files):
            late[f"{r.method} {r.path}"] = max(late.get(f"{r.method} {r.path}", 0.0),
                                               r.time - ready)
    assert any(str(world.channel.id) in what for what in late), \
        f"the table picture was not redrawn: {late}"
    assert any(what.startswith("POST") and str(world.channel.id) not in what
               for what in late), f"no DM went out: {late}"
    assert max(late.values()) <= OWED_WITHIN, late


async def test_what_a_restart_owes_speaks_the_servers_language(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    """The server's language comes with the gateway (its GUILD_CREATE): a picture
    drawn before would be captioned in English."""
    db = tmp_path / "db.sqlite3"
    world, running, driver = await _five_clicks_in(fake, bots, db, guild_locale="zh-CN")
    await _lose_a_move(bots, running, driver)
    requests = len(fake.state.requests)

    fake.gateway.identify_delay = 1.0
    await bots.restart(running, make_bot(db, picture_processes=1))
    await quiet(bots)
    captions = [r.body for r in fake.state.requests[requests:]
                if r.channel_id == world.channel.id and r.files]
    assert captions, "the table picture was not redrawn"
    assert all("庄家" in str(c) and "Dealer" not in str(c) for c in captions), captions


TURN = 12 * 3600  # the default turn timer


def _live(fake: FakeDiscord, user: Any) -> list[FakeMessage]:
    """The user's DMs still showing move buttons."""
    return [m for m in fake.dms(user)
            if any(c.startswith(("mj:mv:", "mj:dc:")) for c in fake.custom_ids(m))]


async def _reminded_after_a_restart(fake: FakeDiscord, bots: BotLauncher,
                                    bot: Callable[[FakeClock], Awaitable[Any]]) -> None:
    """A decision's DM goes out, the bot restarts, the half-time reminder comes: the
    reminder is the one DM with live buttons."""
    clock = FakeClock(start=1_800_000_000.0)
    world = make_world(fake)
    running = await bots.start(await bot(clock))
    await open_table(world, hands=1)
    await quiet(bots)
    (table,) = await running.client.service.tables_in_channel(world.channel.id)
    (seat,) = table.deciding
    player = world.players[seat]
    assert len(_live(fake, player)) == 1

    running = await bots.restart(running, await bot(clock))
    await quiet(bots)
    await tick(clock, TURN / 2 + 1, running.client.service, bots)

    def reminded() -> list[FakeMessage]:
        return [m for m in fake.dms(player) if "Reminder" in m.content]

    # shared mode: the deadline is claimed through the database, after the tick
    await fake.wait_for(lambda: bool(reminded()), 10, "the reminder")
    await quiet(bots)
    reminders = reminded()
    assert len(reminders) == 1
    assert [m.id for m in _live(fake, player)] == [reminders[0].id]  # the first lost them


async def test_after_a_restart_the_reminder_takes_the_buttons_off_the_first_dm(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"

    async def bot(clock: FakeClock) -> Any:
        return make_bot(db, clock=clock, picture_processes=0)

    await _reminded_after_a_restart(fake, bots, bot)


async def test_after_a_restart_the_reminder_takes_the_buttons_off_the_first_dm_shared(
        fake: FakeDiscord, bots: BotLauncher, pg_url: str) -> None:
    stores: list[Store] = []

    async def bot(clock: FakeClock) -> Any:
        store = await Store.open(pg_url)
        stores.append(store)
        return make_bot(Path("unused"), store=store, clock=clock, picture_processes=0,
                        service_options={"shared": True})

    try:
        await _reminded_after_a_restart(fake, bots, bot)
    finally:
        await bots.stop_all()
        for store in stores:
            await store.close()


async def test_after_a_restart_an_answer_through_the_hand_command_takes_the_buttons_off_the_dm(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    world = make_world(fake)
    running = await bots.start(make_bot(db, picture_processes=0))
    await open_table(world, hands=1)
    await quiet(bots)
    (table,) = await running.client.service.tables_in_channel(world.channel.id)
    (seat,) = table.deciding
    player = world.players[seat]
    (dm,) = _live(fake, player)

    running = await bots.restart(running, make_bot(db, picture_processes=0))
    await quiet(bots)
    assert await Driver(world).via_command(player)  # the decision answered elsewhere
    await quiet(bots)
    assert (await running.client.service.table_info(table.ref.table_id)).deciding != (seat,)
    assert dm.id not in [m.id for m in _live(fake, player)]
