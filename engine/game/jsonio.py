"""Plain-JSON forms of engine values (tiles in notation, enums by value, fractions as
numbers), for events, results and logs."""

from __future__ import annotations

import dataclasses
from enum import Enum
from fractions import Fraction
from typing import Any

from engine.melds import Meld
from engine.rules.common import number
from engine.tiles import Tile


def to_json(value: Any) -> Any:
    """Recursively turn a dataclass/enum/tile/fraction structure into JSON values."""
    if isinstance(value, Tile):
        return value.notation
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Fraction):
        return number(value)
    if isinstance(value, Meld):
        return _meld(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if hasattr(value, "to_json") and not _is_plain(value):
            return value.to_json()
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted(to_json(v) for v in value)
    return value


def _is_plain(value: Any) -> bool:
    # Events define to_json by calling this module: avoid recursing into them.
    return getattr(type(value), "_plain_json", False)


def _meld(meld: Meld) -> dict[str, Any]:
    out: dict[str, Any] = {"type": meld.kind.value,
                           "tiles": "".join(t.notation for t in meld.tiles),
                           "face": meld.face.notation}
    if meld.from_seat is not None:
        out["from"] = meld.from_seat
    if meld.claimed is not None:
        out["claimed"] = meld.claimed.notation
    return out
