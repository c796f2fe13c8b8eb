"""A click on a cold table is judged as if it had never left memory (issue 32): at every
decision of whole hands, the table goes idle (out of memory) and the deciding player's
click, with the public step their DM showed before, is played, never refused as stale.
Claims, kongs, flowers and the snapshots a hand writes along the way all come back
through a cold load (its snapshot and the log after it). SQLite and PostgreSQL.

bench/scale.py had every cold click refused in some runs; that was the bench's template
(another table's DM), and this is the product's side of it."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import fairness
from bot.service.steps import public_step_of
from engine.game import Action, ActionKind, Phase, deciding_seats, legal_actions
from tests.narrowing import known
from tests.service.helpers import MakeWorld, by, worlds_on

IDLE = 600.0
LONG = {"turn_timer": 12 * 3600, "claim_timer": 12 * 3600}
"""Timers that never fire while the table goes idle before each click."""


@pytest.fixture
async def make_world(each_database: Path | str) -> AsyncIterator[MakeWorld]:
    async with worlds_on(each_database, idle_after=IDLE) as make:
        yield make


def pick(rng: random.Random, moves: tuple[Action, ...]) -> Action:
    """Mostly a discard or a pass, sometimes a claim, a kong or a win: a hand that
    melds now and then, so the cold loads meet melds, kongs' replacements and ends."""
    claims = [m for m in moves if m.kind not in (ActionKind.DISCARD, ActionKind.PASS)]
    if claims and rng.random() < 0.5:
        return rng.choice(claims)
    plain = [m for m in moves if m.kind in (ActionKind.DISCARD, ActionKind.PASS)]
    return rng.choice(plain or list(moves))


@pytest.mark.parametrize("seed", [1, 2])
async def test_every_decision_clicked_cold_is_played_not_refused_as_stale(
        make_world: MakeWorld, monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    rng = random.Random(seed)
    monkeypatch.setattr(fairness, "_RANDOM", random.Random(seed))
    world = await make_world()
    table = await world.table(options=LONG)
    tables = world.service.tables
    hands = clicks = melds = 0
    while hands < 2 and clicks < 1000:
        live = known(tables.loaded.get(table) or await tables.get(table))
        hand = known(live.hand)
        number, state = live.hand_number, hand.state
        assert state.phase is not Phase.ENDED
        seat = rng.choice(deciding_seats(state))
        move = pick(rng, legal_actions(state, seat))
        step = public_step_of(state, seat)
        user = known(known(live.seats[seat]).user_id)
        await world.advance(IDLE + 1)  # nobody used it: it leaves memory
        assert table not in tables.loaded
        result = await world.service.act(by(user), table, move, hand_number=number,
                                         public_step=step)
        assert result.seat == seat
        clicks += 1
        melds += move.kind not in (ActionKind.DISCARD, ActionKind.PASS)
        after = tables.loaded.get(table)
        if after is None or after.hand is None or after.hand_number != number:
            hands += 1
            if after is None or after.row.status != "playing":
                break
    assert clicks > 40 and melds > 0  # every one a cold load
    assert tables.unloaded == clicks and tables.resumed > 0  # snapshots among them
