"""Fixtures: a real SQLite file in tmp_path, a fake clock, a recording notifier."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.service import FakeClock, RecordingNotifier, TableService
from bot.store import Store
from tests.service.helpers import World


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "service.sqlite3"


@pytest.fixture
def dealer_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fix the first dealer at seat 0 (stacked walls are written for it)."""
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)


@pytest.fixture
async def make_world(db_path: Path) -> AsyncIterator[Callable[..., Awaitable[World]]]:
    stores: list[Store] = []

    async def make(clock: FakeClock | None = None, **kwargs: Any) -> World:
        store = await Store.open(db_path)
        stores.append(store)
        notes = RecordingNotifier()
        clock = clock or FakeClock()
        kwargs.setdefault("computer_pause", 0.0)
        service = TableService(store, notes, clock=clock, **kwargs)
        return World(store, clock, notes, service)

    yield make
    for store in stores:
        await store.close()


@pytest.fixture
async def world(make_world: Callable[..., Awaitable[World]]) -> World:
    return await make_world()
