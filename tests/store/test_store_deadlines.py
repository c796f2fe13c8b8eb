"""Deadlines are rows: set/replace, clear, the earliest, the due ones, restart grace."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import ConstraintError, HandEnded, NewDeadline, NotFound, Store
from tests.store.helpers import NewGame


async def test_set_replace_and_remind(store: Store, new_game: NewGame) -> None:
    game = await new_game()
    d = await store.deadlines.set(game.hand.id, 0, seq=1, kind="turn", set_at=100.0,
                                  due_at=200.0)
    assert (d.hand_id, d.table_id, d.seat, d.seq, d.kind) == (game.hand.id, game.table.id, 0,
                                                               1, "turn")
    assert (d.set_at, d.due_at, d.reminded_at, d.half_at) == (100.0, 200.0, None, 150.0)
    reminded = await store.deadlines.mark_reminded(game.hand.id, 0, 151.0)
    assert reminded.reminded_at == 151.0
    again = await store.deadlines.set(game.hand.id, 0, seq=2, kind="claim", set_at=160.0,
                                      due_at=220.0)
    assert (again.seq, again.kind, again.due_at, again.reminded_at) == (2, "claim", 220.0, None)
    assert await store.deadlines.all(game.hand.id) == [again]
    with pytest.raises(NotFound):
        await store.deadlines.mark_reminded(game.hand.id, 3, 1.0)


async def test_bad_deadlines_are_refused(store: Store, new_game: NewGame) -> None:
    game = await new_game()
    with pytest.raises(ConstraintError):
        await store.deadlines.set(game.hand.id, 0, seq=1, kind="turn", set_at=200.0,
                                  due_at=100.0)  # due before it was set
    with pytest.raises(ConstraintError):
        await store.deadlines.set(game.hand.id, 5, seq=1, kind="turn", set_at=1.0, due_at=2.0)
    with pytest.raises(NotFound):
        await store.deadlines.set(9999, 0, seq=1, kind="turn", set_at=1.0, due_at=2.0)
    assert await store.deadlines.all() == []


async def test_clear_one_and_all(store: Store, new_game: NewGame) -> None:
    game = await new_game()
    await store.deadlines.replace(game.hand.id, [NewDeadline(s, 2, "claim", 100.0, 160.0)
                                                 for s in (1, 2, 3)])
    assert await store.deadlines.clear(game.hand.id, 2)
    assert not await store.deadlines.clear(game.hand.id, 2)
    assert [d.seat for d in await store.deadlines.all(game.hand.id)] == [1, 3]
    assert await store.deadlines.clear_hand(game.hand.id) == 2
    assert await store.deadlines.all() == []


async def test_replace_drops_the_old_ones(store: Store, new_game: NewGame) -> None:
    game = await new_game()
    await store.deadlines.set(game.hand.id, 0, seq=1, kind="turn", set_at=1.0, due_at=9.0)
    rows = await store.deadlines.replace(game.hand.id, [NewDeadline(2, 2, "claim", 5.0, 8.0)])
    assert [(d.seat, d.kind) for d in rows] == [(2, "claim")]
    with pytest.raises(ConstraintError):  # two deadlines for one seat
        await store.deadlines.replace(game.hand.id, [NewDeadline(1, 3, "claim", 5.0, 8.0),
                                                     NewDeadline(1, 3, "turn", 5.0, 8.0)])
    assert await store.deadlines.all(game.hand.id) == rows


async def test_a_replaced_seat_s_deadline_is_new_in_every_column(
        store: Store, new_game: NewGame) -> None:
    """Replacing a hand's deadlines (PostgreSQL: the others deleted and these upserted in
    one statement) leaves each seat's as a new row: not reminded, warned or claimed any
    more, owed its DM afresh; the seats left out lose theirs; a bad one changes nothing."""
    game = await new_game(users=(1, 2, 3, 4))
    hand, table = game.hand.id, game.table.id
    await store.deadlines.replace(hand, [NewDeadline(s, 2, "claim", 100.0, 160.0)
                                         for s in (1, 2, 3)])
    await store.deadlines.mark_warned(hand, 1, 130.0)
    await store.deadlines.claim(200.0, owner="p", until=300.0)
    await store.presenter.swap_dm_message(table, 2, 77, (1 << 32) + 3)  # shows step 3
    rows = await store.deadlines.replace(hand, [NewDeadline(1, 3, "turn", 140.0, 400.0),
                                                NewDeadline(2, 3, "turn", 140.0, 400.0,
                                                            warn_at=350.0)])
    assert [(d.seat, d.seq, d.kind, d.set_at, d.due_at, d.warn_at) for d in rows] == [
        (1, 3, "turn", 140.0, 400.0, None), (2, 3, "turn", 140.0, 400.0, 350.0)]
    assert [(d.reminded_at, d.warned_at, d.claimed_by, d.claimed_until) for d in rows] == [
        (None, None, None, None)] * 2
    owed = await store._db.all("SELECT seat, dm_owed FROM deadlines WHERE hand_id = ?"
                               " ORDER BY seat", (hand,))
    assert [(r["seat"], r["dm_owed"]) for r in owed] == [(1, 1), (2, 0)]  # 2's DM shows it
    with pytest.raises(ConstraintError):  # due before it was set
        await store.deadlines.replace(hand, [NewDeadline(3, 4, "claim", 500.0, 100.0)])
    assert await store.deadlines.all(hand) == rows


async def test_earliest_and_due_across_tables(store: Store, new_game: NewGame) -> None:
    a = await new_game(channel_id=1)
    b = await new_game(channel_id=2, users=(7,))
    assert await store.deadlines.earliest() is None
    await store.deadlines.set(a.hand.id, 0, seq=1, kind="turn", set_at=0.0, due_at=300.0)
    await store.deadlines.set(b.hand.id, 1, seq=4, kind="computer", set_at=0.0, due_at=100.0)
    await store.deadlines.set(b.hand.id, 2, seq=4, kind="claim", set_at=0.0, due_at=200.0)
    earliest = await store.deadlines.earliest()
    assert earliest is not None and (earliest.table_id, earliest.seat) == (b.table.id, 1)
    assert [d.due_at for d in await store.deadlines.due(200.0)] == [100.0, 200.0]
    assert await store.deadlines.due(99.9) == []
    assert [d.due_at for d in await store.deadlines.all()] == [100.0, 200.0, 300.0]


async def test_restart_grace_moves_only_overdue_ones(store: Store, new_game: NewGame) -> None:
    game = await new_game()
    await store.deadlines.replace(game.hand.id, [NewDeadline(0, 1, "turn", 0.0, 50.0),
                                                 NewDeadline(1, 1, "claim", 0.0, 500.0)])
    assert await store.deadlines.defer_overdue(130.0) == 1
    assert [d.due_at for d in await store.deadlines.all(game.hand.id)] == [130.0, 500.0]


async def test_no_deadline_for_an_ended_hand(store: Store, new_game: NewGame) -> None:
    game = await new_game()
    await store.endings.finish_hand(game.hand.id, None, settlements=[], deltas=[], at=150.0)
    with pytest.raises(HandEnded):
        await store.deadlines.set(game.hand.id, 0, seq=1, kind="turn", set_at=1.0, due_at=2.0)
    with pytest.raises(HandEnded):
        await store.deadlines.replace(game.hand.id, [])


async def test_restart_grace_is_for_people_computers_get_their_pause(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    await store.deadlines.replace(game.hand.id, [NewDeadline(0, 1, "turn", 0.0, 50.0),
                                                 NewDeadline(1, 1, "computer", 0.0, 60.0),
                                                 NewDeadline(2, 1, "claim", 0.0, 500.0)])
    assert await store.deadlines.defer_overdue(130.0, computer_until=102.0) == 2
    assert [(d.seat, d.due_at) for d in await store.deadlines.all(game.hand.id)] == \
        [(1, 102.0), (0, 130.0), (2, 500.0)]


async def test_deadlines_are_paged_in_the_order_their_next_moments_come(
        store: Store, new_game: NewGame) -> None:
    """The scheduler reads the next deadlines a page at a time (issue 32): each row's next
    moment (a person's reminder at half time until it went out, then the warning, then
    the deadline), ties broken by hand and seat, never one twice nor one missed."""
    a = await new_game(channel_id=1)
    b = await new_game(channel_id=2, users=(7,))
    await store.deadlines.replace(a.hand.id, [
        NewDeadline(0, 1, "turn", 0.0, 300.0),                   # reminder at 150
        NewDeadline(1, 1, "computer", 0.0, 100.0),               # no reminder: 100
        NewDeadline(2, 1, "claim", 0.0, 400.0, warn_at=350.0)])  # reminder at 200
    await store.deadlines.replace(b.hand.id, [NewDeadline(s, 1, "computer", 0.0, 150.0)
                                              for s in range(4)])  # four ties at 150
    await store.deadlines.mark_reminded(a.hand.id, 2, 10.0)        # then its warning: 350
    order = [(100.0, a.hand.id, 1), (150.0, a.hand.id, 0)] + \
        [(150.0, b.hand.id, s) for s in range(4)] + [(350.0, a.hand.id, 2)]
    seen = []
    after = None
    while page := await store.deadlines.page(after, 2):
        assert len(page) <= 2
        seen += [moment for moment, _ in page]
        after = page[-1][0]
    assert seen == order
    first = await store.deadlines.page(None, 1)
    assert [(r.table_id, r.seat, r.kind) for _, r in first] == [(a.table.id, 1, "computer")]
    assert await store.deadlines.count() == 7


async def test_the_tables_a_crash_left_without_a_deadline_are_found(
        store: Store, new_game: NewGame) -> None:
    a = await new_game(channel_id=1)
    b = await new_game(channel_id=2, users=(7,))
    await store.deadlines.set(a.hand.id, 0, seq=1, kind="turn", set_at=0.0, due_at=9.0)
    assert await store.deadlines.stranded() == []   # listed once, by migration 0035
    assert await store.deadlines.look_for_stranded() == 1
    assert await store.deadlines.look_for_stranded() == 1
    assert await store.deadlines.stranded() == [b.table.id]
    await store.deadlines.mended([b.table.id])
    assert await store.deadlines.stranded() == []


async def test_the_moment_order_is_read_through_its_index(store: Store) -> None:
    """Paging (and shared mode's claims) reads a range of migration 0031's index, never
    every deadline: the query's expression is the index's, word for word."""
    from bot.store.deadlines import MOMENT, moment_of

    sql = (f"SELECT d.hand_id FROM deadlines d WHERE ({moment_of('d.')}, d.hand_id, d.seat)"
           f" > (?, ?, ?) ORDER BY {moment_of('d.')}, d.hand_id, d.seat LIMIT 5")
    migration = next(Path("migrations").glob("*_deadline_moments.sql")).read_text()
    assert f"(({MOMENT}), hand_id, seat)" in migration
    # shared mode's claims: the moments come, in order
    come = (f"SELECT d.hand_id FROM deadlines d WHERE {moment_of('d.')} <= ? AND d.seat >= ?"
            f" AND d.hand_id > ? ORDER BY {moment_of('d.')}, d.hand_id, d.seat LIMIT 20")
    for query in (sql, come):
        async with store._db.write() as db:  # the test's own look at the plan
            if store.dialect == "sqlite":
                rows = await db.all(f"EXPLAIN QUERY PLAN {query}", (0.0, 0, 0))
            else:  # a small table: a sequential scan would win, so rule it out
                await db.run("SET LOCAL enable_seqscan = off")
                rows = await db.all(f"EXPLAIN {query}", (0.0, 0, 0))
        plan = " ".join(str(r[k]) for r in rows for k in r.keys())  # noqa: SIM118 (a Row is no mapping)
        assert "deadlines_by_moment" in plan and "TEMP B-TREE" not in plan, plan
