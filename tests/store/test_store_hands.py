"""Matches and hands: numbering, one live at a time, the wall kept in dealing order."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from bot.store import Conflict, ConstraintError, NewHand, NotFound, StaleStatus, Store
from tests.store.helpers import COMMITMENT, SALT, WALL, NewGame


async def test_match_is_numbered_and_one_plays_at_a_time(store: Store, new_game: NewGame) -> None:
    game = await new_game()
    assert (game.match.number, game.match.status, game.match.first_dealer) == (1, "playing", 0)
    assert game.match.totals is None and game.match.finished_at is None
    with pytest.raises(Conflict, match="already has a match"):
        await store.matches.create(game.table.id, first_dealer=1, at=200.0)
    assert await store.matches.live(game.table.id) == game.match

    await store.endings.finish_hand(game.hand.id, None, settlements=[], deltas=[], at=199.0)
    totals = {0: Fraction(7, 2), 1: Fraction(-7, 2), 2: Fraction(0), 3: Fraction(0)}
    done = await store.matches.finish(game.match.id, totals=totals, at=200.0)
    assert (done.status, done.finished_at, done.totals) == ("finished", 200.0, totals)
    with pytest.raises(StaleStatus):
        await store.matches.finish(game.match.id, totals=totals, at=201.0)
    assert await store.matches.live(game.table.id) is None

    second = await store.matches.create(game.table.id, first_dealer=2, at=202.0)
    assert second.number == 2
    abandoned = await store.matches.finish(second.id, totals=None, at=203.0, status="abandoned")
    assert abandoned.status == "abandoned" and abandoned.totals is None
    assert [m.number for m in await store.matches.of_table(game.table.id)] == [1, 2]
    assert await store.matches.get(second.id) == abandoned
    assert await store.matches.get(9999) is None
    with pytest.raises(NotFound):
        await store.matches.create(9999, first_dealer=0, at=1.0)


async def test_hand_keeps_everything_it_was_created_with(store: Store, new_game: NewGame) -> None:
    game = await new_game()
    hand = game.hand
    assert (hand.number, hand.match_id, hand.table_id) == (1, game.match.id, game.table.id)
    assert (hand.wall, hand.salt, hand.commitment) == (WALL, SALT, COMMITMENT)
    assert hand.wall_tiles == ["1m", "2m", "3m", "5z", "1f", "2p", "9s"]
    assert (hand.dice, hand.dealer, hand.streak, hand.huangfan) == ((3, 5), 0, 0, 1)
    assert (hand.status, hand.started_at, hand.ended_at) == ("live", 103.0, None)
    assert await store.hands.get(hand.id) == hand
    assert await store.hands.live(game.table.id) == hand
    assert await store.hands.get(9999) is None


async def test_one_live_hand_per_match_and_numbering(store: Store, new_game: NewGame) -> None:
    game = await new_game()
    hand = NewHand(WALL, SALT, COMMITMENT, dice=(1, 1), dealer=1, streak=2, huangfan=0)
    with pytest.raises(Conflict, match="already has a live hand"):
        await store.matches.deal(game.match.id, hand, at=300.0)
    await store.endings.finish_hand(game.hand.id, None, settlements=[], deltas=[], at=299.0)
    assert await store.hands.live(game.table.id) is None
    second = await store.matches.deal(game.match.id, hand, at=300.0)
    assert (second.number, second.streak) == (2, 2)
    assert [h.number for h in await store.hands.of_match(game.match.id)] == [1, 2]
    assert await store.hands.live(game.table.id) == second


@pytest.mark.parametrize(("field", "value"), [
    ("wall", "123m"),           # compact notation loses nothing here, but is not 2-char tiles
    ("wall", ""),
    ("wall", "1m2x"),
    ("salt", "short"),
    ("salt", "AB" * 16),        # hex is lower case
    ("commitment", "ab" * 31),  # sha256 is 64 hex digits
    ("dice", (0, 7)),
    ("dealer", 4),
    ("streak", -1),
])
async def test_malformed_hands_are_refused(store: Store, new_game: NewGame, field: str,
                                           value: object) -> None:
    game = await new_game()
    await store.endings.finish_hand(game.hand.id, None, settlements=[], deltas=[], at=150.0)
    malformed: dict[str, Any] = {field: value}
    hand = replace(NewHand(WALL, SALT, COMMITMENT, dice=(3, 3), dealer=0, streak=0, huangfan=0),
                   **malformed)
    with pytest.raises(ConstraintError):
        await store.matches.deal(game.match.id, hand, at=160.0)
    assert [h.number for h in await store.hands.of_match(game.match.id)] == [1]


async def test_hand_needs_a_match_in_play(store: Store, new_game: NewGame) -> None:
    game = await new_game()
    await store.endings.finish_hand(game.hand.id, None, settlements=[], deltas=[], at=150.0)
    await store.matches.finish(game.match.id, totals={}, at=151.0)
    hand = NewHand(WALL, SALT, COMMITMENT, dice=(3, 3), dealer=0, streak=0, huangfan=0)
    with pytest.raises(StaleStatus):
        await store.matches.deal(game.match.id, hand, at=160.0)
    with pytest.raises(NotFound):
        await store.matches.deal(9999, hand, at=160.0)


async def test_the_last_ended_hand_is_found_over_every_match(store: Store,
                                                             new_game: NewGame) -> None:
    game = await new_game()
    hand = NewHand(WALL, SALT, COMMITMENT, dice=(1, 1), dealer=1, streak=0, huangfan=0)
    assert await store.hands.last_ended(game.table.id) is None  # the first is still live
    first = await store.endings.finish_hand(game.hand.id, None, settlements=[], deltas=[], at=299.0)
    second = await store.matches.deal(game.match.id, hand, at=300.0)
    assert await store.hands.last_ended(game.table.id) == first
    ended = await store.endings.finish_hand(second.id, None, settlements=[], deltas=[], at=301.0)
    await store.matches.finish(game.match.id, totals=None, at=302.0, status="abandoned")
    again = await store.matches.create(game.table.id, first_dealer=0, at=303.0)
    await store.matches.deal(again.id, hand, at=300.0)
    assert await store.hands.last_ended(game.table.id) == ended  # a live hand is not ended
    assert await store.hands.last_ended(9999) is None
