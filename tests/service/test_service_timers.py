"""Timers with a fake clock: turn and claim defaults, the half-time reminder, away after
N timeouts, the computer's pause, standing choices, and the scheduler loop itself."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from bot.service import parse_wall
from bot.service.scheduler import running
from bot.store import StandingChoices, Store
from engine.game import Action, apply, new_hand
from tests.narrowing import known
from tests.service.helpers import ANN, BOB, CID, SCENE_PONG, SCENE_TWO, D, World, by, stacked

pytestmark = pytest.mark.usefixtures("dealer_zero")
TIMERS = {"turn_timer": 60, "claim_timer": 20, "away_after": 2}


async def sources(store: Store, table: int) -> list[tuple[int, str, str]]:
    hand = await store.hands.live(table)
    assert hand is not None
    return [(a.seat, a.kind, a.source) for a in await store.log.actions(hand.id)]


async def test_turn_timer_plays_the_default_and_reminds_once_at_half_time(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)
    assert await world.advance(29) == 0
    assert world.notes.of("reminder") == []
    await world.advance(1)
    (reminder,) = world.notes.of("reminder")
    assert (reminder.user_id, reminder.move, reminder.step) == (ANN, "turn", 1)
    assert (await world.store.deadlines.all())[0].reminded_at is not None
    await world.advance(29.5)
    assert await sources(world.store, table) == []
    await world.advance(0.5)
    # the dealer has no drawn tile: the rightmost tile of the sorted hand goes
    assert await sources(world.store, table) == [(0, "discard", "timeout")]
    hand = known(await world.store.hands.live(table))
    assert (await world.store.log.actions(hand.id))[0].payload["tile"] == "4z"
    assert len(world.notes.of("reminder")) == 1
    seat = (await world.store.lobby.seats(table))[0]
    assert seat.consecutive_timeouts == 1 and not seat.away


async def test_claim_timer_passes_for_a_silent_claimer(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)
    await world.service.act(by(ANN), table, D(0, "9m"))
    assert await world.advance(19) == 1          # Cid's half-time reminder only
    assert world.notes.of("reminder")[-1].user_id == CID
    await world.advance(1)
    assert await sources(world.store, table) == [(0, "discard", "player"),
                                                 (2, "pass", "timeout")]
    info = await world.service.table_info(table)
    assert info.deciding == (1,)                 # Bob draws and decides
    assert world.notes.of("your_move")[-1].user_id == BOB


async def match_actions(store: Store, table: int) -> list[tuple[int, str, str]]:
    (match,) = await store.matches.of_table(table)
    out: list[tuple[int, str, str]] = []
    for hand in await store.hands.of_match(match.id):
        out += [(a.seat, a.kind, a.source) for a in await store.log.actions(hand.id)]
    return out


async def test_away_after_n_timeouts_then_the_computer_plays_until_back(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG), computer_pause=5.0)
    table = await world.table((ANN,), computers=3, options=TIMERS)
    await world.until("away", step=5)
    (away,) = world.notes.of("away")
    assert (away.seat, away.user_id, away.away) == (0, ANN, True)
    seat = (await world.store.lobby.seats(table))[0]
    assert seat.away and seat.consecutive_timeouts == 2
    assert (await world.service.hand(by(ANN), table)).away
    timeouts = [s for s in await match_actions(world.store, table) if s[2] == "timeout"]
    assert len(timeouts) == 2 and {s[0] for s in timeouts} == {0}
    # from now on Ann's decisions are played by the computer, without waiting
    before = len(await match_actions(world.store, table))
    for _ in range(40):
        await world.advance(5)
    after = await match_actions(world.store, table)
    ann = [src for seat_, _, src in after[before:] if seat_ == 0]
    assert ann and set(ann) == {"computer"}
    info = await world.service.back(by(ANN), table)
    assert not known(info.seats[0]).away
    assert world.notes.of("away")[-1].away is False
    assert (await world.store.lobby.seats(table))[0].consecutive_timeouts == 0


async def test_a_players_own_move_resets_the_count_of_timeouts(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)
    await world.advance(60)                       # Ann times out: 1
    assert (await world.store.lobby.seats(table))[0].consecutive_timeouts == 1
    for _ in range(20):                           # the others time out until Ann decides
        hand = await world.service.hand(by(ANN), table)
        if hand.step is not None:
            break
        await world.advance(20)
    assert hand.step is not None and hand.view.moves
    await world.service.act(by(ANN), table, hand.view.moves[0].action, step=hand.step)
    assert (await world.store.lobby.seats(table))[0].consecutive_timeouts == 0


async def test_computer_players_wait_their_pause(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG), computer_pause=3.0)
    table = await world.table((ANN,), computers=3, options=TIMERS)
    await world.service.act(by(ANN), table, D(0, "9m"))
    assert await world.advance(2.9) == 0
    assert len(await sources(world.store, table)) == 1
    assert await world.advance(0.1) == 1
    moves = await sources(world.store, table)
    assert len(moves) == 2 and moves[1][2] == "computer"
    assert await world.advance(2.9) == 0
    await world.advance(0.1)
    assert len(await sources(world.store, table)) == 3


async def test_standing_choice_pass_every_claim(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)
    await world.service.set_choices(by(CID), table, StandingChoices(pass_claims=True))
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    assert await sources(world.store, table) == [(0, "discard", "player"),
                                                 (2, "pass", "computer")]
    assert all(n.user_id != CID for n in world.notes.of("your_move"))


async def test_standing_choice_always_win_and_a_second_winner_timing_out(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_TWO))
    table = await world.table(options=TIMERS)
    await world.service.set_choices(by(CID), table, StandingChoices(always_win=True))
    await world.service.act(by(ANN), table, D(0, "5p"))
    await world.settle()
    hand = known(await world.store.hands.live(table))
    assert [(a.seat, a.kind, a.source) for a in await world.store.log.actions(hand.id)] == \
        [(0, "discard", "player"), (2, "win", "computer")]
    await world.advance(20)                      # Bob's claim timer: pass
    (settled,) = world.notes.of("settlement")
    assert [w.winner for w in settled.result.settlements] == [2]


async def test_discard_the_drawn_tile_when_away(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG), computer_pause=5.0)
    table = await world.table((ANN,), computers=3, options={**TIMERS, "away_after": 1})
    await world.service.set_choices(by(ANN), table, StandingChoices(discard_drawn_when_away=True))
    await world.advance(60)                                   # away after one timeout
    assert (await world.store.lobby.seats(table))[0].away
    for _ in range(40):
        await world.advance(5)
    (match,) = await world.store.matches.of_table(table)
    checked = 0
    for hand in await world.store.hands.of_match(match.id):
        state, _ = new_hand("shanghai", TIMERS | {"away_after": 1}, parse_wall(hand.wall),
                            hand.dealer, hand.dice, streak=hand.streak,
                            huangfan=hand.huangfan > 0)
        for a in await world.store.log.actions(hand.id):
            action = Action.from_json(a.payload)
            if a.seat == 0 and a.source == "computer" and a.kind == "discard" \
                    and state.seats[0].drawn is not None:
                assert action.tile == state.seats[0].drawn
                checked += 1
            state, _ = apply(state, action)
    assert checked > 0


async def test_the_scheduler_loop_sleeps_until_the_earliest_deadline(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)

    async def moves() -> int:
        for _ in range(50):
            await asyncio.sleep(0)
        return len(await sources(world.store, table))

    async with running(world.service.scheduler, world.service.alarms.fire):
        assert await moves() == 0
        world.clock.advance(59)
        assert await moves() == 0
        world.clock.advance(1)
        assert await moves() == 1                 # Ann's turn timed out
        world.clock.advance(60)
        assert await moves() == 2                 # then Bob's
