"""The custom_id scheme of the bot's persistent components, and the dynamic items that
parse them.

Buttons must keep working after a restart and for messages sent long ago, so nothing
is remembered per message: each ``custom_id`` carries all it needs, and one
`discord.ui.DynamicItem` class per kind (registered once with
``client.add_dynamic_items(*DYNAMIC_ITEMS)``) parses it.

The scheme (every number is a non-negative decimal without leading zeros, at most
`MAX_NUMBER`, ≤ 100 chars):

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
``mj:lobby:{table}:{what}``
    A lobby button, ``what`` ∈ join, leave, addbot, start.
``mj:pref:{table}:{name}:{on|off}``
    Set a standing choice (DESIGN, asynchronous play) to on or off: ``name`` ∈
    always_win, pass_claims, discard_drawn_when_away (the store's StandingChoices).
``mj:back:{table}``
    "I'm back": an away player takes their seat back from the computer.
``mj:quit:{table}:{user}:{cost}:{yes|no}``
    The private confirmation of leaving a running match: ``yes`` leaves (the cost
    shown, ``cost``, is the one agreed to: a fraction's text), ``no`` keeps the seat.
    Honoured only for ``user``, the person it was shown to, at that table.

Each kind of component is one `discord.ui.DynamicItem` class below, as in discord.py's
own examples: its template (the pattern of its ids, in the class statement), its
``__init__`` (the id made from the values: ``LobbyButton(7, "join").custom_id`` is
``"mj:lobby:7:join"``; a value outside the template raises `BadCustomId` at once), its
``from_custom_id`` (the values read back from a click's id; it never raises, or
discord.py would leave the click unanswered) and its ``callback``, which calls the
table service inside `bot.discord.core.answering.answering`, for the table its id names only
where that table's buttons belong (`Answer.table_id`: a table's public buttons in its
channel, a decision's there or in the seated person's private messages; anywhere else
the id is answered as one no table has). ``@persistent`` registers the
class for the client (`DYNAMIC_ITEMS`). The service checks everything a click claims
(the seat, the step, that the move is legal); an id that fits a template but means
nothing (``p555m``) never reaches it: the presser is told privately that the button is
out of date. A press on a component its message no longer shows (a client not yet shown
the edit that took it off; Discord sends the message as it is now) is one discord.py
drops unanswered: `answer_unshown` answers it from its id alone, as if shown. An id
with a number past `MAX_NUMBER` (forged: no database column holds it) is read as
`OutOfRange` whatever its kind: out of date, before any table is looked up.

To add a button: a class here (template, ``__init__``, ``from_custom_id``, ``callback``,
``@persistent``), the line of `bot.discord.components` that places it, and its label
(and reply) in `bot.discord.core.i18n`, in English and 简体中文.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, TypeVar

import discord

from bot.discord.core.answering import Answer, answering
from bot.discord.core.i18n import LocaleLike, t
from bot.discord.texts import MAX_CONTENT, clip, tiles_text
from bot.service import Refused
from bot.service import errors as E
from engine.game.actions import Action
from engine.rules.common import ActionKind, number
from engine.tiles import NotationError, Tile, format_tiles, parse_tiles, tile_from_notation

MAX_CUSTOM_ID = 100
"""Discord's limit on a component's custom_id."""

LobbyWhat = Literal["join", "leave", "addbot", "start"]
LOBBY_ACTIONS: tuple[LobbyWhat, ...] = ("join", "leave", "addbot", "start")
Preference = Literal["always_win", "pass_claims", "discard_drawn_when_away"]
PREFERENCES: tuple[Preference, ...] = ("always_win", "pass_claims", "discard_drawn_when_away")

# The pieces of the templates.
NUM = r"(?:0|[1-9][0-9]*)"
MAX_NUMBER = 2**63 - 1
"""The largest number an id carries: the store's integer columns (SQLite's INTEGER,
PostgreSQL's BIGINT) hold no more. `NUM` reads any number, so that a forged id with a
larger one is still answered: it is refused as the id is parsed (`numbers_fit`), never
sent to the database."""
MAX_DIGITS = len(str(MAX_NUMBER))
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


class BadCustomId(ValueError):
    """A custom_id that does not follow the scheme (forged, truncated, or too old)."""


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
# What the items share

Item = TypeVar("Item", bound=type[discord.ui.DynamicItem[Any]])
DYNAMIC_ITEMS: list[type[discord.ui.DynamicItem[Any]]] = []
"""Every kind of component, registered once: ``client.add_dynamic_items(*DYNAMIC_ITEMS)``."""


def numbers_fit(match: re.Match[str]) -> bool:
    """Whether every number an id carries (its all-digit fields) is at most `MAX_NUMBER`."""
    return all(len(value) <= MAX_DIGITS and int(value) <= MAX_NUMBER
               for value in match.groupdict().values()
               if value is not None and value.isdigit())


def persistent(cls: Item) -> Item:
    """Register a dynamic item: its buttons keep working after a restart. An id whose
    numbers do not fit (`numbers_fit`) is parsed as `OutOfRange`, never as ``cls``. Its
    callback lets go of the view discord.py rebuilt from the clicked message once it is
    done (`let_go_of_view`)."""
    DYNAMIC_ITEMS.append(cls)
    parse, answer = cls.from_custom_id, cls.callback

    async def from_custom_id(_cls: Any, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> discord.ui.DynamicItem[Any]:
        if not numbers_fit(match):
            return OutOfRange(item)
        return await parse(interaction, item, match)

    cls.from_custom_id = classmethod(from_custom_id)  # type: ignore[assignment]  # the same parse, guarded

    @functools.wraps(answer)
    async def callback(self: discord.ui.DynamicItem[Any],
                       interaction: discord.Interaction) -> None:
        try:
            await answer(self, interaction)
        finally:
            let_go_of_view(self)

    cls.callback = callback  # type: ignore[method-assign]  # the same callback, wrapped
    return cls


async def answer_unshown(interaction: discord.Interaction) -> None:
    """A press on one of the bot's components that the pressed message no longer shows
    (its buttons were taken off after the client drew them): discord.py finds no item
    to rebuild and drops it, and the player would see "This interaction failed". Its
    id says all the answer needs, so it is answered as a shown one would be: a passed
    move refused as passed, a standing choice saved. Shown components are left to
    discord.py (every click passes here: only the message's parsed rows are read)."""
    data: Any = interaction.data or {}
    custom_id, message = data.get("custom_id"), interaction.message
    if interaction.type is not discord.InteractionType.component or \
            not isinstance(custom_id, str) or message is None or \
            _shows(message.components, custom_id):
        return
    for cls in DYNAMIC_ITEMS:
        match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            base: discord.ui.Item[Any] = discord.ui.Select(custom_id=custom_id) \
                if data.get("component_type") == discord.ComponentType.string_select.value \
                else discord.ui.Button(custom_id=custom_id)
            item = await cls.from_custom_id(interaction, base, match)
            await item.callback(interaction)
            return


class OutOfRange(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r".*"):
    """Any of the bot's ids with a number past `MAX_NUMBER`: forged, as no id the bot
    made carries one. Answered as out of date. Never registered: `persistent` parses
    such an id as this, around the item discord.py built from the click."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await out_of_date(interaction)
        finally:
            let_go_of_view(self)


def _shows(components: Any, custom_id: str) -> bool:
    """Whether a message's components (rows of them, or ones at the top) hold one with
    ``custom_id``."""
    for component in components:
        if getattr(component, "custom_id", None) == custom_id or \
                _shows(getattr(component, "children", ()), custom_id):
            return True
    return False


def let_go_of_view(item: discord.ui.Item[Any]) -> None:
    """For each click discord.py rebuilds the clicked message's view, every component an
    item pointing back at it: a cycle only the garbage collector frees (with the
    message's components, ~40 objects a click). Once the click is answered the view is
    emptied, which cuts it (`tests/e2e/test_bot_garbage.py`)."""
    view = item.view
    if view is not None:
        view.clear_items()


def own_id(cls: type[discord.ui.DynamicItem[Any]], custom_id: str) -> str:
    """``custom_id`` if it fits ``cls``'s template (and Discord's length): every id made
    here parses back, so a value out of the scheme fails at once, not on a click."""
    if len(custom_id) > MAX_CUSTOM_ID:
        raise BadCustomId(f"custom_id longer than {MAX_CUSTOM_ID}: {custom_id[:40]!r}…")
    match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    if match is None or not numbers_fit(match):
        raise BadCustomId(f"cannot encode {custom_id!r} as a {cls.__name__}")
    return custom_id


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


async def out_of_date(interaction: discord.Interaction) -> None:
    """The private answer to a component whose id reads but means nothing."""
    async with answering(interaction) as answer:
        await answer.say(t("error.bad_component", answer.locale))


# ---------------------------------------------------------------------------
# A move: the buttons and the discard menu of a seat's DM


@persistent
class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=rf"mj:mv:(?P<table>{NUM}):(?P<hand>{NUM}):{STEP}"
                          rf":(?P<move>{MOVE}){SEAT}"):
    """A move button; built by `components.move_view`, rebuilt from its id on click."""

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
        data: Any = interaction.data or {}
        values = data.get("values")
        try:
            if not isinstance(values, list) or len(values) != 1 or \
                    not isinstance(values[0], str):
                raise BadCustomId(f"one tile is chosen, not {values!r}")
            tile = parse_discard_value(values[0])
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

    A click that arrives alone is answered with its move: the move is played at once,
    and once committed (within `answering.MOVE_ANSWER_WAIT`) the click's one response
    edits the message; a refusal is the click's private reply. A click that arrives
    while others wait for their first response (at 200 tables every dealer clicks in the
    same instant), or whose move takes longer, is acknowledged first (a deferred update:
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
            with contextlib.suppress(discord.HTTPException):  # the move stands: it is told
                await answer.update(content=content, view=None)


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
# The lobby


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


# ---------------------------------------------------------------------------
# Standing choices and "I'm back" (DESIGN: asynchronous play)


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


# ---------------------------------------------------------------------------
# Leaving a running match: asked first, privately


async def leave(answer: Answer, table_id: int, agreed: Fraction | None = None, *,
                confirming: bool = False, lobby_reply: str | None = None) -> None:
    """Leave the table for ``answer``'s person. In the lobby it is done at once (the
    lobby message shows it); during a match the person is first asked, privately, with
    what leaving costs under the table's rules (`confirm_leave`), and only their
    press of "Leave the match" (``agreed``: the cost it showed) leaves. ``confirming``:
    the answer edits the confirmation pressed; ``lobby_reply``: what a lobby's leave
    is answered (None: a click, acknowledged: the lobby message shows it)."""
    try:
        await answer.run(answer.service.leave(answer.cause, table_id, agreed=agreed))
    except Refused as exc:
        if exc.code != E.CONFIRM_LEAVE:
            raise
        text, view = leave_question(exc.params, answer.cause.user_id, answer.locale)
        if confirming:  # the cost changed since it was shown: shown again
            await answer.update(content=t("leave.changed", answer.locale) + "\n" + text,
                                view=view)
        else:
            await answer.say(text, view=view)
        return
    if confirming:
        await answer.update(content=t("leave.done", answer.locale, table=table_id),
                            view=None)
    elif lobby_reply is not None:
        await answer.say(lobby_reply)
    else:
        await answer.acknowledge()  # left the lobby: its message shows it


def leave_question(params: Any, user_id: int, locale: LocaleLike
                   ) -> tuple[str, discord.ui.View]:
    """The confirmation of leaving a running match: what it costs under the table's
    rules, and its two buttons, for ``user_id`` alone."""
    table, penalty = int(params["table"]), Fraction(params["penalty"])
    rules = t(f"rules.{params['rules']}", locale)
    if not penalty:
        cost = t("leave.confirm.free", locale, rules=rules)
    elif params.get("receiver"):
        cost = t("leave.confirm.penalty_to", locale, rules=rules, points=number(penalty),
                 receiver=params["receiver"])
    else:
        cost = t("leave.confirm.penalty", locale, rules=rules, points=number(penalty))
    view = discord.ui.View(timeout=None)
    view.add_item(LeaveButton(table, user_id, penalty, True,
                              label=t("btn.leave.confirm", locale)))
    view.add_item(LeaveButton(table, user_id, penalty, False,
                              label=t("btn.leave.keep", locale)))
    return t("leave.confirm.title", locale, table=table) + "\n" + cost, view


@persistent
class LeaveButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=rf"mj:quit:(?P<table>{NUM}):(?P<user>{NUM})"
                           rf":(?P<cost>{NUM}(?:/[1-9][0-9]{{0,18}})?):(?P<yes>yes|no)"):
    """Confirm leaving a running match (or keep the seat): shown privately to the
    person asking, and honoured only for them."""

    def __init__(self, table: int, user: int, cost: Fraction, yes: bool, *,
                 label: str = "", row: int | None = None) -> None:
        custom_id = f"mj:quit:{table}:{user}:{cost}:{'yes' if yes else 'no'}"
        super().__init__(discord.ui.Button(
            label=label or None, row=row, custom_id=own_id(LeaveButton, custom_id),
            style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary))
        self.table, self.user, self.cost, self.yes = table, user, cost, yes

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> LeaveButton:
        return cls(int(match["table"]), int(match["user"]), Fraction(match["cost"]),
                   match["yes"] == "yes")

    async def callback(self, interaction: discord.Interaction) -> None:
        async with answering(interaction) as answer:
            table = await answer.table_id(self.table)  # asked in its channel only
            if answer.cause.user_id != self.user:
                await answer.say(t("leave.not_yours", answer.locale))
            elif self.yes:
                await leave(answer, table, self.cost, confirming=True)
            else:
                await answer.update(content=t("leave.kept", answer.locale, table=table),
                                    view=None)
