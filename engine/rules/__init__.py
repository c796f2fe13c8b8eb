"""The rule sets, and the one registry of them. A rule change touches one module here;
everything else asks `get` for the rule set's object and calls its hooks (see
`engine.rules.ruleset`)."""

from __future__ import annotations

from engine.rules.common import OptionError, RuleError, Settlement, WinContext
from engine.rules.hangzhou import Hangzhou
from engine.rules.ruleset import RuleSet
from engine.rules.shanghai import Shanghai

SHANGHAI: RuleSet = Shanghai()
HANGZHOU: RuleSet = Hangzhou()
RULESETS: dict[str, RuleSet] = {r.name: r for r in (SHANGHAI, HANGZHOU)}
"""Every rule set by its name, in the order players are offered them."""
DEFAULT: RuleSet = SHANGHAI
"""The rule set a command assumes when none is given."""


def get(name: str) -> RuleSet:
    try:
        return RULESETS[name]
    except KeyError:
        raise OptionError(f"unknown rules {name!r}: choose "
                          + " or ".join(repr(n) for n in RULESETS)) from None


def label(name: str) -> str:
    """A rule set's name in both languages ("上海 Shanghai"), for pictures read by all;
    an unknown name as it is."""
    ruleset = RULESETS.get(name)
    return f"{ruleset.zh} {ruleset.en}" if ruleset is not None else name


__all__ = ["HANGZHOU", "RULESETS", "SHANGHAI", "OptionError", "RuleError", "RuleSet",
           "Settlement", "WinContext", "get", "label"]
