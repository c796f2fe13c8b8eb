"""The bot's logging: a log never holds a wall, a salt before its reveal or a concealed
tile, whatever ``LOG_LEVEL`` says (DESIGN.md, Fairness and secrecy).

Our own code never logs those. Two libraries do at DEBUG: aiosqlite prints every
statement with its parameters (the walls and salts the store writes) and discord.py
prints request and response bodies (the DM texts with a player's hand) and gateway
events (an interaction carries the message it was clicked on, the hand's discard menu
included). Their DEBUG is therefore never let through, even with ``LOG_LEVEL=DEBUG``:
the loggers are held at INFO, and the bot's handler drops any DEBUG record from them
should something lower a logger's level again.

One line per event, whatever happens in it: ``LOG_FORMAT=text`` (the default) writes
``time level logger: message``, a traceback folded onto the same line (`OneLine`);
``LOG_FORMAT=json`` writes one JSON object per line (`JsonLines`: ``time`` as ISO 8601
UTC, ``level``, ``logger``, ``message``, and ``exception`` when there is one), for a
log shipper to read without parsing words.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
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


class OneLine(logging.Formatter):
    """`FORMAT`, a traceback (or any newline in a message) folded onto the line as
    `` | ``: a log reader counts one line per event."""

    def format(self, record: logging.LogRecord) -> str:
        return " | ".join(part for part in super().format(record).splitlines() if part)


class JsonLines(logging.Formatter):
    """One JSON object per event, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        event: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname, "logger": record.name,
            "message": record.getMessage()}
        if record.exc_info:
            event["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            event["stack"] = self.formatStack(record.stack_info)
        return json.dumps(event, ensure_ascii=False, default=str)


class BotHandler(logging.StreamHandler[TextIO]):
    """The handler `configure_logging` adds: known by its class, so configuring again
    replaces it instead of writing every line twice (or to a stream closed meanwhile)."""


def configure_logging(level: int, stream: TextIO | None = None, *,
                      json_lines: bool = False) -> logging.Handler:
    """Log at ``level`` to ``stream`` (stdout by default), one line per event (JSON
    objects with ``json_lines``); returns the handler added."""
    handler = BotHandler(stream or sys.stdout)
    handler.setFormatter(JsonLines() if json_lines else OneLine(FORMAT))
    handler.addFilter(NoLibraryDebug())
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, BotHandler)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in TALKATIVE:
        logging.getLogger(name).setLevel(max(level, logging.INFO))
    return handler
