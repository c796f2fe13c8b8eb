"""The next discard chosen in advance ("next: 9p", DESIGN30 point 2): the menu under a
seat's DM while it is not deciding, its cancel button once set, and their clicks.

``mj:nx:{table}:{hand}:s{seat}``
    "Next discard…": the chosen option's value is a tile's notation (``"9p"``). Played
    at the seat's next turn if the draw offers no win and no kong and the tile is still
    held (the service judges it then); choosing again changes it.
``mj:nxc:{table}:{hand}:s{seat}``
    Cancel the next discard chosen in advance.
``mj:nxd:{table}:{hand}:s{seat}:{on|off}``
    Set "or my draw if it helps less" of the next discard chosen in advance (on for a
    new one: at the turn, whichever of the chosen tile and the draw the engine's advice
    keeps less is played; off: exactly the chosen tile). The id says the value a press
    sets, so a double click or an old message never flips it the wrong way.

``hand`` makes a menu of an earlier hand stale; ``seat`` refuses anyone else's press
(`not_yours`, `wrong_seat`). Each click is answered by editing the message it was on
(its "next:" line and the cancel button): nothing of it goes anywhere else. The id
scheme's shared rules are `bot.discord.core.items`'.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.discord.core.answering import Answer, answering
from bot.discord.core.i18n import LocaleLike, lang, t
from bot.discord.core.items import (
    MAX_BUTTON_LABEL,
    MAX_OPTIONS,
    NUM,
    BadCustomId,
    chosen_value,
    out_of_date,
    own_id,
    persistent,
    select_row,
)
from bot.discord.core.words import MAX_CONTENT, MAX_OPTION_TEXT, clip, tiles_text
from bot.service.notices import NextDiscard
from engine.tiles import NotationError, Tile, tile_from_notation
from engine.view import PlayerView

NEXT_MARK = "⏭"
"""How a DM's "next discard" line begins (an edit finds the old one by it)."""


def next_line(chosen: NextDiscard, locale: LocaleLike, caishen: Tile | None = None) -> str:
    """The DM's line saying the next discard chosen in advance, and whether it is "or
    my draw if it helps less"."""
    return t("dm.next" if chosen.or_draw else "dm.next.exact", locale, mark=NEXT_MARK,
             tile=tiles_text((chosen.tile,), locale, caishen=caishen))


def with_next_line(content: str, line: str | None) -> str:
    """A DM's text with its "next discard" line replaced (None: taken out)."""
    lines = [x for x in content.split("\n") if not x.startswith(NEXT_MARK)]
    if line is not None:
        lines.append(line)
    return clip("\n".join(lines), MAX_CONTENT)


def can_choose_next(view: PlayerView, step: int | None) -> bool:
    """Whether a DM offers the menu: the seat decides nothing now, in a running hand."""
    return step is None and view.table.phase != "ended" and bool(view.hand)


def next_options(view: PlayerView, chosen: NextDiscard | None, locale: LocaleLike
                 ) -> list[discord.SelectOption]:
    """One entry per kind of tile the seat holds, the chosen one marked."""
    return tile_options(view.hand, chosen.tile if chosen is not None else None, locale,
                        view.table.caishen)


def tile_options(held: Sequence[Tile], chosen: Tile | None, locale: LocaleLike,
                 caishen: Tile | None = None) -> list[discord.SelectOption]:
    """One entry per kind of tile in ``held``, the chosen one marked."""
    return [discord.SelectOption(label=label, value=value, default=default)
            for label, value, default in tile_entries(held, chosen, locale, caishen)]


def tile_entries(held: Sequence[Tile], chosen: Tile | None, locale: LocaleLike,
                 caishen: Tile | None = None) -> list[tuple[str, str, bool]]:
    """`tile_options`' entries as (label, value, default)."""
    language = lang(locale)
    wild = -1 if caishen is None else int(caishen)
    marked = -1 if chosen is None else int(chosen)
    return [(*_tile_words(tile, wild, language), tile == marked)
            for tile in sorted(set(map(int, held)))[:MAX_OPTIONS]]


def next_discard_row(table_id: int, hand: int, seat: int, held: Sequence[Tile],
                     caishen: Tile | None, locale: LocaleLike) -> dict[str, Any]:
    """The "Next discard…" menu with nothing chosen, on a row of its own, as Discord
    receives it (what `next_items` places, `select_row`): a click's answer offers it."""
    return select_row(NextDiscardSelect.id_of(table_id, hand, seat),
                      tile_entries(held, None, locale, caishen),
                      placeholder=t("next.placeholder", locale), min_values=1, max_values=1)


_TILES = {int(tile): tile for tile in Tile}


@functools.lru_cache(maxsize=512)
def _tile_words(tile: int, caishen: int, language: str) -> tuple[str, str]:
    """A "Next discard…" entry's label and value for the tile numbered ``tile`` (the
    same every time: a click's reply lists some ten; ``caishen`` -1: none)."""
    return (clip(tiles_text((_TILES[tile],), language,
                            caishen=_TILES.get(caishen)), MAX_OPTION_TEXT),
            _TILES[tile].notation)


def next_items(table_id: int, hand: int, seat: int, options: list[discord.SelectOption],
               chosen: NextDiscard | None, locale: LocaleLike, *, row: int
               ) -> list[discord.ui.Item[Any]]:
    """The menu (on ``row``) and, once a next discard is chosen, its cancel button and
    its "or my draw" toggle (on the row after)."""
    items: list[discord.ui.Item[Any]] = [NextDiscardSelect(
        table_id, hand, seat, options=options, row=row,
        placeholder=t("next.placeholder", locale))]
    if chosen is not None:
        items.append(NextDiscardCancel(table_id, hand, seat, row=row + 1,
                                       label=clip(t("btn.next_cancel", locale),
                                                  MAX_BUTTON_LABEL)))
        label = t("btn.next_or_draw", locale)
        if chosen.or_draw:
            label = t("btn.pref.on", locale, label=label)
        items.append(NextOrDrawButton(
            table_id, hand, seat, not chosen.or_draw, row=row + 1,
            label=clip(label, MAX_BUTTON_LABEL),
            style=discord.ButtonStyle.success if chosen.or_draw
            else discord.ButtonStyle.secondary))
    return items


@persistent
class NextDiscardSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                        template=rf"mj:nx:(?P<table>{NUM}):(?P<hand>{NUM}):s(?P<seat>[0-3])"):
    """"Next discard…": the value is a tile's notation."""

    def __init__(self, table: int, hand: int, seat: int, *,
                 options: list[discord.SelectOption] | None = None, placeholder: str = "",
                 row: int | None = None) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=NextDiscardSelect.id_of(table, hand, seat),
            placeholder=placeholder or None, min_values=1, max_values=1,
            options=options or [discord.SelectOption(label="-", value="-")], row=row)
        super().__init__(select)
        self.table, self.hand, self.seat = table, hand, seat

    @staticmethod
    def id_of(table: int, hand: int, seat: int) -> str:
        """The menu's id (`next_items` through discord.ui, `next_discard_row` as a dict)."""
        return own_id(NextDiscardSelect, f"mj:nx:{table}:{hand}:s{seat}")

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> NextDiscardSelect:
        options = list(getattr(item, "options", ()) or ()) or None
        return cls(int(match["table"]), int(match["hand"]), int(match["seat"]),
                   options=options)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            tile = tile_from_notation(chosen_value(interaction))
        except (BadCustomId, NotationError):
            await out_of_date(interaction)
            return
        await choose(interaction, self.table, self.hand, self.seat, tile)


@persistent
class NextDiscardCancel(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=rf"mj:nxc:(?P<table>{NUM}):(?P<hand>{NUM}):s(?P<seat>[0-3])"):
    """Cancel the next discard chosen in advance."""

    def __init__(self, table: int, hand: int, seat: int, *, label: str = "",
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or None, style=discord.ButtonStyle.secondary, row=row,
            custom_id=own_id(NextDiscardCancel, f"mj:nxc:{table}:{hand}:s{seat}")))
        self.table, self.hand, self.seat = table, hand, seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> NextDiscardCancel:
        return cls(int(match["table"]), int(match["hand"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await choose(interaction, self.table, self.hand, self.seat, None)


@persistent
class NextOrDrawButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=rf"mj:nxd:(?P<table>{NUM}):(?P<hand>{NUM}):s(?P<seat>[0-3])"
                                r":(?P<value>on|off)"):
    """"Or my draw if it helps less" for the next discard chosen in advance: the id
    says the value it sets."""

    def __init__(self, table: int, hand: int, seat: int, on: bool, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None) -> None:
        custom_id = f"mj:nxd:{table}:{hand}:s{seat}:{'on' if on else 'off'}"
        super().__init__(discord.ui.Button(label=label or None, style=style, row=row,
                                           custom_id=own_id(NextOrDrawButton, custom_id)))
        self.table, self.hand, self.seat, self.on = table, hand, seat, on

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> NextOrDrawButton:
        return cls(int(match["table"]), int(match["hand"]), int(match["seat"]),
                   match["value"] == "on")

    async def callback(self, interaction: discord.Interaction) -> None:
        async with answering(interaction) as answer:
            table = await answer.table_id(self.table, decision=True)
            await answer.run(answer.service.set_next_or_draw(
                answer.cause, table, self.on, hand_number=self.hand, seat=self.seat))
            await _show(answer, interaction, table, self.hand, self.seat)


async def choose(interaction: discord.Interaction, table_id: int, hand: int, seat: int,
                 tile: Tile | None) -> None:
    """Choose (or cancel) the seat's next discard, for the table the id names where its
    decisions belong (its channel, or the seated person's private messages); then the
    message clicked shows it: its "next:" line, its menu, cancel button and "or my
    draw" toggle."""
    async with answering(interaction) as answer:
        table = await answer.table_id(table_id, decision=True)
        await answer.run(answer.service.set_next_discard(
            answer.cause, table, tile, hand_number=hand, seat=seat))
        await _show(answer, interaction, table, hand, seat)


async def _show(answer: Answer, interaction: discord.Interaction, table: int, hand: int,
                seat: int) -> None:
    """Edit the clicked message: its "next:" line, and its menu (the chosen tile marked),
    cancel button and "or my draw" toggle in place of the old ones, as the seat's next
    discard stands now; its other rows kept."""
    message = interaction.message
    info = await answer.run(answer.service.hand(answer.cause, table))
    chosen = info.next_discard
    locale = answer.locale
    caishen = info.view.table.caishen
    line = next_line(chosen, locale, caishen) if chosen is not None else None
    if message is None:
        await answer.say(line or t("reply.next_cancelled", locale))
        return
    ui = discord.ui.View.from_message(message, timeout=None)
    rows: dict[int, list[discord.ui.Item[Any]]] = {}
    for item in ui.children:
        custom_id = getattr(item, "custom_id", "") or ""
        if custom_id.startswith(("mj:nx:", "mj:nxc:", "mj:nxd:")):
            continue
        rows.setdefault(item.row if item.row is not None else 0, []).append(item)
    out = discord.ui.View(timeout=None)
    if can_choose_next(info.view, info.step):
        for item in next_items(table, hand, seat, next_options(info.view, chosen, locale),
                               chosen, locale, row=0):
            out.add_item(item)
    first = 2 if chosen is not None else 1
    for i, row in enumerate(sorted(rows)):
        for item in rows[row]:
            item.row = min(first + i, 4)
            out.add_item(item)
    try:
        await answer.update(content=with_next_line(message.content, line), view=out)
    finally:  # sent: the views and their items no longer need each other
        out.clear_items()
        ui.clear_items()
