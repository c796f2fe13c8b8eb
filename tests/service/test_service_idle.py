"""An idle table costs nothing (issue 32): a table nobody used for ``idle_after``
seconds leaves memory (with its people and its later moments) and comes back, exactly as
it was, on its next click, command, query or deadline; a start-up reads no table and
schedules nothing per table; shared mode still judges a cold table against what another
process stored. SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.service import FakeClock
from tests.narrowing import known
from tests.service.helpers import (
    ANN,
    BOB,
    CID,
    EVE,
    SCENE_PONG,
    D,
    MakeWorld,
    World,
    by,
    refused,
    stacked,
    worlds_on,
)

pytestmark = pytest.mark.usefixtures("dealer_zero")
IDLE = 600.0
LONG = {"turn_timer": 3600, "claim_timer": 3600, "away_after": 3}
"""Timers long enough that nothing fires while the table goes idle (a reminder at 30
minutes, the deadline at an hour)."""


@pytest.fixture
async def make_world(each_database: Path | str) -> AsyncIterator[MakeWorld]:
    async with worlds_on(each_database, idle_after=IDLE) as make:
        yield make


def in_memory(world: World, table: int) -> bool:
    return table in world.service._tables


async def actions(world: World, table: int) -> list[tuple[int, str, str]]:
    hand = known(await world.store.hands.live(table))
    return [(a.seat, a.kind, a.source) for a in await world.store.log.actions(hand.id)]


async def test_an_idle_table_leaves_memory_and_a_click_brings_it_back_as_it_was(
        make_world: MakeWorld) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=LONG)
    picture = (await world.service.table_picture(table)).view
    hand = await world.service.hand(by(ANN), table)
    await world.advance(IDLE - 1)
    assert in_memory(world, table)
    await world.advance(2)
    assert not in_memory(world, table)
    assert world.service.people.row(ANN) is None and len(world.service.scheduler) <= 1
    assert world.service.tables.unloaded == 1
    # a click on the cold table: judged as if it had never left
    result = await world.service.act(by(ANN), table, D(0, "9m"), public_step=hand.public_step)
    assert result.seat == 0 and in_memory(world, table)
    assert (await world.service.table_picture(table)).view != picture
    assert await actions(world, table) == [(0, "discard", "player")]
    assert [n.user_id for n in world.notes.of("your_move")][-1] == CID  # the pong asked


async def test_a_command_and_a_query_bring_an_idle_table_back(make_world: MakeWorld) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=LONG)
    before = await world.service.hand(by(ANN), table)
    await world.advance(IDLE + 61)
    assert not in_memory(world, table)
    assert (await world.service.hand(by(ANN), table)).view == before.view  # a query
    await world.advance(IDLE + 61)
    assert not in_memory(world, table)
    await world.service.set_choice(by(BOB), table, "pass_claims", True)  # a command
    assert in_memory(world, table)
    info = await world.service.table_info(table)
    assert known(info.seats[1]).choices.pass_claims
    # a stranger's click on the cold table is refused as on a warm one, changing nothing
    await world.advance(IDLE + 61)
    await refused("not_yours", world.service.act(by(EVE), table, D(0, "9m"),
                                                 public_step=before.public_step))
    assert await actions(world, table) == []


async def test_deadlines_of_an_idle_table_fire_on_time(make_world: MakeWorld) -> None:
    """The reminder at half time and the timer at its end, each on a table that had
    left memory: loaded by its deadline, at its moment (the fake clock steps a second)."""
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=LONG)
    await world.advance(IDLE + 61)
    assert not in_memory(world, table)
    start = world.clock.now() - IDLE - 61
    while world.clock.now() < start + 1800 - 1:
        await world.advance(1.0)
    assert world.notes.of("reminder") == []
    await world.advance(1.0)
    assert [n.user_id for n in world.notes.of("reminder")] == [ANN]
    await world.advance(IDLE + 61)
    assert not in_memory(world, table)
    while world.clock.now() < start + 3600 - 1:
        await world.advance(1.0)
    assert await actions(world, table) == []
    await world.advance(1.0)
    assert await actions(world, table) == [(0, "discard", "timeout")]


async def test_a_start_up_reads_no_table_and_schedules_nothing_per_table(
        make_world: MakeWorld) -> None:
    world = await make_world()
    tables = [await world.table(options=LONG, channel=70 + i) for i in range(5)]
    await world.store.close()
    clock = FakeClock(world.clock.now() + 60)
    world = await make_world(clock)
    forbidden: list[str] = []

    def refuse(name: str) -> Any:
        async def read(*args: Any, **kwargs: Any) -> Any:
            forbidden.append(name)
            raise AssertionError(f"start-up read {name}")
        return read

    world.store.lobby.live_tables = refuse("every live table")  # type: ignore[method-assign]  # must not be read
    world.store.deadlines.all = refuse("every deadline")  # type: ignore[method-assign]  # must not be read
    report = await world.service.recover()
    assert (report.live_tables, report.rebuilt, report.deadlines) == (5, 0, 5)
    assert forbidden == [] and world.service._tables == {}
    assert len(world.service.scheduler) == 0
    await world.settle()  # the first page of moments: one each, no table loaded
    assert len(world.service.scheduler) == 5 and world.service._tables == {}
    info = await world.service.table_info(tables[2])
    assert info.status == "playing"


async def test_shared_mode_judges_a_cold_table_against_what_another_process_stored(
        make_world: MakeWorld) -> None:
    clock = FakeClock()
    options: dict[str, Any] = {"shared": True, "claim_lease": 30.0,
                               "deal": stacked(SCENE_PONG)}
    a, b = await make_world(clock, **options), await make_world(clock, **options)
    table = await a.table(options=LONG)
    step = (await a.service.hand(by(ANN), table)).public_step
    await b.service.hand(by(ANN), table)  # b has it in memory too
    clock.advance(IDLE + 61)
    a.service.tables.unload_idle()
    b.service.tables.unload_idle()
    assert not in_memory(a, table) and not in_memory(b, table)
    await b.service.act(by(ANN), table, D(0, "9m"), public_step=step)  # b moves
    # a loads the table cold: Ann's same button has passed, Cid's pong is asked
    await refused("stale", a.service.act(by(ANN), table, D(0, "9m"), public_step=step))
    cid = await a.service.hand(by(CID), table)
    assert cid.step is not None and await actions(a, table) == [(0, "discard", "player")]
    clock.advance(IDLE + 61)
    a.service.tables.unload_idle()
    await b.service.set_choice(by(CID), table, "pass_claims", True)
    assert known((await a.service.table_info(table)).seats[2]).choices.pass_claims


async def test_a_cold_table_s_moment_fires_once(make_world: MakeWorld) -> None:
    """The moment read from the database loads its table as it fires; the load schedules
    the table's moments again, that one among them: it must not fire a second time."""
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=LONG)
    fired: list[tuple[str, int]] = []
    alarms = world.service.alarms
    real = alarms._fire

    async def counted(live: Any, wake: Any) -> None:
        fired.append((wake.what, wake.seat))
        await real(live, wake)

    alarms._fire = counted  # type: ignore[method-assign]  # counts each firing, then fires
    await world.advance(IDLE + 61)
    assert not in_memory(world, table)
    start = world.clock.now() - IDLE - 61
    while world.clock.now() < start + 1800:
        await world.advance(1.0)
    assert fired == [("remind", 0)]
    await world.advance(IDLE + 61)
    assert not in_memory(world, table)
    while world.clock.now() < start + 3600:
        await world.advance(1.0)
    assert fired == [("remind", 0), ("warn", 0), ("due", 0)]
    assert await actions(world, table) == [(0, "discard", "timeout")]
