"""Hostile input to the table service (issue 28, point 8): a name no seat can hold
(empty, or one the database's seat check refuses) is refused before anything is
written. Opening a table used to write the lobby, then seat its creator: a refused
seat left a seatless lobby that kept the channel busy. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import FakeClock, RecordingNotifier, TableService
from bot.store import Store
from tests.service.helpers import ANN, BOB, CHANNEL, GUILD, World, by, refused

BAD_NAMES = ["", "\x00", "\x00Ann", "Ann\x00"]
"""Empty; NUL first (SQLite's length() reads 0, the seat's CHECK refuses it); NUL
anywhere (PostgreSQL's text holds none)."""


@pytest.fixture(params=["sqlite", "postgres"])
async def world(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[World]:
    database: Path | str = tmp_path / "service.sqlite3"
    if request.param == "postgres":
        server = request.getfixturevalue("pg_server")  # skips without PostgreSQL
        database = await server.database()
    store = await Store.open(database)
    clock = FakeClock()
    notes = RecordingNotifier()
    yield World(store, clock, notes, TableService(store, notes, clock=clock,
                                                  computer_pause=0.0))
    await store.close()
    if request.param == "postgres":
        await server.drop(str(database))


@pytest.mark.parametrize("name", BAD_NAMES, ids=repr)
async def test_a_name_no_seat_holds_opens_no_table(world: World, name: str) -> None:
    await refused("bad_name", world.service.create_table(
        by(ANN, name), guild_id=GUILD, channel_id=CHANNEL, rules="shanghai"))
    assert await world.store.lobby.tables_in_channel(CHANNEL) == []
    assert world.notes.of("lobby") == []
    # the channel is free: the same person, named, opens one at once
    info = await world.service.create_table(by(ANN, "Ann"), guild_id=GUILD,
                                            channel_id=CHANNEL, rules="shanghai")
    assert [s.user_id if s else None for s in info.seats] == [ANN, None, None, None]


@pytest.mark.parametrize("name", BAD_NAMES, ids=repr)
async def test_a_name_no_seat_holds_joins_nothing(world: World, name: str) -> None:
    info = await world.service.create_table(by(ANN, "Ann"), guild_id=GUILD,
                                            channel_id=CHANNEL, rules="shanghai")
    table = info.ref.table_id
    await refused("bad_name", world.service.join(by(BOB, name), table))
    assert [s.seat for s in await world.store.lobby.seats(table)] == [0]
    assert (await world.service.join(by(BOB, "Bob"), table)).seat == 1


async def test_a_table_and_its_creators_seat_are_written_together(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever refuses the seat (here the store itself), no lobby is left behind."""

    async def refuse(*args: object) -> None:
        raise RuntimeError("the seat is refused")

    monkeypatch.setattr("bot.store.lobby.insert_seat_in", refuse)
    with pytest.raises(RuntimeError):
        await world.service.create_table(by(ANN, "Ann"), guild_id=GUILD, channel_id=CHANNEL,
                                         rules="shanghai")
    monkeypatch.undo()
    assert await world.store.lobby.tables_in_channel(CHANNEL) == []
    assert await world.store.lobby.live_tables() == []
