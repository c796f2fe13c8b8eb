"""The options of ``/mahjong new``: one spec per table option, with its Discord shape.

One slash command serves every registered rule set, so each option says which rule sets
have it; `table_options` turns what the user filled in into the dict the engine
validates (unset options keep the rules page's defaults, an option of another rule set
is refused with a clear message). The specs are derived from the registry
(`engine.rules`): the options every table has (`TableOptions`), then each rule set's
own, their type, default, range and choices read from its options class, their words
from the rule set (`bot.discord.core.i18n.rule_set_words`). The command is built from
them when the command tree is (`parameters`, and the ``*_kwargs`` helpers for
``app_commands.rename/describe/choices``), so a rule set registered before the bot
starts is offered with its options.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from discord import app_commands

from bot.discord.core.i18n import LocaleLike, has, ls, t
from engine import rules as rulesets
from engine.rules.common import TableOptions
from engine.rules.ruleset import RuleSet

TURN_TIMERS = (30, 60, 120, 300, 900, 1800, 3600, 2 * 3600, 4 * 3600, 8 * 3600,
               12 * 3600, 24 * 3600, 48 * 3600)
"""Turn timer choices: 30 s for live play up to two days (default 12 h)."""
CLAIM_TIMERS = (15, 30, 60, 120, 300, 900, 1800, 3600, 2 * 3600, 4 * 3600, 8 * 3600,
                12 * 3600)
"""Claim timer choices: 15 s up to half a day (default 2 h)."""
TIME_BANKS = (0, 600, 1800, 3600, 2 * 3600, 4 * 3600, 8 * 3600, 12 * 3600, 24 * 3600,
              48 * 3600)
"""Time bank choices (seconds per seat per hand): off (the default) up to two days."""
BANK_ADDS = (0, 60, 300, 600, 1800, 3600, 2 * 3600, 4 * 3600)
"""What a seat's own move gives back to its bank: nothing (the default) up to 4 h."""
DURATIONS = ("turn_timer", "claim_timer", "time_bank", "time_bank_add")
"""The options whose values are lengths of time (said as durations; 0 is "off")."""


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

    def annotation(self) -> Any:
        """The type of its parameter in the command: optional but for ``rules``, a
        whole number within its range unless it has choices."""
        kind: Any = {"str": str, "bool": bool, "int": int}[self.type]
        if self.type == "int" and not self.choices and self.min_value is not None:
            kind = app_commands.Range[int, self.min_value, self.max_value]
        return kind if self.name == "rules" else kind | None

    def parameter(self) -> inspect.Parameter:
        """Its parameter in the command's callback signature."""
        return inspect.Parameter(
            self.name, inspect.Parameter.KEYWORD_ONLY, annotation=self.annotation(),
            **({} if self.name == "rules" else {"default": None}))


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


def span(seconds: float, locale: LocaleLike) -> str:
    """A length of time left, as players read it, to the minute: "45 s", "1 h 20 min",
    "2 d 3 h" (at most its two largest units; under a minute, in seconds)."""
    whole = max(0, round(seconds))
    if whole < 60:
        return t("dur.s", locale, n=whole)
    minutes = whole // 60
    parts = [(key, n) for key, n in (("dur.d", minutes // 1440), ("dur.h", minutes // 60 % 24),
                                     ("dur.min", minutes % 60)) if n]
    return " ".join(t(key, locale, n=n) for key, n in parts[:2])


def _default(opts: type[TableOptions], name: str) -> Any:
    return opts.__dataclass_fields__[name].default


def _timer(name: str, values: tuple[int, ...], every: frozenset[str]) -> OptionSpec:
    default = _default(TableOptions, name)
    choices = tuple(Choice(v, "val.off", default=v == default) if v == 0 else
                    Choice(v, duration_parts(v)[0], (("n", duration_parts(v)[1]),),
                           default=v == default) for v in values)
    return OptionSpec(name, "int", every, default, choices)


def _common_range(name: str, every: frozenset[str]) -> OptionSpec:
    low, high = TableOptions.RANGES[name]
    return OptionSpec(name, "int", every, _default(TableOptions, name), min_value=low,
                      max_value=high)


def _own(name: str, having: list[RuleSet]) -> OptionSpec:
    """A rule set's own option, from every rule set having it (the first one's default;
    the ranges and choices of all)."""
    rules = frozenset(r.name for r in having)
    first = having[0].options_type
    default = _default(first, name)
    if isinstance(default, bool):
        return OptionSpec(name, "bool", rules, default)
    values = [v for r in having for v in r.options_type._choices().get(name, ())]
    if values and all(isinstance(v, str) for v in values):
        return OptionSpec(name, "str", rules, default, tuple(
            Choice(v, f"choice.{name}.{v}", default=v == default) for v in dict.fromkeys(values)))
    lows, highs = [], []
    for ruleset in having:
        opts = ruleset.options_type
        choices = opts._choices().get(name)
        low, high = (min(choices), max(choices)) if choices else opts.RANGES.get(name, (1, 10**6))
        lows.append(low)
        highs.append(high)
    return OptionSpec(name, "int", rules, default, min_value=min(lows), max_value=max(highs))


def _specs() -> tuple[OptionSpec, ...]:
    every = frozenset(rulesets.RULESETS)
    rules = OptionSpec("rules", "str", every, None, tuple(
        Choice(name, f"choice.rules.{name}") for name in rulesets.RULESETS))
    mentions = OptionSpec("mentions", "str", every, _default(TableOptions, "mentions"), tuple(
        Choice(v, f"choice.mentions.{v}", default=v == _default(TableOptions, "mentions"))
        for v in TableOptions.CHOICES["mentions"]))
    having: dict[str, list[RuleSet]] = {}
    for ruleset in rulesets.RULESETS.values():
        for name in ruleset.own_options():
            having.setdefault(name, []).append(ruleset)
    return (
        rules,
        _common_range("hands", every),
        _timer("turn_timer", TURN_TIMERS, every),
        _timer("claim_timer", CLAIM_TIMERS, every),
        _common_range("away_after", every),
        OptionSpec("away_leaves", "bool", every, False),
        mentions,
        _common_range("vacation_days", every),
        _timer("time_bank", TIME_BANKS, every),
        _timer("time_bank_add", BANK_ADDS, every),
        *(_own(name, sets) for name, sets in having.items()),
    )


_made: tuple[int, tuple[OptionSpec, ...], dict[str, OptionSpec]] | None = None


def new_options() -> tuple[OptionSpec, ...]:
    """Every option of ``/mahjong new``, ``rules`` first (the only required one), for
    the rule sets registered now."""
    return _made_now()[1]


def specs() -> dict[str, OptionSpec]:
    """`new_options` by name."""
    return _made_now()[2]


def _made_now() -> tuple[int, tuple[OptionSpec, ...], dict[str, OptionSpec]]:
    global _made
    if _made is None or _made[0] != rulesets.generation():
        made = _specs()
        _made = (rulesets.generation(), made, {s.name: s for s in made})
    return _made


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
    known = specs()
    for name, value in given.items():
        if name == "rules" or value is None:
            continue
        spec = known.get(name)
        if spec is None:
            raise KeyError(f"no option {name!r} in /mahjong new")
        if rules not in spec.rules:
            raise OptionNotForRules(name, rules)
        out[name] = value
    return out


def rename_kwargs() -> dict[str, app_commands.locale_str]:
    """For ``app_commands.rename``: each parameter's localised name."""
    return {s.name: ls(f"param.{s.name}.name") for s in new_options()}


def describe_kwargs() -> dict[str, app_commands.locale_str]:
    """For ``app_commands.describe``: each parameter's localised description."""
    return {s.name: ls(f"param.{s.name}.desc") for s in new_options()}


def choices_kwargs() -> dict[str, list[app_commands.Choice[Any]]]:
    """For ``app_commands.choices``: the options that have fixed choices."""
    return {s.name: [c.app_choice() for c in s.choices] for s in new_options() if s.choices}


def parameters() -> list[inspect.Parameter]:
    """``/mahjong new``'s parameters after the interaction, as its callback's signature
    declares them to discord.py (`bot.discord.commands`)."""
    return [s.parameter() for s in new_options()]


def choice_names(name: str) -> dict[Any, str]:
    """An option's choices by value, named in English (tests, tools)."""
    return {c.value: c.name("en") for c in specs()[name].choices}


def option_value_text(name: str, value: Any, locale: LocaleLike) -> str:
    """One option's value in words: timers as durations, booleans on/off, None as none."""
    if name in DURATIONS:
        return duration(int(value), locale) if value else t("val.off", locale)
    if isinstance(value, bool):
        return t("val.on" if value else "val.off", locale)
    if value is None:
        return t("val.none", locale)
    key = f"val.{name}.{value}"
    if isinstance(value, str) and has(key):  # a choice said in words (mentions, caishen)
        return t(key, locale)
    return str(value)
