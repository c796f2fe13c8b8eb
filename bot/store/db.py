"""Opening SQLite the way the store relies on: WAL, foreign keys, explicit transactions."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import aiosqlite

from bot.store.errors import StoreError

DEFAULT_BUSY_TIMEOUT_MS = 5000
MIN_SQLITE = (3, 24, 0)
"""UPSERT (``ON CONFLICT … DO UPDATE``) arrived in SQLite 3.24."""


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
    """
    if sqlite3.sqlite_version_info < MIN_SQLITE:
        raise StoreError(f"SQLite {sqlite3.sqlite_version} is too old; the store needs "
                         f"{'.'.join(map(str, MIN_SQLITE))} or newer")
    in_memory = str(path) == ":memory:"
    if not in_memory:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        conn.row_factory = aiosqlite.Row
        await _set_pragmas(conn, in_memory, busy_timeout_ms)
    except BaseException:
        await conn.close()
        raise
    return conn


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
    retry (briefly) until the timeout would have passed."""
    waited = 0.0
    while True:
        try:
            async with conn.execute("PRAGMA journal_mode = WAL") as cur:
                row = await cur.fetchone()
            return str(row[0]).lower() if row else "?"
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or waited * 1000 >= busy_ms:
                raise
            await asyncio.sleep(0.01)
            waited += 0.01
