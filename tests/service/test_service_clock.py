"""A clock that fits (issue 30): the warning DM once when a quarter of a person's time is
left, and the time bank (option ``time_bank``): it runs once a person's timer is out,
before the timer plays, is shown in their DM, topped up by ``time_bank_add`` after their
own moves (never above ``time_bank``) and survives a restart."""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.service import FakeClock, LobbyNotice, PrivateNotice, WarningNotice
from bot.service.match_pace import MIN_ANSWERS
from bot.store import NewHand, Store
from engine.game import ActionKind
from engine.tiles import tile_from_notation
from tests.service.helpers import (
    ANN,
    BOB,
    CHANNEL,
    CID,
    DEE,
    GUILD,
    SCENE_PONG,
    D,
    World,
    by,
    stacked,
)
from tests.store.helpers import COMMITMENT, SALT, WALL

pytestmark = pytest.mark.usefixtures("dealer_zero")
HOUR = 3600.0
SLOW = {"turn_timer": 3600, "claim_timer": 1200, "away_after": 3}


async def sources(store: Store, table: int) -> list[tuple[int, str, str]]:
    hand = await store.hands.live(table)
    assert hand is not None
    return [(a.seat, a.kind, a.source) for a in await store.log.actions(hand.id)]


def dms(world: World, user: int) -> list[PrivateNotice]:
    """The decision DMs ``user`` got (with a step to decide)."""
    return [n for n in world.notes.of("private_hand") if n.user_id == user
            and n.step is not None]


async def test_a_warning_goes_once_when_a_quarter_of_the_time_is_left(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=SLOW)
    start = world.clock.now()
    await world.advance(HOUR / 2)
    assert len(world.notes.of("reminder")) == 1 and world.notes.of("warning") == []
    await world.advance(HOUR / 4 - 1)
    assert world.notes.of("warning") == []
    await world.advance(1)
    (warning,) = world.notes.of("warning")
    assert isinstance(warning, WarningNotice) and not warning.silent
    assert (warning.user_id, warning.seat, warning.move, warning.hand_number) == (ANN, 0, "turn", 1)
    assert (warning.timer_at, warning.deadline, warning.bank) == (start + HOUR, start + HOUR, 0.0)
    # what the timer will play: the dealer has no drawn tile, the rightmost tile goes
    assert (warning.default.kind, warning.default.tile) == (ActionKind.DISCARD,
                                                            tile_from_notation("4z"))
    (row,) = await world.store.deadlines.all()
    assert row.warned_at == start + 3 * HOUR / 4 and row.reminded_at is not None
    assert (await world.service.hand(by(ANN), table)).bank is None   # no bank here
    await world.advance(HOUR / 4 - 1)
    assert len(world.notes.of("warning")) == 1 and await sources(world.store, table) == []
    await world.advance(1)
    assert await sources(world.store, table) == [(0, "discard", "timeout")]
    assert len(world.notes.of("warning")) == 1 and len(world.notes.of("reminder")) == 1


async def test_a_claim_warns_too_and_an_answer_before_it_is_never_warned(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=SLOW)
    await world.service.act(by(ANN), table, D(0, "9m"))   # answered: no warning for Ann
    await world.advance(900)
    (warning,) = world.notes.of("warning")
    assert (warning.user_id, warning.move, warning.default.kind) == (CID, "claim",
                                                                      ActionKind.PASS)
    assert warning.silent            # a claim offering no win: as silent as its DM
    await world.advance(300)
    assert await sources(world.store, table) == [(0, "discard", "player"),
                                                 (2, "pass", "timeout")]
    assert [w.user_id for w in world.notes.of("warning")] == [CID]


async def test_no_warning_for_a_computer_or_a_short_live_timer(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    await world.table((ANN,), computers=3, options={"turn_timer": 60, "claim_timer": 20})
    for _ in range(40):
        await world.advance(30)
    assert world.notes.of("reminder") and world.notes.of("warning") == []
    world = await make_world(deal=stacked(SCENE_PONG))
    await world.table((ANN,), computers=3, options=SLOW | {"time_bank": 600}, channel=71)
    for _ in range(12):
        await world.advance(HOUR / 2)
    # the person is warned once a decision; the computers never
    assert world.notes.of("warning")
    assert all(w.user_id == ANN for w in world.notes.of("warning"))
    steps = [w for w in world.notes.of("warning")]
    assert len(steps) == len({(w.hand_number, w.timer_at) for w in steps})


async def test_a_warning_after_a_restart_still_goes_once(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    await world.table(options=SLOW)
    await world.advance(3 * HOUR / 4)
    assert len(world.notes.of("warning")) == 1
    await world.store.close()
    world = await make_world(FakeClock(world.clock.now() + 60), grace=30.0)
    await world.service.recover()
    await world.advance(HOUR / 8)
    assert world.notes.of("warning") == [] and world.notes.of("reminder") == []


async def test_a_restart_after_both_moments_sends_the_warning_alone(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=SLOW)
    await world.advance(HOUR / 4)
    await world.store.close()                       # down past half and three quarters
    world = await make_world(FakeClock(world.clock.now() + HOUR / 2 + 60), grace=30.0)
    await world.service.recover()
    await world.settle()
    assert world.notes.of("reminder") == [] and len(world.notes.of("warning")) == 1
    await world.advance(HOUR / 4 - 61)
    assert await sources(world.store, table) == []
    await world.advance(1)                          # the timer plays at its time
    assert await sources(world.store, table) == [(0, "discard", "timeout")]
    assert len(world.notes.of("warning")) == 1


async def test_the_bank_runs_after_the_timer_before_it_plays_and_is_shown(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=SLOW | {"time_bank": 600})
    start = world.clock.now()
    first = dms(world, ANN)[-1]
    assert (first.deadline, first.bank) == (start + HOUR + 600, 600.0)
    info = await world.service.hand(by(ANN), table)   # /mahjong hand shows it too
    assert (info.deadline, info.bank) == (start + HOUR + 600, 600.0)
    await world.advance(3 * HOUR / 4)
    (warning,) = world.notes.of("warning")
    assert (warning.timer_at, warning.deadline, warning.bank) == (start + HOUR,
                                                                  start + HOUR + 600, 600.0)
    await world.advance(HOUR / 4)
    assert await sources(world.store, table) == []          # the bank runs now
    await world.advance(599)
    assert await sources(world.store, table) == []
    await world.advance(1)
    assert await sources(world.store, table) == [(0, "discard", "timeout")]
    hand = await world.store.hands.live(table)
    assert hand is not None
    load = (await world.store.rebuilds.load([table]))[table]
    assert load.banks == {0: 0.0}                              # spent for the hand


async def bank_of(world: World, table: int) -> dict[int, float]:
    return dict((await world.store.rebuilds.load([table]))[table].banks)


async def test_a_move_spends_the_time_past_its_timer_and_gets_its_top_up(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=SLOW | {"time_bank": 600, "time_bank_add": 30})
    await world.advance(HOUR + 50)
    await world.service.act(by(ANN), table, D(0, "9m"))
    assert await bank_of(world, table) == {0: 580.0}          # 600 − 50 + 30
    claim = dms(world, CID)[-1]
    assert claim.bank == 600.0 and claim.deadline == world.clock.now() + 1200 + 600


async def test_the_top_up_never_goes_above_the_bank(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=SLOW | {"time_bank": 600, "time_bank_add": 300})
    await world.advance(HOUR + 100)
    await world.service.act(by(ANN), table, D(0, "9m"))
    assert await bank_of(world, table) == {}    # 500 + 300, capped: whole again (no row)
    world2 = await make_world(deal=stacked(SCENE_PONG))
    table2 = await world2.table(options=SLOW | {"time_bank": 600, "time_bank_add": 300},
                                channel=71)
    await world2.service.act(by(ANN), table2, D(0, "9m"))   # in time: the bank stays whole
    assert await bank_of(world2, table2) == {}


async def test_a_restart_keeps_the_bank(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    options: dict[str, Any] = SLOW | {"time_bank": 600, "time_bank_add": 30}
    table = await world.table((ANN,), computers=3, options=options)
    await world.advance(HOUR + 50)
    await world.service.act(by(ANN), table, D(0, "9m"))
    assert await bank_of(world, table) == {0: 580.0}
    await world.store.close()
    world = await make_world(FakeClock(world.clock.now() + 5), grace=30.0)
    await world.service.recover(eager=True)
    await world.settle()                                      # the computers play
    ann = dms(world, ANN)[-1]
    assert ann.bank == 580.0
    assert ann.deadline == world.clock.now() + HOUR + 580
    # her bank runs past her timer, across a restart in the middle of it
    await world.advance(HOUR + 100)
    await world.store.close()
    world = await make_world(FakeClock(world.clock.now()), grace=30.0)
    await world.service.recover(eager=True)
    assert await world.advance(479) == 0
    before = await sources(world.store, table)
    await world.advance(1)
    after = await sources(world.store, table)
    assert after[len(before)][1:] == ("discard", "timeout") and after[len(before)][0] == 0
    assert (await bank_of(world, table))[0] == 0.0


async def answered(store: Store, answers: dict[int, tuple[float, int]], *,
                   channel: int = 99) -> None:
    """A past table where each person answered ``n`` decisions in ``seconds`` each."""
    table = await store.lobby.create_table(guild_id=7, channel_id=channel, creator_id=1,
                                           rules="shanghai", at=1.0)
    for seat, user in enumerate(answers):
        await store.lobby.sit(table.id, seat, user_id=user, display_name=f"P{user}", at=1.0)
    match = await store.matches.create(table.id, first_dealer=0, at=2.0)
    hand = await store.matches.deal(match.id, NewHand(WALL, SALT, COMMITMENT, dice=(3, 5),
                                                      dealer=0, streak=0, huangfan=0), at=3.0)
    seq = 0
    for seat, (seconds, n) in enumerate(answers.values()):
        for _ in range(n):
            seq += 1
            await store.log.append(hand.id, seq, seat, "discard", {}, "player",
                                   10.0 * seq + seconds, asked_at=10.0 * seq)


async def test_the_lobby_shows_the_pace_once_the_people_s_answer_times_are_known(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    await answered(world.store, {ANN: (1200.0, MIN_ANSWERS), BOB: (3600.0, MIN_ANSWERS),
                                 CID: (60.0, MIN_ANSWERS - 1)})
    svc = world.service
    info = await svc.create_table(by(ANN), guild_id=GUILD, channel_id=CHANNEL,
                                  rules="shanghai", options={"hands": 4})
    table = info.ref.table_id

    def pace() -> float | None:
        notice = world.notes.of("lobby")[-1]
        assert isinstance(notice, LobbyNotice)
        return notice.pace

    # Ann alone (the three empty seats at her pace): 4 hands × 79 decisions × 20 min
    assert pace() == pytest.approx(4 * 79 * 1200 / 86_400)
    await svc.join(by(BOB), table)
    assert pace() == pytest.approx(4 * 79 / 4 * (1200 + 3600 + 2 * 2400) / 86_400)
    await svc.join(by(CID), table)              # one answer short: nothing is said
    assert pace() is None
    await svc.leave(by(CID), table)
    await svc.add_computer(by(ANN), table)      # a computer takes no time
    assert pace() == pytest.approx(4 * 79 / 4 * (1200 + 3600 + 2400) / 86_400)
    await svc.join(by(DEE), table)              # nothing on record
    assert pace() is None
    await svc.leave(by(DEE), table)
    await svc.add_computer(by(ANN), table)
    await svc.start(by(ANN), table)
    assert all(n.pace is None for n in world.notes.of("lobby")
               if n.table.status != "lobby")    # the lobby only


def utc(day: int, hour: int, minute: int = 0) -> float:
    return dt.datetime(2026, 6, day, hour, minute, tzinfo=dt.UTC).timestamp()


async def test_quiet_hours_stop_the_warning_and_the_bank_as_they_stop_the_timer(
        make_world: Callable[..., Awaitable[World]]) -> None:
    """Ann sleeps 22:00–07:00 UTC; a 3 h timer from 18:00 ends at 21:00, her 2 h bank
    runs an hour before she sleeps and an hour after: the timer plays at 08:00."""
    world = await make_world(FakeClock(utc(1, 18)), deal=stacked(SCENE_PONG))
    await world.service.set_quiet(by(ANN), start="22:00", end="07:00", time_zone="UTC")
    table = await world.table((ANN,), computers=3,
                              options={"turn_timer": 3 * 3600, "time_bank": 7200})
    (row,) = await world.store.deadlines.all()
    assert (row.warn_at, row.timer_at, row.due_at) == (utc(1, 20, 15), utc(1, 21), utc(2, 8))
    await world.advance(utc(1, 20, 15) - world.clock.now())
    assert len(world.notes.of("warning")) == 1
    await world.advance(utc(2, 7, 30) - world.clock.now())
    assert await sources(world.store, table) == []
    await world.service.act(by(ANN), table, D(0, "9m"))
    # her bank ran an hour before 22:00 and half an hour after 07:00: half an hour left
    assert await bank_of(world, table) == {0: 1800.0}
