"""``mahjong-bot copy-database``: move a bot's SQLite database into PostgreSQL.

    mahjong-bot copy-database [--from ./mahjong.sqlite3] [--to postgresql://…] [--replace]

``--from`` defaults to DATABASE_PATH and ``--to`` to DATABASE_URL (environment or
``.env``). Stop the bot first: a move made during the copy would not be in it.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.config import Config, ConfigError


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="mahjong-bot copy-database",
        description="Copy the bot's SQLite database into an empty PostgreSQL database "
                    "(stop the bot first).")
    parser.add_argument("--from", dest="source", default=None,
                        help="the SQLite file (default: DATABASE_PATH, ./mahjong.sqlite3)")
    parser.add_argument("--to", dest="target", default=None,
                        help="postgresql://user:password@host/db (default: DATABASE_URL)")
    parser.add_argument("--replace", action="store_true",
                        help="delete what the target already holds first")
    args = parser.parse_args(argv)
    try:
        config = Config.from_env()
    except ConfigError as exc:
        sys.stderr.write(f"mahjong-bot: {exc}\n")
        return 2
    target = args.target or config.database_url
    if not target:
        sys.stderr.write("mahjong-bot: say where to copy to: --to postgresql://user:password"
                         "@host/db (or set DATABASE_URL)\n")
        return 2
    return asyncio.run(_copy(args.source or str(config.database_path), target, args.replace))


async def _copy(source: str, target: str, replace: bool) -> int:
    from bot.store import StoreError
    from bot.store.copy import copy_database

    try:
        await copy_database(source, target, replace=replace,
                            say=lambda line: print(line, flush=True))
    except StoreError as exc:
        sys.stderr.write(f"mahjong-bot: {exc}\n")
        return 2
    return 0
