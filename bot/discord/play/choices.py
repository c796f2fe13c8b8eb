"""Standing choices, claims answered in advance and "I'm back" (DESIGN: asynchronous
play; issue 30): the row of toggles under a seat's decision, the menu of claims a seat
answers for this hand while it decides nothing, and their clicks.

``mj:pref:{table}:{name}:{on|off}``
    Set a standing choice to on or off: ``name`` ∈ always_win, pass_claims ("win
    only"), never_chi, discard_drawn_when_away, discard_drawn_when_ready (the store's
    StandingChoices; the last is shown only while the hand is ready, or while it is on).
``mj:back:{table}``
    "I'm back": an away player takes their seat back from the computer.
``mj:ca:{table}:{hand}``
    The claims answered in advance in hand ``hand`` (a menu of several values, the
    whole set each time, none clearing it): ``p9m`` "pong 9m", ``k9m`` "kong 9m", for
    the tiles the seat holds two or three of when the DM was made. Played at once
    when a window offers exactly that claim and no win (the service's
    `advance_answer`); always the presser's own seat's.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import discord

from bot.discord.core.answering import answering
from bot.discord.core.i18n import LocaleLike, join, t
from bot.discord.core.items import (
    MAX_BUTTON_LABEL,
    MAX_OPTIONS,
    MAX_ROW_BUTTONS,
    MAX_ROWS,
    NUM,
    out_of_date,
    own_id,
    persistent,
)
from bot.discord.core.words import MAX_OPTION_TEXT, clip, tiles_text
from engine.rules.common import ActionKind
from engine.tiles import NotationError, Tile, tile_from_notation
from engine.view import PlayerView

Preference = Literal["always_win", "pass_claims", "never_chi", "discard_drawn_when_away",
                     "discard_drawn_when_ready"]
PREFERENCES: tuple[Preference, ...] = ("always_win", "pass_claims", "never_chi",
                                       "discard_drawn_when_away", "discard_drawn_when_ready")
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


def _free_rows(ui: discord.ui.View) -> list[int]:
    """The rows after the last one ``ui`` uses."""
    used = {row for row in map(_row_of, ui.children) if row is not None}
    return [r for r in range(MAX_ROWS) if r not in used and r > max(used, default=-1)]


ANSWER_LETTERS = {ActionKind.PONG: "p", ActionKind.KONG: "k"}
_LETTER_ANSWERS = {v: k for k, v in ANSWER_LETTERS.items()}
_HELD_FOR = {ActionKind.PONG: 2, ActionKind.KONG: 3}
ANSWER_KEYS = {ActionKind.PONG: "claims.pong", ActionKind.KONG: "claims.kong"}

Answers = tuple[tuple[Tile, ActionKind], ...]
"""A seat's claims answered in advance, by tile (`PrivateNotice.answers`)."""


def answer_value(tile: Tile, kind: ActionKind) -> str:
    """A menu value: ``p9m`` "pong 9m", ``k9m`` "kong 9m"."""
    return ANSWER_LETTERS[kind] + tile.notation


def parse_answers(values: Any) -> dict[Tile, ActionKind]:
    """The menu's chosen values as answers (a kong of a tile wins over its pong);
    anything else raises ValueError."""
    if not isinstance(values, list) or len(values) > MAX_OPTIONS:
        raise ValueError(f"a list of answers, not {values!r}")
    out: dict[Tile, ActionKind] = {}
    for value in values:
        if not isinstance(value, str) or len(value) != 3 or value[0] not in _LETTER_ANSWERS:
            raise ValueError(f"not an answer: {value!r}")
        try:
            tile = tile_from_notation(value[1:])
        except NotationError as exc:
            raise ValueError(f"not an answer: {value!r}") from exc
        kind = _LETTER_ANSWERS[value[0]]
        if out.get(tile) is not ActionKind.KONG:
            out[tile] = kind
    return out


def answers_text(answers: Answers | dict[Tile, ActionKind], locale: LocaleLike) -> str:
    """"碰 Pong Nine of Characters, 杠 Kong …" in the reader's language."""
    pairs = answers.items() if isinstance(answers, dict) else answers
    return join([t(ANSWER_KEYS[kind], locale, tile=tiles_text((tile,), locale))
                 for tile, kind in sorted(pairs)], locale)


@persistent
class ClaimAnswersSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                         template=rf"mj:ca:(?P<table>{NUM}):(?P<hand>{NUM})"):
    """The claims a seat answers in advance for the hand: the chosen set replaces the
    one before (none chosen: cleared)."""

    def __init__(self, table: int, hand: int, *,
                 options: list[discord.SelectOption] | None = None, placeholder: str = "",
                 row: int | None = None) -> None:
        options = options or [discord.SelectOption(label="-", value="-")]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=own_id(ClaimAnswersSelect, f"mj:ca:{table}:{hand}"),
            placeholder=placeholder or None, min_values=0, max_values=len(options),
            options=options, row=row)
        super().__init__(select)
        self.table, self.hand = table, hand

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> ClaimAnswersSelect:
        return cls(int(match["table"]), int(match["hand"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        data: Any = interaction.data or {}
        try:
            answers = parse_answers(data.get("values"))
        except ValueError:
            await out_of_date(interaction)
            return
        async with answering(interaction) as answer:
            table = await answer.table_id(self.table, decision=True)
            now = await answer.run(answer.service.set_claim_answers(
                answer.cause, table, answers, hand_number=self.hand))
            if now:
                await answer.say(t("reply.claims_saved", answer.locale,
                                   answers=answers_text(now, answer.locale)))
            else:
                await answer.say(t("reply.claims_cleared", answer.locale))


def claim_answer_menu(view: PlayerView, table_id: int, hand: int, answers: Answers,
                      locale: LocaleLike, *, row: int | None = None
                      ) -> ClaimAnswersSelect | None:
    """The menu of claims the seat may answer in advance: a pong of each tile it holds
    two of, a kong of each it holds three of (None: it holds no pair), the current
    answers chosen."""
    held = view.hand
    chosen = set(answers)
    options = []
    for tile in sorted(set(held)):
        for kind in (ActionKind.PONG, ActionKind.KONG):
            if held.count(tile) >= _HELD_FOR[kind]:
                label = t(ANSWER_KEYS[kind], locale, tile=tiles_text((tile,), locale))
                options.append(discord.SelectOption(
                    label=clip(label, MAX_OPTION_TEXT), value=answer_value(tile, kind),
                    description=clip(t("claims.note", locale), MAX_OPTION_TEXT),
                    default=(tile, kind) in chosen))
    if not options:
        return None
    return ClaimAnswersSelect(table_id, hand, row=row,
                              options=options[:MAX_OPTIONS],
                              placeholder=clip(t("claims.placeholder", locale),
                                               MAX_OPTION_TEXT))


def add_claim_answers(ui: discord.ui.View, view: PlayerView, table_id: int, hand: int,
                      answers: Answers, locale: LocaleLike) -> bool:
    """Append the claims-in-advance menu on a free row of ``ui`` (for a seat that
    decides nothing now, in a hand still played); False when there is none to offer
    or no room."""
    free = _free_rows(ui)
    if not free or view.table.phase == "ended" or view.moves:
        return False
    menu = claim_answer_menu(view, table_id, hand, answers, locale, row=free[0])
    if menu is None:
        return False
    ui.add_item(menu)
    return True


def _row_of(item: discord.ui.Item[Any]) -> int | None:
    """An item's row; a DynamicItem reports None itself, its wrapped item knows."""
    if item.row is not None:
        return item.row
    inner = getattr(item, "item", None)
    return inner.row if inner is not None else None
