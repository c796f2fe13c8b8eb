"""The lobby message: its embed (seats as they fill, the rules, every option, the
status) and its buttons, and their clicks.

``mj:lobby:{table}:{what}``
    A lobby button, ``what`` ∈ join, leave, addbot, start.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import discord

from bot.discord.core.answering import answering
from bot.discord.core.i18n import LocaleLike, t
from bot.discord.core.items import NUM, own_id, persistent
from bot.discord.core.words import clip, rules_name, wind_name
from bot.discord.lobby.leave import leave
from bot.discord.rules import option_lines

LobbyWhat = Literal["join", "leave", "addbot", "start"]
LOBBY_ACTIONS: tuple[LobbyWhat, ...] = ("join", "leave", "addbot", "start")
MAX_EMBED_FIELD = 1024


@persistent
class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=rf"mj:lobby:(?P<table>{NUM}):(?P<what>{'|'.join(LOBBY_ACTIONS)})"):
    """A lobby button (join, leave, add computer, start). The lobby message is edited
    by the notifier; the click itself is only acknowledged (a refusal said privately)."""

    def __init__(self, table: int, what: LobbyWhat, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or None, style=style, row=row, disabled=disabled,
            custom_id=own_id(LobbyButton, f"mj:lobby:{table}:{what}")))
        self.table, self.what = table, what

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> LobbyButton:
        what: Any = match["what"]
        return cls(int(match["table"]), what)

    async def callback(self, interaction: discord.Interaction) -> None:
        async with answering(interaction) as answer:
            table = await answer.table_id(self.table)  # in its own channel only
            service, cause = answer.service, answer.cause
            if self.what == "leave":  # a running match asks first (`leave`)
                await leave(answer, table)
                return
            calls: dict[LobbyWhat, Callable[[], Any]] = {
                "join": lambda: service.join(cause, table),
                "addbot": lambda: service.add_computer(cause, table),
                "start": lambda: service.start(cause, table),
            }
            await answer.run(calls[self.what]())
            await answer.acknowledge()


@dataclass(frozen=True)
class LobbySeat:
    """A filled seat as the lobby shows it (a mention or a name)."""

    name: str
    is_computer: bool = False
    away: bool = False

    @classmethod
    def of(cls, seat: Any) -> LobbySeat | None:
        """From the service's SeatInfo (name, is_computer, away; user_id gives a
        mention for people), or None for an empty seat."""
        if seat is None:
            return None
        user_id = getattr(seat, "user_id", None)
        name = f"<@{user_id}>" if user_id is not None and not seat.is_computer else seat.name
        return cls(name, bool(seat.is_computer), bool(getattr(seat, "away", False)))


_LOBBY_STYLES: dict[LobbyWhat, discord.ButtonStyle] = {
    "join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
    "addbot": discord.ButtonStyle.primary, "start": discord.ButtonStyle.primary}


def lobby_view(table_id: int, locale: LocaleLike, *, free_seats: int = 4,
               status: str = "lobby") -> discord.ui.View:
    """Join / Leave / Add computer / Start. Outside the lobby, Leave only (a player may
    leave a match in play: the computer takes over); nothing once it is over."""
    out = discord.ui.View(timeout=None)
    if status in ("finished", "cancelled"):
        return out
    shown: tuple[LobbyWhat, ...] = ("join", "leave", "addbot", "start")
    if status != "lobby":
        shown = ("leave",)
    disabled = {"join": free_seats == 0, "addbot": free_seats == 0, "start": free_seats > 0,
                "leave": False}
    for what in shown:
        out.add_item(LobbyButton(table_id, what, label=t(f"btn.{what}", locale),
                                 style=_LOBBY_STYLES[what], disabled=disabled[what], row=0))
    return out


def seat_line(seat: int, filled: LobbySeat | None, dealer: int | None,
              locale: LocaleLike) -> str:
    wind = wind_name(seat, dealer, locale)
    if filled is None:
        return t("lobby.seat_empty", locale, seat=seat + 1, wind=wind)
    name = filled.name
    if filled.is_computer:
        name = t("lobby.computer", locale, name=name)
    elif filled.away:
        name = t("lobby.away", locale, name=name)
    return t("lobby.seat", locale, seat=seat + 1, wind=wind, name=name)


def pace_text(days: float, locale: LocaleLike) -> str:
    """"At this table's pace, about 3 days a match." (under half a day: "under a day")."""
    whole = round(days)
    if whole < 1:
        return t("lobby.pace.under_a_day", locale)
    if whole == 1:
        return t("lobby.pace.a_day", locale)
    return t("lobby.pace.days", locale, days=whole)


def lobby_embed(*, table_id: int, rules: str, options: Mapping[str, Any],
                seats: Sequence[LobbySeat | None], locale: LocaleLike, status: str = "lobby",
                hand: int | None = None, hands: int | None = None,
                dealer: int | None = None, pace: float | None = None) -> discord.Embed:
    """The lobby message: seats as they fill, the rules, every option and the status;
    in the lobby, once known, the days a match takes at its people's pace (``pace``)."""
    embed = discord.Embed(title=t("lobby.title", locale, rules=rules_name(rules, locale),
                                  table=table_id),
                          colour=discord.Colour.dark_green())
    free = sum(1 for s in seats if s is None)
    fields = {"free": free, "hand": hand or 0, "hands": hands or options.get("hands", 8)}
    embed.description = t(f"lobby.status.{status}", locale, **fields)
    if status == "lobby" and pace is not None:
        embed.description += "\n" + pace_text(pace, locale)
    lines = [seat_line(i, s, dealer, locale) for i, s in enumerate(seats)]
    embed.add_field(name=t("lobby.seats", locale), value="\n".join(lines), inline=False)
    embed.add_field(name=t("lobby.options", locale),
                    value=clip("\n".join(option_lines(rules, options, locale)),
                               MAX_EMBED_FIELD), inline=False)
    if status == "lobby":
        embed.set_footer(text=t("lobby.footer", locale))
    return embed
