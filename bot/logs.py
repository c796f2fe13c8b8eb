"""The bot's logging: a log never holds a wall, a salt before its reveal or a concealed
tile, whatever ``LOG_LEVEL`` says (DESIGN.md, Fairness and secrecy).

Our own code never logs those. Two libraries do at DEBUG: aiosqlite prints every
statement with its parameters (the walls and salts the store writes) and discord.py
prints request and response bodies (the DM texts with a player's hand) and gateway
events (an interaction carries the message it was clicked on, the hand's discard menu
included). Their DEBUG is therefore never let through, even with ``LOG_LEVEL=DEBUG``:
the loggers are held at INFO, and the bot's handler drops any DEBUG record from them
should something lower a logger's level again.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

TALKATIVE = ("aiosqlite", "asyncpg", "discord")
"""Libraries whose DEBUG records carry what the bot stores or sends."""


def _from_talkative(name: str) -> bool:
    return any(name == lib or name.startswith(lib + ".") for lib in TALKATIVE)


class NoLibraryDebug(logging.Filter):
    """Drops the DEBUG records of `TALKATIVE` libraries."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= logging.INFO or not _from_talkative(record.name)


class BotHandler(logging.StreamHandler[TextIO]):
    """The handler `configure_logging` adds: known by its class, so configuring again
    replaces it instead of writing every line twice (or to a stream closed meanwhile)."""


def configure_logging(level: int, stream: TextIO | None = None) -> logging.Handler:
    """Log at ``level`` to ``stream`` (stdout by default); returns the handler added."""
    handler = BotHandler(stream or sys.stdout)
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.addFilter(NoLibraryDebug())
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, BotHandler)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in TALKATIVE:
        logging.getLogger(name).setLevel(max(level, logging.INFO))
    return handler
