"""Timers through the real bot with a fake clock: the half-time reminder comes by DM
once, and a decision left to its deadline is played by default (the game goes on)."""

from __future__ import annotations

from pathlib import Path

from botkit import make_bot, make_world, open_table, quiet, tick
from fakediscord import BotLauncher, FakeDiscord

from bot.service import FakeClock

TURN = 12 * 3600  # the default turn timer


async def test_a_reminder_then_the_default_move(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    clock = FakeClock(start=1_800_000_000.0)
    world = make_world(fake)
    running = await bots.start(make_bot(tmp_path / "db.sqlite3", clock=clock,
                                        picture_processes=0))
    await open_table(world, hands=1)
    await quiet(bots)
    service = running.client.service
    (table,) = await service.tables_in_channel(world.channel.id)
    (seat,) = table.deciding
    player = world.players[seat]
    await tick(clock, TURN / 4, service, bots)
    assert not [m for m in fake.dms(player) if "Reminder" in m.content]
    await tick(clock, TURN / 4 + 1, service, bots)
    reminders = [m for m in fake.dms(player) if "Reminder" in m.content]
    assert len(reminders) == 1 and reminders[0].components
    assert "<t:" in reminders[0].content  # the deadline, as a Discord timestamp
    await tick(clock, TURN, service, bots)
    after = await service.table_info(table.ref.table_id)
    assert after.deciding != (seat,)  # the default discard was played for the seat
    assert len([m for m in fake.dms(player) if "Reminder" in m.content]) == 1
