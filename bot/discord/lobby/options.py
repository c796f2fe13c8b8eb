"""The options of ``/mahjong new``: one spec per table option, with its Discord shape.

One slash command serves both rule sets, so each option says which rule sets have it;
`table_options` turns what the user filled in into the dict the engine validates
(unset options keep the rules page's defaults, an option of the other rule set is
refused with a clear message). The cog applies the specs with the ``*_kwargs``
helpers, e.g.::

    @group.command(name=ls("cmd.new.name"), description=ls("cmd.new.desc"))
    @app_commands.rename(**rename_kwargs())
    @app_commands.describe(**describe_kwargs())
    @app_commands.choices(**choices_kwargs())
    async def new(interaction, rules: str, hands: app_commands.Range[int, 1, 64] | None = None,
                  ...)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from discord import app_commands

from bot.discord.core.i18n import LocaleLike, ls, t
from engine.rules import RULESETS
from engine.rules.common import TableOptions

BOTH = frozenset(RULESETS)
"""Every rule set: the options all tables have."""

TURN_TIMERS = (30, 60, 120, 300, 900, 1800, 3600, 2 * 3600, 4 * 3600, 8 * 3600,
               12 * 3600, 24 * 3600, 48 * 3600)
"""Turn timer choices: 30 s for live play up to two days (default 12 h)."""
CLAIM_TIMERS = (15, 30, 60, 120, 300, 900, 1800, 3600, 2 * 3600, 4 * 3600, 8 * 3600,
                12 * 3600)
"""Claim timer choices: 15 s up to half a day (default 2 h)."""


@dataclass(frozen=True)
class Choice:
    """One choice: its value, and the string key (with fields) naming it."""

    value: int | str
    key: str
    fields: tuple[tuple[str, Any], ...] = ()
    default: bool = False

    def name(self, locale: LocaleLike) -> str:
        text = t(self.key, locale, **dict(self.fields))
        return t("choice.default", locale, name=text) if self.default else text

    def app_choice(self) -> app_commands.Choice[Any]:
        """The discord.py choice; its name is translated by `MahjongTranslator`."""
        name = ls(self.key, **dict(self.fields))
        if self.default:
            name = ls("choice.default", name=name)
        return app_commands.Choice(name=name, value=self.value)


@dataclass(frozen=True)
class OptionSpec:
    """A table option as an option of ``/mahjong new``."""

    name: str
    """The engine's option name; also the parameter's English name."""
    type: Literal["str", "int", "bool"]
    rules: frozenset[str]
    default: Any
    choices: tuple[Choice, ...] = ()
    min_value: int | None = None
    max_value: int | None = None


def _rules_with(name: str) -> frozenset[str]:
    """The rule sets whose table options include ``name``: an option belongs where the
    rule set's options type has it, so a new option is declared in one rule module."""
    return frozenset(r.name for r in RULESETS.values()
                     if name in r.options_type.__dataclass_fields__)


def _options_with(name: str) -> type[TableOptions]:
    return next(r.options_type for r in RULESETS.values()
                if name in r.options_type.__dataclass_fields__)


def _ranged(name: str) -> OptionSpec:
    opts = _options_with(name)
    low, high = opts.RANGES[name]
    return OptionSpec(name, "int", _rules_with(name), _default(opts, name),
                      min_value=low, max_value=high)


def _default(opts: type[TableOptions], name: str) -> Any:
    return opts.__dataclass_fields__[name].default


def duration_parts(seconds: int) -> tuple[str, int]:
    """The largest whole unit of a duration: (string key, count)."""
    for key, size in (("dur.d", 86400), ("dur.h", 3600), ("dur.min", 60)):
        if seconds >= size and seconds % size == 0:
            return key, seconds // size
    return "dur.s", seconds


def duration(seconds: int, locale: LocaleLike) -> str:
    """A timer as players read it: "30 s", "12 h", "2 小时"."""
    key, n = duration_parts(seconds)
    return t(key, locale, n=n)


def _timer(name: str, values: tuple[int, ...]) -> OptionSpec:
    default = _default(TableOptions, name)
    choices = tuple(Choice(v, duration_parts(v)[0], (("n", duration_parts(v)[1]),),
                           default=v == default) for v in values)
    return OptionSpec(name, "int", BOTH, default, choices)


def _specs() -> tuple[OptionSpec, ...]:
    rules = OptionSpec("rules", "str", BOTH, None, tuple(
        Choice(name, f"choice.rules.{name}") for name in RULESETS))
    caishen = OptionSpec("caishen", "str", _rules_with("caishen"), "fixed", (
        Choice("fixed", "choice.caishen.fixed"), Choice("flip", "choice.caishen.flip")))
    base = OptionSpec("base", "int", BOTH, 1, min_value=1,
                      max_value=max(r.options_type.RANGES["base"][1]
                                    for r in RULESETS.values()
                                    if "base" in r.options_type.RANGES))
    mentions = OptionSpec("mentions", "str", BOTH, _default(TableOptions, "mentions"), tuple(
        Choice(v, f"choice.mentions.{v}", default=v == _default(TableOptions, "mentions"))
        for v in TableOptions.CHOICES["mentions"]))
    return (
        rules,
        _ranged("hands"),
        _timer("turn_timer", TURN_TIMERS),
        _timer("claim_timer", CLAIM_TIMERS),
        _ranged("away_after"),
        OptionSpec("away_leaves", "bool", BOTH, False),
        mentions,
        base,
        _ranged("la_cap"),
        _ranged("huangfan_multiplier"),
        caishen,
        OptionSpec("caishen_melds", "bool", _rules_with("caishen_melds"), True),
        _ranged("discard_win_streak"),
        OptionSpec("liability", "bool", _rules_with("liability"), True),
    )


NEW_OPTIONS: tuple[OptionSpec, ...] = _specs()
"""Every option of ``/mahjong new``, ``rules`` first (the only required one)."""
SPECS: dict[str, OptionSpec] = {s.name: s for s in NEW_OPTIONS}


class OptionNotForRules(ValueError):
    """An option of the other rule set was given; ``text(locale)`` says so."""

    def __init__(self, option: str, rules: str) -> None:
        super().__init__(f"option {option!r} is not part of {rules} rules")
        self.option, self.rules = option, rules

    def text(self, locale: LocaleLike) -> str:
        return t("refused.option_not_for_rules", locale, option=self.option,
                 rules=t(f"rules.{self.rules}", locale))


def table_options(rules: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The options dict for the service from the command's arguments.

    None means "not given" (the default applies); ``rules`` itself is left out. The
    engine still validates values (e.g. Hangzhou's base ∈ {1, 2, 3, 5}).
    """
    out: dict[str, Any] = {}
    for name, value in given.items():
        if name == "rules" or value is None:
            continue
        spec = SPECS.get(name)
        if spec is None:
            raise KeyError(f"no option {name!r} in /mahjong new")
        if rules not in spec.rules:
            raise OptionNotForRules(name, rules)
        out[name] = value
    return out


def rename_kwargs() -> dict[str, app_commands.locale_str]:
    """For ``app_commands.rename``: each parameter's localised name."""
    return {s.name: ls(f"param.{s.name}.name") for s in NEW_OPTIONS}


def describe_kwargs() -> dict[str, app_commands.locale_str]:
    """For ``app_commands.describe``: each parameter's localised description."""
    return {s.name: ls(f"param.{s.name}.desc") for s in NEW_OPTIONS}


def choices_kwargs() -> dict[str, list[app_commands.Choice[Any]]]:
    """For ``app_commands.choices``: the options that have fixed choices."""
    return {s.name: [c.app_choice() for c in s.choices] for s in NEW_OPTIONS if s.choices}


def option_value_text(name: str, value: Any, locale: LocaleLike) -> str:
    """One option's value in words: timers as durations, booleans on/off, None as none."""
    if name in ("turn_timer", "claim_timer"):
        return duration(int(value), locale)
    if isinstance(value, bool):
        return t("val.on" if value else "val.off", locale)
    if value is None:
        return t("val.none", locale)
    if name in ("caishen", "mentions"):
        return t(f"val.{name}.{value}", locale)
    return str(value)
