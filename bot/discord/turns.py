"""``/mahjong turns`` and the digest DM after quiet hours: every table, in every server,
where a decision waits for the reader, the soonest deadline first, each with a link to
its channel (its table message when known). Private to its reader, always: a claim
decision is its seat's secret.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.discord.core.i18n import LocaleLike, t
from bot.discord.core.words import MAX_CONTENT, rules_name, timestamp
from bot.service import WaitingMove

DISCORD = "https://discord.com/channels"


def place_link(move: WaitingMove) -> str:
    """The table's message in its channel (the channel alone while none is known)."""
    ref = move.ref
    link = f"{DISCORD}/{ref.guild_id}/{ref.channel_id}"
    return link if move.message_id is None else f"{link}/{move.message_id}"


def waiting_line(n: int, move: WaitingMove, locale: LocaleLike) -> str:
    return t("turns.line", locale, n=n, rules=rules_name(move.rules, locale),
             table=move.ref.table_id, hand=move.hand_number, hands=move.hands_in_match,
             what=t(f"turns.{move.move}", locale), when=timestamp(move.deadline, "R"),
             at=timestamp(move.deadline, "f"), link=place_link(move))


def turns_text(waiting: Sequence[WaitingMove], locale: LocaleLike, *,
               digest: bool = False, limit: int = MAX_CONTENT) -> str:
    """The list (``digest``: under the quiet hours' title), within ``limit``
    characters: the soonest decisions first, the rest counted."""
    if not waiting:
        return t("reply.turns.none", locale)
    title = t("turns.digest.title" if digest else "reply.turns.title", locale, n=len(waiting))
    lines = [title]
    for n, move in enumerate(waiting, 1):
        line = waiting_line(n, move, locale)
        rest = len(waiting) - n
        more = t("turns.more", locale, n=rest) if rest else ""
        if len("\n".join([*lines, line, more])) > limit:
            lines.append(t("turns.more", locale, n=len(waiting) - n + 1))
            break
        lines.append(line)
    return "\n".join(lines)
