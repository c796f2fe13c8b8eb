"""Restart recovery: live tables rebuilt from their logs, deadlines reloaded (with a
grace period for those that passed while down), and crashes between two writes mended."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import pytest

from bot.service import FakeClock
from bot.store import NewHand, StandingChoices
from tests.narrowing import known
from tests.service.helpers import ANN, CID, SCENE_PONG, D, World, by, stacked

pytestmark = pytest.mark.usefixtures("dealer_zero")
TIMERS = {"turn_timer": 60, "claim_timer": 20, "away_after": 3}
DAY = 86_400.0


async def restart(make_world: Callable[..., Awaitable[World]], old: World,
                  down: float = DAY, **kwargs: Any) -> World:
    await old.store.close()
    return await make_world(FakeClock(old.clock.now() + down), grace=30.0, **kwargs)


async def test_a_restart_rebuilds_the_hand_and_defers_passed_deadlines(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)
    await world.service.act(by(ANN), table, D(0, "9m"))
    before = (await world.service.table_picture(table)).view
    cid_before = await world.service.hand(by(CID), table)
    world = await restart(make_world, world)
    report = await world.service.recover(eager=True)
    assert (report.live_tables, report.rebuilt, report.deferred) == (1, 1, 1)
    assert (await world.service.table_picture(table)).view == before
    cid = await world.service.hand(by(CID), table)
    assert cid.view == cid_before.view and cid.step == 2
    assert cid.deadline == world.clock.now() + 30.0        # grace, not fired at once
    await world.settle()                                    # only the reminder, now late
    assert [r.user_id for r in world.notes.of("reminder")] == [CID]
    assert len(await world.store.log.actions(known(await world.store.hands.live(table)).id)) == 1
    await world.advance(30)
    hand = known(await world.store.hands.live(table))
    assert [(a.seat, a.kind, a.source) for a in await world.store.log.actions(hand.id)] == \
        [(0, "discard", "player"), (2, "pass", "timeout")]


async def test_lazy_recovery_rebuilds_a_table_on_first_use(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)
    world = await restart(make_world, world)
    report = await world.service.recover(eager=False)
    assert report.rebuilt == 0 and report.deadlines == 1
    # the bot's own start counts nothing: nothing read per live table
    uncounted = await world.service.recover(counted=False)
    assert (uncounted.live_tables, uncounted.deadlines, uncounted.rebuilt) == (None, None, 0)
    await world.advance(30)            # the deadline's wake rebuilds the table, then plays
    hand = known(await world.store.hands.live(table))
    assert [(a.seat, a.source) for a in await world.store.log.actions(hand.id)] == \
        [(0, "timeout")]


class Crash(Exception):
    """Stands for the process dying between two writes."""


def crash_on(store: object, method: str, call: int) -> None:
    """Make ``store.method`` raise on its ``call``-th call (1-based)."""
    real = getattr(store, method)
    calls = {"n": 0}

    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == call:
            raise Crash(method)
        return await real(*args, **kwargs)

    setattr(store, method, wrapper)


async def finish_match(world: World, table: int) -> None:
    await world.until("match_ended", step=5)
    info = await world.service.table_info(table)
    assert info.status == "finished"
    (match,) = await world.store.matches.of_table(table)
    assert match.status == "finished" and sum(known(match.totals).values()) == 0
    hands = await world.store.hands.of_match(match.id)
    assert [h.number for h in hands] == list(range(1, len(hands) + 1)) and len(hands) == 2
    for h in hands:
        assert sum(s.amount for s in await world.store.endings.settlements(h.id)) == 0


def split_like_an_older_version(world: World, method: str) -> None:
    """Make the store write ``method`` (one transaction today) as versions before it
    did, in parts, and "crash" after the first: a start left "playing" with no match
    (`Matches.start`), or with its hand but no deadline; a hand's end left without the
    next deal (`Endings.finish_and_deal`; the process is dead: nothing of it runs on).
    Such a database is what recovery still mends."""
    store = world.store
    real_start = store.matches.start

    async def start_then_crash(table_id: int, *, first_dealer: int, at: float,
                               hand: NewHand, fence: Any = None) -> Any:
        if method == "start_match":
            await store.lobby.set_status(table_id, "playing", expected="lobby", fence=fence)
        else:
            await real_start(table_id, first_dealer=first_dealer, at=at,
                             hand=replace(hand, deadlines=()), fence=fence)
        raise Crash(method)

    async def finish_then_crash(hand_id: int, final: Any, *, deal: NewHand,
                                **kwargs: Any) -> Any:
        ended = await store.endings.finish_hand(hand_id, final, **kwargs)
        world.service.scheduler.forget(ended.table_id)
        world.service._tables.clear()
        raise Crash(method)

    split = finish_then_crash if method == "finish_and_deal" else start_then_crash
    repository, name = (store.endings, "finish_and_deal") if method == "finish_and_deal" \
        else (store.matches, "start")
    setattr(repository, name, split)


async def test_a_crash_between_the_end_of_a_hand_and_the_next_deal_is_mended(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world()
    split_like_an_older_version(world, "finish_and_deal")
    table = await world.table((ANN,), computers=3, options={**TIMERS, "hands": 2})
    for _ in range(500):                           # until hand 1 ended and it "crashed"
        if await world.store.hands.last_ended(table) is not None:
            break
        await world.advance(60)
    assert await world.store.hands.live(table) is None
    world = await restart(make_world, world)
    await world.store.deadlines.look_for_stranded()  # as upgrading to 0035 did
    report = await world.service.recover(eager=False)
    assert report.rebuilt == 1                     # no deadline: rebuilt at once
    assert known(await world.store.hands.live(table)).number == 2
    assert await world.store.deadlines.stranded() == []   # mended: off 0035's list
    await finish_match(world, table)


async def test_a_crash_before_the_first_deadlines_were_written_is_mended(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world()
    split_like_an_older_version(world, "deadlines")
    with pytest.raises(Crash):
        await world.table((ANN,), computers=3, options={**TIMERS, "hands": 2})
    assert await world.store.deadlines.all() == []
    world = await restart(make_world, world)
    await world.store.deadlines.look_for_stranded()  # as upgrading to 0035 did
    await world.service.recover(eager=False)
    assert len(await world.store.deadlines.all()) == 1
    await finish_match(world, 1)


async def test_a_crash_between_start_and_the_match_row_is_mended(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world()
    split_like_an_older_version(world, "start_match")
    with pytest.raises(Crash):
        await world.table((ANN,), computers=3, options={**TIMERS, "hands": 2})
    world = await restart(make_world, world)
    await world.store.deadlines.look_for_stranded()  # as upgrading to 0035 did
    await world.service.recover()
    await finish_match(world, 1)


async def test_a_table_whose_mend_finishes_its_match_counts_as_rebuilt(
        make_world: Callable[..., Awaitable[World]], caplog: pytest.LogCaptureFixture) -> None:
    world = await make_world()
    table = await world.table((ANN,), computers=3, options={**TIMERS, "hands": 1})
    await world.until("match_ended", step=60)
    # The last hand is settled (match totals written) but the table was never marked
    # finished: a database that a crash of a version before the outbox (which finishes
    # the table in the hand's own transaction) left behind.
    await world.store.lobby.set_status(table, "playing", expected="finished")
    world = await restart(make_world, world)
    await world.store.deadlines.look_for_stranded()  # as upgrading to 0035 did
    caplog.clear()
    with caplog.at_level(logging.INFO):
        report = await world.service.recover()
    assert (report.live_tables, report.rebuilt, report.failed) == (1, 1, ())
    assert known(await world.store.lobby.get_table(table)).status == "finished"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_after_a_restart_a_computer_moves_within_its_pause_not_the_grace(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(computer_pause=2.0)
    table = await world.table((ANN,), computers=3, options=TIMERS)
    await world.advance(60)                  # Ann's turn times out: a computer is to move
    (owed,) = await world.store.deadlines.all()
    assert owed.kind == "computer" and owed.seat != 0
    hand = known(await world.store.hands.live(table))
    world = await restart(make_world, world, computer_pause=2.0)   # grace 30 s
    report = await world.service.recover()
    assert report.deferred == 1
    assert len(await world.store.log.actions(hand.id)) == 1
    await world.advance(2)                   # its pause, not the grace period
    moves = await world.store.log.actions(hand.id)
    assert len(moves) > 1 and moves[1].source == "computer"


async def test_after_a_restart_a_standing_choice_is_played_at_once_not_after_the_grace(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)
    await world.service.set_choices(by(CID), table, StandingChoices(pass_claims=True))
    await world.service.act(by(ANN), table, D(0, "9m"))   # Cid's pass is owed at once...
    (owed,) = await world.store.deadlines.all()
    assert (owed.seat, owed.kind) == (2, "computer")
    hand = known(await world.store.hands.live(table))
    world = await restart(make_world, world)          # ...but the bot went down first
    await world.service.recover()
    await world.settle()
    assert [(a.seat, a.kind, a.source) for a in await world.store.log.actions(hand.id)] == \
        [(0, "discard", "player"), (2, "pass", "computer")]


async def test_recovery_reads_the_engines_bundled_table_before_any_move(
        make_world: Callable[..., Awaitable[World]]) -> None:
    """A restart reads the group-cost table as it starts, not on a player's first move."""
    from engine.game import held

    world = await make_world(deal=stacked(SCENE_PONG))
    await world.table(options=TIMERS)
    world = await restart(make_world, world)
    held._group_costs_table.cache_clear()
    await world.service.recover(eager=False)  # no table rebuilt, no move made
    assert held._group_costs_table.cache_info().currsize == 1
