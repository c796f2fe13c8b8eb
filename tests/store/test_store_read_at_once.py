"""`Database.read_at_once`: a read transaction handed over whole (a cold table's load,
issue 32): it sees every committed write, one consistent view, on both backends; on
SQLite it runs on the loop's own connection, and in aiosqlite's thread while a
transaction of several trips holds the connection."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

import pytest

from bot.store import ConstraintError, Store
from bot.store.database import Session
from tests.store.helpers import NewGame

T = TypeVar("T")


async def _two_reads(db: Session, table_id: int) -> tuple[int, int]:
    one = await db.one("SELECT count(*) AS n FROM seats WHERE table_id = ?", (table_id,))
    two = await db.one("SELECT count(*) AS n FROM game_tables WHERE id = ?", (table_id,))
    assert one is not None and two is not None
    return int(one["n"]), int(two["n"])


async def test_a_read_at_once_sees_what_was_committed(store: Store, new_game: NewGame
                                                      ) -> None:
    game = await new_game(users=(5, 6))
    assert await store._db.read_at_once(_two_reads, game.table.id) == (4, 1)  # 2 computers
    loads = await store.rebuilds.load([game.table.id])
    assert [s.user_id for s in loads[game.table.id].seats][:2] == [5, 6]


async def _during_a_write(store: Store, table_id: int, read: Awaitable[T]) -> T:
    """``read``, awaited while a write of several trips (the table's seats deleted) is
    open on ``store``: what it read, checked to have come after the write's commit."""
    held = asyncio.Event()
    done = asyncio.Event()

    async def writer() -> None:
        async with store._db.write() as db:
            await db.run("DELETE FROM seats WHERE table_id = ?", (table_id,))
            held.set()
            await asyncio.sleep(0.05)
        done.set()

    task = asyncio.create_task(writer())
    await held.wait()
    seen = await read
    assert done.is_set()
    await task
    return seen


async def test_a_read_at_once_waits_for_a_transaction_of_several_trips(
        store: Store, new_game: NewGame) -> None:
    game = await new_game(users=(5,))
    seen = await _during_a_write(store, game.table.id,
                                 store._db.read_at_once(_two_reads, game.table.id))
    assert seen == (0, 1)  # after the write's commit, never between


async def test_one_at_once_reads_what_one_reads(store: Store, new_game: NewGame) -> None:
    """`Database.one_at_once` (a click's question where a table is, `Lobby.seat_of`):
    the same row as `one`, None for none, on the loop's connection (SQLite) or not."""
    game = await new_game(users=(5, 6))
    sql = "SELECT * FROM seats WHERE table_id = ? AND user_id = ?"
    for user in (5, 6, 7):
        assert await store._db.one_at_once(sql, (game.table.id, user)) == \
            await store._db.one(sql, (game.table.id, user))
    assert await store._db.one_at_once(sql, (game.table.id, 7)) is None
    assert (await store.lobby.seat_of(game.table.id, 6)) is not None
    assert await store.lobby.table_at(game.table.id, guild_id=game.table.guild_id,
                                      channel_id=game.table.channel_id) == game.table


async def test_one_at_once_waits_for_a_transaction_of_several_trips(
        store: Store, new_game: NewGame) -> None:
    game = await new_game(users=(5,))
    seen = await _during_a_write(store, game.table.id, store.lobby.seat_of(game.table.id, 5))
    assert seen is None  # after the write's commit, never between
    # and the loop's connection is left with no transaction open: a write goes on
    assert await store.lobby.set_user_locale(5, "zh-CN", 1.0) is True
    assert await store.lobby.seat_of(game.table.id, 5) is None


async def test_run_alone_commits_its_one_statement(store: Store, new_game: NewGame) -> None:
    """`Database.run_alone` (a person's language, on every cold table's click): the
    statement committed alone, its count returned; a broken constraint is refused as
    any write's is, nothing written, and the connection goes on."""
    sql = ("INSERT INTO user_locales (user_id, locale, updated_at) VALUES (?, ?, ?)"
           " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale"
           " WHERE user_locales.locale <> excluded.locale")
    assert await store._db.run_alone(sql, (7, "zh-CN", 1.0)) == 1
    assert await store._db.run_alone(sql, (7, "zh-CN", 2.0)) == 0
    assert await store.lobby.user_locales([7]) == {7: "zh-CN"}
    with pytest.raises(ConstraintError):
        await store._db.run_alone("INSERT INTO user_locales (user_id, locale, updated_at)"
                                  " VALUES (?, ?, ?)", (7, "en-US", 3.0))
    assert await store.lobby.user_locales([7]) == {7: "zh-CN"}
    assert await store.lobby.set_user_locale(7, "en-US", 4.0) is True
    assert await store.lobby.user_locales([7]) == {7: "en-US"}
