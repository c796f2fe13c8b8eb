"""The clock in shared mode (issue 30), on SQLite and PostgreSQL: the quarter-left
warning is claimed from the database like any moment and goes once, whichever process
takes it; the time bank a move on one process leaves is the one the other plans with."""

from __future__ import annotations

import pytest

from tests.service.helpers import ANN, CID, SCENE_PONG, D, MakeWorld, World, by, stacked
from tests.service.test_service_shared import make_world, two

__all__ = ["make_world"]  # the two-process fixture, on both databases
pytestmark = pytest.mark.usefixtures("dealer_zero")
HOUR = 3600.0
SLOW = {"turn_timer": 3600, "claim_timer": 1200, "time_bank": 600, "time_bank_add": 30}


def warnings(*worlds: World) -> list[int | None]:
    return [n.user_id for w in worlds for n in w.notes.of("warning")]


async def test_the_warning_goes_once_whichever_process_claims_it(make_world: MakeWorld
                                                                  ) -> None:
    a, b = await two(make_world)
    a.service.moves.shuffle = b.service.moves.shuffle = stacked(SCENE_PONG)
    table = await a.table(options=SLOW)
    a.clock.advance(3 * HOUR / 4)
    for _ in range(3):
        await b.settle()
        await a.settle()
    assert warnings(a, b) == [ANN]
    (row,) = await a.store.deadlines.all()
    assert row.warned_at is not None and row.claimed_by is None
    a.clock.advance(HOUR / 4 - 1)
    await a.settle()
    await b.settle()
    assert warnings(a, b) == [ANN]
    # past the timer the bank runs; Ann answers on b, 50 s into it
    a.clock.advance(51)
    await b.service.act(by(ANN), table, D(0, "9m"))
    load = (await a.store.rebuilds.load([table]))[table]
    assert load.banks == {0: 580.0}
    assert await a.store.log.answer_times([ANN]) == {ANN: [HOUR + 50]}
    # a serves Cid's claim with the banks b stored (Cid's own bank is whole)
    info = await a.service.hand(by(CID), table)
    assert info.deadline == row.set_at + HOUR + 50 + 1200 + 600
