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
            ((ANN,), 3, Plan()),
            ((ANN, BOB, CID, DEE), 0, Plan(aimless=frozenset({ANN, BOB, CID, DEE}))))):
        # Hangzhou: wins on a discard from the first hand on (its default waits for 老庄)
        options: dict[str, object] = {"hands": 1 if i == 3 else 4}
        if rules == "hangzhou":
            options["discard_win_streak"] = 1
        table = await play_match(world, rules, users, computers=computers, rng=rng,
                                 plan=plan, options=options, channel=700 + i)
        tables.append(table)
    every = await world.store.facts.all_hands()
    # what the recount covers: claims, deal-ins and self-draws, timeouts, an away seat
    # the computer played for, and people's own moves
    assert any(f.claims for f in every) and any(f.dealt_in for f in every)
    assert any(f.self_draw for f in every) and any(f.timeouts for f in every)
    assert any(f.taken_over for f in every) and any(f.moves for f in every)
    assert any(f.drawn for f in every) and any(f.marks for f in every)
    assert len(await world.store.facts.all_matches()) == 4 * len(tables)
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
