"""Quiet hours and leave at the service (issue 30): a person's timers do not run while
they rest, nothing plays for them then, what reaches them is silent, the table shows
until when they rest; a change re-plans their pending deadline; bad input is refused
with nothing changed; a restart and another process keep the settings."""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.service import FakeClock
from bot.store import PersonRow, Store
from tests.narrowing import known
from tests.service.helpers import (
    ANN,
    BOB,
    CHANNEL,
    CID,
    EVE,
    GUILD,
    SCENE_PONG,
    D,
    P,
    World,
    by,
    refused,
    stacked,
)

pytestmark = pytest.mark.usefixtures("dealer_zero")
HOUR = 3600.0
TIMERS = {"turn_timer": 3 * 3600, "claim_timer": 1200}
MakeWorld = Callable[..., Awaitable[World]]


def utc(day: int, hour: int, minute: int = 0) -> float:
    return dt.datetime(2026, 6, day, hour, minute, tzinfo=dt.UTC).timestamp()


async def moves_of(store: Store, table: int, seat: int) -> list[tuple[str, str]]:
    hand = await store.hands.live(table)
    assert hand is not None
    return [(a.kind, a.source) for a in await store.log.actions(hand.id) if a.seat == seat]


async def due_of(store: Store, seat: int) -> float:
    return next(d.due_at for d in await store.deadlines.all() if d.seat == seat)


async def sleeper(make_world: MakeWorld, at: float, *, quiet: bool = True,
                  options: dict[str, object] | None = None) -> tuple[World, int]:
    """Ann (seat 0, the dealer) with three computers; her quiet hours 22:00–07:00 UTC
    set first (``quiet``); the table started at ``at``."""
    world = await make_world(FakeClock(at))
    if quiet:
        await world.service.set_quiet(by(ANN), start="22:00", end="07:00", time_zone="UTC")
    table = await world.table((ANN,), computers=3, options=options or TIMERS)
    return world, table


async def test_a_night_passes_without_a_move_for_the_sleeper(make_world: MakeWorld) -> None:
    world, table = await sleeper(make_world, utc(1, 20))
    # three hours of her time: two before 22:00, one after 07:00
    assert await due_of(world.store, 0) == utc(2, 8)
    while world.clock.now() + 600 < utc(2, 8):
        await world.advance(600)
        assert await moves_of(world.store, table, 0) == []
    assert world.notes.of("reminder") == []  # its moment (02:00) came while she slept
    await world.advance(utc(2, 8) - world.clock.now())
    assert await moves_of(world.store, table, 0) == [("discard", "timeout")]


async def test_what_reaches_a_quiet_person_is_silent_and_the_table_says_until_when(
        make_world: MakeWorld) -> None:
    world, table = await sleeper(make_world, utc(1, 23))
    dm = [n for n in world.notes.of("private_hand") if n.step is not None][-1]
    assert dm.user_id == ANN and dm.silent
    (ping,) = world.notes.of("your_move")
    assert ping.silent and ping.deadline == utc(2, 10)
    shown = world.notes.of("table")[-1]
    assert [(r.seat, r.until, r.leave) for r in shown.resting] == [(0, utc(2, 7), False)]
    await world.advance(utc(2, 7, 30) - world.clock.now())
    await world.service.act(by(ANN), table, D(0, known(
        (await world.service.hand(by(ANN), table)).view).hand[-1].notation))
    awake = world.notes.of("table")[-1]
    assert awake.resting == ()
    # the computers play: her next turn notifies (a claim offer without a win never
    # does, awake or not: she passes those)
    for _ in range(50):
        await world.settle()
        later = [n for n in world.notes.of("private_hand")
                 if n.user_id == ANN and n.step is not None][-1]
        if later.view().table.phase != "claim":
            break
        await world.service.act(by(ANN), table, P(0))
    assert later.view().table.phase == "turn" and later.step != dm.step and not later.silent


async def test_setting_and_ending_quiet_hours_replans_the_pending_deadline(
        make_world: MakeWorld) -> None:
    world, table = await sleeper(make_world, utc(1, 21), quiet=False)
    assert await due_of(world.store, 0) == utc(2, 0)
    world.notes.clear()
    done = await world.service.set_quiet(by(ANN), start="22:00", end="07:00",
                                         time_zone="UTC")
    assert (done.start, done.end, done.next_start, done.next_end) == \
        (1320, 420, utc(1, 22), utc(2, 7))
    # the three hours left: one before 22:00, two after 07:00
    assert await due_of(world.store, 0) == utc(2, 9)
    redrawn = [n for n in world.notes.of("private_hand") if n.user_id == ANN]
    assert redrawn and redrawn[-1].deadline == utc(2, 9)
    await world.advance(utc(1, 23) - world.clock.now())
    await world.service.set_quiet(by(ANN), off=True)
    # two hours were left of her time: they run from now
    assert await due_of(world.store, 0) == utc(2, 1)
    row = known(await world.store.people.get(ANN))
    assert (row.time_zone, row.quiet_start, row.quiet_end) == ("UTC", None, None)
    assert await moves_of(world.store, table, 0) == []


async def test_a_deadline_that_comes_due_inside_quiet_hours_waits_for_their_end(
        make_world: MakeWorld) -> None:
    """Settings written behind this process's back (as another would): the re-check at
    fire time reads them and plays nothing."""
    world, table = await sleeper(make_world, utc(1, 21), quiet=False,
                                 options={"turn_timer": 3600})
    await world.store.people.set_quiet(ANN, time_zone="UTC", start=21 * 60 + 30, end=420,
                                       at=world.clock.now())
    await world.advance(utc(1, 22) - world.clock.now())
    assert await moves_of(world.store, table, 0) == []
    assert await due_of(world.store, 0) == utc(2, 7)
    await world.advance(utc(2, 7) - world.clock.now())
    assert await moves_of(world.store, table, 0) == [("discard", "timeout")]


async def test_someone_else_s_quiet_hours_change_nothing_here(make_world: MakeWorld) -> None:
    world, table = await sleeper(make_world, utc(1, 21), quiet=False)
    world.notes.clear()
    await world.service.set_quiet(by(EVE), start="20:00", end="08:00",
                                  time_zone="Asia/Shanghai")
    await world.service.set_quiet(by(BOB), start="20:00", end="08:00", time_zone="UTC")
    assert world.notes.sent == []  # neither sits here: this table is not told
    assert await due_of(world.store, 0) == utc(2, 0)
    await world.advance(3 * HOUR)
    assert await moves_of(world.store, table, 0) == [("discard", "timeout")]


@pytest.mark.parametrize("kwargs, code", [
    ({"start": "22:00", "end": "07:00", "time_zone": "Mars/Olympus"}, "bad_time_zone"),
    ({"start": "22:00", "end": "07:00"}, "no_time_zone"),
    ({"start": "25:00", "end": "07:00", "time_zone": "UTC"}, "bad_clock"),
    ({"start": "22:00", "end": "7h", "time_zone": "UTC"}, "bad_clock"),
    ({"start": "22:00", "time_zone": "UTC"}, "quiet_needs_hours"),
    ({"start": "07:00", "end": "07:00", "time_zone": "UTC"}, "quiet_empty"),
    ({"start": "12:00", "end": "06:00", "time_zone": "UTC"}, "quiet_too_long"),
])
async def test_bad_quiet_hours_are_refused_and_change_nothing(
        world: World, kwargs: dict[str, Any], code: str) -> None:
    await refused(code, world.service.set_quiet(by(ANN), **kwargs))
    assert await world.store.people.get(ANN) is None
    await world.service.set_quiet(by(ANN), start="23:00", end="07:00", time_zone="UTC")
    kept = await world.store.people.get(ANN)
    if code not in ("no_time_zone", "quiet_needs_hours"):  # those only the first time
        await refused(code, world.service.set_quiet(by(ANN), **kwargs))
        assert await world.store.people.get(ANN) == kept


async def test_a_time_zone_alone_keeps_the_hours(world: World) -> None:
    await world.service.set_quiet(by(ANN), start="23:00", end="07:00", time_zone="UTC")
    done = await world.service.set_quiet(by(ANN), time_zone="Asia/Shanghai")
    assert (done.time_zone, done.start, done.end) == ("Asia/Shanghai", 1380, 420)


@pytest.mark.parametrize("days", [0, -1, 31, True])
async def test_bad_leave_is_refused(world: World, days: int) -> None:
    await refused("bad_days", world.service.set_vacation(by(ANN), days))
    assert await world.store.people.get(ANN) is None


async def test_leave_is_honoured_up_to_the_table_s_limit_and_its_creator_told_once(
        make_world: MakeWorld) -> None:
    world = await make_world(FakeClock(utc(1, 12)))
    svc = world.service
    table = (await svc.create_table(by(CID), guild_id=GUILD, channel_id=CHANNEL,
                                    rules="shanghai", sit=False,
                                    options={"turn_timer": 3600, "vacation_days": 2})
             ).ref.table_id
    await svc.join(by(ANN), table)
    for _ in range(3):
        await svc.add_computer(by(ANN), table)
    await svc.start(by(CID), table)
    assert await due_of(world.store, 0) == utc(1, 13)
    done = await svc.set_vacation(by(ANN), 5)
    assert done.until == utc(6, 12) and done.tables == ((table, utc(3, 12)),)
    (told,) = world.notes.of("leave")
    assert (told.creator_id, told.user_id, told.until) == (CID, ANN, utc(3, 12))
    assert await due_of(world.store, 0) == utc(3, 13)
    shown = world.notes.of("table")[-1]
    assert [(r.seat, r.until, r.leave) for r in shown.resting] == [(0, utc(3, 12), True)]
    await world.advance(utc(3, 12, 59) - world.clock.now())
    assert await moves_of(world.store, table, 0) == []
    await world.advance(60)
    assert await moves_of(world.store, table, 0) == [("discard", "timeout")]
    assert len(world.notes.of("leave")) == 1


async def test_a_table_that_allows_no_leave_keeps_its_timers(make_world: MakeWorld) -> None:
    world, table = await sleeper(make_world, utc(1, 12), quiet=False,
                                 options={"turn_timer": 3600, "vacation_days": 0})
    done = await world.service.set_vacation(by(ANN), 3)
    assert done.tables == ((table, None),)
    assert world.notes.of("leave") == []  # she created it herself anyway
    await world.advance(HOUR)
    assert await moves_of(world.store, table, 0) == [("discard", "timeout")]
    ended = await world.service.set_vacation(by(ANN), None)
    assert ended.until is None


async def test_a_restart_keeps_the_settings(make_world: MakeWorld) -> None:
    clock = FakeClock(utc(1, 20))
    first = await make_world(clock)
    await first.service.set_quiet(by(ANN), start="22:00", end="07:00", time_zone="UTC")
    again = await make_world(clock)  # another service on the same file: a restart
    await again.service.recover()
    assert again.service.people.row(ANN) is None  # not read until needed
    table = await again.table((ANN,), computers=3, options=TIMERS)
    assert await due_of(again.store, 0) == utc(2, 8)
    assert known(again.service.people.row(ANN)) == PersonRow(
        ANN, "UTC", 1320, 420, None, None, utc(1, 20))
    assert table


async def test_a_stored_zone_this_machine_does_not_know_counts_as_no_quiet_hours(
        make_world: MakeWorld) -> None:
    """A zone gone from this machine's tzdata (or written by a newer one): the timers
    run as without quiet hours, nothing breaks."""
    world = await make_world(FakeClock(utc(1, 21)))
    await world.store.people.set_quiet(ANN, time_zone="Gone/Nowhere", start=1320, end=420,
                                       at=world.clock.now())
    table = await world.table((ANN,), computers=3, options={"turn_timer": 3600})
    assert await due_of(world.store, 0) == utc(1, 22)
    await world.advance(HOUR)
    assert await moves_of(world.store, table, 0) == [("discard", "timeout")]


async def test_a_claim_window_s_clock_stops_for_anyone_s_rest_never_telling_who_was_asked(
        make_world: MakeWorld) -> None:
    """Bob rests; only Cid may claim Ann's 9m. Cid's claim clock stops through Bob's
    night as it would for anyone's: whether a resting seat was asked is not to be read
    from how long a window stays open. A turn's clock is its own person's alone."""
    world = await make_world(FakeClock(utc(1, 21, 40)), deal=stacked(SCENE_PONG))
    await world.service.set_quiet(by(BOB), start="22:00", end="07:00", time_zone="UTC")
    table = await world.table(options={"turn_timer": 3600, "claim_timer": 1200})
    assert await due_of(world.store, 0) == utc(1, 22, 40)  # Ann's turn: Bob's rest no matter
    await world.advance(600)  # 21:50
    await world.service.act(by(ANN), table, D(0, "9m"))
    # twenty minutes of time nobody at the table rests: ten tonight, ten from 07:00
    assert await due_of(world.store, 2) == utc(2, 7, 10)
    await world.advance(utc(2, 7, 9) - world.clock.now())
    assert await moves_of(world.store, table, 2) == []
    await world.advance(60)
    assert await moves_of(world.store, table, 2) == [("pass", "timeout")]


async def test_a_claim_mention_is_silent_for_anyone_s_rest_not_the_claimant_s(
        make_world: MakeWorld) -> None:
    world = await make_world(FakeClock(utc(1, 23)), deal=stacked(SCENE_PONG))
    await world.service.set_quiet(by(BOB), start="22:00", end="07:00", time_zone="UTC")
    table = await world.table(options={"turn_timer": 3600, "claim_timer": 1200})
    await world.service.act(by(ANN), table, D(0, "9m"))
    claim = [n for n in world.notes.of("your_move") if n.move == "claim"]
    assert claim and all(n.user_id == CID and n.silent for n in claim)
    turn = [n for n in world.notes.of("your_move") if n.move == "turn"]
    assert turn and not turn[0].silent  # Ann is awake: her own turn notifies
