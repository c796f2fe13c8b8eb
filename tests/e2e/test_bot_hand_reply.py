"""`/mahjong hand`'s private reply follows the game while Discord lets the bot edit it
(an interaction's token lasts 15 minutes): it shows each newer state of the seat's hand
and the buttons of the decision in front of it, and never a decision that has passed.
Players whose DMs are closed play in it as others play in their DMs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from botkit import (
    Driver,
    answer,
    assert_secrecy,
    leave_match,
    make_bot,
    make_world,
    open_table,
    quiet,
    slash,
    table_with_a_discard,
)
from fakediscord import BotLauncher, FakeDiscord, FakeMessage

import bot.discord.hand.replies as replies


def _moves(fake: FakeDiscord, message: FakeMessage) -> list[str]:
    return [c for c in fake.custom_ids(message) if c.startswith(("mj:mv:", "mj:dc:"))]


def _step(custom_id: str) -> tuple[int, int]:
    """(hand, step) of a move button's or discard menu's id."""
    hand, step = custom_id.split(":")[3:5]
    return int(hand), int(step.removeprefix("p"))


def _menu(fake: FakeDiscord, message: FakeMessage) -> tuple[str, list[str]] | None:
    for c in fake.components(message):
        if c.custom_id is not None and c.custom_id.startswith("mj:dc:") and c.options:
            return c.custom_id, [c.options[0]]
    return None


async def test_a_decision_played_on_the_dm_takes_the_replys_buttons_off(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    driver, owner, dm, menu, value = await table_with_a_discard(fake, bots, tmp_path)
    reply = await answer(await slash(driver.world, owner, "hand"))
    assert reply.ephemeral and _moves(fake, reply) == [menu]
    await (await fake.select(owner, dm, menu, value)).response()
    await fake.wait_for(lambda: not _moves(fake, reply), what="the reply's buttons taken off")
    assert "hand-1-" in fake.message(reply).attachments[0].filename
    await quiet(bots)
    assert not driver.refusals


async def test_a_player_with_closed_dms_plays_a_whole_match_in_one_reply(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    """Two hands: the reply follows into the next hand's deal."""
    world = make_world(fake)
    closed = world.players[0]
    fake.close_dms(closed)
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await open_table(world, hands=2)
    driver = Driver(world, closed={closed.id}, win=False)
    await quiet(bots)
    handle = await slash(world, closed, "hand")
    reply = await answer(handle)
    assert "follows the game until <t:" in reply.content
    played = await _play_in(fake, bots, world, driver, closed, reply, hands=2)
    # several decisions of each hand, all in the first reply
    assert all(sum(h == hand for h, _ in played) >= 3 for hand in (1, 2)), played
    assert played == sorted(played)
    assert not driver.refusals
    assert assert_secrecy(fake, world) > len(played)  # each redraw: the seat's own picture


def _settled(fake: FakeDiscord, world: Any, hand: int) -> bool:
    return any(a.filename.startswith(f"settlement-1-{hand}.")
               for m in fake.messages(world.channel) for a in m.attachments)


async def _play_on(fake: FakeDiscord, user: Any, reply: FakeMessage) -> None:
    """Pass a claim, else discard, on the reply."""
    ids = _moves(fake, reply)
    passing = [c for c in ids if c.startswith("mj:mv:") and c.split(":")[5] == "x"]
    if passing:
        await (await fake.click(user, reply, passing[0])).response()
        return
    chosen = _menu(fake, reply)
    assert chosen is not None, ids
    await (await fake.select(user, reply, *chosen)).response()


async def test_a_player_who_leaves_loses_the_replys_buttons(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    driver, owner, _, menu, _ = await table_with_a_discard(fake, bots, tmp_path)
    reply = await answer(await slash(driver.world, owner, "hand"))
    assert _moves(fake, reply) == [menu]
    await leave_match(driver.world, owner)
    await fake.wait_for(lambda: not _moves(fake, reply), what="the reply's buttons taken off")


async def test_a_second_reply_takes_the_buttons_off_the_first(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    driver, owner, _, menu, _ = await table_with_a_discard(fake, bots, tmp_path)
    first = await answer(await slash(driver.world, owner, "hand"))
    second = await answer(await slash(driver.world, owner, "hand"))
    await fake.wait_for(lambda: not _moves(fake, first), what="the first reply's buttons off")
    assert _moves(fake, second) == [menu]


async def test_a_reply_past_its_token_is_not_edited(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replies, "FOLLOWS_FOR", 0.0)
    driver, owner, dm, menu, value = await table_with_a_discard(fake, bots, tmp_path)
    handle = await slash(driver.world, owner, "hand")
    reply = await answer(handle)
    await quiet(bots)
    edits = len(fake.requests("PATCH", f"/{handle.token}/messages/"))
    await (await fake.select(owner, dm, menu, value)).response()
    await quiet(bots)
    assert len(fake.requests("PATCH", f"/{handle.token}/messages/")) == edits
    assert _moves(fake, reply) == [menu]  # too late to take it off: a press is refused


async def test_a_reply_whose_token_ran_out_is_dropped_after_one_refused_edit(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    """Discord refuses an edit once the token is past its 15 minutes (the bot's clock
    and Discord's may disagree): the reply follows no more, no edit is tried again."""
    driver, owner, dm, menu, value = await table_with_a_discard(fake, bots, tmp_path)
    handle = await slash(driver.world, owner, "hand")
    await answer(handle)
    fake.expire_token(handle)
    await (await fake.select(owner, dm, menu, value)).response()  # played on the DM
    await quiet(bots)
    edits = fake.requests("PATCH", f"/{handle.token}/messages/")
    assert [r.status for r in edits] == [401]
    for _ in range(12):  # the owner's hand changes again: nothing is tried
        if not await driver.step():
            await quiet(bots)
    assert len(fake.requests("PATCH", f"/{handle.token}/messages/")) == 1


async def test_the_reply_follows_on_after_a_restart(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    """The reply says until when it follows the game; a restart in between does not
    make that untrue: its token is kept with the seat, and the new process goes on
    redrawing it."""
    world = make_world(fake)
    closed = world.players[0]
    fake.close_dms(closed)
    db = tmp_path / "db.sqlite3"
    running = await bots.start(make_bot(db, picture_processes=0))
    await open_table(world, hands=1)
    driver = Driver(world, closed={closed.id}, win=False)
    await quiet(bots)
    reply = await answer(await slash(world, closed, "hand"))
    running = await bots.restart(running, make_bot(db, picture_processes=0))
    played = await _play_in(fake, bots, world, driver, closed, reply, decisions=3)
    assert len(played) == 3 and played == sorted(played)
    assert not driver.refusals


async def _play_in(fake: FakeDiscord, bots: BotLauncher, world: Any, driver: Driver,
                   user: Any, reply: FakeMessage, *, hands: int = 1,
                   decisions: int | None = None) -> list[tuple[int, int]]:
    """The others play on; ``user`` plays each decision shown in ``reply`` (until
    ``decisions`` of them, else until hand ``hands`` settles): their (hand, step)."""
    played: list[tuple[int, int]] = []
    for _ in range(600):
        if len(played) == decisions or _settled(fake, world, hands):
            return played
        shown = _moves(fake, reply)
        if shown and _step(shown[0]) not in played:
            played.append(_step(shown[0]))
            await _play_on(fake, user, reply)
            continue
        if not await driver.step():
            await quiet(bots)
            if not await driver.step() and not _moves(fake, reply):
                await fake.wait_for(
                    lambda: _moves(fake, reply) or _settled(fake, world, hands),
                    what="the reply to show the next decision")
    raise AssertionError(f"played {played} and the hand did not end")
