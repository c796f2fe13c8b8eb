"""The away_leaves table option through the real bot: set with /mahjong new, shown by
/mahjong rules in English and 简体中文, and a player who times out is told in the
channel that they left the match and what the 逃跑 penalty was."""

from __future__ import annotations

import asyncio
from pathlib import Path

from botkit import make_bot, make_world, open_table, quiet, slash
from fakediscord import BotLauncher, FakeDiscord

from bot.service import FakeClock
from tests.narrowing import known


async def test_a_timed_out_player_leaves_the_match_when_the_table_says_so(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    clock = FakeClock(start=1_800_000_000.0)
    world = make_world(fake, locales=["en-US", "zh-CN"])
    running = await bots.start(make_bot(tmp_path / "db.sqlite3", clock=clock,
                                        picture_processes=0))
    await open_table(world, rules="hangzhou", turn_timer=30, away_after=1, away_leaves=True)
    await quiet(bots)
    en = await (await slash(world, world.players[0], "rules")).response()
    assert "Those timeouts count as leaving the match (逃跑): on" in (en.content or "")
    zh = await (await slash(world, world.players[1], "rules")).response()
    assert "连续超时视为逃跑（离开本场）：开" in (zh.content or "")
    service = running.client.service
    (table,) = await service.tables_in_channel(world.channel.id)
    (seat,) = table.deciding
    clock.advance(31)
    await asyncio.sleep(0.02)  # the scheduler wakes
    await service.scheduler.drain()
    await quiet(bots)
    name = known(table.seats[seat]).name
    told = [m.content for m in fake.messages(world.channel)
            if m.content and "has left the match" in m.content]
    assert told == [f"{name} timed out too many times in a row and has left the match: the "
                    "computer plays the seat until the match ends. 逃跑 penalty: 8."]
    after = await service.table_info(table.ref.table_id)
    assert known(after.seats[seat]).is_computer and known(after.totals)[seat] == -8
