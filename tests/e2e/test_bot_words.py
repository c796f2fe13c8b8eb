"""The words players read, through the real bot: public posts in the server's language,
private answers in the reader's, refusals as one sentence, computer players' names,
the history of a hand."""

from __future__ import annotations

from pathlib import Path

from botkit import make_bot, make_world, open_table, quiet, slash
from fakediscord import BotLauncher, FakeDiscord


async def test_the_table_command_posts_in_the_servers_language(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake, locales=["zh-CN"], guild_locale="en-US")
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    zh = world.players[0]
    await open_table(world)
    await quiet(bots)
    table = await (await slash(world, zh, "table")).response()
    assert not table.ephemeral
    assert "table #1" in (table.content or "") and "第 1 桌" not in (table.content or "")
    # a private answer to the same player speaks their language
    private = await (await slash(world, zh, "join")).response()
    assert private.ephemeral and "不再接受入座" in (private.content or "")


async def test_a_chinese_server_sees_its_table_in_chinese_whoever_asks(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake, guild_locale="zh-CN")
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await open_table(world)
    await quiet(bots)
    table = await (await slash(world, world.players[1], "table")).response()
    assert not table.ephemeral and "第 1 桌" in (table.content or "")
