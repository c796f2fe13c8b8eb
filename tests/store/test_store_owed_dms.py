"""What a crash may leave untold (0011, 0013): the people's pending decisions newer than
the step their stored DM shows (`Presenter.owed_dms`), and the dead processes a survivor takes
over, each by one (`Processes.take_dead`)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from bot.store import HandRow, NewDeadline, NewHand, OwedDm, Store, TableRow, load_migrations
from tests.store.helpers import NewGame

ROOT = Path(__file__).resolve().parents[2]


def _order(hand: int, step: int) -> int:
    return (hand << 32) + step


async def test_a_decision_newer_than_the_seat_s_dm_is_owed(store: Store, new_game: NewGame
                                                             ) -> None:
    game = await new_game(users=(1, 2, 3))            # seat 3 is a computer
    table, hand = game.table.id, game.hand.id
    await store.deadlines.replace(hand, [
        NewDeadline(0, 5, "turn", 110.0, 700.0), NewDeadline(1, 5, "claim", 110.0, 700.0),
        NewDeadline(2, 5, "claim", 120.0, 700.0), NewDeadline(3, 5, "computer", 110.0, 111.0)])
    assert await store.presenter.owed_dms() == [OwedDm(table, s, 1, 5) for s in (0, 1, 2)]
    await store.presenter.swap_dm_message(table, 0, 900, _order(1, 5))   # seat 0's DM is current
    await store.presenter.swap_dm_message(table, 1, 901, _order(1, 4))   # seat 1's is a step behind
    await store.presenter.swap_dm_message(table, 1, None, None)          # no decision: keeps step 4
    await store.lobby.set_dm_closed(table, 2, True)                  # seat 2: the channel's
    assert await store.presenter.owed_dms() == [OwedDm(table, 1, 1, 5)]
    assert await store.presenter.owed_dms(set_before=109.0) == []
    await store.lobby.set_dm_closed(table, 2, False)
    await store.lobby.set_away(table, 1, True)                       # the computer plays it
    assert await store.presenter.owed_dms(set_before=115.0) == []
    assert await store.presenter.owed_dms() == [OwedDm(table, 2, 1, 5)]


async def test_one_process_s_dm_write_clears_what_it_shows(store: Store,
                                                          new_game: NewGame) -> None:
    """`set_dm_message` (one process's DM, one statement without reading the seat)
    still fires migration 0035's trigger: the decisions its step shows are no longer
    owed, a newer one still is, and an older step written late owes nothing again."""
    game = await new_game(users=(1, 2, 3, 4))
    table, hand = game.table.id, game.hand.id
    await store.deadlines.replace(hand, [NewDeadline(0, 5, "turn", 110.0, 700.0),
                                         NewDeadline(1, 6, "claim", 110.0, 700.0)])
    assert await store.presenter.owed_dms() == [OwedDm(table, 0, 1, 5), OwedDm(table, 1, 1, 6)]
    await store.presenter.set_dm_message(table, 0, 900, _order(1, 5))
    await store.presenter.set_dm_message(table, 1, 901, _order(1, 5))  # a step behind
    assert await store.presenter.owed_dms() == [OwedDm(table, 1, 1, 6)]
    await store.presenter.set_dm_message(table, 1, 902, _order(1, 6))
    await store.presenter.set_dm_message(table, 1, 903, _order(1, 4))  # late: nothing
    assert await store.presenter.owed_dms() == []
    got = await store.presenter.view_messages(table)
    assert [(r["dm_message_id"], r["dm_order"]) for r in got[:2]] == [
        (900, _order(1, 5)), (902, _order(1, 6))]


async def test_each_dead_process_is_taken_over_once(store: Store) -> None:
    await store.processes.beat("a", 10.0)
    await store.processes.beat("b", 50.0)
    await store.processes.beat("c", 90.0)
    assert await store.processes.take_dead(60.0) == [("a", 10.0), ("b", 50.0)]
    assert await store.processes.take_dead(60.0) == []
    assert await store.processes.seen(0.0, besides="x") == ["c"]


async def _dealt_before(tmp_path: Path, before: str) -> tuple[Path, TableRow, HandRow]:
    """A SQLite database migrated up to (not including) migration ``before``, with a
    table of four dealt its first hand by today's store: its file, table and hand."""
    folder = tmp_path / "migrations"
    folder.mkdir()
    for sql in sorted((ROOT / "migrations").glob("00*.sql")):
        if sql.name < before:
            shutil.copy(sql, folder / sql.name)
    path = tmp_path / "old.sqlite3"
    old = await Store.open(path, migrations=load_migrations(folder))
    table = await old.lobby.create_table(guild_id=1, channel_id=2, creator_id=1, rules="shanghai",
                                         at=1.0)
    for seat in range(4):
        await old.lobby.sit(table.id, seat, user_id=seat + 1, display_name=f"P{seat}", at=2.0)
    match = await old.matches.create(table.id, first_dealer=0, at=3.0)
    hand = await old.matches.deal(match.id, NewHand("1m" * 72, "ab" * 16, "0" * 64, dice=(3, 5),
                                                    dealer=0, streak=0, huangfan=0), at=4.0)
    await old.close()
    return path, table, hand


async def test_the_upgrade_counts_the_decisions_pending_as_dmed(tmp_path: Path) -> None:
    """A single bot kept no ``dm_order`` before 0013: the first start after the upgrade
    must not DM every deciding player again."""
    path, table, hand = await _dealt_before(tmp_path, "0013")
    # the deadline as that version wrote it: today's store writes columns it had not
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO deadlines (hand_id, seat, seq, kind, set_at, due_at)"
                   " VALUES (?, 0, 1, 'turn', 5.0, 600.0)", (hand.id,))
    db.close()
    new = await Store.open(path)
    try:
        assert await new.presenter.owed_dms() == []
        rows = await new.presenter.view_messages(table.id)
        assert {r["seat"]: r["dm_order"] for r in rows} == {0: _order(1, 1), 1: None,
                                                           2: None, 3: None}
    finally:
        await new.close()


async def test_only_the_decisions_whose_dm_may_be_owed_are_read(store: Store, new_game: NewGame
                                                               ) -> None:
    """Migration 0035: each decision is marked owed when set (``dm_owed``) and unmarked
    once its seat's DM shows it, so the start-up's `owed_dms` reads the marked ones
    through a partial index, never every live table's decisions; what it finds is the
    same as judging every decision."""
    from bot.store.presenter import OWED_DMS

    game = await new_game(users=(1, 2, 3))
    table, hand = game.table.id, game.hand.id

    async def marked() -> dict[int, int]:
        async with store._db.read() as db:  # the test's own look at the marks
            rows = await db.all("SELECT seat, dm_owed FROM deadlines WHERE hand_id = ?",
                                (hand,))
        return {int(r["seat"]): int(r["dm_owed"]) for r in rows}

    await store.deadlines.replace(hand, [NewDeadline(0, 5, "turn", 110.0, 700.0),
                                         NewDeadline(1, 5, "claim", 110.0, 700.0)])
    assert await marked() == {0: 1, 1: 1}
    await store.presenter.swap_dm_message(table, 0, 900, _order(1, 5))   # shows step 5
    await store.presenter.swap_dm_message(table, 1, 901, _order(1, 4))   # a step behind
    assert await marked() == {0: 0, 1: 1}
    assert await store.presenter.owed_dms() == [OwedDm(table, 1, 1, 5)]
    await store.deadlines.set(hand, 0, seq=7, kind="turn", set_at=120.0, due_at=700.0)
    assert await marked() == {0: 1, 1: 1}                          # a new decision: owed
    assert await store.presenter.owed_dms() == [OwedDm(table, 0, 1, 7), OwedDm(table, 1, 1, 5)]
    await store.presenter.swap_dm_message(table, 0, 902, _order(1, 7))
    await store.presenter.swap_dm_message(table, 1, 903, _order(1, 7))
    assert await marked() == {0: 0, 1: 0} and await store.presenter.owed_dms() == []
    # written again (a claim window's replace rewrites every seat): their DMs show them
    await store.deadlines.replace(hand, [NewDeadline(0, 7, "turn", 120.0, 700.0),
                                         NewDeadline(1, 7, "claim", 130.0, 700.0)])
    assert await marked() == {0: 0, 1: 0} and await store.presenter.owed_dms() == []
    # a restored backup: every decision is owed its DM again (the marks with it)
    await store.maintenance.after_restore(35, 200.0)
    assert await marked() == {0: 1, 1: 1}
    assert await store.presenter.owed_dms() == [OwedDm(table, 0, 1, 7), OwedDm(table, 1, 1, 7)]
    query = f"SELECT m.table_id {OWED_DMS} ORDER BY m.table_id, d.seat"
    async with store._db.write() as db:  # the test's own look at the plan
        if store.dialect == "sqlite":
            rows = await db.all(f"EXPLAIN QUERY PLAN {query}")
        else:  # a small table: a sequential scan would win, so rule it out
            await db.run("SET LOCAL enable_seqscan = off")
            rows = await db.all(f"EXPLAIN {query}")
    plan = " ".join(str(r[k]) for r in rows for k in r.keys())  # noqa: SIM118 (a Row is no mapping)
    assert "deadlines_dm_owed" in plan, plan


async def test_the_upgrade_marks_the_decisions_whose_dm_is_owed(tmp_path: Path) -> None:
    """0035 on a database of today's code: a decision the seat's DM shows is not marked,
    one it does not show is, so the first start after the upgrade DMs it as before."""
    path, table, hand = await _dealt_before(tmp_path, "0035")
    with sqlite3.connect(path) as db:  # as that version wrote them
        db.executemany("INSERT INTO deadlines (hand_id, seat, seq, kind, set_at, due_at)"
                       " VALUES (?, ?, 3, 'claim', 5.0, 600.0)",
                       [(hand.id, 0), (hand.id, 1)])
        db.execute("UPDATE seats SET dm_order = ? WHERE table_id = ? AND seat = 0",
                   (_order(1, 3), table.id))
    db.close()
    new = await Store.open(path)
    try:
        assert await new.presenter.owed_dms() == [OwedDm(table.id, 1, 1, 3)]
        assert await new.deadlines.stranded() == []
    finally:
        await new.close()
