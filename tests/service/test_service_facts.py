"""The projection (`bot.service.facts`): every column of ``hand_facts`` and
``match_facts`` written at each settlement equals a recount made another way (the
engine replaying each stored hand, the actions read one by one), over matches the
service plays itself in both rule sets; and a rebuild from the logs equals it."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import pytest

from bot.store.rows import HandFact
from tests.service.facts_play import Plan, differences, play_match, recount
from tests.service.helpers import ANN, BOB, CID, DEE, World


async def _seated(world: World, table: int) -> dict[int, int | None]:
    info = await world.service.table_info(table)
    return {seat: (s.user_id if s is not None else None) for seat, s in enumerate(info.seats)}


def _uncovered(every: list[HandFact], rules: str) -> list[str]:
    """What the recount is meant to cover that no hand of ``every`` has."""
    wanted: dict[str, Callable[[HandFact], object]] = {
        "claims": lambda f: f.claims, "a deal-in": lambda f: f.dealt_in,
        "a self-draw": lambda f: f.self_draw, "a timeout": lambda f: f.timeouts,
        "a seat taken over": lambda f: f.taken_over, "moves": lambda f: f.moves,
        "a drawn hand": lambda f: f.drawn, "marks": lambda f: f.marks}
    if rules == "hangzhou":  # a 财神 win is its own figure, not 暴头's (recounted below)
        wanted["a 财神 win without 暴头"] = \
            lambda f: "caishen_win" in f.marks and "bao_tou" not in f.marks
    return [name for name, has in wanted.items() if not any(has(f) for f in every)]


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
    # what the recount must cover (claims, deal-ins and self-draws, timeouts, an away
    # seat the computer played for, people's own moves...): the walls and dice are the
    # service's own random draws, so a run without a self-draw, say, plays on
    every = await world.store.facts.all_hands()
    extra_options = {"hands": 4, **({"discard_win_streak": 1} if rules == "hangzhou" else {})}
    for extra in range(6):
        if not _uncovered(every, rules):
            break
        tables.append(await play_match(world, rules, (ANN, BOB, CID, DEE), computers=0,
                                       rng=rng, plan=Plan(), options=extra_options,
                                       channel=710 + extra))
        every = await world.store.facts.all_hands()
    missing = _uncovered(every, rules)
    assert not missing, f"no hand has {', '.join(missing)}"
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


@pytest.mark.parametrize("rules", ["shanghai", "hangzhou"])
async def test_a_person_who_left_is_credited_until_they_left(
        make_world: Callable[..., Awaitable[World]], rules: str) -> None:
    world = await make_world()
    table = await play_match(world, rules, (ANN, BOB, CID), computers=1,
                             rng=random.Random(11), plan=Plan(leaves={BOB: 12}),
                             options={"hands": 3})
    seated = await _seated(world, table)
    seated[1] = BOB  # the computer holds his seat now: he sat there at the start
    hands, matches = await recount(world.store, table, seated)
    stored = await world.store.facts.all_hands()
    wrong = differences(stored, hands)
    assert not wrong, "\n".join(wrong)
    [match] = await world.store.matches.of_table(table)
    [left] = await world.store.matches.departures(match.id)
    bob = [f for f in stored if f.seat == 1]
    assert [f.user_id for f in bob] == [BOB if f.hand_number <= left.hand_number else None
                                       for f in bob]
    gone = next(f for f in bob if f.hand_id == left.hand_id)
    assert not gone.won  # whatever the computer won after he left is not his
    rows = await world.store.facts.of_match(match.id)
    assert rows[1].user_id == BOB and rows[1].hands == left.hand_number
    assert rows[1].computers == 1  # seat 3: his seat had a person
    wrong = differences(rows, matches)
    assert not wrong, "\n".join(wrong)
