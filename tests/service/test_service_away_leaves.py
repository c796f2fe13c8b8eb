"""The `away_leaves` table option: with it on, a seat that reaches `away_after` timeouts
in a row leaves the match (逃跑): the computer takes the seat for good and the rule set's
penalty for leaving is charged (Hangzhou base × 8; Shanghai has none). Off (the
default), the seat is only marked away and pays nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.service import FakeClock, Refused
from bot.service.fairness import Deal, deal_of
from engine.game import stack_wall
from tests.engine.helpers import fractions
from tests.narrowing import known
from tests.service.helpers import ANN, CHANNEL, QUIET, World, by

pytestmark = pytest.mark.usefixtures("dealer_zero")
TIMERS = {"turn_timer": 60, "claim_timer": 20, "away_after": 2}
# Hands that can claim nothing, and draws that pair with nothing and hold no 财神, so
# the hand runs without a claim window (or a 抓打 window) until Ann's second timeout.
HANDS = {0: QUIET[0] + "7z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}


def quiet_deal(rules: str, _dealer: int) -> Deal:
    return deal_of(stack_wall(rules, HANDS, 0, draws="1p4s7p" + "7m"))


async def ann_times_out_twice(world: World, rules: str, **options: object) -> int:
    table = await world.table((ANN,), rules=rules, computers=3,
                              options={**TIMERS, **options})
    await world.until("away", step=5)
    return table


@pytest.mark.parametrize(("rules", "penalty"), [("hangzhou", 8), ("shanghai", 0)])
async def test_with_away_leaves_the_timeouts_remove_the_seat_and_charge_the_penalty(
        make_world: Callable[..., Awaitable[World]], rules: str, penalty: int) -> None:
    world = await make_world(deal=quiet_deal, computer_pause=5.0)
    table = await ann_times_out_twice(world, rules, away_leaves=True)
    (notice,) = world.notes.of("away")
    assert (notice.seat, notice.user_id, notice.away, notice.removed) == (0, ANN, True, True)
    assert notice.penalty == penalty
    info = await world.service.table_info(table)
    seat = info.seats[0]
    assert seat is not None and seat.is_computer and seat.user_id is None
    assert world.notes.of("lobby")[-1].what == "replaced"
    assert info.totals == fractions(-penalty, 0, 0, 0)   # not redistributed
    entry = await world.store.leaderboard.entry(CHANNEL, rules, f"user:{ANN}")
    assert (entry.points if entry else 0) == -penalty
    # Ann is gone: back is refused, and the match goes on with the computer in her seat.
    with pytest.raises(Refused, match="do not sit at this table"):
        await world.service.back(by(ANN), table)
    await world.until("settlement", step=5)
    assert world.notes.of("away") == [notice]


async def test_away_leaves_removal_and_penalty_survive_a_restart(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=quiet_deal, computer_pause=5.0)
    table = await ann_times_out_twice(world, "hangzhou", away_leaves=True)
    await world.store.close()
    world = await make_world(FakeClock(world.clock.now() + 1), deal=quiet_deal,
                             computer_pause=5.0)
    await world.service.recover()
    info = await world.service.table_info(table)
    assert info.totals == fractions(-8, 0, 0, 0)
    assert info.seats[0] is not None and info.seats[0].is_computer


async def test_by_default_an_away_seat_stays_and_pays_nothing(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=quiet_deal, computer_pause=5.0)
    table = await ann_times_out_twice(world, "hangzhou")
    (notice,) = world.notes.of("away")
    assert (notice.away, notice.removed, notice.penalty) == (True, False, 0)
    info = await world.service.table_info(table)
    seat = info.seats[0]
    assert seat is not None and seat.away and not seat.is_computer and seat.user_id == ANN
    assert info.totals == fractions(0, 0, 0, 0)
    assert await world.store.leaderboard.entry(CHANNEL, "hangzhou", f"user:{ANN}") is None
    assert "replaced" not in [n.what for n in world.notes.of("lobby")]
    await world.service.back(by(ANN), table)
    assert not known((await world.service.table_info(table)).seats[0]).away
