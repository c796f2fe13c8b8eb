"""`Database.read_at_once`: a read transaction handed over whole (a cold table's load,
issue 32): it sees every committed write, one consistent view, on both backends; on
SQLite it runs on the loop's own connection, and in aiosqlite's thread while a
transaction of several trips holds the connection."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable
from pathlib import Path
from typing import TypeVar

import pytest

from bot.store import ConstraintError, Store
from bot.store.database import Session
from bot.store.sqlite import SqliteDatabase
from tests.store.helpers import NewGame, sqlite_only

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


@sqlite_only  # SQLite's autocommit on the loop's own connection
async def test_run_alone_on_sqlite_is_the_statement_alone_on_the_loop(
        store: Store, new_game: NewGame, db_path: Path) -> None:
    """On SQLite, `run_alone` (a DM's step on every click, a person's language) is the
    statement alone in SQLite's autocommit on the loop's own connection: no BEGIN and
    COMMIT around it, no trip to aiosqlite's thread. While another connection holds the
    write lock, it goes to that thread, which waits for the lock (the loop stays free);
    while a transaction of several trips is open here, it runs after it."""
    game = await new_game(users=(5, 6))
    assert isinstance(store._db, SqliteDatabase)
    quick = store._db._loop_connection()
    assert quick is not None
    sql = "UPDATE seats SET dm_order = ? WHERE table_id = ? AND seat = ?"
    ran: list[str] = []
    quick.set_trace_callback(ran.append)
    assert await store._db.run_alone(sql, (1, game.table.id, 0)) == 1
    quick.set_trace_callback(None)
    # (the trace shows 0035's trigger's own statements too)
    assert ran[0].startswith("UPDATE seats")
    assert not [r for r in ran if r.startswith(("BEGIN", "COMMIT"))]
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute(sql, (5, game.table.id, 1))
        alone = asyncio.create_task(store._db.run_alone(sql, (2, game.table.id, 1)))
        for _ in range(10):
            await asyncio.sleep(0.005)  # the loop stays free meanwhile
        assert not alone.done()
        other.execute("COMMIT")
        assert await alone == 1
    finally:
        other.close()
    async with store._db.write() as db:
        alone = asyncio.create_task(store._db.run_alone(sql, (3, game.table.id, 1)))
        await db.run(sql, (7, game.table.id, 1))
        for _ in range(5):
            await asyncio.sleep(0.005)
        assert not alone.done()
    assert await alone == 1
    rows = await store._db.all("SELECT seat, dm_order FROM seats WHERE table_id = ?"
                               " ORDER BY seat", (game.table.id,))
    assert [(r["seat"], r["dm_order"]) for r in rows][:2] == [(0, 1), (1, 3)]
