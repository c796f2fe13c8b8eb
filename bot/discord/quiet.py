"""Quiet hours and vacation in Discord: ``/mahjong quiet`` (its time zone chosen with
autocomplete over the IANA zones) and ``/mahjong vacation``'s replies, the lines the
table message shows beside a resting person's seat ("quiet until <t:…:t>", nothing
else of it), and the DM a table's creator gets when a player takes leave. Times are
Discord timestamps, so each reader sees them on their own clock."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord
from discord import app_commands

from bot.discord.core.i18n import LocaleLike, t
from bot.discord.delivery.posting import Poster
from bot.service.notices import LeaveNotice, Resting
from bot.service.quiet import clock_text, time_zones
from bot.service.results import LeaveSet, QuietSet

log = logging.getLogger(__name__)

MOST_CHOICES = 25
"""Discord shows at most this many autocomplete choices."""


def zone_choices(current: str) -> list[app_commands.Choice[str]]:
    """The time zones matching what was typed so far: those starting with it first
    (ignoring case, ``_`` read as a space), then those holding it; at most 25."""
    typed = current.strip().lower().replace(" ", "_")
    names = time_zones()
    if not typed:
        picked: Sequence[str] = names[:MOST_CHOICES]
    else:
        starts = [n for n in names if n.lower().startswith(typed)
                  or n.lower().split("/")[-1].startswith(typed)]
        holds = [n for n in names if typed in n.lower() and n not in starts]
        picked = (starts + holds)[:MOST_CHOICES]
    return [app_commands.Choice(name=n, value=n) for n in picked]


def quiet_reply(done: QuietSet, locale: LocaleLike) -> str:
    """What ``/mahjong quiet`` says: the hours on the person's clock, and the next (or
    current) quiet window as timestamps."""
    if done.start is None or done.end is None:
        if done.time_zone is None:
            return t("reply.quiet.off", locale)
        return t("reply.quiet.off", locale) + " " + t("reply.quiet.unset", locale,
                                                       zone=done.time_zone)
    fields = {"start": clock_text(done.start), "end": clock_text(done.end),
              "zone": done.time_zone or "UTC",
              "until": int(done.next_end or 0), "begin": int(done.next_start or 0)}
    now = done.next_start is not None and done.next_end is not None and done.now
    return t("reply.quiet.now" if now else "reply.quiet.set", locale, **fields)


def vacation_reply(done: LeaveSet, locale: LocaleLike) -> str:
    """What ``/mahjong vacation`` says: until when, and until when each table honours it."""
    if done.until is None:
        return t("reply.vacation.off", locale)
    lines = [t("reply.vacation.set", locale, until=int(done.until))]
    for table, until in done.tables:
        lines.append("· " + (t("reply.vacation.refused", locale, table=table) if until is None
                             else t("reply.vacation.table", locale, table=table,
                                    until=int(until))))
    if not done.tables:
        lines.append(t("reply.vacation.none", locale))
    return "\n".join(lines)


def resting_lines(resting: Sequence[Resting], names: Sequence[str], locale: LocaleLike
                  ) -> list[str]:
    """The table message's lines for the seats whose people rest now."""
    return ["💤 " + t("chan.vacation" if r.leave else "chan.quiet", locale,
                     name=names[r.seat] if 0 <= r.seat < len(names) else r.seat + 1,
                     until=int(r.until)) for r in resting]


async def tell_creator(post: Poster, notice: LeaveNotice) -> None:
    """The DM to a table's creator that a player there took leave (once per leave)."""
    locale = post.user_locale(notice.creator_id, notice.ref)
    text = t("dm.leave", locale, name=notice.name, until=int(notice.until),
             table=notice.ref.table_id, channel=notice.ref.channel_id)
    try:
        await post.dm(notice.creator_id, content=text,
                      allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as exc:
        log.info("leave of table %s not told to its creator: %s", notice.ref.table_id,
                 exc.status)
