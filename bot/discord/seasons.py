"""Seasons and the weekly recap, as the channel and its managers see them.

``/mahjong season close`` (a server manager): a private question with two buttons,
then, confirmed, the season closed (every channel's boards archived, the next season
begun) and a public post in the channel, in the server's language, saying so with the
closed season's top of this channel. ``/mahjong leaderboard``'s ``season``: a past
season's number, "all" for all time, or nothing for this season (`parse_season`,
offered by `season_choices`). ``/mahjong recap enabled:`` (a server manager) turns the
channel's weekly recap on or off; the recap itself (`recap_text`) is posted by the
table presenter from the outbox.

``mj:sc:{user}:{season}:{yes|no}``
    The private confirmation of closing season ``season``: ``yes`` closes it (the
    service closes it only while it is the server's open one: a second press is told
    it is closed already), ``no`` keeps it. Honoured only for ``user``, the manager it
    was shown to; the server is the one the click comes from.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.discord.core.answering import Answer, answering
from bot.discord.core.i18n import LocaleLike, t
from bot.discord.core.items import NUM, own_id, persistent
from bot.discord.core.words import MAX_CONTENT, clip, rules_name
from bot.discord.leaderboard import SeasonShown, hand_words, leaderboard_text
from bot.service import BestHand, Refused
from bot.service import errors as E
from bot.service.notices import RecapNotice
from bot.service.results import SeasonClosed
from bot.service.seasons import Season

ALL = frozenset({"all", "all time", "alltime", "全部", "历届", "历届总榜"})
"""What ``season`` takes for all time (besides the offered choice's value, ``all``)."""
MAX_SEASON = 10**6
NO_MENTIONS = discord.AllowedMentions.none()


def parse_season(given: str | None) -> Season:
    """A board's season as typed or chosen: None (this season), a number, or "all";
    anything else is refused `bad_season`, changing nothing."""
    text = (given or "").strip().lower()
    if not text:
        return None
    if text in ALL:
        return "all"
    if text.isdigit() and 1 <= int(text) <= MAX_SEASON:
        return int(text)
    raise Refused(E.BAD_SEASON, f"no season {given!r}", value=given)


def season_choices(current: int, typed: str, locale: LocaleLike
                   ) -> list[app_commands.Choice[str]]:
    """What ``season`` offers: this season, the past ones (newest first) and all time,
    those matching what was typed (at most 25)."""
    offered = [app_commands.Choice(name=t("season.choice.current", locale, n=current),
                                   value=str(current))]
    offered += [app_commands.Choice(name=t("season.choice.past", locale, n=n), value=str(n))
                for n in range(current - 1, 0, -1)]
    offered.insert(1, app_commands.Choice(name=t("season.choice.all", locale), value="all"))
    typed = typed.strip().lower()
    return [c for c in offered if typed in c.name.lower() or typed in c.value][:25]


def shown_season(season: int | None, current: int | None) -> SeasonShown:
    """The season a board's title names: all time, a number, or nothing for the
    current board of a server that never closed a season."""
    if season is None:
        return "all"
    return None if season == current == 1 else season


async def ask_close(answer: Answer) -> None:
    """``/mahjong season close``: the manager is asked privately to confirm closing the
    server's open season (anyone else is refused before any button)."""
    season = await answer.run(answer.service.season_now(answer.cause))
    view = discord.ui.View(timeout=None)
    user = answer.cause.user_id
    view.add_item(SeasonCloseButton(user, season, True,
                                    label=t("btn.season.close", answer.locale, season=season)))
    view.add_item(SeasonCloseButton(user, season, False,
                                    label=t("btn.season.keep", answer.locale, season=season)))
    await answer.say(t("season.confirm", answer.locale, season=season, next=season + 1),
                     view=view)


def closed_text(done: SeasonClosed, locale: LocaleLike) -> str:
    """The channel's post of a closed season: what happened, and this channel's top of
    the closed season (its board played last)."""
    head = t("chan.season_closed", locale, season=done.closed, next=done.begun)
    board = done.board
    if not board.rows:
        return clip(f"{head}\n{t('chan.season_none', locale, season=done.closed)}",
                    MAX_CONTENT)
    top = leaderboard_text(board.rows, locale, rules=board.rules, ratings=board.ratings,
                           season=done.closed)
    return clip(f"{head}\n{t('chan.season_top', locale, season=done.closed)}\n{top}",
                MAX_CONTENT)


@persistent
class SeasonCloseButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=rf"mj:sc:(?P<user>{NUM}):(?P<season>{NUM}):(?P<yes>yes|no)"):
    """Confirm closing the server's season (or keep it): shown privately to the manager
    asking, and honoured only for them."""

    def __init__(self, user: int, season: int, yes: bool, *, label: str = "") -> None:
        custom_id = f"mj:sc:{user}:{season}:{'yes' if yes else 'no'}"
        super().__init__(discord.ui.Button(
            label=label or None, custom_id=own_id(SeasonCloseButton, custom_id),
            style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary))
        self.user, self.season, self.yes = user, season, yes

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> SeasonCloseButton:
        return cls(int(match["user"]), int(match["season"]), match["yes"] == "yes")

    async def callback(self, interaction: discord.Interaction) -> None:
        async with answering(interaction) as answer:
            if answer.cause.user_id != self.user:
                await answer.say(t("season.not_yours", answer.locale))
            elif not self.yes:
                await answer.update(content=t("season.kept", answer.locale,
                                              season=self.season), view=None)
            else:
                await close(answer, self.season)


async def close(answer: Answer, season: int) -> None:
    """The confirmed close: the question says it is done (privately), the channel is
    told in the server's language."""
    done = await answer.run(answer.service.close_season(answer.cause, season))
    await answer.update(content=t("season.done", answer.locale, season=done.closed,
                                  lines=done.archived, next=done.begun), view=None)
    await answer.say(closed_text(done, answer.public_locale), ephemeral=False,
                     allowed_mentions=NO_MENTIONS)


async def set_recap(answer: Answer, enabled: bool) -> None:
    """``/mahjong recap enabled:`` (a server manager), answered privately."""
    done = await answer.run(answer.service.set_recap(answer.cause, enabled))
    await answer.say(t("recap.on" if done.enabled else "recap.off", answer.locale))


def recap_text(notice: RecapNotice, locale: LocaleLike) -> str:
    """A channel's weekly recap, in the server's language: the week, its hands, the
    biggest hand of each rule set played, the most improved rating (when one rose),
    who played the most hands."""
    week = notice.week
    lines = [t("recap.title.one", locale, week=week) if notice.hands == 1
             else t("recap.title", locale, week=week, hands=notice.hands)]
    for big in notice.biggest:
        hand = hand_words(BestHand(big.rules, big.patterns, big.value), locale)
        lines.append(t("recap.biggest", locale, rules=rules_name(big.rules, locale),
                       name=big.name, hand=hand))
    gain = notice.improved
    if gain is not None:
        shown = t("recap.provisional", locale, value=gain.shown) if gain.provisional \
            else str(gain.shown)
        lines.append(t("recap.improved", locale, rules=rules_name(gain.rules, locale),
                       name=gain.name, gain=gain.gain, shown=shown))
    if notice.most_hands is not None:
        name, hands = notice.most_hands
        lines.append(t("recap.most_hands", locale, name=name, hands=hands))
    return clip("\n".join(lines), MAX_CONTENT)
