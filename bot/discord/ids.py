"""The custom_id scheme of the bot's persistent components, and the dynamic items that
parse them.

Buttons must keep working after a restart and for messages sent long ago, so nothing
is remembered per message: each ``custom_id`` carries all it needs, and one
`discord.ui.DynamicItem` class per kind (registered once with
``client.add_dynamic_items(*DYNAMIC_ITEMS)``) parses it.

The scheme (every number is a non-negative decimal without leading zeros, ≤ 100 chars):

``mj:mv:{table}:{hand}:{seq}:{move}:s{seat}``
    A move button. ``seq`` is the number of actions applied so far in hand ``hand``
    (the step the DM was made for: anything else is stale). ``move`` encodes the
    action without its seat: a kind letter then the tiles in compact notation —
    ``w`` win, ``x`` pass, ``c46m`` chi with 4m 6m, ``p55m`` pong, ``k555m`` exposed
    kong, ``a5m`` add 5m to a pong, ``g1111m`` concealed kong, ``d5m`` discard.
    ``seat`` (0–3) is the seat the button was made for, so that another player
    pressing it is told it is not theirs (and can never answer for that seat). Ids
    sent before the seat was added end at ``{move}``: the presser's seat is implied.
``mj:dc:{table}:{hand}:{seq}:s{seat}``
    The discard menu; the chosen option's value is the tile notation (``"5m"``).
    ``:s{seat}`` as for a move (absent in older ids).
``mj:lobby:{table}:{what}``
    A lobby button, ``what`` ∈ join, leave, addbot, start.
``mj:pref:{table}:{name}:{on|off}``
    Set a standing choice (DESIGN, asynchronous play) to on or off: ``name`` ∈
    always_win, pass_claims, discard_drawn_when_away (the store's StandingChoices).
``mj:back:{table}``
    "I'm back": an away player takes their seat back from the computer.

The contract with the rest of the bot: the client object (``interaction.client``) has
an attribute ``mahjong_handler`` implementing `InteractionHandler`. The dynamic items
parse and validate the id, then await the matching handler method; the handler must
acknowledge the interaction within Discord's 3 seconds (reply or defer) and check that
the user is seated, that the step is current, and that the move is legal (the service
does). A malformed id never reaches the handler: it gets a private "out of date" reply.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

import discord

from bot.discord.i18n import t
from engine.game.actions import Action
from engine.rules.common import ActionKind
from engine.tiles import NotationError, Tile, format_tiles, parse_tiles, tile_from_notation

MAX_CUSTOM_ID = 100
"""Discord's limit on a component's custom_id."""

PREFIX = "mj"
LobbyWhat = Literal["join", "leave", "addbot", "start"]
LOBBY_ACTIONS: tuple[LobbyWhat, ...] = ("join", "leave", "addbot", "start")
Preference = Literal["always_win", "pass_claims", "discard_drawn_when_away"]
PREFERENCES: tuple[Preference, ...] = ("always_win", "pass_claims", "discard_drawn_when_away")

_NUM = r"(?:0|[1-9][0-9]{0,18})"
_TILES = r"(?:[1-9]+[mpsz])+"
_MOVE = rf"(?:[wx]|[a-z]{_TILES})"
_SEAT = r"(?::s(?P<seat>[0-3]))?"

MOVE_TEMPLATE = (rf"mj:mv:(?P<table>{_NUM}):(?P<hand>{_NUM}):(?P<seq>{_NUM})"
                 rf":(?P<move>{_MOVE}){_SEAT}")
DISCARD_TEMPLATE = rf"mj:dc:(?P<table>{_NUM}):(?P<hand>{_NUM}):(?P<seq>{_NUM}){_SEAT}"
LOBBY_TEMPLATE = rf"mj:lobby:(?P<table>{_NUM}):(?P<what>{'|'.join(LOBBY_ACTIONS)})"
PREF_TEMPLATE = (rf"mj:pref:(?P<table>{_NUM}):(?P<name>{'|'.join(PREFERENCES)})"
                 r":(?P<value>on|off)")
BACK_TEMPLATE = rf"mj:back:(?P<table>{_NUM})"

_MOVE_RE = re.compile(MOVE_TEMPLATE)
_DISCARD_RE = re.compile(DISCARD_TEMPLATE)
_LOBBY_RE = re.compile(LOBBY_TEMPLATE)
_PREF_RE = re.compile(PREF_TEMPLATE)
_BACK_RE = re.compile(BACK_TEMPLATE)

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


# ---------------------------------------------------------------------------
# Format and parse


@dataclass(frozen=True)
class MoveId:
    table: int
    hand: int
    seq: int
    move: MoveCode
    seat: int | None = None
    """The seat the button is for (None in ids made before it was carried)."""


@dataclass(frozen=True)
class DiscardId:
    table: int
    hand: int
    seq: int
    seat: int | None = None


@dataclass(frozen=True)
class LobbyId:
    table: int
    what: LobbyWhat


@dataclass(frozen=True)
class PreferenceId:
    table: int
    name: Preference
    on: bool


def _checked(custom_id: str) -> str:
    if len(custom_id) > MAX_CUSTOM_ID:
        raise BadCustomId(f"custom_id longer than {MAX_CUSTOM_ID}: {custom_id[:40]!r}…")
    return custom_id


def _formatted(pattern: re.Pattern[str], custom_id: str) -> str:
    """Every id made here parses back: a value out of the scheme fails at once."""
    if pattern.fullmatch(_checked(custom_id)) is None:
        raise BadCustomId(f"cannot encode {custom_id!r}")
    return custom_id


def _nonneg(**numbers: int) -> None:
    for name, value in numbers.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise BadCustomId(f"{name} must be a whole number ≥ 0, not {value!r}")


def move_id(table: int, hand: int, seq: int, move: MoveCode | Action,
            seat: int | None = None) -> str:
    """The custom_id of a move button (for ``seat``, when given)."""
    _nonneg(table=table, hand=hand, seq=seq)
    code = move if isinstance(move, MoveCode) else MoveCode.of(move)
    return _formatted(_MOVE_RE, f"{PREFIX}:mv:{table}:{hand}:{seq}:{code.encode()}"
                                + _seat_suffix(seat))


def discard_id(table: int, hand: int, seq: int, seat: int | None = None) -> str:
    """The custom_id of the discard menu (for ``seat``, when given)."""
    _nonneg(table=table, hand=hand, seq=seq)
    return _formatted(_DISCARD_RE, f"{PREFIX}:dc:{table}:{hand}:{seq}" + _seat_suffix(seat))


def _seat_suffix(seat: int | None) -> str:
    return "" if seat is None else f":s{seat}"


def _seat_of(match: re.Match[str]) -> int | None:
    return None if match["seat"] is None else int(match["seat"])


def lobby_id(table: int, what: LobbyWhat) -> str:
    """The custom_id of a lobby button."""
    _nonneg(table=table)
    if what not in LOBBY_ACTIONS:
        raise BadCustomId(f"unknown lobby action {what!r}")
    return _formatted(_LOBBY_RE, f"{PREFIX}:lobby:{table}:{what}")


def preference_id(table: int, name: Preference, on: bool) -> str:
    """The custom_id of a standing-choice button: pressing it sets ``name`` to ``on``."""
    _nonneg(table=table)
    if name not in PREFERENCES:
        raise BadCustomId(f"unknown standing choice {name!r}")
    return _formatted(_PREF_RE, f"{PREFIX}:pref:{table}:{name}:{'on' if on else 'off'}")


def back_id(table: int) -> str:
    """The custom_id of the "I'm back" button."""
    _nonneg(table=table)
    return _formatted(_BACK_RE, f"{PREFIX}:back:{table}")


def _match(pattern: re.Pattern[str], custom_id: str) -> re.Match[str]:
    if not isinstance(custom_id, str):
        raise BadCustomId(f"a custom_id is text, not {type(custom_id).__name__}")
    match = pattern.fullmatch(_checked(custom_id))
    if match is None:
        raise BadCustomId(f"not a custom_id of this kind: {custom_id!r}")
    return match


def parse_move_id(custom_id: str) -> MoveId:
    return move_from_match(_match(_MOVE_RE, custom_id))


def parse_discard_id(custom_id: str) -> DiscardId:
    return discard_from_match(_match(_DISCARD_RE, custom_id))


def parse_lobby_id(custom_id: str) -> LobbyId:
    return lobby_from_match(_match(_LOBBY_RE, custom_id))


def parse_preference_id(custom_id: str) -> PreferenceId:
    return preference_from_match(_match(_PREF_RE, custom_id))


def parse_back_id(custom_id: str) -> int:
    return int(_match(_BACK_RE, custom_id)["table"])


def preference_from_match(match: re.Match[str]) -> PreferenceId:
    name: Any = match["name"]
    return PreferenceId(int(match["table"]), name, match["value"] == "on")


def move_from_match(match: re.Match[str]) -> MoveId:
    return MoveId(int(match["table"]), int(match["hand"]), int(match["seq"]),
                  MoveCode.decode(match["move"]), _seat_of(match))


def discard_from_match(match: re.Match[str]) -> DiscardId:
    return DiscardId(int(match["table"]), int(match["hand"]), int(match["seq"]),
                     _seat_of(match))


def lobby_from_match(match: re.Match[str]) -> LobbyId:
    what: Any = match["what"]
    return LobbyId(int(match["table"]), what)


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
# The handler contract


@runtime_checkable
class InteractionHandler(Protocol):
    """What the dynamic items call; found as ``interaction.client.mahjong_handler``.

    Each method must respond to the interaction (send, edit or defer) within 3 seconds,
    and never trust the id: the user may not be seated, the step may be stale, the move
    may have become illegal. Refusals are private (ephemeral) and in the user's locale.
    """

    async def on_move(self, interaction: discord.Interaction, table_id: int, hand: int,
                      seq: int, choice: MoveCode, seat: int | None = None) -> None:
        """A move button: ``choice.action(seat)`` is the engine action; ``seat`` is the
        seat the button was made for (None: an older id, the user's own seat)."""
        ...

    async def on_discard(self, interaction: discord.Interaction, table_id: int, hand: int,
                         seq: int, tile: Tile, seat: int | None = None) -> None:
        """The discard menu: ``tile`` is the parsed, non-flower tile chosen; ``seat`` as
        for `on_move`."""
        ...

    async def on_lobby(self, interaction: discord.Interaction, table_id: int,
                       what: LobbyWhat) -> None:
        """A lobby button: join, leave, addbot or start."""
        ...

    async def on_preference(self, interaction: discord.Interaction, table_id: int,
                            name: Preference, on: bool) -> None:
        """Set one standing choice of the user's seat (then refresh the DM's buttons)."""
        ...

    async def on_back(self, interaction: discord.Interaction, table_id: int) -> None:
        """The user is back: the computer stops playing for their seat."""
        ...


def handler_of(interaction: discord.Interaction) -> InteractionHandler | None:
    """The client's handler, or None while the bot is not wired (or shutting down)."""
    handler = getattr(interaction.client, "mahjong_handler", None)
    return handler if isinstance(handler, InteractionHandler) else None


async def _refuse(interaction: discord.Interaction, key: str) -> None:
    """A private reply for a component nobody can act on; never raises."""
    with contextlib.suppress(discord.HTTPException):
        await interaction.response.send_message(t(key, interaction.locale), ephemeral=True)


# ---------------------------------------------------------------------------
# Dynamic items


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=MOVE_TEMPLATE):
    """A move button; built by `components.move_view`, rebuilt from its id on click."""

    def __init__(self, table: int, hand: int, seq: int, move: MoveCode | None, *,
                 label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.primary,
                 row: int | None = None, custom_id: str | None = None,
                 seat: int | None = None) -> None:
        if custom_id is None:
            if move is None:
                raise BadCustomId("a move button needs a move")
            custom_id = move_id(table, hand, seq, move, seat)
        super().__init__(discord.ui.Button(label=label or None, style=style, row=row,
                                           custom_id=custom_id))
        self.table, self.hand, self.seq, self.move = table, hand, seq, move
        self.seat = seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> MoveButton:
        """Never raises (discord.py would drop the click unanswered): a move that fits
        the template but not the rules of notation becomes None, refused on callback."""
        table, hand, seq = int(match["table"]), int(match["hand"]), int(match["seq"])
        try:
            move: MoveCode | None = MoveCode.decode(match["move"])
        except BadCustomId:
            move = None
        return cls(table, hand, seq, move, custom_id=match.string, seat=_seat_of(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = handler_of(interaction)
        if handler is None:
            await _refuse(interaction, "error.unexpected")
            return
        if self.move is None:
            await _refuse(interaction, "error.bad_component")
            return
        await handler.on_move(interaction, self.table, self.hand, self.seq, self.move,
                              seat=self.seat)


class DiscardSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                    template=DISCARD_TEMPLATE):
    """The discard menu; the chosen value is a tile's notation."""

    def __init__(self, table: int, hand: int, seq: int, *,
                 options: list[discord.SelectOption] | None = None, placeholder: str = "",
                 row: int | None = None, seat: int | None = None) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=discard_id(table, hand, seq, seat), placeholder=placeholder or None,
            min_values=1, max_values=1,
            options=options or [discord.SelectOption(label="-", value="-")], row=row)
        super().__init__(select)
        self.table, self.hand, self.seq, self.seat = table, hand, seq, seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> DiscardSelect:
        parsed = discard_from_match(match)
        options = list(getattr(item, "options", ()) or ()) or None
        return cls(parsed.table, parsed.hand, parsed.seq, options=options, seat=parsed.seat)

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = handler_of(interaction)
        values = self.item.values
        if handler is None or len(values) != 1:
            await _refuse(interaction, "error.unexpected")
            return
        try:
            tile = parse_discard_value(values[0])
        except BadCustomId:
            await _refuse(interaction, "error.bad_component")
            return
        await handler.on_discard(interaction, self.table, self.hand, self.seq, tile,
                                 seat=self.seat)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=LOBBY_TEMPLATE):
    """A lobby button (join, leave, add computer, start)."""

    def __init__(self, table: int, what: LobbyWhat, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or None, style=style, row=row,
                                           disabled=disabled, custom_id=lobby_id(table, what)))
        self.table, self.what = table, what

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> LobbyButton:
        parsed = lobby_from_match(match)
        return cls(parsed.table, parsed.what)

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = handler_of(interaction)
        if handler is None:
            await _refuse(interaction, "error.unexpected")
            return
        await handler.on_lobby(interaction, self.table, self.what)


class PreferenceButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=PREF_TEMPLATE):
    """A standing-choice toggle: its id says the value it sets, not "toggle", so a
    double click or a stale message cannot flip the choice the wrong way."""

    def __init__(self, table: int, name: Preference, on: bool, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or None, style=style, row=row,
                                           custom_id=preference_id(table, name, on)))
        self.table, self.name, self.on = table, name, on

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> PreferenceButton:
        parsed = preference_from_match(match)
        return cls(parsed.table, parsed.name, parsed.on)

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = handler_of(interaction)
        if handler is None:
            await _refuse(interaction, "error.unexpected")
            return
        await handler.on_preference(interaction, self.table, self.name, self.on)


class BackButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BACK_TEMPLATE):
    """"I'm back", shown to a seat marked away."""

    def __init__(self, table: int, *, label: str = "", row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or None, row=row,
                                           style=discord.ButtonStyle.success,
                                           custom_id=back_id(table)))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> BackButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = handler_of(interaction)
        if handler is None:
            await _refuse(interaction, "error.unexpected")
            return
        await handler.on_back(interaction, self.table)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    MoveButton, DiscardSelect, LobbyButton, PreferenceButton, BackButton)
"""Register once: ``client.add_dynamic_items(*DYNAMIC_ITEMS)``."""
