"""Opening SQLite the way the store relies on: WAL, foreign keys, explicit transactions."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from pathlib import Path

import aiosqlite

from bot.store.errors import DatabaseUnusable, StoreError

DEFAULT_BUSY_TIMEOUT_MS = 5000
MIN_SQLITE = (3, 35, 0)
"""UPSERT (``ON CONFLICT … DO UPDATE``) arrived in SQLite 3.24, ``RETURNING`` in 3.35."""


async def connect(path: str | Path, *,
                  busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> aiosqlite.Connection:
    """Open (creating if needed) the database at ``path`` with the store's pragmas.

    - ``isolation_level=None``: Python's sqlite3 never opens a transaction behind our
      back; the store writes ``BEGIN IMMEDIATE … COMMIT`` itself.
    - WAL: readers never block the writer, and a crash loses at most the last
      unsynced commits, never the database's consistency.
    - ``synchronous=NORMAL``: in WAL mode this cannot corrupt the database; a power
      cut (not a process crash) may roll back the last few commits. The bot tells
      players about an action only after its commit, so at worst a move from the last
      moments before a power cut is asked for again.
    - ``foreign_keys=ON``: SQLite leaves them off per connection by default.
    - ``busy_timeout``: a second process (or connection) waits for the write lock
      instead of failing at once.

    A file that cannot be used (locked past the busy timeout, not a database, damaged,
    read-only, its folder missing) raises `DatabaseUnusable`, one line naming the path
    and what to do.
    """
    if sqlite3.sqlite_version_info < MIN_SQLITE:
        raise StoreError(f"SQLite {sqlite3.sqlite_version} is too old; the store needs "
                         f"{'.'.join(map(str, MIN_SQLITE))} or newer")
    in_memory = str(path) == ":memory:"
    if not in_memory:
        if Path(path).is_dir():
            raise DatabaseUnusable(path, f"{path} is a folder, not a database file: name a "
                                         f"file in it, such as {Path(path) / 'mahjong.sqlite3'}")
        make_folder(path)
        if not _writable(path):  # SQLite would open it read-only and fail at the 1st move
            raise DatabaseUnusable(path, _read_only(path))
    connecting = aiosqlite.connect(path, isolation_level=None)
    try:
        conn = await connecting
    except sqlite3.Error as exc:
        # aiosqlite asks its worker thread to stop without waiting for it: wait here, or
        # the thread answers a closed event loop (a thread's traceback at exit)
        worker = getattr(connecting, "_thread", None)
        if worker is not None:
            await asyncio.to_thread(worker.join, 5)
        raise unusable(path, exc, busy_timeout_ms) from exc
    try:
        conn.row_factory = aiosqlite.Row
        await _set_pragmas(conn, in_memory, busy_timeout_ms)
    except BaseException as exc:
        await conn.close()
        if isinstance(exc, sqlite3.Error):
            raise unusable(path, exc, busy_timeout_ms) from exc
        raise
    return conn


def make_folder(path: str | Path) -> None:
    """Create the database's folder if it is missing (a fresh volume, say)."""
    folder = Path(path).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatabaseUnusable(path, f"the folder {folder} of the database {path} does not "
                                     f"exist and cannot be created ({exc.strerror}): create "
                                     "it, or set DATABASE_PATH to a file in a folder "
                                     "that exists") from exc


def unusable(path: str | Path, exc: BaseException,
             busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> DatabaseUnusable:
    """The one-line explanation of why SQLite (or the OS) refused ``path``."""
    text = str(exc).lower()
    folder = Path(path).parent
    if "locked" in text or "busy" in text:
        problem = (f"the database {path} is locked by another program (waited "
                   f"{busy_timeout_ms / 1000:g} s): close whatever holds it (an sqlite3 "
                   "shell, a backup, another bot) and start again")
    elif "not a database" in text:
        problem = (f"{path} is not a SQLite database, or its header is damaged: point the "
                   "bot at its database file, or restore it from a backup")
    elif "malformed" in text or "corrupt" in text:
        problem = (f"the database {path} is damaged (truncated or corrupt): restore it "
                   "from a backup, or move it aside to start with an empty one")
    elif not folder.is_dir():
        problem = (f"the folder {folder} of the database {path} does not exist: create "
                   "it, or set DATABASE_PATH to a file in a folder that exists")
    elif ("readonly" in text or "read-only" in text or isinstance(exc, PermissionError)
          or not _writable(path)):
        problem = _read_only(path)
    else:
        problem = f"the database {path} cannot be opened: {exc}"
    return DatabaseUnusable(path, problem)


def _read_only(path: str | Path) -> str:
    return (f"the database {path} cannot be written (a read-only file or folder): give "
            f"the bot's user write access to it and to its folder {Path(path).parent} "
            "(SQLite writes -wal and -shm files beside it)")


FILE_PROBLEMS = ("locked", "busy", "not a database", "malformed", "corrupt", "readonly",
                 "read-only", "unable to open")
"""What SQLite says when the file, not the SQL, is at fault."""


def file_problem(exc: BaseException) -> bool:
    """Whether ``exc`` is about the database file (see `FILE_PROBLEMS`)."""
    return isinstance(exc, sqlite3.Error) and any(p in str(exc).lower()
                                                  for p in FILE_PROBLEMS)


def _writable(path: str | Path) -> bool:
    file = Path(path)
    return os.access(file.parent, os.W_OK) and (not file.exists()
                                                 or os.access(file, os.W_OK))


async def _set_pragmas(conn: aiosqlite.Connection, in_memory: bool, busy_ms: int) -> None:
    await conn.execute(f"PRAGMA busy_timeout = {int(busy_ms)}")
    mode = await _journal_mode_wal(conn, busy_ms)
    if mode != "wal" and not in_memory:
        raise StoreError(f"SQLite would not switch to WAL journal mode (it reports {mode!r}); "
                         "is DATABASE_PATH on a network file system?")
    await conn.execute("PRAGMA synchronous = NORMAL")
    await conn.execute("PRAGMA foreign_keys = ON")


async def _journal_mode_wal(conn: aiosqlite.Connection, busy_ms: int) -> str:
    """Switch to WAL. While another connection is creating the same new file, SQLite
    answers "database is locked" at once instead of waiting for the busy timeout, so
    retry (briefly) until the timeout has passed. The time is measured, not counted
    in retries: a lock held by another program makes each try itself wait the whole
    busy timeout, and counting 10 ms a try stalled start-up for many minutes."""
    give_up = time.monotonic() + busy_ms / 1000
    while True:
        try:
            async with conn.execute("PRAGMA journal_mode = WAL") as cur:
                row = await cur.fetchone()
            return str(row[0]).lower() if row else "?"
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= give_up:
                raise
            await asyncio.sleep(0.01)
