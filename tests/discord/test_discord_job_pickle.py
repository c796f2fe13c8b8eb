"""A picture job as it travels to a worker (`bot.discord.core.pictures.job_bytes`): a hand in
play as its snapshot text, read back in the worker as the very same state, so a DM
drawn there is the DM drawn from the state itself; anything else pickled as usual.
A seat's DM travels as plain values (`bot.discord.play.dms.dm_job`: its state, news and
choices made plain), composed in the worker into the very DM of the state itself."""

from __future__ import annotations

import json
import pickle
import pickletools
import random
from dataclasses import replace
from functools import partial
from typing import Any

import pytest

from bot.discord.core.i18n import lang
from bot.discord.core.pictures import (
    Pictures,
    events_of,
    job_bytes,
    plain_events,
    plain_state,
    state_of,
    table_job,
    table_picture,
)
from bot.discord.core.workers import WorkerPool, found, name_of
from bot.discord.play.dms import compose_dm, dm_job, prepare_dm
from bot.service.live import step_of
from bot.service.notices import NextDiscard
from bot.store.rows import StandingChoices
from engine import rules
from engine.ai import choose_action
from engine.game import HandState, apply, deciding_seats, new_hand
from engine.game.events import ClaimWindowClosed, ClaimWindowOpened, Event, TileDiscarded
from engine.game.state import Phase
from engine.tiles import Tile, full_set
from engine.view import view
from tests.discord.presenter_kit import private

HANDS = 12
"""Seeded hands a rule set."""


def _states(ruleset: str, seed: int, events: list[Event] | None = None) -> list[HandState]:
    """Every state of a seeded self-played hand, the ended one last (``events``: given
    every event of the hand)."""
    rng = random.Random(seed)
    wall = full_set(rules.get(ruleset).has_flowers)
    rng.shuffle(wall)
    state, dealt = new_hand(ruleset, None, tuple(wall), seed % 4,
                            (1 + seed % 6, 1 + seed // 6 % 6), streak=1 + seed % 3,
                            huangfan=seed % 5 == 0)
    out = [state]
    if events is not None:
        events += dealt
    while state.phase is not Phase.ENDED:
        state, happened = apply(state, choose_action(state, deciding_seats(state)[0], rng))
        out.append(state)
        if events is not None:
            events += happened
    return out


def _globals(data: bytes) -> int:
    """How many classes or functions a pickle names (each a look-up as it is pickled)."""
    return sum(op.name in ("GLOBAL", "STACK_GLOBAL") for op, _, _ in pickletools.genops(data))


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


@pytest.mark.parametrize("ruleset", ["shanghai", "hangzhou"])
def test_every_state_and_event_made_plain_is_read_back_the_same(ruleset: str) -> None:
    """`plain_state` and `plain_events`: a hand in play, and every event a hand has,
    travel as values that name no class, and come back equal."""
    plain = 0
    for seed in range(HANDS):
        events: list[Event] = []
        for state in _states(ruleset, seed, events):
            sent = pickle.dumps(plain_state(state), pickle.HIGHEST_PROTOCOL)
            back = state_of(pickle.loads(sent))
            assert back == state and back.seq == state.seq
            assert type(back.options) is type(state.options)
            if state.phase is not Phase.ENDED:
                assert _globals(sent) == 0
        for event in events:
            sent = pickle.dumps(plain_events((event,)), pickle.HIGHEST_PROTOCOL)
            (read,) = events_of(pickle.loads(sent))
            assert read == event and type(read) is type(event)
            plain += _globals(sent) == 0
    assert plain > 50 * HANDS  # the draws, discards, claim windows: no class named


def test_a_plain_dm_job_composes_in_a_worker_the_dm_of_the_state_itself() -> None:
    """The DM job (`dm_job`: state, news, choices, reader as plain values) is pickled
    without naming a class, and `compose_dm` makes of it the DM `prepare_dm` makes of
    the notice's own view (its components as their JSON text)."""
    events: list[Event] = []
    states = _states("hangzhou", 3, events)
    # a click's news: a discard, its claim window (a meld's or a result's go as they are)
    news = tuple(e for e in events if isinstance(e, (TileDiscarded, ClaimWindowOpened,
                                                     ClaimWindowClosed)))[-6:]
    choices = StandingChoices(always_win=True, never_chi=True)
    for state in states[::7]:
        if state.phase is Phase.ENDED:
            continue
        for seat in deciding_seats(state) or (0,):
            notice = replace(private(state, seat, choices=choices), news=news)
            job = dm_job(notice, notice.news, lang("zh-CN"))
            sent = pickle.dumps(job, pickle.HIGHEST_PROTOCOL)
            assert _globals(sent) == 0
            text, components, png, has_moves, claim = compose_dm(*pickle.loads(sent))
            here = prepare_dm(notice.view(), news, lang("zh-CN"), table_id=notice.ref.table_id,
                              hand=1, step=notice.public_step, names=notice.names,
                              deadline=1e9, choices=choices, away=False)
            assert (text, json.loads(components), png, has_moves, claim) == (
                here.text, here.components, here.png, here.has_moves, here.claim)
            # drawn in a thread here: the objects themselves, the same DM
            objects = dm_job(notice, notice.news, lang("zh-CN"), plain=False)
            assert objects[0] is state and objects[3] == news and objects[9] is choices
            assert compose_dm(*objects) == (text, components, png, has_moves, claim)


def test_what_a_player_chose_in_advance_travels_as_it_is() -> None:
    """A DM job's rarer parts (a next discard chosen in advance) go as they are."""
    state = next(s for s in _states("shanghai", 1) if deciding_seats(s))
    seat = deciding_seats(state)[0]
    notice = replace(private(state, seat), next_discard=NextDiscard(Tile(5), False))
    job = pickle.loads(pickle.dumps(dm_job(notice, (), lang("en-US"))))
    text, _, _, _, _ = compose_dm(*job)
    here = prepare_dm(notice.view(), (), lang("en-US"), table_id=notice.ref.table_id, hand=1,
                      step=notice.public_step, names=notice.names, deadline=1e9,
                      choices=notice.choices, away=False, next_discard=notice.next_discard)
    assert text == here.text


def test_a_function_travels_by_its_name() -> None:
    assert found(name_of(compose_dm)) is compose_dm
    with pytest.raises(ValueError, match="not found by its name"):
        name_of(lambda: None)


def test_a_table_picture_travels_as_its_plain_state_and_is_the_views_picture() -> None:
    """`table_job`: a table picture's job is its state made plain (no class named) and
    `table_picture` draws of it the picture of the public view itself; not plain (a
    thread here), the state itself."""
    from engine.view import spectator_view
    from render.table import table_image

    names = ("Ann", "Bob", "Cy", "Di")
    states = _states("hangzhou", 5)
    for state in [*states[::25], states[-1]]:
        sent = pickle.dumps(table_job(state, 2, names, True), pickle.HIGHEST_PROTOCOL)
        assert (_globals(sent) == 0) == (state.phase is not Phase.ENDED)
        assert table_picture(*pickle.loads(sent)) == table_image(spectator_view(state, 2), names)
        assert table_job(state, 2, names, False)[0] is state



class _Note:
    """A piece of news that is no dataclass (none is today): it travels as it is."""

    def __init__(self, tile: Tile) -> None:
        self.tile = tile


def test_news_that_is_no_dataclass_travels_as_it_is() -> None:
    news: tuple[Any, ...] = (_Note(Tile(3)),)
    (back,) = events_of(pickle.loads(pickle.dumps(plain_events(news))))
    assert isinstance(back, _Note) and back.tile is Tile(3)
