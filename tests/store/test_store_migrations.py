"""Migrations: from empty, from an older version, refusal of a newer one, packaging."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from bot.store import (
    MigrationError,
    SchemaTooNew,
    Store,
    apply_migrations,
    connect,
    load_migrations,
    schema_version,
)
from bot.store.migrate import bundled_migrations, repo_migrations_dir, split_statements
from tests.narrowing import known

ROOT = Path(__file__).resolve().parents[2]
TOP_LEVEL = ROOT / "migrations"

UPGRADE_0002 = """
-- test-only: a new column with a default, and a backfill that uses it
ALTER TABLE game_tables ADD COLUMN nickname TEXT NOT NULL DEFAULT '';
UPDATE game_tables SET nickname = 'table ' || id;
"""


def folder_with(tmp_path: Path, *extra: tuple[str, str]) -> Path:
    """A temporary migrations folder: the real 0001 plus test-only files."""
    folder = tmp_path / "migrations"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(TOP_LEVEL / "0001_init.sql", folder / "0001_init.sql")
    for name, sql in extra:
        (folder / name).write_text(sql, encoding="utf-8")
    return folder


async def version_rows(path: Path) -> list[tuple[int, str]]:
    conn = await connect(path)
    try:
        async with conn.execute("SELECT version, name FROM schema_version ORDER BY 1") as cur:
            return [(r[0], r[1]) for r in await cur.fetchall()]
    finally:
        await conn.close()


async def test_empty_database_gets_every_migration(db_path: Path) -> None:
    conn = await connect(db_path)
    try:
        assert await schema_version(conn) == 0
        applied = await apply_migrations(conn)
        assert applied == [m.version for m in load_migrations()]
        async with conn.execute("SELECT applied_at FROM schema_version") as cur:
            assert all(r[0] > 1_600_000_000 for r in await cur.fetchall())
        assert await apply_migrations(conn) == []  # idempotent
    finally:
        await conn.close()
    assert (await version_rows(db_path))[0] == (1, "0001_init")


async def test_every_table_of_the_design_exists(store: Store) -> None:
    names = set(await table_columns(store))
    assert {"schema_version", "game_tables", "seats", "matches", "hands", "actions",
            "deadlines", "settlements", "leaderboard"} <= names


async def test_previous_version_upgrades_in_place(tmp_path: Path, db_path: Path) -> None:
    folder = folder_with(tmp_path)
    old = await Store.open(db_path, migrations=load_migrations(folder))
    table = await old.lobby.create_table(guild_id=1, channel_id=2, creator_id=3, rules="hangzhou",
                                         at=5.0)
    await old.close()

    (folder / "0002_nickname.sql").write_text(UPGRADE_0002, encoding="utf-8")
    new = await Store.open(db_path, migrations=load_migrations(folder))
    try:
        assert await new.lobby.get_table(table.id) == table  # old data survives
        row = await new._db.one("SELECT nickname FROM game_tables WHERE id = ?", (table.id,))
        assert row is not None and row[0] == f"table {table.id}"
    finally:
        await new.close()
    assert await version_rows(db_path) == [(1, "0001_init"), (2, "0002_nickname")]


async def test_failed_migration_changes_nothing(tmp_path: Path, db_path: Path) -> None:
    folder = folder_with(tmp_path)
    await (await Store.open(db_path, migrations=load_migrations(folder))).close()
    broken = "ALTER TABLE game_tables ADD COLUMN half_done TEXT;\nSELECT * FROM no_such_table;\n"
    (folder / "0002_broken.sql").write_text(broken, encoding="utf-8")
    with pytest.raises(MigrationError, match="0002_broken"):
        await Store.open(db_path, migrations=load_migrations(folder))
    conn = await connect(db_path)
    try:
        async with conn.execute("SELECT name FROM pragma_table_info('game_tables')") as cur:
            columns = {r[0] for r in await cur.fetchall()}
        assert "half_done" not in columns
        assert await schema_version(conn) == 1
        async with conn.execute("PRAGMA foreign_keys") as cur:
            assert known(await cur.fetchone())[0] == 1  # switched back on after the failure
    finally:
        await conn.close()


async def test_newer_database_is_refused(tmp_path: Path, db_path: Path) -> None:
    folder = folder_with(tmp_path, ("0002_nickname.sql", UPGRADE_0002))
    await (await Store.open(db_path, migrations=load_migrations(folder))).close()
    with pytest.raises(SchemaTooNew) as info:
        await Store.open(db_path, migrations=load_migrations(folder_with(tmp_path / "old")))
    assert str(info.value) == ("database schema version 2 is newer than this bot (1); "
                               "upgrade the bot")


async def test_two_bots_starting_at_once_apply_each_file_once(db_path: Path) -> None:
    first, second = await asyncio.gather(Store.open(db_path), Store.open(db_path))
    await first.close()
    await second.close()
    assert await version_rows(db_path) == [(m.version, m.name) for m in load_migrations()]


async def test_migration_needs_a_connection_outside_a_transaction(db_path: Path) -> None:
    conn = await connect(db_path)
    try:
        await conn.execute("BEGIN")
        with pytest.raises(MigrationError, match="outside any transaction"):
            await apply_migrations(conn)
    finally:
        await conn.close()


def test_numbering_gaps_and_bad_names_are_refused(tmp_path: Path) -> None:
    gap = folder_with(tmp_path / "gap", ("0003_later.sql", "SELECT 1;"))
    with pytest.raises(MigrationError, match="expected 0002 but found 0003_later"):
        load_migrations(gap)
    bad = folder_with(tmp_path / "bad", ("2_Oops.sql", "SELECT 1;"))
    with pytest.raises(MigrationError, match="not named like"):
        load_migrations(bad)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(MigrationError, match="no migration files"):
        load_migrations(empty)


def test_statements_split_on_real_semicolons_only() -> None:
    sql = """-- a comment; with a semicolon
    CREATE TABLE t (x TEXT DEFAULT 'a;b'); /* block; comment */
    CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE t SET x = 'y;'; END;
    INSERT INTO t VALUES ('1'); INSERT INTO t VALUES ('2');
    -- trailing comment only
    """
    statements = split_statements(sql)
    assert len(statements) == 4
    assert "CREATE TRIGGER" in statements[1] and statements[1].endswith("END;")
    assert statements[2:] == ["INSERT INTO t VALUES ('1');", "INSERT INTO t VALUES ('2');"]
    with pytest.raises(MigrationError, match="unterminated"):
        split_statements("CREATE TABLE u (x)")


def test_checkout_and_installed_migrations_are_the_same_files() -> None:
    """An install ships migrations/ as a package; it must read as the checkout does."""
    assert repo_migrations_dir() == TOP_LEVEL
    from_checkout = load_migrations(TOP_LEVEL)
    from_package = load_migrations(bundled_migrations())
    assert from_package == from_checkout
    assert load_migrations() == from_checkout
    assert (TOP_LEVEL / "README.md").is_file()


async def test_seat_locales_carry_over_to_the_per_user_table(db_path: Path) -> None:
    every = load_migrations()
    (v5,) = [m for m in every if m.name == "0005_restart_memory"]
    conn = await connect(db_path)
    try:
        await apply_migrations(conn, [m for m in every if m.version < v5.version])
        await conn.execute("INSERT INTO game_tables (guild_id, channel_id, creator_id, rules,"
                           " created_at) VALUES (1, 2, 10, 'shanghai', 0)")
        await conn.executemany(
            "INSERT INTO seats (table_id, seat, user_id, is_computer, display_name, joined_at,"
            " locale) VALUES (1, ?, ?, ?, ?, 0, ?)",
            [(0, 10, 0, "小明", "zh-CN"), (1, 11, 0, "Bo", None), (2, None, 1, "Bot", None)])
        assert await apply_migrations(conn, every) == [m.version for m in every
                                                      if m.version >= v5.version]
        async with conn.execute("SELECT user_id, locale FROM user_locales") as cur:
            assert [tuple(r) for r in await cur.fetchall()] == [(10, "zh-CN")]
        async with conn.execute("SELECT ping_message_id FROM game_tables") as cur:
            assert [tuple(r) for r in await cur.fetchall()] == [(None,)]
    finally:
        await conn.close()


async def table_columns(store: Store) -> dict[str, list[str]]:
    """Each table's columns, in order, as the database itself tells them."""
    if store.dialect == "sqlite":
        sql = ("SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p"
               " WHERE m.type = 'table' ORDER BY m.name, p.cid")
    else:
        sql = ("SELECT table_name, column_name FROM information_schema.columns"
               " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position")
    out: dict[str, list[str]] = {}
    for row in await store._db.all(sql):
        out.setdefault(row[0], []).append(row[1])
    return out


def test_both_dialects_have_the_same_migrations() -> None:
    sqlite = [(m.version, m.name) for m in load_migrations()]
    postgres = [(m.version, m.name) for m in load_migrations(dialect="postgres")]
    assert sqlite == postgres


async def test_both_dialects_give_the_same_tables_and_columns(db_path: Path,
                                                              pg_url: str) -> None:
    sqlite, postgres = await Store.open(db_path), await Store.open(pg_url)
    try:
        assert await table_columns(sqlite) == await table_columns(postgres)
    finally:
        await sqlite.close()
        await postgres.close()


def test_the_package_ships_the_postgres_dialect_too() -> None:
    assert load_migrations(bundled_migrations("postgres"), dialect="postgres") == \
        load_migrations(TOP_LEVEL / "postgres", dialect="postgres")
    assert load_migrations(dialect="postgres") == load_migrations(TOP_LEVEL / "postgres")
