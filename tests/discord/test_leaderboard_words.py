"""The leaderboard names each best hand's patterns and value in the reader's language,
and its card takes every word from the caller: Chinese columns for a Chinese channel,
the title drawn once."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

import render.cards
from bot.discord import leaderboard as boards
from bot.discord.leaderboard import best_hand_text
from bot.store import LeaderboardRow, best_hand_key
from render.draw import draw_text


def row(desc: str | None, value: int | None, rules: str = "shanghai") -> LeaderboardRow:
    return LeaderboardRow(1, 2, "user:1", "Ann", Fraction(40), 1, 2, 1, value, desc, rules)


def test_best_hand_is_named_in_the_readers_language() -> None:
    flush = row(best_hand_key("shanghai", ("hun_peng", "da_diao_che")), 40)
    assert best_hand_text(flush, "en-US") == \
        "混碰 Half-Flush All Pungs, 大吊车 Big Crane · 40 花"
    assert best_hand_text(flush, "zh-CN") == "混碰、大吊车 · 40 花"
    plain = row(best_hand_key("hangzhou", ()), 1)
    assert best_hand_text(plain, "en-US") == "平胡 Plain win · ×1"
    assert best_hand_text(plain, "zh-CN") == "平胡 · ×1"
    assert best_hand_text(row(None, None), "zh-CN") is None
    # rows written before hands were kept as data: read back from their old labels
    assert best_hand_text(row("胡 Win", 2), "zh-CN") == "平胡 · ×2"
    assert best_hand_text(row("混碰 Half-Flush All Pungs 大吊车 Big Crane", 40), "zh-CN") \
        == "混碰、大吊车 · 40 花"
    assert best_hand_text(row("杠开 Kong Bloom 杠开 Kong Bloom", 4), "zh-CN") == "杠开 ×2 · ×4"
    assert best_hand_text(row("something else", 20), "zh-CN") == "something else"


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every string drawn on a card."""
    out: list[str] = []
    real = draw_text  # what render.cards imported

    def record(draw: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        out.append(text)
        return real(draw, xy, text, *args, **kwargs)

    monkeypatch.setattr(render.cards, "draw_text", record)
    return out


def test_zh_card_has_chinese_columns_and_one_title(drawn: list[str]) -> None:
    rows = [row(best_hand_key("shanghai", ("qing_yi_se",)), 20)]
    boards.board_png(rows, "zh-CN")
    assert drawn[0] == "本频道上海排行榜 · 积分：花 × 底分"  # the title, once
    assert "排行榜" not in "".join(drawn[1:])
    assert {"玩家", "积分", "胡牌", "场次", "最佳牌型"} <= set(drawn)
    assert "清一色 · 20 花" in drawn
    english = [s for s in drawn if any(c.isascii() and c.isalpha() for c in s)
               and s != "Ann"]
    assert english == [], english


def test_en_card_has_english_columns(drawn: list[str]) -> None:
    boards.board_png([row(best_hand_key("shanghai", ("qing_yi_se",)), 20)], "en-US")
    assert drawn[0] == "Shanghai leaderboard of this channel · points: 花 × 底分"
    assert {"Name", "Points", "Won", "Matches", "Best hand"} <= set(drawn)
    assert "清一色 Full Flush · 20 花" in drawn
    drawn.clear()
    boards.board_png([], "zh-CN")
    assert "本频道还没有结算过的牌局。" in drawn


def test_the_card_names_its_rule_set_and_unit(drawn: list[str]) -> None:
    boards.board_png([row(best_hand_key("hangzhou", ()), 2, "hangzhou")], "en-US")
    assert drawn[0] == "Hangzhou leaderboard of this channel · points: multiples of 底分"
    assert "平胡 Plain win · ×2" in drawn
    drawn.clear()
    boards.board_png([row(best_hand_key("shanghai", ("qing_yi_se",)), 20)], "zh-CN")
    assert drawn[0] == "本频道上海排行榜 · 积分：花 × 底分"
    assert {"玩家", "积分", "胡牌", "场次", "最佳牌型"} <= set(drawn)
    english = [s for s in drawn if any(c.isascii() and c.isalpha() for c in s)
               and s != "Ann"]
    assert english == [], english
    drawn.clear()
    boards.board_png([], "en-US", "hangzhou")
    assert drawn[0].startswith("Hangzhou leaderboard")
    assert "No Hangzhou hand has been settled in this channel yet." in drawn


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_a_long_best_hand_is_wrapped_never_cut(drawn: list[str], locale: str) -> None:
    """"混一…" told nobody which hand it was: the best hand's words all show, over as
    many lines as its column needs."""
    best = row(best_hand_key("shanghai", ("hun_yi_se", "peng_peng_hu", "da_diao_che",
                                          "gang_kai", "men_qing")), 100)
    words = best_hand_text(best, locale)
    assert words is not None
    boards.board_png([best, row(best_hand_key("shanghai", ("qing_yi_se",)), 20)], locale)
    assert not [s for s in drawn if "…" in s], drawn
    start = next(i for i, s in enumerate(drawn) if words.startswith(s))
    shown = drawn[start:start + 8]
    joined = ""
    for part in shown:
        if not words.startswith((joined + " " + part).strip()) and \
                not words.startswith(joined + part):
            break
        joined = (joined + " " + part).strip() if words.startswith(
            (joined + " " + part).strip()) else joined + part
    assert joined == words, (shown, words)


def test_the_card_has_the_rating_column(drawn: list[str]) -> None:
    """Issue 31: each person's rating ("—" for none, "?" while provisional), in its column."""
    from bot.service import Rating

    ann = replace(row(best_hand_key("shanghai", ("qing_yi_se",)), 20), player_key="user:1")
    bob = replace(ann, player_key="user:2", display_name="Bob")
    cy = replace(ann, player_key="user:3", display_name="Cy")
    boards.board_png([ann, bob, cy], "zh-CN", None,
                     {1: Rating(30.0, 5.0, 12, 1083, False), 2: Rating(25.0, 8.0, 3, 920, True)},
                     2)
    assert drawn[0] == "本频道上海排行榜 · 积分：花 × 底分 · 第 2 赛季"
    assert "等级分" in drawn and {"1083", "920?", "—"} <= set(drawn)
    from render import draw
    from render.tiles import name_font

    missing = {ch for text in drawn for ch in text
               if not draw._has_glyph(ch) and not draw._has_glyph(ch, name_font)}
    assert missing == set()  # every word of the column and the season in a bundled font
