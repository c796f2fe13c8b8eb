"""The rule sets, and the one registry of them (as python-chess keeps its variants).

A rule set is one module: a `RuleSet` subclass with its options, patterns, hooks and
the words players read of it (`engine.rules.ruleset`). `register` adds its object to
`RULESETS`; everything else asks `get` for the object by the name tables store, and
derives from the registered objects what it offers: ``/mahjong new``'s choices and
options, their labels, the leaderboards' units. Nothing else lists rule sets.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.refusals import Code, echo
from engine.rules.common import OptionError, RuleError, Settlement, WinContext
from engine.rules.hangzhou import Hangzhou
from engine.rules.ruleset import OptionWords, RuleCode, RuleSet, StatHand, Words
from engine.rules.shanghai import Shanghai

RULESETS: dict[str, RuleSet] = {}
"""Every registered rule set by its name, in the order players are offered them."""

NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
"""A rule set's name: what tables store and Discord's choices send (lower case)."""

_generation = 0
_listeners: list[Callable[[], None]] = []


def register(ruleset: RuleSet) -> RuleSet:
    """Offer ``ruleset`` from now on (after those registered before it); returns it.

    Registering the same rule set again changes nothing; another under a name already
    taken is refused. Pictures drawn in other processes know the rule sets registered
    when their workers started (`registered`)."""
    global _generation
    if not NAME.match(ruleset.name):
        raise ValueError(f"a rule set's name is lower case letters, digits and _, "
                         f"at most 32: not {ruleset.name!r}")
    known = RULESETS.get(ruleset.name)
    if known is not None:
        if type(known) is type(ruleset):
            return known
        raise ValueError(f"another rule set is registered as {ruleset.name!r}")
    _check_words(ruleset)
    RULESETS[ruleset.name] = ruleset
    _generation += 1
    _changed()
    return ruleset


def _check_words(ruleset: RuleSet) -> None:
    """Refuse a rule set that leaves players without words for one of its options: its
    `OptionWords`, a ``{value}`` in its line, a name for each of its text choices."""
    for option in ruleset.own_options():
        said = ruleset.option_words.get(option)
        if said is None:
            raise ValueError(f"rule set {ruleset.name!r} says nothing of its option "
                             f"{option!r}: give its OptionWords")
        if "{value}" not in said.line.en or "{value}" not in said.line.zh:
            raise ValueError(f"the line of option {option!r} must show its {{value}}")
        named = set(said.choices)
        unnamed = [v for v in ruleset.options_type._choices().get(option, ())
                   if isinstance(v, str) and v not in named]
        if unnamed:
            raise ValueError(f"option {option!r} has choices without a name: {unnamed}")
    taken = {c.value for c in Code} | {c.value for r in RULESETS.values() if r is not ruleset
                                        for c in r.refusals}
    for code in ruleset.refusals:
        if code.value in taken:
            raise ValueError(f"rule set {ruleset.name!r}: refusal {code.value!r} is taken")
        taken.add(code.value)


def unregister(name: str) -> None:
    """Offer rule set ``name`` no more (a test's own rule set, when the test ends)."""
    global _generation
    if RULESETS.pop(name, None) is not None:
        _generation += 1
        _changed()


def on_change(listener: Callable[[], None]) -> Callable[[], None]:
    """Call ``listener`` after each change of the registry (what is derived from it, as
    the Discord words, is remade then); returns what stops it."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener)


def _changed() -> None:
    for listener in list(_listeners):
        listener()


def generation() -> int:
    """A number that changes whenever the registry does: what is derived from it (the
    Discord words, the command's options) is remade when it moved."""
    return _generation


def registered() -> tuple[RuleSet, ...]:
    """The registered rule sets, as another process registers them again (they pickle
    by their class)."""
    return tuple(RULESETS.values())


SHANGHAI: RuleSet = register(Shanghai())
HANGZHOU: RuleSet = register(Hangzhou())
DEFAULT: RuleSet = SHANGHAI
"""The rule set a command assumes when none is given."""


def get(name: str) -> RuleSet:
    try:
        return RULESETS[name]
    except KeyError:
        raise OptionError(Code.UNKNOWN_RULES, name=echo(name), choices=tuple(RULESETS)
                          ) from None


def label(name: str) -> str:
    """A rule set's name in both languages ("上海 Shanghai"), for pictures read by all;
    an unknown name as it is."""
    ruleset = RULESETS.get(name)
    return f"{ruleset.zh} {ruleset.en}" if ruleset is not None else name


__all__ = ["HANGZHOU", "RULESETS", "SHANGHAI", "OptionError", "OptionWords", "RuleCode",
           "RuleError", "RuleSet", "Settlement", "StatHand", "WinContext", "Words",
           "generation", "get", "label", "on_change", "register", "registered", "unregister"]
