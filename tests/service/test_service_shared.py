"""Shared mode: two table services (as two bot processes would be) on one database,
SQLite and PostgreSQL.

Each has its own store connection, memory and notifier; both see one fake clock. A
command on either acts on the table as it is in the store (the change counter, read
under the table's lock, reloads a stale table), a click both race lands once, and a
deadline fires once: claimed from the database, a killed holder's claim taken over
once its lease has passed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.service import ClaimAnswer, FakeClock, RecordingNotifier, Refused
from bot.service.fairness import deal_of
from bot.store import StandingChoices
from engine.game import ActionKind, stack_wall
from engine.tiles import tile_from_notation
from tests.narrowing import known
from tests.service.helpers import (
    ANN,
    BOB,
    CID,
    QUIET,
    SCENE_PONG,
    D,
    MakeWorld,
    P,
    World,
    by,
    refused,
    stacked,
    worlds_on,
)

pytestmark = pytest.mark.usefixtures("dealer_zero")
TIMERS = {"turn_timer": 60, "claim_timer": 20, "away_after": 5}


@pytest.fixture
async def make_world(each_database: Path | str) -> AsyncIterator[MakeWorld]:
    """Worlds (a store connection, a service, a notifier) on one database of each kind."""
    async with worlds_on(each_database) as make:
        yield make


async def two(make_world: MakeWorld, **kwargs: object) -> tuple[World, World]:
    """Two services in shared mode on one database and one clock."""
    clock = FakeClock()
    options = {"shared": True, "claim_lease": 30.0, **kwargs}
    return await make_world(clock, **options), await make_world(clock, **options)


async def test_lobby_changes_made_by_one_process_are_seen_by_the_other(
        make_world: MakeWorld) -> None:
    a, b = await two(make_world)
    table = (await a.service.create_table(by(ANN), guild_id=7, channel_id=70,
                                          rules="shanghai")).ref.table_id
    assert (await b.service.join(by(BOB), table)).seat == 1
    # a's memory still has seat 2 free and Bob away from the table: it reloads first
    assert (await a.service.join(by(CID), table)).seat == 2
    await refused("already_seated", a.service.join(by(BOB), table))
    await b.service.set_choice(by(BOB), table, "pass_claims", True)
    await a.service.set_choice(by(BOB), table, "always_win", True)  # both toggles count
    info = await b.service.table_info(table)
    assert [s.user_id if s else None for s in info.seats] == [ANN, BOB, CID, None]
    assert info.seats[1] is not None
    assert info.seats[1].choices == StandingChoices(always_win=True, pass_claims=True)


async def test_clicks_on_either_process_play_one_hand(make_world: MakeWorld) -> None:
    a, b = await two(make_world, deal=stacked(SCENE_PONG))
    table = await a.table(options=TIMERS)          # created and started on a
    await b.service.act(by(ANN), table, D(0, "9m"), step=1)   # b loads it
    # a's memory is a move behind: Cid's pong window is what it reads under the lock
    await refused("stale", a.service.act(by(ANN), table, D(0, "9m"), step=1))
    await a.service.act(by(CID), table, P(2), step=2)
    hand = await b.service.hand(by(BOB), table)     # b reloads the pass a made
    assert hand.step == 3
    actions = await a.store.log.actions(known(await a.store.hands.live(table)).id)
    assert [(x.seq, x.seat, x.kind) for x in actions] == [(1, 0, "discard"), (2, 2, "pass")]


async def test_one_click_raced_on_two_processes_lands_once(make_world: MakeWorld) -> None:
    a, b = await two(make_world, deal=stacked(SCENE_PONG))
    table = await a.table(options=TIMERS)
    await b.service.table_info(table)               # both have the table in memory
    results = await asyncio.gather(a.service.act(by(ANN), table, D(0, "9m"), step=1),
                                   b.service.act(by(ANN), table, D(0, "9m"), step=1),
                                   return_exceptions=True)
    landed = [r for r in results if not isinstance(r, BaseException)]
    lost = [r for r in results if isinstance(r, Refused)]
    assert len(landed) == 1 and len(lost) == 1, results
    assert lost[0].code in ("stale", "raced")
    hand = await a.store.hands.live(table)
    assert hand is not None
    assert [x.seq for x in await a.store.log.actions(hand.id)] == [1]


async def test_a_deadline_fires_once_with_both_processes_polling(
        make_world: MakeWorld) -> None:
    a, b = await two(make_world, deal=stacked(SCENE_PONG))
    table = await a.table(options=TIMERS)
    await b.service.table_info(table)
    a.clock.advance(30)                              # half time: the reminder
    fired = await asyncio.gather(a.service.run_due(), b.service.run_due())
    assert sorted(fired) == [0, 1]
    reminders = a.notes.of("reminder") + b.notes.of("reminder")
    assert [(r.user_id, r.step) for r in reminders] == [(ANN, 1)]
    a.clock.advance(30)                              # the turn timer
    fired = await asyncio.gather(a.service.run_due(), b.service.run_due())
    assert sum(fired) == 1
    hand = await a.store.hands.live(table)
    assert hand is not None
    assert [(x.seat, x.source) for x in await a.store.log.actions(hand.id)] == [(0, "timeout")]
    # the timer discards 4z (nobody may claim it): Bob's turn, pinged once by either
    pings = [n for n in a.notes.of("your_move") + b.notes.of("your_move") if n.step == 2]
    assert [n.user_id for n in pings] == [BOB]


async def test_a_killed_process_s_claim_is_taken_over_after_its_lease(
        make_world: MakeWorld) -> None:
    a, b = await two(make_world, deal=stacked(SCENE_PONG))
    table = await a.table(options={**TIMERS, "turn_timer": 10})
    a.clock.advance(10)
    now = a.clock.now()
    # a claims the reminder and the deadline's moment, then is killed before firing
    claimed = await a.store.deadlines.claim(now, owner="killed", until=now + 30)
    assert [d.seat for d in claimed] == [0]
    assert await b.service.run_due() == 0           # held by the dead process
    b.clock.advance(29)
    assert await b.service.run_due() == 0
    b.clock.advance(2)                               # its lease is over
    assert await b.service.run_due() >= 1
    hand = await b.store.hands.live(table)
    assert hand is not None
    assert [x.source for x in await b.store.log.actions(hand.id)][:1] == ["timeout"]
    assert len(b.notes.of("reminder")) == 1


async def test_the_other_process_finishes_a_table_a_started(make_world: MakeWorld) -> None:
    """Only computers and timers play: both poll; every action once, the match ends."""
    a, b = await two(make_world)
    table = await a.table((ANN,), computers=3, options={"hands": 1, "turn_timer": 10,
                                                        "claim_timer": 10})
    for _ in range(2000):
        a.clock.advance(10)
        await asyncio.gather(a.service.run_due(), b.service.run_due())
        if known(await a.store.lobby.get_table(table)).status == "finished":
            break
    else:
        raise AssertionError("the match never ended")
    [hand] = await a.store.hands.of_match((await a.store.matches.of_table(table))[0].id)
    seqs = [x.seq for x in await a.store.log.actions(hand.id)]
    assert seqs == list(range(1, len(seqs) + 1))
    settled = await a.store.endings.settlements(hand.id)
    assert sum(s.amount for s in settled) == 0
    ended = a.notes.of("match_ended") + b.notes.of("match_ended")
    assert len(ended) == 1


async def test_a_process_s_own_changes_carry_the_counter_s_bump_and_keep_its_memory(
        make_world: MakeWorld, monkeypatch: pytest.MonkeyPatch) -> None:
    """No transaction of its own for the bump: a's moves and lobby changes move the
    counter in their own writes, so a trusts its memory from one command to the next;
    one change by b, and a reloads once."""
    a, b = await two(make_world, deal=stacked(SCENE_PONG))
    reloads: list[int] = []
    reload = a.service.tables.reload

    async def counted(live: Any) -> None:
        reloads.append(live.id)
        await reload(live)

    monkeypatch.setattr(a.service.tables, "reload", counted)
    table = await a.table(options=TIMERS)            # created, joined, started on a
    live = a.service._tables[table]
    start = await a.store.processes.table_version(table)
    assert live.version == start > 0
    await a.service.act(by(ANN), table, D(0, "9m"), step=1)
    await a.service.act(by(CID), table, P(2), step=2)
    await a.service.set_choice(by(BOB), table, "pass_claims", True)
    assert live.version == await a.store.processes.table_version(table) == start + 3
    assert reloads == []
    await b.service.set_choice(by(BOB), table, "always_win", True)
    info = await a.service.table_info(table)
    assert reloads == [table]
    assert known(info.seats[1]).choices == StandingChoices(always_win=True, pass_claims=True)
    assert live.version == await a.store.processes.table_version(table)


async def _hand_log(world: World, table: int) -> list[tuple[int, str]]:
    hand = await world.store.hands.live(table)
    assert hand is not None
    return [(x.seat, x.source) for x in await world.store.log.actions(hand.id)]


async def test_deadlines_that_came_due_while_every_process_was_down_get_the_grace(
        make_world: MakeWorld) -> None:
    clock = FakeClock()
    options = {"shared": True, "claim_lease": 30.0, "grace": 120.0}
    a = await make_world(clock, **options)
    await a.service.recover()                        # alive: its heartbeat
    table = await a.table(options=TIMERS)            # Ann's turn, 60 s
    clock.advance(600)                               # a was killed; nothing ran since
    b = await make_world(clock, **options)
    report = await b.service.recover()               # a's heartbeat is 10 minutes old
    assert report.deferred == 1
    await b.service.run_due()                        # the reminder at most, no move
    assert await _hand_log(b, table) == []
    clock.advance(119)
    await b.service.run_due()
    assert await _hand_log(b, table) == []
    clock.advance(1)                                 # the grace is over
    await b.service.run_due()
    assert await _hand_log(b, table) == [(0, "timeout")]


async def test_with_another_process_alive_a_starting_one_gives_no_grace(
        make_world: MakeWorld) -> None:
    clock = FakeClock()
    options = {"shared": True, "claim_lease": 30.0, "grace": 120.0}
    a = await make_world(clock, **options)
    await a.service.recover()
    table = await a.table(options=TIMERS)
    clock.advance(20)
    await a.service.run_due()                        # a beats again (every 10 s)
    clock.advance(50)                                # Ann's deadline passed 10 s ago
    b = await make_world(clock, **options)
    report = await b.service.recover()               # a was seen 50 s ago: alive
    assert report.deferred == 0
    await b.service.run_due()
    assert await _hand_log(b, table) == [(0, "timeout")]


async def test_a_process_that_stopped_cleanly_is_not_counted_alive(
        make_world: MakeWorld) -> None:
    clock = FakeClock()
    options = {"shared": True, "claim_lease": 30.0, "grace": 120.0}
    a = await make_world(clock, **options)
    await a.service.recover()
    table = await a.table(options=TIMERS)
    clock.advance(70)                                # Ann's deadline passed, a stops
    a.service.stop()
    await a.service.drain()
    b = await make_world(clock, **options)           # restarted at once
    assert (await b.service.recover()).deferred == 1
    await b.service.run_due()
    assert await _hand_log(b, table) == []


async def test_a_click_judged_on_memory_another_process_moved_on_is_judged_again(
        make_world: MakeWorld) -> None:
    """A click does not read the counter first: memory a move behind would refuse Cid's
    pass (no decision of his there); the refusal is checked, the table reloaded, and
    the pass lands."""
    a, b = await two(make_world, deal=stacked(SCENE_PONG))
    table = await a.table(options=TIMERS)
    await b.service.act(by(ANN), table, D(0, "9m"), step=1)
    await a.service.act(by(CID), table, P(2), step=2)
    assert await _hand_log(a, table) == [(0, "player"), (2, "player")]
    await refused("stale", a.service.act(by(CID), table, P(2), step=2))  # it stands


async def test_a_click_s_move_on_a_table_changed_elsewhere_fails_its_check_and_lands_after(
        make_world: MakeWorld) -> None:
    """Memory agrees with the click, but another process changed the table (a standing
    choice): the move's compare-and-set on the counter fails, nothing is written, the
    table is reloaded and the click lands on what is stored."""
    a, b = await two(make_world, deal=stacked(SCENE_PONG))
    table = await a.table(options=TIMERS)
    await b.service.set_choice(by(BOB), table, "pass_claims", True)
    await a.service.act(by(ANN), table, D(0, "9m"), step=1)
    assert await _hand_log(a, table) == [(0, "player")]
    live = a.service._tables[table]
    assert live.seats[1] is not None and live.seats[1].choices.pass_claims
    assert live.version == await a.store.processes.table_version(table)


async def test_a_survivor_dms_the_decisions_a_killed_process_left_untold(
        make_world: MakeWorld) -> None:
    """a commits a move and is killed before its DMs: once a's heartbeat has stopped for
    two leases, b (one survivor, once) DMs the decision a left untold."""
    options = {"deal": stacked(SCENE_PONG), "claim_lease": 30.0}
    clock = FakeClock()
    a = await make_world(clock, shared=True, **options)
    b = await make_world(clock, shared=True, **options)
    await a.service.recover()
    await b.service.recover()
    table = await a.table(options={"turn_timer": 600, "claim_timer": 600})
    for i, n in enumerate(a.notes.of("private_hand")):  # Ann's turn reached her
        if n.step is not None:
            await a.store.presenter.swap_dm_message(table, n.seat, 100 + i, (1 << 32) + n.step)
    lost = RecordingNotifier()
    a.service.notifier = lost                        # a dies before telling anyone
    await a.service.act(by(ANN), table, D(0, "9m"), step=1)
    owed = {(n.seat, n.step) for n in lost.of("private_hand") if n.step is not None}
    assert owed
    b.notes.clear()
    clock.advance(40)
    await b.service.run_due()                        # a seen 40 s ago: maybe alive
    assert b.notes.of("private_hand") == []
    clock.advance(30)
    await b.service.run_due()                        # 70 s: a is dead, b takes over
    resent = [n for n in b.notes.of("private_hand") if n.resent]
    assert {(n.seat, n.step) for n in resent} == owed
    assert len(resent) == len(owed)
    clock.advance(30)
    await b.service.run_due()                        # taken over once
    assert len(b.notes.of("private_hand")) == len(owed)


async def test_after_every_process_was_down_the_first_to_start_dms_what_was_lost(
        make_world: MakeWorld) -> None:
    options = {"deal": stacked(SCENE_PONG), "claim_lease": 30.0}
    clock = FakeClock()
    a = await make_world(clock, shared=True, **options)
    await a.service.recover()
    table = await a.table(options={"turn_timer": 6000, "claim_timer": 6000})
    lost = RecordingNotifier()
    a.service.notifier = lost                        # a dies before telling anyone
    await a.service.act(by(ANN), table, D(0, "9m"), step=1)
    owed = {(n.seat, n.step) for n in lost.of("private_hand") if n.step is not None}
    clock.advance(600)                               # nobody ran meanwhile
    b = await make_world(clock, shared=True, **options)
    await b.service.recover()
    assert await b.service.resend_dms() == len(owed)
    assert {(n.seat, n.step) for n in b.notes.of("private_hand") if n.resent} == owed
    clock.advance(10)
    await b.service.run_due()                        # a's row is gone: not taken over again
    assert len(b.notes.of("private_hand")) == len(owed)


async def test_a_claim_answered_in_advance_on_one_process_is_played_by_the_other(
        make_world: MakeWorld) -> None:
    """Cid's "pong 9m" is set through a; b, which had the table in memory, reloads it
    with the answer and the window closes at once with Cid's pong, played once."""
    a, b = await two(make_world, deal=stacked(SCENE_PONG))
    table = await a.table(options=TIMERS)
    await b.service.table_info(table)
    await a.service.set_claim_answers(by(CID), table, {tile_from_notation("9m"): ActionKind.PONG})
    await b.service.act(by(ANN), table, D(0, "9m"), step=1)
    for _ in range(3):
        await asyncio.gather(a.service.run_due(), b.service.run_due())
    actions = await a.store.log.actions(known(await a.store.hands.live(table)).id)
    assert [(x.seat, x.kind, x.source) for x in actions] == [(0, "discard", "player"),
                                                             (2, "pong", "player")]
    assert (await a.service.table_info(table)).deciding == (2,)


async def test_a_pong_then_discard_set_on_one_process_is_played_by_the_other(
        make_world: MakeWorld) -> None:
    """Cid's "pong 9m, then 1z" (its discard named from the follow-up menu, a fenced
    write of its own) set through a; b plays the window, the pong and the discard."""
    a, b = await two(make_world, deal=stacked(SCENE_PONG))
    table = await a.table(options=TIMERS)
    await b.service.table_info(table)
    nine, east = tile_from_notation("9m"), tile_from_notation("1z")
    await a.service.set_claim_answers(by(CID), table, {nine: ActionKind.PONG})
    await a.service.set_claim_discard(by(CID), table, nine, east)
    await b.service.act(by(ANN), table, D(0, "9m"), step=1)
    for _ in range(4):
        await asyncio.gather(a.service.run_due(), b.service.run_due())
    actions = await a.store.log.actions(known(await a.store.hands.live(table)).id)
    assert [(x.seat, x.kind, x.source) for x in actions] == [
        (0, "discard", "player"), (2, "pong", "player"), (2, "discard", "player")]
    assert (await b.service.hand(by(CID), table)).answers == (
        (nine, ClaimAnswer(ActionKind.PONG, then=east)),)


async def test_a_next_discard_chosen_on_one_process_is_played_by_the_other(
        make_world: MakeWorld) -> None:
    """Pre-moves (issue 30): chosen through b (a fenced write), honoured by a, whose
    memory reloads the table with it; the move that plays it clears it for both."""
    hands = {0: QUIET[0] + "9m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    a, b = await two(make_world, deal=lambda rules, dealer: deal_of(
        stack_wall(rules, hands, dealer, draws="9s")))
    table = await a.table(options=TIMERS)
    await b.service.set_next_discard(by(BOB), table, tile_from_notation("1z"))
    await a.service.act(by(ANN), table, D(0, "9m"), step=1)  # a reloads first: sees it
    await asyncio.gather(a.service.run_due(), b.service.run_due())
    hand = known(await a.store.hands.live(table))
    assert [(x.seat, x.kind, x.payload.get("tile"), x.source)
            for x in await a.store.log.actions(hand.id)] == \
        [(0, "discard", "9m", "player"), (1, "discard", "1z", "player")]
    assert await a.store.premoves.of_hand(hand.id) == {}
    assert (await b.service.hand(by(BOB), table)).next_discard is None


async def test_or_my_draw_switched_on_one_process_is_honoured_by_the_other(
        make_world: MakeWorld) -> None:
    """Bob chooses 2m through a, switches "or my draw" off through b (fenced writes):
    a, which plays his turn, throws exactly 2m although the 7z drawn helps less."""
    hands = {0: QUIET[0] + "9m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    a, b = await two(make_world, deal=lambda rules, dealer: deal_of(
        stack_wall(rules, hands, dealer, draws="7z")))
    table = await a.table(options=TIMERS)
    await a.service.set_next_discard(by(BOB), table, tile_from_notation("2m"))
    switched = await b.service.set_next_or_draw(by(BOB), table, False)
    assert not switched.or_draw
    assert not known((await a.service.hand(by(BOB), table)).next_discard).or_draw
    await a.service.act(by(ANN), table, D(0, "9m"), step=1)
    await asyncio.gather(a.service.run_due(), b.service.run_due())
    hand = known(await a.store.hands.live(table))
    assert [(x.seat, x.kind, x.payload.get("tile"))
            for x in await a.store.log.actions(hand.id)] == \
        [(0, "discard", "9m"), (1, "discard", "2m")]
