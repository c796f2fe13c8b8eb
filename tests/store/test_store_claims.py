"""Several processes on one database (0008): the table's change counter, deadlines and
announcements claimed by one owner until a lease ends (then anyone's again)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import (
    NewAnnouncement,
    NewDeadline,
    NewHand,
    NotFound,
    StaleAction,
    StaleTable,
    StandingChoices,
    Store,
    TableBump,
)
from tests.narrowing import known
from tests.store.helpers import NewGame


async def test_each_write_handed_the_fence_moves_the_counter_in_its_own_transaction(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    table = game.table.id
    assert await store.processes.table_version(table) == 0
    assert game.table.version == 0
    bump = TableBump(table, 0)
    await store.log.append(game.hand.id, 1, 0, "discard", {"tile": "1m"}, "player",
                           104.0, fence=bump)
    assert await store.processes.table_version(table) == 1 and bump.known == 1
    await store.lobby.set_choices(table, 1, StandingChoices(pass_claims=True), fence=bump)
    assert await store.processes.table_version(table) == 2 and bump.known == 2
    with pytest.raises(StaleAction):  # rolled back: neither the action nor the bump
        await store.log.append(game.hand.id, 1, 1, "discard", {"tile": "2m"},
                               "player", 105.0, fence=bump)
    assert await store.processes.table_version(table) == 2 and bump.bumps == 2
    await store.lobby.set_choices(table, 1, StandingChoices())  # no fence: no bump
    assert await store.processes.table_version(table) == 2
    bump.armed = False  # the command's block is over: a late write bumps nothing
    await store.lobby.set_choices(table, 1, StandingChoices(pass_claims=True), fence=bump)
    assert await store.processes.table_version(table) == 2 and bump.bumps == 2
    assert known(await store.lobby.get_table(table)).version == 2
    with pytest.raises(NotFound):
        await store.processes.table_version(9999)


async def test_a_bump_after_another_writer_s_leaves_memory_untrusted(
        database: Path | str, store: Store, new_game: NewGame) -> None:
    game = await new_game()
    other = await Store.open(database)  # another process
    try:
        await other.lobby.set_away(game.table.id, 2, True, fence=TableBump(game.table.id, 0))
    finally:
        await other.close()
    bump = TableBump(game.table.id, 0)  # read at 0, before the other's write
    await store.log.append(game.hand.id, 1, 0, "discard", {"tile": "1m"}, "player",
                           104.0, fence=bump)
    assert bump.known is None  # 2 is not 0 + 1: the next command reloads
    bump = TableBump(game.table.id, 2)
    bump.known = 1  # rebuilt from a read at 1: count from there
    await store.lobby.set_away(game.table.id, 2, False, fence=bump)
    assert bump.known is None  # 3 is not 1 + 1
    bump = TableBump(game.table.id, 3)
    await store.lobby.set_away(game.table.id, 2, True, fence=bump)
    assert bump.known == 4


async def test_a_due_deadline_is_claimed_by_one_owner_until_its_lease_ends(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    await store.deadlines.replace(game.hand.id, [
        NewDeadline(0, 1, "computer", 100.0, 110.0),
        NewDeadline(1, 1, "computer", 100.0, 300.0)])
    assert await store.deadlines.claim(109.0, owner="a", until=200.0) == []
    claimed = await store.deadlines.claim(110.0, owner="a", until=200.0)
    assert [(d.seat, d.due_at) for d in claimed] == [(0, 110.0)]
    assert await store.deadlines.claim(150.0, owner="b", until=250.0) == []  # a holds it
    # a was killed: once its lease is over, b takes the deadline over
    taken = await store.deadlines.claim(200.5, owner="b", until=260.0)
    assert [d.seat for d in taken] == [0]
    assert await store.deadlines.next_claimable() == 300.0  # seat 1's; seat 0's is held


async def test_a_person_s_reminder_comes_first_and_frees_the_claim(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    await store.deadlines.replace(game.hand.id, [NewDeadline(0, 1, "turn", 100.0, 200.0)])
    assert await store.deadlines.next_claimable() == 150.0
    [row] = await store.deadlines.claim(160.0, owner="a", until=170.0)
    assert (row.half_at, row.reminded_at) == (150.0, None)  # the reminder's moment
    assert await store.deadlines.claim(160.0, owner="b", until=170.0) == []
    await store.deadlines.mark_reminded(game.hand.id, 0, 161.0)
    assert await store.deadlines.claim(199.0, owner="b", until=300.0) == []  # not yet due
    [due] = await store.deadlines.claim(200.0, owner="b", until=300.0)
    assert due.reminded_at == 161.0


async def test_a_new_deadline_is_nobody_s(store: Store, new_game: NewGame) -> None:
    """The move that replaces a seat's deadline ends the claim on the old one."""
    game = await new_game()
    await store.deadlines.set(game.hand.id, 0, seq=1, kind="computer", set_at=1.0, due_at=2.0)
    assert len(await store.deadlines.claim(5.0, owner="a", until=100.0)) == 1
    await store.deadlines.set(game.hand.id, 0, seq=2, kind="computer", set_at=5.0, due_at=6.0)
    assert [d.seq for d in await store.deadlines.claim(6.0, owner="b", until=9.0)] == [2]
    await store.log.append(game.hand.id, 1, 0, "discard", {"kind": "discard", "seat": 0},
                           "computer", 7.0,
                           deadlines=[NewDeadline(1, 2, "computer", 7.0, 8.0)])
    assert [d.seat for d in await store.deadlines.claim(8.0, owner="c", until=9.0)] == [1]


async def test_announcements_are_claimed_once_then_taken_over_after_the_lease(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    await store.lobby.create_table(guild_id=1, channel_id=2, creator_id=3, rules="shanghai",
                                   at=1.0)
    await store.endings.cancel_table(game.table.id, at=200.0,
                                     announcements=[NewAnnouncement("lobby", None, 1,
                                                                    {"what": "cancelled"})])
    [row] = await store.outbox.undelivered(game.table.id)
    # a sweep leaves a row nobody claimed yet to its writer for a while
    assert await store.outbox.claim(205.0, owner="b", until=300.0,
                                    created_before=199.0) == []
    claimed = await store.outbox.claim(205.0, owner="a", until=300.0,
                                       table_id=game.table.id)
    assert [r.id for r in claimed] == [row.id]
    assert await store.outbox.claim(250.0, owner="b", until=350.0) == []
    # a died while delivering it: after its lease, the sweep takes it (still unsure)
    await store.outbox.mark(row.id, "sending", 251.0)
    [again] = await store.outbox.claim(301.0, owner="b", until=400.0,
                                       created_before=299.0)
    assert (again.id, again.status) == (row.id, "sending")
    await store.outbox.mark(row.id, "delivered", 302.0)
    assert await store.outbox.claim(500.0, owner="c", until=600.0) == []


async def test_on_postgres_a_claim_skips_rows_another_claim_is_taking(pg_url: str) -> None:
    """Two processes claiming at once: the rows one has locked (mid-claim) are neither
    waited for nor taken by the other (``FOR UPDATE … SKIP LOCKED``)."""
    import asyncio

    import asyncpg

    from tests.store.helpers import COMMITMENT, SALT, WALL

    store = await Store.open(pg_url)
    other = await asyncpg.connect(pg_url)
    try:
        table = await store.lobby.create_table(guild_id=1, channel_id=2, creator_id=3,
                                               rules="shanghai", at=1.0)
        for seat in range(4):
            await store.lobby.sit_computer(table.id, seat, display_name=f"B{seat}", at=1.0)
        await store.lobby.set_status(table.id, "playing", expected="lobby")
        match = await store.matches.create(table.id, first_dealer=0, at=1.0)
        hand = await store.matches.deal(match.id, NewHand(WALL, SALT, COMMITMENT, dice=(3, 5),
                                                          dealer=0, streak=0, huangfan=1),
                                        at=1.0)
        await store.deadlines.replace(hand.id, [NewDeadline(s, 1, "computer", 1.0, 2.0)
                                                for s in (0, 1)])
        async with other.transaction():  # the other process, between its SELECT and UPDATE
            await other.execute("SELECT 1 FROM deadlines WHERE hand_id = $1 AND seat = 0"
                                " FOR UPDATE", hand.id)
            claimed = await asyncio.wait_for(
                store.deadlines.claim(5.0, owner="b", until=9.0), 5)
            assert [d.seat for d in claimed] == [1]
    finally:
        await other.close()
        await store.close()


async def test_heartbeats_tell_which_other_processes_were_seen_lately(store: Store) -> None:
    assert await store.processes.seen(0.0, besides="a") == []
    await store.processes.beat("a", 100.0)
    await store.processes.beat("b", 100.0)
    await store.processes.beat("b", 130.0)                      # refreshed, not a second row
    assert await store.processes.seen(110.0, besides="a") == ["b"]
    assert await store.processes.seen(100.0, besides="c") == ["a", "b"]
    assert await store.processes.seen(131.0, besides="a") == []
    await store.processes.beat("c", 200.0, prune_before=120.0)  # a was killed long ago: pruned
    assert await store.processes.seen(0.0, besides="x") == ["b", "c"]
    await store.processes.forget("b")                   # stopped cleanly
    assert await store.processes.seen(0.0, besides="x") == ["c"]
    await store.processes.forget("nobody")              # nothing to forget: no error


async def test_an_expecting_bump_lands_only_on_the_counter_it_expects(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    table = game.table.id
    await store.lobby.set_away(table, 2, True)              # no fence: still 0
    bump = TableBump(table, 0, expect=True)
    await store.log.append(game.hand.id, 1, 0, "discard", {"tile": "1m"}, "player",
                           104.0, fence=bump)
    await store.lobby.set_away(table, 2, False, fence=bump)  # only the first bump checks
    assert bump.known == 2
    bump = TableBump(table, 1, expect=True)
    with pytest.raises(StaleTable):
        await store.log.append(game.hand.id, 2, 1, "discard", {"tile": "2m"}, "player",
                               105.0, fence=bump)
    assert [a.seq for a in await store.log.actions(game.hand.id)] == [1]  # rolled back
    bump = TableBump(table, 1, expect=True)
    with pytest.raises(StaleTable):
        await store.lobby.set_away(table, 2, True, fence=bump)
    assert (await store.lobby.seats(table))[2].away is False
    bump = TableBump(table, 1, expect=True)
    bump.known = 2                                    # reloaded: checks against 2 now
    await store.lobby.set_away(table, 2, True, fence=bump)
    assert bump.known == 3 and await store.processes.table_version(table) == 3


async def test_heartbeats_of_processes_that_all_look_dead_never_deadlock(
        database: Path | str) -> None:
    """Processes that all beat at once after a long pause (a machine woken from sleep, a
    fake clock jumped hours): each one's beat upserts its own row and prunes rows older
    than the cut, which includes the others' rows as they were before their own upsert.
    Upsert and prune in one transaction made PostgreSQL lock one process's row while it
    waited for another's: a deadlock, one beat failing. Every beat now lands."""
    import asyncio

    stores = [await Store.open(database) for _ in range(3)]
    try:
        for n, store in enumerate(stores):
            await store.processes.beat(f"p{n}", 100.0)
        for _ in range(5):
            await asyncio.wait_for(asyncio.gather(*(
                store.processes.beat(f"p{n}", 10_000.0, prune_before=5_000.0)
                for n, store in enumerate(stores))), 30)
            assert await stores[0].processes.seen(10_000.0, besides="x") == ["p0", "p1", "p2"]
    finally:
        for store in stores:
            await store.close()
