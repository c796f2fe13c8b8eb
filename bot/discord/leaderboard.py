"""The leaderboard card: one rule set's standings, titled with the rule set and the unit
its points are in (Shanghai 花 × 底分, Hangzhou 底分 × 庄闲分 × multiplier).

Pure (words in, PNG out) and picklable by name, so the picture process can draw it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.discord.core.i18n import LocaleLike, t
from bot.discord.texts import best_hand_text, board_title
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
