"""Ratings in shared mode: two table services (two bot processes) on one database, SQLite
and PostgreSQL, finishing matches of one server at the same moment, the same people at
each. Every match is rated once, and the ratings are those of a replay in order."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import FakeClock
from bot.service.ratings import FORMULA
from tests.service.helpers import ANN, BOB, CHANNEL, CID, GUILD, MakeWorld, worlds_on
from tests.service.test_service_ratings import heavenly, win_at_once

pytestmark = pytest.mark.usefixtures("dealer_zero")


@pytest.fixture
async def make_world(each_database: Path | str) -> AsyncIterator[MakeWorld]:
    """Worlds in shared mode (each its own store connection, notifier and service) on
    one database of each kind, dealing the dealer a win."""
    async with worlds_on(each_database, shared=True, deal=heavenly) as make:
        yield make


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
