"""The scheduler holds only the next moments (issue 32): the stored deadlines are read
a page at a time in the order their moments come, every one fires once and on time
however many there are, and a table leaving memory forgets only the moments a later page
brings back. A fake store of moments stands for the database's index."""

from __future__ import annotations

import bisect
import random

from bot.service import FakeClock
from bot.service.scheduler import PAGE, Moment, Scheduler, Wake

START = 1_700_000_000.0


class Stored:
    """Deadline moments as the database keeps them: one per (table, seat), read in the
    order of (moment, hand, seat) after a place (`Deadlines.page`)."""

    def __init__(self) -> None:
        self.rows: dict[tuple[int, int], Wake] = {}
        self.reads = 0

    def put(self, wake: Wake) -> None:
        self.rows[(wake.table_id, wake.seat)] = wake

    def delete(self, wake: Wake) -> None:
        if self.rows.get((wake.table_id, wake.seat)) == wake:
            del self.rows[(wake.table_id, wake.seat)]

    async def page(self, after: Moment | None, limit: int) -> list[tuple[Moment, Wake]]:
        self.reads += 1
        ordered = sorted(((w.when, w.hand_id, w.seat), w) for w in self.rows.values())
        start = 0 if after is None else bisect.bisect_right([m for m, _ in ordered], after)
        return ordered[start:start + limit]


def wake(table: int, when: float, seat: int = 0) -> Wake:
    return Wake(when, table, table * 10, seat, 1)


async def test_every_stored_moment_fires_once_on_time_holding_a_page_at_most() -> None:
    clock = FakeClock(START)
    stored = Stored()
    rng = random.Random(3)
    for table in range(1, 5 * PAGE):  # some moments share their second, some their moment
        stored.put(wake(table, START + rng.choice((10.0, 10.0, rng.uniform(0, 3600)))))
    initial = set(stored.rows.values())
    scheduler = Scheduler(clock)
    scheduler.page_from(stored.page)
    fired: list[tuple[float, Wake]] = []

    async def fire(w: Wake) -> None:
        fired.append((clock.now(), w))
        stored.delete(w)  # as a move replaces the hand's deadline row

    most = 0
    for _ in range(3700):
        await scheduler.run_due(fire)
        most = max(most, len(scheduler))
        clock.advance(1.0)
    await scheduler.run_due(fire)
    assert len(fired) == len(initial) and {w for _, w in fired} == initial  # each once
    assert all(0 <= at - w.when < 1.0 for at, w in fired)  # each within its second
    assert most <= 2 * PAGE  # never every table's
    assert stored.rows == {}


async def test_a_table_leaving_memory_forgets_only_what_a_later_page_brings_back() -> None:
    clock = FakeClock(START)
    stored = Stored()
    for table in range(1, PAGE + 1):
        stored.put(wake(table, START + 100.0 + table))
    scheduler = Scheduler(clock)
    scheduler.page_from(stored.page)
    await scheduler.top_up()
    assert len(scheduler) == PAGE
    # a table in memory (not among the stored ones read) pushes its own moments
    mine = [wake(9999, START + 50.0), wake(9999, START + 90_000.0, seat=1)]
    for w in mine:
        stored.put(w)
        scheduler.push(w)
    reads = stored.reads
    scheduler.unload(9999)  # the moment after the last one read goes, the other stays
    assert wake(9999, START + 50.0) in scheduler.entries()
    assert wake(9999, START + 90_000.0, seat=1) not in scheduler.entries()
    assert scheduler.woken.is_set()  # the loop looks again before it sleeps
    fired: list[Wake] = []

    async def fire(w: Wake) -> None:
        fired.append(w)
        stored.delete(w)

    clock.advance(100_000.0)
    await scheduler.run_due(fire)
    assert stored.reads > reads
    assert sorted(fired) == sorted({wake(t, START + 100.0 + t) for t in range(1, PAGE + 1)}
                                   | set(mine))


async def test_without_a_source_a_table_leaving_memory_leaves_the_scheduler() -> None:
    """Shared mode: the database's claims fire every moment; the scheduler only wakes
    their poll early, and forgets a table that leaves memory."""
    scheduler = Scheduler(FakeClock(START))
    scheduler.push(wake(1, START + 5.0))
    scheduler.unload(1)
    assert len(scheduler) == 0
