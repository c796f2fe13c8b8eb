"""The words of ``/mahjong stats``: the card's and the text's, in English and 简体中文,
every figure written out (rates, averages in the rule set's unit, times, the rating),
the biggest hand named with its patterns, and every character drawable."""

from __future__ import annotations

import pickle
from dataclasses import replace
from fractions import Fraction

import pytest

from bot.discord.stats import (
    card_of,
    duration,
    is_private,
    percent,
    rating_text,
    stats_png,
    stats_text,
)
from bot.service.stats import HeadToHead, PlayerStats
from bot.store.ratings import Rating
from bot.store.stats import BiggestWin
from engine.rules import RULESETS
from render import draw
from render.stats import glyphs
from render.tiles import name_font


def Rated(shown: int, provisional: bool) -> Rating:
    return Rating(25.0, 8.3, 3 if provisional else 12, shown, provisional)


def full(rules: str = "shanghai", **kw: object) -> PlayerStats:
    marks = tuple((key, Fraction(i + 1)) for i, key in enumerate(RULESETS[rules].stat_keys))
    stats = PlayerStats(
        user_id=1, rules=rules, scope="channel", guild_id=7, channel_id=70,
        other_rules=("hangzhou",) if rules == "shanghai" else (), matches=4, hands=32,
        average_placement=2.25, first_rate=0.25, last_rate=0.25, wins=8, win_rate=0.25,
        self_draw_share=0.375, deal_ins=4, deal_in_rate=0.125,
        average_deal_in_cost=Fraction(45, 2), average_win_value=Fraction(71, 4),
        claim_rate=0.5, claims=20, drawn_rate=1 / 16,
        biggest=BiggestWin(80, ("qing_yi_se", "peng_peng_hu") if rules == "shanghai" else (),
                           1, 2.0),
        marks=marks, moves=300, median_move_s=1500.0, timeouts=2, taken_over=1,
        rating=Rated(1083, True),
        versus=HeadToHead(2, 3, 2, 1, 24, 3, 1, Fraction(45), Fraction(-30)))
    return replace(stats, **kw)  # type: ignore[arg-type]  # fields by name


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
@pytest.mark.parametrize("rules", ["shanghai", "hangzhou"])
def test_every_character_of_the_card_can_be_drawn(locale: str, rules: str) -> None:
    card = card_of(full(rules), "Ann", "小波", locale)
    missing = {ch for ch in glyphs(card)
               if not draw._has_glyph(ch) and not draw._has_glyph(ch, name_font)}
    assert missing == set()
    assert stats_png(full(rules), "Ann", "小波", locale).startswith(b"\x89PNG")


def test_the_card_says_each_figure() -> None:
    card = card_of(full(), "Ann", "Bob", "en-US")
    said = {f.label: f.value for s in card.sections for f in s.figures}
    assert said["Matches played"] == "4" and said["Average place"] == "2.25"
    assert said["Win rate 胡牌率"] == "25%" and said["Self-drawn wins"] == "37.5%"
    assert said["Average win value"] == "17.75 花"
    assert said["Average deal-in cost"] == "-22.5"
    assert said["Drawn hands 荒庄"] == "6.2%"  # 1/16, to one decimal
    assert said["Median time to move"] == "25 min"
    assert said["喇 hands"] == "1" and said["八花 wins"] == "2" and said["荒番 hands won"] == "3"
    assert said["Placed higher"] == "2 : 1" and said["Net together"] == "+45"
    notes = [s.note for s in card.sections if s.note]
    assert notes == ["清一色 Full Flush, 碰碰胡 All Pungs · 80 花"]
    assert (card.badge, card.badge_label) == ("1,083?", "Rating")
    assert card_of(full(scope="all"), "Ann", None, "en-US").badge_label == "Rating here"
    assert pickle.loads(pickle.dumps(full())) == full()  # to the picture process and back
    zh = card_of(full("hangzhou"), "Ann", "Bob", "zh-CN")
    assert zh.badge == "1083（定级中）" and zh.subtitle == "杭州 · 本频道"
    values = {f.label: f.value for s in zh.sections for f in s.figures}
    assert values["平均胡牌价值"] == "×17.75" and values["暴头"] == "2"
    assert values["承包（收到）"] == "9"


def test_every_figure_of_each_rule_set_has_its_own_words() -> None:
    for rules in RULESETS:
        for locale in ("en-US", "zh-CN"):
            card = card_of(full(rules), "Ann", "Bob", locale)
            labels = [f.label for s in card.sections for f in s.figures]
            assert not set(RULESETS[rules].stat_keys) & set(labels)  # no key shown raw


def test_the_text_is_short_and_names_the_other_rule_sets() -> None:
    text = stats_text(full(), "Ann", "Bob", "en-US")
    lines = text.splitlines()
    assert lines[0] == "**Ann** · Shanghai · this channel"
    assert "Matches 4 · hands 32" in lines[1] and "Rating: 1,083?" in text
    assert "Against Bob: matches together 3" in text
    assert lines[-1].startswith("Ann also played Hangzhou here")
    zh = stats_text(full(), "Ann", "Bob", "zh-CN")
    assert "等级分：1083（定级中）" in zh and "与 Bob" in zh


def test_nothing_played_is_said_kindly() -> None:
    empty = full(matches=0, hands=0, other_rules=(), rating=None, versus=None)
    assert empty.empty
    card = card_of(empty, "Ann", None, "en-US")
    assert card.sections == () and card.empty is not None
    assert "no finished hand in this channel yet" in card.empty
    assert card.badge is None
    assert "还没有打完的牌局" in stats_text(empty, "Ann", None, "zh-CN")


def test_small_words() -> None:
    assert percent(None, "en-US") == "—" and percent(0.125, "en-US") == "12.5%"
    assert percent(1.0, "zh-CN") == "100%"
    assert [duration(s, "en-US") for s in (None, 12, 95, 4000, 6000, 40 * 3600)] == \
        ["—", "12 s", "1.6 min", "67 min", "1.7 h", "1.7 days"]
    assert duration(1800, "zh-CN") == "30 分钟"
    assert rating_text(None, "en-US") is None
    assert rating_text(Rated(1250, False), "en-US") == "1,250"
    assert is_private(full(scope="all")) and not is_private(full(scope="server"))
