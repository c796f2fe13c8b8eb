"""`Store`: the database of the table service, one repository per aggregate.

The SQL is written once, for both backends (`bot.store.database`): SQLite, the
embedded default, and PostgreSQL, for several processes on one database. One
connection per Store, shared by its repositories (`bot.store.repository` lists them,
each in its own module with its own SQL). Writes run in transactions where whatever a
write reads before changing is locked first (SQLite: ``BEGIN IMMEDIATE`` takes the
write lock up front; PostgreSQL: ``FOR UPDATE`` on the rows), so a racing writer waits
instead of deciding on a stale read; an asyncio lock keeps two tasks of this process
from interleaving statements on the shared connection. Any exception inside a write
rolls it back: a failed write changes nothing. Constraint violations surface as
`ConstraintError`, not the driver's errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.store.claim_answers import ClaimAnswers
from bot.store.database import Database
from bot.store.db import DEFAULT_BUSY_TIMEOUT_MS, file_problem, unusable
from bot.store.deadlines import Deadlines
from bot.store.digests import Digests
from bot.store.endings import Endings
from bot.store.errors import MigrationError, StoreError
from bot.store.facts import Facts
from bot.store.hands import Hands
from bot.store.leaderboard import Leaderboard
from bot.store.lobby import Lobby
from bot.store.log import ActionLog
from bot.store.maintenance import Maintenance
from bot.store.matches import Matches
from bot.store.migrate import Migration, apply_migrations
from bot.store.outbox import Outbox
from bot.store.people import People
from bot.store.postgres import PostgresDatabase, is_postgres_url
from bot.store.postgres import open_migrated as _open_postgres
from bot.store.premoves import Premoves
from bot.store.presenter import Presenter
from bot.store.processes import Processes
from bot.store.ratings import Ratings
from bot.store.rebuilds import Rebuilds
from bot.store.recaps import Recaps
from bot.store.seasons import Seasons
from bot.store.sqlite import SqliteDatabase, sqlite_path
from bot.store.stats import Stats


class Store:
    """The database of tables, seats, matches, hands, actions, deadlines and standings:
    opened, migrated and closed here, read and written through its repositories."""

    def __init__(self, db: Database, path: Path | str) -> None:
        """Use `Store.open`; this only wraps an already prepared database."""
        self._db = db
        self.path = path if isinstance(db, SqliteDatabase) else db.target
        """The SQLite file, or the PostgreSQL URL with its password masked."""
        self.lobby = Lobby(db)
        self.matches = Matches(db)
        self.hands = Hands(db)
        self.log = ActionLog(db)
        self.endings = Endings(db, self.log)
        self.rebuilds = Rebuilds(db)
        self.deadlines = Deadlines(db)
        self.outbox = Outbox(db)
        self.processes = Processes(db)
        self.leaderboard = Leaderboard(db)
        self.presenter = Presenter(db)
        self.people = People(db)
        self.digests = Digests(db)
        self.claim_answers = ClaimAnswers(db)
        self.premoves = Premoves(db)
        self.facts = Facts(db)
        self.ratings = Ratings(db)
        self.seasons = Seasons(db)
        self.recaps = Recaps(db)
        self.stats = Stats(db)
        self.maintenance = Maintenance(db)

    @classmethod
    async def open(cls, target: Path | str, *, migrations: Sequence[Migration] | None = None,
                   busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
                   migrate: bool = True) -> Store:
        """Open or create the database and bring its schema up to date: ``target`` is
        a SQLite file (a path, or ``sqlite:///path``) or a ``postgresql://`` URL.
        ``migrate=False`` leaves the schema as it is (`mahjong-bot status`, ``migrate
        --check``: they read what is there, at whatever version)."""
        if is_postgres_url(target):
            if not migrate:
                return cls(await PostgresDatabase.open(str(target)), str(target))
            return cls(await _open_postgres(str(target), migrations), str(target))
        path = sqlite_path(target)
        db = await SqliteDatabase.open(path, busy_timeout_ms=busy_timeout_ms)
        if not migrate:
            return cls(db, path)
        try:
            await apply_migrations(db.connection, migrations)
        except BaseException as exc:
            await db.close()
            # the first reads and writes find a locked, damaged or read-only file too
            cause = exc.__cause__ if isinstance(exc, MigrationError) else exc
            if cause is not None and file_problem(cause):
                raise unusable(path, cause, busy_timeout_ms) from exc
            raise
        return cls(db, path)

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgres"``."""
        return self._db.dialect

    async def close(self) -> None:
        """Close the connection (on SQLite, checkpointing the WAL when it is the last)."""
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def pragma(self, name: str) -> Any:
        """The value of a PRAGMA (for health checks and tests: is WAL really on?)."""
        if self._db.dialect != "sqlite":
            raise StoreError("PRAGMA is SQLite's; this store is on PostgreSQL")
        if not name.isidentifier():
            raise ValueError(f"not a pragma name: {name!r}")
        row = await self._db.one(f"PRAGMA {name}")
        return row[0] if row else None
