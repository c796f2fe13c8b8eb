"""Seasons' and the recap's words (bot/discord/seasons.py): a season as typed, the
choices offered, the channel's post of a closed season and the weekly recap, in English
and 简体中文."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.discord.seasons import closed_text, parse_season, recap_text, season_choices
from bot.service import LeaderboardRow, Rating, RecapNotice, Refused, Standings
from bot.service.notices import RecapGain, RecapHand, TableRef
from bot.service.results import SeasonClosed

REF = TableRef(5, 1, 2, 3)


def test_a_season_as_typed() -> None:
    assert parse_season(None) is None and parse_season("  ") is None
    assert parse_season("3") == 3 and parse_season(" ALL ") == "all"
    assert parse_season("全部") == "all" and parse_season("历届总榜") == "all"
    for bad in ("0", "-1", "spring", "1.5", "9999999"):
        with pytest.raises(Refused) as info:
            parse_season(bad)
        assert info.value.code == "bad_season" and info.value.params["value"] == bad


def test_the_seasons_offered() -> None:
    names = [(c.name, c.value) for c in season_choices(3, "", "en-US")]
    assert names == [("this season (3)", "3"), ("all time", "all"), ("season 2", "2"),
                     ("season 1", "1")]
    assert [c.value for c in season_choices(3, "2", "zh-CN")] == ["2"]
    assert season_choices(1, "", "zh-CN")[0].name == "本赛季（第 1 赛季）"
    assert len(season_choices(60, "", "en-US")) == 25


def test_the_recap_in_both_languages() -> None:
    notice = RecapNotice(REF, "2026-W48", 7,
                         (RecapHand("shanghai", 1, "Ann", 40, ("qing_yi_se",)),
                          RecapHand("hangzhou", 2, "Bob", 4, ())),
                         RecapGain("shanghai", 1, "Ann", 35, 1083, True), ("Cy", 6))
    assert recap_text(notice, "en-US").splitlines() == [
        "**This channel's week 2026-W48:** 7 hands played.",
        "Biggest hand (Shanghai): Ann, 清一色 Full Flush · 40 花",
        "Biggest hand (Hangzhou): Bob, 平胡 Plain win · ×4",
        "Most improved rating (Shanghai): Ann, +35 to 1083 (provisional)",
        "Most hands played: Cy, 6"]
    assert recap_text(notice, "zh-CN").splitlines() == [
        "**本频道第 2026-W48 周：**共打 7 局。",
        "最大的一手（上海）：Ann，清一色 · 40 花",
        "最大的一手（杭州）：Bob，平胡 · ×4",
        "等级分进步最多（上海）：Ann，+35，现为 1083（定级中）",
        "打牌最多：Cy，6 局"]
    quiet = RecapNotice(REF, "2026-W49", 1, (), None, ("Ann", 1))
    assert recap_text(quiet, "en-US").splitlines() == [
        "**This channel's week 2026-W49:** 1 hand played.", "Most hands played: Ann, 1"]
    assert RecapNotice.of_facts(REF, notice.facts()) == notice  # as its row keeps it


def test_the_channel_is_told_of_a_closed_season_with_its_top() -> None:
    ann = LeaderboardRow(1, 2, "user:1", "Ann", Fraction(42), 3, 8, 1, None, None, "shanghai")
    board = Standings("shanghai", (ann,), (), 1, 2, {1: Rating(30.0, 5.0, 12, 1083, False)})
    zh = closed_text(SeasonClosed(1, 2, 4, board), "zh-CN").splitlines()
    assert zh[0].startswith("**本服务器第 1 赛季结束，第 2 赛季开始。**")
    assert zh[1:] == ["本频道第 1 赛季前列：", "**本频道上海排行榜 · 积分：花 × 底分 · 第 1 赛季**",
                      "1. Ann：+42 · 等级分 1083（8 局胡 3 局）"]
    empty = closed_text(SeasonClosed(1, 2, 0, Standings("shanghai", (), (), 1, 2)), "en-US")
    assert empty.splitlines()[1] == "Nobody ranked in this channel in season 1."
