"""The SQLite backend: one aiosqlite connection (opened by `bot.store.db.connect`).

aiosqlite runs the connection in a thread of its own, and every await on it is a round
trip to that thread (a queue, a future, a wake-up of the event loop). Reads are one
trip each (run and fetched in the thread); `write_at_once` runs a whole transaction in
one trip. An asyncio lock keeps two tasks of this process from interleaving statements
on the shared connection.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store.database import Database, Params, Row, Session, Work, drive
from bot.store.db import DEFAULT_BUSY_TIMEOUT_MS, connect
from bot.store.errors import ConstraintError, StoreError

T = TypeVar("T")


class _AsyncSession(Session):
    """Statement by statement, each a trip to the connection's thread."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def one(self, sql: str, params: Params = ()) -> Row | None:
        rows = list(await self._conn.execute_fetchall(sql, params))
        return rows[0] if rows else None

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._conn.execute_fetchall(sql, params))

    async def run(self, sql: str, params: Params = ()) -> int:
        # the cursor is left to be freed: its statement is complete, SQLite resets it
        return (await self._conn.execute(sql, params)).rowcount

    async def run_many(self, sql: str, rows: Iterable[Params]) -> None:
        await self._conn.executemany(sql, rows)


class _ThreadSession(Session):
    """The plain sqlite3 connection, in its own thread: every await is answered at
    once, so a transaction over it runs to its end with `drive`."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def one(self, sql: str, params: Params = ()) -> Row | None:
        row: Row | None = self._conn.execute(sql, params).fetchone()
        return row

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        return list(self._conn.execute(sql, params).fetchall())

    async def run(self, sql: str, params: Params = ()) -> int:
        return self._conn.execute(sql, params).rowcount

    async def run_many(self, sql: str, rows: Iterable[Params]) -> None:
        self._conn.executemany(sql, rows)


def _in_thread(conn: sqlite3.Connection, work: Work[T], args: tuple[Any, ...]) -> T:
    """In the connection's thread: BEGIN IMMEDIATE, ``work``, COMMIT (or ROLLBACK)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = drive(work(_ThreadSession(conn), *args))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


class SqliteDatabase(Database):
    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: Path | str) -> None:
        super().__init__(_AsyncSession(conn), str(path))
        self._conn = conn
        self.path = path

    @classmethod
    async def open(cls, path: Path | str, *,
                   busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> SqliteDatabase:
        return cls(await connect(path, busy_timeout_ms=busy_timeout_ms), path)

    @property
    def connection(self) -> aiosqlite.Connection:
        """The aiosqlite connection (migrations, pragmas and tests use it directly)."""
        return self._conn

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Session]:
        async with self._lock:
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
                yield self._session
                await self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                await self._rollback()
                raise _told(exc) from exc
            except BaseException:
                await self._rollback()
                raise

    async def _rollback(self) -> None:
        if self._conn.in_transaction:
            await self._conn.execute("ROLLBACK")

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Session]:
        async with self._lock:
            await self._conn.execute("BEGIN")
            try:
                yield self._session
            finally:
                await self._conn.execute("COMMIT")

    async def write_at_once(self, work: Work[T], *args: Any) -> T:
        """aiosqlite has no public call for "run this in your thread", hence its
        ``_execute`` and ``_conn``: a move's transaction statement by statement was
        eight trips on every click's path (~0.5 ms each on a busy machine, measured in
        `bench/discord.py`); this is one.

        The lock is waited for only while a transaction of several trips (`write`,
        `read`) holds it: otherwise the thread's queue, first in first out, already
        keeps this one whole, and a burst of moves does not queue twice (at the lock,
        then at the thread: a future and a wake-up per waiter)."""
        if not self._lock.locked():
            # nothing awaited before the job is queued: no transaction can start between
            return await self._at_once(work, args)
        async with self._lock:
            return await self._at_once(work, args)

    async def _at_once(self, work: Work[T], args: tuple[Any, ...]) -> T:
        try:
            return await self._conn._execute(_in_thread, self._conn._conn, work, args)
        except sqlite3.Error as exc:
            raise _told(exc) from exc

    async def close(self) -> None:
        """Close the connection (checkpointing the WAL when it is the last one)."""
        async with self._lock:
            await self._conn.close()


def _told(exc: sqlite3.Error) -> StoreError:
    """A sqlite3 error as the store tells it."""
    if isinstance(exc, sqlite3.IntegrityError):
        return ConstraintError(str(exc))
    return StoreError(f"database write failed: {exc}")  # e.g. locked by another process


def sqlite_path(target: Path | str) -> Path | str:
    """A SQLite target as a path. URLs read as SQLAlchemy's do: ``sqlite:///data/x.db``
    is relative, ``sqlite:////srv/x.db`` absolute; anything else is a path already."""
    text = str(target)
    if text.startswith("sqlite:///"):
        return text.removeprefix("sqlite:///") or ":memory:"
    return target
