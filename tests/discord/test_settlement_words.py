"""The settlement text and card show every multiplier between the hand's value and each
payment (荒番, 庄闲分, 承包, 吃三口包), in English and 简体中文, and the numbers shown
multiply out to the payments."""

from __future__ import annotations

import io
import re
from fractions import Fraction
from typing import Any

import pytest
from PIL import Image

from bot.discord.table.words import how_paid_lines, settlement_text
from engine.score import read_case
from engine.view import ResultView, SettlementView
from render.cards import render_settlement, settlement_card
from render.draw import draw_text

NAMES = ("Ann", "Bo", "Cy", "Di")
SH = {"name": "t", "rules": "shanghai", "dealer": 0, "winner": 1, "win": "self_draw",
      "hand": "1112345678999m", "win_tile": "5m"}
HZ = {"name": "t", "rules": "hangzhou", "dealer": 0, "winner": 1, "win": "self_draw",
      "hand": "123m456m789m123p5s", "win_tile": "5s"}
# The Hangzhou hand with three pongs claimed from seat 2: the winner's three 摊 on it.
HZ_PONGS_FROM_2 = {**HZ, "hand": "123m5s", "melds": [
    {"type": "pong", "tiles": t, "from": 2} for t in ("777p", "888p", "999p")]}


def _claims(a: int, b: int) -> list[list[int]]:
    rows = [[0] * 4 for _ in range(4)]
    rows[a][b] = 3
    return rows


# (case, the multiplier's name that must be shown, the English words for it)
CASES = {
    "shanghai_huangfan": ({**SH, "huangfan": True}, "荒番", "dead-hand round"),
    "shanghai_three_claims": ({**SH, "claims": _claims(2, 1)}, "吃三口包", "three-claim"),
    "shanghai_three_claims_discard": (
        {**SH, "win": "discard", "from": 3, "claims": _claims(2, 1)}, "吃三口包", "three-claim"),
    # three 摊 between two players: the dealer is one of them, at a streak of 3
    "hangzhou_liability": ({**HZ_PONGS_FROM_2, "dealer": 2, "streak": 3,
                            "claims": _claims(1, 2)}, "承包", "liability"),
    "hangzhou_reverse_liability": ({**HZ, "dealer": 2, "streak": 3, "claims": _claims(2, 1)},
                                   "倒承包", "reverse liability"),
    # two liable players share the 倒承包 (hangzhou.md, decision): half each
    "hangzhou_two_liable_shared": (
        {**HZ, "winner": 0, "streak": 3, "claims": [[0] * 4, [3, 0, 0, 0], [3, 0, 0, 0],
                                                    [0] * 4]}, "倒承包", "reverse liability"),
    "hangzhou_dealer": ({**HZ, "winner": 0, "streak": 2}, "庄闲分", "dealer"),
    "shanghai_plain": (SH, "花", "花"),
    "hangzhou_plain": ({**HZ, "dealer": 3, "winner": 1}, "庄闲分", "dealer"),
}


def result_of(case: dict[str, Any]) -> ResultView:
    ruleset, options, ctx = read_case(case)
    s = ruleset.score(ctx, options)
    assert s.valid, s.reason
    win = SettlementView(
        ctx.winner, case["win"], ctx.from_seat, tuple(sorted(ctx.concealed)), ctx.win_tile,
        (), ctx.flowers, (), s.value, "花" if case["rules"] == "shanghai" else "×",
        s.payments, s.liability, s.breakdown, s.charges, s.base)
    return ResultView((win,), s.payments)


def _number(text: str) -> Fraction:
    """A factor's number as shown: "2", "3.5", "1/2", "(2+1+1)", "2 × (8+1+1)"."""
    total = Fraction(1)
    for piece in text.split(" × "):
        piece = piece.strip().strip("()")
        total *= sum((Fraction(p) for p in piece.split("+")), Fraction(0))
    return total


_FACTOR = re.compile(r"(?:2 × )?\(?[\d./+]+\)?")
_PAYS = {"en": re.compile(r"^· (.+?) (?:pays|each pay) (.+) = ([\d./]+)$"),
         "zh": re.compile(r"^· (.+?) (?:付|各付) (.+) = ([\d./]+)$")}
_SEP = {"en": ", ", "zh": "、"}


def shown_payments(text: str, lang: str) -> dict[str, Fraction]:
    """Each payer's payment read off the text's formulas, multiplying the numbers shown."""
    paid: dict[str, Fraction] = {}
    for line in text.splitlines():
        m = _PAYS[lang].match(line)
        if not m:
            continue
        product = Fraction(1)
        for factor in m[2].split(" × "):
            if factor.startswith("("):  # the summed 庄闲分 of a 承包, "(2+1+1) (…)"
                number = factor.split(")")[0] + ")"
            else:
                found = _FACTOR.match(factor)
                assert found, (factor, line)
                number = found[0]
            product *= _number(number)
        assert product == _number(m[3]), line  # the factors shown give the amount shown
        for name in m[1].split(_SEP[lang]):
            paid[name] = paid.get(name, Fraction(0)) + product
    return paid


@pytest.mark.parametrize("locale,lang", [("en-US", "en"), ("zh-CN", "zh")])
@pytest.mark.parametrize("name", list(CASES))
def test_shown_factors_multiply_out_to_each_payment(name: str, locale: str, lang: str
                                                    ) -> None:
    case, word, gloss = CASES[name]
    result = result_of(case)
    text = settlement_text(result, NAMES, 1, locale)
    paid = shown_payments(text, lang)
    expected = {NAMES[s]: -a for s, a in enumerate(result.payments) if a < 0}
    assert paid == expected, text
    assert word in text
    if lang == "en":
        assert gloss in text
    else:  # no English words in the Chinese text
        assert not re.search(r"[A-Za-z]{3,}", text.replace("Ann", "").replace("Bo", "")
                             .replace("Cy", "").replace("Di", "")), text


def test_huangfan_shows_the_doubling_with_the_hand_value() -> None:
    result = result_of(CASES["shanghai_huangfan"][0])
    text = settlement_text(result, NAMES, 1, "en-US")
    assert "Ann, Cy, Di each pay 20 花 × 2 (荒番 dead-hand round) = 40" in text
    zh = settlement_text(result, NAMES, 1, "zh-CN")
    assert "Ann、Cy、Di 各付 20 花 × 2（荒番） = 40" in zh


def test_the_card_draws_the_callers_formulas() -> None:
    result = result_of(CASES["hangzhou_liability"][0])
    lines = how_paid_lines(result, NAMES, "zh-CN")
    assert lines[0][0] == "怎么算：" and "承包" in lines[0][1]
    bare = render_settlement(result, NAMES, "hangzhou")
    shown = render_settlement(result, NAMES, "hangzhou", how_paid=lines)
    assert shown.height > bare.height  # the formula lines take room on the card
    png = settlement_card(result, NAMES, "hangzhou", how_paid=lines)
    assert Image.open(io.BytesIO(png)).size == shown.size


def test_the_dealer_factor_names_the_streak_as_everywhere_else() -> None:
    """One name and form for the dealer's streak (老庄 N): the 庄闲分 says which streak
    it comes from, not a second name for it."""
    result = result_of(CASES["hangzhou_dealer"][0])
    en = settlement_text(result, NAMES, 1, "en-US")
    assert "× 4 (庄闲分: the dealer's share at 老庄 2)" in en, en
    zh = settlement_text(result, NAMES, 1, "zh-CN")
    assert "× 4（庄闲分：老庄 2）" in zh, zh


def test_a_win_without_a_pattern_reads_as_the_card_draws_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Hangzhou win without a pattern: the card draws 平胡 ×1, and the text says the
    same (not "Patterns: none"); the card's total is the text's "Value", not the
    rules' letters H and F."""
    import render.cards
    drawn: list[str] = []
    real = draw_text  # what render.cards imported

    def record(draw: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(text)
        return real(draw, xy, text, *args, **kwargs)

    monkeypatch.setattr(render.cards, "draw_text", record)
    result = result_of(CASES["hangzhou_plain"][0])
    assert not result.settlements[0].patterns
    en = settlement_text(result, NAMES, 1, "en-US")
    assert "Patterns: 平胡 Plain win (×1)" in en and "none" not in en, en
    assert "牌型：平胡（×1）" in settlement_text(result, NAMES, 1, "zh-CN")
    render_settlement(result, NAMES, "hangzhou")
    assert "平胡" in drawn and "×1" in drawn
    assert "牌值 Value" in drawn and not [x for x in drawn if "Total" in x], drawn


def test_the_base_flowers_a_value_starts_from_are_shown_by_their_parts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """"碰碰胡 0 番 … 3 花" left players asking where the 3 花 came from: the 底花 is
    shown on the card and in the text, each of its parts (stake, flowers, honour pungs,
    kongs) with its 花, and they add up to it."""
    import render.cards
    drawn: list[str] = []
    real = draw_text  # what render.cards imported

    def record(draw: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(text)
        return real(draw, xy, text, *args, **kwargs)

    monkeypatch.setattr(render.cards, "draw_text", record)
    case = {**SH, "hand": "111m222p5z", "win_tile": "5z", "flowers": "1f2f",
            "melds": [{"type": "pong", "tiles": "111z", "from": 2},
                      {"type": "kong", "tiles": "7777s", "from": 3}]}
    result = result_of(case)
    win = result.settlements[0]
    assert win.base == (("stake", 1), ("flowers", 2), ("pungs", 1), ("kongs", 1))
    en = settlement_text(result, NAMES, 1, "en-US")
    assert "底花 base: 1 stake + 2 flowers + 1 honour pungs + 1 kongs = 5 花" in en, en
    zh = settlement_text(result, NAMES, 1, "zh-CN")
    assert "底花：底 1 + 花牌 2 + 字牌刻子 1 + 杠 1 = 5 花" in zh, zh
    render_settlement(result, NAMES, "shanghai")
    assert "底花" in drawn and "5 花" in drawn
    assert "Base: stake 1 + flowers 2 + honour pungs 1 + kongs 1" in drawn, drawn
    # a value in 喇 does not start from 底花: none is shown
    la = result_of(SH)
    assert la.settlements[0].base == ()
    assert "底花" not in settlement_text(la, NAMES, 1, "en-US")
