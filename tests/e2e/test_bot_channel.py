"""The channel side: one live table picture (re-posted, not edited, once old), and
interactions answered in time even when the work is slow (deferred, then followed up)."""

from __future__ import annotations

from pathlib import Path

import pytest
from botkit import Driver, channel_files, make_bot, make_world, open_table, quiet, slash
from fakediscord import BotLauncher, FakeDiscord

import bot.discord.core.answering as answering


async def test_an_old_table_picture_is_reposted_and_only_one_stays(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3", repost_after=0.0,
                              picture_processes=0))
    await open_table(world, mentions="every_turn")
    driver = Driver(world)
    await driver.play_until(lambda: driver.clicks >= 8, idle=lambda: quiet(bots))
    await quiet(bots)
    posted = [r for r in fake.requests("POST", f"/channels/{world.channel.id}/messages")
              if any(f.filename.startswith("table-") for f in r.files)]
    assert len(posted) >= 2  # each update came as a new message…
    assert len(channel_files(fake, world.channel, "table-")) == 1  # …and the old one went
    # the turn ping: one message at a time, the previous one deleted
    pings = [m for m in fake.messages(world.channel) if "your turn" in m.content]
    assert len(pings) == 1


async def test_slow_work_is_deferred_then_answered(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(answering, "DEFER_AFTER", 0.0)
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    created = await slash(world, world.players[0], "new", rules="hangzhou")
    first = await created.response()
    assert first.type == 5  # deferred within the 3 seconds…
    followups = await created.wait_followups()
    assert "Table #1" in followups[0].content  # …then answered
    await open_table_rest(world, fake)
    driver = Driver(world)
    await driver.play_until(lambda: driver.clicks >= 4, idle=lambda: quiet(bots))
    deferred = [r for r in fake.interaction_responses() if r.type == 6]
    assert len(deferred) >= 4  # the clicks were deferred updates, then edited
    assert not driver.refusals


async def open_table_rest(world: object, fake: FakeDiscord) -> None:
    """Seat three more by /mahjong join and start (after a /mahjong new)."""
    from botkit import World

    assert isinstance(world, World)
    for player in world.players[1:]:
        handle = await slash(world, player, "join")
        await handle.response()
        await handle.wait_followups()
    start = await slash(world, world.players[0], "start")
    await start.response()
    await start.wait_followups()


async def test_the_table_picture_is_edited_in_place_with_its_new_picture(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    """The edit (`Poster.edit_picture`, one body) is the request discord.py's own edit
    was: PATCH of the one live message, its caption and a new PNG, none refused."""
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3", table_interval=0.0,
                              picture_processes=0))
    await open_table(world)
    driver = Driver(world)
    await driver.play_until(lambda: driver.clicks >= 6, idle=lambda: quiet(bots))
    await quiet(bots)
    (live,) = channel_files(fake, world.channel, "table-")
    edits = fake.requests("PATCH", f"/channels/{world.channel.id}/messages/{live.id}")
    assert len(edits) >= 2 and live.edits >= 2
    assert all(r.status == 200 and len(r.files) == 1 for r in edits)
    assert all(r.files[0].data.startswith(b"\x89PNG") for r in edits)
    assert live.content == edits[-1].body["content"] and "table #" in live.content
    assert not fake.failures()
