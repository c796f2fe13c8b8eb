"""Standing choices and "I'm back" (DESIGN: asynchronous play): the row of toggles under
a seat's decision, and their clicks.

``mj:pref:{table}:{name}:{on|off}``
    Set a standing choice to on or off: ``name`` ∈ always_win, pass_claims,
    discard_drawn_when_away, discard_drawn_when_ready (the store's StandingChoices;
    the last is shown only while the hand is ready, or while it is on).
``mj:back:{table}``
    "I'm back": an away player takes their seat back from the computer.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import discord

from bot.discord.core.answering import answering
from bot.discord.core.i18n import LocaleLike, t
from bot.discord.core.items import (
    MAX_BUTTON_LABEL,
    MAX_ROW_BUTTONS,
    MAX_ROWS,
    NUM,
    own_id,
    persistent,
)
from bot.discord.core.words import clip

Preference = Literal["always_win", "pass_claims", "discard_drawn_when_away",
                     "discard_drawn_when_ready"]
PREFERENCES: tuple[Preference, ...] = ("always_win", "pass_claims", "discard_drawn_when_away",
                                       "discard_drawn_when_ready")
WHEN_READY: frozenset[Preference] = frozenset({"discard_drawn_when_ready"})
"""Shown only while the seat's hand is ready (or while on, to turn it off)."""


@persistent
class PreferenceButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=rf"mj:pref:(?P<table>{NUM}):(?P<name>{'|'.join(PREFERENCES)})"
                                r":(?P<value>on|off)"):
    """A standing-choice toggle: its id says the value it sets, not "toggle", so a
    double click or a stale message cannot flip the choice the wrong way."""

    def __init__(self, table: int, name: Preference, on: bool, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None) -> None:
        custom_id = f"mj:pref:{table}:{name}:{'on' if on else 'off'}"
        super().__init__(discord.ui.Button(label=label or None, style=style, row=row,
                                           custom_id=own_id(PreferenceButton, custom_id)))
        self.table, self.name, self.on = table, name, on

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> PreferenceButton:
        name: Any = match["name"]
        return cls(int(match["table"]), name, match["value"] == "on")

    async def callback(self, interaction: discord.Interaction) -> None:
        async with answering(interaction) as answer:
            table = await answer.table_id(self.table, decision=True)
            await answer.run(answer.service.set_choice(answer.cause, table, self.name,
                                                       self.on))
            label = t(f"btn.pref.{self.name}", answer.locale)
            if self.on:
                label = t("btn.pref.on", answer.locale, label=label)
            await answer.say(t("reply.pref_saved", answer.locale, label=label))


@persistent
class BackButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=rf"mj:back:(?P<table>{NUM})"):
    """"I'm back", shown to a seat marked away: the computer stops playing for it."""

    def __init__(self, table: int, *, label: str = "", row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or None, row=row,
                                           style=discord.ButtonStyle.success,
                                           custom_id=own_id(BackButton, f"mj:back:{table}")))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> BackButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with answering(interaction) as answer:
            table = await answer.table_id(self.table, decision=True)
            await answer.run(answer.service.back(answer.cause, table))
            await answer.say(t("reply.back", answer.locale))


def preference_items(table_id: int, choices: Any, locale: LocaleLike, *, away: bool = False,
                     row: int | None = None, ready: bool = False
                     ) -> list[discord.ui.Item[Any]]:
    """One toggle per standing choice (``choices`` has the store's StandingChoices
    fields), each id carrying the value a press sets; "I'm back" first when away. The
    choices for a ready hand only while it is ``ready`` (or on)."""
    items: list[discord.ui.Item[Any]] = []
    if away:
        items.append(BackButton(table_id, label=t("btn.back", locale), row=row))
    for name in PREFERENCES:
        current = bool(getattr(choices, name))
        if name in WHEN_READY and not ready and not current:
            continue
        label = t(f"btn.pref.{name}", locale)
        if current:
            label = t("btn.pref.on", locale, label=label)
        style = discord.ButtonStyle.success if current else discord.ButtonStyle.secondary
        items.append(PreferenceButton(table_id, name, not current, row=row,
                                      label=clip(label, MAX_BUTTON_LABEL), style=style))
    return items


def add_preferences(ui: discord.ui.View, table_id: int, choices: Any, locale: LocaleLike,
                    *, away: bool = False, ready: bool = False) -> bool:
    """Append the standing-choice rows to ``ui`` after its last used row, five toggles a
    row (a move view uses at most two rows in practice); False when there is no room
    for them all (none is added then)."""
    used = {row for row in map(_row_of, ui.children) if row is not None}
    free = [r for r in range(MAX_ROWS) if r > max(used, default=-1)]
    items = preference_items(table_id, choices, locale, away=away, ready=ready)
    if len(free) * MAX_ROW_BUTTONS < len(items):
        return False
    for i, item in enumerate(items):
        item.row = free[i // MAX_ROW_BUTTONS]
        ui.add_item(item)
    return True


def _row_of(item: discord.ui.Item[Any]) -> int | None:
    """An item's row; a DynamicItem reports None itself, its wrapped item knows."""
    if item.row is not None:
        return item.row
    inner = getattr(item, "item", None)
    return inner.row if inner is not None else None
