"""``/mahjong stats`` through the real bot against the fake Discord: after a match in the
channel, a player's card and text are posted in the channel (the server's language),
someone else's and a head-to-head too; every server's figures come privately and only
for oneself; in private messages only those; a person with no game gets a kind word."""

from __future__ import annotations

from pathlib import Path

import pytest
from botkit import Driver, World, answer, channel_files, make_bot, make_world, open_table, quiet
from fakediscord import BotLauncher, FakeDiscord, FakeMessage

from bot.discord.core.i18n import t
from bot.service.fairness import Deal
from tests.service.helpers import QUIET, stacked

# The dealer (p1, seat 0) is dealt a complete hand and wins at once (天胡).
HEAVENLY = {0: "123m456m789m123p55p", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}


async def _played(fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
                  monkeypatch: pytest.MonkeyPatch, guild_locale: str) -> World:
    """A one-hand Shanghai match in the channel, won by p1 on the deal."""
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)
    world = make_world(fake, guild_locale=guild_locale)

    def heavenly(rules: str, dealer: int) -> Deal:
        return stacked(HEAVENLY, rules)(rules, dealer)

    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0,
                              service_options={"deal": heavenly}))
    await open_table(world, "shanghai", hands=1)

    def over() -> bool:
        return bool(channel_files(fake, world.channel, "leaderboard"))

    await Driver(world).play_until(over, idle=lambda: quiet(bots))
    await quiet(bots)
    return world


async def _stats(world: World, user: object, *, private: bool = False,
                 locale: str | None = None, **options: object) -> FakeMessage:
    fake = world.fake
    handle = await fake.slash(user, None if private else world.guild,  # type: ignore[arg-type]  # a FakeUser
                              None if private else world.channel, "mahjong", "stats",
                              options=dict(options), locale=locale)
    return await answer(handle)


async def test_stats_in_the_channel_privately_and_refused(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    world = await _played(fake, bots, tmp_path, monkeypatch, "en-US")
    p1, p2 = world.players[0], world.players[1]

    mine = await _stats(world, p1)
    assert not mine.ephemeral  # the channel's figures: posted in the channel
    assert [a.filename for a in mine.attachments] == ["stats.png"]
    lines = (mine.content or "").splitlines()
    assert lines[0] == "**p1** · Shanghai · this channel"
    assert lines[1].startswith("Matches 1 · hands 1 · average place 1 · first 100%")
    assert "Biggest hand: " in mine.content and "天胡 Heavenly Hand" in mine.content

    theirs = await _stats(world, p2, player=p1.id, versus=p2.id)
    assert not theirs.ephemeral and (theirs.content or "").startswith("**p1** ·")
    assert "Against p2: matches together 1 (placed higher 1 : 0), hands together 1" \
        in (theirs.content or "")

    # every server's: privately, and only one's own
    everywhere = await _stats(world, p1, scope="all")
    assert everywhere.ephemeral and "every server" in (everywhere.content or "")
    refused = await _stats(world, p2, player=p1.id, scope="all")
    assert refused.ephemeral and not refused.attachments
    assert t("refused.stats_all_others", "en-US") in (refused.content or "")
    # in private messages: one's own every server, nothing else
    dm = await _stats(world, p1, private=True)
    assert dm.ephemeral and (dm.content or "").startswith("**p1** · Shanghai · every server")
    no = await _stats(world, p1, private=True, scope="channel")
    assert t("refused.stats_private_scope", "en-US") in (no.content or "")
    # someone who never played: kind words, not zeros
    nobody = await _stats(world, world.outsider)
    assert "stranger has no finished hand in this channel yet" in (nobody.content or "")


async def test_stats_are_posted_in_the_server_s_language(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    world = await _played(fake, bots, tmp_path, monkeypatch, "zh-CN")
    p1 = world.players[0]
    said = await _stats(world, p1, scope="server")
    assert not said.ephemeral and [a.filename for a in said.attachments] == ["stats.png"]
    assert (said.content or "").startswith("**p1** · 上海 · 本服务器")
    assert "1 场 1 局 · 平均名次 1 · 一位率 100%" in (said.content or "")
    # a private answer speaks the reader's language
    mine = await _stats(world, p1, scope="all", locale="en-US")
    assert mine.ephemeral and "every server" in (mine.content or "")
