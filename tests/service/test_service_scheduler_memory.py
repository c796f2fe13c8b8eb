"""The scheduler keeps no entry after its decision is answered or superseded: after a
move, a closed claim window, a changed standing choice, the end of a hand, a cancelled
or finished table, and a restart, it holds exactly the open decisions' entries; a
superseded entry never fires; a long run keeps the heap bounded."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.service import FakeClock, TableService
from bot.service.process import SchedulerLoop
from bot.service.scheduler import COMPACT_SLACK, Wake
from bot.store import StandingChoices
from engine.game import timeout_action
from tests.narrowing import known
from tests.service.helpers import ANN, BOB, CID, SCENE_PONG, D, P, World, by, stacked

pytestmark = pytest.mark.usefixtures("dealer_zero")
TIMERS = {"turn_timer": 60, "claim_timer": 20, "away_after": 2}


def open_decisions(service: TableService) -> frozenset[Wake]:
    """The entries the open decisions need: a due moment each, and the half-time
    reminder for a person's timer not yet reminded (the test's one peek at memory)."""
    wakes = set()
    for live in service._tables.values():
        if live.hand is None:
            continue
        for p in live.pending.values():
            wakes.add(Wake(p.due_at, live.id, live.hand.row.id, p.seat, p.step))
            if p.reminds:
                wakes.add(Wake(p.half_at, live.id, live.hand.row.id, p.seat, p.step,
                               "remind"))
    return frozenset(wakes)


def assert_only_open(world: World) -> None:
    scheduler = world.service.scheduler
    assert scheduler.entries() == open_decisions(world.service)
    assert len(scheduler) == len(scheduler.entries())
    assert scheduler.heap_size <= 2 * len(scheduler) + COMPACT_SLACK


def record_firings(world: World) -> list[Wake]:
    """Every wake the scheduler hands to the service, in order."""
    fired: list[Wake] = []
    loop = world.service.loop
    assert isinstance(loop, SchedulerLoop)
    fire = loop._fire

    async def recording(wake: Wake) -> None:
        fired.append(wake)
        await fire(wake)

    loop._fire = recording
    return fired


async def test_each_answered_decision_leaves_the_scheduler(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)
    scheduler = world.service.scheduler
    assert len(scheduler) == 2 and {w.seat for w in scheduler.entries()} == {0}
    await world.service.act(by(ANN), table, D(0, "9m"))      # the move landed
    assert_only_open(world)
    assert {w.seat for w in scheduler.entries()} == {2}  # only Cid may claim
    await world.service.act(by(CID), table, P(2))            # the window closed
    assert_only_open(world)
    assert {w.seat for w in scheduler.entries()} == {1} and len(scheduler) == 2
    await world.advance(30)                              # Bob's reminder fired
    assert_only_open(world)
    assert [w.what for w in scheduler.entries()] == ["due"]
    await world.advance(30)                              # Bob timed out
    assert_only_open(world)
    assert {w.seat for w in scheduler.entries()} == {2}


async def test_a_changed_standing_choice_replaces_the_seats_entries(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG), computer_pause=5.0)
    table = await world.table(options=TIMERS)
    await world.service.act(by(ANN), table, D(0, "9m"))
    before = world.service.scheduler.entries()
    await world.service.set_choice(by(CID), table, "pass_claims", True)
    assert_only_open(world)
    after = world.service.scheduler.entries()
    assert len(after) == 1 and not after & before        # Cid's timer went, a pass came


async def test_a_superseded_entry_never_fires(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)
    fired = record_firings(world)
    superseded = set(world.service.scheduler.entries())   # Ann's turn
    await world.service.act(by(ANN), table, D(0, "9m"))
    superseded |= world.service.scheduler.entries()       # Cid's claim window
    await world.service.act(by(CID), table, P(2))
    superseded |= world.service.scheduler.entries()       # Bob's turn, not reminded yet
    state = known(world.service._tables[table].hand).state
    await world.service.act(by(BOB), table, timeout_action(state, 1))
    await world.advance(200)
    assert fired and not superseded & set(fired)
    # what did fire was live: each firing's decision was still the seat's then
    assert_only_open(world)


async def test_the_hand_end_a_cancel_and_a_finished_match_leave_nothing(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(computer_pause=1.0)
    table = await world.table((ANN,), computers=3, options={**TIMERS, "hands": 1})
    other = await world.table((BOB,), computers=3, options=TIMERS, channel=71)
    await world.service.cancel(by(BOB), other)
    assert {w.table_id for w in world.service.scheduler.entries()} == {table}
    assert_only_open(world)
    await world.until("match_ended", 2, step=30)     # the cancel told one already
    assert len(world.service.scheduler) == 0 and world.service.scheduler.heap_size == 0


async def test_a_whole_match_of_computers_keeps_the_scheduler_bounded(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(computer_pause=1.0)
    scheduler = world.service.scheduler
    tables = [await world.table((ANN + k * 10,), computers=3,
                                options={**TIMERS, "hands": 2}, channel=70 + k)
              for k in range(3)]
    # (entries, deciding seats, heap) at every firing: checked after the run, since
    # the scheduler logs and swallows what a firing raises
    seen: list[tuple[int, int, int]] = []
    loop = world.service.loop
    assert isinstance(loop, SchedulerLoop)
    fire = loop._fire

    async def measuring(wake: Wake) -> None:
        deciding = sum(len(t.pending) for t in world.service._tables.values())
        seen.append((len(scheduler), deciding, scheduler.heap_size))
        await fire(wake)

    loop._fire = measuring
    while any(t in world.service._tables for t in tables):
        await world.advance(30)
        assert_only_open(world)
    assert len(seen) > 300
    assert all(entries <= 2 * deciding for entries, deciding, _ in seen)
    assert all(heap <= 2 * entries + COMPACT_SLACK for entries, _, heap in seen)
    assert len(scheduler) == 0 and scheduler.heap_size == 0


async def test_a_restart_does_not_double_the_entries_when_the_table_is_rebuilt(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.store.close()
    world = await make_world(FakeClock(world.clock.now() + 86_400.0), grace=30.0,
                             deal=stacked(SCENE_PONG))
    await world.service.recover(eager=False)
    assert len(world.service.scheduler) == 0                 # nothing per table at start-up
    await world.service.scheduler.top_up()                   # the stored next moments
    assert len(world.service.scheduler) == 1                 # Cid's reminder, its next
    await world.service.set_choices(by(CID), table, StandingChoices())  # rebuilt on use
    assert_only_open(world)
    assert len(world.service.scheduler) == 2
