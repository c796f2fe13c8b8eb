"""The PostgreSQL backend: one asyncpg connection, chosen by a ``postgresql://`` URL.

Several bot processes may share one PostgreSQL database (that is what it is for), so a
write that reads rows before changing them locks them (`Session.for_update`) and a
racing process waits for the commit instead of deciding on a stale read. Migrations
are serialised between processes by an advisory lock. The password in the URL is never
shown: `masked` replaces it in every message.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar
from urllib.parse import SplitResult, unquote, urlsplit, urlunsplit

import asyncpg

from bot.store.database import Database, Params, Session, Work, numbered
from bot.store.errors import (
    ConstraintError,
    DatabaseUnusable,
    MigrationError,
    StoreError,
)
from bot.store.migrate import Migration, load_migrations, still_to_apply
from bot.store.rows import Row

log = logging.getLogger(__name__)
T = TypeVar("T")

SCHEMES = ("postgresql://", "postgres://")
CONNECT_TIMEOUT_S = 10.0
_MIGRATION_LOCK = 0x6D6A6267
"""Any fixed number: the advisory lock two bots starting at once take to migrate."""

_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at DOUBLE PRECISION NOT NULL
)"""


def is_postgres_url(target: object) -> bool:
    return isinstance(target, str) and target.startswith(SCHEMES)


def masked(url: str) -> str:
    """``url`` with its password (if any) as ``***``: what messages and logs show."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    user = parts.netloc.rsplit("@", 1)[0].split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def _scrub(text: str, url: str) -> str:
    """``text`` without the URL's password, raw or percent-decoded."""
    password = urlsplit(url).password
    if not password:
        return text
    for secret in {password, unquote(password)}:
        text = text.replace(secret, "***")
    return text


class _Session(Session):
    for_update = " FOR UPDATE"

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def one(self, sql: str, params: Params = ()) -> Row | None:
        row: Row | None = await self._conn.fetchrow(numbered(sql), *params)
        return row

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._conn.fetch(numbered(sql), *params))

    async def run(self, sql: str, params: Params = ()) -> int:
        status: str = await self._conn.execute(numbered(sql), *params)
        count = status.rsplit(" ", 1)[-1]  # "UPDATE 3", "INSERT 0 1", "DELETE 0"
        return int(count) if count.isdigit() else 0

    async def run_many(self, sql: str, rows: Iterable[Params]) -> None:
        await self._conn.executemany(numbered(sql), list(rows))

    async def copy_in(self, table: str, columns: Sequence[str],
                      rows: Sequence[Params]) -> bool:
        await self._conn.copy_records_to_table(table, records=rows, columns=list(columns))
        return True


class PostgresDatabase(Database):
    dialect = "postgres"

    def __init__(self, conn: asyncpg.Connection, url: str) -> None:
        super().__init__(_Session(conn), masked(url))
        self._conn = conn

    @classmethod
    async def open(cls, url: str, *, timeout_s: float = CONNECT_TIMEOUT_S
                   ) -> PostgresDatabase:
        """Connect, or raise `DatabaseUnusable` saying in one line what to do."""
        try:
            conn = await asyncpg.connect(url, timeout=timeout_s)
        except Exception as exc:  # what asyncpg raises varies: OSError, its own, ...
            raise unreachable(url, exc) from None  # the cause's text may hold the password
        return cls(conn, url)

    @property
    def connection(self) -> asyncpg.Connection:
        return self._conn

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Session]:
        async with self._lock:
            try:
                async with self._conn.transaction():
                    yield self._session
            except asyncpg.PostgresError as exc:
                raise _told(exc) from exc

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Session]:
        async with self._lock, self._conn.transaction(isolation="repeatable_read",
                                                      readonly=True):
            yield self._session

    async def write_at_once(self, work: Work[T], *args: Any) -> T:
        async with self.write() as session:
            return await work(session, *args)

    async def run_alone(self, sql: str, params: Params = ()) -> int:
        """The statement outside any transaction block: PostgreSQL commits it alone, in
        one round trip (a transaction block is three)."""
        async with self._lock:
            try:
                return await self._session.run(sql, params)
            except asyncpg.PostgresError as exc:
                raise _told(exc) from exc

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()


def _told(exc: asyncpg.PostgresError) -> StoreError:
    """A PostgreSQL error as the store tells it: a broken constraint (class 23) or a
    value the column refuses (class 22: bad JSON, out of range) is a `ConstraintError`.
    Only the first line is told: PostgreSQL's DETAIL repeats the row, and a hand's row
    holds its wall and salt, which no message may show."""
    message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError | asyncpg.DataError):
        return ConstraintError(message)
    return StoreError(f"database write failed: {message}")


def unreachable(url: str, exc: BaseException) -> DatabaseUnusable:
    """Why the server at ``url`` cannot be used, in one line without its password."""
    parts = _parts(url)
    where = f"the PostgreSQL server at {parts.hostname or 'localhost'}:{parts.port or 5432}"
    name = parts.path.lstrip("/") or parts.username or "postgres"
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        problem = (f"the database {name!r} does not exist on {where}: create it "
                   f"(createdb {name}) or fix DATABASE_URL")
    elif isinstance(exc, asyncpg.InvalidPasswordError
                    | asyncpg.InvalidAuthorizationSpecificationError):
        problem = (f"{where} refused the user {parts.username!r} (wrong password, no such "
                   "user, or not allowed by pg_hba.conf): fix DATABASE_URL or the server's "
                   "access rules")
    elif isinstance(exc, OSError | asyncio.TimeoutError):
        problem = (f"{where} cannot be reached ({type(exc).__name__}: {exc}): start it, "
                   "or fix the host and port in DATABASE_URL")
    else:
        problem = f"{where} cannot be used ({type(exc).__name__}: {exc}): check DATABASE_URL"
    return DatabaseUnusable(masked(url), _scrub(problem, url))


def _parts(url: str) -> SplitResult:
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018  # a malformed port raises here
    except ValueError:
        return urlsplit(url.split("@", 1)[0].rsplit(":", 1)[0] + "/")
    return parts


# ---- migrations --------------------------------------------------------------------


async def apply_migrations(conn: asyncpg.Connection,
                           migrations: Sequence[Migration] | None = None,
                           *, clock: Callable[[], float] = time.time) -> list[int]:
    """Bring the database up to the newest PostgreSQL migration; return those applied.

    As on SQLite, each file runs in one transaction with its schema_version row, so a
    failure leaves the database at the previous version. Two bots starting at once
    take turns on an advisory lock: the second finds the files applied.
    """
    todo = list(migrations) if migrations is not None else load_migrations(dialect="postgres")
    await conn.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
    try:
        await conn.execute(_VERSION_TABLE)
        current = await schema_version(conn)
        applied = []
        for migration in still_to_apply(todo, current):
            await _apply_one(conn, migration, clock())
            applied.append(migration.version)
        return applied
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)


async def schema_version(conn: asyncpg.Connection) -> int:
    """The highest applied migration, 0 for an empty database."""
    if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


async def _apply_one(conn: asyncpg.Connection, migration: Migration, now: float) -> None:
    try:
        async with conn.transaction():
            await conn.execute(migration.sql)  # the whole file: plpgsql bodies hold ";"
            await conn.execute("INSERT INTO schema_version (version, name, applied_at)"
                               " VALUES ($1, $2, $3)", migration.version, migration.name, now)
    except asyncpg.PostgresError as exc:
        raise MigrationError(f"migration {migration.name} failed: {exc}") from exc
    log.info("applied migration %s (PostgreSQL)", migration.name)


async def open_migrated(url: str, migrations: Sequence[Migration] | None = None
                        ) -> PostgresDatabase:
    """Connect and bring the schema up to date (the connection closed if that fails)."""
    db = await PostgresDatabase.open(url)
    try:
        await apply_migrations(db.connection, migrations)
    except BaseException:
        await db.close()
        raise
    return db
