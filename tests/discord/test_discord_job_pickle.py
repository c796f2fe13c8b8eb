"""A picture job as it travels to a worker (`bot.discord.core.pictures.job_bytes`): a hand in
play as its snapshot text, read back in the worker as the very same state, so a DM
drawn there is the DM drawn from the state itself; anything else pickled as usual."""

from __future__ import annotations

import pickle
import random
from functools import partial

import pytest

from bot.discord.core.i18n import lang
from bot.discord.core.pictures import Pictures, job_bytes
from bot.discord.core.workers import WorkerPool
from bot.discord.play.dms import prepare_dm
from bot.service.live import step_of
from engine import rules
from engine.ai import choose_action
from engine.game import HandState, apply, deciding_seats, new_hand
from engine.game.state import Phase
from engine.tiles import full_set
from engine.view import view
from tests.discord.presenter_kit import private

HANDS = 12
"""Seeded hands a rule set."""


def _states(ruleset: str, seed: int) -> list[HandState]:
    """Every state of a seeded self-played hand, the ended one last."""
    rng = random.Random(seed)
    wall = full_set(rules.get(ruleset).has_flowers)
    rng.shuffle(wall)
    state, _ = new_hand(ruleset, None, tuple(wall), seed % 4,
                        (1 + seed % 6, 1 + seed // 6 % 6), streak=1 + seed % 3,
                        huangfan=seed % 5 == 0)
    out = [state]
    while state.phase is not Phase.ENDED:
        state, _ = apply(state, choose_action(state, deciding_seats(state)[0], rng))
        out.append(state)
    return out


@pytest.mark.parametrize("ruleset", ["shanghai", "hangzhou"])
def test_every_state_of_seeded_hands_arrives_as_the_same_state(ruleset: str) -> None:
    travelled = 0
    for seed in range(HANDS):
        for state in _states(ruleset, seed):
            data = job_bytes(state)
            back = pickle.loads(data)
            assert back == state and back.seq == state.seq
            in_play = state.phase is not Phase.ENDED
            assert (b"_hand_state" in data) == in_play  # ended: pickled record by record
            travelled += in_play
    assert travelled > 40 * HANDS


def test_a_dm_job_draws_in_a_worker_the_dm_of_the_state_itself() -> None:
    """The whole job (the notice's `viewing`, the news, the reader's language): its
    text, components and picture are those composed from the state in this process."""
    states = _states("hangzhou", 3)
    for state in states[::7]:
        for seat in deciding_seats(state) or (0,):
            notice = private(state, seat)
            job = partial(prepare_dm, notice.viewing(), (), lang("zh-CN"), table_id=7,
                          hand=1, step=step_of(state, seat), names=notice.names,
                          deadline=1e9, choices=notice.choices, away=False)
            here = prepare_dm(notice.view, (), lang("zh-CN"), table_id=7, hand=1,
                              step=step_of(state, seat), names=notice.names, deadline=1e9,
                              choices=notice.choices, away=False)
            assert pickle.loads(job_bytes(job))() == here


def test_the_picture_pools_send_their_jobs_as_job_bytes() -> None:
    pictures = Pictures(1)
    pools = [pictures._pool(which) for which in ("hands", "public")]  # none started
    assert all(pool is not None and pool.dumps is job_bytes for pool in pools)


async def test_a_job_sent_by_a_worker_pool_gets_the_states_view() -> None:
    state = _states("shanghai", 1)[10]
    pool = WorkerPool(1, dumps=job_bytes)
    try:
        assert await pool.run(partial(view, state, 2, 1)) == view(state, 2, 1)
    finally:
        pool.close()
