"""``mahjong-bot backup`` and ``mahjong-bot restore``: a SQLite database copied out
while the bot runs, and put back with the bot stopped.

    mahjong-bot backup --to FILE|FOLDER [--db PATH] [--replace]
    mahjong-bot restore --from FILE [--db PATH]

**backup** copies the database with SQLite's online backup API in one step: one read
transaction, so the copy is the database as it was at one commit, whatever the bot
writes meanwhile (WAL: the bot never waits for it). The copy is written beside
``FILE`` first, checked (``PRAGMA quick_check``) and made a plain single file (no WAL
beside it), then renamed into place: ``FILE`` is a whole backup or nothing.

**restore** refuses while a bot holds the database (its lock, as a second bot is
refused) and holds that lock itself meanwhile, so no bot starts half-way. It checks
``FILE`` (a database of this bot, not damaged, not newer than this code), moves the
current database aside (``<database>.before-restore-<time>``: nothing is deleted),
copies ``FILE`` in its place, and marks every decision waiting for a person as owed
its DM: the restored bot sends each a fresh DM with live buttons (the ones players
hold were drawn after the backup, for moves the restore undid), fires the deadlines
and delivers what the backup's outbox owed. The bot's next start brings an older
backup's schema up to date.

PostgreSQL has its own tools, which these commands name instead of running
(`PG_DUMP`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path

from bot.ops import CANNOT, add_database, database_of, say_error

PG_DUMP = """\
{prog}: the database is PostgreSQL (DATABASE_URL): back it up with PostgreSQL's own
tools, which copy it consistently while the bot runs:
    pg_dump --format=custom --file=mahjong.dump "$DATABASE_URL"
and restore it, the bot stopped, into an empty database the bot then uses:
    createdb mahjong_restored
    pg_restore --no-owner --dbname=postgresql://…/mahjong_restored mahjong.dump
(or streaming replication and point-in-time recovery for more; see the README, "Backups")
"""


class Refused(Exception):
    """The command cannot do what was asked; the message says why and what to do."""


def backup_main(argv: list[str]) -> int:
    prog = "mahjong-bot backup"
    parser = argparse.ArgumentParser(
        prog=prog, description="Copy the SQLite database, consistently, while the bot "
                               "runs (PostgreSQL: pg_dump).")
    parser.add_argument("--to", dest="target", required=True, metavar="FILE",
                        help="the backup file to write (a folder: a new file in it, "
                             "named by the time)")
    parser.add_argument("--replace", action="store_true",
                        help="overwrite FILE if it exists")
    args, database = _sqlite_database(parser, argv, prog)
    if isinstance(database, int):
        return database
    target = Path(args.target)
    # a folder (one that exists, or a name ending in /): a new file in it, named by the
    # time (for cron)
    if target.is_dir() or args.target.endswith(("/", os.sep)):
        stamp = datetime.fromtimestamp(time.time(), UTC).strftime("%Y%m%d-%H%M%S")
        target = target / f"{database.stem}-{stamp}.sqlite3"
    try:
        copied = backup(database, target, replace=args.replace)
    except (Refused, OSError, sqlite3.Error) as exc:
        return say_error(prog, exc)
    print(f"backed up {database} to {target} (schema {copied.version}, "
          f"{copied.tables} live table(s), {copied.size / 2**20:.1f} MiB)")
    return 0


def restore_main(argv: list[str]) -> int:
    prog = "mahjong-bot restore"
    parser = argparse.ArgumentParser(
        prog=prog, description="Put a backup in place of the SQLite database (the bot "
                               "stopped; PostgreSQL: pg_restore).")
    parser.add_argument("--from", dest="source", type=Path, required=True, metavar="FILE",
                        help="the backup file (from mahjong-bot backup)")
    args, database = _sqlite_database(parser, argv, prog)
    if isinstance(database, int):
        return database
    from bot.store import StoreError

    try:
        restored = restore(args.source, database)
    except (Refused, StoreError, OSError, sqlite3.Error) as exc:
        return say_error(prog, exc)
    aside = f"; the database it replaced is kept as {restored.aside}" if restored.aside \
        else ""
    print(f"restored {database} from {args.source} (schema {restored.version}, "
          f"{restored.tables} live table(s)){aside}. Start the bot: it carries on every "
          "table from the backup's moment.")
    return 0


def _sqlite_database(parser: argparse.ArgumentParser, argv: list[str], prog: str
                     ) -> tuple[argparse.Namespace, Path | int]:
    """The command's arguments and its SQLite database, or the exit code when there is
    none (a bad configuration, said; PostgreSQL, sent to its own tools)."""
    add_database(parser)
    args = parser.parse_args(argv)
    database = database_of(args, prog)
    if database is None:
        return args, CANNOT
    if isinstance(database, str):
        return args, say_pg(prog)
    return args, database


def say_pg(prog: str) -> int:
    import sys

    sys.stderr.write(PG_DUMP.format(prog=prog))
    return CANNOT


class Copied:
    """What a backup or a restore copied."""

    def __init__(self, version: int, tables: int, size: int, aside: Path | None = None
                 ) -> None:
        self.version, self.tables, self.size, self.aside = version, tables, size, aside


def backup(database: Path, target: Path, *, replace: bool = False) -> Copied:
    """Copy ``database`` to ``target`` (see the module's docstring)."""
    if not database.is_file():
        raise Refused(f"no database at {database} (DATABASE_PATH): nothing to back up")
    if target.exists() and not replace:
        raise Refused(f"{target} exists: name a new file, or add --replace")
    if target.resolve() == database.resolve():
        raise Refused(f"{target} is the database itself: name another file")
    target.parent.mkdir(parents=True, exist_ok=True)  # a dated name in backups/, say
    partial = target.with_name(f"{target.name}.partial")
    _remove(partial)
    source = sqlite3.connect(database, timeout=30)
    try:
        source.execute("PRAGMA busy_timeout = 30000")
        copy = sqlite3.connect(partial, isolation_level=None)
        try:
            source.backup(copy)  # every page in one step: one read transaction
            copied = _checked(copy, partial)
            copy.execute("PRAGMA journal_mode = DELETE")  # one file, no WAL beside it
        finally:
            copy.close()
    finally:
        source.close()
    _sync(partial)
    os.replace(partial, target)
    _sync_folder(target.parent)
    return Copied(copied.version, copied.tables, target.stat().st_size)


def restore(source: Path, database: Path) -> Copied:
    """Put ``source`` in place of ``database`` (see the module's docstring)."""
    from bot.store import DatabaseInUse, ProcessLock

    if not source.is_file():
        raise Refused(f"no backup at {source}")
    if database.exists() and source.resolve() == database.resolve():
        raise Refused(f"{source} is the database itself: name the backup file")
    try:
        lock = ProcessLock.acquire(database)
    except DatabaseInUse as exc:
        raise Refused(f"{exc}. Stop the bot before restoring (systemctl stop "
                      "mahjong-bot), then start it again after") from None
    with lock:
        partial = database.with_name(f"{database.name}.restoring")
        for leftover in ("", "-wal", "-shm"):  # of a restore cut short
            _remove(Path(f"{partial}{leftover}"))
        reader = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
        try:
            copy = sqlite3.connect(partial, isolation_level=None)
            try:
                reader.backup(copy)
                copied = _checked(copy, source)
            finally:
                copy.close()
        except sqlite3.DatabaseError as exc:
            _remove(partial)
            raise Refused(f"{source} is not a usable backup: {exc}") from None
        except Refused:
            _remove(partial)
            raise
        finally:
            reader.close()
        asyncio.run(_owe_fresh_views(partial, copied.version))
        _sync(partial)
        aside = _move_aside(database)
        os.replace(partial, database)
        _sync_folder(database.parent)
    return Copied(copied.version, copied.tables, database.stat().st_size, aside)


async def _owe_fresh_views(path: Path, version: int) -> None:
    from bot.store import Store

    store = await Store.open(path, migrate=False)
    try:
        await store.maintenance.after_restore(version, time.time())
    finally:
        await store.close()


def _checked(copy: sqlite3.Connection, named: Path) -> Copied:
    """The copy's schema and live tables, once SQLite finds it whole and it is a
    database of this bot no newer than this code."""
    from bot.store import load_migrations

    problems = [row[0] for row in copy.execute("PRAGMA quick_check").fetchall()]
    if problems != ["ok"]:
        raise Refused(f"{named} is damaged: {problems[0]}")
    names = {row[0] for row in copy.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not {"schema_version", "game_tables"} <= names:
        raise Refused(f"{named} is not a mahjong-bot database")
    version = int(copy.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version")
                  .fetchone()[0])
    latest = load_migrations()[-1].version
    if version > latest:
        raise Refused(f"{named} was written by a newer bot (schema {version}, this code "
                      f"{latest}): restore it with that version")
    tables = int(copy.execute("SELECT COUNT(*) FROM game_tables WHERE status IN "
                              "('lobby', 'playing')").fetchone()[0])
    return Copied(version, tables, 0)


def _move_aside(database: Path) -> Path | None:
    """The current database and its WAL files renamed together (a WAL pairs with its
    database by name), so nothing of it is lost and nothing of it is read again."""
    if not database.exists():
        for suffix in ("-wal", "-shm"):
            _remove(Path(f"{database}{suffix}"))
        return None
    with contextlib.suppress(sqlite3.Error):  # its WAL into it first: one file to move
        conn = sqlite3.connect(database)
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()
    stamp = datetime.fromtimestamp(time.time(), UTC).strftime("%Y%m%d-%H%M%S")
    aside = database.with_name(f"{database.name}.before-restore-{stamp}")
    for suffix in ("-wal", "-shm", ""):  # the database last: never a database without
        old = Path(f"{database}{suffix}")  # its WAL under the bot's name
        if old.exists():
            os.replace(old, Path(f"{aside}{suffix}"))
    return aside


def _remove(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every system syncs a folder
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
