"""Every answer that uploads a picture is deferred first (callback type 5), so a slow
picture never misses Discord's 3 seconds; the picture comes in the followup, which
keeps the deferral's privacy. A private answer to a publicly deferred command (no table
here) takes the public "thinking" message away and says it privately."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from botkit import Driver, answer, channel_files, make_bot, make_world, open_table, quiet, slash
from fakediscord import BotLauncher, FakeDiscord

from engine.view import PlayerView

DEFERRED = 5


async def test_picture_answers_are_deferred_first(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await open_table(world, hands=1)
    await quiet(bots)
    owner = world.players[0]

    hand = await slash(world, owner, "hand")
    first = await hand.response()
    assert first.type == DEFERRED and first.ephemeral
    shown = await answer(hand)
    assert shown.ephemeral and [a.filename for a in shown.attachments] == ["hand-1-0.png"]
    assert shown.components  # the buttons to play with

    table = await slash(world, world.players[1], "table")
    first = await table.response()
    assert first.type == DEFERRED and not first.ephemeral
    shown = await answer(table)
    assert not shown.ephemeral and [a.filename for a in shown.attachments] == ["table-1.png"]
    assert "table #1" in shown.content

    driver = Driver(world)
    await driver.play_until(lambda: bool(channel_files(fake, world.channel, "leaderboard-")),
                            idle=lambda: quiet(bots))
    await quiet(bots)
    board = await slash(world, world.players[2], "leaderboard")
    first = await board.response()
    assert first.type == DEFERRED and not first.ephemeral
    shown = await answer(board)
    assert not shown.ephemeral
    assert [a.filename for a in shown.attachments] == ["leaderboard.png"]


async def test_a_private_answer_to_a_picture_command_stays_private(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake, locales=["zh-CN"])
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    # no table in the channel: /mahjong table is deferred publicly, the refusal is private
    table = await slash(world, world.players[1], "table")
    assert (await table.response()).type == DEFERRED
    said = await answer(table)
    assert said.ephemeral and "/mahjong new" in said.content
    assert table.original is None or table.original.deleted
    assert [m for m in fake.messages(world.channel) if not m.deleted and not m.ephemeral] == []
    # someone not seated asks for a hand: deferred privately, refused privately, in 中文
    await open_table(world)
    await quiet(bots)
    hand = await slash(world, world.outsider, "hand")
    first = await hand.response()
    assert first.type == DEFERRED and first.ephemeral
    said = await answer(hand)
    assert said.ephemeral and said.attachments == [] and said.content
    zh = await slash(world, world.players[0], "table")
    assert (await zh.response()).type == DEFERRED
    assert not (await answer(zh)).ephemeral


async def test_picture_commands_draw_in_the_picture_processes(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    """`/mahjong hand`, `table` and `leaderboard` draw where the DMs and the channel's table
    are drawn, in the warm picture processes: a drawing thread in the bot's own process
    would hold the event loop's GIL, and its first picture pays the renderer's start-up
    (its shared palette alone takes most of a second) while every click waits."""
    world = make_world(fake)
    bot = make_bot(tmp_path / "db.sqlite3", picture_processes=1)
    await bots.start(bot)
    await open_table(world, hands=1)
    await quiet(bots)
    before = dict(bot.pictures.drawn)

    shown = await answer(await slash(world, world.players[0], "hand"))
    assert [a.filename for a in shown.attachments] == ["hand-1-0.png"]
    assert bot.pictures.drawn["hands"] == before["hands"] + 1
    shown = await answer(await slash(world, world.players[1], "table"))
    assert [a.filename for a in shown.attachments] == ["table-1.png"]
    assert bot.pictures.drawn["public"] == before["public"] + 1
    shown = await answer(await slash(world, world.players[2], "leaderboard"))
    assert [a.filename for a in shown.attachments] == ["leaderboard.png"]
    assert bot.pictures.drawn["public"] == before["public"] + 2


async def test_the_hand_command_works_out_its_advice_once_in_the_picture_process(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`/mahjong hand` is composed where its picture is drawn, as a DM is: the view's
    advice (each discard's waits, the suggestion, shanten) is worked out there once,
    not a second time on the event loop for the words and the menu. The reply shows the
    seat's DM's buttons."""
    world = make_world(fake)
    bot = make_bot(tmp_path / "db.sqlite3", picture_processes=1)
    await bots.start(bot)
    await open_table(world, hands=1)
    await quiet(bots)
    worked: list[str] = []
    for name in ("moves", "waits", "shanten", "suggested"):
        advice = PlayerView.__dict__[name]
        monkeypatch.setattr(advice, "work", partial(_counted, worked, name, advice.work))

    dealer = world.players[0]
    shown = await answer(await slash(world, dealer, "hand"))
    assert [a.filename for a in shown.attachments] == ["hand-1-0.png"]
    assert worked == []  # none of it on the bot's event loop
    dm = fake.dms(dealer)[-1]
    assert fake.custom_ids(shown) == fake.custom_ids(dm) != []
    assert shown.components == dm.components  # the discard menu's notes too


def _counted(worked: list[str], name: str, work: Callable[..., object], *args: object
             ) -> object:
    worked.append(name)
    return work(*args)
