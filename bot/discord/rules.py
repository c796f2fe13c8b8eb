"""``/mahjong rules`` and a table's options in words: the rule set's summary, its
patterns and their values, every option's value (a table's, or the defaults), and how
to read the hand picture. The lobby's embed lists the options with `option_lines`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.discord.core.i18n import LocaleLike, join, t
from bot.discord.core.words import MAX_CONTENT, clip, pattern_name, pattern_value, rules_name
from bot.discord.lobby.options import new_options, option_value_text
from engine.rules import RULESETS
from engine.rules.common import TableOptions


def full_options(rules: str, options: Mapping[str, Any] | TableOptions | None
                 ) -> TableOptions:
    """The table's options with the defaults filled in (and validated by the engine)."""
    if isinstance(options, TableOptions):
        return options
    return RULESETS[rules].options(dict(options or {}))


def option_lines(rules: str, options: Mapping[str, Any] | TableOptions | None,
                 locale: LocaleLike) -> list[str]:
    """One line per option of the rule set, in the order of ``/mahjong new``."""
    values = full_options(rules, options).to_dict()
    return ["· " + t(f"opt.{spec.name}", locale,
                     value=option_value_text(spec.name, values[spec.name], locale))
            for spec in new_options() if spec.name in values and rules in spec.rules]


def rules_summary(rules: str, options: Mapping[str, Any] | TableOptions | None,
                  locale: LocaleLike) -> str:
    """``/mahjong rules``: what the rule set is about, its patterns and their values,
    every option's value (a table's, or the defaults when ``options`` is None), and how
    to read the hand picture (its legend, said in a DM once a match)."""
    patterns = [t("settle.pattern", locale, name=pattern_name(p.zh, p.en, locale),
                  value=pattern_value(p, locale))
                for p in RULESETS[rules].patterns.values()]
    heading = "rules.defaults" if options is None else "rules.options"
    parts = [f"**{t('rules.title', locale, rules=rules_name(rules, locale))}**",
             t(f"rules.about.{rules}", locale),
             t("rules.patterns", locale, patterns=join(patterns, locale)), "",
             t(heading, locale), *option_lines(rules, options, locale), "",
             picture_legend(rules, locale)]
    return clip("\n".join(parts), MAX_CONTENT)


def picture_legend(rules: str, locale: LocaleLike) -> str:
    """The hand picture's numbers and highlights in general words (`/mahjong rules`)."""
    parts = [t("dm.legend.numbers", locale), t("legend.suggested", locale),
             t("legend.drawn", locale)]
    if "caishen" in RULESETS[rules].own_options():
        parts.append(t("dm.legend.caishen", locale))
    return t("legend.title", locale, parts=t("dm.legend.sep", locale).join(parts))
