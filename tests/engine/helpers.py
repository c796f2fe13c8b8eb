"""Building scoring cases in tests."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine.score import score_case


def fractions(*values: int) -> tuple[Fraction, ...]:
    """Whole amounts as the engine gives amounts (a `Fraction` equals its int; mypy's
    strict equality compares the types)."""
    return tuple(Fraction(v) for v in values)


def case(rules: str, hand: str, win_tile: str | None, **fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"name": "t", "rules": rules, "dealer": 0, "winner": 1,
                            "win": "self_draw", "hand": hand}
    if win_tile is not None:
        data["win_tile"] = win_tile
    data.update({("from" if k == "from_" else k): v for k, v in fields.items()})
    return data


def score(rules: str, hand: str, win_tile: str | None, **fields: Any) -> dict[str, Any]:
    return score_case(case(rules, hand, win_tile, **fields))


def sh(hand: str, win_tile: str | None, **fields: Any) -> dict[str, Any]:
    return score("shanghai", hand, win_tile, **fields)


def hz(hand: str, win_tile: str | None, **fields: Any) -> dict[str, Any]:
    return score("hangzhou", hand, win_tile, **fields)


def refused(result: dict[str, Any], *words: str) -> bool:
    reason = (result.get("reason") or "").lower()
    return result["valid"] is False and all(w.lower() in reason for w in words)
