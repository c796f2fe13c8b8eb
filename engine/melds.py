"""Melds laid down in front of a player (chi, pong, the three kongs)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.tiles import Tile, format_tiles


class MeldKind(Enum):
    CHI = "chi"
    PONG = "pong"
    KONG = "kong"
    """An exposed kong claimed from a discard (明杠 / 直杠)."""
    ADDED_KONG = "added_kong"
    """A kong made by adding the fourth tile to one's own pong (加杠 / 上杠)."""
    CONCEALED_KONG = "concealed_kong"

    @property
    def is_kong(self) -> bool:
        return self in (MeldKind.KONG, MeldKind.ADDED_KONG, MeldKind.CONCEALED_KONG)

    @property
    def is_claim(self) -> bool:
        """A meld made by claiming another player's discard (one 摊 / one 口)."""
        return self in (MeldKind.CHI, MeldKind.PONG, MeldKind.KONG)

    @property
    def size(self) -> int:
        return 4 if self.is_kong else 3


@dataclass(frozen=True)
class Meld:
    """A meld as laid down.

    ``tiles`` are the physical tiles (a Hangzhou 财神 stays a 财神 here);
    ``face`` is the tile the meld is made of (the lowest of a chow) once wildcards
    are resolved. ``from_seat`` is whose discard was claimed (None for a concealed
    kong); ``claimed`` is the claimed tile, when known.
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    face: Tile
    from_seat: int | None = None
    claimed: Tile | None = None

    @property
    def is_concealed(self) -> bool:
        return self.kind is MeldKind.CONCEALED_KONG

    @property
    def is_pung_like(self) -> bool:
        return self.kind is not MeldKind.CHI

    @property
    def notation(self) -> str:
        return format_tiles(self.tiles)

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.notation}"
