"""Idle tables leave the adapter too (issue 32), through the real bot on SQLite,
PostgreSQL and PostgreSQL in shared mode: several tables played to a decision, then
left idle, leave the service's memory and every map the presenter keeps of a table;
then a click on each table's DM plays its move as on a table that stayed: the DM
clicked shows the move (no new DM echoes it) and the next player is asked."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from botkit import Driver, World, discard_decision, moves_shown, open_table, quiet
from deliverykit import DATABASES, Database, database_of
from fakediscord import BotLauncher, FakeDiscord

from bot.discord.client import MahjongBot
from bot.discord.hand.replies import LiveReplies
from bot.discord.play.move_dms import KnownHere

TABLES = 3
IDLE_AFTER = 1.0


@pytest.fixture(params=DATABASES)
async def database(request: pytest.FixtureRequest, tmp_path: Path
                   ) -> AsyncIterator[Database]:
    async with database_of(request, request.param, tmp_path) as db:
        yield db


def held(bot: MahjongBot) -> dict[str, int]:
    """How much each map the presenter keeps by table (or a table's seat) holds."""
    notifier = bot.notifier
    dms, replies = notifier.dms, notifier.replies
    assert isinstance(replies, LiveReplies)
    sizes = {"tables": len(notifier.tables), "dms pending": len(dms._pending),
             "clicked off": len(dms.move_dms.clicked_off),
             "replies": len(replies._replies) + len(replies._seen),
             "deliveries": len(notifier.outbox.busy_keys())}
    if isinstance(dms.move_dms, KnownHere):
        sizes["move dms"] = len(dms.move_dms.move_dms)
    return sizes


def worlds(fake: FakeDiscord) -> list[World]:
    """A server with a channel and four people for each table."""
    guild = fake.add_guild(900, "Club", channels=[f"t{i}" for i in range(TABLES)])
    outsider = fake.add_user(999, "stranger")
    made = []
    for i in range(TABLES):
        players = [fake.add_user(300 + 10 * i + k, f"p{i}{k}") for k in range(4)]
        for player in players:
            fake.add_member(guild, player)
        made.append(World(fake, guild, fake.channel(guild, f"t{i}"), players, outsider))
    return made


async def test_idle_tables_leave_the_adapter_and_come_back_as_they_left(
        database: Database, fake: FakeDiscord, bots: BotLauncher) -> None:
    places = worlds(fake)
    bot = await database.bot(service_options={**database.options,
                                              "idle_after": IDLE_AFTER})
    await bots.start(bot)
    decisions = []
    for world in places:
        await open_table(world)
        driver = Driver(world)
        decisions.append((driver, *await discard_decision(driver, bots, table=None)))
    await quiet(bots)
    for _ in range(200):  # nobody plays: every table goes idle
        if not bot.service._tables and not len(bot.notifier.tables):
            break
        await asyncio.sleep(0.1)
    await bot.notifier.tables.drain()
    assert bot.service.tables.unloaded >= TABLES
    assert set(held(bot).values()) == {0}, held(bot)
    for driver, user, dm, menu, value in decisions:
        before = len(fake.dms(user))
        await (await fake.select(user, dm, menu, value)).response()
        await quiet(bots)
        assert not moves_shown(fake, dm)  # played: the DM's buttons are gone
        assert len(fake.dms(user)) == before  # the DM clicked shows it: no echo DMed
        assert any(driver.pending(u) is not None for u in driver.world.players
                   if u.id != user.id)  # someone after them is asked now
