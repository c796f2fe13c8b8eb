"""The projection (`bot.service.facts`): every column of ``hand_facts`` and
``match_facts`` written at each settlement equals a recount made another way (the
engine replaying each stored hand, the actions read one by one), over matches the
service plays itself in both rule sets; and a rebuild from the logs equals it."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import pytest

from tests.service.facts_play import Plan, differences, play_match, recount
from tests.service.helpers import ANN, BOB, CID, DEE, World


async def _seated(world: World, table: int) -> dict[int, int | None]:
    info = await world.service.table_info(table)
    return {seat: (s.user_id if s is not None else None) for seat, s in enumerate(info.seats)}


@pytest.mark.parametrize("rules", ["shanghai", "hangzhou"])
async def test_every_fact_equals_a_recount_from_the_engine(
        make_world: Callable[..., Awaitable[World]], rules: str) -> None:
    world = await make_world()
    rng = random.Random(5)
    tables = []
    for i, (users, computers, plan) in enumerate((
            ((ANN, BOB, CID, DEE), 0, Plan()),
            ((ANN, BOB), 2, Plan(lazy=frozenset({BOB}))),
            ((ANN,), 3, Plan()))):
        table = await play_match(world, rules, users, computers=computers, rng=rng,
                                 plan=plan, options={"hands": 3}, channel=700 + i)
        tables.append(table)
    for table in tables:
        seated = await _seated(world, table)
        hands, matches = await recount(world.store, table, seated)
        stored = [f for m in await world.store.matches.of_table(table)
                  for f in await world.store.facts.hands_of_match(m.id)]
        wrong = differences(stored, hands)
        assert not wrong, "\n".join(wrong)
        wrong = differences([f for m in await world.store.matches.of_table(table)
                             for f in await world.store.facts.of_match(m.id)], matches)
        assert not wrong, "\n".join(wrong)
