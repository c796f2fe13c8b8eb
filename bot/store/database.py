"""The small interface the store speaks SQL through, with one implementation per backend:
SQLite (`bot.store.sqlite`, the embedded default) and PostgreSQL (`bot.store.postgres`).

The store's SQL is written once, in the SQL both understand (``ON CONFLICT … DO
UPDATE/NOTHING``, ``RETURNING``, ``?`` placeholders, which the PostgreSQL side turns
into ``$1, $2, …``). What differs stays in the backends: how a write transaction
starts (SQLite's ``BEGIN IMMEDIATE`` takes the whole database's write lock, PostgreSQL
locks the rows read with `Session.for_update`), how errors are told, and how a whole
transaction is handed over at once (`Database.write_at_once`).
"""

from __future__ import annotations

import asyncio
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from functools import lru_cache
from typing import Any, ClassVar, TypeVar

from bot.store.rows import Row

T = TypeVar("T")
Params = Sequence[Any]


class Session(ABC):
    """Statements on one connection (inside a transaction when a `Database` gives it)."""

    for_update: ClassVar[str] = ""
    """Appended to a SELECT whose rows the transaction goes on to change: " FOR UPDATE"
    on PostgreSQL (so a racing process waits for the commit), nothing on SQLite (whose
    BEGIN IMMEDIATE already holds the whole database's write lock)."""

    @abstractmethod
    async def one(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of a query of one row (by key, or LIMIT 1)."""

    @abstractmethod
    async def all(self, sql: str, params: Params = ()) -> list[Row]: ...

    @abstractmethod
    async def run(self, sql: str, params: Params = ()) -> int:
        """Execute a write; return how many rows it changed."""

    @abstractmethod
    async def run_many(self, sql: str, rows: Iterable[Params]) -> None: ...

    async def copy_in(self, table: str, columns: Sequence[str],
                      rows: Sequence[Params]) -> bool:
        """Append ``rows`` to ``table`` in one bulk transfer (PostgreSQL's COPY): False
        when the database has none (SQLite), nothing written then."""
        return False


Work = Callable[..., Coroutine[Any, Any, T]]
"""A whole transaction: ``async def work(session, *args)`` (see `write_at_once`)."""


class Database(ABC):
    """One connection to one database, used by one `Store`. An asyncio lock keeps two
    tasks of this process from interleaving statements on it."""

    dialect: ClassVar[str]
    target: str
    """What to call it in messages: the SQLite file, or the URL with its password masked."""

    def __init__(self, session: Session, target: str) -> None:
        self._session = session
        self._lock = asyncio.Lock()
        self.target = target

    @abstractmethod
    def write(self) -> AbstractAsyncContextManager[Session]:
        """One write transaction: committed if the block returns, rolled back if not;
        a broken constraint raises `ConstraintError`, any other refusal `StoreError`."""

    @abstractmethod
    def read(self) -> AbstractAsyncContextManager[Session]:
        """One read transaction: every query in it sees the same committed state."""

    @abstractmethod
    async def write_at_once(self, work: Work[T], *args: Any) -> T:
        """``work(session, *args)`` as one write transaction, handed over whole: on
        SQLite in one trip to its connection's thread, instead of one a statement."""

    async def read_at_once(self, work: Work[T], *args: Any) -> T:
        """``work(session, *args)`` as one read transaction (one consistent view),
        handed over whole where the database can (SQLite: on the loop's own connection,
        no trip at all; a cold table's load is a dozen small reads). By default, a
        `read` block."""
        async with self.read() as session:
            return await work(session, *args)

    async def run_alone(self, sql: str, params: Params = ()) -> int:
        """One write statement as a transaction of its own (how many rows it changed),
        in as few trips as the database allows (PostgreSQL: one, no BEGIN and COMMIT
        around it; SQLite: the statement alone in autocommit on the loop's connection
        when it can, else `write_at_once`)."""
        return await self.write_at_once(_run_in, sql, params)

    async def one_at_once(self, sql: str, params: Params = ()) -> Row | None:
        """`one`, for a small query by key on a click's path, handed over whole where
        the database can (SQLite: on the loop's own connection, no trip at all). By
        default, `one`."""
        return await self.one(sql, params)

    async def one(self, sql: str, params: Params = ()) -> Row | None:
        """One query's first row, outside any write."""
        async with self._lock:
            return await self._session.one(sql, params)

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._lock:
            return await self._session.all(sql, params)

    async def execute(self, sql: str, params: Params = ()) -> int:
        """One statement in a transaction of its own (tests, benches, maintenance)."""
        async with self.write() as session:
            return await session.run(sql, params)

    @abstractmethod
    async def close(self) -> None: ...


async def _run_in(db: Session, sql: str, params: Params) -> int:
    return await db.run(sql, params)


def drive(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never suspends (all its awaits are answered at once, as by
    a `Session` over a plain sqlite3 connection) to its end, in the calling thread."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        value: T = done.value
        return value
    coroutine.close()
    raise RuntimeError("a transaction run at once awaited something else than its session")


_QUOTED = re.compile(r"('(?:[^']|'')*'|\"(?:[^\"]|\"\")*\")")


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, …`` (never inside quotes)."""
    pieces = _QUOTED.split(sql)
    count = 0
    for i in range(0, len(pieces), 2):  # the even pieces are outside quotes
        out = []
        for char in pieces[i]:
            if char == "?":
                count += 1
                out.append(f"${count}")
            else:
                out.append(char)
        pieces[i] = "".join(out)
    return "".join(pieces)
