"""An idle table through the real bot (issue 32): a table nobody touched for ten
minutes leaves the bot's memory, and the player's click on the DM they were sent plays
the move as on a table in memory: the move lands, the DM's buttons go, the next player
is asked."""

from __future__ import annotations

from pathlib import Path

from botkit import (
    Driver,
    discard_decision,
    make_bot,
    make_world,
    moves_shown,
    open_table,
    quiet,
    tick,
)
from fakediscord import BotLauncher, FakeDiscord

from bot.service import FakeClock


async def test_a_click_on_an_idle_tables_dm_plays_the_move(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    clock = FakeClock(start=1_800_000_000.0)
    world = make_world(fake)
    running = await bots.start(make_bot(tmp_path / "db.sqlite3", clock=clock,
                                        picture_processes=0))
    await open_table(world)
    driver = Driver(world)
    owner, dm, menu, value = await discard_decision(driver, bots)
    service = running.client.service
    (table,) = await service.tables_in_channel(world.channel.id)
    await tick(clock, 11 * 60, service, bots)
    assert service._tables == {} and service.tables.unloaded == 1  # out of memory
    await (await fake.select(owner, dm, menu, value)).response()
    await quiet(bots)
    assert not moves_shown(fake, dm)  # played: the DM's buttons are gone
    after = await service.table_info(table.ref.table_id)
    assert after.deciding != table.deciding and table.ref.table_id in service._tables
    asked = [u for u in world.players if u.id != owner.id and driver.pending(u) is not None]
    assert asked  # someone after them is asked now
