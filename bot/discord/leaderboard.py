"""``/mahjong leaderboard``: one rule set's standings as a card, titled with the rule set
and the unit its points are in (Shanghai 花 × 底分, Hangzhou 底分 × 庄闲分 × multiplier)
and the season shown (a number, or all time), and as text (each player's best hand
named in the reader's language, each person's skill rating in the server's rule set:
"—" for none, marked while provisional). Computers are never on a board (the store
leaves their lines out).

Pure (words in, PNG out) and picklable by name, so the picture process can draw it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from bot.discord.core.i18n import LocaleLike, join, t
from bot.discord.core.words import MAX_CONTENT, amount_text, pattern_name, rules_name, value_text
from bot.service import BestHand, LeaderboardRow, Rating
from engine.rules import RULESETS
from render.cards import BoardWords, leaderboard_card
from render.cards import LeaderboardRow as BoardRow

SeasonShown = int | Literal["all"] | None
"""The season a board is of, as its title says it: a number, all time, or None (a
server that never closed a season: said nothing of)."""


def board_png(rows: Sequence[Any], locale: LocaleLike, rules: str | None = None,
              ratings: Mapping[int, Rating] | None = None, season: SeasonShown = None
              ) -> bytes:
    """The card of the store's rows (best first, as given, all of one rule set: ``rules``,
    else the rows'), every word in the reader's language; ``ratings``: each person's
    rating by user id (a person without one shows "—")."""
    rules = rules or (rows[0].rules if rows else None)
    title = board_title(rules, locale, season) if rules \
        else t("reply.leaderboard.title", locale)
    empty = t("reply.leaderboard.rules_empty", locale, rules=t(f"rules.{rules}", locale)) \
        if rules else t("reply.leaderboard.empty", locale)
    words = BoardWords(t("board.name", locale), t("board.points", locale),
                       t("board.won", locale), t("board.matches", locale),
                       t("board.best", locale), empty, t("board.rating", locale))
    return leaderboard_card([BoardRow(i + 1, r.display_name, r.points, r.hands_won,
                                      r.matches_played, best_hand_text(r, locale),
                                      rating_figure(rating_of(r, ratings)))
                             for i, r in enumerate(rows)], title, words)


def rating_of(row: LeaderboardRow, ratings: Mapping[int, Rating] | None) -> Rating | None:
    """The rating of a board line's person (None: none kept, or no ratings given)."""
    user_id = row.user_id
    return None if not ratings or user_id is None else ratings.get(user_id)


def rating_figure(rating: Rating | None) -> str | None:
    """A rating as the card's column shows it: "1083", "1083?" while provisional."""
    if rating is None:
        return None
    return f"{rating.shown}?" if rating.provisional else str(rating.shown)


def rating_words(rating: Rating | None, locale: LocaleLike) -> str:
    """A rating as a text line says it: "rating 1083", "rating 1083 (provisional)",
    "rating —" (none)."""
    if rating is None:
        return t("board.rating.none", locale)
    key = "board.rating.provisional" if rating.provisional else "board.rating.value"
    return t(key, locale, value=rating.shown)


def best_hand_text(row: LeaderboardRow, locale: LocaleLike) -> str | None:
    """A player's best hand: its patterns named and its value ("清一色 · 20 花"); a row
    written before hands were kept as data shows its old description."""
    best = row.best_hand or _old_best_hand(row.best_hand_desc, row.best_hand_value)
    if best is None or best.rules not in RULESETS:
        return row.best_hand_desc
    return hand_words(best, locale)


def hand_words(best: BestHand, locale: LocaleLike) -> str:
    """A winning hand named: its patterns and its value ("清一色 · 20 花")."""
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


def board_title(rules: str, locale: LocaleLike, season: SeasonShown = None) -> str:
    """A leaderboard's title: its rule set, the unit its points are in, and the season
    (none said for a server that never closed one)."""
    title = f"{t('board.title', locale, rules=rules_name(rules, locale))} · " \
            f"{t(f'board.unit.{rules}', locale)}"
    if season == "all":
        return f"{title} · {t('board.all_time', locale)}"
    return title if season is None else f"{title} · {t('board.season', locale, n=season)}"


def leaderboard_text(rows: Sequence[Any], locale: LocaleLike, *, rules: str | None = None,
                     others: Sequence[str] = (), ratings: Mapping[int, Rating] | None = None,
                     season: SeasonShown = None) -> str:
    """``/mahjong leaderboard``: rows with display_name, points, hands_won, hands_played
    and rules (the store's LeaderboardRow), best first as given, all of one rule set
    (``rules``, else the rows'); ``others``: the channel's other boards, named;
    ``ratings``: each person's rating by user id (None: the lines say none)."""
    rules = rules or (rows[0].rules if rows else None)
    if not rows:
        empty = t("reply.leaderboard.empty", locale) if rules is None else \
            t("reply.leaderboard.rules_empty", locale, rules=rules_name(rules, locale))
        lines = [empty if season is None or rules is None
                 else f"**{board_title(rules, locale, season)}**\n{empty}"]
    else:
        assert rules is not None
        lines = [f"**{board_title(rules, locale, season)}**"]
    tail = [t("reply.leaderboard.others", locale,
              boards=join([rules_name(r, locale) for r in others], locale))] if others else []
    for i, r in enumerate(rows):
        key = "reply.leaderboard.row.one" if r.hands_played == 1 else "reply.leaderboard.row"
        line = t(key, locale, rank=i + 1, name=r.display_name,
                 points=amount_text(r.points), won=r.hands_won, hands=r.hands_played,
                 rating=rating_words(rating_of(r, ratings), locale))
        if sum(len(x) + 1 for x in lines + tail) + len(line) > MAX_CONTENT:
            break  # the best rows come first: drop the tail
        lines.append(line)
    return "\n".join(lines + tail)
