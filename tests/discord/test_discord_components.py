"""Views and texts built from real engine states: Discord's limits always hold, and
exactly the legal moves are offered, each id parsing back to its action."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from bot.discord.lobby.message import LobbyButton, LobbySeat, lobby_embed, lobby_view
from bot.discord.play.choices import BackButton, PreferenceButton
from bot.discord.play.moves import (
    DiscardSelect,
    MoveButton,
    MoveCode,
    move_view,
    parse_discard_value,
)
from bot.discord.play.words import dm_text
from bot.discord.table.words import describe_events
from engine.game import HandState, apply, deciding_seats, legal_actions, new_hand
from engine.game.actions import Action
from engine.rules.common import ActionKind
from engine.tiles import Tile, full_set
from engine.view import PlayerView, view
from tests.game.helpers import AK, PASS, PONG, QUIET, D, play, start
from tests.game.test_claims import SCENE_K, SCENE_P, SCENE_ROB
from tests.narrowing import known

LOCALES = (discord.Locale.american_english, discord.Locale.chinese)
TABLE, HAND = 10**12, 64


def check_limits(ui: discord.ui.View) -> list[dict[str, Any]]:
    """Assert every Discord limit on a message's components; return the flat list."""
    rows = ui.to_components()
    assert len(rows) <= 5
    flat: list[dict[str, Any]] = []
    for row in rows:
        parts = row["components"]
        kinds = {c["type"] for c in parts}
        assert 1 <= len(parts) <= 5
        if 3 in kinds:  # a string select fills its row alone
            assert len(parts) == 1
        flat += parts
    ids = [c["custom_id"] for c in flat]
    assert len(ids) == len(set(ids)), "custom_ids must be unique in a message"
    for c in flat:
        assert len(c["custom_id"]) <= 100
        if c["type"] == 2:
            assert 1 <= len(c["label"]) <= 80
        else:
            assert 1 <= len(c["options"]) <= 25 and len(c.get("placeholder", "")) <= 150
            values = [o["value"] for o in c["options"]]
            assert len(values) == len(set(values))
            for o in c["options"]:
                assert 1 <= len(o["label"]) <= 100 and len(o["value"]) <= 100
                assert len(o.get("description") or "") <= 100
    return flat


def id_fields(cls: Any, custom_id: str) -> dict[str, Any]:
    """What the id says, read by the template of the item that will rebuild it."""
    match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None, custom_id
    return {k: int(v) if v is not None and v.isdigit() else v
            for k, v in match.groupdict().items()}


def offered_actions(flat: list[dict[str, Any]], seat: int, seq: int) -> list[Action]:
    """The actions a seat could send with these components, via the parsers."""
    out = []
    for c in flat:
        if c["type"] == 2:
            parsed = id_fields(MoveButton, c["custom_id"])
            assert (parsed["table"], parsed["hand"], parsed["step"], parsed["seat"]) == (
                TABLE, HAND, seq, seat)
            out.append(MoveCode.decode(parsed["move"]).action(seat))
        else:
            parsed = id_fields(DiscardSelect, c["custom_id"])
            assert parsed["step"] == seq
            assert parsed["seat"] == seat  # whose menu it is
            out += [Action(ActionKind.DISCARD, seat, parse_discard_value(o["value"]))
                    for o in c["options"]]
    return out


def check_view(state: HandState, seat: int, seq: int = 7) -> tuple[PlayerView, list[Any]]:
    """Build both locales' views for ``seat``: limits hold, exactly the legal moves."""
    pv = view(state, seat, HAND)
    first: list[Any] | None = None
    for locale in LOCALES:
        flat = check_limits(move_view(pv, TABLE, HAND, seq, locale))
        first = flat if first is None else first
        assert sorted(offered_actions(flat, seat, seq), key=str) \
            == sorted(legal_actions(state, seat), key=str)
        names = ["Ann", "Bob", "Cy", "Di"]
        text = dm_text(pv, table_id=TABLE, names=names, locale=locale, deadline=1.9e9)
        assert len(text) <= 2000 and str(TABLE) in text
    assert first is not None
    return pv, first


def _labels(flat: list[dict[str, Any]]) -> list[str]:
    return [c["label"] for c in flat if c["type"] == 2]


def test_a_claim_window_offers_each_seat_its_claims_and_pass() -> None:
    state, _ = start("shanghai", SCENE_P)
    state, _ = apply(state, D(0, "9s"))
    _, chi = check_view(state, 1)
    _, pong = check_view(state, 2)
    _, win = check_view(state, 3)
    assert _labels(chi) == ["吃 Chi Bamboo 7 8 9", "过 Pass"]
    assert _labels(pong) == ["碰 Pong Nine of Bamboo ×3", "过 Pass"]
    assert _labels(win)[0].startswith("胡 Win (") and "花" in _labels(win)[0]
    assert [c["style"] for c in win] == [discord.ButtonStyle.success.value,
                                         discord.ButtonStyle.secondary.value]
    assert check_limits(move_view(view(state, 0), TABLE, HAND, 7, "en")) == []
    zh = check_limits(move_view(view(state, 1), TABLE, HAND, 7, discord.Locale.chinese))
    assert _labels(zh) == ["吃 七八九条", "过"]


def test_pong_and_kong_are_separate_buttons() -> None:
    state, _ = start("shanghai", SCENE_K)
    state, _ = apply(state, D(0, "9p"))
    _, flat = check_view(state, 1)
    assert _labels(flat) == ["杠 Kong Nine of Dots ×4", "碰 Pong Nine of Dots ×3", "过 Pass"]


def test_own_turn_discard_menu_and_kong_buttons() -> None:
    state, _ = start("shanghai", SCENE_K, draws="3s")
    state = play(state, D(0, "9p"), PASS(1))
    pv, flat = check_view(state, 1)
    assert pv.drawn is Tile.S3
    (menu,) = [c for c in flat if c["type"] == 3]
    values = [o["value"] for o in menu["options"]]
    assert values[0] == "3s"  # the drawn tile first
    assert len(values) == len(set(pv.concealed) | {pv.drawn})
    assert menu["options"][0]["description"].startswith("just drawn")
    suggested = [o for o in menu["options"] if o.get("emoji")]
    assert [o["value"] for o in suggested] == [known(pv.suggested).notation]
    assert "suggested" in suggested[0]["description"]
    assert _labels(flat) == ["暗杠 Concealed kong Four of Characters ×4"]
    zh_menu = check_limits(move_view(pv, TABLE, HAND, 7, "zh-CN"))[0]
    assert zh_menu["options"][0]["label"] == "14 · 三条"  # its number in the picture


def test_discard_options_show_the_waits_they_lead_to() -> None:
    state, _ = start("hangzhou", {0: "1112345678999m1z", 1: QUIET[1], 2: QUIET[2],
                                  3: QUIET[3]})
    _, flat = check_view(state, 0)
    options = {o["value"]: o for o in flat[0]["options"]}
    # Hangzhou wins on a discard only at a dealer's streak of 3: each a self-draw here.
    assert "听 waits: Characters 1 2 3 4 5 6 7 8 9, White Dragon (财神) (self-draw only, ×1)" \
        in options["1z"]["description"]
    assert options["1z"]["label"] == "14 · East Wind"


def test_robbing_a_kong_offers_win_and_pass_and_names_the_tile() -> None:
    state, _ = start("shanghai", SCENE_ROB)
    state = play(state, D(0, "4m"), PASS(2), PONG(1, "44m"))
    state, events = apply(state, AK(1, "4m"))
    pv, flat = check_view(state, 2)
    assert [a.kind for a in offered_actions(flat, 2, 7)] == [ActionKind.WIN, ActionKind.PASS]
    names = ["A", "B", "C", "D"]
    news = describe_events(events, names, 2, "en")
    assert "B added to a kong: Four of Characters ×4." in news
    text = dm_text(pv, table_id=1, names=names, locale="en", happened=news)
    assert "B adds Four of Characters to a kong" in text
    assert "B added to a kong" not in text  # the question tells it: once


def _walk(rules: str, options: dict[str, Any], seed: int) -> int:
    """Play a random hand, biased towards claims and kongs, checking every view."""
    rng = random.Random(seed)
    wall = full_set(rules == "shanghai")
    rng.shuffle(wall)
    state, _ = new_hand(rules, options, tuple(wall), rng.randrange(4), (3, 5))
    seq = checked = 0
    while state.phase.value != "ended":
        seats = deciding_seats(state)
        for seat in seats:
            check_view(state, seat, seq)
            checked += 1
        seat = rng.choice(seats)
        actions = legal_actions(state, seat)
        bold = [a for a in actions if a.kind not in (ActionKind.DISCARD, ActionKind.PASS)]
        state, _ = apply(state, rng.choice(bold if bold and rng.random() < 0.7 else actions))
        seq += 1
    return checked


@pytest.mark.parametrize(("rules", "options"), [
    ("shanghai", {}),
    ("hangzhou", {}),
    ("hangzhou", {"caishen": "flip", "discard_win_streak": 1, "liability": False}),
])
def test_random_hands_always_fit_discord_and_offer_exactly_the_legal_moves(
        rules: str, options: dict[str, Any]) -> None:
    assert sum(_walk(rules, options, seed) for seed in range(4)) > 100


def test_lobby_view_and_embed() -> None:
    flat = check_limits(lobby_view(TABLE, "en", free_seats=2))
    assert [c["label"] for c in flat] == ["Join", "Leave", "Add computer", "Start"]
    assert [c.get("disabled", False) for c in flat] == [False, False, False, True]
    for c in flat:
        assert id_fields(LobbyButton, c["custom_id"])["table"] == TABLE
    full = check_limits(lobby_view(TABLE, "zh-CN", free_seats=0))
    assert [c["label"] for c in full] == ["加入", "离开", "加电脑", "开始"]
    assert [c.get("disabled", False) for c in full] == [True, False, True, False]
    assert [c["label"] for c in check_limits(lobby_view(1, "en", status="playing"))] \
        == ["Leave"]
    assert lobby_view(1, "en", status="finished").children == []
    seats = [LobbySeat("<@1>"), None, LobbySeat("Computer 1", is_computer=True), None]
    embed = lobby_embed(table_id=3, rules="hangzhou", options={"caishen": "flip"},
                        seats=seats, locale="en")
    assert embed.title == "Hangzhou mahjong · table #3"
    assert "2 seat(s) free" in known(embed.description)
    assert "Seat 1 (East): <@1>" in known(embed.fields[0].value)
    assert "Seat 2 (South): empty" in known(embed.fields[0].value)
    assert "🤖 Computer 1" in known(embed.fields[0].value)
    assert "财神: flip" in known(embed.fields[1].value)
    zh = lobby_embed(table_id=3, rules="shanghai", options={}, seats=seats, locale="zh-CN",
                     status="playing", hand=2, hands=8, dealer=2)
    assert zh.title == "上海麻将 · 第 3 桌" and "第 2 局" in known(zh.description)
    assert "1 号位（西）" in known(zh.fields[0].value)  # seat 1 is West when seat 3 deals
    assert len(embed) <= 6000 and len(zh) <= 6000


def test_a_caishen_in_a_meld_is_marked_on_its_button() -> None:
    state, _ = start("hangzhou", {0: QUIET[0] + "3m", 1: "3m5z8m369p147s1234z",
                                  2: QUIET[2], 3: QUIET[3]})
    state, _ = apply(state, D(0, "3m"))
    _, flat = check_view(state, 1)
    assert _labels(flat) == [
        "碰 Pong Three of Characters, White Dragon (财神) + Three of Characters", "过 Pass"]


def test_standing_choices_row_sets_explicit_values() -> None:
    from bot.discord.play.choices import add_preferences
    from bot.store import StandingChoices

    state, _ = start("shanghai", SCENE_P)
    state, _ = apply(state, D(0, "9s"))
    ui = move_view(view(state, 1), TABLE, HAND, 7, "en")
    assert add_preferences(ui, TABLE, StandingChoices(always_win=True), "en", away=True)
    flat = check_limits(ui)
    extra = flat[2:]
    assert [c["label"] for c in extra] == [
        "I'm back", "✓ Always win when allowed", "Pass every chi/pong/kong", "Never chi",
        "When away, discard the drawn tile"]
    assert id_fields(BackButton, extra[0]["custom_id"])["table"] == TABLE
    prefs = [id_fields(PreferenceButton, c["custom_id"]) for c in extra[1:]]
    assert [(p["name"], p["value"]) for p in prefs] == [
        ("always_win", "off"), ("pass_claims", "on"), ("never_chi", "on"),
        ("discard_drawn_when_away", "on")]
    zh = discord.ui.View(timeout=None)
    assert add_preferences(zh, 1, StandingChoices(), "zh-CN")
    assert [c["label"] for c in check_limits(zh)] == [
        "能胡就胡", "不吃不碰不杠", "从不吃", "托管时摸什么打什么"]
    full = discord.ui.View(timeout=None)
    for row in range(5):
        full.add_item(discord.ui.Button(label="x", custom_id=f"x{row}", row=row))
    assert not add_preferences(full, 1, StandingChoices(), "en")


def test_caps_hold_even_for_impossible_numbers_of_moves() -> None:
    """A hand has at most 14 kinds and a few claims; the caps are enforced anyway."""
    import dataclasses

    from engine.view import MoveView

    state, _ = start("shanghai", SCENE_K, draws="3s")
    state = play(state, D(0, "9p"), PASS(1))
    pv = view(state, 1)
    kinds = [Tile(i) for i in range(34)]
    discards = tuple(MoveView(Action(ActionKind.DISCARD, 1, k), "d") for k in kinds)
    chis = tuple(MoveView(Action(ActionKind.CHI, 1, tiles=(Tile(i), Tile(i + 1))), "c")
                 for i in range(7))
    pongs = tuple(MoveView(Action(ActionKind.PONG, 1, tiles=(k, k)), "p") for k in kinds)
    extra = (MoveView(Action(ActionKind.PASS, 1), "x"), MoveView(Action(ActionKind.WIN, 1), "w"))
    crowded = dataclasses.replace(pv, moves=discards + chis + pongs + extra,
                                  suggested=Tile.RED)
    flat = check_limits(move_view(crowded, 1, 1, 1, "en"))
    values = [o["value"] for o in flat[0]["options"]]
    assert len(values) == 25 and values[0] == "3s" and "7z" in values
    labels = _labels(flat)
    assert len(labels) == 20 and labels[0].startswith("胡") and labels[-1] == "过 Pass"


def test_a_caishen_in_the_discard_menu_is_marked() -> None:
    state, _ = start("hangzhou", {0: "123456m789p111s5z9s", 1: QUIET[1], 2: QUIET[2],
                                  3: QUIET[3]})
    _, flat = check_view(state, 0)
    labels = {o["value"]: o["label"] for o in flat[0]["options"]}
    assert labels["5z"] == "14 · White Dragon (财神)"
    assert labels["9s"] == "13 · Nine of Bamboo"
    assert _labels(flat)[0] == "胡 Win (×2)"


def test_lobby_seats_come_from_the_service_seat_info() -> None:
    from bot.service.notices import SeatInfo

    seats = [SeatInfo(0, 42, "Ann", False), None, SeatInfo(2, None, "电脑 Computer 3", True),
             SeatInfo(3, 7, "Di", False, away=True)]
    lobby = [LobbySeat.of(s) for s in seats]
    assert lobby == [LobbySeat("<@42>"), None, LobbySeat("电脑 Computer 3", True),
                     LobbySeat("<@7>", away=True)]
    embed = lobby_embed(table_id=1, rules="shanghai", options={}, seats=lobby, locale="en",
                        status="playing", hand=1, hands=8)
    assert "Seat 4 (North): <@7> (away)" in known(embed.fields[0].value)


def test_an_idle_seat_is_offered_its_claims_in_advance_with_the_ones_chosen() -> None:
    from bot.discord.play.choices import ClaimAnswersSelect
    from bot.discord.play.dms import private_message
    from bot.service import ClaimAnswer
    from bot.store import StandingChoices

    state, _ = start("shanghai", SCENE_P)  # the dealer's turn: seat 3 decides nothing
    idle = view(state, 3)
    one_bamboo = Tile.S1
    text, ui = private_message(idle, table_id=TABLE, hand=HAND, step=None,
                               names=("A", "B", "C", "D"), locale="en", deadline=None,
                               choices=StandingChoices(never_chi=True),
                               answers=((one_bamboo, ClaimAnswer(ActionKind.KONG)),))
    flat = check_limits(ui)
    (menu,) = [c for c in flat if c["custom_id"].startswith("mj:ca:")]  # after "next…"
    assert id_fields(ClaimAnswersSelect, menu["custom_id"]) == {"table": TABLE, "hand": HAND}
    values = [o["value"] for o in menu["options"]]
    # a chi of 3s with its own 1s 2s too (only the seat after the discarder is ever
    # offered one: the service plays it only when a window offers exactly it)
    assert values == ["p1s", "k1s", "p2s", "k2s", "c3s1s2s", "p5z", "k5z", "p6z", "k6z"]
    assert [o["value"] for o in menu["options"] if o.get("default")] == ["k1s"]
    assert menu["min_values"] == 0 and menu["max_values"] == len(values)
    assert "Answered in advance: 杠 Kong One of Bamboo." in text
    assert "✓ Never chi" in [c.get("label") for c in flat]
    # deciding, or holding no pair: no menu, no line
    _, deciding = private_message(view(state, 0), table_id=TABLE, hand=HAND, step=1,
                                  names=("A", "B", "C", "D"), locale="en", deadline=None,
                                  answers=())
    assert not any(c["custom_id"].startswith("mj:ca:") for c in check_limits(deciding))
    text, bare = private_message(view(state, 1), table_id=TABLE, hand=HAND, step=None,
                                 names=("A", "B", "C", "D"), locale="zh-CN", deadline=None,
                                 answers=())
    # holding no pair: chis alone are offered (no line: nothing answered yet)
    (chis,) = [c for c in check_limits(bare) if c["custom_id"].startswith("mj:ca:")]
    assert chis["options"] and all(o["value"][0] == "c" for o in chis["options"])
    assert "预先" not in text


def test_a_hand_of_many_chis_keeps_the_claims_menu_within_discords_limits() -> None:
    """A whole suit in hand makes more chis than a menu takes: at most 25 entries, the
    answers already chosen always among them (a save keeps only what the menu shows),
    then the pongs and kongs, then the chis; each entry's words within Discord's."""
    from bot.discord.play.choices import claim_answer_menu, then_menus
    from bot.discord.play.dms import private_message
    from bot.service import ClaimAnswer
    from bot.store import StandingChoices

    scene = {0: QUIET[0] + "5z", 1: QUIET[1], 2: QUIET[2], 3: "123456789m1234p"}
    state, _ = start("shanghai", scene)
    idle = view(state, 3)
    late = ClaimAnswer(ActionKind.CHI, (Tile.P3, Tile.P4), then=Tile.M1)  # sorts last
    answers = ((Tile.P5, late),)
    menu = known(claim_answer_menu(idle, TABLE, HAND, answers, "en"))
    values = [o.value for o in menu.item.options]
    assert len(values) == 25 and len(set(values)) == 25
    assert [o.value for o in menu.item.options if o.default] == ["c5p3p4p"]
    assert all(len(o.label) <= 100 and len(o.description or "") <= 100 for o in menu.item.options)
    _, ui = private_message(idle, table_id=TABLE, hand=HAND, step=None,
                            names=("A", "B", "C", "D"), locale="zh-CN", deadline=None,
                            choices=StandingChoices(), answers=answers)
    check_limits(ui)
    # the reply to a save: one "after …, discard…" menu per chi or pong answered, of the
    # tiles still held after it ("ask me then" first), the named one chosen; none for a
    # kong, nor for a claim of tiles no longer held
    chosen = {Tile.P5: late, Tile.M9: ClaimAnswer(ActionKind.KONG),
              Tile.RED: ClaimAnswer(ActionKind.PONG)}
    (after,) = then_menus(idle.hand, TABLE, HAND, chosen, "en")
    assert after.custom_id == f"mj:cat:{TABLE}:{HAND}:5p"
    options = after.item.options
    assert options[0].value == "-" and not options[0].default
    assert [o.value for o in options if o.default] == ["1m"]
    assert {"3p", "4p"}.isdisjoint(o.value for o in options)  # the chi's own tiles
    assert "After 吃 Chi Five of Dots with Dots 3 4, discard" in (after.item.placeholder or "")
