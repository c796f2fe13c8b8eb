"""``/mahjong turns`` against the fake Discord: a person sitting at tables in two
servers is told, privately, where a decision waits for them (links to each table's
channel), from a server's channel and from their DMs with the bot; someone else is told
that nothing waits for them, and nothing of the other seats. And the digest: after a
night of quiet hours on a fake clock, one DM that notifies lists both tables."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from botkit import World, answer, latest_bot, make_bot, make_world, open_table, quiet, tick
from fakediscord import SUPPRESS_NOTIFICATIONS, BotLauncher, FakeDiscord, FakeUser

from bot.discord.core.i18n import t
from bot.service import FakeClock

RIVAL = 901


async def _second_server(fake: FakeDiscord, world: World) -> tuple[int, int]:
    """p1 opens a Hangzhou table in the server Rival, p2 joins, two computers fill it,
    p1 starts it (and deals: first dealer fixed at seat 0). Its server and channel."""
    p1, p2 = world.players[0], world.players[1]
    rival = fake.add_guild(RIVAL, "Rival", owner=p1, members=[p1, p2])
    there = fake.channel(rival, "general")
    for user, command, options in ((p1, "new", {"rules": "hangzhou", "hands": 2}),
                                   (p2, "join", {}), (p1, "addbot", {}), (p1, "addbot", {}),
                                   (p1, "start", {})):
        said = await answer(await fake.slash(user, rival, there, "mahjong", command,
                                             options=options))
        assert "#2" in (said.content or "") or command not in ("new", "start"), said
    return rival.id, there.id


async def _turns(fake: FakeDiscord, world: World, user: FakeUser, *, private: bool = False,
                 locale: str | None = None) -> str:
    handle = await fake.slash(user, None if private else world.guild,
                              None if private else world.channel, "mahjong", "turns",
                              locale=locale)
    message = await answer(handle)
    assert message.ephemeral  # the list is its person's alone
    return message.content or ""


async def test_turns_lists_the_tables_of_two_servers_privately(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await open_table(world)  # table 1 in Club's #general: p1 deals, p1's turn
    rival, there = await _second_server(fake, world)  # table 2: p1's turn there too
    await quiet(bots)
    p1, p2 = world.players[0], world.players[1]

    text = await _turns(fake, world, p1)
    title, first, second = text.split("\n")
    assert title == "**Waiting for you** (2), the soonest first:"
    # the same timer at both: the table dealt first is due first
    assert first.startswith("1. Shanghai · table #1 · hand 1 of 1: your turn; decide <t:")
    assert f"https://discord.com/channels/{world.guild.id}/{world.channel.id}" in first
    assert second.startswith("2. Hangzhou · table #2 · hand 1 of 2: your turn; decide <t:")
    assert f"https://discord.com/channels/{rival}/{there}" in second
    # the same list in the DMs with the bot, in the reader's language
    assert await _turns(fake, world, p1, private=True) == text
    zh = await _turns(fake, world, p1, private=True, locale="zh-CN")
    assert zh.startswith("**等你决定的牌局**（2）") and "第 2 桌" in zh

    # p2 sits at both tables and decides nothing now; a stranger sits nowhere
    for other in (p2, world.outsider):
        assert await _turns(fake, world, other) == t("reply.turns.none", "en-US")


async def test_a_tables_command_in_private_messages_says_where_it_works(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    p1 = world.players[0]
    for command, options in (("new", {"rules": "shanghai"}), ("join", {}), ("hand", {})):
        handle = await fake.slash(p1, None, None, "mahjong", command, options=options)
        message = await answer(handle)
        assert message.ephemeral and message.content == t("error.server_only", "en-US")
    await quiet(bots)
    assert await latest_bot(bots).store.lobby.live_tables() == []  # nothing opened
    rules = await answer(await fake.slash(p1, None, None, "mahjong", "rules"))
    assert "Shanghai" in (rules.content or "")


EVENING = 1772452800.0
"""2026-03-02 20:00 in Asia/Shanghai: before p1's quiet hours (23:00–07:00)."""
HOUR = 3600.0


async def test_one_digest_dm_when_the_quiet_hours_end(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)
    clock = FakeClock(EVENING)
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3", clock=clock, picture_processes=0))
    bot = latest_bot(bots)
    await open_table(world)
    rival, there = await _second_server(fake, world)  # p1's turn at both tables
    await quiet(bots)
    p1 = world.players[0]
    said = await answer(await fake.slash(p1, None, None, "mahjong", "quiet", options={
        "start": "23:00", "end": "07:00", "time_zone": "Asia/Shanghai"}))  # in her DMs
    assert said.ephemeral and await bot.store.people.get(p1.id) is not None

    def digests() -> list[str]:
        return [m.content for m in fake.dms(p1) if "quiet hours are over" in m.content]

    await tick(clock, 3.5 * HOUR, bot.service, bots)  # 23:30: quiet, a digest is owed
    for _ in range(500):  # the digests' loop looks beside the scheduler's
        owed = await bot.store.digests.owed(p1.id)
        if owed is not None:
            break
        await asyncio.sleep(0.01)
    assert owed is not None and owed.due_at == EVENING + 11 * HOUR
    await tick(clock, 7.5 * HOUR - 60, bot.service, bots)  # 06:59
    assert digests() == []
    await tick(clock, 60, bot.service, bots)  # 07:00
    await fake.wait_for(digests, what="the digest DM")
    await quiet(bots)
    (text,) = digests()
    (message,) = [m for m in fake.dms(p1) if m.content == text]
    assert not message.silent and not message.flags & SUPPRESS_NOTIFICATIONS  # it notifies
    title, first, second = text.split("\n")
    assert title.startswith("**Your quiet hours are over.** Waiting for you (2)")
    assert "table #1" in first and f"channels/{world.guild.id}/{world.channel.id}" in first
    assert "table #2" in second and f"channels/{rival}/{there}" in second
    for other in world.players[1:]:
        assert not [m for m in fake.dms(other) if "quiet hours" in m.content]
    await tick(clock, 2 * HOUR, bot.service, bots)
    assert len(digests()) == 1  # once
