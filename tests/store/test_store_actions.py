"""The action log: append is a compare-and-set, exactly one of two racing clicks lands."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.store import (
    ActionRow,
    ConstraintError,
    HandEnded,
    NewDeadline,
    NotFound,
    StaleAction,
    Store,
    StoreError,
)
from bot.store.sqlite import SqliteDatabase
from tests.store.helpers import NewGame, sqlite_only


async def test_first_action_is_one_and_seqs_follow(store: Store, new_game: NewGame) -> None:
    hand = (await new_game()).hand
    assert await store.log.next_seq(hand.id) == 1
    first = await store.log.append(hand.id, 1, 0, "discard", {"tile": "5z"}, "player", 110.0)
    assert first == ActionRow(hand.id, 1, 0, "discard", {"tile": "5z"}, "player", 110.0)
    await store.log.append(hand.id, 2, 1, "pass", {}, "timeout", 111.0)
    await store.log.append(hand.id, 3, 2, "discard", {"tile": "1m"}, "computer", 112.5)
    log = await store.log.actions(hand.id)
    assert [(a.seq, a.seat, a.kind, a.source) for a in log] == [
        (1, 0, "discard", "player"), (2, 1, "pass", "timeout"), (3, 2, "discard", "computer")]
    assert log[0] == first
    assert [a.seq for a in await store.log.actions(hand.id, after=1)] == [2, 3]
    assert await store.log.next_seq(hand.id) == 4


@pytest.mark.parametrize("seq", [0, 2, -1])
async def test_wrong_seq_is_stale_and_writes_nothing(store: Store, new_game: NewGame,
                                                     seq: int) -> None:
    hand = (await new_game()).hand
    with pytest.raises(StaleAction) as info:
        await store.log.append(hand.id, seq, 0, "discard", {}, "player", 110.0)
    assert isinstance(info.value, StoreError)
    assert (info.value.expected_seq, info.value.next_seq) == (seq, 1)
    assert await store.log.actions(hand.id) == []


async def test_replayed_seq_is_stale(store: Store, new_game: NewGame) -> None:
    hand = (await new_game()).hand
    await store.log.append(hand.id, 1, 0, "discard", {"tile": "5z"}, "player", 110.0)
    with pytest.raises(StaleAction, match="action 1 is stale, the next action is 2"):
        await store.log.append(hand.id, 1, 0, "discard", {"tile": "1m"}, "player", 110.1)
    assert [a.payload for a in await store.log.actions(hand.id)] == [{"tile": "5z"}]


async def test_racing_tasks_on_one_store(store: Store, new_game: NewGame) -> None:
    hand = (await new_game()).hand
    results = await asyncio.gather(
        *(store.log.append(hand.id, 1, seat, "pong", {"n": seat}, "player", 110.0)
          for seat in range(4)), return_exceptions=True)
    landed = [r for r in results if isinstance(r, ActionRow)]
    assert len(landed) == 1
    assert sum(isinstance(r, StaleAction) for r in results) == 3
    assert await store.log.actions(hand.id) == landed


async def test_racing_connections(store: Store, database: Path | str,
                                  new_game: NewGame) -> None:
    """Two processes' worth of connections: the write lock (SQLite) or the hand's row
    lock (PostgreSQL) makes it a true CAS."""
    hand = (await new_game()).hand
    other = await Store.open(database)
    try:
        for seq in (1, 2, 3):
            results = await asyncio.gather(
                store.log.append(hand.id, seq, 0, "a", {"by": "first"}, "player", 110.0),
                other.log.append(hand.id, seq, 1, "b", {"by": "other"}, "player", 110.0),
                return_exceptions=True)
            assert sum(isinstance(r, ActionRow) for r in results) == 1, results
            assert sum(isinstance(r, StaleAction) for r in results) == 1, results
        assert [a.seq for a in await other.log.actions(hand.id)] == [1, 2, 3]
    finally:
        await other.close()


async def test_no_action_after_the_end(store: Store, new_game: NewGame) -> None:
    hand = (await new_game()).hand
    await store.endings.finish_hand(hand.id, None, settlements=[], deltas=[], at=120.0)
    with pytest.raises(HandEnded):
        await store.log.append(hand.id, 1, 0, "discard", {}, "player", 121.0)
    with pytest.raises(NotFound):
        await store.log.append(9999, 1, 0, "discard", {}, "player", 121.0)


async def test_an_ended_hand_refuses_as_ended_whatever_the_seq(
        store: Store, new_game: NewGame, database: Path | str) -> None:
    """The hand's being live is checked before the seq (SQLite: inside the action's
    insert, told on the rare path): a move on an ended hand is `HandEnded` whether its
    seq is the next or a stale one, with this process's digest known or not (another
    process, or after a restart)."""
    hand = (await new_game()).hand
    await store.log.append(hand.id, 1, 0, "discard", {"tile": "5z"}, "player", 110.0)
    await store.endings.finish_hand(hand.id, None, settlements=[], deltas=[], at=120.0)
    for seq in (2, 1, 3):
        with pytest.raises(HandEnded):
            await store.log.append(hand.id, seq, 1, "discard", {}, "player", 121.0)
    other = await Store.open(database)
    try:
        for seq in (2, 1):
            with pytest.raises(HandEnded):
                await other.log.append(hand.id, seq, 1, "discard", {}, "player", 121.0)
        with pytest.raises(NotFound):
            await other.log.append(9999, 2, 0, "discard", {}, "player", 121.0)
    finally:
        await other.close()
    assert [a.seq for a in await store.log.actions(hand.id)] == [1]


@sqlite_only  # the statements SQLite's loop connection runs
async def test_a_move_on_sqlite_checks_the_hand_inside_its_insert(
        store: Store, new_game: NewGame) -> None:
    """SQLite's write lock holds the whole file: the hand's being live is a condition of
    the action's insert, not a statement of its own before it (every click, issue 32)."""
    hand = (await new_game()).hand
    assert isinstance(store._db, SqliteDatabase)
    await store.log.append(hand.id, 1, 0, "discard", {"tile": "5z"}, "player", 110.0)
    quick = store._db._loop_connection()
    assert quick is not None
    ran: list[str] = []
    quick.set_trace_callback(ran.append)
    await store.log.append(hand.id, 2, 1, "pass", {}, "player", 111.0,
                           deadlines=[NewDeadline(2, 3, "turn", 111.0, 170.0)])
    quick.set_trace_callback(None)
    assert [r.split(" (")[0].split(" WHERE")[0] for r in ran] == [
        "BEGIN IMMEDIATE", "INSERT INTO actions", "DELETE FROM deadlines",
        "INSERT INTO deadlines", "COMMIT"]
    assert [a.seq for a in await store.log.actions(hand.id)] == [1, 2]


@pytest.mark.parametrize(("seat", "source"), [(4, "player"), (0, "magic")])
async def test_malformed_action_is_refused(store: Store, new_game: NewGame, seat: int,
                                           source: str) -> None:
    hand = (await new_game()).hand
    with pytest.raises(ConstraintError):
        await store.log.append(hand.id, 1, seat, "discard", {}, source,  # type: ignore[arg-type]  # bad
                               110.0)
    assert await store.log.next_seq(hand.id) == 1


async def test_action_and_its_deadlines_in_one_write(store: Store, new_game: NewGame) -> None:
    hand = (await new_game()).hand
    await store.deadlines.set(hand.id, 0, seq=1, kind="turn", set_at=105.0, due_at=200.0)
    claims = [NewDeadline(1, 2, "claim", 110.0, 170.0), NewDeadline(3, 2, "computer", 110.0,
                                                                    112.0)]
    await store.log.append(hand.id, 1, 0, "discard", {"tile": "5z"}, "player", 110.0,
                           deadlines=claims)
    assert [(d.seat, d.seq, d.kind) for d in await store.deadlines.all(hand.id)] == [
        (3, 2, "computer"), (1, 2, "claim")]

    bad = [NewDeadline(2, 3, "nap", 111.0, 180.0)]  # type: ignore[arg-type]  # on purpose
    with pytest.raises(ConstraintError):
        await store.log.append(hand.id, 2, 1, "pass", {}, "player", 111.0, deadlines=bad)
    assert await store.log.next_seq(hand.id) == 2  # the action did not land either
    assert len(await store.deadlines.all(hand.id)) == 2


@sqlite_only  # the thread hop it counts is aiosqlite's
async def test_a_move_is_no_round_trip_to_the_database_thread(
        store: Store, new_game: NewGame, monkeypatch: pytest.MonkeyPatch) -> None:
    """On every click's path: the whole transaction (checks, the action, its deadlines)
    runs on the event loop's own thread when the database is free, not handed to
    aiosqlite's thread; a stale move is refused there as well."""
    hand = (await new_game()).hand
    assert isinstance(store._db, SqliteDatabase)
    connection = store._db.connection
    calls = []
    handed: Callable[..., Awaitable[object]] = connection._execute  # aiosqlite's, untyped

    async def counted(fn: object, *args: object, **kwargs: object) -> object:
        calls.append(fn)
        return await handed(fn, *args, **kwargs)

    monkeypatch.setattr(connection, "_execute", counted)
    claims = [NewDeadline(1, 2, "claim", 110.0, 170.0), NewDeadline(2, 2, "claim", 110.0,
                                                                    170.0)]
    await store.log.append(hand.id, 1, 0, "discard", {"tile": "5z"}, "player", 110.0,
                           deadlines=claims)
    with pytest.raises(StaleAction):
        await store.log.append(hand.id, 1, 0, "discard", {"tile": "5z"}, "player", 110.0)
    assert calls == []
    monkeypatch.undo()
    assert await store.log.next_seq(hand.id) == 2
    assert [d.seat for d in await store.deadlines.all(hand.id)] == [1, 2]


@sqlite_only  # SQLite's write lock
async def test_a_move_waits_for_another_connections_write_on_the_database_thread(
        store: Store, new_game: NewGame, db_path: Path) -> None:
    """When another connection (another process in shared mode) holds SQLite's write
    lock, the loop's connection does not wait for it (that would stop the event loop):
    the move goes to aiosqlite's thread, which waits, and lands after the other commits."""
    hand = (await new_game()).hand
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("UPDATE hands SET streak = streak + 5 WHERE id = ?", (hand.id,))
        move = asyncio.create_task(store.log.append(hand.id, 1, 0, "discard",
                                                    {"tile": "5z"}, "player", 110.0))
        for _ in range(10):
            await asyncio.sleep(0.005)  # the loop stays free meanwhile
        assert not move.done()
        other.execute("COMMIT")
        landed = await move
    finally:
        other.close()
    assert landed.seq == 1 and [a.seq for a in await store.log.actions(hand.id)] == [1]
    row = await store._db.one("SELECT streak FROM hands WHERE id = ?", (hand.id,))
    assert row is not None and row[0] >= 5  # the other's write kept too


@sqlite_only  # the queue to the connection's thread is aiosqlite's
async def test_a_move_waits_for_a_transaction_of_several_trips(
        store: Store, new_game: NewGame) -> None:
    """A move handed over whole does not wait at the connection's lock when no other
    transaction is open, but never lands inside one that is: it runs after the open
    one ends (here rolled back, taking only its own write with it)."""
    hand = (await new_game()).hand
    await store.log.append(hand.id, 1, 0, "discard", {"tile": "5z"}, "player", 110.0)
    move: asyncio.Task[ActionRow] | None = None

    class Undone(Exception):
        pass

    with pytest.raises(Undone):
        async with store._db.write() as db:
            await db.run("UPDATE hands SET streak = streak + 5 WHERE id = ?", (hand.id,))
            move = asyncio.create_task(store.log.append(
                hand.id, 2, 1, "pass", {}, "player", 111.0))
            for _ in range(20):
                await asyncio.sleep(0.005)  # the thread would run it now, if queued
            assert not move.done()
            await db.run("UPDATE hands SET streak = streak + 5 WHERE id = ?", (hand.id,))
            raise Undone
    assert move is not None
    landed = await move
    assert [a.seq for a in await store.log.actions(hand.id)] == [1, 2] and landed.seq == 2
    after = await store.hands.get(hand.id)
    assert after is not None and after.streak == hand.streak
    # with nothing open, moves on several hands at once all land, each whole
    others = [(await new_game(c)).hand for c in range(900, 905)]
    rows = await asyncio.gather(*(store.log.append(h.id, 1, 0, "discard", {"tile": "1m"},
                                                   "player", 112.0) for h in others))
    assert [r.hand_id for r in rows] == [h.id for h in others]
