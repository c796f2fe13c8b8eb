"""Hangzhou's "财神 wins" (mark ``caishen_win``): a win whose winning hand held a 财神,
kept with the settlement (``settlements.caishen``, 0030) and read into the facts — not
"a win that scored 暴头 or 财飘", which always equalled the 暴头 figure beside it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from engine import rules as rulesets
from engine.rules.ruleset import StatHand
from tests.service.helpers import ANN, BOB, CID, DEE, QUIET, D, W, World, by, stacked

pytestmark = pytest.mark.usefixtures("dealer_zero")

# The dealer (seat 0) discards a tile seat 1 wins on. With a 财神 (5z in `fixed`): 2p and
# the 财神 make the chow with 3p — a plain win on a discard, never 暴头.
WITH = {0: QUIET[0] + "3p", 1: "123456789m11p2p5z", 2: QUIET[2], 3: QUIET[3]}
WITHOUT = {0: QUIET[0] + "4p", 1: "123456789m11p23p", 2: QUIET[2], 3: QUIET[3]}
OPTIONS = {"hands": 1, "discard_win_streak": 1}


async def _won(world: World, discard: str) -> tuple[dict[str, int], int | None]:
    """Seat 1 wins on the dealer's ``discard``: its facts' marks and the 财神 kept."""
    table = await world.table((ANN, BOB, CID, DEE), rules="hangzhou", options=OPTIONS)
    await world.service.act(by(ANN), table, D(0, discard))
    await world.service.act(by(BOB), table, W(1))
    await world.settle()
    facts = await world.store.facts.all_hands()
    [bob] = [f for f in facts if f.seat == 1]
    assert bob.won and not bob.self_draw and bob.won_from == 0
    settled = {s.seat: s for s in await world.store.endings.settlements(bob.hand_id)}
    assert all(settled[s].caishen is None for s in (0, 2, 3))  # only the winner's row
    return dict(bob.marks), settled[1].caishen


async def test_a_win_holding_a_caishen_is_a_caishen_win_and_not_bao_tou(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(WITH, "hangzhou"))
    marks, held = await _won(world, "3p")
    assert held == 1
    assert marks.get("caishen_win") == 1
    assert "bao_tou" not in marks and "cai_piao" not in marks


async def test_a_win_without_a_caishen_counts_as_neither(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(WITHOUT, "hangzhou"))
    marks, held = await _won(world, "4p")
    assert held == 0
    assert "caishen_win" not in marks and "bao_tou" not in marks


@pytest.mark.parametrize(("held", "patterns", "counted"), [
    (None, ("bao_tou",), True),  # settled before 0030: 暴头 stands in for it
    (None, ("bao_tou", "cai_piao"), True),
    (None, (), False),
    (2, (), True),  # kept: the count decides
    (0, (), False),
])
def test_the_mark_reads_the_kept_count_and_falls_back_without_it(
        held: int | None, patterns: tuple[str, ...], counted: bool) -> None:
    ruleset = rulesets.get("hangzhou")
    hand = StatHand((0, 4, 0, 0), ((), patterns, (), ()), None, ((0,) * 4,) * 4, 0,
                    ruleset.options_type(), (None, held, None, None))
    marks = ruleset.stat_marks(hand)
    assert (marks[1].get("caishen_win") == 1) is counted
    assert ("caishen_win" in marks[1]) is counted
