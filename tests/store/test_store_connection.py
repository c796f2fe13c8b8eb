"""The connection really runs in WAL with foreign keys, and a restart keeps everything."""

from __future__ import annotations

import sqlite3
import threading
from fractions import Fraction
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.store import (
    ConstraintError,
    LeaderboardDelta,
    NewAction,
    NewDeadline,
    Settlement,
    StandingChoices,
    Store,
    StoreError,
    connect,
)
from bot.store import sqlite as sqlite_backend
from bot.store.database import Session
from tests.narrowing import known
from tests.store.helpers import NewGame, sqlite_only


async def test_file_is_created_with_its_folder(db_path: Path) -> None:
    assert not db_path.parent.exists()
    store = await Store.open(db_path)
    await store.close()
    assert db_path.is_file()


@sqlite_only  # PRAGMAs are SQLite's
async def test_pragmas_are_on(store: Store) -> None:
    assert await store.pragma("journal_mode") == "wal"
    assert await store.pragma("foreign_keys") == 1
    assert await store.pragma("synchronous") == 1  # NORMAL
    assert await store.pragma("busy_timeout") == 5000
    with pytest.raises(ValueError):
        await store.pragma("journal_mode = DELETE")


async def test_foreign_keys_are_enforced(store: Store) -> None:
    with pytest.raises(ConstraintError, match=r"(?i)foreign key"):
        await store._db.execute("INSERT INTO seats (table_id, seat, display_name, is_computer,"
                                " joined_at) VALUES (999, 0, 'ghost', 1, 0)")


@sqlite_only
async def test_a_fresh_connection_enforces_foreign_keys_too(store: Store,
                                                            db_path: Path) -> None:
    """SQLite leaves them off per connection unless `connect` turns them on."""
    conn = await connect(db_path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
            await conn.execute("INSERT INTO seats (table_id, seat, display_name, is_computer,"
                               " joined_at) VALUES (999, 0, 'ghost', 1, 0)")
    finally:
        await conn.close()


async def test_a_locked_database_fails_cleanly(db_path: Path) -> None:
    """Another process holding the write lock past busy_timeout: StoreError, no change."""
    store = await Store.open(db_path, busy_timeout_ms=50)
    other = await connect(db_path)
    try:
        await other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StoreError, match="locked"):
            await store.lobby.create_table(guild_id=1, channel_id=2, creator_id=3, rules="shanghai",
                                           at=1.0)
        await other.execute("ROLLBACK")
        assert await store.lobby.live_tables() == []
        await store.lobby.create_table(guild_id=1, channel_id=2, creator_id=3, rules="shanghai",
                                       at=1.0)  # and the store is usable again
        assert len(await store.lobby.live_tables()) == 1
    finally:
        await other.close()
        await store.close()


async def test_wal_refusal_is_a_store_error(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A file system that cannot do WAL (network shares) is reported, not ignored."""
    from bot.store import db

    real = db._set_pragmas

    async def no_wal(conn: aiosqlite.Connection, in_memory: bool, busy_ms: int) -> None:
        await conn.execute("PRAGMA journal_mode = DELETE")
        original = conn.execute

        def execute(sql: str, *args: Any) -> Any:
            return original("PRAGMA journal_mode" if "WAL" in sql else sql, *args)

        monkeypatch.setattr(conn, "execute", execute)
        await real(conn, in_memory, busy_ms)

    monkeypatch.setattr(db, "_set_pragmas", no_wal)
    with pytest.raises(StoreError, match="WAL"):
        await connect(tmp_path / "x.sqlite3")


async def test_restart_keeps_everything(store: Store, database: Path | str,
                                        new_game: NewGame) -> None:
    game = await new_game()
    t, h = game.table.id, game.hand.id
    await store.lobby.set_table_message(t, 555, 104.0)
    await store.lobby.set_choices(t, 0, StandingChoices(always_win=True))
    await store.log.append(h, 1, 0, "discard", {"tile": "5z"}, "player", 105.0,
                           deadlines=[NewDeadline(1, 2, "claim", 105.0, 165.0)])
    second = await new_game(users=(7, 8, 9))
    await store.endings.finish_hand(second.hand.id, NewAction(1, 0, "win", {}, "player", 110.0),
                                    settlements=[Settlement(0, Fraction(9, 2))],
                                    deltas=[LeaderboardDelta("user:7", "P7", Fraction(9, 2), 1, 1)],
                                    at=110.0)
    before = await snapshot(store, t, h, second.hand.id)
    await store.close()

    reopened = await Store.open(database)
    try:
        assert await snapshot(reopened, t, h, second.hand.id) == before
        assert await reopened.log.next_seq(h) == 2
    finally:
        await reopened.close()


async def snapshot(store: Store, table_id: int, hand_id: int, ended_hand: int
                   ) -> tuple[object, ...]:
    return (await store.lobby.get_table(table_id), await store.lobby.seats(table_id),
            await store.matches.of_table(table_id), await store.hands.get(hand_id),
            await store.log.actions(hand_id), await store.deadlines.all(),
            await store.endings.settlements(ended_hand),
            await store.leaderboard.top(222, "shanghai"),
            await store.lobby.live_tables())


SETTING = "INSERT INTO bot_settings (key, value, updated_at) VALUES (?, ?, 0)"


async def _thread_of_write(session: Session) -> int:
    await session.run("UPDATE schema_version SET version = version")
    return threading.get_ident()


@sqlite_only  # the loop's own connection is SQLite's
async def test_a_write_at_once_runs_on_the_loops_thread_and_commits(store: Store,
                                                                    db_path: Path) -> None:
    """Committed (another connection sees it) before the call returns, on this thread."""
    async def add(session: Session) -> int:
        await session.run(SETTING, ("probe", "1"))
        return threading.get_ident()

    assert await store._db.write_at_once(add) == threading.get_ident()
    other = sqlite3.connect(db_path)
    try:
        row = other.execute("SELECT value FROM bot_settings WHERE key = 'probe'").fetchone()
        assert row == ("1",)
    finally:
        other.close()


@sqlite_only
async def test_a_failed_write_at_once_on_the_loops_thread_changes_nothing(
        store: Store) -> None:
    async def add_twice(session: Session) -> None:
        await session.run(SETTING, ("twice", "1"))
        await session.run(SETTING, ("twice", "2"))

    with pytest.raises(ConstraintError):
        await store._db.write_at_once(add_twice)
    assert await store._db.one("SELECT value FROM bot_settings WHERE key = 'twice'") is None
    await store._db.write_at_once(_thread_of_write)  # the connection is usable after


async def test_an_in_memory_database_writes_on_aiosqlites_thread() -> None:
    """A second connection to ":memory:" would be another, empty database."""
    store = await Store.open(":memory:")
    try:
        assert await store._db.write_at_once(_thread_of_write) != threading.get_ident()
    finally:
        await store.close()


@sqlite_only
async def test_the_wal_is_checkpointed_on_aiosqlites_thread_every_few_loop_commits(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop's connection never checkpoints (an fsync would stop the loop)."""
    monkeypatch.setattr(sqlite_backend, "CHECKPOINT_EVERY", 3)
    database = store._db
    assert isinstance(database, sqlite_backend.SqliteDatabase)
    seen: list[str] = []
    execute = database.connection.execute_fetchall

    def recorded(sql: str, *args: Any) -> Any:
        seen.append(sql)
        return execute(sql, *args)

    monkeypatch.setattr(database.connection, "execute_fetchall", recorded)
    for _ in range(5):
        await database.write_at_once(_thread_of_write)
    assert database._checkpoint is not None
    await database._checkpoint
    assert seen == ["PRAGMA wal_checkpoint(PASSIVE)"]
    assert known(database._loop_connection()).execute(
        "PRAGMA wal_autocheckpoint").fetchone()[0] == 0


@sqlite_only
async def test_a_checkpoint_leaves_no_statement_open_on_aiosqlites_connection(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """aiosqlite's thread keeps its last job's result (the checkpoint's cursor) until the
    next job has run: a row left unread kept the statement open, and the next whole
    transaction on that thread failed to commit ("SQL statements in progress", seen in
    `bench/discord.py` when a write fell back to the thread after a checkpoint)."""
    monkeypatch.setattr(sqlite_backend, "CHECKPOINT_EVERY", 2)
    database = store._db
    assert isinstance(database, sqlite_backend.SqliteDatabase)
    for _ in range(2):
        await database.write_at_once(_thread_of_write)
    assert database._checkpoint is not None
    await database._checkpoint
    monkeypatch.setattr(database, "_loop_connection", lambda: None)  # as when busy
    assert await database.write_at_once(_thread_of_write) != threading.get_ident()
