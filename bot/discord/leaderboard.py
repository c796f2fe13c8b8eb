"""``/mahjong leaderboard``: one rule set's standings as a card, titled with the rule set
and the unit its points are in (Shanghai 花 × 底分, Hangzhou 底分 × 庄闲分 × multiplier),
and as text (each player's best hand named in the reader's language).

Pure (words in, PNG out) and picklable by name, so the picture process can draw it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from bot.discord.core.i18n import LocaleLike, join, t
from bot.discord.core.words import MAX_CONTENT, amount_text, pattern_name, rules_name, value_text
from bot.service import BestHand, LeaderboardRow
from engine.rules import RULESETS
from render.cards import BoardWords, leaderboard_card
from render.cards import LeaderboardRow as BoardRow


def board_png(rows: Sequence[Any], locale: LocaleLike, rules: str | None = None) -> bytes:
    """The card of the store's rows (best first, as given, all of one rule set: ``rules``,
    else the rows'), every word in the reader's language."""
    rules = rules or (rows[0].rules if rows else None)
    title = board_title(rules, locale) if rules else t("reply.leaderboard.title", locale)
    empty = t("reply.leaderboard.rules_empty", locale, rules=t(f"rules.{rules}", locale)) \
        if rules else t("reply.leaderboard.empty", locale)
    words = BoardWords(t("board.name", locale), t("board.points", locale),
                       t("board.won", locale), t("board.matches", locale),
                       t("board.best", locale), empty)
    return leaderboard_card([BoardRow(i + 1, r.display_name, r.points, r.hands_won,
                                      r.matches_played, best_hand_text(r, locale))
                             for i, r in enumerate(rows)], title, words)


def best_hand_text(row: LeaderboardRow, locale: LocaleLike) -> str | None:
    """A player's best hand: its patterns named and its value ("清一色 · 20 花"); a row
    written before hands were kept as data shows its old description."""
    best = row.best_hand or _old_best_hand(row.best_hand_desc, row.best_hand_value)
    if best is None or best.rules not in RULESETS:
        return row.best_hand_desc
    known = RULESETS[best.rules].patterns
    names = []
    for pid, count in Counter(best.patterns).items():  # 豪华 and 财飘 can repeat
        name = pattern_name(known[pid].zh, known[pid].en, locale) if pid in known else pid
        names.append(name if count == 1 else t("best.repeat", locale, name=name, count=count))
    return t("best.hand", locale, patterns=join(names, locale) or t("best.plain", locale),
             value=value_text(best.rules, best.value, locale))


_OLD_PLAIN_WIN = "胡 Win"


def _old_best_hand(desc: str | None, value: int | None) -> BestHand | None:
    """A best hand stored before they were kept as data: its bilingual pattern labels
    ("清一色 Full Flush 碰碰胡 All Pungs") read back into one rule set's pattern ids, or
    "胡 Win", a win without a pattern (only Hangzhou has those); None if it reads as
    neither."""
    if desc is None or value is None:
        return None
    if desc == _OLD_PLAIN_WIN:
        plain = [r.name for r in RULESETS.values() if not r.needs_qualifying_pattern]
        return BestHand(plain[0], (), value) if len(plain) == 1 else None
    for rules, ruleset in RULESETS.items():
        labels = sorted(((p.label(), p.id) for p in ruleset.patterns.values()),
                        key=lambda x: -len(x[0]))  # the longest label first
        rest, found = desc, []
        while rest:
            match = next(((label, pid) for label, pid in labels
                          if rest == label or rest.startswith(label + " ")), None)
            if match is None:
                break
            found.append(match[1])
            rest = rest[len(match[0]):].lstrip(" ")
        if found and not rest:
            return BestHand(rules, tuple(found), value)
    return None


def board_title(rules: str, locale: LocaleLike) -> str:
    """A leaderboard's title: its rule set, and the unit its points are in."""
    return f"{t('board.title', locale, rules=rules_name(rules, locale))} · " \
           f"{t(f'board.unit.{rules}', locale)}"


def leaderboard_text(rows: Sequence[Any], locale: LocaleLike, *, rules: str | None = None,
                     others: Sequence[str] = ()) -> str:
    """``/mahjong leaderboard``: rows with display_name, points, hands_won, hands_played
    and rules (the store's LeaderboardRow), best first as given, all of one rule set
    (``rules``, else the rows'); ``others``: the channel's other boards, named."""
    rules = rules or (rows[0].rules if rows else None)
    if not rows:
        empty = t("reply.leaderboard.empty", locale) if rules is None else \
            t("reply.leaderboard.rules_empty", locale, rules=rules_name(rules, locale))
        lines = [empty]
    else:
        assert rules is not None
        lines = [f"**{board_title(rules, locale)}**"]
    tail = [t("reply.leaderboard.others", locale,
              boards=join([rules_name(r, locale) for r in others], locale))] if others else []
    for i, r in enumerate(rows):
        key = "reply.leaderboard.row.one" if r.hands_played == 1 else "reply.leaderboard.row"
        line = t(key, locale, rank=i + 1, name=r.display_name,
                 points=amount_text(r.points), won=r.hands_won, hands=r.hands_played)
        if sum(len(x) + 1 for x in lines + tail) + len(line) > MAX_CONTENT:
            break  # the best rows come first: drop the tail
        lines.append(line)
    return "\n".join(lines + tail)
