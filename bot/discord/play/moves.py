"""A seat's decision: its move buttons and discard menu, made (`move_view`), parsed
back from a click and played (`play`).

``mj:mv:{table}:{hand}:p{step}:{move}:s{seat}``
    A move button. ``step`` is the public step of the decision in hand ``hand`` (the
    DM was made for it: anything else is stale), counted in moves every player has
    seen (`bot.service.steps`), so that no player can count the claim answers other
    seats gave. Ids made before carry a bare number there: the hand's seq, judged as
    it was (it is still exact, only not public). ``move`` encodes the
    action without its seat: a kind letter then the tiles in compact notation —
    ``w`` win, ``x`` pass, ``c46m`` chi with 4m 6m, ``p55m`` pong, ``k555m`` exposed
    kong, ``a5m`` add 5m to a pong, ``g1111m`` concealed kong, ``d5m`` discard.
    ``seat`` (0–3) is the seat the button was made for, so that another player
    pressing it is told it is not theirs (and can never answer for that seat). Ids
    sent before the seat was added end at ``{move}``: the presser's seat is implied.
``mj:dc:{table}:{hand}:p{step}:s{seat}``
    The discard menu; the chosen option's value is the tile notation (``"5m"``).
    ``:s{seat}`` as for a move (absent in older ids).

The view respects Discord's limits (a select has at most 25 options, a row at most 5
buttons, a message at most 5 rows; button labels ≤ 80 characters, option labels and
descriptions ≤ 100) so that a send can never fail on a limit whatever the hand looks
like, and it only ever offers the moves in the engine's view: the service still checks
every click. The id scheme's shared rules are `bot.discord.core.items`'.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.core.answering import Answer, answering
from bot.discord.core.i18n import LocaleLike, t
from bot.discord.core.items import (
    MAX_BUTTON_LABEL,
    MAX_OPTIONS,
    MAX_ROW_BUTTONS,
    MAX_ROWS,
    NUM,
    BadCustomId,
    ComposedView,
    chosen_value,
    out_of_date,
    own_id,
    persistent,
)
from bot.discord.core.words import (
    MAX_CONTENT,
    MAX_OPTION_TEXT,
    claimed_tile,
    clip,
    tiles_text,
    value_text,
    waits_text,
)
from bot.discord.play.premoves import next_discard_row
from bot.service import ActResult, Refused
from bot.service import errors as E
from engine.game.actions import Action
from engine.rules.common import ActionKind
from engine.tiles import NotationError, Tile, format_tiles, parse_tiles, tile_from_notation
from engine.view import MoveView, PlayerView, TableView
from render.hand import tile_numbers

TILES = r"(?:[1-9]+[mpsz])+"
MOVE = rf"(?:[wx]|[a-z]{TILES})"
STEP = rf"(?:p(?P<step>{NUM})|(?P<seq>{NUM}))"
"""The decision's public step after a ``p``; a bare number, the hand's seq, in ids made
before steps were public."""
SEAT = r"(?::s(?P<seat>[0-3]))?"
"""The seat a move is for; absent in ids made before it was carried."""

_KIND_LETTER: dict[ActionKind, str] = {
    ActionKind.WIN: "w", ActionKind.PASS: "x", ActionKind.CHI: "c", ActionKind.PONG: "p",
    ActionKind.KONG: "k", ActionKind.ADDED_KONG: "a", ActionKind.CONCEALED_KONG: "g",
    ActionKind.DISCARD: "d",
}
_LETTER_KIND = {v: k for k, v in _KIND_LETTER.items()}
_SINGLE_TILE = frozenset((ActionKind.DISCARD, ActionKind.ADDED_KONG))
_TILE_COUNT = {ActionKind.CHI: 2, ActionKind.PONG: 2, ActionKind.KONG: 3,
               ActionKind.CONCEALED_KONG: 4, ActionKind.WIN: 0, ActionKind.PASS: 0,
               ActionKind.DISCARD: 1, ActionKind.ADDED_KONG: 1}


# ---------------------------------------------------------------------------
# Moves without a seat


@dataclass(frozen=True)
class MoveCode:
    """An action minus its seat: what a button stands for, whoever presses it."""

    kind: ActionKind
    tile: Tile | None = None
    tiles: tuple[Tile, ...] = ()

    @classmethod
    def of(cls, action: Action) -> MoveCode:
        return cls(action.kind, action.tile, action.tiles)

    def action(self, seat: int) -> Action:
        """The engine action for ``seat`` (the service still checks it is legal)."""
        return Action(self.kind, seat, self.tile, self.tiles)

    def encode(self) -> str:
        shown = (self.tile,) if self.tile is not None else self.tiles
        return _KIND_LETTER[self.kind] + format_tiles(shown)

    @classmethod
    def decode(cls, text: str) -> MoveCode:
        """The inverse of `encode`; anything else raises BadCustomId."""
        kind = _LETTER_KIND.get(text[:1])
        if kind is None:
            raise BadCustomId(f"unknown move {text!r}")
        try:
            tiles = tuple(parse_tiles(text[1:], allow_empty=True, max_copies=False))
        except NotationError as exc:
            raise BadCustomId(f"bad tiles in move {text!r}: {exc}") from None
        if len(tiles) != _TILE_COUNT[kind] or any(x.is_flower for x in tiles):
            raise BadCustomId(f"move {text!r} has the wrong tiles for a {kind.value}")
        if kind in _SINGLE_TILE:
            return cls(kind, tiles[0])
        return cls(kind, tiles=tuple(sorted(tiles)))


def parse_discard_value(value: str) -> Tile:
    """The tile chosen in the discard menu; a flower or anything malformed is refused."""
    try:
        tile = tile_from_notation(value)
    except NotationError as exc:
        raise BadCustomId(f"bad discard value {value!r}: {exc}") from None
    if tile.is_flower:
        raise BadCustomId(f"a flower is never discarded: {value!r}")
    return tile


# ---------------------------------------------------------------------------
# The ids of a decision


def seat_suffix(seat: int | None) -> str:
    return "" if seat is None else f":s{seat}"


def seat_in(match: re.Match[str]) -> int | None:
    return None if match["seat"] is None else int(match["seat"])


def step_text(step: int | None, seq: int | None) -> str:
    """A decision's place in an id: its public step, or an older id's seq."""
    if step is not None:
        return f"p{step}"
    if seq is None:
        raise BadCustomId("a decision's id needs its step")
    return str(seq)


def steps_in(match: re.Match[str]) -> tuple[int | None, int | None]:
    """(public step, seq) of a decision's id: one of them, the other None."""
    step, seq = match["step"], match["seq"]
    return (None if step is None else int(step)), (None if seq is None else int(seq))


# ---------------------------------------------------------------------------
# The buttons and the discard menu, and their clicks


@persistent
class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=rf"mj:mv:(?P<table>{NUM}):(?P<hand>{NUM}):{STEP}"
                          rf":(?P<move>{MOVE}){SEAT}"):
    """A move button; built by `move_view` below, rebuilt from its id on click."""

    def __init__(self, table: int, hand: int, step: int | None, move: MoveCode | None, *,
                 label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.primary,
                 row: int | None = None, seat: int | None = None,
                 custom_id: str | None = None, seq: int | None = None) -> None:
        """``custom_id`` only when rebuilt from a click (``move`` None: it reads as no
        move, and the click is refused; ``seq`` instead of ``step``: an older id)."""
        if custom_id is None:
            if move is None:
                raise BadCustomId("a move button needs a move")
            custom_id = own_id(MoveButton, f"mj:mv:{table}:{hand}:{step_text(step, seq)}:"
                                           f"{move.encode()}" + seat_suffix(seat))
        super().__init__(discord.ui.Button(label=label or None, style=style, row=row,
                                           custom_id=custom_id))
        self.table, self.hand, self.step, self.move = table, hand, step, move
        self.seq, self.seat = seq, seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> MoveButton:
        """Never raises (discord.py would drop the click unanswered): a move that fits
        the template but not the rules of notation becomes None, refused on callback."""
        try:
            move: MoveCode | None = MoveCode.decode(match["move"])
        except BadCustomId:
            move = None
        step, seq = steps_in(match)
        return cls(int(match["table"]), int(match["hand"]), step, move,
                   seat=seat_in(match), custom_id=match.string, seq=seq)

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.move is None:
            await out_of_date(interaction)
            return
        await play(interaction, self.table, self.hand, (self.step, self.seq), self.move,
                   self.seat)


@persistent
class DiscardSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                    template=rf"mj:dc:(?P<table>{NUM}):(?P<hand>{NUM}):{STEP}{SEAT}"):
    """The discard menu; the chosen value is a tile's notation."""

    def __init__(self, table: int, hand: int, step: int | None, *,
                 options: list[discord.SelectOption] | None = None, placeholder: str = "",
                 row: int | None = None, seat: int | None = None,
                 seq: int | None = None) -> None:
        """``seq`` instead of ``step``: rebuilt from an older id."""
        custom_id = own_id(DiscardSelect, f"mj:dc:{table}:{hand}:{step_text(step, seq)}"
                                          + seat_suffix(seat))
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id, placeholder=placeholder or None, min_values=1, max_values=1,
            options=options or [discord.SelectOption(label="-", value="-")], row=row)
        super().__init__(select)
        self.table, self.hand, self.step, self.seq, self.seat = table, hand, step, seq, seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> DiscardSelect:
        options = list(getattr(item, "options", ()) or ()) or None
        step, seq = steps_in(match)
        return cls(int(match["table"]), int(match["hand"]), step,
                   options=options, seat=seat_in(match), seq=seq)

    async def callback(self, interaction: discord.Interaction) -> None:
        # read from the click itself: a menu the message no longer shows has no state
        # (`answer_unshown`)
        try:
            tile = parse_discard_value(chosen_value(interaction))
        except BadCustomId:
            await out_of_date(interaction)
            return
        await play(interaction, self.table, self.hand, (self.step, self.seq),
                   MoveCode(ActionKind.DISCARD, tile), self.seat)


async def play(interaction: discord.Interaction, table_id: int, hand: int,
               step: tuple[int | None, int | None], move: MoveCode, owner: int | None
               ) -> None:
    """Play ``move``, then take the buttons off the message clicked (the next decision
    arrives as a new DM). ``step``: the decision's public step, or the seq of an older
    id (`steps_in`). ``owner``: the seat the button was made for (the move is made
    for it, so the service refuses anyone else's press); None for an id from before it
    was carried: the presser's own seat.

    A click that arrives alone (or with a few others, `answering.ANSWERED_TOGETHER`) is
    answered with its move: the move is played at once, and once committed (within
    `answering.MOVE_ANSWER_WAIT`) the click's one response edits the message; a refusal
    is the click's private reply. A click that arrives while more wait for their first
    response (at 200 tables every dealer clicks in the same instant), or whose move
    takes longer, is acknowledged first (a deferred update:
    nothing shown yet): its answer then waits only for its own parsing, not for the
    move, its commit, or the clicks before it. The message is edited once the move is
    committed; a refusal follows privately."""
    async with answering(interaction) as answer:
        alone = answer.alone()
        if not alone:
            await answer.acknowledge_first()
        table_id = await answer.table_id(table_id, decision=True)  # in its place only
        seat = owner if owner is not None else await _own_seat(answer, table_id)
        action = move.action(seat)
        message = interaction.message
        clicked = message.id if message is not None else None
        # a `/mahjong hand` reply's redraw waits for this answer, which edits it
        async with answer.notifier.replies.clicking(clicked):
            act = answer.service.act(answer.cause, table_id, action, public_step=step[0],
                                     step=step[1], hand_number=hand)
            played = await (answer.answer_first(act) if alone else answer.run(act))
            answer.notifier.clicked(table_id, played.seat, clicked)
            before = message.content if message is not None else ""
            content = clip(f"{before}\n✓ " + t("reply.move_taken", answer.locale,
                                                 move=move_text(action, answer.locale)),
                           MAX_CONTENT)
            with contextlib.suppress(discord.HTTPException):  # the move stands: told
                await answer.update(content=content, view=_next_menu(played, answer.locale))


def _next_menu(played: ActResult, locale: LocaleLike) -> discord.ui.View | None:
    """What the clicked message offers once its move is played, when the seat decides
    nothing now (chosen in the same visit, as the player is there): the "Next discard…"
    menu (row 0, `bot.discord.play.premoves`) and the "Claim in advance, this hand…"
    menu with the seat's answers marked (row 1, `bot.discord.play.choices`; none when
    it holds nothing to claim with and has no answer), each judged in its own place as
    the DM's are; else nothing. The decision's buttons and the DM's preference rows
    are gone from it: two rows of Discord's five. Composed as Discord receives them
    (`ComposedView`): the same menus a DM places through discord.ui."""
    # choices names answers as words does, and words names moves as this module does
    from bot.discord.play.choices import claims_row
    if not played.held or played.hand_ended:
        return None
    rows = [next_discard_row(played.table_id, played.hand_number, played.seat, played.held,
                             played.caishen, locale)]
    claims = claims_row(played.held, played.caishen, played.table_id, played.hand_number,
                        played.answers, locale)
    if claims is not None:
        rows.append(claims)
    return ComposedView(rows)


async def _own_seat(answer: Answer, table_id: int) -> int:
    """The presser's seat, for an id that does not say which seat it is for."""
    info = await answer.service.table_info(table_id)
    for seat in info.seats:
        if seat is not None and not seat.is_computer and seat.user_id == answer.cause.user_id:
            return seat.seat
    raise Refused(E.NOT_SEATED, "you do not sit at this table")


_MOVE_KEYS = {ActionKind.WIN: "btn.win", ActionKind.PASS: "btn.pass",
              ActionKind.DISCARD: "btn.discard", ActionKind.CHI: "btn.chi",
              ActionKind.PONG: "btn.pong", ActionKind.KONG: "btn.kong",
              ActionKind.ADDED_KONG: "btn.added_kong",
              ActionKind.CONCEALED_KONG: "btn.concealed_kong"}


def move_text(action: Action, locale: LocaleLike) -> str:
    """The move just played, as its button said it ("打 Discard 5m")."""
    tiles = (action.tile,) if action.tile is not None else action.tiles
    return t(_MOVE_KEYS[action.kind], locale, tiles=tiles_text(tiles, locale))


# ---------------------------------------------------------------------------
# The move view (a seat's DM or its /mahjong hand reply)


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
