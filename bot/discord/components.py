"""Builders from engine views to Discord components: the move view (discard menu and
buttons), the lobby view and the lobby embed.

Pure functions: nothing here sends anything. They respect Discord's limits (a select
has at most 25 options, a row at most 5 buttons, a message at most 5 rows; button
labels ≤ 80 characters, option labels and descriptions ≤ 100) so that a send can never
fail on a limit whatever the hand looks like, and they only ever offer the moves in the
view: the service still checks every click. Message texts are in `bot.discord.texts`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.core.i18n import LocaleLike, t
from bot.discord.ids import (
    PREFERENCES,
    BackButton,
    DiscardSelect,
    LobbyButton,
    LobbyWhat,
    MoveButton,
    MoveCode,
    PreferenceButton,
)
from bot.discord.texts import (
    MAX_OPTION_TEXT,
    claimed_tile,
    clip,
    option_lines,
    rules_name,
    tiles_text,
    value_text,
    waits_text,
    wind_name,
)
from engine.game.actions import Action
from engine.rules.common import ActionKind
from engine.tiles import Tile
from engine.view import MoveView, PlayerView, TableView
from render.hand import tile_numbers

MAX_OPTIONS = 25
MAX_ROW_BUTTONS = 5
MAX_ROWS = 5
MAX_BUTTON_LABEL = 80
MAX_EMBED_FIELD = 1024
SUGGESTED_EMOJI = "⭐"

_BUTTON_ORDER = (ActionKind.WIN, ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG,
                 ActionKind.KONG, ActionKind.PONG, ActionKind.CHI, ActionKind.PASS)
_KEEP_FIRST = (ActionKind.WIN, ActionKind.PASS)
_STYLES = {ActionKind.WIN: discord.ButtonStyle.success,
           ActionKind.PASS: discord.ButtonStyle.secondary}
_BUTTON_KEYS = {ActionKind.CONCEALED_KONG: "btn.concealed_kong",
                ActionKind.ADDED_KONG: "btn.added_kong", ActionKind.KONG: "btn.kong",
                ActionKind.PONG: "btn.pong", ActionKind.CHI: "btn.chi",
                ActionKind.DISCARD: "btn.discard"}


# ---------------------------------------------------------------------------
# The move view (a seat's DM or ephemeral reply)


def move_label(move: MoveView, view: PlayerView, locale: LocaleLike) -> str:
    """A button's text: "碰 Pong 555m", "胡 Win (12 花)"; at most 80 characters."""
    action = move.action
    if action.kind is ActionKind.WIN:
        if move.value is None:
            return t("btn.win", locale)
        return clip(t("btn.win_value", locale,
                      value=value_text(view.table.rules, move.value, locale)),
                    MAX_BUTTON_LABEL)
    if action.kind is ActionKind.PASS:
        return t("btn.pass", locale)
    return clip(t(_BUTTON_KEYS[action.kind], locale,
                  tiles=meld_text(action, view.table, locale)), MAX_BUTTON_LABEL)


def meld_text(action: Action, table: TableView, locale: LocaleLike) -> str:
    """The tiles of a meld move by name, as the meld will stand ("East Wind ×3",
    "Bamboo 7 8 9"); with a 财神 among them, the tiles from the hand (the 财神 marked)
    then "+ the claimed tile", which it stands beside."""
    own: tuple[Tile, ...] = (action.tile,) if action.tile is not None else action.tiles
    claimed = claimed_tile(table)
    if action.kind not in (ActionKind.CHI, ActionKind.PONG, ActionKind.KONG):
        claimed = None
    wild = table.caishen
    if wild is None or wild not in own:
        return tiles_text((*own, claimed) if claimed is not None else own, locale)
    text = tiles_text(own, locale, caishen=wild)
    if claimed is None:
        return text
    return f"{text} + {tiles_text((claimed,), locale)}"


def discard_moves(view: PlayerView) -> list[MoveView]:
    """One legal discard per tile kind: the drawn tile first, then the hand's order."""
    by_tile = {m.action.tile: m for m in view.moves
               if m.action.kind is ActionKind.DISCARD and m.action.tile is not None}
    order = [view.drawn] if view.drawn is not None else []
    order += sorted(by_tile, key=int)
    out: list[MoveView] = []
    for tile in order:
        move = by_tile.pop(tile, None)
        if move is not None:
            out.append(move)
    return out


def discard_option(move: MoveView, view: PlayerView, locale: LocaleLike,
                   numbered: Mapping[Tile, tuple[int, ...]] | None = None
                   ) -> discord.SelectOption:
    """One menu entry: the tile by name; drawn / suggested / what it would wait on.
    ``numbered``: the view's `tile_numbers`, when the caller already has them (they
    are the same for every entry of a menu)."""
    tile = move.action.tile
    assert tile is not None
    notes = []
    if tile == view.drawn:
        notes.append(t("discard.drawn", locale))
    if tile == view.suggested:
        notes.append(t("discard.suggested", locale))
    if move.waits:
        notes.append(t("discard.waits", locale,
                       tiles=waits_text(move.waits, view.table.rules, locale,
                                        caishen=view.table.caishen)))
    description = clip(t("discard.sep", locale).join(notes), MAX_OPTION_TEXT) or None
    # a 财神 is marked: discarding a wildcard is legal, and rarely meant
    label = tiles_text((tile,), locale, caishen=view.table.caishen)
    # The numbers under this tile in the hand picture, so the two can be matched.
    if numbered is None:
        numbered = tile_numbers(view)
    numbers = ",".join(map(str, numbered.get(tile, ())))
    if numbers:
        label = t("discard.numbered", locale, numbers=numbers, label=label)
    return discord.SelectOption(
        label=clip(label, MAX_OPTION_TEXT), value=tile.notation,
        description=description, emoji=SUGGESTED_EMOJI if tile == view.suggested else None)


def discard_options(view: PlayerView, locale: LocaleLike) -> list[discord.SelectOption]:
    """At most 25 entries (a hand has at most 14 kinds; the cap is belt and braces),
    keeping the drawn and the suggested tile if ever something must go."""
    moves = discard_moves(view)
    if len(moves) > MAX_OPTIONS:
        keep = {view.drawn, view.suggested}
        kept = [m for m in moves if m.action.tile in keep]
        rest = [m for m in moves if m.action.tile not in keep]
        moves = [m for m in moves if m in kept or m in rest[: MAX_OPTIONS - len(kept)]]
    numbered = tile_numbers(view)  # once per menu, not once per entry
    return [discard_option(m, view, locale, numbered) for m in moves]


def button_moves(view: PlayerView, capacity: int) -> list[MoveView]:
    """The non-discard moves in display order; beyond ``capacity`` win and pass stay."""
    order = {kind: i for i, kind in enumerate(_BUTTON_ORDER)}
    moves = sorted((m for m in view.moves if m.action.kind in order),
                   key=lambda m: order[m.action.kind])
    if len(moves) <= capacity:
        return moves
    must = [m for m in moves if m.action.kind in _KEEP_FIRST][:capacity]
    others = [m for m in moves if m.action.kind not in _KEEP_FIRST]
    kept = set(map(id, must + others[: capacity - len(must)]))
    return [m for m in moves if id(m) in kept]


def move_view(view: PlayerView, table_id: int, hand: int, step: int,
              locale: LocaleLike) -> discord.ui.View:
    """The persistent view of the moves in ``view`` at the decision's public ``step``:
    the discard menu on row 0, the buttons after it, five to a row. Empty when there is
    nothing to decide."""
    out = discord.ui.View(timeout=None)
    options = discard_options(view, locale)
    row = 0
    if options:
        out.add_item(DiscardSelect(table_id, hand, step, options=options, row=0,
                                   placeholder=t("discard.placeholder", locale),
                                   seat=view.seat))
        row = 1
    capacity = (MAX_ROWS - row) * MAX_ROW_BUTTONS
    for i, move in enumerate(button_moves(view, capacity)):
        out.add_item(MoveButton(
            table_id, hand, step, MoveCode.of(move.action), row=row + i // MAX_ROW_BUTTONS,
            label=move_label(move, view, locale), seat=view.seat,
            style=_STYLES.get(move.action.kind, discord.ButtonStyle.primary)))
    return out


# ---------------------------------------------------------------------------
# The lobby


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


def lobby_embed(*, table_id: int, rules: str, options: Mapping[str, Any],
                seats: Sequence[LobbySeat | None], locale: LocaleLike, status: str = "lobby",
                hand: int | None = None, hands: int | None = None,
                dealer: int | None = None) -> discord.Embed:
    """The lobby message: seats as they fill, the rules, every option and the status."""
    embed = discord.Embed(title=t("lobby.title", locale, rules=rules_name(rules, locale),
                                  table=table_id),
                          colour=discord.Colour.dark_green())
    free = sum(1 for s in seats if s is None)
    fields = {"free": free, "hand": hand or 0, "hands": hands or options.get("hands", 8)}
    embed.description = t(f"lobby.status.{status}", locale, **fields)
    lines = [seat_line(i, s, dealer, locale) for i, s in enumerate(seats)]
    embed.add_field(name=t("lobby.seats", locale), value="\n".join(lines), inline=False)
    embed.add_field(name=t("lobby.options", locale),
                    value=clip("\n".join(option_lines(rules, options, locale)),
                               MAX_EMBED_FIELD), inline=False)
    if status == "lobby":
        embed.set_footer(text=t("lobby.footer", locale))
    return embed


# ---------------------------------------------------------------------------
# Standing choices (DESIGN: asynchronous play)


def preference_items(table_id: int, choices: Any, locale: LocaleLike, *, away: bool = False,
                     row: int | None = None) -> list[discord.ui.Item[Any]]:
    """One toggle per standing choice (``choices`` has the store's StandingChoices
    fields), each id carrying the value a press sets; "I'm back" first when away."""
    items: list[discord.ui.Item[Any]] = []
    if away:
        items.append(BackButton(table_id, label=t("btn.back", locale), row=row))
    for name in PREFERENCES:
        current = bool(getattr(choices, name))
        label = t(f"btn.pref.{name}", locale)
        if current:
            label = t("btn.pref.on", locale, label=label)
        style = discord.ButtonStyle.success if current else discord.ButtonStyle.secondary
        items.append(PreferenceButton(table_id, name, not current, row=row,
                                      label=clip(label, MAX_BUTTON_LABEL), style=style))
    return items


def add_preferences(ui: discord.ui.View, table_id: int, choices: Any, locale: LocaleLike,
                    *, away: bool = False) -> bool:
    """Append the standing-choice row to ``ui`` when a row is free (a move view uses
    at most two rows in practice); False when there is no room."""
    used = {row for row in map(_row_of, ui.children) if row is not None}
    free = [r for r in range(MAX_ROWS) if r not in used and r > max(used, default=-1)]
    if not free:
        return False
    for item in preference_items(table_id, choices, locale, away=away, row=free[0]):
        ui.add_item(item)
    return True


def _row_of(item: discord.ui.Item[Any]) -> int | None:
    """An item's row; a DynamicItem reports None itself, its wrapped item knows."""
    if item.row is not None:
        return item.row
    inner = getattr(item, "item", None)
    return inner.row if inner is not None else None
