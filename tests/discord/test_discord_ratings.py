"""A rating and a rebuild's report in players' words, in English and 简体中文."""

from __future__ import annotations

from bot.discord.ratings import MOST_LINES, rating_text, rebuilt_text
from bot.service import Moved, Rating, Rebuilt


def test_a_rating_is_its_number_marked_while_provisional() -> None:
    settled = Rating(30.0, 2.0, 12, 1083, False)
    fresh = Rating(26.0, 7.0, 3, 1083, True)
    assert rating_text(settled, "en-US") == "1,083" and rating_text(fresh, "en-US") == "1,083?"
    assert rating_text(settled, "zh-CN") == "1083"
    assert rating_text(fresh, "zh-CN") == "1083（定级中）"


def test_a_rebuild_says_what_it_replayed_and_what_moved_biggest_first() -> None:
    moved = (Moved(1, "shanghai", 11, 1000, 1010), Moved(1, "hangzhou", 12, None, 990),
             Moved(1, "shanghai", 13, 1200, 900))
    text = rebuilt_text(Rebuilt(5, 4, 3, moved), "en-US")
    lines = text.splitlines()
    assert lines[0].startswith("**Ratings rebuilt** for this server: 5 finished match(es)")
    assert "4 of them rated" in lines[0] and "3 player(s) rated" in lines[0]
    assert lines[1:] == ["Moved (3):", "<@13> · Shanghai: 1200 → 900",
                         "<@11> · Shanghai: 1000 → 1010", "<@12> · Hangzhou: none → 990"]
    zh = rebuilt_text(Rebuilt(5, 4, 3, moved), "zh-CN").splitlines()
    assert zh[0].startswith("**本服务器的等级分已重建**") and zh[1] == "变动（3）："
    assert zh[4] == "<@12> · 杭州：无 → 990"
    same = rebuilt_text(Rebuilt(2, 2, 4), "en-US").splitlines()
    assert same[1] == "No rating moved: they were already what the matches give."


def test_a_long_report_is_cut_and_counted() -> None:
    moved = tuple(Moved(1, "shanghai", 100 + n, 1000, 1000 + n) for n in range(60))
    text = rebuilt_text(Rebuilt(60, 60, 60, moved), "en-US")
    lines = text.splitlines()
    assert len(lines) == 2 + MOST_LINES + 1 and lines[-1] == f"… and {60 - MOST_LINES} more."
    short = rebuilt_text(Rebuilt(60, 60, 60, moved), "zh-CN", limit=300)
    assert len(short) <= 300 and short.splitlines()[-1].startswith("……还有")
