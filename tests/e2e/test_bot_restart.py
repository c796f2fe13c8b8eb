"""The bot restarts mid-hand (a new client, the same database): the buttons sent
before the restart still work, and the hand plays on to its settlement."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from botkit import (
    Driver,
    assert_secrecy,
    channel_files,
    make_bot,
    make_world,
    open_table,
    quiet,
    slash,
)
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
    old_refused: list[str] = []
    told = len(driver.refusals)

    def on_click(handle: Any) -> None:
        nonlocal told
        source = handle.record.source_message_id or 0
        if source <= before:
            old_clicks.append(source)
            old_refused.extend(driver.refusals[told:])
        told = len(driver.refusals)

    driver.on_click = on_click
    await driver.play_until(lambda: bool(channel_files(fake, world.channel, "settlement-")),
                            idle=lambda: quiet(bots))
    assert old_clicks, "no button from before the restart was used"
    assert not old_refused
    # a second claimant may press a claim just after the first won the match's only
    # hand, before their buttons were taken off: a race (`Driver.raced`), not a refusal
    assert not driver.refusals
    await quiet(bots)
    assert channel_files(fake, world.channel, "leaderboard-")
    assert assert_secrecy(fake, world) > 0
    # the lobby and the table picture were taken over, not posted again
    assert len([m for m in fake.messages(world.channel) if m.embeds]) == 1
    assert len(channel_files(fake, world.channel, "table-")) == 1


def _pings(fake: FakeDiscord, world: Any, *, deleted: bool = False) -> list[Any]:
    """The channel's "your turn" / "you may claim" mentions (English server)."""
    return [m for m in fake.messages(world.channel, deleted=deleted)
            if "your turn at table" in m.content
            or "you may claim a discard at table" in m.content]


async def test_the_standing_mention_is_deleted_after_a_restart(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    world = make_world(fake)
    closed = world.players[2]   # mentioned in the channel for each of their turns (the
    fake.close_dms(closed)      # table says so: their /mahjong hand reply follows the game)
    running = await bots.start(make_bot(db))
    await open_table(world, mentions="every_turn")
    driver = Driver(world, closed={closed.id})

    def closed_pinged() -> bool:
        return driver.clicks >= 4 and \
            any(f"<@{closed.id}>" in m.content for m in _pings(fake, world))

    for _ in range(50):
        await driver.play_until(closed_pinged, idle=lambda: quiet(bots))
        # A click is answered before its move is played: a move still in flight when
        # the mention was seen may yet end that decision and take the mention down.
        await quiet(bots)
        if closed_pinged():
            break
    (standing,) = _pings(fake, world)
    running = await bots.restart(running, make_bot(db))
    await driver.play_until(lambda: any(m.id > standing.id for m in _pings(fake, world)),
                            idle=lambda: quiet(bots))
    await quiet(bots)
    assert standing.id not in [m.id for m in _pings(fake, world)]  # the next one replaced it
    assert len(_pings(fake, world)) == 1
    await driver.play_until(lambda: bool(channel_files(fake, world.channel, "settlement-")),
                            idle=lambda: quiet(bots))
    await quiet(bots)
    assert _pings(fake, world) == []                  # the hand ended: none left standing
    assert standing.id in [m.id for m in _pings(fake, world, deleted=True)]


async def test_a_language_used_before_taking_a_seat_survives_a_restart(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)
    db = tmp_path / "db.sqlite3"
    world = make_world(fake, locales=["en-US", "zh-CN"])
    zh = world.players[1]   # seat 2; their only interaction: pressing Join
    running = await bots.start(make_bot(db))
    await open_table(world)
    await quiet(bots)
    before = max((m.id for m in fake.dms(zh)), default=0)
    running = await bots.restart(running, make_bot(db))
    driver = Driver(world)
    others = [p for p in world.players if p is not zh]
    for _ in range(200):    # the others play (zh never clicks) until zh is written to
        if any(m.id > before for m in fake.dms(zh)):
            break
        pending = [(p, driver.pending(p)) for p in others]
        clicked = [await driver.click(p, m) for p, m in pending if m is not None]
        if not any(clicked):
            await quiet(bots)
    after = [m for m in fake.dms(zh) if m.id > before]
    assert after, "the Chinese player was never written to after the restart"
    assert all("你的手牌" in m.content and "Your hand" not in m.content for m in after)


async def test_cancelling_a_table_takes_its_standing_mention_away(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    """The lobby message is edited to say the table is cancelled; the mention of a turn
    nobody will play must go too (it went only when the lobby was posted anew)."""
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3"))
    await open_table(world, mentions="every_turn")
    await quiet(bots)
    (standing,) = _pings(fake, world)
    cancelled = await (await slash(world, world.players[0], "cancel")).response()
    assert not cancelled.ephemeral
    await quiet(bots)
    assert _pings(fake, world) == []
    assert standing.id in [m.id for m in _pings(fake, world, deleted=True)]
