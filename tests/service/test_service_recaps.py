"""The weekly recap (issue 31): turned on per channel by a manager, posted once for each
week (Monday 09:00 UTC, the week before) through the outbox — never twice after a
restart or by two processes, nothing for a quiet week — with the biggest hand, the most
improved rating and the most hands played, right against a recount. Also, with the
same child processes: a season closed once by two processes at the same moment."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.service import FakeClock, Place, RecapNotice, RecordingNotifier, TableService
from bot.service import errors as E
from bot.service.fairness import Deal
from bot.service.notices import Notice
from bot.service.recaps import due_week, next_due, week_name, week_number
from bot.store import Store
from tests.service.helpers import (
    ANN,
    BOB,
    CHANNEL,
    CID,
    DEE,
    GUILD,
    HERE,
    QUIET,
    W,
    World,
    by,
    refused,
    stacked,
)

pytestmark = pytest.mark.usefixtures("dealer_zero")

HEAVENLY = {0: "123m456m789m123p55p", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
PEOPLE = (ANN, BOB, CID, DEE)


def at(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


WEDNESDAY = at("2026-11-25T12:00")  # in 2026-W48 (Monday 23 November to Monday 30)
MONDAY_AFTER = at("2026-11-30T09:00")


def _heavenly(rules: str, dealer: int) -> Deal:
    return stacked(HEAVENLY, rules)(rules, dealer)


def test_a_week_is_due_the_monday_after_at_nine_utc() -> None:
    assert week_name(at("2026-11-23T00:00")) == "2026-W48"
    assert due_week(at("2026-11-30T08:59"))[0] == "2026-W47"
    name, start, end = due_week(MONDAY_AFTER)
    assert (name, start, end) == ("2026-W48", at("2026-11-23T00:00"), at("2026-11-30T00:00"))
    assert due_week(at("2026-12-06T23:59"))[0] == "2026-W48"  # down all week: still due
    assert next_due(MONDAY_AFTER) == at("2026-12-07T09:00")
    assert next_due(at("2026-11-30T08:00")) == MONDAY_AFTER
    assert due_week(at("2027-01-04T09:00"))[0] == "2026-W53"
    assert week_number("2026-W48") == 202648


async def _ann_wins(world: World, *, whole: bool = False) -> None:
    """A hand Ann wins at once: the table is then cancelled, or (``whole``) it was a
    match of one hand, which finishes and is rated. Its facts are the projection's,
    written with its settlement."""
    table = await world.table(options={"hands": 1} if whole else None)
    await world.service.act(by(ANN), table, W(0), step=1)
    if not whole:
        await world.service.cancel(by(ANN), table)
    [match] = await world.store.matches.of_table(table)
    hand = (await world.store.hands.of_match(match.id))[0]  # the next one was voided
    assert len(await world.store.facts.of_hand(hand.id)) == 4


async def test_only_a_manager_turns_the_recap_on_or_off(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world()
    svc = world.service
    await refused(E.NOT_MANAGER, svc.set_recap(by(ANN, place=HERE), True))
    assert await world.store.recaps.get(CHANNEL) is None
    done = await svc.set_recap(by(BOB, manager=True, place=HERE), True)
    assert (done.channel_id, done.enabled) == (CHANNEL, True)
    # a DM has no channel's recap
    await refused(E.NO_TABLE, svc.set_recap(by(BOB, manager=True, place=Place(None, 5)),
                                            False))
    assert (await svc.set_recap(by(BOB, manager=True, place=HERE), False)).enabled is False


async def test_the_week_is_posted_once_on_monday_with_its_three_lines(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(FakeClock(WEDNESDAY), deal=_heavenly)
    await world.service.set_recap(by(BOB, manager=True, place=HERE), True)
    await _ann_wins(world, whole=True)  # finished and rated: Ann's rating rose most
    world.clock.advance(3600)
    await _ann_wins(world)
    world.clock.set(MONDAY_AFTER - 1)
    await world.settle()
    assert world.notes.of("recap") == []  # not yet
    world.clock.set(MONDAY_AFTER)
    await world.settle()
    [recap] = world.notes.of("recap")
    assert isinstance(recap, RecapNotice)
    assert (recap.week, recap.hands, recap.ref.channel_id) == ("2026-W48", 2, CHANNEL)
    # the recount: the settlements' own wins
    wins = [n.result.settlements[0] for n in world.notes.of("settlement")]
    [big] = recap.biggest
    assert (big.name, big.value) == ("Ann", max(w.value for w in wins))
    assert big.patterns == tuple(p.id for p in wins[0].patterns)
    assert recap.most_hands == ("Ann", 2)  # all four played two: the first to, by id
    # the recount: the rating changes of the week's rated match, as the ratings wrote them
    [rated] = await world.store.matches.of_table(1)
    changes = {c.user_id: c for c in await world.store.ratings.of_match(rated.id)}
    best = max(changes.values(), key=lambda c: c.shown_after - c.shown_before)
    assert best.user_id == ANN and best.shown_after > best.shown_before
    assert recap.improved is not None
    assert (recap.improved.name, recap.improved.rules, recap.improved.gain,
            recap.improved.shown, recap.improved.provisional) == (
        "Ann", "shanghai", best.shown_after - best.shown_before, best.shown_after, True)
    assert recap.receipt is not None
    await world.settle()
    world.clock.advance(86400)
    await world.settle()
    assert len(world.notes.of("recap")) == 1  # once
    [row] = [a for a in await world.store.outbox.of_table(2) if a.kind == "recap"]
    assert row.status == "delivered"


async def test_a_quiet_week_posts_nothing_and_a_restart_never_posts_twice(
        make_world: Callable[..., Awaitable[World]]) -> None:
    clock = FakeClock(WEDNESDAY)
    world = await make_world(clock, deal=_heavenly)
    await world.service.set_recap(by(BOB, manager=True, place=HERE), True)
    clock.set(MONDAY_AFTER)  # nothing played in W48
    await world.settle()
    assert world.notes.of("recap") == []
    assert await world.store.recaps.posted(CHANNEL) == ["2026-W48"]
    await _ann_wins(world)  # in W49
    clock.set(at("2026-12-08T10:00"))  # the bot was down across Monday: posts when back
    again = await make_world(clock, deal=_heavenly)  # a restart: same file, new service
    await again.settle()
    await world.settle()
    assert len(again.notes.of("recap")) + len(world.notes.of("recap")) == 1
    third = await make_world(clock, deal=_heavenly)
    await third.settle()
    assert third.notes.of("recap") == []
    assert await third.store.recaps.posted(CHANNEL) == ["2026-W48", "2026-W49"]


async def test_a_recap_lost_in_a_crash_is_delivered_once_by_the_next_start(
        make_world: Callable[..., Awaitable[World]]) -> None:
    clock = FakeClock(WEDNESDAY)
    world = await make_world(clock, deal=_heavenly)
    await world.service.set_recap(by(BOB, manager=True, place=HERE), True)
    await _ann_wins(world)

    class Dying(RecordingNotifier):
        async def publish(self, notice: Notice) -> None:
            if isinstance(notice, RecapNotice):
                raise ConnectionError("killed before Discord heard of it")
            await super().publish(notice)

    world.service.notifier = Dying()
    clock.set(MONDAY_AFTER)
    await world.settle()
    restarted = await make_world(clock, deal=_heavenly)
    await restarted.service.recover()
    await restarted.settle()
    assert len(restarted.notes.of("recap")) == 1


async def test_two_processes_post_a_week_once(pg_url: str) -> None:
    """Shared mode on PostgreSQL: two services look at the same moment; one posts."""
    clock = FakeClock(WEDNESDAY)
    stores = [await Store.open(pg_url) for _ in range(2)]
    try:
        notes = [RecordingNotifier(), RecordingNotifier()]
        services = [TableService(s, n, clock=clock, computer_pause=0.0, shared=True,
                                 deal=_heavenly) for s, n in zip(stores, notes, strict=True)]
        world = World(stores[0], clock, notes[0], services[0])
        await services[0].set_recap(by(BOB, manager=True, place=HERE), True)
        await _ann_wins(world)
        clock.set(MONDAY_AFTER)
        posted = await asyncio.gather(*(s.recaps.run_due() for s in services))
        assert sorted(posted) == [0, 1]
        for s in services:
            await s.loop.run_due()
        assert len(notes[0].of("recap")) + len(notes[1].of("recap")) == 1
    finally:
        for store in stores:
            await store.close()


CHILD = Path(__file__).with_name("season_child.py")


def _at_once(target: str, what: str, now: float, count: int = 2) -> list[str]:
    """``count`` child processes doing ``what`` at the same moment; what each said."""
    start = time.time() + 4.0  # after every child's start-up
    procs = [subprocess.Popen([sys.executable, str(CHILD), target, what, str(now), str(start)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(count)]
    said = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err[-2000:]
        said.append(out.strip().splitlines()[-1])
    return sorted(said)


async def _played_on(target: str) -> None:
    """A shared-mode service on ``target``: the recap on, a hand won in week 48."""
    clock, notes = FakeClock(WEDNESDAY), RecordingNotifier()
    store = await Store.open(target)
    try:
        service = TableService(store, notes, clock=clock, computer_pause=0.0,
                               shared=target.startswith("postgres"), deal=_heavenly)
        await service.set_recap(by(BOB, manager=True, place=HERE), True)
        await _ann_wins(World(store, clock, notes, service))
    finally:
        await store.close()


async def test_two_processes_at_the_same_moment_post_a_week_once(pg_url: str) -> None:
    await _played_on(pg_url)
    assert _at_once(pg_url, "recap", MONDAY_AFTER) == ["POSTED 0", "POSTED 1"]
    store = await Store.open(pg_url)
    try:
        assert await store.recaps.posted(CHANNEL) == ["2026-W48"]
        assert len([a for a in await store.outbox.of_table(1) if a.kind == "recap"]) == 1
        # neither child's notifier told anyone: once the claim of the one that posted it
        # has run out (its announcement lease), the next start delivers it, once
        notes = RecordingNotifier()
        service = TableService(store, notes, clock=FakeClock(MONDAY_AFTER + 121),
                               shared=True, computer_pause=0.0)
        await service.recover()
        await service.run_due()
        await service.run_due()
        assert len(notes.of("recap")) == 1
    finally:
        await store.close()


async def test_two_processes_at_the_same_moment_close_a_season_once(pg_url: str) -> None:
    await _played_on(pg_url)
    assert _at_once(pg_url, "close", MONDAY_AFTER) == ["CLOSED 4", "REFUSED season_closed"]
    store = await Store.open(pg_url)
    try:
        assert await store.seasons.current(GUILD) == 2
        assert len(await store.seasons.archived_top(GUILD, CHANNEL, 1, "shanghai")) == 4
    finally:
        await store.close()


async def test_a_sigkill_while_the_recap_is_handed_over_posts_it_once(
        make_world: Callable[..., Awaitable[World]], db_path: Path) -> None:
    """Killed right as the recap went to Discord (it may have arrived): the next start
    looks for it before sending it again (``unsure``), and never decides the week again."""
    await _played_on(str(db_path))
    proc = subprocess.Popen([sys.executable, str(CHILD), str(db_path), "recap-hang",
                             str(MONDAY_AFTER), "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "HANDED"
    os.kill(proc.pid, signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL, err[-2000:]
    after = await make_world(FakeClock(MONDAY_AFTER + 60))
    await after.service.recover()
    await after.settle()
    [recap] = after.notes.of("recap")
    assert recap.receipt is not None and recap.receipt.unsure
    again = await make_world(FakeClock(MONDAY_AFTER + 120))
    await again.service.recover()
    await again.settle()
    assert again.notes.of("recap") == []
    assert await again.store.recaps.posted(CHANNEL) == ["2026-W48"]
