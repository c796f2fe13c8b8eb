"""Seasons (0026): closing a server's season archives every channel board of that
server and clears it, once; past seasons and all time read back exactly, never a
computer, never another server's."""

from __future__ import annotations

import asyncio
from fractions import Fraction

from bot.store import LeaderboardDelta, Store
from bot.store.seasons import SeasonClose

SH, HZ = "shanghai", "hangzhou"
G, OTHER = 1, 2


def d(key: str, name: str, points: Fraction, won: int = 0, played: int = 1,
      value: int | None = None) -> LeaderboardDelta:
    return LeaderboardDelta(key, name, points, won, played, 0, value,
                            None if value is None else f"best {value}")


async def test_a_server_starts_in_season_1_and_closing_archives_every_channel(
        store: Store) -> None:
    assert await store.seasons.current(G) == 1
    await store.leaderboard.apply(G, 10, SH, [d("user:1", "Ann", Fraction(1, 3), 1, 2, 8),
                                              d("computer:2", "Bot", Fraction(5))])
    await store.leaderboard.apply(G, 11, HZ, [d("user:2", "Bo", Fraction(-2))])
    await store.leaderboard.apply(OTHER, 20, SH, [d("user:1", "Ann", Fraction(7))])
    done = await store.seasons.close(G, 1, by=99, at=500.0)
    assert done == SeasonClose(1, 2, 3)
    assert await store.seasons.current(G) == 2 and await store.seasons.current(OTHER) == 1
    assert await store.leaderboard.top(10, SH) == [] and await store.leaderboard.top(11, HZ) == []
    assert [r.points for r in await store.leaderboard.top(20, SH)] == [7]  # another server's
    [ann] = await store.seasons.archived_top(G, 10, 1, SH)
    assert (ann.display_name, ann.points, ann.hands_won, ann.hands_played,
            ann.best_hand_value) == ("Ann", Fraction(1, 3), 1, 2, 8)  # no computer
    assert [r.display_name for r in await store.seasons.archived_top(G, 11, 1, HZ)] == ["Bo"]
    assert await store.seasons.archived_top(OTHER, 10, 1, SH) == []  # judged in place
    assert await store.seasons.archived_rules(G, 10, 1) == [SH]
    [closed] = await store.seasons.closed(G)
    assert (closed.number, closed.started_at, closed.closed_at, closed.closed_by) == (
        1, None, 500.0, 99)
    second = await store.seasons.get(G, 2)
    assert second is not None and second.started_at == 500.0 and second.closed_at is None


async def test_closing_twice_closes_once(store: Store) -> None:
    await store.leaderboard.apply(G, 10, SH, [d("user:1", "Ann", Fraction(1))])
    assert await store.seasons.close(G, 1, by=9, at=1.0) is not None
    await store.leaderboard.apply(G, 10, SH, [d("user:1", "Ann", Fraction(2))])
    assert await store.seasons.close(G, 1, by=9, at=2.0) is None  # the second press
    assert [r.points for r in await store.leaderboard.top(10, SH)] == [2]
    assert await store.seasons.current(G) == 2
    assert await store.seasons.close(G, 3, by=9, at=3.0) is None  # no such open season
    assert await store.seasons.current(G) == 2


async def test_two_closes_at_once_close_once(store: Store, database: object) -> None:
    await store.leaderboard.apply(G, 10, SH, [d("user:1", "Ann", Fraction(1))])
    other = await Store.open(database)  # type: ignore[arg-type]
    try:
        results = await asyncio.gather(store.seasons.close(G, 1, by=1, at=1.0),
                                       other.seasons.close(G, 1, by=2, at=1.0))
    finally:
        await other.close()
    assert sorted(r is None for r in results) == [False, True]
    assert await store.seasons.current(G) == 2
    assert len(await store.seasons.archived_top(G, 10, 1, SH)) == 1


async def test_all_time_sums_the_archive_and_the_live_board_exactly(store: Store) -> None:
    await store.leaderboard.apply(G, 10, SH, [d("user:1", "Ann", Fraction(1, 3), 1, 1, 8),
                                              d("user:2", "Bo", Fraction(1))])
    await store.seasons.close(G, 1, by=9, at=1.0)
    await store.leaderboard.apply(G, 10, SH, [d("user:1", "Ann B", Fraction(1, 6), 2, 3, 5),
                                              d("computer:1", "Bot", Fraction(100))])
    await store.seasons.close(G, 2, by=9, at=2.0)
    await store.leaderboard.apply(G, 10, SH, [d("user:1", "Ann C", Fraction(1, 7), 0, 1, 12),
                                              d("user:3", "Cy", Fraction(-1))])
    await store.leaderboard.apply(OTHER, 30, SH, [d("user:1", "Ann", Fraction(50))])
    rows = await store.seasons.all_time(G, 10, SH)
    assert [r.display_name for r in rows] == ["Bo", "Ann C", "Cy"]  # no computer
    ann = rows[1]
    assert ann.points == Fraction(1, 3) + Fraction(1, 6) + Fraction(1, 7)
    assert (ann.hands_won, ann.hands_played, ann.best_hand_value, ann.best_hand_desc) == (
        3, 5, 12, "best 12")
    # every season's lines and the live line add up to the all-time line
    seasons = [await store.seasons.archived_top(G, 10, n, SH) for n in (1, 2)]
    live = await store.leaderboard.top(10, SH)
    for person in rows:
        parts = [r.points for board in [*seasons, live] for r in board
                 if r.player_key == person.player_key]
        assert sum(parts, Fraction(0)) == person.points
