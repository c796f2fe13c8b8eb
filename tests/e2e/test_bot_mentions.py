"""Channel mentions through the real bot: by default a player is mentioned in the
channel only when their DMs are closed or half the time of their decision is gone;
the table option ``mentions: every_turn`` mentions every turn. A claim window never
singles out who may claim: the players with closed DMs are all mentioned, whether
they may claim or not."""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from botkit import (
    PLAYER_IDS,
    Driver,
    World,
    channel_files,
    make_bot,
    make_world,
    open_table,
    quiet,
    tick,
)
from fakediscord import BotLauncher, FakeDiscord

from bot.service import FakeClock
from bot.service.fairness import Deal, deal_of
from engine.game import stack_wall
from tests.narrowing import known
from tests.service.helpers import QUIET

TURN = 12 * 3600  # the default turn timer


def turn_pings(fake: FakeDiscord, world: World) -> list[str]:
    """Every "your turn" mention the channel was sent (deleted ones too)."""
    return [str(r.body.get("content", "")) for r in
            fake.requests("POST", f"/channels/{world.channel.id}/messages")
            if isinstance(r.body, dict) and "your turn" in str(r.body.get("content", ""))]


async def _play(fake: FakeDiscord, bots: BotLauncher, tmp_path: Path, clicks: int,
                closed: AbstractSet[int] = frozenset(), **options: Any) -> World:
    world = make_world(fake)
    for user in closed:
        fake.close_dms(user)
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await open_table(world, **options)
    driver = Driver(world, closed=set(closed))
    await driver.play_until(lambda: driver.clicks >= clicks, idle=lambda: quiet(bots))
    await quiet(bots)
    return world


async def test_by_default_a_turn_is_told_by_dm_only(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = await _play(fake, bots, tmp_path, 12)
    assert turn_pings(fake, world) == []
    assert not [m for m in fake.messages(world.channel)
                if any(f"<@{p.id}>" in m.content for p in world.players)
                and not m.attachments]


async def test_every_turn_mentions_each_turn(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = await _play(fake, bots, tmp_path, 12, mentions="every_turn")
    pings = turn_pings(fake, world)
    assert len(pings) >= 8  # one per turn (claims are never pinged one by one)
    assert {p for ping in pings for p in re.findall(r"<@(\d+)>", ping)} == \
        {str(p.id) for p in world.players}


async def test_the_half_time_reminder_mentions_the_player(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    clock = FakeClock(start=1_800_000_000.0)
    world = make_world(fake)
    running = await bots.start(make_bot(tmp_path / "db.sqlite3", clock=clock,
                                        picture_processes=0))
    await open_table(world)
    await quiet(bots)
    service = running.client.service
    (table,) = await service.tables_in_channel(world.channel.id)
    (seat,) = table.deciding
    player = world.players[seat]
    await tick(clock, TURN / 4, service, bots)
    assert turn_pings(fake, world) == []
    await tick(clock, TURN / 4 + 1, service, bots)
    reminders = [m for m in fake.messages(world.channel) if "half of your time" in m.content]
    assert len(reminders) == 1 and f"<@{player.id}>" in reminders[0].content
    assert "<t:" in reminders[0].content


# ---------------------------------------------------------------------------
# A claimant with closed DMs is not singled out

DEALER = QUIET[0] + "9p"
CID_PONGS = {0: DEALER, 1: QUIET[1], 2: "369m799p258s1467z", 3: QUIET[3]}
DEE_PONGS = {0: DEALER, 1: QUIET[1], 2: QUIET[2], 3: "258m799p369s2347z"}


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann (seat 1) deals with the same dice at every table."""
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)
    monkeypatch.setattr("bot.service.fairness.roll_dice", lambda: (2, 3))


def _normalised(text: str) -> str:
    """A channel text with what differs between two tables anyway (the table number,
    the wall's commitment) blanked out."""
    text = re.sub(r"#\d+", "#N", text)
    return re.sub(r"[0-9a-f]{64}", "H", text)


def _channel_record(fake: FakeDiscord, world: World) -> list[Any]:
    """Everything the channel was shown, in order: texts (every version) and files."""
    out: list[Any] = []
    for m in fake.messages(world.channel, deleted=True):
        if m.embeds:  # the lobby: who sits where, not what anyone holds
            continue
        out.append([_normalised(v.get("content", "")) for v in m.versions]
                   + [_normalised(m.content)])
        out.append([(re.sub(r"-\d+\.png$", "", a.filename), a.data) for a in m.attachments])
    return out


async def _discard_9p(fake: FakeDiscord, world: World, bots: BotLauncher) -> None:
    ann = world.players[0]
    message = next(m for m in reversed(fake.dms(ann))
                   if any(c.startswith("mj:dc:") for c in fake.custom_ids(m)))
    menu = next(c for c in fake.components(message)
                if c.custom_id and c.custom_id.startswith("mj:dc:"))
    value = next(v for v in menu.options if v == "9p")
    await (await fake.select(ann, message, known(menu.custom_id), [value])).response()
    await quiet(bots)


async def test_a_claimant_with_closed_dms_is_not_singled_out(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path, scripted: None) -> None:
    scenes = [CID_PONGS, DEE_PONGS]

    def deal(rules: str, dealer: int) -> Deal:
        return deal_of(stack_wall(rules, scenes.pop(0), dealer))

    world = make_world(fake)
    other = replace(world, channel=fake.add_channel(world.guild, "other"))
    cid, dee = world.players[2], world.players[3]
    fake.close_dms(cid)
    running = await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0,
                                        service_options={"deal": deal}))
    records = []
    for place in (world, other):  # Cid may pong at the first table, Dee at the second
        await open_table(place)
        await quiet(bots)
        await _discard_9p(fake, place, bots)
        records.append(_channel_record(fake, place))
        (info,) = await running.client.service.tables_in_channel(place.channel.id)
        assert info.deciding == ()
    assert records[0] == records[1]  # the channel cannot tell the two apart
    # a window is not mentioned as it opens (one opens at most discards: a closed-DMs
    # player would be mentioned dozens of times a hand), only at its half time
    said = [m.content for m in fake.messages(world.channel, deleted=True)]
    assert not any("may be claimed at" in x or f"<@{dee.id}>" in x for x in said), said
    assert [x for x in said if f"<@{cid.id}>" in x] == [  # told once, at the deal
        f"<@{cid.id}>, I can't send you direct messages: use /mahjong hand to play (its "
        "private reply follows the game)."]
    assert not any("you may claim" in m.content for m in fake.messages(world.channel))


async def test_half_a_claim_window_mentions_every_closed_dm_but_no_claimant(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path, scripted: None) -> None:
    """Dee (DMs open) may pong; Cid (DMs closed) may not. Half the claim time on, the
    channel mentions Cid, as it would had Cid been the claimant, and never Dee (who is
    reminded by DM)."""
    clock = FakeClock(start=1_800_000_000.0)

    def deal(rules: str, dealer: int) -> Deal:
        return deal_of(stack_wall(rules, DEE_PONGS, dealer))

    world = make_world(fake)
    cid, dee = world.players[2], world.players[3]
    fake.close_dms(cid)
    running = await bots.start(make_bot(tmp_path / "db.sqlite3", clock=clock,
                                        picture_processes=0,
                                        service_options={"deal": deal}))
    await open_table(world)
    await quiet(bots)
    await _discard_9p(fake, world, bots)
    service = running.client.service
    await tick(clock, 3600 + 1, service, bots)  # half the default claim timer (2 h)
    half = [m for m in fake.messages(world.channel) if "Half the time to claim" in m.content]
    assert len(half) == 1 and f"<@{cid.id}>" in half[0].content
    assert not any(f"<@{dee.id}>" in m.content for m in fake.messages(world.channel))
    assert [m for m in fake.dms(dee) if "Reminder" in m.content]


async def test_dms_found_closed_by_a_claim_are_not_told_at_that_moment(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path, scripted: None) -> None:
    """Cid closes their DMs mid-hand; the first DM that then fails is the one asking
    Cid to claim. Saying "I can't DM Cid" right then would tell the channel Cid may
    claim: Cid is mentioned at their next turn instead."""
    def deal(rules: str, dealer: int) -> Deal:
        return deal_of(stack_wall(rules, CID_PONGS, dealer))

    world = make_world(fake)
    cid = world.players[2]
    running = await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0,
                                        service_options={"deal": deal}))
    await open_table(world)
    await quiet(bots)
    fake.close_dms(cid)
    before = len(fake.requests("POST", f"/channels/{world.channel.id}/messages"))
    await _discard_9p(fake, world, bots)
    assert fake.failures(50007)  # the claim's DM was refused…
    said = [str(r.body.get("content", "")) for r in
            fake.requests("POST", f"/channels/{world.channel.id}/messages")[before:]
            if isinstance(r.body, dict)]
    assert not any(f"<@{cid.id}>" in s for s in said), said  # …and not told then
    seats = await running.client.store.lobby.seats(1)
    assert seats[2].dm_closed  # remembered: Cid's next turn is mentioned


def mentions_of(fake: FakeDiscord, world: World, user_id: int) -> list[str]:
    """Every channel message that mentioned ``user_id`` (deleted ones too)."""
    return [str(r.body.get("content", "")) for r in
            fake.requests("POST", f"/channels/{world.channel.id}/messages")
            if isinstance(r.body, dict) and f"<@{user_id}>" in str(r.body.get("content", ""))
            and r.body.get("allowed_mentions") != {"parse": []}]


async def test_a_closed_dms_player_following_with_mahjong_hand_is_left_in_peace(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    """A Shanghai hand played to its end by a player whose DMs are closed and who
    plays through `/mahjong hand`: its reply follows the game, so the channel mentions
    them only before it does, and in the right words."""
    closed = PLAYER_IDS[2]
    world = make_world(fake)
    fake.close_dms(closed)
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await open_table(world)
    driver = Driver(world, closed={closed})
    await driver.play_until(
        lambda: bool(channel_files(fake, world.channel, "settlement-")),
        idle=lambda: quiet(bots))
    await quiet(bots)
    said = mentions_of(fake, world, closed)
    assert 1 <= len(said) <= 2, said  # told once that DMs are closed, at most one turn
    assert driver.clicks > 40
    for text in said:
        assert "/mahjong hand" in text and "in your DMs" not in text, text


async def test_a_closed_dms_turn_is_mentioned_once_a_decision(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path, scripted: None) -> None:
    clock = FakeClock(start=1_800_000_000.0)
    world = make_world(fake)
    ann = world.players[0]  # the dealer: the first decision is hers
    fake.close_dms(ann.id)
    running = await bots.start(make_bot(tmp_path / "db.sqlite3", clock=clock,
                                        picture_processes=0))
    await open_table(world)
    await quiet(bots)
    service = running.client.service
    await tick(clock, TURN / 2 + 1, service, bots)  # half her turn's time is gone
    said = [x for x in mentions_of(fake, world, ann.id) if "table #1 (hand 1)" in x]
    assert len(said) == 1, said
    assert "Your DMs are closed: play with /mahjong hand" in said[0], said
