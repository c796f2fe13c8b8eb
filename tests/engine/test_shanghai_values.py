"""Shanghai values at their edges: the 8 花 that make one 喇, 门清 with concealed kongs,
抢杠 and 门清 alone, and the 荒番 counter that never goes below 0."""

from __future__ import annotations

from fractions import Fraction

from engine import rules
from engine.match import HandOutcome, finish_hand, new_match, start_hand
from engine.rules import shanghai
from tests.engine.helpers import refused, sh

DRAGONS = [{"type": "pong", "tiles": "777z", "from": 2}]


def test_seven_hua_stay_seven_and_eight_count_as_one_la() -> None:
    # 混一色 on a discard: 1 stake + 2 (a dragon pong) + the flowers
    seven = sh("123456789p5z", "5z", win="discard", from_=2, flowers="1234f", melds=DRAGONS)
    eight = sh("123456789p5z", "5z", win="discard", from_=2, flowers="12345f", melds=DRAGONS)
    assert (seven["value"], eight["value"]) == (7, 20)


def test_robbing_a_kong_with_only_men_qing_is_a_plain_hand() -> None:
    assert refused(sh("123m456p789s23s55z", "1s", win="rob_kong", from_=0), "plain hand")


def test_a_concealed_kong_keeps_the_hand_concealed() -> None:
    r = sh("123456789m5z", "5z", melds=[{"type": "concealed_kong", "tiles": "1111z"}])
    assert "men_qing" in r["patterns"] and r["value"] == 20  # (1 + 3) × 2 = 8 花: one 喇


def test_the_huangfan_counter_never_goes_below_zero() -> None:
    match = new_match("shanghai", rules.SHANGHAI.options(), first_dealer=0)
    won = HandOutcome((0,), None, (Fraction(3), Fraction(-1), Fraction(-1), Fraction(-1)))
    match, _ = start_hand(match, (2, 3))
    match = finish_hand(match, won)
    assert match.huangfan == 0
    match, setup = start_hand(match, (1, 2))  # a 1 in the dice: +1, this hand 荒番
    assert setup.huangfan and match.huangfan == 1


def test_the_table_options_default_as_the_page_says() -> None:
    o = shanghai.Options()
    assert (o.base, o.la_cap, o.huangfan_multiplier, o.hands) == (1, None, 2, 8)
    assert (o.turn_timer, o.claim_timer, o.away_after) == (12 * 3600, 2 * 3600, 3)


# ---------------------------------------------------------------------------
# Which reading is listed between readings worth the same (shanghai.md, decision)


def test_under_la_cap_the_reading_with_more_la_before_the_cap_is_listed() -> None:
    # 111 222 333 444m 77m: all pungs (清碰, 2 喇) or three runs (清一色, 1 喇); capped
    # at 1 喇 both are worth 20 花, and the 清碰 reading is the one shown.
    r = sh("1112223334447m", "7m", options={"la_cap": 1})
    assert r["value"] == 20 and r["patterns"] == ["qing_peng"], r
    assert sh("1112223334447m", "7m")["patterns"] == ["qing_peng"]  # 40 花 uncapped
    # 天胡 with 混碰 (11 喇) or without (10 喇), capped at 5 喇: 混碰 + 天胡 is listed.
    r = sh("33344455588p77z", "8p", winner=0, first_go_round=True, options={"la_cap": 5})
    assert sorted(r["patterns"]) == ["hun_peng", "tian_hu"] and r["value"] == 100


def test_between_equal_values_and_la_the_reading_with_more_patterns_is_listed() -> None:
    # A kong's replacement completes 111 222 333p with a concealed kong of 2m: read as
    # pungs it is 碰碰胡 as well as 杠开 and 门清; both readings are 20 花 (3 花 × 2² ≥ 8).
    kong = [{"type": "concealed_kong", "tiles": "2222m"}]
    r = sh("111222333p5s", "5s", melds=kong, replacement="kong")
    assert r["value"] == 20
    assert sorted(r["patterns"]) == ["gang_kai", "men_qing", "peng_peng_hu"], r


def test_the_last_tie_break_is_the_pattern_tables_order() -> None:
    def reading(*patterns: str) -> shanghai._Valued:
        return shanghai._Valued(patterns, 20, (), True, 1)
    first, later = reading("qing_yi_se"), reading("hun_peng")
    assert shanghai.listed([later, first]) is first
    assert shanghai.listed([first, later]) is first
    assert shanghai.listed([reading("hun_peng"), shanghai._Valued(("hun_peng",), 20, (), True,
                                                                  2)]).la == 2
