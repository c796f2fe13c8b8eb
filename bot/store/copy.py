"""``mahjong-bot copy-database``: an existing SQLite database copied into PostgreSQL.

Every table is copied whole, parents before children (so foreign keys hold row by row),
ids kept; identity sequences then start after the highest id copied, and each table's
row count is checked on both sides. All of it is one PostgreSQL transaction: a failure
leaves the target as it was. The source is first brought up to the newest schema (as
starting the bot on it would), so both sides have the same tables and columns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.store.errors import StoreError
from bot.store.postgres import PostgresDatabase, is_postgres_url
from bot.store.sqlite import SqliteDatabase, sqlite_path
from bot.store.store import Store

TABLES = ("game_tables", "seats", "matches", "hands", "actions", "hand_logs", "deadlines",
          "settlements", "hand_snapshots", "penalties", "departures", "time_banks",
          "announcements",
          "leaderboard", "user_locales", "bot_settings", "people", "digests",
          "claim_answers", "premoves", "hand_facts", "match_facts", "ratings",
          "rating_changes", "rated_matches", "rating_cursors")
"""Every table of the schema but schema_version (each side keeps its own), in an order
where a row's parents are copied before it."""

WITH_IDS = ("game_tables", "matches", "hands", "penalties", "departures", "announcements")
"""Tables whose ``id`` is an identity on PostgreSQL: their sequences are moved on."""

_BATCH = 5000


class CopyRefused(StoreError):
    """The copy cannot start (or did not check out); the target is as it was."""


@dataclass(frozen=True)
class Copied:
    table: str
    rows: int


async def copy_database(source: Path | str, target: str, *, replace: bool = False,
                        say: Callable[[str], None] = print) -> list[Copied]:
    """Copy the SQLite database ``source`` into the PostgreSQL database ``target``.

    A target that already holds rows is refused unless ``replace`` (its rows are then
    deleted first, in the same transaction)."""
    path = sqlite_path(source)
    if not is_postgres_url(target):
        raise CopyRefused(f"the target must be a postgresql:// URL, not {target[:20]!r}…")
    if str(path) == ":memory:" or not Path(path).is_file():
        raise CopyRefused(f"there is no SQLite database at {path}: name the bot's file "
                          "(DATABASE_PATH, default ./mahjong.sqlite3)")
    async with await Store.open(path) as sqlite_store, await Store.open(target) as pg_store:
        sqlite_db, pg_db = sqlite_store._db, pg_store._db
        assert isinstance(sqlite_db, SqliteDatabase) and isinstance(pg_db, PostgresDatabase)
        say(f"copying {path} into {pg_db.target}")
        copied = await _copy_all(sqlite_db, pg_db, replace, say)
    say(f"done: {sum(c.rows for c in copied)} rows in {len(copied)} tables, every count "
        f"checked. Set DATABASE_URL to the target's URL to run the bot on it; {path} is "
        "left as it was.")
    return copied


async def _copy_all(source: SqliteDatabase, target: PostgresDatabase, replace: bool,
                    say: Callable[[str], None]) -> list[Copied]:
    conn = target.connection
    async with conn.transaction():
        held = {t: await _count_pg(target, t) for t in TABLES}
        if any(held.values()):
            if not replace:
                busy = ", ".join(f"{t} ({n})" for t, n in held.items() if n)
                raise CopyRefused(f"{target.target} already holds rows in {busy}: copy into "
                                  "an empty database, or add --replace to delete them first")
            await conn.execute(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE")
            say(f"deleted the target's {sum(held.values())} rows first (--replace)")
        copied = []
        for table in TABLES:
            rows = await _copy_table(source, target, table)
            await _check_count(source, target, table, rows)
            copied.append(Copied(table, rows))
            say(f"  {table}: {rows} rows")
        for table in WITH_IDS:
            await conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
    return copied


async def _copy_table(source: SqliteDatabase, target: PostgresDatabase, table: str) -> int:
    """Stream one table over in batches (PostgreSQL's COPY); return the rows copied."""
    columns = await _columns(target, table)
    names = ", ".join(columns)
    total = 0
    async with source.connection.execute(f"SELECT {names} FROM {table}") as cursor:
        while batch := await cursor.fetchmany(_BATCH):
            records: Sequence[tuple[object, ...]] = [tuple(r) for r in batch]
            await target.connection.copy_records_to_table(table, records=records,
                                                          columns=columns)
            total += len(records)
    return total


async def _columns(target: PostgresDatabase, table: str) -> list[str]:
    rows = await target.connection.fetch(
        "SELECT column_name FROM information_schema.columns WHERE table_schema ="
        " current_schema() AND table_name = $1 ORDER BY ordinal_position", table)
    return [r[0] for r in rows]


async def _count_pg(target: PostgresDatabase, table: str) -> int:
    return int(await target.connection.fetchval(f"SELECT COUNT(*) FROM {table}"))


async def _check_count(source: SqliteDatabase, target: PostgresDatabase, table: str,
                       copied: int) -> None:
    row = await source.one(f"SELECT COUNT(*) FROM {table}")
    there = row[0] if row else 0
    here = await _count_pg(target, table)
    if not there == here == copied:
        raise CopyRefused(f"{table}: {there} rows in the source but {here} in the target "
                          "after the copy; nothing was kept")
