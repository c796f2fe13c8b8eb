"""The clock's rows (migration 0023), on SQLite and PostgreSQL: a deadline's timer end
and quarter-left warning (claimed in order: reminder, warning, deadline; marked once),
the time banks written with a move and read back by a rebuild, and each person's answer
times read from the action log."""

from __future__ import annotations

import pytest

from bot.store import ActionSource, NewDeadline, NotFound, Store
from tests.store.helpers import NewGame


async def test_the_warning_comes_after_the_reminder_and_before_the_deadline(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    hand = game.hand.id
    # a timer of 400 s from 100, a bank of 100 after it: reminder 300, warning 400
    await store.deadlines.replace(hand, [NewDeadline(0, 1, "turn", 100.0, 600.0, 500.0, 400.0),
                                         NewDeadline(1, 1, "computer", 100.0, 100.0)])
    (computer, row) = await store.deadlines.all(hand)             # soonest first
    assert (row.timer_at, row.warn_at, row.warned_at, row.half_at) == (500.0, 400.0, None, 300.0)
    assert computer.timer_at is None and computer.half_at == 100.0
    assert await store.deadlines.next_claimable() == 100.0
    await store.deadlines.clear(hand, 1)
    assert await store.deadlines.next_claimable() == 300.0          # half of the timer
    assert await store.deadlines.claim(299.0, owner="a", until=310.0) == []
    assert len(await store.deadlines.claim(300.0, owner="a", until=310.0)) == 1
    await store.deadlines.mark_reminded(hand, 0, 300.0)
    assert await store.deadlines.next_claimable() == 400.0          # the warning
    assert len(await store.deadlines.claim(400.0, owner="a", until=410.0)) == 1
    warned = await store.deadlines.mark_warned(hand, 0, 401.0)
    assert (warned.warned_at, warned.reminded_at, warned.claimed_by) == (401.0, 300.0, None)
    assert await store.deadlines.next_claimable() == 600.0          # then the deadline
    with pytest.raises(NotFound):
        await store.deadlines.mark_warned(hand, 3, 1.0)


async def test_a_warning_sent_first_stands_for_the_reminder(
        store: Store, new_game: NewGame) -> None:
    """Both moments passed (a restart): the warning alone goes; nothing is owed after."""
    game = await new_game()
    await store.deadlines.replace(game.hand.id, [NewDeadline(0, 1, "turn", 0.0, 400.0,
                                                             None, 300.0)])
    row = await store.deadlines.mark_warned(game.hand.id, 0, 350.0)
    assert (row.reminded_at, row.warned_at) == (350.0, 350.0)
    assert await store.deadlines.next_claimable() == 400.0
    # a new decision's row is neither reminded nor warned
    again = await store.deadlines.set(game.hand.id, 0, seq=2, kind="turn", set_at=400.0,
                                      due_at=800.0, warn_at=700.0)
    assert (again.reminded_at, again.warned_at, again.warn_at) == (None, None, 700.0)


async def test_banks_are_written_with_the_move_and_read_by_a_rebuild(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    hand, table = game.hand.id, game.table.id
    await store.log.append(hand, 1, 0, "discard", {"tile": "5z"}, "player", 110.0,
                           asked_at=103.0, banks={0: 580.0})
    await store.log.append(hand, 2, 1, "pass", {}, "timeout", 120.0, banks={1: 0.0, 0: 600.0})
    assert (await store.rebuilds.load([table]))[table].banks == {0: 600.0, 1: 0.0}
    other = await new_game(channel_id=99)
    assert (await store.rebuilds.load([other.table.id]))[other.table.id].banks == {}


async def test_answer_times_are_each_person_s_own_moves(store: Store,
                                                        new_game: NewGame) -> None:
    game = await new_game()           # users 1, 2, 3 at seats 0-2, a computer at seat 3
    hand = game.hand.id
    moves: list[tuple[int, ActionSource, float | None, float]] = [
             (0, "player", 100.0, 160.0), (1, "player", 160.0, 460.0),
             (2, "timeout", 460.0, 7660.0), (3, "computer", 7660.0, 7661.0),
             (0, "player", 7661.0, 7671.0), (2, "player", None, 7700.0)]
    for seq, (seat, source, asked, at) in enumerate(moves, start=1):
        await store.log.append(hand, seq, seat, "discard", {}, source, at, asked_at=asked)
    times = await store.log.answer_times([1, 2, 3, 4])
    assert times == {1: [10.0, 60.0], 2: [300.0]}    # newest first; no timer's, no unknown
    assert await store.log.answer_times([1], recent=1) == {1: [10.0]}
    assert await store.log.answer_times([]) == {}
    # another table of the same person counts too
    other = await new_game(channel_id=99, users=(5, 1))
    await store.log.append(other.hand.id, 1, 1, "discard", {}, "player", 900.0, asked_at=880.0)
    assert (await store.log.answer_times([1]))[1] == [10.0, 20.0, 60.0]
