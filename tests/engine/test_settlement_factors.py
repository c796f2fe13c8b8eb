"""Every factor between a hand's value and each payment is carried as data (`Charge`):
荒番, 底分, 庄闲分, 承包 / 倒承包 and 吃三口包 / 抢杠 shares, multiplying out to the
payments, while the calculator's JSON stays as the shared cases define it."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from engine.rules.common import FactorKind, Settlement
from engine.score import read_case, score_case
from tests.conftest import SHARED_CASES
from tests.engine.helpers import fractions

SH_FLUSH = {"name": "t", "rules": "shanghai", "dealer": 0, "winner": 1, "win": "self_draw",
            "hand": "1112345678999m", "win_tile": "5m"}
HZ_PLAIN = {"name": "t", "rules": "hangzhou", "dealer": 0, "winner": 1, "win": "self_draw",
            "hand": "123m456m789m123p5s", "win_tile": "5s"}
# The same hand with three pongs claimed from seat 2 (the winner's three 摊 on it).
HZ_PONGS_FROM_2 = {**HZ_PLAIN, "hand": "123m5s", "melds": [
    {"type": "pong", "tiles": t, "from": 2} for t in ("777p", "888p", "999p")]}


def claims(a: int, b: int, n: int = 3) -> list[list[int]]:
    rows = [[0] * 4 for _ in range(4)]
    rows[a][b] = n
    return rows


def settle(case: dict[str, Any]) -> Settlement:
    ruleset, options, ctx = read_case(case)
    result = ruleset.score(ctx, options)
    assert result.valid, result.reason
    return result


def assert_adds_up(result: Settlement, winner: int) -> None:
    """Each payer pays exactly its charges' products; the winner receives their sum."""
    for seat in range(4):
        owed = sum((c.amount for c in result.charges if c.payer == seat), Fraction(0))
        if seat != winner:
            assert result.payments[seat] == -owed, (seat, result.charges)
    assert result.payments[winner] == sum(c.amount for c in result.charges)


def kinds(result: Settlement, payer: int) -> dict[FactorKind, Fraction]:
    (charge,) = [c for c in result.charges if c.payer == payer]
    return {f.kind: f.value for f in charge.factors}


def test_shanghai_huangfan_doubles_every_payment_as_a_factor() -> None:
    result = settle({**SH_FLUSH, "huangfan": True})
    assert_adds_up(result, 1)
    assert result.payments[0] == -40
    assert kinds(result, 0) == {FactorKind.HAND: 20, FactorKind.BASE: 1,
                                FactorKind.HUANGFAN: 2, FactorKind.SHARES: 1}
    tripled = settle({**SH_FLUSH, "huangfan": True, "options": {"huangfan_multiplier": 3,
                                                                "base": 2}})
    assert_adds_up(tripled, 1)
    assert kinds(tripled, 2)[FactorKind.HUANGFAN] == 3 and kinds(tripled, 2)[FactorKind.BASE] == 2


def test_shanghai_three_claims_shares_are_factors() -> None:
    alone = settle({**SH_FLUSH, "claims": claims(2, 1)})
    assert_adds_up(alone, 1)
    assert kinds(alone, 2)[FactorKind.THREE_CLAIMS] == 5
    assert [c.payer for c in alone.charges] == [2]
    on_discard = settle({**SH_FLUSH, "win": "discard", "from": 3, "claims": claims(2, 1)})
    assert_adds_up(on_discard, 1)
    assert kinds(on_discard, 2)[FactorKind.THREE_CLAIMS] == 1
    assert kinds(on_discard, 3)[FactorKind.SHARES] == 1


def test_hangzhou_dealer_and_plain_hand_factors() -> None:
    plain = settle(HZ_PLAIN)
    assert_adds_up(plain, 1)
    assert kinds(plain, 0) == {FactorKind.HAND: 1, FactorKind.BASE: 1, FactorKind.DEALER: 2}
    assert kinds(plain, 2) == {FactorKind.HAND: 1, FactorKind.BASE: 1, FactorKind.DEALER: 1}
    streak = settle({**HZ_PLAIN, "winner": 0, "streak": 3, "options": {"base": 5}})
    assert_adds_up(streak, 0)
    assert kinds(streak, 3) == {FactorKind.HAND: 1, FactorKind.BASE: 5, FactorKind.DEALER: 8}


def test_hangzhou_liability_shows_whose_payments_are_taken_over() -> None:
    # three 摊 between two players: one of them the dealer (seat 2), at a streak of 3
    liable = settle({**HZ_PONGS_FROM_2, "dealer": 2, "streak": 3, "claims": claims(1, 2)})
    assert_adds_up(liable, 1)
    (charge,) = liable.charges
    factor = charge.factors[-1]
    assert charge.payer == 2 and factor.kind is FactorKind.LIABILITY
    assert factor.parts == fractions(1, 8, 1) and factor.value == 10
    reverse = settle({**HZ_PLAIN, "dealer": 2, "streak": 3, "claims": claims(2, 1)})
    assert_adds_up(reverse, 1)
    assert kinds(reverse, 2) == {FactorKind.HAND: 1, FactorKind.BASE: 1,
                                 FactorKind.REVERSE_LIABILITY: 20}
    # Decision (two liable players): seats 1 and 2 each have three 摊 on the dealer,
    # at a streak of 3; they share the 倒承包 (twice the 8 + 8 + 8 the three would pay).
    shared = settle({**HZ_PLAIN, "winner": 0, "streak": 3,
                     "claims": [[0] * 4, [3, 0, 0, 0], [3, 0, 0, 0], [0] * 4]})
    assert_adds_up(shared, 0)
    for seat in (1, 2):
        assert kinds(shared, seat) == {FactorKind.HAND: 1, FactorKind.BASE: 1,
                                       FactorKind.REVERSE_LIABILITY: 48,
                                       FactorKind.SHARED: Fraction(1, 2)}
    assert shared.payments == fractions(48, -24, -24, 0)


def _shared_cases() -> list[Any]:
    files = sorted(SHARED_CASES.glob("*.json")) if SHARED_CASES.is_dir() else []
    cases = [c for f in files for c in json.loads(f.read_text(encoding="utf-8"))
             if c["expect"]["valid"]]
    if not cases:
        return [pytest.param(None, marks=pytest.mark.skip(reason="no shared cases"))]
    return [pytest.param(c, id=c["name"]) for c in cases]


@pytest.mark.parametrize("case", _shared_cases())
def test_every_shared_case_adds_up_and_keeps_its_json(case: dict[str, Any]) -> None:
    result = settle(case)
    assert_adds_up(result, case["winner"])
    assert "charges" not in score_case(case)  # the calculator's contract is unchanged
