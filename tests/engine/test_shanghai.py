"""Shanghai patterns, 底花, the hand value H and every settlement rule."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.analysis import Reading, Shape
from engine.melds import Meld, MeldKind
from engine.rules import shanghai
from engine.rules.common import WinContext, WinKind, make_meld
from engine.tiles import parse_tiles
from tests.engine.helpers import refused, sh

SELF = {"dealer": 0, "winner": 1, "win": "self_draw"}


def pats(result: dict[str, Any]) -> Counter[str]:
    assert result["valid"], result
    return Counter(result["patterns"])


def test_earthly_hand_makes_a_plain_hand_win() -> None:
    r = sh("123m456p789s1112z", "2z", win="discard", from_=0, first_go_round=True)
    assert pats(r) == Counter(["di_hu"])
    assert r["value"] == 160 and r["payments"] == [-160, 160, 0, 0]


def test_heavenly_hand_is_the_dealers_alone() -> None:
    r = sh("123m456p789s1112z", "2z", winner=0, first_go_round=True)
    assert pats(r) == Counter(["tian_hu"])
    plain = sh("123m456p789s1112z", "2z", winner=0)
    assert refused(plain, "plain hand")


def test_honours_jumble_any_arrangement() -> None:
    r = sh("1234567123456z", "7z")
    assert pats(r) == Counter(["luan_feng"]) and r["value"] == 40


def test_honours_jumble_with_honour_melds_only() -> None:
    melds = [{"type": "pong", "tiles": "111z", "from": 0}]
    r = sh("2345672345z", "6z", melds=melds)
    assert pats(r) == Counter(["luan_feng"])
    chi = [{"type": "chi", "tiles": "123m", "from": 0}]
    assert refused(sh("2345672345z", "6z", melds=chi), "complete")


def test_all_honours_includes_jumble_all_pungs_and_half_flush() -> None:
    r = sh("1112223334445z", "5z")
    assert pats(r) == Counter(["zi_yi_se"]) and r["value"] == 80


def test_pure_all_pungs_prefers_pungs_over_runs() -> None:
    # 111 222 333 also reads as three runs; the pungs are worth more.
    r = sh("1112223334445m", "5m")
    assert pats(r) == Counter(["qing_peng"]) and r["value"] == 40


def test_half_flush_all_pungs_counts_once() -> None:
    r = sh("111222333z4445m", "5m")
    assert pats(r) == Counter(["hun_peng"])


def test_big_crane_needs_a_single_concealed_tile() -> None:
    melds = [{"type": "chi", "tiles": run, "from": 0} for run in ("123m", "456p", "789s", "234s")]
    r = sh("5s", "5s", melds=melds)
    assert pats(r) == Counter(["da_diao_che"]) and r["value"] == 20
    # Three chi from the same upper player make the two related (吃三口包).
    assert r["payments"] == [-100, 100, 0, 0]


def test_win_on_a_replacement_is_special_enough() -> None:
    melds = [{"type": "kong", "tiles": "2222m", "from": 0}]
    r = sh("456p789s123s1z", "1z", melds=melds, replacement="kong")
    assert pats(r) == Counter(["gang_kai"])
    assert r["value"] == 4  # (1 stake + 1 exposed suit kong) × 2^1
    assert r["payments"] == [-4, 12, -4, -4]
    assert refused(sh("456p789s123s1z", "1z", melds=melds), "plain hand")


def test_la_patterns_add_and_fan_patterns_do_not_count_with_them() -> None:
    r = sh("1112345678999m", "9m", winner=0, first_go_round=True)
    # 天胡 10 + 清一色 1; 门清 is a 番 and is not counted in a 喇 hand.
    assert pats(r) == Counter(["tian_hu", "qing_yi_se"]) and r["value"] == 220


def test_la_cap_option_caps_the_value() -> None:
    r = sh("1112345678999m", "9m", winner=0, first_go_round=True, options={"la_cap": 5})
    assert r["value"] == 100 and r["payments"] == [300, -100, -100, -100]


def test_base_and_huangfan_options_scale_a_share() -> None:
    r = sh("1112345678999m", "5m", huangfan=True, options={"base": 2, "huangfan_multiplier": 3})
    assert r["value"] == 20 and r["payments"] == [-120, 360, -120, -120]


def test_rob_kong_lists_qiang_gang_in_a_la_hand_and_pays_three_shares() -> None:
    r = sh("1112345678999m", "5m", win="rob_kong", from_=3)
    assert pats(r) == Counter(["qing_yi_se", "qiang_gang"])
    assert r["payments"] == [0, 60, 0, -60]


# Seat 1's 清一色 of 1112345678999m + 5m with three of its melds claimed from seat 0.
FROM_0 = [{"type": "pong", "tiles": "111m", "from": 0}, {"type": "chi", "tiles": "234m", "from": 0},
          {"type": "chi", "tiles": "678m", "from": 0}]
FROM_0_HAND = "5999m"


def test_rob_kong_ignores_three_claim_liability() -> None:
    claims = [[0] * 4, [3, 0, 0, 0], [0] * 4, [0] * 4]
    r = sh(FROM_0_HAND, "5m", win="rob_kong", from_=3, claims=claims, melds=FROM_0)
    assert r["payments"] == [0, 60, 0, -60]


def test_eight_flowers_needs_all_eight_and_a_self_draw() -> None:
    assert refused(sh("1358m2469p1357s2z", None, flowers="1234567f"), "eight flowers")
    assert refused(sh("1358m2469p1357s2z", None, flowers="12345678f", win="discard", from_=0),
                   "self-draw")


@pytest.mark.parametrize(("claims", "payments"), [
    # related to two players: 3.5 shares each
    ([[0] * 4, [3, 0, 0, 0], [0, 3, 0, 0], [0] * 4], [-70, 140, -70, 0]),
    # related to all three, in either direction: 3 shares each
    ([[0] * 4, [3, 0, 0, 0], [0, 3, 0, 0], [0, 3, 0, 0]], [-60, 180, -60, -60]),
])
def test_three_claim_liability_on_a_self_draw(claims: list[list[int]], payments: list[int]
                                             ) -> None:
    r = sh(FROM_0_HAND, "5m", claims=claims, melds=FROM_0)
    assert r["payments"] == payments


def test_three_claim_liability_on_a_discard_by_a_related_player() -> None:
    claims = [[0] * 4, [3, 0, 0, 0], [0] * 4, [0, 3, 0, 0]]
    r = sh(FROM_0_HAND, "5m", win="discard", from_=0, claims=claims, melds=FROM_0)
    # The related discarder pays 2 shares, the other related player 1.
    assert r["payments"] == [-40, 60, 0, -20]


def test_half_shares_are_printed_as_decimals() -> None:
    # Seats 0 and 2 each claimed three of the winner's discards (the winner's hand
    # stays concealed, so 门清 counts).
    claims = [[0, 3, 0, 0], [0] * 4, [0, 3, 0, 0], [0] * 4]
    r = sh("123456789m1122z", "2z", claims=claims)  # H = 2 × 2 (门清) = 4... × 3.5
    assert r["value"] == 4 and r["payments"] == [-14, 28, -14, 0]


def _meld(kind: str, tiles: str) -> Meld:
    return make_meld(MeldKind(kind), parse_tiles(tiles), None if kind == "concealed_kong" else 0)


@pytest.mark.parametrize(("kind", "tiles", "hua"), [
    ("pong", "111z", 1), ("pong", "777z", 2), ("pong", "999m", 0), ("chi", "123m", 0),
    ("kong", "1111m", 1), ("concealed_kong", "1111m", 2), ("added_kong", "2222z", 2),
    ("concealed_kong", "4444z", 3), ("kong", "5555z", 3), ("concealed_kong", "6666z", 4),
])
def test_base_flowers_of_each_meld(kind: str, tiles: str, hua: int) -> None:
    ctx = WinContext(winner=1, dealer=0, win=WinKind.SELF_DRAW, concealed=(), win_tile=None,
                     melds=(_meld(kind, tiles),), flowers=tuple(parse_tiles("12f")))
    # stake 1 + two flowers 2 + the meld
    assert shanghai.base_hua(ctx, Reading(Shape.STANDARD)) == 3 + hua


def test_concealed_honour_pungs_count_in_base_flowers() -> None:
    r = sh("123456789m2227z", "7z")  # 混一色 + 门清: (1 + 南 pung 1) × 2 = 4
    assert r["value"] == 4
    r = sh("123456789m6667z", "7z")  # (1 + 發 pung 2) × 2 = 6
    assert r["value"] == 6


def test_refuses_a_meld_of_flowers_and_five_copies() -> None:
    assert refused(sh("1111234567899m", "1m"), "5 copies")
    assert refused(sh("1112345678999m", "5m", flowers="1f1f"), "copies")
