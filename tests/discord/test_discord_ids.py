"""custom_ids: they round-trip, stay under 100 characters, match the dynamic items'
templates, refuse anything else; the items delegate to the client's handler."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest

from bot.discord.ids import (
    BACK_TEMPLATE,
    DISCARD_TEMPLATE,
    LOBBY_ACTIONS,
    LOBBY_TEMPLATE,
    MAX_CUSTOM_ID,
    MOVE_TEMPLATE,
    PREF_TEMPLATE,
    BackButton,
    BadCustomId,
    DiscardSelect,
    InteractionHandler,
    LobbyButton,
    MoveButton,
    MoveCode,
    PreferenceButton,
    discard_id,
    lobby_id,
    move_id,
    parse_discard_id,
    parse_discard_value,
    parse_lobby_id,
    parse_move_id,
)
from engine.game.actions import Action
from engine.rules.common import ActionKind
from engine.tiles import Tile, parse_tiles

BIG = 10**18  # the largest ids the scheme must carry (SQLite row ids, snowflakes)


def _tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tiles(text, max_copies=False))


ACTIONS = [
    Action(ActionKind.WIN, 2), Action(ActionKind.PASS, 1),
    Action(ActionKind.CHI, 1, tiles=_tiles("46m")),
    Action(ActionKind.CHI, 1, tiles=_tiles("4m5z")),
    Action(ActionKind.PONG, 3, tiles=_tiles("99s")),
    Action(ActionKind.KONG, 0, tiles=_tiles("777z")),
    Action(ActionKind.ADDED_KONG, 0, Tile.M5),
    Action(ActionKind.CONCEALED_KONG, 2, tiles=_tiles("5555z")),
    Action(ActionKind.DISCARD, 1, Tile.P9),
]


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_move_ids_round_trip_to_the_same_action(action: Action) -> None:
    for table, hand, seq in ((1, 1, 0), (BIG, 999, 99999)):
        custom_id = move_id(table, hand, seq, action)
        assert len(custom_id) <= MAX_CUSTOM_ID
        assert re.fullmatch(MOVE_TEMPLATE, custom_id)
        parsed = parse_move_id(custom_id)
        assert (parsed.table, parsed.hand, parsed.seq) == (table, hand, seq)
        assert parsed.move.action(action.seat) == action


def test_move_codes_are_short_and_readable() -> None:
    assert move_id(12, 3, 45, ACTIONS[2]) == "mj:mv:12:3:45:c46m"
    assert move_id(12, 3, 45, ACTIONS[0]) == "mj:mv:12:3:45:w"
    assert move_id(12, 3, 45, ACTIONS[7]) == "mj:mv:12:3:45:g5555z"


def test_discard_and_lobby_ids_round_trip() -> None:
    custom_id = discard_id(BIG, 8, 101)
    assert re.fullmatch(DISCARD_TEMPLATE, custom_id) and len(custom_id) <= MAX_CUSTOM_ID
    assert parse_discard_id(custom_id).seq == 101
    for what in LOBBY_ACTIONS:
        custom_id = lobby_id(7, what)
        assert re.fullmatch(LOBBY_TEMPLATE, custom_id)
        assert parse_lobby_id(custom_id).what == what
    assert lobby_id(7, "addbot") == "mj:lobby:7:addbot"


@pytest.mark.parametrize("bad", [
    "", "mj:mv:1:1:1", "mj:mv:1:1:1:", "mj:mv:01:1:1:w", "mj:mv:1:1:-1:w", "mj:mv:1:1:1:q5m",
    "mj:mv:1:1:1:p5m", "mj:mv:1:1:1:p555m", "mj:mv:1:1:1:d8z", "mj:mv:1:1:1:w5m",
    "mj:mv:1:1:1:c1f2f", "mj:mv:1:1:1:d0m", "mj:mv:1:1:1:w ", "xmj:mv:1:1:1:w",
    "mj:mv:1:1:1:w:extra", "mj:mv:1:1:1:x" + "1" * 100 + "m",
])
def test_malformed_move_ids_are_refused(bad: str) -> None:
    with pytest.raises(BadCustomId):
        parse_move_id(bad)


@pytest.mark.parametrize("bad", ["mj:dc:1:1", "mj:dc:1:1:1:2", "mj:dc:a:1:1",
                                 "mj:lobby:1:kick", "mj:lobby:1:join:2", "mj:lobby::join"])
def test_malformed_discard_and_lobby_ids_are_refused(bad: str) -> None:
    parse = parse_discard_id if bad.startswith("mj:dc") else parse_lobby_id
    with pytest.raises(BadCustomId):
        parse(bad)


def test_formatting_refuses_values_outside_the_scheme() -> None:
    for args in ((-1, 1, 1), (1, True, 1), (10**19 * 10, 1, 1)):
        with pytest.raises(BadCustomId):
            discard_id(*args)  # type: ignore[arg-type]
    with pytest.raises(BadCustomId):
        lobby_id(1, "kick")  # type: ignore[arg-type]


def test_discard_values_are_tiles_but_never_flowers() -> None:
    assert parse_discard_value("5m") is Tile.M5
    for bad in ("1f", "8z", "55m", "", "x"):
        with pytest.raises(BadCustomId):
            parse_discard_value(bad)


def test_templates_do_not_overlap() -> None:
    ids = [move_id(1, 1, 1, ACTIONS[0]), discard_id(1, 1, 1), lobby_id(1, "join")]
    ids += ["mj:pref:1:always_win:on", "mj:back:1"]
    templates = [MOVE_TEMPLATE, DISCARD_TEMPLATE, LOBBY_TEMPLATE, PREF_TEMPLATE, BACK_TEMPLATE]
    for i, custom_id in enumerate(ids):
        matching = [j for j, tpl in enumerate(templates) if re.fullmatch(tpl, custom_id)]
        assert matching == [i]
    for cls, tpl in ((MoveButton, MOVE_TEMPLATE), (DiscardSelect, DISCARD_TEMPLATE),
                     (LobbyButton, LOBBY_TEMPLATE)):
        assert cls.__discord_ui_compiled_template__.pattern == tpl


# ---------------------------------------------------------------------------
# The dynamic items and the handler contract


@dataclass
class FakeResponse:
    sent: list[tuple[str, bool]] = field(default_factory=list)

    async def send_message(self, content: str, *, ephemeral: bool = False) -> None:
        self.sent.append((content, ephemeral))


@dataclass
class RecordingHandler:
    calls: list[tuple[Any, ...]] = field(default_factory=list)
    seats: list[int | None] = field(default_factory=list)

    async def on_move(self, interaction: Any, table_id: int, hand: int, seq: int,
                      choice: MoveCode, seat: int | None = None) -> None:
        self.calls.append(("move", table_id, hand, seq, choice))
        self.seats.append(seat)

    async def on_discard(self, interaction: Any, table_id: int, hand: int, seq: int,
                         tile: Tile, seat: int | None = None) -> None:
        self.calls.append(("discard", table_id, hand, seq, tile))
        self.seats.append(seat)

    async def on_lobby(self, interaction: Any, table_id: int, what: str) -> None:
        self.calls.append(("lobby", table_id, what))

    async def on_preference(self, interaction: Any, table_id: int, name: str,
                            on: bool) -> None:
        self.calls.append(("pref", table_id, name, on))

    async def on_back(self, interaction: Any, table_id: int) -> None:
        self.calls.append(("back", table_id))


@dataclass
class FakeClient:
    mahjong_handler: Any = None


@dataclass
class FakeInteraction:
    client: FakeClient
    locale: discord.Locale = discord.Locale.american_english
    response: FakeResponse = field(default_factory=FakeResponse)


async def _rebuilt(cls: Any, custom_id: str, interaction: Any) -> Any:
    match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    return await cls.from_custom_id(interaction, None, match)


async def test_items_parse_their_id_and_call_the_handler() -> None:
    handler = RecordingHandler()
    assert isinstance(handler, InteractionHandler)
    inter = FakeInteraction(FakeClient(handler))
    pong = ACTIONS[4]
    button = await _rebuilt(MoveButton, move_id(5, 2, 17, pong), inter)
    await button.callback(inter)
    assert handler.calls[-1] == ("move", 5, 2, 17, MoveCode.of(pong))
    assert handler.calls[-1][4].action(3) == pong
    lobby = await _rebuilt(LobbyButton, lobby_id(5, "start"), inter)
    await lobby.callback(inter)
    assert handler.calls[-1] == ("lobby", 5, "start")
    select = await _rebuilt(DiscardSelect, discard_id(5, 2, 18), inter)
    select.item._values = ["9p"]
    await select.callback(inter)
    assert handler.calls[-1] == ("discard", 5, 2, 18, Tile.P9)
    pref = await _rebuilt(PreferenceButton, "mj:pref:5:always_win:off", inter)
    await pref.callback(inter)
    assert handler.calls[-1] == ("pref", 5, "always_win", False)
    back = await _rebuilt(BackButton, "mj:back:5", inter)
    await back.callback(inter)
    assert handler.calls[-1] == ("back", 5)
    assert inter.response.sent == []


async def test_a_bad_move_or_a_missing_handler_gets_a_private_answer() -> None:
    handler = RecordingHandler()
    inter = FakeInteraction(FakeClient(handler), locale=discord.Locale.chinese)
    # Fits the template, fails notation (a pong of three): refused, not dropped.
    button = await _rebuilt(MoveButton, "mj:mv:5:2:17:p555m", inter)
    await button.callback(inter)
    select = await _rebuilt(DiscardSelect, discard_id(5, 2, 18), inter)
    select.item._values = ["1f"]
    await select.callback(inter)
    assert handler.calls == []
    assert [e for _, e in inter.response.sent] == [True, True]
    assert "过时" in inter.response.sent[0][0]
    unwired = FakeInteraction(FakeClient(None))
    lobby = await _rebuilt(LobbyButton, lobby_id(5, "join"), unwired)
    await lobby.callback(unwired)
    assert unwired.response.sent and unwired.response.sent[0][1] is True


def test_preference_and_back_ids_round_trip_and_reach_the_handler() -> None:
    from bot.discord.ids import (
        PREFERENCES,
        parse_back_id,
        parse_preference_id,
        preference_id,
    )

    for name in PREFERENCES:
        for on in (True, False):
            parsed = parse_preference_id(preference_id(BIG, name, on))
            assert (parsed.table, parsed.name, parsed.on) == (BIG, name, on)
    assert preference_id(3, "pass_claims", True) == "mj:pref:3:pass_claims:on"
    assert parse_back_id("mj:back:3") == 3
    for bad in ("mj:pref:3:pass_claims:maybe", "mj:pref:3:pass:on", "mj:back:x"):
        with pytest.raises(BadCustomId):
            (parse_back_id if "back" in bad else parse_preference_id)(bad)


async def test_move_and_discard_ids_carry_the_seat_they_were_made_for() -> None:
    pong = ACTIONS[4]
    assert move_id(12, 3, 45, pong, 3) == "mj:mv:12:3:45:p99s:s3"
    assert parse_move_id("mj:mv:12:3:45:p99s:s3").seat == 3
    assert parse_discard_id(discard_id(12, 3, 45, 0)).seat == 0
    # ids sent before the seat was carried still parse: the presser's seat is implied
    assert parse_move_id("mj:mv:12:3:45:p99s").seat is None
    assert parse_discard_id("mj:dc:12:3:45").seat is None
    for bad in ("mj:mv:12:3:45:p99s:s4", "mj:mv:12:3:45:p99s:3", "mj:dc:1:1:1:s"):
        with pytest.raises(BadCustomId):
            (parse_move_id if ":mv:" in bad else parse_discard_id)(bad)
    handler = RecordingHandler()
    inter = FakeInteraction(FakeClient(handler))
    button = await _rebuilt(MoveButton, move_id(5, 2, 17, pong, 2), inter)
    await button.callback(inter)
    select = await _rebuilt(DiscardSelect, discard_id(5, 2, 18, 1), inter)
    select.item._values = ["9p"]
    await select.callback(inter)
    old = await _rebuilt(MoveButton, move_id(5, 2, 17, pong), inter)
    await old.callback(inter)
    assert handler.seats == [2, 1, None]
