"""Claims answered in advance (migration 0021): one hand's, one seat's, replaced whole
by each write, kept across a reopen and read with the table's rebuild, gone when the
hand ends (or the table is cancelled); none is written for an ended hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import ClaimAnswerRow, ConstraintError, HandEnded, Store
from tests.store.helpers import NewGame


async def test_answers_replace_survive_a_reopen_and_come_with_the_rebuild(
        store: Store, new_game: NewGame, database: Path | str) -> None:
    game = await new_game()
    hand = game.hand.id
    assert await store.claim_answers.of_hand(hand) == []
    await store.claim_answers.replace(hand, 1, [("5m", "pong"), ("9p", "kong")])
    await store.claim_answers.replace(hand, 2, [("1z", "pong")])
    mine = await store.claim_answers.replace(hand, 1, [("5m", "kong")])  # replaced whole
    assert mine == [ClaimAnswerRow(hand, 1, "5m", "kong")]
    again = await Store.open(database)
    try:
        assert await again.claim_answers.of_hand(hand) == [
            ClaimAnswerRow(hand, 1, "5m", "kong"), ClaimAnswerRow(hand, 2, "1z", "pong")]
        load = (await again.rebuilds.load([game.table.id]))[game.table.id]
        assert load.claim_answers == (ClaimAnswerRow(hand, 1, "5m", "kong"),
                                      ClaimAnswerRow(hand, 2, "1z", "pong"))
        await again.claim_answers.replace(hand, 2, [])
        assert await again.claim_answers.of_hand(hand) == [ClaimAnswerRow(hand, 1, "5m", "kong")]
    finally:
        await again.close()


async def test_the_hands_end_clears_them_and_an_ended_hand_takes_none(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    await store.claim_answers.replace(game.hand.id, 0, [("5m", "pong")])
    await store.endings.finish_hand(game.hand.id, None, settlements=[], deltas=[], at=140.0)
    assert await store.claim_answers.of_hand(game.hand.id) == []
    with pytest.raises(HandEnded):
        await store.claim_answers.replace(game.hand.id, 0, [("5m", "pong")])
    assert await store.claim_answers.of_hand(game.hand.id) == []


async def test_a_cancelled_table_leaves_none(store: Store, new_game: NewGame) -> None:
    game = await new_game()
    await store.claim_answers.replace(game.hand.id, 0, [("5m", "pong")])
    await store.endings.cancel_table(game.table.id, at=150.0)
    assert await store.claim_answers.of_hand(game.hand.id) == []


async def test_the_schema_refuses_what_is_no_answer(store: Store, new_game: NewGame) -> None:
    game = await new_game()
    await store.claim_answers.replace(game.hand.id, 0, [("5m", "pong")])
    for bad in ([("5m", "chi")], [("5mm", "pong")], [("5m", "pong", "3m4m", None)],
                [("5m", "chi", "3m", None)], [("5m", "pong", None, "9pp")],
                [("5m", "tsumo")]):
        with pytest.raises(ConstraintError):
            await store.claim_answers.replace(game.hand.id, 0, bad)  # type: ignore[arg-type]  # no kind the schema takes, on purpose
    assert await store.claim_answers.of_hand(game.hand.id) == [
        ClaimAnswerRow(game.hand.id, 0, "5m", "pong")]  # a refused write changed nothing


async def test_a_named_chi_and_the_discard_after_a_claim_are_kept(
        store: Store, new_game: NewGame, database: Path | str) -> None:
    """Migration 0025: "chi 5m with 3m4m" and "pong 9p, then 1z", across a reopen and
    with the rebuild; an answer without them reads as before."""
    game = await new_game()
    hand = game.hand.id
    rows = await store.claim_answers.replace(hand, 1, [("5m", "chi", "3m4m", None),
                                                       ("9p", "pong", None, "1z"),
                                                       ("2s", "kong")])
    assert rows == [ClaimAnswerRow(hand, 1, "2s", "kong"),
                    ClaimAnswerRow(hand, 1, "5m", "chi", "3m4m", None),
                    ClaimAnswerRow(hand, 1, "9p", "pong", None, "1z")]
    again = await Store.open(database)
    try:
        assert await again.claim_answers.of_hand(hand) == rows
        load = (await again.rebuilds.load([game.table.id]))[game.table.id]
        assert load.claim_answers == tuple(rows)
    finally:
        await again.close()
