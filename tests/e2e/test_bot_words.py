"""The words players read about a match's progress, through the real bot: the lobby
message follows the hand being played, and `/mahjong score` counts the hands played."""

from __future__ import annotations

import re
from pathlib import Path

from botkit import Driver, channel_files, make_bot, make_world, open_table, quiet, slash
from fakediscord import BotLauncher, FakeChannel, FakeDiscord, FakeMessage


def _lobby(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    return next(m for m in fake.messages(channel) if m.embeds and "table #1" in
                m.embeds[0].get("title", ""))


def _statuses(message: FakeMessage) -> list[str]:
    """The lobby's status line in every state it has been in, oldest first."""
    states = [*message.versions, {"embeds": message.embeds}]
    return [s["embeds"][0].get("description", "") for s in states if s.get("embeds")]


async def test_lobby_follows_each_hand_and_score_counts_the_hands_played(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await open_table(world, hands=2)
    over = "The match at table #1 is over"
    driver = Driver(world)
    await driver.play_until(
        lambda: any(over in m.content for m in fake.messages(world.channel)),
        idle=lambda: quiet(bots))
    await quiet(bots)
    statuses = _statuses(_lobby(fake, world.channel))
    playing = [s for s in statuses if s.startswith("Playing")]
    # each hand dealt shows in the lobby, in order, and never "hand 0"
    assert [s for i, s in enumerate(playing) if s not in playing[:i]] == [
        "Playing: hand 1 of 2.", "Playing: hand 2 of 2."], statuses
    assert statuses[-1] == "The match is over."
    # every win's settlement says how each payment comes from the hand's value
    for m in channel_files(fake, world.channel, "settlement-"):
        assert " is drawn: nobody wins" in m.content or "How it is paid:" in m.content, \
            m.content
    score = await (await slash(world, world.players[1], "score")).response()
    assert "after 2 of 2 hands" in (score.content or ""), score.content


CODE = re.compile(r"(?<![`\w])[1-9][mpszf]\b")
"""A tile code ("7p", "5z"): the notation players are never shown (only the revealed
wall, in code, carries it)."""


def _outside_code(text: str) -> str:
    return re.sub(r"`[^`]*`", "", text)


async def test_tiles_are_named_in_each_readers_language_never_coded(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake, locales=["zh-CN"])
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await open_table(world, rules="hangzhou")
    driver = Driver(world)
    await driver.play_until(lambda: bool(channel_files(fake, world.channel, "settlement-")),
                            idle=lambda: quiet(bots))
    await quiet(bots)
    zh, en = fake.dms(world.players[0]), fake.dms(world.players[1])
    assert zh and en
    for m in [*zh, *en, *fake.messages(world.channel)]:
        for version in [m.content, *(str(v.get("content", "")) for v in m.versions)]:
            assert not CODE.search(_outside_code(version)), version
        for option in (o for c in fake.components(m) if c.options
                       for o in c.raw.get("options", [])):
            assert not CODE.search(option["label"] + (option.get("description") or "")), \
                option
    assert any("你的手牌：" in m.content for m in zh)
    hands = [line for m in zh for line in m.content.splitlines() if "你的手牌" in line]
    assert all(re.search(r"[一二三四五六七八九][万筒条]|[东南西北]风|白板|发财|红中", h)
               for h in hands), hands


async def test_the_picture_legend_is_said_once_a_match_and_on_request(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await open_table(world, hands=2)
    driver = Driver(world)
    await driver.play_until(
        lambda: len(channel_files(fake, world.channel, "settlement-")) >= 2,
        idle=lambda: quiet(bots))
    await quiet(bots)
    for player in world.players:
        dms = fake.dms(player)
        told = [m for m in dms if "In the picture:" in m.content]
        turns = [m for m in dms if "Your turn:" in m.content]
        assert len(turns) > 3 and 1 <= len(told) <= 2, [m.content for m in told]
        assert all("hand 1**" in m.content for m in told)
    rules = await (await slash(world, world.players[0], "rules")).response()
    assert "Your hand picture: the numbers under the tiles" in (rules.content or "")
