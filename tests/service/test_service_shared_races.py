"""Shared mode: a process's recovery never mends what a live peer is in the middle of,
and a lost race never reaches the person as an unexpected error (SQLite and PostgreSQL).

Process a runs a command that changes a table in more than one place (a start: status,
match, first hand; a move that ends a hand: the settlement and the next deal). Its
write transactions are paused one by one after their commit, and process b loads the
table at each of those moments, as its recovery or any command of it would: b's read
may land between two of a's commits, and b's own writes before or after a's next one.
Whatever the order, b must find the table as one of a's commits left it whole (never
"playing, no match" nor "a hand ended, the next not dealt"), both commands end as they
would alone (no `Conflict` out of them), and the table plays on with one match, one
live hand and its deadlines."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, cast

import pytest

from bot.store import Store, TableLoad
from tests.service.helpers import ANN, BOB, CID, SCENE_TWO, D, MakeWorld, P, W, World, by, stacked
from tests.service.test_service_shared import TIMERS, make_world, two

__all__ = ["make_world"]  # the fixture, from the shared tests: both backends
pytestmark = pytest.mark.usefixtures("dealer_zero")


class Pauses:
    """A store whose write transactions stop after their commit while armed, each
    until the test lets it go on (`go`): the moments between two of its commits."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        self.armed = False
        self.arrived = asyncio.Event()
        self.released = asyncio.Event()
        self.commits = 0
        db: Any = store._db
        write, at_once = db.write, db.write_at_once

        @contextlib.asynccontextmanager
        async def paused_write() -> AsyncIterator[Any]:
            async with write() as session:
                yield session
            await self._committed()

        async def paused_at_once(work: Any, *args: Any) -> Any:
            done = await at_once(work, *args)
            await self._committed()
            return done

        monkeypatch.setattr(db, "write", paused_write)
        monkeypatch.setattr(db, "write_at_once", paused_at_once)

    async def _committed(self) -> None:
        if not self.armed:
            return
        self.commits += 1
        self.arrived.set()
        await self.released.wait()
        self.released.clear()

    async def next(self, task: asyncio.Task[Any]) -> bool:
        """Wait until the paused store's task stopped after a commit (True) or ended."""
        while not self.arrived.is_set() and not task.done():
            await asyncio.sleep(0.001)
        paused = self.arrived.is_set()
        self.arrived.clear()
        return paused

    def go(self) -> None:
        """Let the stopped transaction's caller go on (to its next commit)."""
        self.released.set()

    def disarm(self) -> None:
        self.armed = False
        self.released.set()


def hold_after_read(store: Store, monkeypatch: pytest.MonkeyPatch
                    ) -> tuple[asyncio.Event, asyncio.Event]:
    """b's rebuild reads the table (`Rebuilds.load`, one snapshot), then waits for
    the test before it goes on to judge what it read: (read, resume)."""
    read, resume = asyncio.Event(), asyncio.Event()
    loads = store.rebuilds.load

    async def held(table_ids: Any, **kwargs: Any) -> dict[int, TableLoad]:
        out = await loads(table_ids, **kwargs)
        if not read.is_set():                        # its first read only
            read.set()
            await resume.wait()
        return out

    monkeypatch.setattr(store.rebuilds, "load", held)
    return read, resume


async def settled(task: asyncio.Task[Any]) -> Any:
    """The task's result or the exception it raised."""
    try:
        return await asyncio.wait_for(task, 30)
    except Exception as exc:  # what reached the caller: the test names it
        return exc


async def interleave(a: World, b: World, table: int, command: Awaitable[Any], order: str,
                     monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    """Run a's ``command`` with b's `hand` query at its first pause: b wholly before
    a's next commit (``b_first``), or a's next commit between b's read and the rest of
    b's work (``a_between``). What each ended with."""
    pauses = Pauses(a.store, monkeypatch)
    pauses.armed = True
    task = asyncio.ensure_future(command)
    assert await pauses.next(task), "a's command wrote nothing"
    peek = cast(Callable[[], Awaitable[Any]], lambda: b.service.hand(by(BOB), table))
    if order == "b_first":
        seen = await settled(asyncio.ensure_future(peek()))
    else:
        read, resume = hold_after_read(b.store, monkeypatch)
        peeking = asyncio.ensure_future(peek())
        while not read.is_set() and not peeking.done():
            await asyncio.sleep(0.001)
        pauses.go()
        await pauses.next(task)                      # a's next commit, if it has one
        resume.set()
        seen = await settled(peeking)
    pauses.disarm()
    done = await settled(task)
    return done, seen


async def check_plays_on(world: World, table: int, hand_number: int) -> None:
    """One match in play, its hand ``hand_number`` live with its deadlines."""
    store = world.store
    row = await store.lobby.get_table(table)
    assert row is not None and row.status == "playing", row
    matches = await store.matches.of_table(table)
    assert [m.status for m in matches] == ["playing"], matches
    hands = await store.hands.of_match(matches[0].id)
    assert [(h.number, h.status) for h in hands] == \
        [(n, "ended") for n in range(1, hand_number)] + [(hand_number, "live")]
    assert [d for d in await store.deadlines.all() if d.hand_id == hands[-1].id], \
        "the live hand has no deadline: nobody would ever play it on"


@pytest.mark.parametrize("order", ["b_first", "a_between"])
async def test_a_start_seen_by_another_process_midway_is_whole(
        make_world: MakeWorld, monkeypatch: pytest.MonkeyPatch, order: str) -> None:
    a, b = await two(make_world)
    table = await a.table(options=TIMERS, start=False)
    await b.service.recover()
    started, seen = await interleave(a, b, table, a.service.start(by(ANN), table), order,
                                     monkeypatch)
    assert not isinstance(started, BaseException), started
    assert not isinstance(seen, BaseException), seen
    assert seen.hand_number == 1
    await check_plays_on(a, table, 1)
    for world in (a, b):                             # both serve the same hand on
        assert (await world.service.hand(by(ANN), table)).hand_number == 1


@pytest.mark.parametrize("order", ["b_first", "a_between"])
async def test_a_hand_s_end_seen_by_another_process_midway_deals_the_next_once(
        make_world: MakeWorld, monkeypatch: pytest.MonkeyPatch, order: str) -> None:
    a, b = await two(make_world, deal=stacked(SCENE_TWO))
    table = await a.table(options={**TIMERS, "hands": 2})
    await a.service.act(by(ANN), table, D(0, "5p"), step=1)
    await a.service.act(by(CID), table, W(2), step=2)
    await b.service.hand(by(BOB), table)             # b has the table in memory too
    ended, seen = await interleave(a, b, table,
                                   a.service.act(by(BOB), table, P(1), step=2), order,
                                   monkeypatch)
    assert not isinstance(ended, BaseException), ended
    assert ended.hand_ended
    assert not isinstance(seen, BaseException), seen
    assert seen.hand_number == 2
    await check_plays_on(a, table, 2)
    started = a.notes.of("hand_started") + b.notes.of("hand_started")
    assert [n.hand_number for n in started] == [1, 2], "hand 2 was dealt twice"
