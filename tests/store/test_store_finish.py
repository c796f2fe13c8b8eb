"""finish_hand: final action, settlements, status, standings — all or nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from fractions import Fraction
from typing import Any

import pytest

from bot.store import (
    ConstraintError,
    HandEnded,
    LeaderboardDelta,
    NewAction,
    NewDeadline,
    Settlement,
    SettlementRow,
    StaleAction,
    Store,
)
from bot.store.database import Session
from tests.narrowing import known
from tests.store.helpers import CHANNEL, GUILD, Game, NewGame

WIN = NewAction(2, 1, "win", {"tile": "5z"}, "player", 130.0)
PATTERNS = [["七对", 2], ["门清", 1]]
SETTLEMENTS = [Settlement(0, Fraction(-7, 2)), Settlement(1, Fraction(21, 2), PATTERNS, 3),
               Settlement(2, Fraction(-7, 2)), Settlement(3, Fraction(-7, 2))]
DELTAS = [LeaderboardDelta("user:1", "P1", Fraction(-7, 2), 0, 1),
          LeaderboardDelta("user:2", "P2", Fraction(21, 2), 1, 1, 0, 3, "七对 门清"),
          LeaderboardDelta("user:3", "P3", Fraction(-7, 2), 0, 1),
          LeaderboardDelta("computer:3", "Bot3", Fraction(-7, 2), 0, 1)]


async def started(store: Store, new_game: NewGame) -> Game:
    """A hand with one discard on the log and a claim deadline open."""
    game = await new_game()
    await store.log.append(game.hand.id, 1, 0, "discard", {"tile": "5z"}, "player", 120.0,
                           deadlines=[NewDeadline(1, 2, "claim", 120.0, 180.0)])
    return game


async def test_everything_is_written(store: Store, new_game: NewGame) -> None:
    game = await started(store, new_game)
    ended = await store.endings.finish_hand(game.hand.id, WIN, settlements=SETTLEMENTS,
                                            deltas=DELTAS, at=130.0)
    assert (ended.status, ended.ended_at) == ("ended", 130.0)
    assert (await store.log.actions(game.hand.id))[-1].kind == "win"
    assert await store.endings.settlements(game.hand.id) == [
        SettlementRow(game.hand.id, s.seat, s.amount, list(s.patterns), s.value)
        for s in SETTLEMENTS]
    assert await store.deadlines.all(game.hand.id) == []
    board = await store.leaderboard.top(CHANNEL, "shanghai")
    assert [(e.player_key, e.points) for e in board[:2]] == [
        ("user:2", Fraction(21, 2)), ("user:1", Fraction(-7, 2))]
    assert all(e.player_key.startswith("user:") for e in board)  # computers never rank
    assert all((e.guild_id, e.channel_id) == (GUILD, CHANNEL) for e in board)
    assert known(await store.matches.get(game.match.id)).status == "playing"


async def test_the_last_hand_can_finish_the_match(store: Store, new_game: NewGame) -> None:
    game = await started(store, new_game)
    totals = {s.seat: s.amount for s in SETTLEMENTS}
    await store.endings.finish_hand(game.hand.id, WIN, settlements=SETTLEMENTS, deltas=DELTAS,
                                    at=130.0, match_totals=totals)
    match = await store.matches.get(game.match.id)
    assert match is not None and (match.status, match.totals) == ("finished", totals)


async def test_a_drawn_hand_needs_no_final_action(store: Store, new_game: NewGame) -> None:
    game = await started(store, new_game)
    await store.endings.finish_hand(game.hand.id, None, settlements=[], deltas=[], at=140.0)
    assert [a.seq for a in await store.log.actions(game.hand.id)] == [1]
    with pytest.raises(HandEnded):
        await store.endings.finish_hand(game.hand.id, None, settlements=[], deltas=[], at=141.0)


async def assert_untouched(store: Store, game: Game) -> None:
    hand = await store.hands.get(game.hand.id)
    assert hand is not None and hand.status == "live" and hand.ended_at is None
    assert [a.seq for a in await store.log.actions(game.hand.id)] == [1]
    assert await store.endings.settlements(game.hand.id) == []
    assert len(await store.deadlines.all(game.hand.id)) == 1
    assert await store.leaderboard.top(CHANNEL, "shanghai") == []
    match = await store.matches.get(game.match.id)
    assert match is not None and match.status == "playing"


async def test_a_bad_settlement_row_writes_nothing(store: Store, new_game: NewGame) -> None:
    game = await started(store, new_game)
    broken = [*SETTLEMENTS[:2], Settlement(9, Fraction(1))]  # seat 9 breaks a CHECK
    with pytest.raises(ConstraintError):
        await store.endings.finish_hand(game.hand.id, WIN, settlements=broken, deltas=DELTAS,
                                        at=130.0, match_totals={0: Fraction(0)})
    await assert_untouched(store, game)


async def test_a_duplicate_settlement_writes_nothing(store: Store, new_game: NewGame) -> None:
    game = await started(store, new_game)
    with pytest.raises(ConstraintError):
        await store.endings.finish_hand(game.hand.id, WIN,
                                        settlements=[*SETTLEMENTS, SETTLEMENTS[0]],
                                        deltas=DELTAS, at=130.0)
    await assert_untouched(store, game)


async def test_a_crash_in_the_last_step_writes_nothing(store: Store, new_game: NewGame,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail after the action, settlements, status and most standings are written."""
    game = await started(store, new_game)
    real_write = store._db.write

    @asynccontextmanager
    async def crash_on_third_player() -> AsyncIterator[Session]:
        async with real_write() as session:
            real_run = session.run

            async def run(sql: str, params: Sequence[Any] = ()) -> int:
                if "INTO leaderboard" in sql and "user:3" in params:
                    raise RuntimeError("power cut")
                return await real_run(sql, params)

            monkeypatch.setattr(session, "run", run)
            yield session

    monkeypatch.setattr(store._db, "write", crash_on_third_player)
    with pytest.raises(RuntimeError, match="power cut"):
        await store.endings.finish_hand(game.hand.id, WIN, settlements=SETTLEMENTS, deltas=DELTAS,
                                        at=130.0)
    monkeypatch.undo()
    await assert_untouched(store, game)


async def test_a_stale_final_action_writes_nothing(store: Store, new_game: NewGame) -> None:
    game = await started(store, new_game)
    stale = NewAction(1, 1, "win", {}, "player", 130.0)
    with pytest.raises(StaleAction):
        await store.endings.finish_hand(game.hand.id, stale, settlements=SETTLEMENTS, deltas=DELTAS,
                                        at=130.0)
    await assert_untouched(store, game)
