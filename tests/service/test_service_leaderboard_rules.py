"""A channel's standings are kept per rule set: Shanghai pays in 花 × 底分, Hangzhou in
底分 × 庄闲分 × its multiplier, and the two never add up into one number."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from fractions import Fraction

import pytest

from bot.service import FakeClock, RecordingNotifier, TableService
from bot.service.fairness import Deal
from tests.service.helpers import ANN, CHANNEL, QUIET, W, World, by, refused, stacked

pytestmark = pytest.mark.usefixtures("dealer_zero")

# The dealer (Ann, seat 0) is dealt a complete hand: 天胡 at the first step.
HEAVENLY = {0: "123m456m789m123p55p", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}


def _heavenly(rules: str, dealer: int) -> Deal:
    """Every table's wall (whatever its rules) deals Ann a complete hand."""
    return stacked(HEAVENLY, rules)(rules, dealer)


async def _heavenly_win(world: World, rules: str) -> int:
    """A table of ``rules`` in the channel where Ann wins the first hand, then cancelled
    (the world made with ``deal=_heavenly``)."""
    table = await world.table(rules=rules)
    await world.service.act(by(ANN), table, W(0), step=1)
    await world.service.cancel(by(ANN), table)
    return table


async def test_each_rule_set_has_its_own_board(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=_heavenly)
    await _heavenly_win(world, "shanghai")
    await _heavenly_win(world, "hangzhou")
    shanghai_win, hangzhou_win = (n.totals[0] for n in world.notes.of("settlement"))
    assert shanghai_win > 100 and 0 < hangzhou_win < 100  # 花 and a multiplier
    svc = world.service
    shanghai = await svc.leaderboard(CHANNEL, "shanghai")
    assert shanghai.rules == "shanghai" and shanghai.others == ("hangzhou",)
    assert {r.player_key: r.points for r in shanghai.rows}[f"user:{ANN}"] == shanghai_win
    hangzhou = await svc.leaderboard(CHANNEL, "hangzhou")
    assert hangzhou.others == ("shanghai",)
    ann = next(r for r in hangzhou.rows if r.player_key == f"user:{ANN}")
    assert (ann.points, ann.hands_played) == (hangzhou_win, 1)
    assert ann.best_hand is not None and ann.best_hand.rules == "hangzhou"


async def test_the_default_board_is_the_channels_last_played_rule_set(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=_heavenly)
    empty = await world.service.leaderboard(CHANNEL)
    assert (empty.rules, empty.rows, empty.others) == ("shanghai", (), ())
    await _heavenly_win(world, "shanghai")
    # a new Hangzhou table with nothing settled yet does not hide the Shanghai board
    await world.table(rules="hangzhou", start=False)
    assert (await world.service.leaderboard(CHANNEL)).rules == "shanghai"
    await world.service.cancel(by(ANN), 2)
    await _heavenly_win(world, "hangzhou")
    board = await world.service.leaderboard(CHANNEL)
    assert board.rules == "hangzhou" and board.others == ("shanghai",)
    await _heavenly_win(world, "shanghai")
    assert (await world.service.leaderboard(CHANNEL)).rules == "shanghai"


async def test_an_unknown_rule_set_is_refused(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=_heavenly)
    await refused("bad_options", world.service.leaderboard(CHANNEL, "riichi"))


async def test_the_standings_posted_after_a_hand_are_its_rule_sets(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=_heavenly)
    await _heavenly_win(world, "shanghai")
    await _heavenly_win(world, "hangzhou")
    shanghai_told, hangzhou_told = world.notes.of("leaderboard")
    assert {r.rules for r in shanghai_told.rows} == {"shanghai"}
    assert {r.rules for r in hangzhou_told.rows} == {"hangzhou"}
    ann = next(r for r in hangzhou_told.rows if r.player_key == f"user:{ANN}")
    assert ann.points == world.notes.of("settlement")[-1].totals[0] != Fraction(0)


async def test_a_restarted_service_keeps_the_boards_apart(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=_heavenly)
    await _heavenly_win(world, "shanghai")
    await _heavenly_win(world, "hangzhou")
    again = TableService(world.store, RecordingNotifier(), clock=FakeClock())
    assert [len((await again.leaderboard(CHANNEL, r)).rows) for r in ("shanghai", "hangzhou")
            ] == [4, 4]
