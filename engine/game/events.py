"""Events: what happened, in order, as `apply` reports it. The service decides who may
see each one: `private_to` names the only seat allowed to see an event's tiles."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.game.actions import Action
from engine.game.jsonio import to_json
from engine.game.state import HandResult
from engine.melds import Meld
from engine.tiles import Tile


@dataclass(frozen=True)
class Event:
    _plain_json: ClassVar[bool] = True

    @property
    def name(self) -> str:
        return _snake(type(self).__name__)

    @property
    def private_to(self) -> int | None:
        """The one seat that may see this event's tiles; None: everyone may."""
        return None

    def to_json(self) -> dict[str, Any]:
        body = to_json(self)
        return {"event": self.name, **body}


@dataclass(frozen=True)
class HandStarted(Event):
    rules: str
    dealer: int
    dice: tuple[int, int]
    streak: int
    huangfan: bool
    wall_size: int


@dataclass(frozen=True)
class TilesDealt(Event):
    seat: int
    tiles: tuple[Tile, ...]

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True)
class FlowerLaidAside(Event):
    seat: int
    flower: Tile


@dataclass(frozen=True)
class WildcardTurned(Event):
    """Hangzhou flip mode: ``tile`` was turned from the back; its other copies are 财神."""

    tile: Tile


@dataclass(frozen=True)
class TileDrawn(Event):
    seat: int
    tile: Tile
    from_back: bool = False

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True)
class TileBurned(Event):
    """Hangzhou: one more tile left the back of the wall unseen after a kong."""


@dataclass(frozen=True)
class TileDiscarded(Event):
    seat: int
    tile: Tile


@dataclass(frozen=True)
class ClaimWindowOpened(Event):
    tile: Tile
    from_seat: int
    asked: tuple[int, ...]
    rob_kong: bool = False
    last: bool = False


@dataclass(frozen=True)
class ClaimAnswered(Event):
    """A seat's answer. Until the window closes only that seat should see the choice."""

    action: Action

    @property
    def private_to(self) -> int | None:
        return self.action.seat


@dataclass(frozen=True)
class ClaimWindowClosed(Event):
    taken_by: tuple[int, ...] = ()


@dataclass(frozen=True)
class MeldDeclared(Event):
    """A chi, pong or kong laid down (a concealed kong shows four backs to the others)."""

    seat: int
    meld: Meld


@dataclass(frozen=True)
class ConcealedKongDeclared(Event):
    """The public form of a concealed kong's `MeldDeclared`: who declared one, and no
    tile of it (the engine never emits it; the service shows it to everyone else)."""

    seat: int


@dataclass(frozen=True)
class HandEnded(Event):
    result: HandResult


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")
