"""``/mahjong ratings rebuild`` (a server manager: the server's ratings replayed from its
finished matches, privately told what moved) and a rating in players' words
(`rating_text`: ``1,083``, provisional ``1,083?`` / ``1083（定级中）``), which the boards and
the stats card use. The command is in commands.py.
"""

from __future__ import annotations

from bot.discord.core.i18n import LocaleLike, lang, t
from bot.discord.core.words import MAX_CONTENT, rules_name
from bot.service import Moved, Rating, Rebuilt

MOST_LINES = 20
"""Moves listed at most; the rest are counted."""


def rating_text(rating: Rating, locale: LocaleLike) -> str:
    """A rating as players read it: its number, marked while provisional."""
    key = "rating.provisional" if rating.provisional else "rating.value"
    shown = f"{rating.shown:,}" if lang(locale) == "en" else f"{rating.shown}"
    return t(key, locale, shown=shown)


def rebuilt_text(rebuilt: Rebuilt, locale: LocaleLike, *, limit: int = MAX_CONTENT) -> str:
    """What a rebuild did, within ``limit`` characters: the biggest moves first, each
    person named by mention (the reply is private: nobody is pinged)."""
    lines = [t("reply.ratings.rebuilt", locale, matches=rebuilt.matches, rated=rebuilt.rated,
               people=rebuilt.people)]
    if not rebuilt.moved:
        lines.append(t("reply.ratings.unchanged", locale))
        return "\n".join(lines)
    lines.append(t("reply.ratings.moved", locale, n=len(rebuilt.moved)))
    none = t("reply.ratings.none", locale)
    ranked = sorted(rebuilt.moved, key=_biggest_first)
    for n, moved in enumerate(ranked):
        line = t("reply.ratings.line", locale, who=f"<@{moved.user_id}>",
                 rules=rules_name(moved.rules, locale),
                 before=none if moved.before is None else moved.before,
                 after=none if moved.after is None else moved.after)
        more = t("reply.ratings.more", locale, n=len(ranked) - n)
        if n >= MOST_LINES or len("\n".join([*lines, line, more])) > limit:
            lines.append(more)
            break
        lines.append(line)
    return "\n".join(lines)


def _biggest_first(moved: Moved) -> tuple[bool, int, str, int]:
    """Those who had a rating and still have one, by how far it moved; then the ratings
    that appeared or went."""
    if moved.before is None or moved.after is None:
        return True, 0, moved.rules, moved.user_id
    return False, -abs(moved.after - moved.before), moved.rules, moved.user_id
