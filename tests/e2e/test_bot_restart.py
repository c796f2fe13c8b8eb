"""The bot restarts mid-hand (a new client, the same database): the buttons sent
before the restart still work, and the hand plays on to its settlement."""

from __future__ import annotations

from pathlib import Path

from botkit import Driver, assert_secrecy, channel_files, make_bot, make_world, open_table, quiet
from fakediscord import BotLauncher, FakeDiscord


async def test_old_buttons_work_after_a_restart(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    world = make_world(fake)
    running = await bots.start(make_bot(db))
    await open_table(world)
    driver = Driver(world)
    await driver.play_until(lambda: driver.clicks >= 12, idle=lambda: quiet(bots))
    await quiet(bots)
    before = max(m.id for p in world.players for m in fake.dms(p))
    running = await bots.restart(running, make_bot(db))
    old_clicks: list[int] = []
    driver.on_click = lambda handle: old_clicks.append(handle.record.source_message_id or 0)
    await driver.play_until(lambda: bool(channel_files(fake, world.channel, "settlement-")),
                            idle=lambda: quiet(bots))
    assert any(m <= before for m in old_clicks), "no button from before the restart was used"
    assert not driver.refusals
    await quiet(bots)
    assert channel_files(fake, world.channel, "leaderboard-")
    assert assert_secrecy(fake, world) > 0
    # the lobby and the table picture were taken over, not posted again
    assert len([m for m in fake.messages(world.channel) if m.embeds]) == 1
    assert len(channel_files(fake, world.channel, "table-")) == 1
