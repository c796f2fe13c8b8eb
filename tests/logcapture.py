"""Capture every log record at DEBUG through the bot's own logging set-up, and look in
it for secrets (tests of bot/logs.py, the service and the bot over the fake Discord)."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from bot.logs import TALKATIVE, configure_logging


@contextmanager
def debug_logs() -> Iterator[io.StringIO]:
    """``LOG_LEVEL=DEBUG`` as the bot sets it up, written to a string; the logging
    state is put back afterwards."""
    root = logging.getLogger()
    saved = (root.level, {n: logging.getLogger(n).level for n in TALKATIVE})
    out = io.StringIO()
    handler = configure_logging(logging.DEBUG, out)
    try:
        yield out
    finally:
        root.removeHandler(handler)
        root.setLevel(saved[0])
        for name, level in saved[1].items():
            logging.getLogger(name).setLevel(level)


def leaks(text: str, secrets: Iterable[str]) -> list[str]:
    """The secrets found in ``text``."""
    return sorted({s for s in secrets if s and s in text})
