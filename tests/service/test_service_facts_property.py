"""The projection's invariants over many random self-played hands (hypothesis): each
hand's points sum to zero; a win on a discard has exactly one seat dealt in, the one its
winner's ``won_from`` names (several winners of one discard name the same); a drawn hand
has no winner; a seat's claims are the melds it claimed (the engine's replay says so);
and a seat's own moves, timeouts and the computer's moves for it are all its actions."""

from __future__ import annotations

import asyncio
import random
import tempfile
from fractions import Fraction
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.service import FakeClock, RecordingNotifier, TableService
from bot.store import Store
from tests.service.facts_play import Plan, play_match, recount
from tests.service.helpers import ANN, BOB, CID, DEE, World

PEOPLE = (ANN, BOB, CID, DEE)


async def _check(rules: str, people: int, lazy: bool, seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "facts.sqlite3")
        try:
            clock, notes = FakeClock(), RecordingNotifier()
            world = World(store, clock, notes,
                          TableService(store, notes, clock=clock, computer_pause=0.0))
            users = PEOPLE[:people]
            plan = Plan(lazy=frozenset(users[-1:]) if lazy else frozenset())
            options: dict[str, object] = {"hands": 2}
            if rules == "hangzhou":
                options["discard_win_streak"] = 1
            table = await play_match(world, rules, users, computers=4 - people,
                                     rng=random.Random(seed), plan=plan, options=options)
            facts = await store.facts.all_hands()
            assert facts
            for hand_id in sorted({f.hand_id for f in facts}):
                seats = [f for f in facts if f.hand_id == hand_id]
                assert [f.seat for f in seats] == [0, 1, 2, 3]
                assert sum((f.points for f in seats), Fraction(0)) == 0
                winners = [f for f in seats if f.won]
                dealt = [f for f in seats if f.dealt_in]
                assert all(f.drawn == (not winners) for f in seats)
                if any(not f.self_draw for f in winners):
                    assert len(dealt) == 1
                    assert {f.won_from for f in winners} == {dealt[0].seat}
                    assert all(f.deal_in_cost >= 0 for f in seats)
                else:
                    assert not dealt and all(f.won_from is None for f in winners)
                actions = await store.log.actions(hand_id)
                for f in seats:
                    mine = [a for a in actions if a.seat == f.seat]
                    by_computer = sum(1 for a in mine if a.source == "computer")
                    assert f.moves + f.timeouts + by_computer == len(mine)
                    assert sum(f.move_hist) == f.moves
            # claims against the engine's replayed melds (the recount asserts them)
            seated = {s: (users[s] if s < people else None) for s in range(4)}
            hands, _ = await recount(store, table, seated)
            assert [f.claims for f in facts] == [f.claims for f in hands]
        finally:
            await store.close()


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(["shanghai", "hangzhou"]), people=st.integers(1, 4),
       lazy=st.booleans(), seed=st.integers(0, 2**32))
def test_invariants_hold_over_random_self_played_hands(rules: str, people: int, lazy: bool,
                                                       seed: int) -> None:
    asyncio.run(_check(rules, people, lazy, seed))
