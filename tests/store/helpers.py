"""Values shared by the store tests."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import pytest

from bot.store import HandRow, MatchRow, TableRow

WALL = "1m2m3m5z1f2p9s"
SALT = "ab" * 16
COMMITMENT = "0123456789abcdef" * 4
GUILD, CHANNEL = 111, 222


@dataclass(frozen=True)
class Game:
    table: TableRow
    match: MatchRow
    hand: HandRow


NewGame = Callable[..., Awaitable[Game]]

sqlite_only = pytest.mark.parametrize("database", ["sqlite"], indirect=True)
"""For a test of what only SQLite has (its pragmas, its connection's thread): the
``store`` fixture on SQLite alone. Each use says why."""
