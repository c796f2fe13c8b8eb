"""Quiet hours in shared mode (issue 30): a person's change taken by one process is what
another plans and fires with (SQLite and PostgreSQL)."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.service import FakeClock
from tests.narrowing import known
from tests.service.helpers import ANN, MakeWorld, World, by
from tests.service.test_service_shared import make_world

__all__ = ["make_world"]  # the two-process fixture, on both databases
pytestmark = pytest.mark.usefixtures("dealer_zero")


def utc(day: int, hour: int, minute: int = 0) -> float:
    return dt.datetime(2026, 6, day, hour, minute, tzinfo=dt.UTC).timestamp()


async def moves(world: World, table: int) -> list[tuple[int, str, str]]:
    hand = known(await world.store.hands.live(table))
    return [(a.seat, a.kind, a.source) for a in await world.store.log.actions(hand.id)]


async def test_quiet_hours_set_on_one_process_hold_on_the_other(make_world: MakeWorld) -> None:
    clock = FakeClock(utc(1, 21))
    options = {"shared": True, "claim_lease": 30.0}
    a = await make_world(clock, **options)
    b = await make_world(clock, **options)
    table = await a.table((ANN,), computers=3, options={"turn_timer": 3600})
    assert [d.due_at for d in await a.store.deadlines.all()] == [utc(1, 22)]
    await b.service.set_quiet(by(ANN), start="21:30", end="07:00", time_zone="UTC")
    # b re-planned her deadline: half an hour tonight, half an hour after 07:00
    assert [d.due_at for d in await a.store.deadlines.all()] == [utc(2, 7, 30)]
    for world in (a, b):  # either process may claim it: neither plays it tonight
        clock.set(utc(1, 22))
        await world.settle()
    assert await moves(a, table) == []
    await a.service.hand(by(ANN), table)  # a serves the table: it reloads, and learns
    assert known(a.service.people.row(ANN)).quiet_start == 21 * 60 + 30
    clock.set(utc(2, 7, 30))
    await a.settle()
    await b.settle()
    assert (await moves(a, table))[0] == (0, "discard", "timeout")
