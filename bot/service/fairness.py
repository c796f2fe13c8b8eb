"""The deal players can check (DESIGN.md, Fairness): a wall shuffled with `secrets`,
dice rolled with `secrets`, and a SHA-256 commitment of salt + wall shown before play.
"""

from __future__ import annotations

import hashlib
import secrets
from array import array
from collections.abc import Sequence
from dataclasses import dataclass

from engine.tiles import Tile, full_set, tile_from_notation

_BY_CODE: dict[int, Tile] = {array("H", t.notation.encode("ascii"))[0]: t for t in Tile}
"""Every tile by its two characters read as one 16-bit number: a wall is parsed by a
look-up per tile, with no string made for it (a rebuild parses one per live table)."""

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
    if isinstance(text, str) and len(text) % 2 == 0:
        try:
            return tuple(map(_BY_CODE.__getitem__, array("H", text.encode("ascii"))))
        except (KeyError, UnicodeEncodeError):
            pass
    # say which part is wrong, as one tile's parse does
    return tuple(tile_from_notation(text[i:i + 2]) for i in range(0, len(text), 2))


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
