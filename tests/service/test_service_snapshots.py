"""A restart resumes live hands from their state snapshots (bot/service/snapshots.py)
and falls back to replaying the log whenever a snapshot does not check out: the state
rebuilt is always the log's replay."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.service import FakeClock
from bot.service.fairness import parse_wall
from bot.service.live import step_of
from bot.service.snapshots import engine_version
from bot.store import state_digest
from engine.game import Action, HandState, deciding_seats, legal_actions, replay
from engine.game.snapshot import SNAPSHOT_FORMAT
from tests.narrowing import known
from tests.service.helpers import ANN, BOB, CID, DEE, World, by

OPTIONS = {"turn_timer": 3600, "claim_timer": 3600}
MakeWorld = Callable[..., Awaitable[World]]


async def play(world: World, table: int, moves: int, rng: random.Random) -> None:
    """``moves`` seeded random legal moves (claims, kongs, passes and discards alike),
    stopping early if the hand would end (the next one is dealt then: not the point)."""
    users = (ANN, BOB, CID, DEE)
    for _ in range(moves):
        live = world.service._tables[table]
        assert live.hand is not None
        state = live.hand.state
        seat = rng.choice(deciding_seats(state))
        choices = [a for a in legal_actions(state, seat) if a.kind.value != "win"]
        if not choices:
            return
        await world.service.act(by(users[seat]), table, rng.choice(choices),
                                step=step_of(state, seat))


async def truth(world: World, table: int) -> HandState:
    """The hand as its whole log replays it (what any rebuild must equal)."""
    hand = await world.store.hands.live(table)
    row = await world.store.lobby.get_table(table)
    assert hand is not None and row is not None
    actions = [Action.from_json(a.payload) for a in await world.store.log.actions(hand.id)]
    return replay(row.rules, row.options, parse_wall(hand.wall), hand.dice, hand.dealer,
                  actions, streak=hand.streak, huangfan=hand.huangfan > 0)


async def restart(make_world: MakeWorld, old: World, **kwargs: Any) -> World:
    await old.store.close()
    return await make_world(FakeClock(old.clock.now() + 60.0), **kwargs)


def state_of(world: World, table: int) -> HandState:
    hand = world.service._tables[table].hand
    assert hand is not None
    return hand.state


async def one_table(make_world: MakeWorld, moves: int = 10, seed: int = 1
                    ) -> tuple[World, int]:
    world = await make_world()
    table = await world.table(options=OPTIONS)
    await play(world, table, moves, random.Random(seed))
    return world, table


async def test_a_restart_resumes_every_hand_from_its_snapshot_as_its_log_replays_it(
        make_world: MakeWorld) -> None:
    world = await make_world()
    rng = random.Random(11)
    tables = [await world.table(rules=("shanghai", "hangzhou")[k % 2], options=OPTIONS,
                                channel=100 + k) for k in range(8)]
    for table in tables:
        await play(world, table, rng.randrange(4, 40), rng)
    world = await restart(make_world, world)
    await world.service.recover(eager=True)
    assert world.service.tables.resumed == len(tables)
    for table in tables:
        assert state_of(world, table) == await truth(world, table)
    for table in tables:  # and play goes on from there as from the log
        await play(world, table, 5, rng)
    world = await restart(make_world, world, use_snapshots=False)
    await world.service.recover(eager=True)
    for table in tables:
        assert state_of(world, table) == await truth(world, table)


async def test_a_table_loaded_on_first_use_resumes_from_its_snapshot(
        make_world: MakeWorld) -> None:
    world, table = await one_table(make_world, 13)
    world = await restart(make_world, world)
    await world.service.recover()
    await world.service.table_info(table)
    assert world.service.tables.resumed == 1
    assert state_of(world, table) == await truth(world, table)


async def snapshot_sql(world: World, sql: str, *params: object) -> None:
    await world.store._db.execute(sql, params)  # the test's own hand on the file


TAMPERING: dict[str, tuple[str, ...] | tuple[str, None]] = {
    "damaged text": ("UPDATE hand_snapshots SET state = replace(state, '|', ',')",),
    # resealed, so that only the version tells it apart
    "another engine's": ("UPDATE hand_snapshots SET version = '1-0123456789ab',"
                         " state_digest = ?", None),
    "missing": ("DELETE FROM hand_snapshots",),
}


@pytest.mark.parametrize("what", sorted(TAMPERING))
async def test_a_snapshot_that_does_not_check_out_falls_back_to_the_log(
        make_world: MakeWorld, caplog: pytest.LogCaptureFixture, what: str) -> None:
    world, table = await one_table(make_world, 10)
    sql, *params = TAMPERING[what]
    if params:
        [snap] = await world.store.log.snapshots(known(await world.store.hands.live(table)).id)
        params = [state_digest("1-0123456789ab", snap.state)]
    await snapshot_sql(world, sql, *params)
    world = await restart(make_world, world)
    with caplog.at_level(logging.WARNING):
        await world.service.recover(eager=True)
    assert world.service.tables.resumed == 0
    assert state_of(world, table) == await truth(world, table)
    if what != "missing":
        assert "not used" in caplog.text


async def test_a_resealed_snapshot_that_decodes_to_nonsense_falls_back_to_the_log(
        make_world: MakeWorld) -> None:
    world, table = await one_table(make_world, 10)
    [snap] = await world.store.log.snapshots(known(await world.store.hands.live(table)).id)
    fields = snap.state.split("|")
    fields[7] = "9"  # the turn of a seat that does not exist
    bad = "|".join(fields)
    await snapshot_sql(world, "UPDATE hand_snapshots SET state = ?, state_digest = ?",
                       bad, state_digest(snap.version, bad))
    world = await restart(make_world, world)
    await world.service.recover(eager=True)
    assert world.service.tables.resumed == 0
    assert state_of(world, table) == await truth(world, table)


FORMAT_1 = ('{"format":1,"seq":%d,"front":60,"back":1,"flipped":null,"set_aside":"",'
            '"phase":"turn","turn":1,"window":null,"replacement":null,'
            '"first_go_round":false,"claims":[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],'
            '"zhua_da":null,"seats":[]}')
"""A format 1 text (JSON, written up to session 8), as a store upgraded may hold."""


@pytest.mark.parametrize("version", ["1-0123456789abcdef01234567", "this engine's"])
async def test_a_format_1_snapshot_is_ignored_and_the_log_replayed(
        make_world: MakeWorld, caplog: pytest.LogCaptureFixture, version: str) -> None:
    # written by the engine before (its version), or even sealed as this engine's: the
    # text is refused by its format, the log is replayed, nothing fails
    world, table = await one_table(make_world, 10)
    [snap] = await world.store.log.snapshots(known(await world.store.hands.live(table)).id)
    version = snap.version if version == "this engine's" else version
    text = FORMAT_1 % snap.seq
    await snapshot_sql(world, "UPDATE hand_snapshots SET version = ?, state = ?,"
                              " state_digest = ?", version, text, state_digest(version, text))
    world = await restart(make_world, world)
    with caplog.at_level(logging.WARNING):
        await world.service.recover(eager=True)
    assert world.service.tables.resumed == 0
    assert "not used" in caplog.text
    assert ("format 1" in caplog.text) == (version == snap.version)
    assert state_of(world, table) == await truth(world, table)


async def test_a_snapshot_of_another_log_falls_back_to_the_log(make_world: MakeWorld) -> None:
    world = await make_world()
    rng = random.Random(5)
    first = await world.table(options=OPTIONS, channel=1)
    second = await world.table(options=OPTIONS, channel=2)
    await play(world, first, 8, rng)
    await play(world, second, 8, rng)
    one = known(await world.store.hands.live(first))
    two = known(await world.store.hands.live(second))
    # the second hand's snapshot replaced by the first's (same seq, its own log digest)
    await snapshot_sql(world, "DELETE FROM hand_snapshots WHERE hand_id = ?", two.id)
    await snapshot_sql(world, "INSERT INTO hand_snapshots SELECT ?, seq, version, log_digest,"
                              " state, state_digest FROM hand_snapshots WHERE hand_id = ?",
                       two.id, one.id)
    world = await restart(make_world, world)
    await world.service.recover(eager=True)
    assert world.service.tables.resumed == 1
    assert state_of(world, second) == await truth(world, second)


async def test_a_snapshot_ahead_of_the_log_falls_back_to_the_log(make_world: MakeWorld) -> None:
    world, table = await one_table(make_world, 9)  # a snapshot at 8, one action after
    hand = known(await world.store.hands.live(table))
    # the log lost its last actions (a backup of the log older than the snapshot, say)
    await snapshot_sql(world, "DELETE FROM actions WHERE hand_id = ? AND seq > 6", hand.id)
    world = await restart(make_world, world)
    await world.service.recover(eager=True)
    assert world.service.tables.resumed == 0
    assert state_of(world, table) == await truth(world, table)
    assert state_of(world, table).seq == 6


async def test_a_snapshot_on_a_log_without_digests_falls_back_to_the_log(
        make_world: MakeWorld, caplog: pytest.LogCaptureFixture) -> None:
    """Actions written before migration 0012 carry no running digest: nothing vouches
    that such a log is the one a snapshot was sealed with, so the log is replayed."""
    world, table = await one_table(make_world, 10)
    hand = known(await world.store.hands.live(table))
    columns = "hand_id, seq, seat, kind, payload, source, at"
    for sql in (f"CREATE TEMP TABLE old_log AS SELECT {columns} FROM actions WHERE hand_id = ?",
                "DELETE FROM actions WHERE hand_id = ?",
                f"INSERT INTO actions ({columns}) SELECT {columns} FROM old_log WHERE hand_id = ?"):
        await snapshot_sql(world, sql, hand.id)
    world = await restart(make_world, world)
    with caplog.at_level(logging.WARNING):
        await world.service.recover(eager=True)
    assert world.service.tables.resumed == 0
    assert "not used" in caplog.text
    assert state_of(world, table) == await truth(world, table)


async def test_moves_after_the_newest_snapshot_are_replayed_on_top_of_it(
        make_world: MakeWorld) -> None:
    """A crash after actions whose snapshot never came (written with every 4th action
    only, or a process that stopped writing them): the snapshot plus the tail."""
    world = await make_world()
    table = await world.table(options=OPTIONS)
    rng = random.Random(3)
    await play(world, table, 8, rng)
    world = await restart(make_world, world, snapshot_every=0)
    await world.service.recover(eager=True)
    await play(world, table, 7, rng)
    hand = known(await world.store.hands.live(table))
    assert [s.seq for s in await world.store.log.snapshots(hand.id)] == [8]
    world = await restart(make_world, world)
    await world.service.recover(eager=True)
    assert world.service.tables.resumed == 1
    assert state_of(world, table) == await truth(world, table)
    assert state_of(world, table).seq == 15


def test_the_engine_version_is_the_format_and_a_fingerprint_of_the_engine_code() -> None:
    version = engine_version()
    assert version.startswith(f"{SNAPSHOT_FORMAT}-") and len(version) == 2 + 24
    assert version == engine_version()


async def test_a_first_use_during_the_eager_batch_waits_for_it_and_loads_nothing(
        make_world: MakeWorld, monkeypatch: pytest.MonkeyPatch) -> None:
    world, table = await one_table(make_world, 6)
    world = await restart(make_world, world)
    store = world.store
    reads: list[list[int]] = []
    entered, release = asyncio.Event(), asyncio.Event()
    real = store.rebuilds.load

    async def slow(ids: Any, **kwargs: Any) -> Any:
        reads.append(sorted(ids))
        entered.set()
        await release.wait()
        return await real(ids, **kwargs)

    monkeypatch.setattr(store.rebuilds, "load", slow)
    recovering = asyncio.create_task(world.service.recover(eager=True))
    await entered.wait()  # the batch has its locks and is reading
    using = asyncio.create_task(world.service.table_info(table))
    for _ in range(20):  # no I/O before the lock: a few turns of the loop reach it
        await asyncio.sleep(0)
    assert not using.done() and reads == [[table]]  # waiting for the batch, not reading
    release.set()
    report = await recovering
    info = await using
    assert report.rebuilt == 1 and reads == [[table]]
    assert info.hand_number == 1
    assert state_of(world, table) == await truth(world, table)
