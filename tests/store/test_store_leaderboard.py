"""The channel leaderboard: exact fractions, running counts, best hand, ranking."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.store import ConstraintError, LeaderboardDelta, Store, player_key

SH = "shanghai"


async def test_deltas_accumulate_exactly(store: Store) -> None:
    await store.leaderboard.apply(1, 10, SH, [LeaderboardDelta("user:5", "Ann", Fraction(1, 3),
                                                           hands_played=1)])
    await store.leaderboard.apply(1, 10, SH, [LeaderboardDelta("user:5", "Ann B", Fraction(1, 6),
                                                           1, 1, 1, 4, "清一色")])
    entry = await store.leaderboard.entry(10, SH, "user:5")
    assert entry is not None
    assert (entry.points, entry.hands_won, entry.hands_played, entry.matches_played) == (
        Fraction(1, 2), 1, 2, 1)
    assert (entry.display_name, entry.best_hand_value, entry.best_hand_desc) == (
        "Ann B", 4, "清一色")
    assert await store.leaderboard.entry(11, SH, "user:5") is None


async def test_best_hand_only_improves(store: Store) -> None:
    key = "computer:2"
    for value, desc in ((5, "big"), (3, "small"), (None, None), (8, "bigger")):
        await store.leaderboard.apply(1, 10, SH, [LeaderboardDelta(key, "Bot", hand_value=value,
                                                               hand_desc=desc)])
        entry = await store.leaderboard.entry(10, SH, key)
        assert entry is not None
        expected = {5: (5, "big"), 3: (5, "big"), None: (5, "big"), 8: (8, "bigger")}[value]
        assert (entry.best_hand_value, entry.best_hand_desc) == expected


async def test_ranking_limit_and_channels(store: Store) -> None:
    deltas = [LeaderboardDelta("user:1", "Zed", Fraction(-20)),
              LeaderboardDelta("user:2", "Amy", Fraction(7, 2), hands_won=1),
              LeaderboardDelta("user:3", "Bob", Fraction(7, 2), hands_won=2),
              LeaderboardDelta("computer:0", "Bot", Fraction(35, 10))]
    await store.leaderboard.apply(1, 10, SH, deltas)
    await store.leaderboard.apply(1, 20, SH,
                                  [LeaderboardDelta("user:9", "Elsewhere", Fraction(99))])
    names = [e.display_name for e in await store.leaderboard.top(10, SH)]
    assert names == ["Bob", "Amy", "Zed"]  # points, then hands won, then name; no computer
    assert [e.display_name for e in await store.leaderboard.top(10, SH, limit=2)] == ["Bob", "Amy"]
    assert [e.points for e in await store.leaderboard.top(20, SH)] == [Fraction(99)]


async def test_bad_key_writes_nothing(store: Store) -> None:
    with pytest.raises(ConstraintError):
        await store.leaderboard.apply(1, 10, SH, [LeaderboardDelta("user:1", "Ok", Fraction(1)),
                                              LeaderboardDelta("someone", "Bad", Fraction(1))])
    assert await store.leaderboard.top(10, SH) == []


def test_player_keys() -> None:
    assert player_key(12345, 0) == "user:12345"
    assert player_key(None, 3) == "computer:3"
