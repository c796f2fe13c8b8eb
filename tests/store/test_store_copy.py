"""``mahjong-bot copy-database``: a SQLite database with played hands (and one in
play) copied into PostgreSQL reads back the same through the store, ids and all."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from bot.demo import DEMO_CHANNEL, run_demo
from bot.service.ratings import FORMULA
from bot.store import (
    HandFact,
    LeaderboardDelta,
    MatchFact,
    NewDeadline,
    NewHand,
    NewSnapshot,
    Store,
)
from bot.store.copy import TABLES, CopyRefused, copy_database
from tests.pgcluster import Server
from tests.store.helpers import CHANNEL, COMMITMENT, GUILD, SALT, WALL


async def played(path: Path) -> None:
    """A demo match of two hands, then a table mid-hand beside it."""
    await run_demo("shanghai", 2, None, path, pause=0.0, stream=io.StringIO())
    store = await Store.open(path)
    try:
        table = await store.lobby.create_table(guild_id=GUILD, channel_id=CHANNEL, creator_id=1,
                                               rules="hangzhou", at=1.0, options={"hands": 4})
        await store.lobby.sit(table.id, 0, user_id=2**62, display_name="Ann", at=1.0)
        for seat in (1, 2, 3):
            await store.lobby.sit_computer(table.id, seat, display_name=f"C{seat}", at=1.0)
        await store.lobby.set_status(table.id, "playing", expected="lobby")
        match = await store.matches.create(table.id, first_dealer=0, at=2.0)
        hand = await store.matches.deal(match.id, NewHand(WALL, SALT, COMMITMENT, dice=(2, 3),
                                                          dealer=0, streak=0, huangfan=0),
                                        at=3.0)
        for seq in (1, 2, 3):
            await store.log.append(
                hand.id, seq, seq % 4, "discard", {"tile": "5z"}, "player", 3.0 + seq,
                deadlines=[NewDeadline(seq % 4, seq + 1, "turn", 4.0, 99.0, 90.0, 70.0)],
                snapshot=NewSnapshot(seq, "v1", "{}") if seq == 2 else None,
                asked_at=3.0, banks={seq % 4: 9.0 - seq})  # 0023: answer times, banks
        await store.claim_answers.replace(hand.id, 1, [("5m", "pong")])
        await store.premoves.set(hand.id, 1, "9p", at=4.5)
        await store.lobby.set_user_locale(2**62, "zh-CN", at=5.0)
        await store.lobby.set_setting("commands:global", "abc", at=5.0)
        await store.people.set_quiet(2**62, time_zone="Asia/Shanghai", start=1380, end=420,
                                     at=5.0)
        await store.digests.owe(2**62, 50.0, at=5.0)
        await store.facts.write([HandFact(hand.id, 0, match.id, table.id, GUILD, CHANNEL,
                                          "hangzhou", 1, 2**62, 6.0, Fraction(-5, 2))],
                                [MatchFact(match.id, 0, table.id, GUILD, CHANNEL, "hangzhou",
                                           2**62, 6.0, 4, Fraction(-5, 2), 1, 3)])
        # the demo's match (the first), rated as if three people had played it (0027)
        await store.facts.write([], [MatchFact(1, s, 1, GUILD, DEMO_CHANNEL, "shanghai",
                                               2**62 + s if s < 3 else None, 7.0, s + 1,
                                               Fraction(0), 2, 1) for s in range(4)])
        # (the demo rated its match as computers' when it finished: rated again whole)
        await store.ratings.rebuild(FORMULA)
        await store.matches.replace_by_computer(table.id, 0, display_name="C0", match_id=match.id,
                                                penalties={0: Fraction(-5, 2)}, at=6.0,
                                                deltas=[LeaderboardDelta(f"user:{2**62}", "Ann",
                                                                         Fraction(-5, 2))],
                                                left=(hand.id, 3))
    finally:
        await store.close()


async def everything(store: Store) -> tuple[object, ...]:
    """What the bot reads back, through the store's own methods."""
    tables = [t for c in (CHANNEL, DEMO_CHANNEL) for t in await store.lobby.tables_in_channel(c)]
    ids = [t.id for t in tables]
    matches = [m for t in ids for m in await store.matches.of_table(t)]
    hands = [h for m in matches for h in await store.hands.of_match(m.id)]
    return (tables, await store.rebuilds.load(ids), matches, hands,
            [await store.log.actions(h.id) for h in hands],
            [await store.claim_answers.of_hand(h.id) for h in hands],
            [await store.endings.settlements(h.id) for h in hands],
            [await store.matches.departures(m.id) for m in matches],
            await store.leaderboard.top(CHANNEL, "hangzhou"),
            [await store.outbox.of_table(t) for t in ids],
            await store.leaderboard.top(DEMO_CHANNEL, "shanghai"),
            await store.leaderboard.top(DEMO_CHANNEL, "hangzhou"), await store.deadlines.all(),
            await store.lobby.user_locales([2**62]), await store.lobby.setting("commands:global"),
            await store.people.get(2**62), await store.digests.owed(2**62),
            await store.facts.all_hands(), await store.facts.all_matches(),
            await store.ratings.shown(GUILD, "shanghai", [2**62, 2**62 + 1, 2**62 + 2]),
            await store.ratings.changes_between(GUILD, 0.0, 1e9))


async def test_a_played_database_copies_over_whole(tmp_path: Path, pg_url: str) -> None:
    source = tmp_path / "mahjong.sqlite3"
    await played(source)
    said: list[str] = []
    copied = await copy_database(source, pg_url, say=said.append)
    assert [c.table for c in copied] == list(TABLES)
    assert all(c.rows > 0 for c in copied), copied  # every table had something to copy
    assert said[-1].startswith("done: ") and "DATABASE_URL" in said[-1]
    sqlite, postgres = await Store.open(source), await Store.open(pg_url)
    try:
        assert await everything(postgres) == await everything(sqlite)
        # the sequences moved on: a new table gets the next id, not a copied one's
        before = max(t.id for t in await sqlite.lobby.live_tables())
        fresh = await postgres.lobby.create_table(guild_id=GUILD, channel_id=CHANNEL, creator_id=1,
                                                  rules="shanghai", at=9.0)
        assert fresh.id == before + 1
    finally:
        await sqlite.close()
        await postgres.close()


async def test_a_target_with_rows_is_refused_unless_replaced(tmp_path: Path,
                                                             pg_url: str) -> None:
    source = tmp_path / "mahjong.sqlite3"
    await played(source)
    await copy_database(source, pg_url, say=lambda _: None)
    with pytest.raises(CopyRefused, match="already holds rows in game_tables"):
        await copy_database(source, pg_url, say=lambda _: None)
    first = await Store.open(pg_url)
    try:
        before = await everything(first)
    finally:
        await first.close()
    said: list[str] = []
    await copy_database(source, pg_url, replace=True, say=said.append)
    assert any("--replace" in line for line in said)
    again = await Store.open(pg_url)
    try:
        assert await everything(again) == before  # replaced, not added to
    finally:
        await again.close()


async def test_a_missing_source_is_refused_and_not_created(tmp_path: Path,
                                                           pg_url: str) -> None:
    with pytest.raises(CopyRefused, match="there is no SQLite database at"):
        await copy_database(tmp_path / "typo.sqlite3", pg_url, say=lambda _: None)
    assert not (tmp_path / "typo.sqlite3").exists()


def test_the_command_copies_and_tells_what_it_did(tmp_path: Path, pg_server: Server) -> None:
    import asyncio

    source = tmp_path / "mahjong.sqlite3"
    asyncio.run(played(source))
    url = asyncio.run(pg_server.database(migrated=False))
    try:
        env = {**os.environ, "DATABASE_URL": url}
        done = subprocess.run([sys.executable, "-m", "bot", "copy-database", "--from",
                               str(source)], capture_output=True, text=True, env=env,
                              cwd=tmp_path, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        assert "actions: " in done.stdout and "done: " in done.stdout
        password = url.split(":")[2].split("@")[0]
        assert password not in done.stdout + done.stderr
        again = subprocess.run([sys.executable, "-m", "bot", "copy-database", "--from",
                                str(source)], capture_output=True, text=True, env=env,
                               cwd=tmp_path, timeout=120, check=False)
        assert again.returncode == 2 and "--replace" in again.stderr
    finally:
        asyncio.run(pg_server.drop(url))
