"""The real bot against the fake Discord: four people open a table, join, start and
play a whole hand to its settlement by clicking what they received."""

from __future__ import annotations

import re
from pathlib import Path

from botkit import (
    Driver,
    answer,
    assert_secrecy,
    channel_files,
    make_bot,
    make_world,
    open_table,
    quiet,
    slash,
    texts,
)
from fakediscord import BotLauncher, FakeDiscord


async def test_four_players_play_a_hand_by_dm_to_its_settlement(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake)
    running = await bots.start(make_bot(tmp_path / "db.sqlite3"))
    names = {c["name"] for c in fake.commands()}
    assert names == {"mahjong"}
    await open_table(world, hands=1)
    driver = Driver(world)
    await driver.play_until(lambda: bool(channel_files(fake, world.channel, "leaderboard-")),
                            idle=lambda: quiet(bots))
    await quiet(bots)
    channel = fake.messages(world.channel)
    settlement = channel_files(fake, world.channel, "settlement-")
    assert len(settlement) == 1
    assert any("SHA-256" in m.content for m in channel)  # the wall's commitment
    assert any("salt" in m.content for m in channel)  # and its reveal
    board = channel_files(fake, world.channel, "leaderboard-")[-1]
    assert board.content.startswith("**Shanghai leaderboard of this channel")
    # the leaderboard shows the totals the settlement announced
    totals = re.search(r"Match totals: (.*)", settlement[0].content)
    assert totals is not None
    for name, amount in re.findall(r"(p\d) ([+−]?[\d.]+)", totals[1]):
        assert re.search(rf"\b{name}: {re.escape(amount)} ", board.content), (name, amount)
    # every player got DMs with their own hand picture and clicked through them
    for i, player in enumerate(world.players):
        files = [a.filename for m in fake.dms(player) for a in m.attachments]
        assert files and all(f == f"hand-1-{i}.png" for f in files), files
    assert driver.clicks > 20
    # the hand is over: no DM offers a move any more (clicked or superseded ones lost
    # their buttons)
    for player in world.players:
        for m in fake.dms(player):
            assert not [c for c in fake.custom_ids(m) if c.startswith(("mj:mv", "mj:dc"))]
    # the leaderboard command shows the same totals
    handle = await slash(world, world.players[1], "leaderboard")
    response = await answer(handle)
    assert not response.ephemeral and response.content == board.content
    assert texts(board)
    assert running.client.is_ready()
    assert assert_secrecy(fake, world) > 20


async def test_three_people_and_a_computer_play_hangzhou(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake, count=3, locales=["zh-CN"])
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    first = world.players[0]
    assert (await (await slash(world, first, "new", rules="hangzhou", hands=1)
                   ).response()).ephemeral
    for player in world.players[1:]:
        await (await slash(world, player, "join")).response()
    added = await (await slash(world, first, "addbot")).response()
    assert "4" in (added.content or "")
    await (await slash(world, first, "start")).response()
    driver = Driver(world)
    await driver.play_until(lambda: bool(channel_files(fake, world.channel, "settlement-")),
                            idle=lambda: quiet(bots))
    await quiet(bots)
    assert any("财神" in m.content for m in fake.dms(first))  # Chinese DMs, with the wildcard
    # What just happened is told in Chinese too, not in the service's English.
    dm_text = "\n".join(m.content or "" for m in fake.dms(first))
    assert "打出" in dm_text and " discarded " not in dm_text
    assert assert_secrecy(fake, world) > 10
