"""``/mahjong stats``: a person's figures in one rule set, as a card (render/stats.py) and
a short text, every word in the reader's language (the server's for a public answer).

Pure (figures and names in, words or PNG out) and picklable by name, so the picture
process can draw it. Public in the channel for a channel's or a server's figures (what
the channel could have watched being played); every server's figures (``all``) are
answered privately, since they tell where else the person plays.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from discord import app_commands

from bot.discord import ratings
from bot.discord.core.i18n import LocaleLike, has, join, lang, ls, t
from bot.discord.core.words import (
    MAX_CONTENT,
    UNIT_WORDS,
    pattern_name,
    rules_name,
    value_text,
)
from bot.service.stats import SCOPES, BiggestWin, HeadToHead, PlayerStats, Rating
from engine.rules import RULESETS
from render.draw import number
from render.stats import Figure, Section, StatsCard, Tone, stats_card

SCOPE_CHOICES = [app_commands.Choice(name=ls(f"choice.scope.{kind}"), value=kind)
                 for kind in SCOPES]
"""The ``scope`` argument's choices, named in the reader's language."""


def is_private(stats: PlayerStats) -> bool:
    """Whether the answer is the asker's alone: every server's figures."""
    return stats.scope == "all"


def stats_png(stats: PlayerStats, name: str, other: str | None, locale: LocaleLike) -> bytes:
    """The card of ``stats`` of the person called ``name`` (``other``: the versus's)."""
    return stats_card(card_of(stats, name, other, locale))


def percent(value: float | None, locale: LocaleLike) -> str:
    """A rate as a percentage ("37.5%"), or a dash when nothing counts yet."""
    if value is None:
        return t("stats.none", locale)
    shown = f"{value * 100:.1f}".rstrip("0").rstrip(".")
    return t("stats.percent", locale, value=shown)


def decimal(value: Fraction | float | None, locale: LocaleLike) -> str:
    return t("stats.none", locale) if value is None else number(value)


def duration(seconds: float | None, locale: LocaleLike) -> str:
    """A time to move in its natural unit: "40 s", "12 min", "3.5 h", "1.5 days"."""
    if seconds is None:
        return t("stats.none", locale)
    for limit, unit, key in ((90, 1, "stats.seconds"), (90 * 60, 60, "stats.minutes"),
                             (36 * 3600, 3600, "stats.hours")):
        if seconds < limit:
            return t(key, locale, n=_short(seconds / unit))
    return t("stats.days", locale, n=_short(seconds / 86400))


def _short(value: float) -> str:
    return str(round(value)) if value >= 10 else f"{value:.1f}".rstrip("0").rstrip(".")


def rating_text(rating: Rating | None, locale: LocaleLike) -> str | None:
    """The rating as players read it everywhere (`ratings.rating_text`); None: none."""
    return None if rating is None else ratings.rating_text(rating, locale)


def biggest_text(rules: str, biggest: BiggestWin, locale: LocaleLike) -> str:
    """The biggest win: its patterns named in the reader's language and its value
    ("清一色、碰碰胡 · 60 花")."""
    known = RULESETS[rules].patterns
    names = []
    for pid, count in Counter(biggest.patterns).items():  # 豪华 and 财飘 can repeat
        name = pattern_name(known[pid].zh, known[pid].en, locale) if pid in known else pid
        names.append(name if count == 1 else t("stats.repeat", locale, name=name, count=count))
    return t("stats.biggest", locale, patterns=join(names, locale) or t("stats.plain", locale),
             value=value_text(rules, biggest.value, locale))


def mark_label(rules: str, mark: str, locale: LocaleLike) -> str:
    """A rule set's own figure, named: the rule set's words for it when it has them,
    else this feature's."""
    words = getattr(RULESETS[rules], "stat_mark_words", {}).get(mark)
    if words is not None:
        return str(words.zh if lang(locale) == "zh" else words.en)
    key = f"stats.mark.{mark}"
    return t(key, locale) if has(key) else mark


def _mark_value(value: Fraction) -> str:
    return number(value)


def scope_words(stats: PlayerStats, locale: LocaleLike) -> str:
    return t(f"stats.scope.{stats.scope}", locale)


def card_of(stats: PlayerStats, name: str, other: str | None, locale: LocaleLike
            ) -> StatsCard:
    """Every word of the card, in the reader's language."""
    rules = rules_name(stats.rules, locale)
    scope = scope_words(stats, locale)
    subtitle = t("stats.subtitle", locale, rules=rules, scope=scope)
    rating = rating_text(stats.rating, locale)
    # every server's figures beside the rating of the server asked in: said so
    label = None if not rating else t(
        "stats.rating.here" if stats.scope == "all" else "stats.rating", locale)
    if stats.empty:
        return StatsCard(name, subtitle, badge=rating, badge_label=label,
                         empty=empty_text(stats, name, locale))
    none = t("stats.none", locale)
    sections = [
        Section(t("stats.sec.matches", locale), (
            Figure(t("stats.matches", locale), str(stats.matches)),
            Figure(t("stats.hands", locale), str(stats.hands)),
            Figure(t("stats.placement", locale), decimal(
                None if stats.average_placement is None else round(stats.average_placement, 2),
                locale)),
            Figure(t("stats.first", locale), percent(stats.first_rate, locale), "good"),
            Figure(t("stats.last", locale), percent(stats.last_rate, locale), "bad"))),
        Section(t("stats.sec.hands", locale), (
            Figure(t("stats.win_rate", locale), percent(stats.win_rate, locale), "good",
                   t("stats.of", locale, whole=stats.hands) if stats.wins else ""),
            Figure(t("stats.self_draw", locale), percent(stats.self_draw_share, locale)),
            Figure(t("stats.win_value", locale), none if stats.average_win_value is None
                   else _value(stats.rules, stats.average_win_value, locale), "gold"),
            Figure(t("stats.deal_in_rate", locale), percent(stats.deal_in_rate, locale), "bad"),
            Figure(t("stats.deal_in_cost", locale), none if stats.average_deal_in_cost is None
                   else number(-_round(stats.average_deal_in_cost), signed=True), "bad"),
            Figure(t("stats.claim_rate", locale), percent(stats.claim_rate, locale)),
            Figure(t("stats.drawn_rate", locale), percent(stats.drawn_rate, locale)))),
    ]
    if stats.biggest is not None:
        sections.append(Section(t("stats.sec.biggest", locale),
                                note=biggest_text(stats.rules, stats.biggest, locale)))
    if stats.marks:
        sections.append(Section(t("stats.sec.rules", locale, rules=rules), tuple(
            Figure(mark_label(stats.rules, mark, locale), _mark_value(value))
            for mark, value in stats.marks)))
    sections.append(Section(t("stats.sec.time", locale), (
        Figure(t("stats.median_move", locale), duration(stats.median_move_s, locale)),
        Figure(t("stats.moves", locale), str(stats.moves)),
        Figure(t("stats.timeouts", locale), str(stats.timeouts),
               "bad" if stats.timeouts else "plain"),
        Figure(t("stats.taken_over", locale), str(stats.taken_over),
               "bad" if stats.taken_over else "plain"))))
    if stats.versus is not None:
        sections.append(_versus(stats.versus, other or "?", locale))
    return StatsCard(name, subtitle, tuple(sections), badge=rating, badge_label=label)


def _round(value: Fraction) -> Fraction:
    return Fraction(round(value * 100), 100)


def _value(rules: str, value: Fraction, locale: LocaleLike) -> str:
    """An average value in the rule set's unit ("12.5 花", "×3.25")."""
    unit = UNIT_WORDS[RULESETS[rules].value_unit]
    return t(f"value.{unit}", locale, value=number(_round(value)))


def _versus(h2h: HeadToHead, other: str, locale: LocaleLike) -> Section:
    net_tone: Tone = "good" if h2h.points > 0 else "bad" if h2h.points < 0 else "plain"
    return Section(t("stats.sec.versus", locale, name=other), (
        Figure(t("stats.together", locale), str(h2h.matches)),
        Figure(t("stats.placed_higher", locale),
               t("stats.score", locale, mine=h2h.ahead, theirs=h2h.behind),
               "good" if h2h.ahead > h2h.behind else "plain"),
        Figure(t("stats.hands_together", locale), str(h2h.hands)),
        Figure(t("stats.wins_off", locale),
               t("stats.score", locale, mine=h2h.won_off, theirs=h2h.lost_to)),
        Figure(t("stats.net_together", locale), number(_round(h2h.points), signed=True),
               net_tone, t("stats.their_net", locale, name=other,
                           points=number(_round(h2h.their_points), signed=True)))))


def empty_text(stats: PlayerStats, name: str, locale: LocaleLike) -> str:
    """Nothing played yet: said kindly, with how to start."""
    scope = scope_words(stats, locale)
    if stats.other_rules:
        return t("stats.empty", locale, name=name, scope=scope,
                 rules=rules_name(stats.rules, locale))
    return t("stats.empty.any", locale, name=name, scope=scope)


def stats_text(stats: PlayerStats, name: str, other: str | None, locale: LocaleLike) -> str:
    """The short text beside the card."""
    rules = rules_name(stats.rules, locale)
    lines = [t("stats.text.head", locale, name=name, rules=rules,
               scope=scope_words(stats, locale))]
    if stats.empty:
        lines.append(empty_text(stats, name, locale))
    else:
        place = decimal(None if stats.average_placement is None
                        else round(stats.average_placement, 2), locale)
        if stats.matches:
            lines.append(t("stats.text.matches", locale, matches=stats.matches,
                           hands=stats.hands, place=place,
                           first=percent(stats.first_rate, locale),
                           last=percent(stats.last_rate, locale)))
        else:
            lines.append(t("stats.text.hands", locale, hands=stats.hands,
                           won=percent(stats.win_rate, locale),
                           dealt=percent(stats.deal_in_rate, locale)))
        if stats.biggest is not None:
            lines.append(f"{t('stats.sec.biggest', locale)}: "
                         f"{biggest_text(stats.rules, stats.biggest, locale)}")
    rating = rating_text(stats.rating, locale)
    if rating is not None:
        lines.append(t("stats.text.rating", locale, rating=rating))
    h2h = stats.versus
    if h2h is not None:
        lines.append(t("stats.text.versus", locale, name=other or "?", matches=h2h.matches,
                       ahead=h2h.ahead, behind=h2h.behind, hands=h2h.hands,
                       won=h2h.won_off, lost=h2h.lost_to))
    if stats.other_rules:
        lines.append(t("stats.text.others", locale, name=name, rules=join(
            [rules_name(r, locale) for r in stats.other_rules], locale)))
    text = "\n".join(lines)
    return text if len(text) <= MAX_CONTENT else text[:MAX_CONTENT - 1] + "…"
