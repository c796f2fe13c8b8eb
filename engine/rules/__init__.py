"""The rule sets. A rule change touches one module here; everything else asks `get`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.analysis import NO_WILDCARDS, ShapeRules, Wildcards
from engine.rules import hangzhou, shanghai
from engine.rules.common import (
    OptionError,
    Pattern,
    RuleError,
    Settlement,
    TableOptions,
    WinContext,
)
from engine.tiles import Tile


@dataclass(frozen=True)
class RuleSet:
    """A rule set as the rest of the engine sees it."""

    name: str
    zh: str
    options_type: type[TableOptions]
    patterns: Mapping[str, Pattern]
    shapes: ShapeRules
    has_flowers: bool
    _score: Callable[[Any, Any], Settlement]
    _wildcards: Callable[[Any, Tile | None], Wildcards]

    def options(self, data: Mapping[str, Any] | None = None) -> TableOptions:
        """Validated options; unknown names and bad values raise OptionError."""
        return self.options_type.from_dict(data)

    def score(self, ctx: WinContext, options: TableOptions | None = None) -> Settlement:
        return self._score(ctx, options or self.options_type())

    def wildcards(self, options: TableOptions, flipped: Tile | None = None) -> Wildcards:
        return self._wildcards(options, flipped)


def _no_wildcards(_options: Any, flipped: Tile | None) -> Wildcards:
    if flipped is not None:
        raise RuleError("Shanghai has no 财神: 'flipped' is a Hangzhou flip-mode setting")
    return NO_WILDCARDS


SHANGHAI = RuleSet("shanghai", "上海", shanghai.Options, shanghai.PATTERNS, shanghai.SHAPES,
                   True, shanghai.score, _no_wildcards)
HANGZHOU = RuleSet("hangzhou", "杭州", hangzhou.Options, hangzhou.PATTERNS, hangzhou.SHAPES,
                   False, hangzhou.score, hangzhou.wildcards)
RULESETS: dict[str, RuleSet] = {r.name: r for r in (SHANGHAI, HANGZHOU)}


def get(name: str) -> RuleSet:
    try:
        return RULESETS[name]
    except KeyError:
        raise OptionError(f"unknown rules {name!r}: choose "
                          + " or ".join(repr(n) for n in RULESETS)) from None


__all__ = ["HANGZHOU", "RULESETS", "SHANGHAI", "OptionError", "RuleError", "RuleSet",
           "Settlement", "WinContext", "get"]
