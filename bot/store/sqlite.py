"""The SQLite backend: one aiosqlite connection (opened by `bot.store.db.connect`), and
for the quick writes of the click path a second, plain connection on the event loop's
own thread.

aiosqlite runs its connection in a thread of its own, and every await on it is a round
trip to that thread (a queue, a future, a wake-up of the event loop). Reads are one
trip each (run and fetched in the thread). An asyncio lock keeps two tasks of this
process from interleaving statements on the shared connection.

`write_at_once` (a move, a DM's step: a few rows) runs its whole transaction on the
event loop's thread, on the second connection, when the database is free: a WAL commit
of a few rows takes tens of microseconds, less than the hand-off to aiosqlite's thread
(which, on a busy machine, lost the core each time: ~1.3 ms wall, two a click). That
connection never waits for SQLite's write lock (``busy_timeout = 0``): when another
transaction holds it — a transaction of several trips on aiosqlite's connection, or
another process in shared mode — the work goes to aiosqlite's thread as before, which
waits. Durability is unchanged: the same commit (``synchronous = NORMAL`` in WAL)
before anyone is told. The loop's connection never checkpoints (an ``fsync`` would
stop the loop); every `CHECKPOINT_EVERY` of its commits, aiosqlite's thread does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store.database import Database, Params, Session, Work, drive
from bot.store.db import DEFAULT_BUSY_TIMEOUT_MS, connect
from bot.store.errors import ConstraintError, StoreError
from bot.store.rows import Row

T = TypeVar("T")
log = logging.getLogger(__name__)

CHECKPOINT_EVERY = 500
"""Commits on the loop's connection between two checkpoints of the WAL, which
aiosqlite's thread runs (PASSIVE: it never holds up a writer). SQLite's own automatic
checkpoint, left on aiosqlite's connection, comes after 1,000 pages: each commit of
the loop's connection is a few pages."""
BUSY = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


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


def _read_in_thread(conn: sqlite3.Connection, work: Work[T], args: tuple[Any, ...]) -> T:
    """In the connection's thread: BEGIN, ``work`` (reads only), then the transaction
    ended."""
    conn.execute("BEGIN")
    try:
        return drive(work(_ThreadSession(conn), *args))
    finally:
        if conn.in_transaction:
            conn.execute("COMMIT")


def _end_open(conn: sqlite3.Connection, how: str) -> None:
    """In the connection's thread: end its transaction (``how``: COMMIT or ROLLBACK)
    if one is open."""
    if conn.in_transaction:
        conn.execute(how)


def _busy(exc: sqlite3.Error) -> bool:
    """Whether SQLite refused because another connection holds a lock (not an error of
    the work: the same work goes to aiosqlite's thread, which waits for the lock)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in BUSY
    text = str(exc).lower()
    return "locked" in text or "busy" in text


class _Elsewhere:
    """`SqliteDatabase._on_loop`'s answer where the loop's own connection cannot serve:
    the work goes to aiosqlite's thread instead."""


ELSEWHERE = _Elsewhere()


class SqliteDatabase(Database):
    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: Path | str) -> None:
        super().__init__(_AsyncSession(conn), str(path))
        self._conn = conn
        self.path = path
        self._quick: sqlite3.Connection | None = None
        """The loop's own connection (`write_at_once`), opened at the first write."""
        self._quick_thread = 0
        self._quick_usable = str(path) != ":memory:"  # a second connection: another db
        self._quick_commits = 0
        self._checkpoint: asyncio.Task[None] | None = None

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
        """ROLLBACK if a transaction is open, decided in aiosqlite's thread after every
        job queued before: a cancelled await does not take its job back (a BEGIN or a
        COMMIT still runs after the cancellation), so the connection's state read from
        the loop's thread may be about to change. Read here, a COMMIT still queued made
        this ROLLBACK fail (``no transaction is active``) and a BEGIN still queued was
        left open, failing every later write."""
        await self._in_own_thread(_end_open, self._conn._conn, "ROLLBACK")

    async def _in_own_thread(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` as one job of aiosqlite's thread (aiosqlite's ``_execute``: it
        has no public call for it)."""
        run: Callable[..., Awaitable[T]] = self._conn._execute  # aiosqlite's, untyped
        return await run(fn, *args)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Session]:
        async with self._lock:
            try:
                await self._conn.execute("BEGIN")
                yield self._session
            finally:
                # in the thread, as `_rollback`: a cancelled BEGIN still runs
                await self._in_own_thread(_end_open, self._conn._conn, "COMMIT")

    async def write_at_once(self, work: Work[T], *args: Any) -> T:
        """The whole transaction on the loop's own connection when no transaction of
        several trips holds the lock and no other connection holds SQLite's (see the
        module's docstring): no trip at all. Otherwise one trip to aiosqlite's thread.
        aiosqlite has no public call for "run this in your thread", hence its
        ``_execute`` and ``_conn``: a move's transaction statement by statement was
        eight trips on every click's path (~0.5 ms each on a busy machine, measured in
        `bench/discord.py`).

        The lock is waited for only while a transaction of several trips (`write`,
        `read`) holds it: otherwise the thread's queue, first in first out, already
        keeps this one whole, and a burst of moves does not queue twice (at the lock,
        then at the thread: a future and a wake-up per waiter)."""
        result = self._on_loop(lambda quick: _in_thread(quick, work, args))
        if not isinstance(result, _Elsewhere):
            self._committed_on_loop()
            return result
        if not self._lock.locked():
            # nothing awaited before the job is queued: no transaction can start between
            return await self._at_once(work, args)
        async with self._lock:
            return await self._at_once(work, args)

    async def run_alone(self, sql: str, params: Params = ()) -> int:
        """The statement alone on the loop's own connection, in SQLite's autocommit
        (its own implicit transaction: no BEGIN IMMEDIATE and COMMIT statements around
        it, each a call into SQLite with its own CPU on the loop) when no transaction of
        several trips holds the lock and no other connection holds SQLite's; else
        `write_at_once` (aiosqlite's thread, which waits for the lock). Added for the
        one-process DM step that every click writes (`Presenter.set_dm_message`)."""
        count = self._on_loop(lambda quick: quick.execute(sql, params).rowcount)
        if not isinstance(count, _Elsewhere):
            self._committed_on_loop()
            return count
        return await super().run_alone(sql, params)

    async def read_at_once(self, work: Work[T], *args: Any) -> T:
        """A read transaction on the loop's own connection when no transaction of
        several trips holds the lock (as `write_at_once`; WAL: it reads the last
        commit whoever holds the write lock), else one trip to aiosqlite's thread. Added
        for a cold table's load (issue 32: a dozen statements, each a trip, were most
        of a click on a table not in memory)."""
        result = self._on_loop(lambda quick: _read_in_thread(quick, work, args))
        if not isinstance(result, _Elsewhere):
            return result
        if not self._lock.locked():
            return await self._read_in_own_thread(work, args)
        async with self._lock:
            return await self._read_in_own_thread(work, args)

    async def _read_in_own_thread(self, work: Work[T], args: tuple[Any, ...]) -> T:
        try:
            return await self._in_own_thread(_read_in_thread, self._conn._conn, work, args)
        except sqlite3.Error as exc:
            raise _told(exc) from exc

    async def one_at_once(self, sql: str, params: Params = ()) -> Row | None:
        """One small query by key on the loop's own connection when no transaction of
        several trips holds the lock (as `read_at_once`), else `one`: a cold table's
        click asks where the table is (`Lobby.seat_of`) before it loads it, a trip to
        aiosqlite's thread that cost more than the query (issue 32)."""
        # read to its end: an unfinished statement would hold a read transaction open
        # on the loop's connection
        row = self._on_loop(lambda quick: _first(quick.execute(sql, params).fetchall()))
        if not isinstance(row, _Elsewhere):
            return row
        return await self.one(sql, params)

    def _on_loop(self, work: Callable[[sqlite3.Connection], T]) -> T | _Elsewhere:
        """``work`` on the loop's own connection (this thread) when no transaction of
        several trips holds the lock and no other connection holds SQLite's; else
        `ELSEWHERE` (busy: aiosqlite's thread waits for the other connection). Any other
        SQLite error is the store's."""
        if self._lock.locked():
            return ELSEWHERE
        quick = self._loop_connection()
        if quick is None:
            return ELSEWHERE
        try:
            return work(quick)
        except sqlite3.Error as exc:
            if not _busy(exc):
                raise _told(exc) from exc
            return ELSEWHERE

    def _loop_connection(self) -> sqlite3.Connection | None:
        """The loop's own connection (opened now the first time), or None where it
        cannot serve: an in-memory database, another thread than the one it was opened
        in, or a file it could not open (aiosqlite's thread then serves every write)."""
        if self._quick is not None:
            return self._quick if threading.get_ident() == self._quick_thread else None
        if not self._quick_usable:
            return None
        try:
            quick = sqlite3.connect(self.path, isolation_level=None, timeout=0)
            quick.row_factory = sqlite3.Row
            for pragma in ("busy_timeout = 0", "synchronous = NORMAL", "foreign_keys = ON",
                           "wal_autocheckpoint = 0"):
                quick.execute(f"PRAGMA {pragma}")
        except sqlite3.Error as exc:
            log.warning("SQLite: writes stay on aiosqlite's thread (%s)", exc)
            self._quick_usable = False
            return None
        self._quick, self._quick_thread = quick, threading.get_ident()
        return quick

    def _committed_on_loop(self) -> None:
        """Count the loop's commits; every `CHECKPOINT_EVERY`, checkpoint the WAL on
        aiosqlite's thread (one at a time, under the lock: never inside a transaction
        of several trips)."""
        self._quick_commits += 1
        if self._quick_commits % CHECKPOINT_EVERY or (
                self._checkpoint is not None and not self._checkpoint.done()):
            return
        self._checkpoint = asyncio.get_running_loop().create_task(self._checkpoint_wal())

    async def _checkpoint_wal(self) -> None:
        try:
            async with self._lock:
                # its row read to the end: aiosqlite's thread keeps a job's result (here
                # the cursor) until its next job has run, and an unread row would keep
                # the statement open, failing that job's COMMIT
                await self._conn.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
        except (sqlite3.Error, ValueError) as exc:  # ValueError: closed meanwhile
            log.warning("SQLite: the WAL's checkpoint failed (%s)", exc)

    async def _at_once(self, work: Work[T], args: tuple[Any, ...]) -> T:
        try:
            return await self._in_own_thread(_in_thread, self._conn._conn, work, args)
        except sqlite3.Error as exc:
            raise _told(exc) from exc

    async def close(self) -> None:
        """Close the connections (aiosqlite's last, which checkpoints the WAL when it
        is the database's last connection)."""
        if self._checkpoint is not None:
            await asyncio.gather(self._checkpoint, return_exceptions=True)
        if self._quick is not None:
            with contextlib.suppress(sqlite3.ProgrammingError):  # closed from another thread
                self._quick.close()
            self._quick, self._quick_usable = None, False
        async with self._lock:
            await self._conn.close()


def _first(rows: list[Row]) -> Row | None:
    return rows[0] if rows else None


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
