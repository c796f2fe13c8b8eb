"""A crash between a move's commit and its DMs: the restart puts the decision in front
of the players the crash left without it (a DM with the current buttons, at once, once)
and redraws the table picture, and writes nothing to the players whose DM is current."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from botkit import (
    Driver,
    World,
    assert_secrecy,
    channel_files,
    make_bot,
    make_world,
    open_table,
    quiet,
)
from fakediscord import BotLauncher, FakeDiscord, FakeMessage

from bot.service import PrivateNotice, RecordingNotifier


def _step_of(fake: FakeDiscord, message: FakeMessage) -> tuple[int, int] | None:
    """(hand, step) the DM's move buttons carry (mj:mv:table:hand:pstep:move…), if any."""
    for custom_id in fake.custom_ids(message):
        if custom_id.startswith(("mj:mv:", "mj:dc:")):
            parts = custom_id.split(":")
            return int(parts[3]), int(parts[4].removeprefix("p"))
    return None


async def _five_clicks_in(fake: FakeDiscord, bots: BotLauncher, db: Path
                          ) -> tuple[World, Any, Driver]:
    """A bot on ``db`` with the table `open_table` opens, five clicks into its first
    hand, and quiet."""
    world = make_world(fake)
    running = await bots.start(make_bot(db))
    await open_table(world)
    driver = Driver(world)
    await driver.play_until(lambda: driver.clicks >= 5, idle=lambda: quiet(bots))
    await quiet(bots)
    return world, running, driver


async def test_a_decision_whose_dm_a_crash_lost_is_sent_at_the_restart(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    world, running, driver = await _five_clicks_in(fake, bots, db)
    # The crash: the next move commits, and everything it was to tell dies with the
    # process (nothing of it reaches the notifier).
    lost = RecordingNotifier()
    running.client.service.notifier = lost
    assert await driver.step()
    await quiet(bots)
    owed = {(n.user_id, (n.hand_number, n.public_step)) for n in lost.of("private_hand")
            if isinstance(n, PrivateNotice) and n.step is not None}
    assert owed, "the lost move opened no decision for a person"
    before = {p.id: len(fake.dms(p)) for p in world.players}
    pictures = channel_files(fake, world.channel, "table-")
    edits = sum(m.edits for m in pictures)

    await bots.restart(running, make_bot(db))
    await quiet(bots)

    for player in world.players:
        new = fake.dms(player)[before[player.id]:]
        wanted = {step for user, step in owed if user == player.id}
        got = [_step_of(fake, m) for m in new]
        assert got == sorted(wanted), (player.id, got, wanted)  # once each, nothing else
    # the channel's picture shows the state the lost move reached
    assert sum(m.edits for m in channel_files(fake, world.channel, "table-")) > edits \
        or len(channel_files(fake, world.channel, "table-")) > len(pictures)
    assert assert_secrecy(fake, world) > 0


async def test_a_clean_restart_sends_no_dm(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    world, running, driver = await _five_clicks_in(fake, bots, db)
    before = {p.id: len(fake.dms(p)) for p in world.players}
    messages = len(fake.messages(world.channel))

    await bots.restart(running, make_bot(db))
    await quiet(bots)

    assert {p.id: len(fake.dms(p)) for p in world.players} == before
    assert len(fake.messages(world.channel)) == messages
    # and play goes on from the DMs sent before the restart
    clicks = driver.clicks
    await driver.play_until(lambda: driver.clicks >= clicks + 3, idle=lambda: quiet(bots))
