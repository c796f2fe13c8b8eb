"""Standings per rule set (migration 0014): one board per channel and rule set, and the
rows a bot kept before 0014 given the rule set of the tables that made them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from fractions import Fraction
from pathlib import Path
from typing import Literal

import pytest

from bot.store import LeaderboardDelta, Store, load_migrations
from tests.pgcluster import Server

ANN = LeaderboardDelta("user:1", "Ann", Fraction(400), hands_won=1, hands_played=1)


async def test_each_rule_set_keeps_its_own_line(store: Store) -> None:
    await store.leaderboard.apply(1, 10, "shanghai", [ANN])
    for points in (6, -2):
        await store.leaderboard.apply(1, 10, "hangzhou",
                                      [LeaderboardDelta("user:1", "Ann", Fraction(points))])
    shanghai = await store.leaderboard.entry(10, "shanghai", "user:1")
    hangzhou = await store.leaderboard.entry(10, "hangzhou", "user:1")
    assert shanghai is not None and hangzhou is not None
    assert (shanghai.points, shanghai.rules) == (Fraction(400), "shanghai")
    assert (hangzhou.points, hangzhou.rules) == (Fraction(4), "hangzhou")
    assert [r.rules for r in await store.leaderboard.top(10, "hangzhou")] == ["hangzhou"]


async def test_the_rule_sets_of_a_channel_the_last_played_first(store: Store) -> None:
    assert await store.leaderboard.rules(10) == []
    await store.leaderboard.apply(1, 10, "hangzhou", [ANN])
    assert await store.leaderboard.rules(10) == ["hangzhou"]
    await store.leaderboard.apply(1, 10, "shanghai", [ANN])
    assert await store.leaderboard.rules(10) == ["hangzhou", "shanghai"]  # no table: by name
    for rules in ("hangzhou", "shanghai"):
        await store.lobby.create_table(guild_id=1, channel_id=10, creator_id=5, rules=rules,
                                       options={}, at=0.0)
    assert await store.leaderboard.rules(10) == ["shanghai", "hangzhou"]
    assert await store.leaderboard.rules(11) == []


@pytest.fixture(params=["sqlite", "postgres"])
async def empty_database(request: pytest.FixtureRequest, tmp_path: Path
                         ) -> AsyncIterator[Path | str]:
    if request.param == "sqlite":
        yield tmp_path / "old.sqlite3"
        return
    server: Server = request.getfixturevalue("pg_server")  # skips without PostgreSQL
    url = await server.database(migrated=False)
    yield url
    await server.drop(url)


async def test_standings_kept_before_0014_go_to_their_tables_rule_set(
        empty_database: Path | str) -> None:
    dialect: Literal["sqlite", "postgres"] = \
        "sqlite" if isinstance(empty_database, Path) else "postgres"
    before = [m for m in load_migrations(dialect=dialect) if m.version < 14]
    old = await Store.open(empty_database, migrations=before)
    try:
        # channel 10 played Hangzhou only; 20 Shanghai then Hangzhou (mixed sums: they
        # go to the rule set it played last); 30 Hangzhou, then a Shanghai table that
        # never began a match; 40 has no table at all (tools only): the default
        tables = [(10, "hangzhou", True), (20, "shanghai", True), (20, "hangzhou", True),
                  (30, "hangzhou", True), (30, "shanghai", False)]
        for channel, rules, played in tables:
            row = await old.lobby.create_table(guild_id=1, channel_id=channel, creator_id=5,
                                               rules=rules, options={}, at=0.0)
            if played:
                await old.matches.create(row.id, first_dealer=0, at=0.0)
        async with old._db.write() as db:
            for channel in (10, 20, 30, 40):
                await db.run(
                    "INSERT INTO leaderboard (guild_id, channel_id, player_key, display_name,"
                    " points, hands_won, hands_played, matches_played, best_hand_value)"
                    " VALUES (1, ?, 'user:1', 'Ann', '7/2', 2, 5, 1, 9)", (channel,))
    finally:
        await old.close()
    store = await Store.open(empty_database)
    try:
        expected = {10: "hangzhou", 20: "hangzhou", 30: "hangzhou", 40: "shanghai"}
        for channel, rules in expected.items():
            assert await store.leaderboard.rules(channel) == [rules]
            (line,) = await store.leaderboard.top(channel, rules)
            assert (line.points, line.hands_won, line.best_hand_value) == (Fraction(7, 2), 2, 9)
        await store.leaderboard.apply(1, 10, "shanghai", [ANN])  # the new key takes it
        assert await store.leaderboard.rules(10) == ["hangzhou", "shanghai"]
    finally:
        await store.close()

