"""`/mahjong replay` at the service: finished hands only (a running hand, a hand never
dealt or voided, a step past the end each refused with its own code), every step
reachable, a seat's point of view showing nothing it did not know, and the hand's
record re-checking its commitment and replaying to its settlement."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from fractions import Fraction

import pytest

from bot.service import Cause, Place
from bot.service.fairness import parse_wall
from bot.service.replays import JUMPS, starts_of
from engine.game import Action, replay
from engine.game.events import TileDrawn
from engine.melds import MeldKind
from engine.view import view
from tests.narrowing import known
from tests.service.helpers import (
    ANN,
    BOB,
    CHANNEL,
    GUILD,
    QUIET,
    W,
    World,
    by,
    refused,
    stacked,
)

pytestmark = pytest.mark.usefixtures("dealer_zero")
FAST = {"hands": 1, "turn_timer": 10, "claim_timer": 5}
HEAVENLY = {0: "123m456m789m123p55p", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
"""The dealer (Ann) holds a win as dealt: each hand ends when she says so."""


async def _one_hand_played(world: World) -> int:
    """A one-hand match of Ann and three computers, played to its end (Ann's turns
    time out; the computer plays for her once she is away)."""
    table = await world.table((ANN,), computers=3, options=FAST)
    await world.until("settlement")
    return table


async def test_a_finished_hand_is_replayed_step_by_step_and_nothing_else(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(HEAVENLY))
    svc = world.service
    table = await world.table((ANN,), computers=3, options={"hands": 2})
    await refused("hand_running", svc.replay(by(ANN), table, 1))
    asked = await svc.hand(by(ANN), table)
    await svc.act(by(ANN), table, W(0), public_step=asked.public_step, hand_number=1)
    await world.settle()  # hand 2 is dealt, and waits for Ann
    assert (await svc.hand(by(ANN), table)).hand_number == 2
    first = await svc.replay(by(ANN), table)  # the last finished hand, from its deal
    assert (first.hand_number, first.step, first.viewer, first.mover) == (1, 0, None, None)
    assert first.names == (await svc.table_info(table)).names
    # every hand open as dealt: the dealer's fourteen (no tile drawn yet), 13 each
    assert [len(known(h)) for h in first.view.hands] == [14, 13, 13, 13]
    assert first.view.table.result is None
    end = await svc.replay(by(ANN), table, 1, first.last)
    assert end.view.table.result is not None and end.jump is None  # the settlement
    assert end.view.table.phase == "ended"
    # the hand in play, a hand never dealt, a step past the end: each its own refusal
    running = await refused("hand_running", svc.replay(by(ANN), table, 2))
    assert dict(running.params) == {"table": table, "hand": 2}
    never = await refused("no_such_hand", svc.replay(by(ANN), table, 3))
    assert dict(never.params) == {"table": table, "hand": 3, "last": 1}
    for step in (first.last + 1, -1):
        past = await refused("no_such_step", svc.replay(by(ANN), table, 1, step))
        assert dict(past.params) == {"last": first.last}
    await refused("hand_running", svc.hand_record(by(ANN), table, 2))


async def test_no_replay_before_a_hand_has_ended(world: World) -> None:
    lobby = await world.table((ANN, BOB), computers=2, start=False)
    await refused("no_finished_hand", world.service.replay(by(ANN), lobby))
    playing = await world.table((ANN, BOB), computers=2, channel=CHANNEL + 1)
    told = await refused("no_finished_hand", world.service.replay(by(ANN), playing))
    assert dict(told.params) == {"table": playing}
    await refused("hand_running", world.service.replay(by(ANN), playing, 1))


async def test_a_hand_voided_by_a_cancel_is_not_replayed(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(HEAVENLY))
    svc = world.service
    table = await world.table((ANN,), computers=3, options={"hands": 2})
    asked = await svc.hand(by(ANN), table)
    await svc.act(by(ANN), table, W(0), public_step=asked.public_step, hand_number=1)
    await world.settle()
    await svc.cancel(by(ANN), table)  # hand 2 is void: never settled
    voided = await refused("no_such_hand", svc.replay(by(ANN), table, 2))
    assert dict(voided.params) == {"table": table, "hand": 2, "last": 1}
    assert (await svc.replay(by(ANN), table)).hand_number == 1
    assert (await svc.hand_record(by(ANN), table)).hand_number == 1
    other = await world.table((ANN,), computers=3, channel=CHANNEL + 1)
    await svc.cancel(by(ANN), other)
    await refused("no_finished_hand", svc.replay(by(ANN), other, 1))


async def test_a_replay_is_found_only_where_its_table_is(world: World) -> None:
    """The adapter finds the table where it was asked (`find_table`): another channel's
    or server's table is `no_table`, word for word a table that does not exist."""
    table = await _one_hand_played(world)
    elsewhere = Cause(ANN, "Ann", place=Place(GUILD + 1, CHANNEL))
    other_channel = Cause(ANN, "Ann", place=Place(GUILD, CHANNEL + 5))
    for cause in (elsewhere, other_channel):
        await refused("no_table", world.service.find_table(cause, table))
    await refused("no_table", world.service.find_table(other_channel, 10**6))
    here = Cause(ANN, "Ann", place=Place(GUILD, CHANNEL))
    assert await world.service.find_table(here, None) == table


async def test_steps_are_moves_and_the_jump_finds_the_next_claim_or_win(world: World) -> None:
    svc = world.service
    table = await _one_hand_played(world)
    match = (await world.store.matches.of_table(table))[-1]
    hand = (await world.store.hands.of_match(match.id))[0]
    actions = [Action.from_json(a.payload) for a in await world.store.log.actions(hand.id)]
    starts = starts_of(actions)
    frame = await svc.replay(by(ANN), table, 1, 0)
    assert frame.last == len(starts) == sum(a.kind.value != "pass" for a in actions)
    for k in range(1, frame.last + 1):
        step = await svc.replay(by(ANN), table, 1, k)
        assert step.mover == actions[starts[k - 1]].seat
        if step.jump is not None:
            assert step.jump > k and actions[starts[step.jump - 1]].kind in JUMPS
            assert not any(actions[starts[j - 1]].kind in JUMPS
                           for j in range(k + 1, step.jump))
    jumps, at = [], 0
    while (nxt := (await svc.replay(by(ANN), table, 1, at)).jump) is not None:
        jumps.append(nxt)
        at = nxt
    assert jumps == [k + 1 for k, i in enumerate(starts) if actions[i].kind in JUMPS]


async def test_a_seats_view_shows_only_what_it_knew(world: World) -> None:
    svc = world.service
    table = await _one_hand_played(world)
    last = (await svc.replay(by(ANN), table, 1, 0)).last
    match = (await world.store.matches.of_table(table))[-1]
    hand = (await world.store.hands.of_match(match.id))[0]
    actions = [Action.from_json(a.payload) for a in await world.store.log.actions(hand.id)]
    starts = starts_of(actions)
    row = known(await world.store.lobby.get_table(table))
    for step in range(last + 1):
        opened = await svc.replay(by(ANN), table, 1, step)
        upto = starts[step] if step < last else len(actions)
        state = replay(row.rules, row.options, parse_wall(hand.wall), hand.dice, hand.dealer,
                       actions[:upto], hand.streak, hand.huangfan > 0)
        for seat in range(4):
            mine = await svc.replay(by(ANN), table, 1, step, seat)
            own = view(state, seat, 1)
            assert mine.view.hands[seat] == own.concealed == opened.view.hands[seat]
            assert mine.view.drawn[seat] == own.drawn
            for other in range(4):
                if other == seat:
                    continue
                assert mine.view.hands[other] is None and mine.view.drawn[other] is None
                if step < last:  # others' concealed kongs stay face down until the end
                    for meld in mine.view.table.seats[other].melds:
                        if meld.kind is MeldKind.CONCEALED_KONG:
                            assert set(meld.tiles) == {None}
            for event in mine.events:
                assert event.private_to in (None, seat)
            drawn = [e for e in opened.events if isinstance(e, TileDrawn)]
            assert [e for e in mine.events if isinstance(e, TileDrawn)] == \
                [e for e in drawn if e.seat == seat]


async def test_the_record_checks_its_commitment_and_replays_to_its_settlement(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world()
    table = await _one_hand_played(world)
    record = await world.service.hand_record(by(ANN), table)
    assert record.filename == f"hand-{table}-1.json"
    data = json.loads(json.dumps(record.data))  # exactly what the file holds
    check = data["check"]
    assert check["algorithm"] == "sha256"
    digest = hashlib.sha256((data["salt"] + data["wall"]).encode("ascii")).hexdigest()
    assert digest == data["commitment"] == check["expect"]
    assert [s["computer"] for s in data["seats"]] == [False, True, True, True]
    assert data["seats"][0]["name"] == "Ann"
    actions = [Action.from_json(a["payload"]) for a in data["actions"]]
    assert [a["seq"] for a in data["actions"]] == list(range(1, len(actions) + 1))
    assert {a["source"] for a in data["actions"]} <= {"player", "timeout", "computer"}
    state = replay(data["rules"], data["options"], parse_wall(data["wall"]), tuple(data["dice"]),
                   data["dealer"], actions, data["streak"], data["huangfan"] > 0)
    result = known(state.result)
    paid = {s["seat"]: Fraction(s["amount"]) for s in data["settlements"]}
    assert paid == dict(enumerate(result.payments))
    assert [Fraction(x) for x in data["totals_after"]] == list(result.payments)
    assert (await world.service.table_info(table)).totals == tuple(result.payments)


async def test_without_a_table_named_the_channels_last_table_with_a_finished_hand(
        world: World) -> None:
    """A new table in play has no finished hand yet: `/mahjong replay` alone still finds
    the channel's last one that has (the table a player just finished), while a table
    named is the one named."""
    done = await _one_hand_played(world)
    new = await world.table((ANN, BOB), computers=2)
    here = by(ANN, place=Place(GUILD, CHANNEL))
    assert await world.service.find_table(here, None) == new
    assert await world.service.replay_table(here, None) == done
    assert (await world.service.replay(here, done)).hand_number == 1
    assert await world.service.replay_table(here, new) == new
    await refused("no_table", world.service.replay_table(
        by(ANN, place=Place(GUILD + 1, CHANNEL)), done))
    lonely = by(ANN, place=Place(GUILD, CHANNEL + 7))
    await world.table((ANN,), computers=3, channel=CHANNEL + 7)
    # nothing finished anywhere in that channel: its live table, refused as before
    table = await world.service.replay_table(lonely, None)
    await refused("no_finished_hand", world.service.replay(lonely, table))
