"""Fixtures for the store tests: every test that takes ``store`` (or ``database``) runs
on both backends, a real SQLite file in tmp_path (never :memory:) and a fresh
PostgreSQL database (see tests/pgcluster.py). Tests of SQLite's own file (pragmas,
locks, damage) take ``db_path`` and run on SQLite only."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.store import NewHand, Store
from tests.pgcluster import Server
from tests.store.helpers import CHANNEL, COMMITMENT, GUILD, SALT, WALL, Game


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "mahjong.sqlite3"


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request: pytest.FixtureRequest, db_path: Path) -> AsyncIterator[Path | str]:
    """What `Store.open` takes: the SQLite file, or a fresh PostgreSQL database's URL."""
    if request.param == "sqlite":
        yield db_path
        return
    server: Server = request.getfixturevalue("pg_server")  # skips without PostgreSQL
    url = await server.database()
    yield url
    await server.drop(url)


@pytest.fixture
async def store(database: Path | str) -> AsyncIterator[Store]:
    s = await Store.open(database)
    yield s
    await s.close()


@pytest.fixture
def new_game(store: Store) -> Callable[..., Awaitable[Game]]:
    """A table with four seats (one computer), a match and its first live hand."""

    async def make(channel_id: int = CHANNEL, *, users: tuple[int, ...] = (1, 2, 3),
                   guild_id: int = GUILD, rules: str = "shanghai") -> Game:
        table = await store.lobby.create_table(guild_id=guild_id, channel_id=channel_id,
                                               creator_id=users[0], rules=rules, at=100.0)
        for seat, user in enumerate(users):
            await store.lobby.sit(table.id, seat, user_id=user, display_name=f"P{user}", at=101.0)
        for seat in range(len(users), 4):
            await store.lobby.sit_computer(table.id, seat, display_name=f"Bot{seat}", at=101.0)
        table = await store.lobby.set_status(table.id, "playing", expected="lobby")
        match = await store.matches.create(table.id, first_dealer=0, at=102.0)
        hand = await store.matches.deal(match.id, NewHand(WALL, SALT, COMMITMENT, dice=(3, 5),
                                                          dealer=0, streak=0, huangfan=1),
                                        at=103.0)
        return Game(table, match, hand)

    return make
