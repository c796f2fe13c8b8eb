"""Values shared by the store tests."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

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
