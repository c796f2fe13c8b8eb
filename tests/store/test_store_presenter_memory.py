"""The presenter's memory kept in the store: what one process wrote, the next reads
back (a restart), and the in-memory twin the presenter's tests use behaves the same.
Shared mode's swaps (several processes): each hands back the id it replaced, also when
two processes swap at once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.discord.delivery.memory import InMemory, PresenterMemory
from bot.store import NotFound, Store, StoreMemory, TableMemory
from tests.narrowing import known
from tests.store.helpers import CHANNEL, GUILD, NewGame


async def _write(memory: PresenterMemory, table_id: int) -> None:
    await memory.set_lobby_message(table_id, 11)
    await memory.set_table_message(table_id, 12, 500.0)
    await memory.set_ping_message(table_id, 13)
    await memory.set_dm_closed(table_id, 1, True)
    await memory.set_dm_closed(table_id, 2, True)
    await memory.set_dm_closed(table_id, 1, False)
    await memory.set_permission_error_reported(table_id)


async def _read(memory: PresenterMemory, table_id: int) -> tuple[object, ...]:
    got = await memory.recall(table_id)
    return (got.lobby_message, got.table_message, got.table_posted, got.ping_message,
            got.dm_closed, got.permission_error_reported)


WRITTEN = (11, 12, 500.0, 13, frozenset({2}), True)
EMPTY: tuple[int | None, int | None, float, int | None, frozenset[int], bool] = (
    None, None, 0.0, None, frozenset(), False)


async def test_store_memory_survives_a_restart(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        table = await store.lobby.create_table(guild_id=GUILD, channel_id=CHANNEL, creator_id=1,
                                               rules="shanghai", at=100.0)
        for seat in range(4):
            await store.lobby.sit(table.id, seat, user_id=seat + 1, display_name=f"P{seat}",
                                  at=101.0)
        assert await _read(StoreMemory(store), table.id) == EMPTY
        await _write(StoreMemory(store), table.id)
    finally:
        await store.close()
    reopened = await Store.open(db_path)
    try:
        assert await _read(StoreMemory(reopened), table.id) == WRITTEN
    finally:
        await reopened.close()


async def test_store_memory_forgets_a_standing_mention(store: Store,
                                                        new_game: NewGame) -> None:
    game = await new_game()
    memory = StoreMemory(store)
    await memory.set_ping_message(game.table.id, 13)
    await memory.set_ping_message(game.table.id, None)
    assert (await memory.recall(game.table.id)).ping_message is None


async def test_store_memory_of_an_unknown_table(store: Store) -> None:
    memory = StoreMemory(store)
    assert await _read(memory, 404) == EMPTY
    with pytest.raises(NotFound):
        await memory.set_lobby_message(404, 1)


async def test_in_memory_twin_reads_back_what_was_written() -> None:
    memory = InMemory()
    assert await _read(memory, 7) == EMPTY
    await _write(memory, 7)
    assert await _read(memory, 7) == WRITTEN
    assert await _read(memory, 8) == EMPTY


# ---- shared mode (0009): swapped in, the replaced id handed back ----------------------


async def test_a_swapped_view_message_hands_back_the_one_it_replaced(
        store: Store, new_game: NewGame) -> None:
    table = (await new_game()).table.id
    memory = StoreMemory(store)
    assert await memory.swap_message(table, "table", 21, 500.0) is None
    assert await memory.swap_message(table, "table", 22, 600.0) == 21
    assert await memory.swap_message(table, "lobby", 31) is None
    assert await memory.swap_message(table, "ping", 41) is None
    assert await memory.swap_message(table, "ping", None) == 41
    got = await memory.recall(table)
    assert (got.table_message, got.table_posted, got.lobby_message, got.ping_message) == \
        (22, 600.0, 31, None)


async def test_a_seats_dm_with_buttons_is_swapped_and_forgotten_with_the_table(
        store: Store, new_game: NewGame) -> None:
    table = (await new_game()).table.id
    memory = StoreMemory(store)
    assert await memory.swap_dm_message(table, 0, 51) is None
    assert await memory.swap_dm_message(table, 1, 52) is None
    assert await memory.swap_dm_message(table, 0, 53) == 51
    assert (await memory.recall(table)).dm_messages == {0: 53, 1: 52}
    assert await memory.swap_dm_message(table, 1, None) == 52
    assert (await memory.recall(table)).dm_messages == {0: 53}
    await memory.forget_dm_messages(table)
    assert (await memory.recall(table)).dm_messages == {}


async def test_a_dm_of_an_older_step_is_not_swapped_in_and_comes_back(
        store: Store, new_game: NewGame) -> None:
    """Two processes posting one seat's DMs out of order: the older step's, arriving
    last, is not stored; its own id comes back (its buttons are the stale ones). A DM
    of no step (order None) swaps as before; the table's end forgets the order too."""
    table = (await new_game()).table.id
    memory = StoreMemory(store)
    step = (1 << 32) + 5
    assert await memory.swap_dm_message(table, 0, 71, step + 1) is None
    assert await memory.swap_dm_message(table, 0, 70, step) == 70  # older, posted last
    assert (await memory.recall(table)).dm_messages == {0: 71}
    assert await memory.swap_dm_message(table, 0, 72, step + 1) == 71  # the same step
    assert await memory.swap_dm_message(table, 0, None, step + 2) == 72
    assert await memory.swap_dm_message(table, 0, 73, (2 << 32) + 1) is None  # next hand
    assert await memory.swap_dm_message(table, 0, 74) == 73  # no order: as ever
    await memory.forget_dm_messages(table)
    assert await memory.swap_dm_message(table, 0, 75, step) is None  # forgotten order


@pytest.mark.parametrize("kind", ["store", "dict"])
async def test_an_older_dm_without_a_decision_leaves_the_newer_decision_alone(
        store: Store, new_game: NewGame, kind: str) -> None:
    """Shared mode: one process DMs a seat its hand at the deal (no decision), another
    the seat's first decision, and the deal's DM arrives last. It must not take the
    decision DM's buttons off (the player would be left with nothing to press: the
    two-process test's stall); a DM without a decision showing a later state does."""
    table = (await new_game()).table.id
    memory: StoreMemory | InMemory = StoreMemory(store) if kind == "store" else InMemory()
    hand = 1 << 32
    assert await memory.swap_dm_message(table, 0, 81, hand + 2) is None  # turn, step 2
    assert await memory.swap_dm_message(table, 0, None, shows=hand + 0) is None  # the deal
    assert (await memory.recall(table)).dm_messages == {0: 81}
    assert await memory.swap_dm_message(table, 0, None, shows=hand + 2) == 81  # answered
    assert (await memory.recall(table)).dm_messages == {}


async def test_a_bad_swap_changes_nothing(store: Store, new_game: NewGame) -> None:
    table = (await new_game(users=(1, 2))).table.id
    memory = StoreMemory(store)
    with pytest.raises(ValueError, match="not a view message"):
        await store.presenter.swap_view_message(table, "status", 1)
    with pytest.raises(NotFound):
        await memory.swap_message(404, "lobby", 1)
    await store.lobby.leave(table, 1)
    assert await memory.swap_dm_message(table, 1, 61) is None  # an empty seat keeps none
    assert await _read(memory, table) == EMPTY


async def test_racing_swaps_hand_every_id_back_exactly_once(
        database: Path | str, store: Store, new_game: NewGame) -> None:
    """Two processes (two connections) swapping at once: each id stored is handed back
    to exactly one of them, so each message replaced is deleted once and one stays."""
    table = (await new_game()).table.id
    other = await Store.open(database)
    try:
        memories = (StoreMemory(store), StoreMemory(other))

        async def swaps(memory: StoreMemory, first: int) -> list[int | None]:
            return [await memory.swap_message(table, "table", first + i, 1.0)
                    for i in range(20)]

        handed = await asyncio.gather(swaps(memories[0], 100), swaps(memories[1], 200))
        stored = known((await memory_of(store, table)).table_message)
        back = [m for got in handed for m in got if m is not None]
        assert sorted([*back, stored]) == [*range(100, 120), *range(200, 220)]
    finally:
        await other.close()


async def memory_of(store: Store, table: int) -> TableMemory:
    return await StoreMemory(store).recall(table)


async def test_in_memory_twin_swaps_the_same_way() -> None:
    memory = InMemory()
    assert await memory.swap_message(7, "table", 21, 500.0) is None
    assert await memory.swap_message(7, "table", 22, 600.0) == 21
    assert await memory.swap_dm_message(7, 0, 51) is None
    assert await memory.swap_dm_message(7, 0, None) == 51
    assert await memory.swap_dm_message(7, 1, 52) is None
    got = await memory.recall(7)
    assert (got.table_message, got.table_posted, got.dm_messages) == (22, 600.0, {1: 52})
    await memory.forget_dm_messages(7)
    assert (await memory.recall(7)).dm_messages == {}


async def test_a_tables_residue_is_kept_until_cleared_and_survives_a_reopening(
        database: Path | str) -> None:
    """What the presenter knew in memory only of a table that left it idle (0034): read
    back by the next process, on both backends, and gone once cleared; the twin too."""
    store = await Store.open(database)
    try:
        table = await store.lobby.create_table(guild_id=GUILD, channel_id=CHANNEL,
                                               creator_id=1, rules="shanghai", at=100.0)
        await store.lobby.sit(table.id, 0, user_id=1, display_name="P1", at=101.0)
        assert (await StoreMemory(store).recall(table.id)).residue is None
        await StoreMemory(store).set_residue(table.id, '{"due":[[0,1,5]]}')
    finally:
        await store.close()
    reopened = await Store.open(database)
    try:
        memory = StoreMemory(reopened)
        assert (await memory.recall(table.id)).residue == '{"due":[[0,1,5]]}'
        await memory.set_residue(table.id, None)
        assert (await memory.recall(table.id)).residue is None
    finally:
        await reopened.close()
    twin = InMemory()
    await twin.set_residue(3, "x")
    assert (await twin.recall(3)).residue == "x"
    await twin.set_residue(3, None)
    assert (await twin.recall(3)).residue is None


@pytest.mark.parametrize("kind", ["store", "dict"])
async def test_one_process_sets_a_seat_s_dm_unless_a_newer_step_is_stored(
        store: Store, new_game: NewGame, kind: str) -> None:
    """One process (`KnownHere`) writes each DM with a decision and its step for a
    restart, without reading the seat first (`set_dm_message`, one statement): the same
    or a newer step replaces the stored DM, an older one changes nothing, an empty seat
    (left) keeps none, and the memory reads back as `swap_dm_message` would leave it."""
    game = await new_game(users=(1, 2))
    table = game.table.id
    memory: StoreMemory | InMemory = StoreMemory(store) if kind == "store" else InMemory()
    step = (1 << 32) + 5
    await memory.set_dm_message(table, 0, 71, step)
    await memory.set_dm_message(table, 0, 72, step)  # the same step: a send tried again
    await memory.set_dm_message(table, 0, 70, step - 1)  # older: not stored
    await memory.set_dm_message(table, 1, 81, step + 1)
    await memory.set_dm_message(table, 1, None, step + 2)  # the decision without buttons
    got = await memory.recall(table)
    assert (got.dm_messages, got.dm_orders) == ({0: 72}, {0: step, 1: step + 2})
    if kind == "store":
        assert await store.presenter.set_dm_message(table, 0, 73, step + 1) is True
        assert await store.presenter.set_dm_message(table, 0, 74, step) is False
        await store.lobby.leave(table, 1)
        assert await store.presenter.set_dm_message(table, 1, 91, step + 3) is False
        assert await store.presenter.set_dm_message(404, 0, 91, step) is False  # no table
        got = await memory.recall(table)
        assert (got.dm_messages, got.dm_orders) == ({0: 73}, {0: step + 1})
