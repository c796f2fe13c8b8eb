"""Fixtures: a real SQLite file in tmp_path, a fake clock, a recording notifier."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.service.helpers import MakeWorld, World, worlds_on


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "service.sqlite3"


@pytest.fixture
def dealer_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fix the first dealer at seat 0 (stacked walls are written for it)."""
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)


@pytest.fixture
async def make_world(db_path: Path) -> AsyncIterator[MakeWorld]:
    async with worlds_on(db_path) as make:
        yield make


@pytest.fixture(params=["sqlite", "postgres"])
async def each_database(request: pytest.FixtureRequest, db_path: Path
                        ) -> AsyncIterator[Path | str]:
    """One database of each kind: a real SQLite file, a fresh PostgreSQL database
    (skipped, saying why, without PostgreSQL), dropped after the test."""
    if request.param == "sqlite":
        yield db_path
        return
    server = request.getfixturevalue("pg_server")
    database = await server.database()
    yield database
    await server.drop(str(database))


@pytest.fixture
async def world(make_world: MakeWorld) -> World:
    return await make_world()
