"""Ratings through the real bot: a finished match rates its people (a computer never),
and ``/mahjong ratings rebuild`` is a server manager's, answered privately in their
language, acting on their own server alone; anyone else, and a private message, is
refused with its own sentence."""

from __future__ import annotations

from pathlib import Path

import pytest
from botkit import Driver, answer, channel_files, latest_bot, make_bot, make_world, slash
from botkit import quiet as settled
from fakediscord import BotLauncher, FakeDiscord

from bot.service.fairness import Deal
from tests.service.helpers import QUIET, stacked

MANAGE_GUILD = 1 << 5
# The dealer (p1, seat 0) is dealt a complete hand and wins at once (天胡).
HEAVENLY = {0: "123m456m789m123p55p", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
REBUILD = ("mahjong", "ratings", "rebuild")


async def test_a_match_rates_its_people_and_a_manager_rebuilds_privately(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)
    world = make_world(fake, count=3)
    mods = fake.add_role(world.guild, "mods", MANAGE_GUILD)
    p1, p2, p3 = world.players
    fake.add_member(world.guild, p3, [mods])
    mallory = fake.add_user(666, "mallory")
    rival = fake.add_guild(901, "Rival", owner=mallory, members=[mallory])

    def heavenly(rules: str, dealer: int) -> Deal:
        return stacked(HEAVENLY, rules)(rules, dealer)

    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0,
                              service_options={"deal": heavenly}))
    bot = latest_bot(bots)
    # three people and a computer, a match of one hand
    await answer(await slash(world, p1, "new", rules="shanghai", hands=1))
    for player in (p2, p3):
        await answer(await slash(world, player, "join"))
    await answer(await slash(world, p1, "addbot"))
    await answer(await slash(world, p1, "start"))
    await Driver(world).play_until(
        lambda: bool(channel_files(fake, world.channel, "leaderboard")),
        idle=lambda: settled(bots))
    await settled(bots)
    people = [p.id for p in world.players]
    rated = await bot.store.ratings.shown(world.guild.id, "shanghai", people)
    assert sorted(rated) == sorted(people)  # and nobody for the computer seat
    assert len(await bot.store.ratings.changes_between(world.guild.id, 0, 2e9)) == 3
    assert rated[p1.id].shown > rated[p2.id].shown and rated[p1.id].provisional

    refused = await answer(await fake.slash(p2, world.guild, world.channel, *REBUILD))
    assert refused.ephemeral
    assert refused.content == ("Only a server manager (Manage Server) can rebuild this "
                               "server's ratings.")
    done = await answer(await fake.slash(p3, world.guild, world.channel, *REBUILD))
    assert done.ephemeral and (done.content or "").startswith(
        "**Ratings rebuilt** for this server: 1 finished match(es) replayed in order, 1 of "
        "them rated")
    assert "No rating moved" in (done.content or "")
    zh = await answer(await fake.slash(p3, world.guild, world.channel, *REBUILD,
                                       locale="zh-CN"))
    assert zh.ephemeral and (zh.content or "").startswith("**本服务器的等级分已重建**")
    in_dm = await answer(await fake.slash(p3, None, None, *REBUILD))
    assert in_dm.ephemeral and "Rebuilt" not in (in_dm.content or "")
    # another server's manager rebuilds theirs: nothing of Club's is touched
    there = fake.channel(rival, "general")
    theirs = await answer(await fake.slash(mallory, rival, there, *REBUILD))
    assert "0 finished match(es) replayed" in (theirs.content or "")
    assert await bot.store.ratings.shown(world.guild.id, "shanghai", people) == rated
    assert await bot.store.ratings.shown(rival.id, "shanghai", people) == {}

