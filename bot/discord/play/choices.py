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
    `advance_answer`); always the presser's own seat's. ``c9m7m8m`` "chi 9m with 7m
    8m" (two of the seat's own tiles, no 财神; at most 25 entries: those chosen, then
    pongs and kongs, then chis). The save redraws the clicked DM (its line and the
    menu's chosen entries) and replies with the `mj:cat` menus.
``mj:cat:{table}:{hand}:{tile}``
    The discard to play right after the seat's chi or pong of ``tile`` answered in
    advance ("pong 9m, then 1z"): the value a tile's notation, ``-`` "ask me then";
    one menu per chi or pong answered (at most five), on the reply to a save.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import discord

from bot.discord.core.answering import Answer, answering
from bot.discord.core.i18n import LocaleLike, join, lang, t
from bot.discord.core.items import (
    MAX_BUTTON_LABEL,
    MAX_OPTIONS,
    MAX_ROW_BUTTONS,
    MAX_ROWS,
    NUM,
    BadCustomId,
    chosen_value,
    out_of_date,
    own_id,
    persistent,
    select_row,
)
from bot.discord.core.words import MAX_CONTENT, MAX_OPTION_TEXT, clip, tiles_text
from bot.discord.play.premoves import NEXT_MARK
from bot.discord.play.words import answer_label
from bot.service.notices import ClaimAnswer
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


ANSWER_LETTERS = {ActionKind.PONG: "p", ActionKind.KONG: "k", ActionKind.CHI: "c"}
_LETTER_ANSWERS = {v: k for k, v in ANSWER_LETTERS.items()}
_HELD_FOR = {ActionKind.PONG: 2, ActionKind.KONG: 3}
_FIRST = {ActionKind.KONG: 0, ActionKind.PONG: 1, ActionKind.CHI: 2}
"""Of two answers chosen for one tile, the one kept (the service keeps one a tile)."""
THEN_MENUS = MAX_ROWS
"""The most claims a reply offers to name the discard after (one menu a row)."""

Answers = tuple[tuple[Tile, ClaimAnswer], ...]
"""A seat's claims answered in advance, by tile (`PrivateNotice.answers`)."""


def answer_value(tile: Tile, answer: ClaimAnswer | ActionKind) -> str:
    """A menu value: ``p9m`` "pong 9m", ``k9m`` "kong 9m", ``c9m7m8m`` "chi 9m with 7m
    8m"."""
    answer = answer if isinstance(answer, ClaimAnswer) else ClaimAnswer(answer)
    return ANSWER_LETTERS[answer.kind] + tile.notation + \
        "".join(t.notation for t in answer.tiles)


def parse_answers(values: Any) -> dict[Tile, ClaimAnswer]:
    """The menu's chosen values as answers, one a tile (a kong wins over a pong, a pong
    over a chi); anything else raises ValueError."""
    if not isinstance(values, list) or len(values) > MAX_OPTIONS:
        raise ValueError(f"a list of answers, not {values!r}")
    out: dict[Tile, ClaimAnswer] = {}
    for value in values:
        if not isinstance(value, str) or len(value) not in (3, 7) \
                or value[0] not in _LETTER_ANSWERS:
            raise ValueError(f"not an answer: {value!r}")
        kind = _LETTER_ANSWERS[value[0]]
        if (kind is ActionKind.CHI) != (len(value) == 7):
            raise ValueError(f"not an answer: {value!r}")
        try:
            tile = tile_from_notation(value[1:3])
            tiles = (tile_from_notation(value[3:5]), tile_from_notation(value[5:7])) \
                if kind is ActionKind.CHI else ()
        except NotationError as exc:
            raise ValueError(f"not an answer: {value!r}") from exc
        answer = ClaimAnswer(kind, tuple(sorted(tiles)))
        old = out.get(tile)
        if old is None or _FIRST[kind] < _FIRST[old.kind]:
            out[tile] = answer
    return out


def _pairs(answers: Answers | Mapping[Tile, ClaimAnswer | ActionKind]
           ) -> list[tuple[Tile, ClaimAnswer]]:
    pairs = answers.items() if isinstance(answers, Mapping) else answers
    return sorted((tile, a if isinstance(a, ClaimAnswer) else ClaimAnswer(a))
                  for tile, a in pairs)


def answers_text(answers: Answers | Mapping[Tile, ClaimAnswer | ActionKind],
                 locale: LocaleLike) -> str:
    """"碰 Pong Nine of Characters, then discard …, 杠 Kong …" in the reader's
    language."""
    return join([answer_label(tile, a, locale) for tile, a in _pairs(answers)], locale)


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
            custom_id=ClaimAnswersSelect.id_of(table, hand),
            placeholder=placeholder or None, min_values=0, max_values=len(options),
            options=options, row=row)
        super().__init__(select)
        self.table, self.hand = table, hand

    @staticmethod
    def id_of(table: int, hand: int) -> str:
        """The menu's id (`claims_menu` through discord.ui, `claims_row` as a dict)."""
        return own_id(ClaimAnswersSelect, f"mj:ca:{table}:{hand}")

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
            await _redraw(answer, interaction, table, self.hand, now)
            if not now:
                await answer.say(t("reply.claims_cleared", answer.locale))
                return
            info = await answer.run(answer.service.hand(answer.cause, table))
            menus = then_menus(info.view.hand, table, self.hand, now, answer.locale)
            text = t("reply.claims_saved", answer.locale,
                     answers=answers_text(now, answer.locale))
            if not menus:
                await answer.say(text)
                return
            ui = discord.ui.View(timeout=None)
            for menu in menus:
                ui.add_item(menu)
            try:
                await answer.say(clip(text + "\n" + t("claims.then_prompt", answer.locale),
                                      MAX_CONTENT), view=ui)
            finally:
                ui.clear_items()


async def _redraw(answer: Answer, interaction: discord.Interaction, table: int, hand: int,
                  now: Mapping[Tile, ClaimAnswer]) -> None:
    """The clicked DM shows the answers saved: its "answered in advance" line and the
    menu's chosen entries (its other lines and rows kept)."""
    message = interaction.message
    if message is None:
        return
    info = await answer.run(answer.service.hand(answer.cause, table))
    locale = answer.locale
    ui = discord.ui.View.from_message(message, timeout=None)
    out = discord.ui.View(timeout=None)
    for item in ui.children:
        custom_id = getattr(item, "custom_id", "") or ""
        if custom_id.startswith("mj:ca:"):
            menu = claim_answer_menu(info.view, table, hand, tuple(sorted(now.items())),
                                     locale, row=item.row)
            if menu is not None:
                out.add_item(menu)
            continue
        out.add_item(item)
    line = t("dm.claims", locale, answers=answers_text(now, locale)) if now else None
    try:
        await answer.update(content=with_claims_line(message.content, line, locale),
                            view=out)
    finally:  # sent: the views and their items no longer need each other
        out.clear_items()
        ui.clear_items()


def with_claims_line(content: str, line: str | None, locale: LocaleLike) -> str:
    """A DM's text with its "answered in advance" line replaced (None: taken out; put
    before the "next discard" line, or last)."""
    head = t("dm.claims", locale, answers="\x00").split("\x00")[0]
    lines = [x for x in content.split("\n") if not (head and x.startswith(head))]
    if line is not None:
        at = next((i for i, x in enumerate(lines) if x.startswith(NEXT_MARK)), len(lines))
        lines.insert(at, line)
    return clip("\n".join(lines), MAX_CONTENT)


def then_menus(held: Sequence[Tile], table: int, hand: int,
               answers: Mapping[Tile, ClaimAnswer], locale: LocaleLike
               ) -> list[ClaimThenSelect]:
    """One menu a chi or pong answered (at most `THEN_MENUS`): the discard to play right
    after it, of the tiles still held after that claim, or "ask me then"."""
    menus: list[ClaimThenSelect] = []
    for tile, answer in _pairs(answers):
        if answer.kind is ActionKind.KONG or len(menus) >= THEN_MENUS:
            continue
        rest = list(held)
        try:
            for used in answer.uses(tile):
                rest.remove(used)
        except ValueError:
            continue  # no longer held: the service judges the claim when it comes
        claim = answer_label(tile, answer, locale, then=False)
        options = [discord.SelectOption(label=clip(t("claims.then_ask", locale),
                                                   MAX_OPTION_TEXT),
                                        value="-", default=answer.then is None)]
        options += [discord.SelectOption(label=clip(tiles_text((x,), locale),
                                                    MAX_OPTION_TEXT),
                                         value=x.notation, default=x == answer.then)
                    for x in sorted(set(rest))]
        menus.append(ClaimThenSelect(table, hand, tile, options=options[:MAX_OPTIONS],
                                     row=len(menus),
                                     placeholder=clip(t("claims.then_placeholder", locale,
                                                        claim=claim), MAX_OPTION_TEXT)))
    return menus


@persistent
class ClaimThenSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                      template=rf"mj:cat:(?P<table>{NUM}):(?P<hand>{NUM}):(?P<tile>[1-9][mps]|[1-7]z)"):
    """The discard to play right after the seat's claim of ``tile`` answered in advance
    (value: a tile's notation, or ``-``: ask then)."""

    def __init__(self, table: int, hand: int, tile: Tile, *,
                 options: list[discord.SelectOption] | None = None, placeholder: str = "",
                 row: int | None = None) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=own_id(ClaimThenSelect, f"mj:cat:{table}:{hand}:{tile.notation}"),
            placeholder=placeholder or None, min_values=1, max_values=1,
            options=options or [discord.SelectOption(label="-", value="-")], row=row)
        super().__init__(select)
        self.table, self.hand, self.tile = table, hand, tile

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> ClaimThenSelect:
        return cls(int(match["table"]), int(match["hand"]), tile_from_notation(match["tile"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            value = chosen_value(interaction)
            then = None if value == "-" else tile_from_notation(value)
        except (BadCustomId, NotationError):
            await out_of_date(interaction)
            return
        async with answering(interaction) as answer:
            table = await answer.table_id(self.table, decision=True)
            now = await answer.run(answer.service.set_claim_discard(
                answer.cause, table, self.tile, then, hand_number=self.hand))
            claim = now[self.tile]
            locale = answer.locale
            said = t("reply.claim_then_ask", locale) if then is None \
                else tiles_text((then,), locale)
            await answer.say(t("reply.claim_then", locale,
                               claim=answer_label(self.tile, claim, locale, then=False),
                               then=said))


def claim_answer_menu(view: PlayerView, table_id: int, hand: int, answers: Answers,
                      locale: LocaleLike, *, row: int | None = None
                      ) -> ClaimAnswersSelect | None:
    """The menu of claims the seat of ``view`` may answer in advance (`claims_menu`)."""
    return claims_menu(view.hand, view.table.caishen, table_id, hand, answers, locale,
                       row=row)


def claims_menu(held: Sequence[Tile], caishen: Tile | None, table_id: int, hand: int,
                answers: Answers, locale: LocaleLike, *, row: int | None = None
                ) -> ClaimAnswersSelect | None:
    """The menu of claims the seat may answer in advance: a pong of each tile it holds
    two of, a kong of each it holds three of, a chi of each run two of its own tiles
    make with a third (suited tiles, no 财神: 白, the one that may play as another
    tile, is no suited tile), the current answers
    chosen (None: nothing to offer). At most 25 entries: the answers chosen first (a
    save keeps only what the menu shows), then the pongs and kongs, then the chis in
    order of the tile claimed."""
    shown = claim_entries(held, caishen, answers, locale)
    if not shown:
        return None
    placeholder, note = _claims_words(locale)
    options = [discord.SelectOption(label=label, value=value, description=note,
                                    default=default)
               for label, value, default in shown]
    return ClaimAnswersSelect(table_id, hand, row=row, options=options,
                              placeholder=placeholder)


def claims_row(held: Sequence[Tile], caishen: Tile | None, table_id: int, hand: int,
               answers: Answers, locale: LocaleLike) -> dict[str, Any] | None:
    """`claims_menu` on a row of its own, as Discord receives it (`select_row`): a
    click's answer offers it."""
    shown = claim_entries(held, caishen, answers, locale)
    if not shown:
        return None
    placeholder, note = _claims_words(locale)
    return select_row(ClaimAnswersSelect.id_of(table_id, hand), shown,
                      placeholder=placeholder, min_values=0, max_values=len(shown),
                      description=note)


def _claims_words(locale: LocaleLike) -> tuple[str, str]:
    """The claims menu's placeholder and each entry's note."""
    return (clip(t("claims.placeholder", locale), MAX_OPTION_TEXT),
            clip(t("claims.note", lang(locale)), MAX_OPTION_TEXT))


def claim_entries(held: Sequence[Tile], caishen: Tile | None, answers: Answers,
                  locale: LocaleLike) -> list[tuple[str, str, bool]]:
    """`claims_menu`'s entries as (label, value, default), in its order."""
    chosen = {(tile, a.kind, a.tiles) for tile, a in answers}
    entries = [(tile, a) for tile, a in answers if a.kind in ANSWER_LETTERS]
    for tile, a in claimable(held, caishen):
        if not chosen or (tile, a.kind, a.tiles) not in chosen:
            entries.append((tile, a))
    language = lang(locale)
    shown = []
    for tile, a in entries[:MAX_OPTIONS]:
        kind = a.kind
        order = 0 if kind is ActionKind.PONG else 1 if kind is ActionKind.KONG else 2
        label, value = _claim_words(int(tile), order, a.tiles, language)
        shown.append(((tile, order, value), label, value,
                      bool(chosen) and (tile, kind, a.tiles) in chosen))
    shown.sort(key=_first)
    return [(label, value, default) for _, label, value, default in shown]


_SHOWN = (ActionKind.PONG, ActionKind.KONG, ActionKind.CHI)
"""The order of a tile's claims in the menu (`claims_menu` tells them apart by identity:
an enum's hash is Python code)."""


def _first(entry: tuple[Any, ...]) -> Any:
    return entry[0]


@functools.lru_cache(maxsize=2048)
def _claim_words(tile: int, order: int, tiles: tuple[Tile, ...], language: str
                 ) -> tuple[str, str]:
    """A claim's menu label and value in ``language`` (the same every time: a click's
    reply and DM list some eight, a few hundred exist); ``tile``: the claimed tile's
    number, ``order``: its kind's place in `_SHOWN`."""
    answer = ClaimAnswer(_SHOWN[order], tiles)
    return (clip(answer_label(_TILE_OF[tile], answer, language, then=False),
                 MAX_OPTION_TEXT),
            answer_value(_TILE_OF[tile], answer))


def claimable(held: Sequence[Tile], wild: Tile | None) -> list[tuple[Tile, ClaimAnswer]]:
    """What a seat holding ``held`` could answer in advance: pongs and kongs, then chis
    of its own natural tiles (by the tile claimed; ``wild``: the hand's 财神). Worked
    out on the tiles' numbers (a tile's own hash is Python code: a menu hashed some
    fifty)."""
    skip = -1 if wild is None else int(wild)
    counts: dict[int, int] = {}
    for x in map(int, held):
        if x != skip:
            counts[x] = counts.get(x, 0) + 1
    natural = sorted(counts)
    out: list[tuple[Tile, ClaimAnswer]] = []
    for x in natural:
        if counts[x] >= _PONG_HELD:
            out.append((_TILE_OF[x], _PONG))
        if counts[x] >= _KONG_HELD:
            out.append((_TILE_OF[x], _KONG))
    chis: set[tuple[int, int, int]] = set()
    suited = [x for x in natural if x < _SUITED_BELOW]
    for i, a in enumerate(suited):
        for b in suited[i + 1:]:
            if a // 9 != b // 9 or b - a > 2:
                continue
            targets = (a + 1,) if b - a == 2 else (a - 1, b + 1)
            for c in targets:
                if 0 <= c < _SUITED_BELOW and c // 9 == a // 9:
                    chis.add((c, a, b))
    out += [(_TILE_OF[c], ClaimAnswer(ActionKind.CHI, (_TILE_OF[a], _TILE_OF[b])))
            for c, a, b in sorted(chis)]
    return out


_TILE_OF = {int(tile): tile for tile in Tile}
_SUITED_BELOW = min(int(tile) for tile in Tile if not tile.is_suited)
"""Suited tiles are numbered below this one (`Tile.is_suited`)."""
_PONG = ClaimAnswer(ActionKind.PONG)
_KONG = ClaimAnswer(ActionKind.KONG)
_PONG_HELD, _KONG_HELD = _HELD_FOR[ActionKind.PONG], _HELD_FOR[ActionKind.KONG]


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
