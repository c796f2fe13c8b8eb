"""A cancelled table still tells its match's totals up to the cancel: `table_info`
after the cancel gives what the settled hands (and any penalties) paid, as the
cancellation's own message did — not zeros (the abandoned match keeps no totals row)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.service import FakeClock
from tests.service.helpers import ANN, BOB, CID, SCENE_TWO, D, P, W, World, by, stacked

pytestmark = pytest.mark.usefixtures("dealer_zero")


async def _won_then_cancelled(world: World) -> int:
    table = await world.table(options={"hands": 4})
    svc = world.service
    await svc.act(by(ANN), table, D(0, "5p"), step=1)
    await svc.act(by(CID), table, W(2), step=2)
    await svc.act(by(BOB), table, P(1), step=2)
    await svc.cancel(by(ANN), table)
    return table


async def test_a_cancelled_tables_info_keeps_the_totals_so_far(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_TWO))
    table = await _won_then_cancelled(world)
    (settled,) = world.notes.of("settlement")
    (ended,) = world.notes.of("match_ended")
    assert ended.cancelled and any(ended.totals)
    info = await world.service.table_info(table)
    assert info.status == "cancelled"
    assert info.totals == settled.totals == ended.totals
    assert info.hands_played == 1 and info.hands_in_match == 4


async def test_the_totals_so_far_survive_a_restart(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_TWO))
    table = await _won_then_cancelled(world)
    (ended,) = world.notes.of("match_ended")
    again = await make_world(FakeClock(world.clock.now() + 1))
    assert (await again.service.table_info(table)).totals == ended.totals
