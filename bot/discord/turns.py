"""``/mahjong turns`` and the digest DM after quiet hours: every table, in every server,
where a decision waits for the reader, the soonest deadline first, each with a link to
its channel (its table message when known). Private to its reader, always: a claim
decision is its seat's secret. The command is in commands.py; the notifier hands the
digest to `send_digest`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.discord.core.i18n import LocaleLike, t
from bot.discord.core.words import MAX_CONTENT, rules_name, timestamp
from bot.discord.delivery.posting import Poster
from bot.service import DigestNotice, WaitingMove

log = logging.getLogger(__name__)

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


async def send_digest(post: Poster, notice: DigestNotice) -> None:
    """The digest DM, once the person's quiet hours end: it notifies (the DMs of the
    night came silently). Closed DMs lose it (the decisions' own DMs did not reach them
    either; `/mahjong turns` says the same)."""
    text = turns_text(notice.waiting, notice.locale, digest=True)
    try:
        await post.dm(notice.user_id, content=text,
                      allowed_mentions=discord.AllowedMentions.none())
    except discord.Forbidden:
        log.info("digest for user %s not sent: their DMs are closed", notice.user_id)
    except discord.HTTPException as exc:
        log.warning("digest for user %s not sent: %s %s", notice.user_id, exc.status,
                    exc.code)
