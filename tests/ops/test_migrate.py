"""``mahjong-bot migrate --check`` lists what a start would apply and changes nothing;
``mahjong-bot migrate`` applies it (never beside a running bot on SQLite)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.ops.upgrade import main
from bot.store import ProcessLock, Store, load_migrations

MIGRATIONS = load_migrations()
LATEST = MIGRATIONS[-1].version


def make(path: Path, upto: int) -> None:
    async def run() -> None:
        await (await Store.open(path, migrations=MIGRATIONS[:upto])).close()

    asyncio.run(run())


def version_of(path: Path) -> int:
    async def run() -> int:
        async with await Store.open(path, migrate=False) as store:
            return await store.maintenance.schema_version()

    return asyncio.run(run())


def test_check_lists_what_would_run_and_changes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "old.sqlite3"
    make(db, LATEST - 2)
    assert main(["--check", "--db", str(db)]) == 1
    out = capsys.readouterr().out
    assert f"schema {LATEST - 2}: 2 migration(s) to apply" in out
    assert [line.strip() for line in out.splitlines()[1:]] == [
        m.name for m in MIGRATIONS[-2:]]
    assert version_of(db) == LATEST - 2  # nothing applied


def test_migrate_applies_them_then_check_finds_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "old.sqlite3"
    make(db, LATEST - 1)
    with ProcessLock.acquire(db):  # a bot runs on it: refused
        assert main(["--db", str(db)]) == 2
        assert "already running on the database" in capsys.readouterr().err
    assert version_of(db) == LATEST - 1
    assert main(["--db", str(db)]) == 0
    assert f"applied {MIGRATIONS[-1].name}" in capsys.readouterr().out
    assert version_of(db) == LATEST
    assert main(["--check", "--db", str(db)]) == 0
    assert "up to date" in capsys.readouterr().out


def test_a_database_newer_than_the_code_or_none_at_all(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "new.sqlite3"
    assert main(["--check", "--db", str(db)]) == 1
    assert "first start creates it" in capsys.readouterr().out
    assert not db.exists()  # nothing created by a check
    make(db, LATEST)

    async def future() -> None:
        async with await Store.open(db) as store:
            await store._db.execute("INSERT INTO schema_version VALUES (?, ?, ?)",
                                    (LATEST + 1, "9999_future", 1.0))

    asyncio.run(future())
    assert main(["--check", "--db", str(db)]) == 2
    assert "newer than this bot" in capsys.readouterr().err


async def test_check_on_postgresql(pg_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    await (await Store.open(pg_url)).close()
    assert await asyncio.to_thread(main, ["--check", "--db", pg_url]) == 0
    assert f"schema {LATEST}: up to date" in capsys.readouterr().out
