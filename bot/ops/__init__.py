"""The admin's commands beside the bot itself (issue 34), each in its own module, each
a ``main(argv) -> exit code`` that `bot.__main__` hands its arguments to:

- `bot.ops.status`: ``mahjong-bot status``, how the bot is doing, from the database
  alone; non-zero when something is stuck (for cron or a health check).
- `bot.ops.upgrade`: ``mahjong-bot migrate [--check]``, the migrations a start would
  apply (listed, or applied now).
- `bot.ops.backup`: ``mahjong-bot backup --to FILE`` and ``restore --from FILE``
  (SQLite; PostgreSQL's own tools for PostgreSQL).

Each reads the database from DATABASE_PATH / DATABASE_URL (environment or ``.env``) or
from ``--db``; what it cannot do it says in one line, exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.config import Config, ConfigError

CANNOT = 2
"""The exit code of a command that could not do its work (as the bot's own refusals)."""


def add_database(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", default=None, metavar="PATH_OR_URL",
                        help="the database (default: DATABASE_URL, else DATABASE_PATH, "
                             "else ./mahjong.sqlite3)")


def database_of(args: argparse.Namespace, prog: str) -> Path | str | None:
    """The database the command works on: ``--db`` (a SQLite path, ``sqlite:///…`` or a
    PostgreSQL URL), else the configuration's; None when the configuration is bad
    (said on stderr)."""
    given: str | None = args.db
    try:
        if given is not None:
            key = "DATABASE_URL" if "://" in given else "DATABASE_PATH"
            return Config.from_env({key: given}, env_file=None).database
        return Config.from_env().database
    except ConfigError as exc:
        sys.stderr.write(f"{prog}: {exc}\n")
        return None


def say_error(prog: str, text: object) -> int:
    sys.stderr.write(f"{prog}: {text}\n")
    return CANNOT
