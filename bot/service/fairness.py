"""The deal players can check (DESIGN.md, Fairness): a wall shuffled with `secrets`,
dice rolled with `secrets`, and a SHA-256 commitment of salt + wall shown before play.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from engine.tiles import Tile, full_set, tile_from_notation

_BY_TEXT: dict[str, Tile] = {t.notation: t for t in Tile}
"""Every tile by its two characters: a wall is parsed by look-ups (a rebuild parses
one per live table)."""

_RANDOM = secrets.SystemRandom()


@dataclass(frozen=True)
class Deal:
    """A fresh wall with its salt and commitment."""

    wall: tuple[Tile, ...]
    salt: str
    commitment: str

    @property
    def wall_text(self) -> str:
        return wall_text(self.wall)


def wall_text(wall: Sequence[Tile]) -> str:
    """The wall in dealing order, two characters a tile ("1m5z2p…")."""
    return "".join(t.notation for t in wall)


def parse_wall(text: str) -> tuple[Tile, ...]:
    """The tiles of a wall text (`wall_text`); `NotationError` naming the first bad
    tile if any part of it is not one."""
    try:
        if len(text) % 2 == 0:
            return tuple(map(_BY_TEXT.__getitem__, _PAIRS.findall(text)))
    except (KeyError, TypeError):
        pass
    # say which part is wrong, as one tile's parse does
    return tuple(tile_from_notation(text[i:i + 2]) for i in range(0, len(text), 2))


_PAIRS = re.compile("..", re.DOTALL)


def commitment(salt: str, wall: str) -> str:
    """SHA-256 of the salt followed by the wall text, as hex: anyone can recompute it
    from the revealed salt and wall."""
    return hashlib.sha256((salt + wall).encode("ascii")).hexdigest()


def shuffle(with_flowers: bool) -> Deal:
    tiles = full_set(with_flowers)
    _RANDOM.shuffle(tiles)
    salt = secrets.token_hex(16)
    text = wall_text(tiles)
    return Deal(tuple(tiles), salt, commitment(salt, text))


def roll_dice() -> tuple[int, int]:
    return (secrets.randbelow(6) + 1, secrets.randbelow(6) + 1)


def first_dealer() -> int:
    return secrets.randbelow(4)


def deal_of(wall: Sequence[Tile]) -> Deal:
    """A given wall (tests, replays) with a fresh salt and its commitment."""
    salt = secrets.token_hex(16)
    return Deal(tuple(wall), salt, commitment(salt, wall_text(wall)))
