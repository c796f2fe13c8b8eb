"""The presenter's memory kept in the store: what one process wrote, the next reads
back (a restart), and the in-memory twin the presenter's tests use behaves the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord.memory import InMemory, PresenterMemory
from bot.store import NotFound, Store, StoreMemory
from tests.store.helpers import CHANNEL, GUILD, NewGame


async def _write(memory: PresenterMemory, table_id: int) -> None:
    await memory.set_lobby_message(table_id, 11)
    await memory.set_table_message(table_id, 12, 500.0)
    await memory.set_ping_message(table_id, 13)
    await memory.set_dm_closed(table_id, 1, True)
    await memory.set_dm_closed(table_id, 2, True)
    await memory.set_dm_closed(table_id, 1, False)
    await memory.set_permission_error_reported(table_id)


async def _read(memory: PresenterMemory, table_id: int) -> tuple[object, ...]:
    got = await memory.recall(table_id)
    return (got.lobby_message, got.table_message, got.table_posted, got.ping_message,
            got.dm_closed, got.permission_error_reported)


WRITTEN = (11, 12, 500.0, 13, frozenset({2}), True)
EMPTY = (None, None, 0.0, None, frozenset(), False)


async def test_store_memory_survives_a_restart(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        table = await store.create_table(guild_id=GUILD, channel_id=CHANNEL, creator_id=1,
                                         rules="shanghai", at=100.0)
        for seat in range(4):
            await store.sit(table.id, seat, user_id=seat + 1, display_name=f"P{seat}",
                            at=101.0)
        assert await _read(StoreMemory(store), table.id) == EMPTY
        await _write(StoreMemory(store), table.id)
    finally:
        await store.close()
    reopened = await Store.open(db_path)
    try:
        assert await _read(StoreMemory(reopened), table.id) == WRITTEN
    finally:
        await reopened.close()


async def test_store_memory_forgets_a_standing_mention(store: Store,
                                                        new_game: NewGame) -> None:
    game = await new_game()
    memory = StoreMemory(store)
    await memory.set_ping_message(game.table.id, 13)
    await memory.set_ping_message(game.table.id, None)
    assert (await memory.recall(game.table.id)).ping_message is None


async def test_store_memory_of_an_unknown_table(store: Store) -> None:
    memory = StoreMemory(store)
    assert await _read(memory, 404) == EMPTY
    with pytest.raises(NotFound):
        await memory.set_lobby_message(404, 1)


async def test_in_memory_twin_reads_back_what_was_written() -> None:
    memory = InMemory()
    assert await _read(memory, 7) == EMPTY
    await _write(memory, 7)
    assert await _read(memory, 7) == WRITTEN
    assert await _read(memory, 8) == EMPTY
