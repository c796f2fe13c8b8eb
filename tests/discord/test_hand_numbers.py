"""The numbers under the tiles of a hand picture are the discard menu's: each menu entry
starts with the number(s) of its tile in the picture, and the DM says what the numbers
and the highlighted tiles (the suggested discard, the drawn tile) mean."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import render.hand
from bot.discord.core.words import tile_name
from bot.discord.play.moves import move_view
from bot.discord.play.words import dm_text
from bot.discord.rules import rules_summary
from engine.game import apply
from engine.tiles import Tile, tile_from_notation
from engine.view import PlayerView, view
from render.draw import draw_text
from render.hand import render_hand
from tests.game.helpers import PASS, D, play, start
from tests.game.test_claims import SCENE_K, SCENE_P
from tests.narrowing import known

NAMES = ["Ann", "Bob", "Cy", "Di"]


def turn_view() -> PlayerView:
    """Bob's turn, a tile just drawn (3s), a discard to choose."""
    state, _ = start("shanghai", SCENE_K, draws="3s")
    state = play(state, D(0, "9p"), PASS(1))
    return view(state, 1)


def claim_view() -> PlayerView:
    state, _ = start("shanghai", SCENE_P)
    state, _ = apply(state, D(0, "9s"))
    return view(state, 1)


def menu(pv: PlayerView, locale: str) -> list[dict[str, Any]]:
    ui = move_view(pv, 1, 1, 7, locale)
    (select,) = [c.to_component_dict() for c in ui.children
                 if c.to_component_dict()["type"] == 3]
    options: list[dict[str, Any]] = select["options"]
    return options


@pytest.fixture
def drawn_text(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """(text, x) of every string drawn on the hand picture."""
    out: list[tuple[str, int]] = []
    real = draw_text  # what render.hand imported

    def record(draw: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        out.append((text, xy[0]))
        return real(draw, xy, text, *args, **kwargs)

    monkeypatch.setattr(render.hand, "draw_text", record)
    return out


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_menu_entries_carry_the_pictures_numbers(locale: str) -> None:
    pv = turn_view()
    held = [*pv.concealed, known(pv.drawn)]
    for option in menu(pv, locale):
        numbers, _, rest = option["label"].partition(" · ")
        want = [i + 1 for i, tile in enumerate(held) if tile.notation == option["value"]]
        assert [int(n) for n in numbers.split(",")] == want, option
        # the tile by name in the reader's language, never its code
        assert rest == tile_name(tile_from_notation(option["value"]), locale)
    assert menu(pv, locale)[0]["label"] == f"{len(held)} · {tile_name(Tile.S3, locale)}"


def test_the_picture_numbers_its_tiles_only_when_a_discard_is_due(
        drawn_text: list[tuple[str, int]]) -> None:
    pv = turn_view()
    render_hand(pv)
    numbers = [(int(s), x) for s, x in drawn_text if s.isdigit() and int(s) <= 14]
    assert [n for n, _ in sorted(numbers, key=lambda p: p[1])] == list(range(1, 15))
    drawn_text.clear()
    render_hand(claim_view())  # a claim: no menu, so no numbers
    assert not [s for s, _ in drawn_text if s.isdigit()]


def test_the_dm_explains_the_numbers_and_highlights() -> None:
    pv = turn_view()
    held = [*pv.concealed, known(pv.drawn)]
    hint = max(i for i, tile in enumerate(held) if tile == pv.suggested) + 1
    en = dm_text(pv, table_id=1, names=NAMES, locale="en-US")
    assert "numbers under the tiles are those of the discard menu" in en
    assert f"tile {hint}, outlined in blue, is the suggested discard (⭐)" in en
    assert f"tile {len(held)}, set apart on the right, is the tile you just drew" in en
    zh = dm_text(pv, table_id=1, names=NAMES, locale="zh-CN")
    assert "牌下的编号就是出牌菜单里的编号" in zh
    assert f"蓝框的第 {hint} 张是推荐打出的牌（⭐）" in zh and f"第 {len(held)} 张" in zh
    claim = dm_text(claim_view(), table_id=1, names=NAMES, locale="en-US")
    assert "discard menu" not in claim
    assert "/mahjong rules says it again" in en and "/mahjong rules 可以再看" in zh


def test_the_legend_is_said_once_a_match_and_again_in_the_rules() -> None:
    state, _ = start("shanghai", SCENE_K, draws="3s")
    state = play(state, D(0, "9p"), PASS(1))
    # Ann has discarded: her later discards in this hand are not explained again
    assert view(state, 0).table.seats[0].discards
    later = replace(view(state, 1), seat=0)
    assert later.moves and "In the picture" not in dm_text(
        later, table_id=1, names=NAMES, locale="en-US")
    # nor in any later hand, even before a first discard
    pv = turn_view()
    second = replace(pv, table=replace(pv.table, hand_number=2))
    assert "In the picture" not in dm_text(second, table_id=1, names=NAMES, locale="en-US")
    assert "图中" not in dm_text(second, table_id=1, names=NAMES, locale="zh-CN")
    # /mahjong rules says it on request, in general words
    for rules in ("shanghai", "hangzhou"):
        en = rules_summary(rules, None, "en-US")
        assert "numbers under the tiles are those of the discard menu" in en
        assert "outlined in blue, is the suggested discard" not in en  # no tile number
        assert "the tile outlined in blue is the suggested discard" in en
        assert ("财 badge" in en) is (rules == "hangzhou")
        assert "手牌图中：牌下的编号" in rules_summary(rules, None, "zh-CN")
