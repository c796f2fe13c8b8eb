"""The leaderboard keeps a player's best hand as data (rule set, pattern ids, value), so
each reader gets it named in their own language."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.store import BestHand
from tests.service.helpers import ANN, BOB, CHANNEL, CID, SCENE_TWO, D, P, W, World, by, stacked

pytestmark = pytest.mark.usefixtures("dealer_zero")


async def test_the_best_hand_is_kept_as_its_patterns_and_value(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_TWO))
    table = await world.table()
    svc = world.service
    await svc.act(by(ANN), table, D(0, "5p"), step=1)
    await svc.act(by(CID), table, W(2), step=2)
    await svc.act(by(BOB), table, P(1), step=2)
    (settled,) = world.notes.of("settlement")
    (win,) = settled.result.settlements
    rows = {r.player_key: r for r in (await svc.leaderboard(CHANNEL)).rows}
    best = rows[f"user:{CID}"].best_hand
    assert best == BestHand("shanghai", tuple(p.id for p in win.patterns), win.value)
    assert best.patterns and rows[f"user:{BOB}"].best_hand is None
