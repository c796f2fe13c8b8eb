"""``mahjong-bot migrate``: the schema upgrades a start of this code would apply.

    mahjong-bot migrate --check [--db PATH_OR_URL]   # list them, change nothing
    mahjong-bot migrate [--db PATH_OR_URL]           # apply them now (bot stopped)

The bot applies them itself at start-up, forward only (numbered files, one transaction
each, both backends); ``migrate`` is for seeing, or doing, that step on its own.
``--check`` exits 0 when the database is up to date, 1 when migrations would run, 2
when the database cannot be read or is newer than this code. Applying needs the bot
stopped: on SQLite the bot's lock is taken (refused while a bot holds it); on
PostgreSQL it is refused while any bot process's heartbeat is fresh.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

from bot.ops import CANNOT, add_database, database_of, say_error

PROG = "mahjong-bot migrate"
ALIVE_WITHIN = 60.0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog=PROG, description="The migrations a start would apply: listed (--check) or "
                               "applied now (the bot stopped).")
    add_database(parser)
    parser.add_argument("--check", action="store_true",
                        help="list them and change nothing (exit 1 when some would run)")
    args = parser.parse_args(argv)
    database = database_of(args, PROG)
    if database is None:
        return CANNOT
    if isinstance(database, Path) and not database.is_file():
        if args.check:
            print(f"no database at {database} yet: the bot's first start creates it "
                  "with every migration")
            return 1
        return say_error(PROG, f"no database at {database} (DATABASE_PATH): the bot's "
                               "first start creates it")
    from bot.store import StoreError

    try:
        return asyncio.run(_check(database) if args.check else _apply(database))
    except StoreError as exc:
        return say_error(PROG, exc)


async def pending(database: Path | str) -> tuple[int, list[str]]:
    """The database's schema version and the names of the migrations after it."""
    from bot.store import SchemaTooNew, Store, load_migrations
    from bot.store.migrate import still_to_apply

    store = await Store.open(database, migrate=False)
    try:
        version = await store.maintenance.schema_version()
        todo = load_migrations(dialect="postgres" if store.dialect == "postgres"
                               else "sqlite")
    finally:
        await store.close()
    if version > todo[-1].version:
        raise SchemaTooNew(version, todo[-1].version)
    return version, [m.name for m in still_to_apply(todo, version)]


async def _check(database: Path | str) -> int:
    version, names = await pending(database)
    if not names:
        print(f"schema {version}: up to date, nothing to apply")
        return 0
    print(f"schema {version}: {len(names)} migration(s) to apply, in this order "
          "(the bot applies them at its next start, or mahjong-bot migrate now):")
    for name in names:
        print(f"  {name}")
    return 1


async def _apply(database: Path | str) -> int:
    from bot.store import ProcessLock, Store

    version, names = await pending(database)
    if not names:
        print(f"schema {version}: up to date, nothing to apply")
        return 0
    if isinstance(database, str):
        store = await Store.open(database, migrate=False)
        try:
            alive = await store.processes.seen(time.time() - ALIVE_WITHIN, besides="") \
                if version >= 10 else []
        finally:
            await store.close()
        if alive:
            return say_error(PROG, f"{len(alive)} bot process(es) run on this database: "
                                   "stop them first (or just start the new version: it "
                                   "migrates at start-up)")
        store = await Store.open(database)
        await store.close()
    else:
        with ProcessLock.acquire(database):
            store = await Store.open(database)
            await store.close()
    print(f"schema {version}: applied {', '.join(names)}")
    return 0
