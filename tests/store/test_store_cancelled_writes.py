"""A SQLite transaction of several trips cancelled at any of its await points leaves the
connection usable and the database whole (issue 32: under a bench's load a write failed
with ``cannot rollback - no transaction is active`` from `SqliteDatabase.write`).

Every await on aiosqlite's connection queues a job for its thread and waits for it: a
cancelled await does not take the job back, it still runs (BEGIN, a statement, COMMIT).
So what the connection holds when the cancellation arrives is known only in that thread,
after the jobs queued before. The test cancels the task at its n-th job, for every n,
while the thread is held back a moment (as a busy machine does), and once more at every
job after it (the rollback's own)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store
from bot.store import sqlite as sqlite_backend
from bot.store.database import Session

SETTING = "INSERT INTO bot_settings (key, value, updated_at) VALUES (?, ?, 0)"
HOLD = 0.02
"""Seconds the thread is held back before the job the task is cancelled at."""


class Canceller:
    """aiosqlite's `_execute` on one connection, cancelling the calling task at its
    ``at``-th job (counted from 0) and, with ``again``, at every job after."""

    def __init__(self, database: sqlite_backend.SqliteDatabase, at: int, again: bool) -> None:
        self.at, self.again, self.calls = at, again, 0
        self.fired = False
        conn = database.connection
        original: Callable[..., Awaitable[Any]] = conn._execute

        async def execute(fn: Any, *args: Any, **kwargs: Any) -> Any:
            number, self.calls = self.calls, self.calls + 1
            if number == self.at or (self.again and number > self.at):
                self.fired = True
                if number == self.at:  # the job waits in the queue behind this one
                    conn._tx.put_nowait((asyncio.get_running_loop().create_future(),
                                         lambda: time.sleep(HOLD)))
                task = asyncio.current_task()
                assert task is not None
                task.cancel()  # delivered at the await below, once the job is queued
            return await original(fn, *args, **kwargs)

        self._conn, self._original = conn, original
        conn._execute = execute  # type: ignore[method-assign]  # the probe

    def restore(self) -> None:
        self._conn._execute = self._original  # type: ignore[method-assign, assignment]  # put back


async def _two_rows(session: Session, tag: str) -> None:
    await session.run(SETTING, (f"{tag}-a", "1"))
    await session.one("SELECT value FROM bot_settings WHERE key = ?", (f"{tag}-a",))
    await session.run(SETTING, (f"{tag}-b", "1"))


async def _write(database: sqlite_backend.SqliteDatabase, tag: str) -> None:
    async with database.write() as session:
        await _two_rows(session, tag)


async def _read(database: sqlite_backend.SqliteDatabase, tag: str) -> None:
    async with database.read() as session:
        await session.all("SELECT value FROM bot_settings WHERE key = ?", (tag,))


async def _kept(database: sqlite_backend.SqliteDatabase, tag: str) -> int:
    rows = await database.all("SELECT key FROM bot_settings WHERE key LIKE ?", (f"{tag}-%",))
    return len(rows)


@pytest.mark.parametrize("again", [False, True], ids=["once", "again"])
@pytest.mark.parametrize("kind", ["write", "read"])
async def test_a_transaction_cancelled_at_any_await_leaves_the_connection_usable(
        db_path: Path, kind: str, again: bool) -> None:
    store = await Store.open(db_path)
    database = store._db
    assert isinstance(database, sqlite_backend.SqliteDatabase)
    run = _write if kind == "write" else _read
    try:
        at = 0
        while True:
            tag = f"{kind}{at}"
            canceller = Canceller(database, at, again)
            try:
                await asyncio.create_task(run(database, tag))
            except asyncio.CancelledError:
                pass
            finally:
                canceller.restore()
            await asyncio.sleep(2 * HOLD)  # the thread's jobs all done
            # whole or nothing, and the connection takes the next transaction
            assert await _kept(database, tag) in ((0, 2) if kind == "write" else (0,)), at
            assert not database.connection.in_transaction, at
            await _write(database, f"after{kind}{at}")
            assert await _kept(database, f"after{kind}{at}") == 2, at
            await database.write_at_once(_two_rows, f"quick{kind}{at}")
            assert await _kept(database, f"quick{kind}{at}") == 2, at
            if not canceller.fired:
                break  # the transaction's every job was a point of cancellation
            at += 1
        assert at >= 3
    finally:
        await store.close()
