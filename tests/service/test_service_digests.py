"""The digest: when a person's quiet hours end and decisions wait for them, exactly one
DM lists them all (the list of `/mahjong turns`), instead of one notification per
table; none when nothing waits by then; once across a restart, and once with two
processes on one database."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import DigestNotice, FakeClock
from tests.service.helpers import ANN, BOB, EVE, QUIET, D, MakeWorld, World, by, stacked, worlds_on

pytestmark = pytest.mark.usefixtures("dealer_zero")

EVENING = 1772452800.0
"""2026-03-02 20:00 in Asia/Shanghai (12:00 UTC): before Ann's quiet hours."""
HOUR = 3600.0
MORNING = EVENING + 11 * HOUR
"""07:00 the next day in Shanghai: Ann's quiet hours end."""
CALM = {0: QUIET[0] + "9m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
"""The dealer (seat 0) discards 9m, which nobody may claim."""

OTHER_GUILD = 8


async def _quiet(world: World, user: int = ANN) -> None:
    """``user`` sets quiet hours 23:00–07:00 in Shanghai (`/mahjong quiet`)."""
    await world.service.set_quiet(by(user), start="23:00", end="07:00",
                                  time_zone="Asia/Shanghai")


async def _tables(world: World) -> tuple[int, int]:
    """Two tables in two servers where Ann deals: her turn at both."""
    world.service.deal = lambda rules, dealer: stacked(CALM, rules)(rules, dealer)
    here = await world.table((ANN,), computers=3)
    info = await world.service.create_table(by(ANN), guild_id=OTHER_GUILD, channel_id=80,
                                            rules="hangzhou")
    there = info.ref.table_id
    await world.service.join(by(BOB), there)
    for _ in range(2):
        await world.service.add_computer(by(ANN), there)
    await world.service.start(by(ANN), there)
    await world.settle()
    return here, there


def _digests(*worlds: World) -> list[DigestNotice]:
    return [n for w in worlds for n in w.notes.of("digest")]


async def test_one_digest_after_the_night_lists_every_table(make_world: MakeWorld) -> None:
    world = await make_world(FakeClock(EVENING))
    here, there = await _tables(world)
    await _quiet(world)
    await world.advance(HOUR)  # 21:00: not quiet yet, nothing owed
    assert await world.store.digests.owed(ANN) is None
    await world.advance(2.5 * HOUR)  # 23:30: quiet, her turns wait: owed at 07:00
    owed = await world.store.digests.owed(ANN)
    assert owed is not None and owed.due_at == MORNING
    await world.advance(MORNING - 60 - world.clock.now())
    assert _digests(world) == []
    await world.advance(60)  # 07:00
    (digest,) = _digests(world)
    assert digest.user_id == ANN
    assert digest.waiting == await world.service.turns(by(ANN))
    assert [w.ref.table_id for w in digest.waiting] == [here, there]  # the soonest first
    # the day goes on: nothing more, though her turns still wait
    await world.advance(3 * HOUR)
    assert len(_digests(world)) == 1
    sent = await world.store.digests.owed(ANN)
    assert sent is not None and sent.sent_at == MORNING
    # Bob set no quiet hours: no digest for him, ever; Eve sits nowhere
    await _quiet(world, EVE)
    await world.advance(13 * HOUR)  # the next night
    assert [d.user_id for d in _digests(world)] == [ANN]
    assert await world.store.digests.owed(EVE) is None


async def test_the_digest_speaks_the_persons_language(make_world: MakeWorld) -> None:
    world = await make_world(FakeClock(EVENING))
    await _tables(world)
    await world.service.turns(by(ANN, locale="zh-CN"))
    await _quiet(world)
    await world.advance(3.5 * HOUR)
    again = await make_world(world.clock)  # another process: knows it from the store
    await again.advance(MORNING - again.clock.now())
    (digest,) = _digests(world, again)
    assert digest.locale == "zh-CN"


async def test_no_digest_when_nothing_waits_any_more(make_world: MakeWorld) -> None:
    world = await make_world(FakeClock(EVENING))
    world.service.deal = stacked(CALM)
    table = await world.table((ANN, BOB), computers=2)
    await _quiet(world)
    await world.advance(3.5 * HOUR)  # 23:30: quiet, her turn waits
    assert await world.store.digests.owed(ANN) is not None
    world.clock.advance(2 * HOUR)  # she plays at 01:30 all the same: Bob's turn now
    await world.service.act(by(ANN), table, D(0, "9m"), step=1, hand_number=1)
    await world.advance(MORNING + HOUR - world.clock.now())
    assert _digests(world) == []
    owed = await world.store.digests.owed(ANN)
    assert owed is not None and owed.sent_at is not None  # owed no more


async def test_once_across_a_restart(make_world: MakeWorld) -> None:
    world = await make_world(FakeClock(EVENING))
    await _tables(world)
    await _quiet(world)
    await world.advance(3.5 * HOUR)  # owed, then the bot stops for the night
    await world.store.close()
    restarted = await make_world(world.clock)
    await restarted.service.recover()
    restarted.clock.advance(MORNING + 5 * 60 - restarted.clock.now())  # back at 07:05
    await restarted.settle()
    await restarted.advance(HOUR)
    (digest,) = _digests(world, restarted)
    assert digest.user_id == ANN and len(digest.waiting) == 2


async def test_two_processes_send_it_once(make_world: MakeWorld) -> None:
    one = await make_world(FakeClock(EVENING), shared=True)
    await _tables(one)
    await _quiet(one)
    two = await make_world(one.clock, shared=True)
    await one.advance(3.5 * HOUR)
    one.clock.advance(MORNING - one.clock.now())
    for _ in range(3):
        await two.settle()
        await one.settle()
    assert [d.user_id for d in _digests(one, two)] == [ANN]


async def test_hours_changed_in_the_night_put_it_off(make_world: MakeWorld) -> None:
    world = await make_world(FakeClock(EVENING))
    await _tables(world)
    await _quiet(world)
    await world.advance(3.5 * HOUR)
    # in the night Ann sleeps in: quiet until 09:00 now
    await world.service.set_quiet(by(ANN), start="23:00", end="09:00",
                                  time_zone="Asia/Shanghai")
    await world.advance(MORNING + 60 - world.clock.now())
    assert _digests(world) == []
    owed = await world.store.digests.owed(ANN)
    assert owed is not None and owed.due_at == MORNING + 2 * HOUR
    await world.advance(2 * HOUR)
    assert len(_digests(world)) == 1


async def test_a_decision_in_the_last_moments_of_the_quiet_gets_its_digest(
        make_world: MakeWorld) -> None:
    """Bob plays at 06:59:30, after the last look at 06:59: Ann's turn reaches her in her
    quiet hours with nothing owed; the first look after 07:00 owes that night's digest."""
    world = await make_world(FakeClock(EVENING))
    world.service.deal = stacked(CALM)
    table = await world.table((BOB, ANN), computers=2)  # Bob deals, Ann is next
    await _quiet(world)
    await world.advance(MORNING - 60 - world.clock.now())  # 06:59: nothing waits for Ann
    assert await world.store.digests.owed(ANN) is None
    world.clock.advance(30)
    await world.service.act(by(BOB), table, D(0, "9m"), step=1, hand_number=1)
    await world.settle()
    assert [w.move for w in await world.service.turns(by(ANN))] == ["turn"]
    await world.advance(40)  # 07:00:10
    (digest,) = _digests(world)
    assert [w.ref.table_id for w in digest.waiting] == [table]
    for _ in range(5):  # once: the looks after find that night's digest sent
        await world.advance(60)
    assert len(_digests(world)) == 1


async def test_a_quiet_never_seen_owes_nothing_for_an_evening_turn(
        make_world: MakeWorld) -> None:
    """A quiet no process looked at (the bot down from 20:00 to 07:30): the turn that
    waits reached her in the evening, not while quiet, and nothing is owed for it."""
    world = await make_world(FakeClock(EVENING))
    await _tables(world)
    await _quiet(world)
    await world.settle()
    world.clock.advance(MORNING + 30 * 60 - world.clock.now())
    await world.settle()
    assert _digests(world) == []


CHILD = Path(__file__).with_name("digest_child.py")


def _killed(db: Path, what: str, now: float) -> str:
    """Run the child until it says what it committed, then SIGKILL it; its word."""
    proc = subprocess.Popen([sys.executable, str(CHILD), str(db), what, str(now)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    said = proc.stdout.readline().strip()
    os.kill(proc.pid, signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL, err[-2000:]
    return said


@pytest.mark.parametrize("what", ["owe", "claim"])
async def test_once_across_a_sigkill(make_world: MakeWorld, db_path: Path, what: str) -> None:
    """Killed once the digest was owed (23:30), or while holding it unsent (07:00): the
    next process sends it once (after the dead one's lease, for a claim)."""
    world = await make_world(FakeClock(EVENING))
    await _tables(world)
    await _quiet(world)
    await world.store.close()
    night = EVENING + 3.5 * HOUR
    assert _killed(db_path, "owe", night) == "OWED 1"
    if what == "claim":
        assert _killed(db_path, "claim", MORNING) == "CLAIMED 1"
    after = await make_world(FakeClock(MORNING))
    await after.service.recover()
    await after.settle()
    if what == "claim":
        assert _digests(after) == []  # the dead process holds it until its lease ends
        await after.advance(121.0)
    (digest,) = _digests(after)
    assert digest.user_id == ANN and len(digest.waiting) == 2
    await after.advance(HOUR)
    assert len(_digests(after)) == 1


@pytest.fixture
async def on_both(each_database: Path | str) -> AsyncIterator[MakeWorld]:
    """Worlds in shared mode on one database of each kind (PostgreSQL: SKIP LOCKED)."""
    async with worlds_on(each_database, shared=True) as make:
        yield make


async def test_three_processes_at_once_send_it_once(on_both: MakeWorld) -> None:
    clock = FakeClock(EVENING)
    # leases long enough that the clock's jumps of hours leave the processes alive to
    # each other (their heartbeats are not pruned as a killed process's would be)
    worlds = [await on_both(clock, claim_lease=1000.0) for _ in range(3)]
    await _tables(worlds[0])
    await _quiet(worlds[0])
    clock.advance(3.5 * HOUR)
    await asyncio.gather(*(w.settle() for w in worlds))  # all look at once
    clock.advance(MORNING - clock.now())
    for _ in range(3):
        await asyncio.gather(*(w.settle() for w in worlds))  # and claim at once
    assert [d.user_id for d in _digests(*worlds)] == [ANN]


async def test_a_failure_of_the_store_does_not_end_the_loops(
        make_world: MakeWorld, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """The digests' loop runs beside the scheduler's (`TableService.run`): a look that
    fails is logged, and both go on; the digest comes at the next look."""
    world = await make_world(FakeClock(EVENING))
    await _tables(world)
    await _quiet(world)
    looks = world.store.digests.resting_and_waited_for
    failed: list[float] = []

    async def failing_once(now: float) -> object:
        if not failed:
            failed.append(now)
            raise OSError("the disk hiccupped")
        return await looks(now)

    monkeypatch.setattr(world.store.digests, "resting_and_waited_for", failing_once)
    runner = asyncio.create_task(world.service.run())
    try:
        for _ in range(4):  # 23:30, then a minute at a time: the second look owes it
            world.clock.advance(3.5 * HOUR if not failed else 60)
            await asyncio.sleep(0.05)
        world.clock.advance(MORNING - world.clock.now())
        for _ in range(100):
            await asyncio.sleep(0.01)
            if _digests(world):
                break
        assert failed and len(_digests(world)) == 1
        assert not runner.done()
        assert "the digests could not be looked at" in caplog.text
    finally:
        world.service.stop()
        await asyncio.wait_for(runner, 5)


async def test_a_digest_when_a_leave_ends(make_world: MakeWorld) -> None:
    """A leave is rest as quiet hours are: when it ends with decisions waiting, one DM."""
    world = await make_world(FakeClock(EVENING))
    await _tables(world)
    await world.advance(HOUR)
    await world.service.set_vacation(by(ANN), 1)  # a day off from 21:00
    back = EVENING + 25 * HOUR
    await world.advance(HOUR)  # on leave: owed when it ends
    owed = await world.store.digests.owed(ANN)
    assert owed is not None and owed.due_at == back
    await world.advance(back - 60 - world.clock.now())
    assert _digests(world) == []
    await world.advance(60)
    (digest,) = _digests(world)
    assert len(digest.waiting) == 2
