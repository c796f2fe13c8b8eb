"""The words players read, through the real bot: public posts in the server's language,
private answers in the reader's, refusals as one sentence, computer players' names,
the history of a hand."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from botkit import (
    Driver,
    Snapshot,
    answer,
    channel_files,
    discard_decision,
    latest_bot,
    leave_match,
    make_bot,
    make_world,
    moves_shown,
    open_table,
    press,
    quiet,
    slash,
    texts,
)
from fakediscord import BotLauncher, FakeDiscord

from bot.discord.core.words import tile_name
from engine.tiles import tile_from_notation


async def test_the_table_command_posts_in_the_servers_language(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake, locales=["zh-CN"], guild_locale="en-US")
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    zh = world.players[0]
    await open_table(world)
    await quiet(bots)
    table = await answer(await slash(world, zh, "table"))
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
    table = await answer(await slash(world, world.players[1], "table"))
    assert not table.ephemeral and "第 1 桌" in (table.content or "")


async def test_each_button_refusal_is_one_sentence_in_the_readers_language(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await open_table(world, hands=2)
    driver = Driver(world)
    owner, message, menu, value = await discard_decision(driver, bots, 1)
    name = owner.name
    other = next(p for p in world.players if p.id != owner.id)

    # a stranger presses a seated player's menu (a forged click: they never see it),
    # in the table's channel; in their own DMs a table they do not sit at is none
    in_channel = fake.messages(world.channel)[-1]
    assert await press(fake, world.outsider, in_channel, menu, value, "en-US") == \
        f"That button is for {name}; you don't sit at this table."
    assert await press(fake, world.outsider, in_channel, menu, value, "zh-CN") == \
        f"这个按钮是给 {name} 的；你不在这张牌桌上。"
    assert await press(fake, world.outsider, message, menu, value, "en-US") == \
        "There is no table here; open one with /mahjong new."
    # a seated player presses another seat's current menu: not theirs, not stale
    assert await press(fake, other, message, menu, value, "en-US") == \
        f"That button is for {name}, not for you."
    assert await press(fake, other, message, menu, value, "zh-CN") == \
        f"这个按钮是给 {name} 的，不是给你的。"
    # the owner asks for a tile they do not hold (a forged menu value): the engine's
    # reason, in the reader's language
    options = next(c.options for c in fake.components(message) if c.custom_id == menu)
    absent = next(f"{n}{suit}" for suit in "mpsz" for n in range(1, 8)
                  if f"{n}{suit}" not in options)
    assert await press(fake, owner, message, menu, [absent], "en-US") == \
        f"That move isn't allowed: you do not hold {tile_name(tile_from_notation(absent), 'en')}."
    assert await press(fake, owner, message, menu, [absent], "zh-CN") == \
        f"这一步不能走：你手里没有 {tile_name(tile_from_notation(absent), 'zh')}。"
    # the owner plays the decision through /mahjong hand: the DM's menu is stale (the
    # bot takes it off; pressed on a client not yet shown that edit)
    shown = Snapshot.of(fake, message)
    hand = await slash(world, owner, "hand")
    assert (await answer(hand)).ephemeral and hand.original is not None
    played = await fake.select(owner, hand.original, menu, value)
    # answered with the move (7: the message edited in the click's response), or, when
    # the move took longer than `MOVE_ANSWER_WAIT`, acknowledged before it (6)…
    assert (await played.response()).type in (6, 7)
    original = hand.original
    await fake.wait_for(lambda: not moves_shown(fake, original))  # …edited either way
    assert await press(fake, owner, shown, menu, value, "en-US") == \
        "That button is for a decision that has passed."
    assert await press(fake, owner, shown, menu, value, "zh-CN") == \
        "这个按钮对应的决定已经过去了。"

    # a button of hand 1 pressed during hand 2
    driver.clicked.add(message.id)
    old_owner, message, old_menu, old_value = await discard_decision(driver, bots, 1)
    old_message = Snapshot.of(fake, message)
    await driver.play_until(lambda: bool(channel_files(fake, world.channel, "settlement-")),
                            idle=lambda: quiet(bots))
    await discard_decision(driver, bots, 2)
    assert await press(fake, old_owner, old_message, old_menu, old_value, "en-US") == \
        "That button is from an earlier hand."
    assert await press(fake, old_owner, old_message, old_menu, old_value, "zh-CN") == \
        "这个按钮来自之前的一局。"
    assert not driver.refusals


def _channel_text(fake: FakeDiscord, world: Any) -> str:
    """Everything the channel was shown in words, every version of every message."""
    return "\n".join(texts(m) + "".join(json.dumps(v, ensure_ascii=False) for v in m.versions)
                     for m in fake.messages(world.channel))


async def _two_computers(world: Any, fake: FakeDiscord, bots: BotLauncher) -> None:
    """p1 opens a one-hand table, p2 joins, p1 seats two computers and starts; the
    match is played to its leaderboard."""
    await (await slash(world, world.players[0], "new", rules="shanghai", hands=1)).response()
    await (await slash(world, world.players[1], "join")).response()
    for _ in range(2):
        await (await slash(world, world.players[0], "addbot")).response()
    await (await slash(world, world.players[0], "start")).response()
    driver = Driver(world)
    await driver.play_until(lambda: bool(channel_files(fake, world.channel, "leaderboard-")),
                            idle=lambda: quiet(bots))
    await quiet(bots)


async def test_computer_players_are_named_in_an_english_servers_language(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake, count=2, guild_locale="en-US")
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await _two_computers(world, fake, bots)
    shown = _channel_text(fake, world)
    assert "Computer 3" in shown and "Computer 4" in shown
    assert "电脑" not in shown
    board = await answer(await slash(world, world.players[1], "leaderboard"))
    assert "电脑" not in (board.content or "")
    seats = await latest_bot(bots).store.lobby.seats(1)
    assert [s.display_name for s in seats][2:] == ["Computer 3", "Computer 4"]


async def test_computer_players_are_named_in_a_chinese_servers_language(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake, count=2, guild_locale="zh-CN")
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await _two_computers(world, fake, bots)
    shown = _channel_text(fake, world)
    assert "电脑 3" in shown and "Computer" not in shown and "Bot" not in shown


async def test_a_computer_taking_over_mid_match_is_named_for_the_player_it_replaces(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake, guild_locale="en-US")
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await open_table(world)
    await quiet(bots)
    left = await leave_match(world, world.players[3])
    assert left.ephemeral
    await quiet(bots)
    lobby = next(m for m in fake.messages(world.channel) if m.embeds)
    assert "Computer 4 (for p4)" in texts(lobby) and "电脑" not in texts(lobby)


async def _played_hand(world: Any, fake: FakeDiscord, bots: BotLauncher, *,
                       win: bool = True) -> None:
    await open_table(world)
    driver = Driver(world, win=win)
    await driver.play_until(lambda: bool(channel_files(fake, world.channel, "leaderboard-")),
                            idle=lambda: quiet(bots))
    await quiet(bots)


def _history(response: Any) -> tuple[str, str]:
    """(the message's text, the attached whole hand's text or "")."""
    files = {f.filename: f.data.decode("utf-8") for f in response.files}
    assert set(files) <= {"history-1-1.txt"}, files
    return response.content or "", files.get("history-1-1.txt", "")


async def test_history_reads_like_the_channels_lines_and_attaches_a_long_hand(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake, guild_locale="en-US")
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await _played_hand(world, fake, bots, win=False)  # nobody wins: a whole wall
    store = latest_bot(bots).store
    hand = (await store.hands.of_match((await store.matches.of_table(1))[-1].id))[-1]
    moves = [a.kind for a in await store.log.actions(hand.id)]
    response = await (await slash(world, world.players[2], "history")).response()
    assert not response.ephemeral
    content, whole = _history(response)
    assert len(content) <= 2000 and content.startswith("**Table #1: hand 1**")
    assert "Wall of hand 1" in content and hand.wall in content
    # a whole hand of discards is too long for one message: the file holds all of it
    assert whole, content
    lines = whole.splitlines()
    assert lines[1] == f"Hand 1 begins; {['p1', 'p2', 'p3', 'p4'][hand.dealer]} deals."
    assert sum(1 for x in lines if " discarded " in x) == moves.count("discard")
    assert lines[-2].endswith(("wins!", "The hand is drawn: nobody won."))
    assert hand.wall in lines[-1]
    assert "attached" in content
    # the public lines only: no internal words, no draws, nobody's concealed tiles
    for text in (content, whole):
        assert not re.search(r"\b(concealed_kong|added_kong|pass)\b", text)
        assert not re.search(r"^\d+\. p\d: ", text, re.M)
        assert "You drew" not in text and "Your tiles" not in text
        assert "declared a concealed kong:" not in text


async def test_history_speaks_a_chinese_servers_language(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake, guild_locale="zh-CN")
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await _played_hand(world, fake, bots)
    response = await (await slash(world, world.players[0], "history")).response()
    content, whole = _history(response)
    assert content.startswith("**第 1 桌：第 1 局**") and "第 1 局牌墙" in content
    told = content + whole
    assert "打出" in told and "discarded" not in told and "begins" not in told


async def test_the_leaderboard_and_the_match_score_post_in_the_servers_language(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    """Both answers are public: the whole channel reads them in the server's language,
    whoever asked (their own private replies keep the asker's)."""
    world = make_world(fake, locales=["zh-CN"], guild_locale="en-US")
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    zh = world.players[0]
    await open_table(world)
    await quiet(bots)
    board = await answer(await slash(world, zh, "leaderboard"))
    assert not board.ephemeral
    assert "No hand has been settled" in (board.content or ""), board.content
    score = await (await slash(world, zh, "score")).response()
    assert not score.ephemeral
    assert "Table #1: after 0 of" in (score.content or ""), score.content
