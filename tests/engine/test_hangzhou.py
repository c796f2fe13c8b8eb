"""Hangzhou: the multiplier F, 庄闲分, the 放铳 conditions, 承包/倒承包 and the options."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.engine.helpers import hz, refused


def pats(result: dict[str, Any]) -> Counter[str]:
    assert result["valid"], result
    return Counter(result["patterns"])


PLAIN = "123m456p234789s1z"


def test_plain_self_draw_pays_by_dealer_streak() -> None:
    for streak, dealer_pays in ((1, 2), (2, 4), (3, 8)):
        r = hz(PLAIN, "1z", streak=streak)
        assert r["payments"] == [-dealer_pays, dealer_pays + 2, -1, -1]


def test_base_option_multiplies_everything() -> None:
    r = hz(PLAIN, "1z", options={"base": 5})
    assert r["payments"] == [-10, 20, -5, -5]


def test_triple_luxury_burst_head_seven_pairs() -> None:
    # 11 11 22 22 33 33 pairs, a 财神 and any tile: 七客 with three fours.
    r = hz("11112222m3333p5z", "4s")
    assert pats(r) == Counter(["qi_dui", "hao_hua", "hao_hua", "hao_hua", "bao_tou"])
    assert r["value"] == 32


def test_wildcard_makes_a_four_when_that_is_worth_more() -> None:
    # 666s + 财神 reads as a four (豪华), not as 66s + a pair of something else.
    r = hz("1122m3344p666s77z", "5z")
    assert pats(r) == Counter(["qi_dui", "hao_hua"])
    r = hz("1122m3344p666s5z7z", "7z")
    assert pats(r) == Counter(["qi_dui", "hao_hua"])


def test_kong_bloom_outside_burst_head_counts_kongs_of_the_winning_turn() -> None:
    melds = [{"type": "concealed_kong", "tiles": "2222s"}]
    r = hz("123m456p789s1z", "1z", melds=melds, replacement="kong", chain="K")
    assert pats(r) == Counter(["gang_kai"]) and r["value"] == 2
    melds2 = [*melds, {"type": "concealed_kong", "tiles": "9999p"}]
    r = hz("456p789s1z", "1z", melds=melds2, replacement="kong", chain="KK")
    assert pats(r) == Counter(["gang_kai", "gang_kai"]) and r["value"] == 4
    # A kong from an earlier turn (before a 财神 discard) is not in the winning turn.
    r = hz("456p789s1z", "1z", melds=melds2, replacement="kong", chain="KPK")
    assert pats(r) == Counter(["gang_kai"])


def test_after_a_wildcard_discard_a_plain_self_draw_is_plain() -> None:
    r = hz(PLAIN, "1z", chain="P")
    assert pats(r) == Counter()


def test_discard_win_conditions() -> None:
    assert refused(hz(PLAIN, "1z", win="discard", from_=0), "streak")
    ok = hz(PLAIN, "1z", win="discard", from_=0, streak=2, options={"discard_win_streak": 2})
    assert ok["valid"] and ok["payments"] == [-4, 4, 0, 0]
    assert refused(hz(PLAIN, "1z", win="discard", from_=2, streak=3), "dealer")
    assert hz(PLAIN, "1z", winner=0, win="discard", from_=2, streak=3)["payments"] == \
        [8, 0, -8, 0]


def test_discard_win_refuses_burst_head_seven_pairs_and_a_wildcard() -> None:
    assert refused(hz("123456m789p111s5z", "7s", win="discard", from_=0, streak=3), "暴头")
    assert refused(hz("1122m3344p6666s7z", "7z", win="discard", from_=0, streak=3),
                   "seven-pairs")
    assert refused(hz("123m456p789s1122z", "5z", win="discard", from_=0, streak=3), "财神")


# Seat 1 shows three pongs of seat 2's discards (three 摊) and waits on 1z.
PONGS_FROM_2 = [{"type": "pong", "tiles": t, "from": 2} for t in ("777m", "888p", "222s")]
PONGS_HAND = "123m1z"


def test_contracting_liability_on_a_discard_win() -> None:
    claims = [[0] * 4, [0, 0, 3, 0], [0] * 4, [0] * 4]
    r = hz(PONGS_HAND, "1z", win="discard", from_=0, dealer=1, streak=3, claims=claims,
           melds=PONGS_FROM_2)
    # The dealer, seat 1, has three 摊 on seat 2 (at a streak of 3, the most there may
    # be): seat 2 pays what the discarder would have.
    assert r["payments"] == [0, 8, -8, 0]


def test_both_liabilities_at_once() -> None:
    # Three 摊 each way only with the dealer (seat 1) in both, at a streak of 3.
    claims = [[0] * 4, [0, 0, 3, 0], [0] * 4, [0, 3, 0, 0]]
    r = hz(PONGS_HAND, "1z", dealer=1, streak=3, claims=claims, melds=PONGS_FROM_2)
    total = 8 + 8 + 8
    assert r["payments"] == [0, 3 * total, -total, -2 * total]


def test_two_liable_players_share_the_reverse_liability() -> None:
    # Decision (two liable players): seats 1 and 2 each have three 摊 on the dealer, at
    # a streak of 3. The others would pay 8 + 8 + 8 = 24; the dealer receives twice
    # that, as from one liable player, and each of the two pays half of it.
    claims = [[0] * 4, [3, 0, 0, 0], [3, 0, 0, 0], [0] * 4]
    r = hz(PLAIN, "1z", winner=0, streak=3, claims=claims)
    assert r["valid"] and r["payments"] == [48, -24, -24, 0]
    assert "seat 1 pays 24" in r["breakdown"][-1] and "seat 2 pays 24" in r["breakdown"][-1]
    # On a discard of seat 1's the total is the discarder's 8: 16, shared.
    r = hz(PLAIN, "1z", winner=0, streak=3, claims=claims, win="discard", from_=1)
    assert r["payments"] == [16, -8, -8, 0]
    # With 承包 at once (the dealer's three pongs of seat 3's discards), seat 3 pays the
    # total as well.
    pongs_from_3 = [{**m, "from": 3} for m in PONGS_FROM_2]
    both = [[0, 0, 0, 3], [3, 0, 0, 0], [3, 0, 0, 0], [0] * 4]
    r = hz(PONGS_HAND, "1z", winner=0, streak=3, claims=both, melds=pongs_from_3)
    assert r["payments"] == [72, -24, -24, -24]
    # Without liability nobody pays for another.
    r = hz(PLAIN, "1z", winner=0, streak=3, claims=claims, options={"liability": False})
    assert r["payments"] == [24, -8, -8, -8]


def test_liability_option_off_means_normal_payments() -> None:
    claims = [[0] * 4, [0, 0, 3, 0], [0] * 4, [0] * 4]
    r = hz(PONGS_HAND, "1z", dealer=1, streak=3, claims=claims, melds=PONGS_FROM_2,
           options={"liability": False})
    assert r["payments"] == [-8, 24, -8, -8]


def test_flip_mode_wildcards_and_white_stand_in() -> None:
    opts = {"caishen": "flip", "flipped": "3m"}
    r = hz("12m456p789s111z22z", "3m", options=opts)  # 3m is a 财神 here; fine anyway
    assert r["valid"]
    opts = {"caishen": "flip", "flipped": "9s"}
    r = hz("123456m789p111s9s", "7s", options=opts)  # 9s is 财神: 暴头
    assert pats(r) == Counter(["bao_tou"])
    r = hz("123456m789p111s5z", "7s", options=opts)  # 5z plays as 9s: not complete
    assert refused(r, "complete")
    turned_white = {"caishen": "flip", "flipped": "5z"}
    assert pats(hz("123456m789p111s5z", "7s", options=turned_white)) == Counter(["bao_tou"])


def test_flip_mode_has_only_three_copies_of_the_turned_tile() -> None:
    r = hz("33m3m456p789s111z2z", "3m", options={"caishen": "flip", "flipped": "3m"})
    assert refused(r, "copies")


def test_flip_needs_the_turned_tile_and_fixed_refuses_one() -> None:
    assert refused(hz(PLAIN, "1z", options={"caishen": "flip"}), "flipped")
    assert refused(hz(PLAIN, "1z", options={"flipped": "3m"}), "flip")


def test_wildcard_in_a_meld_needs_caishen_melds() -> None:
    melds = [{"type": "pong", "tiles": "775z", "from": 0}]
    assert hz("123m456p789s1z", "1z", melds=melds)["valid"]
    assert refused(hz("123m456p789s1z", "1z", melds=melds, options={"caishen_melds": False}),
                   "caishen_melds")


def test_no_robbing_a_kong_and_no_flowers_in_hangzhou() -> None:
    assert refused(hz(PLAIN, "1z", win="rob_kong", from_=0), "抢杠")
    assert refused(hz(PLAIN, "1z", flowers="1f"), "flowers")


@pytest.mark.parametrize(("options", "words"), [
    ({"base": 4}, ["base", "1, 2, 3, 5"]),
    ({"caishen": "white"}, ["caishen"]),
    ({"liability": "yes"}, ["liability", "true or false"]),
    ({"discard_win_streak": 4}, ["discard_win_streak", "between"]),
    ({"huangfan_multiplier": 2}, ["unknown option", "huangfan_multiplier"]),
])
def test_bad_options_are_refused_clearly(options: dict[str, Any], words: list[str]) -> None:
    assert refused(hz(PLAIN, "1z", options=options), *words)
