"""``mahjong-bot backup`` / ``restore`` on SQLite files: a consistent single-file copy
taken while another connection writes; a restore refused while a bot holds the
database, refused for what is not a sound backup of this bot, keeping the database it
replaces; PostgreSQL is sent to pg_dump. (Play carried on after a restore: the e2e
test tests/e2e/test_bot_backup.py.)"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from pathlib import Path

import pytest

from bot.ops.backup import backup_main, restore_main
from bot.store import ProcessLock, Store


def make(path: Path, tables: int = 1) -> None:
    async def run() -> None:
        async with await Store.open(path) as store:
            for n in range(tables):
                await store.lobby.create_table(guild_id=1, channel_id=10 + n, creator_id=3,
                                               rules="shanghai", at=100.0 + n)

    asyncio.run(run())


def live_tables(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM game_tables").fetchone()[0])


def test_a_backup_taken_while_writes_go_on_is_one_whole_moment(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, copy = tmp_path / "bot.sqlite3", tmp_path / "backups" / "copy.sqlite3"
    make(db)
    copy.parent.mkdir()
    stop = threading.Event()

    def writer() -> None:  # another process's connection, in WAL, writing all along
        conn = sqlite3.connect(db, isolation_level=None, timeout=30)
        n = 0
        while not stop.is_set():
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO bot_settings (key, value, updated_at) VALUES (?, ?, ?)",
                         (f"k{n}", "x" * 2000, 1.0))
            conn.execute("INSERT INTO bot_settings (key, value, updated_at) VALUES (?, ?, ?)",
                         (f"pair{n}", "y", 1.0))
            conn.execute("COMMIT")
            n += 1
        conn.close()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert backup_main(["--to", str(copy), "--db", str(db)]) == 0
    finally:
        stop.set()
        thread.join()
    assert "backed up" in capsys.readouterr().out
    assert not Path(f"{copy}-wal").exists() and not Path(f"{copy}.partial").exists()
    with contextlib.closing(sqlite3.connect(copy)) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        keys = {r[0] for r in conn.execute("SELECT key FROM bot_settings")}
    # every transaction whole: each k<n> with its pair<n>
    assert {k[1:] for k in keys if k.startswith("k")} == \
        {k[4:] for k in keys if k.startswith("pair")}
    # a second backup to the same file is refused unless asked for
    assert backup_main(["--to", str(copy), "--db", str(db)]) == 2
    assert "--replace" in capsys.readouterr().err
    assert backup_main(["--to", str(copy), "--db", str(db), "--replace"]) == 0


def test_a_restore_waits_for_the_bot_to_stop_and_keeps_what_it_replaces(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, copy = tmp_path / "bot.sqlite3", tmp_path / "copy.sqlite3"
    make(db, tables=1)
    assert backup_main(["--to", str(copy), "--db", str(db)]) == 0
    make(db, tables=2)  # after the backup: three tables
    assert live_tables(db) == 3
    with ProcessLock.acquire(db):
        assert restore_main(["--from", str(copy), "--db", str(db)]) == 2
        err = capsys.readouterr().err
        assert "already running on the database" in err and "Stop the bot" in err
    assert live_tables(db) == 3  # untouched
    capsys.readouterr()
    assert restore_main(["--from", str(copy), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "restored" in out and "before-restore-" in out
    assert live_tables(db) == 1
    with contextlib.closing(sqlite3.connect(db)) as conn:  # the deliveries' new nonces
        (restored_at,) = conn.execute(
            "SELECT value FROM bot_settings WHERE key = 'restored_at'").fetchone()
    assert float(restored_at) > 1.7e9
    (aside,) = tmp_path.glob("bot.sqlite3.before-restore-*")
    assert live_tables(aside) == 3  # nothing lost: the replaced database, whole


def test_a_restore_refuses_what_is_no_sound_backup(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "bot.sqlite3"
    make(db)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    other = tmp_path / "other.sqlite3"
    with contextlib.closing(sqlite3.connect(other)) as conn:
        conn.execute("CREATE TABLE t (x)")
    for bad, said in ((junk, "not a usable backup"), (other, "not a mahjong-bot database"),
                      (tmp_path / "missing.sqlite3", "no backup at")):
        assert restore_main(["--from", str(bad), "--db", str(db)]) == 2
        assert said in capsys.readouterr().err
    assert live_tables(db) == 1
    assert list(tmp_path.glob("*.before-restore-*")) == []


def test_postgresql_is_sent_to_its_own_tools(capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql://bot:secret@localhost/mahjong"
    assert backup_main(["--to", "x.dump", "--db", url]) == 2
    err = capsys.readouterr().err
    assert "pg_dump --format=custom" in err and "secret" not in err
    assert restore_main(["--from", "x.dump", "--db", url]) == 2
    assert "pg_restore" in capsys.readouterr().err


def test_a_backup_into_a_folder_is_named_by_the_time(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, folder = tmp_path / "bot.sqlite3", tmp_path / "backups"
    make(db, tables=2)
    folder.mkdir()
    assert backup_main(["--to", str(folder), "--db", str(db)]) == 0
    (made,) = folder.iterdir()
    assert made.name.startswith("bot-") and made.suffix == ".sqlite3"
    assert live_tables(made) == 2
    assert str(made) in capsys.readouterr().out
    fresh = tmp_path / "new-folder"
    assert backup_main(["--to", f"{fresh}/", "--db", str(db)]) == 0  # made, then filled
    (made,) = fresh.iterdir()
    assert made.name.startswith("bot-") and live_tables(made) == 2
