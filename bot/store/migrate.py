"""Numbered SQL migrations, applied in order at start-up and recorded in schema_version.

The files live in the repository's top-level ``migrations/`` (the place people look),
which is also installed as a small package of its own, so a bot installed without its
repository reads the very same files. SQLite's are ``migrations/NNNN_name.sql``;
PostgreSQL's, the same numbers in its dialect, ``migrations/postgres/NNNN_name.sql``
(applied by `bot.store.postgres.apply_migrations`). A database written by a newer bot
is refused rather than run by code that does not know its schema.
"""

from __future__ import annotations

import logging
import re
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Literal

import aiosqlite

from bot.store.errors import MigrationError, SchemaTooNew

log = logging.getLogger(__name__)

Dialect = Literal["sqlite", "postgres"]

FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
_COMMENTS = re.compile(r"--[^\n]*|/\*.*?\*/", re.DOTALL)

_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at REAL NOT NULL
)"""


@dataclass(frozen=True)
class Migration:
    """One numbered file: ``version`` 1 is ``0001_init.sql`` with ``name`` "0001_init"."""

    version: int
    name: str
    sql: str


def _subfolder(dialect: Dialect) -> str | None:
    """Where a dialect's files sit inside ``migrations/`` (SQLite's at its top)."""
    return "postgres" if dialect == "postgres" else None


def repo_migrations_dir(dialect: Dialect = "sqlite") -> Path | None:
    """The source checkout's ``migrations/``, or None when running from an install.

    The pyproject.toml beside it tells a checkout apart from some unrelated
    ``migrations`` folder that happens to sit next to an installed package.
    """
    root = Path(__file__).resolve().parents[2]
    folder = root / "migrations"
    sub = _subfolder(dialect)
    if sub is not None:
        folder = folder / sub
    if (root / "pyproject.toml").is_file() and folder.is_dir():
        return folder
    return None


def bundled_migrations(dialect: Dialect = "sqlite") -> Traversable:
    """The installed ``migrations`` package (the same files as the checkout's folder)."""
    folder = resources.files("migrations")
    sub = _subfolder(dialect)
    return folder if sub is None else folder / sub


def load_migrations(source: Path | Traversable | None = None, *,
                    dialect: Dialect = "sqlite") -> list[Migration]:
    """Read every ``NNNN_name.sql`` of ``source`` (default: the dialect's files, from
    the checkout, else the package).

    Numbers must run 1, 2, 3… without gaps or repeats, so that "version N" always
    means the same set of files.
    """
    folder = source or repo_migrations_dir(dialect) or bundled_migrations(dialect)
    found = sorted((_read(entry) for entry in folder.iterdir() if _is_sql(entry)),
                   key=lambda m: m.version)
    if not found:
        raise MigrationError(f"no migration files (0001_init.sql, …) in {folder}")
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise MigrationError(
                f"migrations must be numbered 0001, 0002, … without gaps or repeats; "
                f"expected {expected:04d} but found {migration.name}.sql in {folder}")
    return found


def _is_sql(entry: Traversable) -> bool:
    return entry.is_file() and entry.name.endswith(".sql")


def _read(entry: Traversable) -> Migration:
    match = FILE_NAME.match(entry.name)
    if match is None:
        raise MigrationError(
            f"migration file {entry.name!r} is not named like 0002_what_it_does.sql")
    return Migration(int(match[1]), entry.name.removesuffix(".sql"),
                     entry.read_text(encoding="utf-8"))


def split_statements(sql: str) -> list[str]:
    """Cut a script into single statements (``execute`` takes one at a time).

    ``executescript`` would do it but commits first, which would break the
    one-transaction-per-migration promise. ``complete_statement`` understands string
    literals, comments and trigger bodies, so a ``;`` inside them does not cut.
    """
    statements: list[str] = []
    *pieces, rest = sql.split(";")
    pending = ""
    for piece in pieces:
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if _COMMENTS.sub("", pending).strip(" \t\r\n;"):
                statements.append(pending.strip())
            pending = ""
    rest = pending + rest
    if _COMMENTS.sub("", rest).strip():
        raise MigrationError(f"unterminated SQL statement at the end: {rest.strip()[:60]!r}")
    return statements


async def schema_version(conn: aiosqlite.Connection) -> int:
    """The highest applied migration, 0 for an empty database."""
    async with conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ) as cur:
        if await cur.fetchone() is None:
            return 0
    async with conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def apply_migrations(conn: aiosqlite.Connection,
                           migrations: Sequence[Migration] | None = None,
                           *, clock: Callable[[], float] = time.time) -> list[int]:
    """Bring the database up to the newest migration; return the versions applied.

    Each file runs in its own IMMEDIATE transaction together with its schema_version
    row, so a failure leaves the database at the previous version, and two bots
    starting at once cannot both apply the same file. Foreign keys are switched off
    while migrating (SQLite's recipe for rebuilding a table) and checked before each
    commit instead.
    """
    todo = list(migrations) if migrations is not None else load_migrations()
    if not todo:
        raise MigrationError("no migrations to apply")
    if conn.in_transaction:
        raise MigrationError("apply_migrations needs a connection outside any transaction")
    await conn.execute(_VERSION_TABLE)
    pending = still_to_apply(todo, await schema_version(conn))
    if not pending:
        return []
    await conn.execute("PRAGMA foreign_keys = OFF")
    try:
        return [m.version for m in pending if await _apply_one(conn, m, clock())]
    finally:
        await conn.execute("PRAGMA foreign_keys = ON")


def still_to_apply(todo: Sequence[Migration], current: int) -> list[Migration]:
    """The migrations after version ``current``; `SchemaTooNew` if the database is
    newer than the newest of them (both dialects)."""
    if not todo:
        raise MigrationError("no migrations to apply")
    latest = todo[-1].version
    if current > latest:
        raise SchemaTooNew(current, latest)
    return [m for m in todo if m.version > current]


async def _apply_one(conn: aiosqlite.Connection, migration: Migration, now: float) -> bool:
    """Apply one file atomically; False if another process applied it meanwhile."""
    await conn.execute("BEGIN IMMEDIATE")
    try:
        async with conn.execute("SELECT 1 FROM schema_version WHERE version = ?",
                                (migration.version,)) as cur:
            if await cur.fetchone() is not None:
                await conn.execute("ROLLBACK")
                return False
        for statement in split_statements(migration.sql):
            await conn.execute(statement)
        await _check_foreign_keys(conn, migration)
        await conn.execute(
            "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
            (migration.version, migration.name, now))
        await conn.execute("COMMIT")
    except BaseException as exc:
        if conn.in_transaction:
            await conn.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise MigrationError(f"migration {migration.name} failed: {exc}") from exc
        raise
    log.info("applied migration %s", migration.name)
    return True


async def _check_foreign_keys(conn: aiosqlite.Connection, migration: Migration) -> None:
    async with conn.execute("PRAGMA foreign_key_check") as cur:
        broken = list(await cur.fetchall())  # typed as an Iterable; a list in fact
    if broken:
        table = broken[0][0]
        raise MigrationError(f"migration {migration.name} left {len(broken)} row(s) with "
                             f"dangling foreign keys (first in table {table})")
