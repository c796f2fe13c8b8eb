"""Ratings in shared mode: two table services (two bot processes) on one database, SQLite
and PostgreSQL, finishing matches of one server at the same moment, the same people at
each. Every match is rated once, and the ratings are those of a replay in order."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.service import FakeClock, RecordingNotifier, TableService
from bot.service.ratings import FORMULA
from bot.store import Store
from tests.service.helpers import ANN, BOB, CHANNEL, CID, GUILD, World
from tests.service.test_service_ratings import heavenly, win_at_once

pytestmark = pytest.mark.usefixtures("dealer_zero")
MakeWorld = Callable[..., Awaitable[World]]


@pytest.fixture(params=["sqlite", "postgres"])
async def make_world(request: pytest.FixtureRequest, db_path: Path
                     ) -> AsyncIterator[MakeWorld]:
    """Worlds (a store connection, a service, a notifier) on one database of each kind."""
    database: Path | str = db_path
    if request.param == "postgres":
        server = request.getfixturevalue("pg_server")  # skips without PostgreSQL
        database = await server.database()
    stores: list[Store] = []

    async def make(clock: FakeClock, **kwargs: Any) -> World:
        store = await Store.open(database)
        stores.append(store)
        notes = RecordingNotifier()
        service = TableService(store, notes, clock=clock, computer_pause=0.0, shared=True,
                               deal=heavenly, **kwargs)
        return World(store, clock, notes, service)

    yield make
    for store in stores:
        await store.close()
    if request.param == "postgres":
        await server.drop(str(database))


async def test_two_processes_finishing_matches_at_once_rate_each_once(
        make_world: MakeWorld) -> None:
    clock = FakeClock()
    a, b = await make_world(clock), await make_world(clock)
    tables = [await a.table((ANN, BOB, CID), computers=1, options={"hands": 1},
                            channel=CHANNEL + n) for n in range(6)]
    # each process plays the last move of three of them, all at the same time
    await asyncio.gather(*(win_at_once(a if n % 2 else b, table)
                           for n, table in enumerate(tables)))
    changes = await a.store.ratings.changes_between(GUILD, 0.0, 1e12)
    assert len(changes) == 3 * len(tables)
    assert len({c.match_id for c in changes}) == len(tables)
    rated = await b.store.ratings.shown(GUILD, "shanghai", [ANN, BOB, CID])
    assert {r.matches for r in rated.values()} == {len(tables)}
    rebuilt = await b.store.ratings.rebuild(FORMULA, GUILD)
    assert rebuilt.matches == len(tables) and rebuilt.moved == ()
    assert await a.store.ratings.changes_between(GUILD, 0.0, 1e12) == changes
