"""What every repository of the store shares: the one `Database`, its transactions, the
shared-mode table bump, and a few helpers for writing SQL.

Each aggregate has its own repository, in its own module, with its own SQL (`Store`
puts them together): `bot.store.lobby` (tables, seats, settings, locales),
`bot.store.matches` (matches, dealing, leaving mid-match), `bot.store.hands` (hand
rows), `bot.store.log` (actions and snapshots), `bot.store.endings` (the end of a hand
or a table), `bot.store.rebuilds` (what rebuilding tables reads),
`bot.store.deadlines`, `bot.store.outbox` (announcements), `bot.store.processes`
(heartbeats, table versions), `bot.store.leaderboard`, `bot.store.presenter` (the
presenter's memory), `bot.store.people` (what each person sets for themself),
`bot.store.digests` (the DM owed when someone's quiet hours end), `bot.store.premoves`
(the next discards chosen in advance), `bot.store.facts` (the projection of settled
hands and finished matches that stats and ratings read), `bot.store.ratings` (the
skill ratings made from the finished matches), `bot.store.seasons` (a server's seasons
and archived boards), `bot.store.recaps` (the weekly recaps) and `bot.store.stats` (a
person's figures added up from the facts), and `bot.store.maintenance` (what the
admin's commands read and write: `mahjong-bot status`, ``restore``). A transaction that spans
aggregates is one transaction: the operation's own repository composes the others'
in-session functions (``…_in(session, …)``, module functions that take the caller's
session).

Shared mode's table bump (`TableBump`) is explicit: each write of a table's own state
(a seat, its match, a hand's log, its end, its deadlines) takes the table's ``fence``
(None off shared mode, or outside a command), and its transaction then ends with the
table's bump (`Repository._write`, `Repository._at_once`). Nothing is ambient: a write
not handed a fence bumps nothing.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, TypeVar

from bot.store.database import Database, Params, Session, Work
from bot.store.errors import StaleTable
from bot.store.rows import LIVE_TABLE_STATUSES, Row

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")

LIVE = "(" + ", ".join(f"'{s}'" for s in LIVE_TABLE_STATUSES) + ")"
"""The statuses of a live table, as an SQL list."""
HAND_SELECT = "SELECT h.*, m.table_id FROM hands h JOIN matches m ON m.id = h.match_id"
DEADLINE_SELECT = ("SELECT d.*, m.table_id FROM deadlines d "
                   "JOIN hands h ON h.id = d.hand_id JOIN matches m ON m.id = h.match_id")


def marks(values: Sequence[Any]) -> str:
    """``?, ?, …``, one per value (``NULL`` for none: ``IN (NULL)`` matches nothing)."""
    return ", ".join("?" * len(values)) or "NULL"


def grouped(items: Iterable[V], key: Callable[[V], K]) -> dict[K, list[V]]:
    """Items by key, in the order given."""
    out: dict[K, list[V]] = {}
    for item in items:
        out.setdefault(key(item), []).append(item)
    return out


def locking(db: Session, lock: bool) -> str:
    """``FOR UPDATE`` on PostgreSQL when ``lock`` (`Session.for_update`)."""
    return db.for_update if lock else ""


def skip_locked(db: Session, table: str) -> str:
    """Claims on PostgreSQL: lock the rows taken, skipping those another process's claim
    holds right now (it may commit them as claimed); nothing on SQLite, whose write
    transaction already holds the whole database."""
    return f" FOR UPDATE OF {table} SKIP LOCKED" if db.for_update else ""


def as_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class TableBump:
    """Shared mode: the fence of one table's writes while a command holds its lock
    (`SharedProcess.fenced`): each write handed it (``fence=``) puts the table's change
    counter (``game_tables.version``, 0008) one up inside its own transaction, so a
    command's changes and its bump commit together (no transaction of their own).

    ``known``: the counter as this process last knew it to match its memory; after each
    bump it is the returned value if that is exactly one more, else None (another
    process wrote between: memory can no longer be trusted)."""

    __slots__ = ("armed", "bumps", "expect", "known", "table_id")

    def __init__(self, table_id: int, known: int | None, expect: bool = False) -> None:
        self.table_id = table_id
        self.known = known
        """The counter memory was built at (a reload in the block sets it again)."""
        self.armed = True
        """False once the block is over: a late write handed it bumps nothing."""
        self.bumps = 0
        self.expect = expect and known is not None
        """The next bump is a compare-and-set: it lands only on ``known``, else the
        transaction rolls back with `StaleTable` (memory was not read fresh)."""

    def landed(self, version: int | None) -> None:
        """A bump committed with this value (None: the table is gone)."""
        self.bumps += 1
        self.expect = False
        known = self.known
        self.known = version if known is not None and version == known + 1 else None


async def _bump_in(db: Session, table_id: int, expected: int | None) -> int | None:
    """One more on the table's counter; with ``expected``, only from that value, else
    `StaleTable` (the caller's transaction rolls back)."""
    if expected is None:
        row = await db.one("UPDATE game_tables SET version = version + 1 WHERE id = ?"
                           " RETURNING version", (table_id,))
        return None if row is None else int(row[0])
    row = await db.one("UPDATE game_tables SET version = version + 1 WHERE id = ?"
                       " AND version = ? RETURNING version", (table_id, expected))
    if row is None:
        raise StaleTable(f"table {table_id} changed since version {expected}")
    return int(row[0])


async def _bumped(db: Session, work: Work[T], table_id: int, expected: int | None,
                  *args: Any) -> tuple[T, int | None]:
    """``work`` and the table's bump (`_bump_in`) in the same transaction."""
    done = await work(db, *args)
    return done, await _bump_in(db, table_id, expected)


class Repository:
    """One aggregate's statements over the store's one `Database`."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def _write(self, fence: TableBump | None = None) -> AbstractAsyncContextManager[Session]:
        """One write transaction: committed if the block returns, rolled back if not
        (with the ``fence``'s table bump as its last statement, while it is armed)."""
        if fence is None or not fence.armed:
            return self._db.write()
        return self._bumped_write(fence)

    async def _at_once(self, work: Work[T], *args: Any, fence: TableBump | None = None) -> T:
        """``work`` as one transaction handed to the database whole
        (`Database.write_at_once`), with the ``fence``'s table bump as its last
        statement, as `_write` adds it."""
        bump = fence
        if bump is None or not bump.armed:
            return await self._db.write_at_once(work, *args)
        bumped: tuple[T, int | None] = await self._db.write_at_once(
            _bumped, work, bump.table_id, bump.known if bump.expect else None, *args)
        done, version = bumped
        bump.landed(version)
        return done

    @contextlib.asynccontextmanager
    async def _bumped_write(self, bump: TableBump) -> AsyncIterator[Session]:
        async with self._db.write() as db:
            yield db
            version = await _bump_in(db, bump.table_id, bump.known if bump.expect else None)
        bump.landed(version)  # committed

    async def _one(self, sql: str, params: Params = ()) -> Row | None:
        return await self._db.one(sql, params)

    async def _one_at_once(self, sql: str, params: Params = ()) -> Row | None:
        return await self._db.one_at_once(sql, params)

    async def _all(self, sql: str, params: Params = ()) -> list[Row]:
        return await self._db.all(sql, params)
