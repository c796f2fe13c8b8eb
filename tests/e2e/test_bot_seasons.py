"""Seasons and the weekly recap through the real bot (issue 31): a server manager closes
the season (asked privately first, then the channel is told with the closed season's
top), anyone else is refused; the leaderboard shows this season, a past one or all time,
with the rating column; the recap turned on by a manager is posted once a week."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from botkit import (
    Driver,
    World,
    answer,
    channel_files,
    make_bot,
    make_world,
    open_table,
    quiet,
    slash,
)
from fakediscord import BotLauncher, FakeDiscord, FakeMessage, RunningBot

from bot.service.fairness import Deal
from bot.service.recaps import due_week
from bot.store import Store
from bot.store.rows import HandFact
from tests.service.helpers import QUIET, stacked

MANAGE_GUILD = 1 << 5
OTHER_GUILD = 901
HEAVENLY = {0: "123m456m789m123p55p", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}


def _heavenly(rules: str, dealer: int) -> Deal:
    return stacked(HEAVENLY, rules)(rules, dealer)


async def _one_won_hand(fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
                        monkeypatch: pytest.MonkeyPatch, **options: object
                        ) -> tuple[World, RunningBot[Any]]:
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)
    world = make_world(fake)
    manager_role = fake.add_role(world.guild, "mods", MANAGE_GUILD)
    fake.add_member(world.guild, world.outsider, [manager_role])
    # another server, where the outsider manages too and p2 plays (judged in place)
    elsewhere = fake.add_guild(OTHER_GUILD, "Elsewhere", owner=world.outsider,
                               members=[world.players[1], world.outsider])
    assert elsewhere.id == OTHER_GUILD
    running = await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0,
                                        service_options={"deal": _heavenly, **options}))
    await open_table(world, hands=1)
    await Driver(world).play_until(
        lambda: bool(channel_files(fake, world.channel, "leaderboard-")),
        idle=lambda: quiet(bots))
    await quiet(bots)
    return world, running


async def test_a_manager_closes_the_season_and_boards_show_past_seasons(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    world, _ = await _one_won_hand(fake, bots, tmp_path, monkeypatch)
    p2, manager = world.players[1], world.outsider
    posted = channel_files(fake, world.channel, "leaderboard-")[-1].content
    # the rating column: the match (one hand) was rated as it finished, provisionally
    p1_line = next(line for line in posted.splitlines() if "p1: +" in line)
    assert re.search(r" · rating \d+ \(provisional\) \(won 1 of 1 hand\)$", p1_line)

    refused = await answer(await fake.slash(p2, world.guild, world.channel,
                                            "mahjong", "season", "close"))
    assert refused.ephemeral and "Only a server manager" in refused.content
    asked = await answer(await fake.slash(manager, world.guild, world.channel,
                                          "mahjong", "season", "close"))
    assert asked.ephemeral and "Close season 1 of this server?" in asked.content
    yes, no = fake.custom_ids(asked)
    assert (yes, no) == (f"mj:sc:{manager.id}:1:yes", f"mj:sc:{manager.id}:1:no")
    # a double click: both presses arrive before the question is edited
    first, second = await asyncio.gather(fake.click(manager, asked, yes),
                                         fake.click(manager, asked, yes))
    responses = [await first.response(), await second.response()]
    await quiet(bots)
    assert sorted(r.type for r in responses) == [4, 7]  # one closes (the edit), one is told
    [again] = [r for r in responses if r.type == 4]
    assert again.ephemeral and "Season 1 is already closed" in (again.content or "")
    told = [m for m in fake.messages(world.channel)
            if "Season 1 of this server is closed" in m.content]
    assert len(told) == 1 and not told[0].ephemeral
    assert "Top of this channel in season 1:" in told[0].content and "p1: +" in told[0].content
    assert "Season 1 is closed" in (asked.content or "") or any(
        "Season 1 is closed" in m.content for m in fake.messages(world.channel, ephemeral=True))

    now = await answer(await slash(world, p2, "leaderboard"))
    assert now.content.splitlines() == [
        "**Shanghai leaderboard of this channel · points: 花 × 底分 · season 2**",
        "No Shanghai hand has been settled in this channel yet."]
    past = await answer(await slash(world, p2, "leaderboard", season="1"))
    assert past.content.startswith("**Shanghai leaderboard of this channel · points: 花 × 底分"
                                   " · season 1**")
    assert "p1: +" in past.content and [a.filename for a in past.attachments] == \
        ["leaderboard.png"]
    ever = await answer(await slash(world, p2, "leaderboard", season="all"))
    assert "· all time**" in ever.content and "p1: +" in ever.content
    def points(text: str) -> str:
        return text.split("p1: ")[1].split(" ")[0]

    assert points(past.content) == points(ever.content)  # nothing since: all time = season 1
    missing = await answer(await slash(world, p2, "leaderboard", season="7"))
    assert missing.ephemeral and "no season 7" in missing.content
    bad = await answer(await slash(world, p2, "leaderboard", season="spring"))
    assert bad.ephemeral and "is no season" in bad.content
    # the other server: in its own season 1, nothing of this one's, its own close
    there = fake.channel(OTHER_GUILD, "general")
    ours_elsewhere = await answer(await fake.slash(p2, OTHER_GUILD, there, "mahjong",
                                                   "leaderboard", options={"season": "all"}))
    assert "p1" not in ours_elsewhere.content and "all time" in ours_elsewhere.content
    never = await answer(await fake.slash(p2, OTHER_GUILD, there, "mahjong", "leaderboard",
                                          options={"season": "2"}))
    assert never.ephemeral and "no season 2: it is in season 1" in never.content
    asked_there = await answer(await fake.slash(manager, OTHER_GUILD, there, "mahjong",
                                                "season", "close"))
    assert "Close season 1 of this server?" in asked_there.content
    offered = await (await fake.autocomplete(p2, world.guild, world.channel,
                                             "mahjong", "leaderboard", focused="season",
                                             options={"season": ""})).response()
    assert [c["value"] for c in offered.data["choices"]] == ["2", "all", "1"]


async def test_the_recap_is_turned_on_by_a_manager_and_posted_once(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    world, running = await _one_won_hand(fake, bots, tmp_path, monkeypatch, recap_every=0.1)
    p2, manager = world.players[1], world.outsider
    refused = await answer(await slash(world, p2, "recap", enabled=True))
    assert refused.ephemeral and "Only a server manager" in refused.content
    # the hand's facts, as if played in the week whose recap is due now (the real clock's)
    week, start, _ = due_week(datetime.now(UTC).timestamp())
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        [match] = await store.matches.of_table(1)
        hand = (await store.hands.of_match(match.id))[0]
        await store.facts.write([
            HandFact(hand.id, seat, match.id, 1, world.guild.id, world.channel.id,
                     "shanghai", 1, player.id, start + 3600, Fraction(0), won=seat == 0,
                     win_value=40 if seat == 0 else None,
                     patterns=("tian_hu",) if seat == 0 else ())
            for seat, player in enumerate(world.players)])
    finally:
        await store.close()
    on = await answer(await slash(world, manager, "recap", enabled=True))
    assert on.ephemeral and "weekly recap of this channel is on" in on.content

    def recaps() -> list[FakeMessage]:
        return [m for m in fake.messages(world.channel)
                if m.content.startswith(f"**This channel's week {week}:**")]

    await fake.wait_for(lambda: recaps() or None, timeout=10)
    await quiet(bots)
    [recap] = recaps()
    lines = recap.content.splitlines()
    assert lines[0] == f"**This channel's week {week}:** 1 hand played."
    assert lines[1].startswith("Biggest hand (Shanghai): p1, ") and "40 花" in lines[1]
    assert lines[2] == "Most hands played: p1, 1"
    # a restart looks again at once: the week was decided, nothing more is posted
    await bots.restart(running, make_bot(tmp_path / "db.sqlite3", picture_processes=0,
                                         service_options={"deal": _heavenly,
                                                          "recap_every": 0.1}))
    await asyncio.sleep(0.5)
    await quiet(bots)
    assert len(recaps()) == 1
