"""Actions: the decisions a seat makes, as immutable values with a JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.game.errors import MalformedAction
from engine.refusals import Code, echo
from engine.rules.common import SEATS, ActionKind
from engine.tiles import NotationError, Tile, format_tiles, parse_tiles, tile_from_notation

_TILE_KINDS = frozenset((ActionKind.DISCARD, ActionKind.ADDED_KONG))
_MELD_SIZES = {ActionKind.CHI: 2, ActionKind.PONG: 2, ActionKind.KONG: 3,
               ActionKind.CONCEALED_KONG: 4}


@dataclass(frozen=True)
class Action:
    """One decision of ``seat``.

    ``tile``: the tile discarded, or added to a pong (ADDED_KONG).
    ``tiles``: the tiles taken from the hand for a chi/pong/exposed kong (the claimed
    discard is not among them), or the four tiles of a concealed kong. They are kept
    sorted so that two spellings of one action compare equal. With 财神 the physical
    tiles matter: 3m3m and 3m+财神 are two different pongs.
    """

    kind: ActionKind
    seat: int
    tile: Tile | None = None
    tiles: tuple[Tile, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles)))

    def __str__(self) -> str:
        what = self.tile.notation if self.tile is not None else format_tiles(self.tiles)
        return f"seat {self.seat} {self.kind.value}{' ' + what if what else ''}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value, "seat": self.seat}
        if self.tile is not None:
            out["tile"] = self.tile.notation
        if self.tiles:
            out["tiles"] = format_tiles(self.tiles)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Action:
        """The inverse of `to_json`; anything else raises `MalformedAction`."""
        if not isinstance(data, Mapping):
            raise MalformedAction(Code.ACTION_NOT_OBJECT, type=type(data).__name__)
        unknown = sorted(set(data) - {"kind", "seat", "tile", "tiles"})
        if unknown:
            raise MalformedAction(Code.ACTION_FIELD, field=echo(unknown[0]))
        try:
            kind = ActionKind(data.get("kind"))
        except ValueError:
            raise MalformedAction(Code.ACTION_KIND, value=echo(data.get("kind"))) from None
        seat = data.get("seat")  # refused after bad tiles, as `checked` refuses it
        try:
            tile = tile_from_notation(data["tile"]) if "tile" in data else None
            tiles = tuple(parse_tiles(data["tiles"])) if "tiles" in data else ()
        except NotationError as exc:
            raise MalformedAction(exc.refusal) from None
        return checked(cls(kind, _seat(seat), tile, tiles))


def checked(action: Action) -> Action:
    """Refuse an action whose seat or payload does not fit its kind (MalformedAction)."""
    if not isinstance(action, Action) or not isinstance(action.kind, ActionKind):
        raise MalformedAction(Code.NOT_AN_ACTION, value=echo(action))
    _seat(action.seat)  # a dataclass does not check its field types
    given = action.tiles if action.tile is None else (*action.tiles, action.tile)
    if not all(isinstance(t, Tile) for t in given):
        raise MalformedAction(Code.NOT_TILE_VALUES)
    wants_tile = action.kind in _TILE_KINDS
    if wants_tile != (action.tile is not None):
        raise MalformedAction(Code.TILE_NEEDED if wants_tile else Code.TILE_UNWANTED,
                              kind=action.kind.value)
    size = _MELD_SIZES.get(action.kind, 0)
    if len(action.tiles) != size:
        raise MalformedAction(Code.ACTION_SIZE, kind=action.kind.value, size=size,
                              got=len(action.tiles))
    return action


def _seat(seat: object) -> int:
    """``seat`` as a seat number; anything but a whole number 0–3 is MalformedAction."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise MalformedAction(Code.ACTION_SEAT, value=echo(seat))
    return seat


def discard(seat: int, tile: Tile) -> Action:
    return Action(ActionKind.DISCARD, seat, tile)


def pass_(seat: int) -> Action:
    return Action(ActionKind.PASS, seat)


def win(seat: int) -> Action:
    return Action(ActionKind.WIN, seat)
