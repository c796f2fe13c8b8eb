"""Pre-moves in a seat's DM (issue 30): the "Next discard…" menu only while the seat
decides nothing, its cancel button and "next:" line once chosen, the line that tells a
turn played for the seat, and "discard my draw" shown only for a ready hand."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.core.items import MAX_ROW_BUTTONS
from bot.discord.play.choices import add_preferences, preference_items
from bot.discord.play.dms import private_message
from bot.discord.play.moves import _next_menu
from bot.discord.play.premoves import NEXT_MARK, with_next_line
from bot.service import ActResult
from bot.service.notices import ClaimAnswer, NextDiscard, PlayedAhead
from bot.store import StandingChoices
from engine.rules.common import ActionKind
from engine.tiles import parse_tiles, tile_from_notation
from engine.view import view
from tests.discord.presenter_kit import NAMES, dealt, discarded

T = tile_from_notation


def ids(ui: discord.ui.View) -> list[str]:
    out = []
    for item in ui.children:
        custom_id = getattr(item, "custom_id", None)
        if isinstance(custom_id, str):
            out.append(custom_id)
    return out


def rows(ui: discord.ui.View) -> dict[str, int]:
    """Each component's action row, as Discord receives them."""
    return {c["custom_id"]: i for i, row in enumerate(ui.to_components())
            for c in row["components"]}


def test_the_menu_is_offered_only_while_the_seat_decides_nothing() -> None:
    state = dealt(3)
    deciding = view(state, 0)
    _, ui = private_message(deciding, table_id=5, hand=1, step=2, names=NAMES,
                            locale="en-US", deadline=None)
    assert not [i for i in ids(ui) if i.startswith("mj:nx")]
    idle = view(state, 1)
    text, ui = private_message(idle, table_id=5, hand=1, step=None, names=NAMES,
                               locale="en-US", deadline=None)
    assert ids(ui) == ["mj:nx:5:1:s1"] and NEXT_MARK not in text
    chosen = idle.hand[0]
    text, ui = private_message(idle, table_id=5, hand=1, step=None, names=NAMES,
                               locale="en-US", deadline=None,
                               next_discard=NextDiscard(chosen),
                               choices=StandingChoices())
    assert ids(ui)[:2] == ["mj:nx:5:1:s1", "mj:nxc:5:1:s1"]
    assert rows(ui)["mj:nx:5:1:s1"] == 0 and rows(ui)["mj:nxc:5:1:s1"] == 1
    assert all(row >= 2 for custom_id, row in rows(ui).items()
               if custom_id.startswith("mj:pref:"))
    (line,) = [x for x in text.splitlines() if x.startswith(NEXT_MARK)]
    assert line.startswith(f"{NEXT_MARK} Next discard: ")
    menu: Any = ui.children[0]
    assert [o.value for o in menu.item.options if o.default] == [chosen.notation]


def test_a_turn_played_for_the_seat_is_told_in_its_dm() -> None:
    state, _ = discarded(dealt(3))
    idle = view(state, 0)
    text, _ = private_message(idle, table_id=5, hand=1, step=None, names=NAMES, locale="zh-CN",
                              deadline=None, played=PlayedAhead("premove", T("9s"), T("1z")))
    assert "⚡ 你摸到 九条；已打出你预选的 东风。" in text


def test_the_next_line_is_replaced_not_repeated() -> None:
    content = "head\n⏭ Next discard: East Wind\nmore"
    assert with_next_line(content, "⏭ Next discard: West Wind") == \
        "head\nmore\n⏭ Next discard: West Wind"
    assert with_next_line(content, None) == "head\nmore"


def test_discard_my_draw_is_shown_only_for_a_ready_hand_or_while_on() -> None:
    def names(ready: bool, choices: StandingChoices) -> list[str]:
        return [i.split(":")[3] for i in (getattr(x, "custom_id", "") for x in
                                          preference_items(5, choices, "en-US", ready=ready))
                if i.startswith("mj:pref:")]
    assert "discard_drawn_when_ready" not in names(False, StandingChoices())
    assert "discard_drawn_when_ready" in names(True, StandingChoices())
    assert "discard_drawn_when_ready" in names(False,
                                               StandingChoices(discard_drawn_when_ready=True))


def test_more_toggles_than_a_row_holds_go_on_to_the_next_row() -> None:
    ui = discord.ui.View(timeout=None)
    assert add_preferences(ui, 5, StandingChoices(), "en-US", away=True, ready=True)
    placed = sorted(rows(ui).values())
    assert len(placed) > MAX_ROW_BUTTONS
    assert placed == [0] * MAX_ROW_BUTTONS + [1] * (len(placed) - MAX_ROW_BUTTONS)


def test_the_next_line_and_the_toggle_say_whether_it_is_or_my_draw() -> None:
    state = dealt(3)
    idle = view(state, 1)
    tile = idle.hand[0]
    for or_draw, line, toggle in ((True, "or your draw if it helps less", "mj:nxd:5:1:s1:off"),
                                  (False, "Next discard: exactly ", "mj:nxd:5:1:s1:on")):
        text, ui = private_message(idle, table_id=5, hand=1, step=None, names=NAMES,
                                   locale="en-US", deadline=None,
                                   next_discard=NextDiscard(tile, or_draw))
        assert line in text and toggle in ids(ui)
        assert rows(ui)[toggle] == rows(ui)["mj:nxc:5:1:s1"] == 1
        button: Any = next(i for i in ui.children if getattr(i, "custom_id", "") == toggle)
        assert button.item.label.startswith("✓ ") is or_draw  # on shows its tick
    zh, _ = private_message(idle, table_id=5, hand=1, step=None, names=NAMES, locale="zh-CN",
                            deadline=None, next_discard=NextDiscard(tile, False))
    assert "下一张预打：只打" in zh
    zh, _ = private_message(idle, table_id=5, hand=1, step=None, names=NAMES, locale="zh-CN",
                            deadline=None, next_discard=NextDiscard(tile))
    assert "若摸到的牌更没用就打摸到的" in zh


def test_the_draw_thrown_in_place_of_the_chosen_tile_is_told_with_why() -> None:
    state, _ = discarded(dealt(3))
    idle = view(state, 0)
    played = PlayedAhead("premove", T("7z"), T("7z"), T("2m"))
    text, _ = private_message(idle, table_id=5, hand=1, step=None, names=NAMES,
                              locale="en-US", deadline=None, played=played)
    assert "⚡ You drew Red Dragon and played it: it helps less than Two of Characters, " \
           "your chosen next discard, still chosen for your next turn." in text
    text, _ = private_message(idle, table_id=5, hand=1, step=None, names=NAMES,
                              locale="zh-CN", deadline=None, played=played)
    assert "⚡ 你摸到 红中，它比你预选的 二万 更没用，已打出摸到的牌" \
           "（二万 留在手里，仍是你下一张预打）。" in text


def test_the_reply_to_a_click_offers_the_next_discard_and_the_claims_in_advance() -> None:
    """Row 0 the next discard, row 1 the claims answered in advance with the seat's
    answers marked; no claims menu when there is nothing to claim with nor answered."""
    held = tuple(parse_tiles("11m45m99p123s1155z"))
    answers = ((T("1m"), ClaimAnswer(ActionKind.PONG)),)
    ui = _next_menu(ActResult(5, 2, 9, False, False, 1, held, None, answers), "en-US")
    assert ui is not None
    rows = [[c["custom_id"] for c in row["components"]] for row in ui.to_components()]
    assert rows == [["mj:nx:5:2:s1"], ["mj:ca:5:2"]]
    claims = ui.to_components()[1]["components"][0]
    assert [o["value"] for o in claims["options"] if o.get("default")] == ["p1m"]
    assert {"p9p", "p1z", "p5z"} <= {o["value"] for o in claims["options"]}
    bare = _next_menu(ActResult(5, 2, 9, False, False, 1, tuple(parse_tiles(
        "147m258p369s1234z")), None), "en-US")
    assert bare is not None and len(bare.to_components()) == 1
    assert _next_menu(ActResult(5, 2, 9, True, False, 1, held, None, answers), "en-US") \
        is None  # the hand ended
