"""What a database holds, in bytes, and what a finished hand costs of it (issue 32, "a
hand costs its log"): measured from the database alone, so it measures a database made
by any revision of the bot (a bench's baseline run from an older checkout included).

    before = await footprint(target)         # a SQLite file or a PostgreSQL URL
    ...                                      # play hands to their end
    after = await footprint(target)
    print(after.per_hand_since(before))      # database bytes per finished hand

Packed: SQLite's pages in use by tables and indexes (``dbstat``; the free list, which
the next writes reuse, is not counted); PostgreSQL's ``pg_total_relation_size`` of every
table of the schema (its indexes and TOAST included) after ``VACUUM FULL`` (dead rows,
which autovacuum lets the next writes reuse, not counted). A fresh database's own size
(empty tables, PostgreSQL's 8 KiB a relation at least) is the ``before`` subtracted.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

_SQLITE_SIZES = ("SELECT name, SUM(pgsize) FROM dbstat WHERE name NOT LIKE 'sqlite_%'"
                 " GROUP BY name")
_POSTGRES_TABLES = ("SELECT c.relname FROM pg_class c JOIN pg_namespace n"
                    " ON n.oid = c.relnamespace WHERE c.relkind = 'r'"
                    " AND n.nspname = current_schema()")
_POSTGRES_SIZES = ("SELECT c.relname, pg_relation_size(c.oid) + COALESCE(pg_total_relation_size("
                   "NULLIF(c.reltoastrelid, 0)), 0) FROM pg_class c JOIN pg_namespace n"
                   " ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'i')"
                   " AND n.nspname = current_schema()")
_FINISHED = "SELECT COUNT(*) FROM hands WHERE status = 'ended'"


@dataclass(frozen=True)
class Footprint:
    """A database's bytes by table or index (name → bytes) and its finished hands."""

    sizes: MappingProxyType[str, int] = field(default_factory=lambda: MappingProxyType({}))
    hands: int = 0
    """Hands that ended (settled or voided)."""

    @property
    def total(self) -> int:
        return sum(self.sizes.values())

    def per_hand_since(self, before: Footprint) -> float:
        """Bytes the database grew by per hand finished since ``before``."""
        finished = self.hands - before.hands
        if finished <= 0:
            raise ValueError("no hand finished between the two footprints")
        return (self.total - before.total) / finished

    def growth_since(self, before: Footprint) -> dict[str, float]:
        """Each table's or index's growth per finished hand since ``before``, largest
        first (those that did not grow left out)."""
        finished = max(1, self.hands - before.hands)
        grown = {name: (size - before.sizes.get(name, 0)) / finished
                 for name, size in self.sizes.items()}
        return dict(sorted(((n, g) for n, g in grown.items() if g), key=lambda x: -x[1]))


def _of(rows: Any, hands: int) -> Footprint:
    return Footprint(MappingProxyType({str(name): int(size or 0) for name, size in rows}),
                     hands)


def sqlite_footprint(path: Path | str) -> Footprint:
    """A SQLite file's footprint (its own connection: the writer's WAL is read too)."""
    conn = sqlite3.connect(str(path))
    try:
        return _of(conn.execute(_SQLITE_SIZES).fetchall(),
                   int(conn.execute(_FINISHED).fetchone()[0]))
    finally:
        conn.close()


async def postgres_footprint(url: str, *, pack: bool = True) -> Footprint:
    """A PostgreSQL database's footprint (its own connection; ``pack``: VACUUM FULL each
    table first, which locks it while it is rewritten)."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        if pack:
            for r in await conn.fetch(_POSTGRES_TABLES):
                await conn.execute(f'VACUUM FULL "{r[0]}"')
        rows = [(r[0], r[1]) for r in await conn.fetch(_POSTGRES_SIZES)]
        hands = await conn.fetchval(_FINISHED)
        return _of(rows, int(hands))
    finally:
        await conn.close()


async def footprint(target: Path | str, *, pack: bool = True) -> Footprint:
    """The footprint of the database at ``target``: a PostgreSQL URL or a SQLite file."""
    from bot.store.postgres import is_postgres_url

    if is_postgres_url(target):
        return await postgres_footprint(str(target), pack=pack)
    return sqlite_footprint(target)
