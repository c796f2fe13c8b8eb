"""Shared test helpers."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_CASES = ROOT.parent / "shared" / "cases"


@pytest.fixture(autouse=True)
def _logging_as_it_was() -> Iterator[None]:
    """`mahjong-bot`'s main() configures logging for the process; a test that runs it
    must not leave its handler (bound to that test's captured, since closed, stdout)
    to the tests after it."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    libs = {name: logging.getLogger(name).level for name in ("aiosqlite", "discord")}
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, lib_level in libs.items():
        logging.getLogger(name).setLevel(lib_level)
