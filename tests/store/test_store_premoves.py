"""Pre-moves (0022): a seat's next discard chosen in advance, one per seat per hand,
kept across a reopening, cleared with the move that spends it, the hand's end and a
cancellation; a fenced write moves the table's change counter (shared mode)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import HandEnded, NewDeadline, Store, TableBump
from tests.store.helpers import NewGame


async def test_a_premove_is_kept_changed_and_cleared(store: Store, new_game: NewGame) -> None:
    game = await new_game()
    hand = game.hand.id
    await store.premoves.set(hand, 1, "9p", at=104.0)
    await store.premoves.set(hand, 2, "5z", at=104.0)
    await store.premoves.set(hand, 1, "3s", at=105.0)  # chosen again: changed
    assert await store.premoves.of_hand(hand) == {1: "3s", 2: "5z"}
    await store.premoves.clear(hand, 2)
    assert await store.premoves.of_hand(hand) == {1: "3s"}
    loads = await store.rebuilds.load([game.table.id])
    assert loads[game.table.id].premoves == {1: "3s"}


async def test_it_survives_reopening_the_store(database: Path | str, new_game: NewGame,
                                               store: Store) -> None:
    game = await new_game()
    await store.premoves.set(game.hand.id, 1, "9p", at=104.0)
    again = await Store.open(database)
    try:
        assert (await again.rebuilds.load([game.table.id]))[game.table.id].premoves == \
            {1: "9p"}
    finally:
        await again.close()


async def test_the_move_that_spends_it_clears_it_in_its_transaction(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    hand = game.hand.id
    await store.premoves.set(hand, 1, "9p", at=104.0)
    await store.premoves.set(hand, 2, "1m", at=104.0)
    await store.log.append(hand, 1, 0, "discard", {"kind": "discard", "seat": 0, "tile": "5z"},
                           "player", 105.0, deadlines=[NewDeadline(1, 2, "turn", 105.0, 9e9)],
                           premoves_spent=[1])
    assert await store.premoves.of_hand(hand) == {2: "1m"}


async def test_the_hands_end_and_a_cancellation_clear_them(store: Store,
                                                           new_game: NewGame) -> None:
    game = await new_game()
    await store.premoves.set(game.hand.id, 1, "9p", at=104.0)
    await store.endings.finish_hand(game.hand.id, None, settlements=[], deltas=[], at=106.0)
    assert await store.premoves.of_hand(game.hand.id) == {}
    with pytest.raises(HandEnded):  # nothing is chosen for a hand that is over
        await store.premoves.set(game.hand.id, 1, "9p", at=107.0)
    other = await new_game(channel_id=333)
    await store.premoves.set(other.hand.id, 2, "9p", at=104.0)
    await store.endings.cancel_table(other.table.id, at=108.0)
    assert await store.premoves.of_hand(other.hand.id) == {}


async def test_a_fenced_write_moves_the_tables_counter(store: Store, new_game: NewGame) -> None:
    game = await new_game()
    before = (await store.lobby.get_table(game.table.id))
    assert before is not None
    bump = TableBump(game.table.id, before.version)
    await store.premoves.set(game.hand.id, 1, "9p", at=104.0, fence=bump)
    await store.premoves.clear(game.hand.id, 1, fence=bump)
    after = await store.lobby.get_table(game.table.id)
    assert after is not None and after.version == before.version + 2
    assert bump.known == before.version + 2


async def test_or_my_draw_is_on_for_a_new_one_kept_when_changed_and_reloaded(
        database: Path | str, store: Store, new_game: NewGame) -> None:
    game = await new_game()
    hand = game.hand.id
    assert not await store.premoves.set_or_draw(hand, 1, False)  # none chosen: nothing
    await store.premoves.set(hand, 1, "9p", at=104.0)
    await store.premoves.set(hand, 2, "1m", at=104.0)
    assert await store.premoves.or_draw_of_hand(hand) == {1: ("9p", True), 2: ("1m", True)}
    assert await store.premoves.set_or_draw(hand, 1, False)
    await store.premoves.set(hand, 1, "3s", at=105.0)  # the tile changed: still off
    assert await store.premoves.or_draw_of_hand(hand) == {1: ("3s", False), 2: ("1m", True)}
    again = await Store.open(database)
    try:
        load = (await again.rebuilds.load([game.table.id]))[game.table.id]
        assert load.premoves == {1: "3s", 2: "1m"} and load.premoves_exact == {1}
    finally:
        await again.close()
    await store.premoves.clear(hand, 1)
    await store.premoves.set(hand, 1, "9p", at=106.0)  # a new one: on again
    assert await store.premoves.or_draw_of_hand(hand) == {1: ("9p", True), 2: ("1m", True)}
    await store.endings.finish_hand(hand, None, settlements=[], deltas=[], at=107.0)
    with pytest.raises(HandEnded):
        await store.premoves.set_or_draw(hand, 2, False)
