"""Upgrades (issue 34): a database made by the first released bot upgrades and plays on.

``fixtures/first_release.sqlite3`` was written by the code of 32d293a, the first commit
where ``mahjong-bot`` ran the Discord bot (schema 0002: 0001_init and 0002_penalties),
playing its demo match of three hands (four computer players, guild and channel 1) and
killed with SIGKILL during hand 2: hand 1 settled, hand 2 live with a computer's
deadline, the leaderboard written. Made once, in a git worktree of that commit, with:

    PYTHONPATH=<worktree> python -m bot demo --db first_release.sqlite3 --hands 3 \\
        --pause 0.05      # SIGKILL once hand 2 had 20 actions; journal_mode=delete after

Today's code migrates it at open (every migration since 0002, in order), recovers the
live hand, plays the match to its end, replays the hand settled before the upgrade,
rebuilds the stats' facts from the old logs, and makes new tables as ever. On
PostgreSQL the same rows are written into a database at that release's schema
(PostgreSQL's 0001 and 0002, the identity sequences moved on as its inserts would have),
then upgraded and played on alike.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path

import pytest

from bot.ops.status import read_status
from bot.service import Cause, FakeClock, Place, RecordingNotifier, TableService
from bot.store import Store, load_migrations
from bot.store.migrate import Dialect
from tests.pgcluster import Server

FIXTURE = Path(__file__).parent / "fixtures" / "first_release.sqlite3"
PLAYED_AT = 1796573584.8
"""The moment the old bot was killed (its last deadline's set_at)."""
HERE = Cause(1, "Host", place=Place(1, 1))
FIRST_SCHEMA = 2
TABLES = ("game_tables", "seats", "matches", "hands", "actions", "deadlines", "settlements",
          "leaderboard", "penalties")
"""The first release's tables, parents first."""


@pytest.fixture(params=["sqlite", "postgres"])
async def first_release(request: pytest.FixtureRequest, tmp_path: Path
                        ) -> AsyncIterator[Path | str]:
    """The first release's database, on each backend."""
    if request.param == "sqlite":
        db = tmp_path / "mahjong.sqlite3"
        shutil.copyfile(FIXTURE, db)
        yield db
        return
    import asyncpg

    server: Server = request.getfixturevalue("pg_server")
    url = await server.database(migrated=False)
    await (await Store.open(url, migrations=load_migrations(dialect="postgres")[
        :FIRST_SCHEMA])).close()
    conn = await asyncpg.connect(url)
    try:
        with closing(sqlite3.connect(f"{FIXTURE.as_uri()}?mode=ro", uri=True)) as old:
            for table in TABLES:
                cursor = old.execute(f"SELECT * FROM {table}")
                columns = [c[0] for c in cursor.description]
                rows = cursor.fetchall()
                if rows:
                    await conn.copy_records_to_table(table, records=rows, columns=columns)
        for table in ("game_tables", "matches", "hands", "penalties"):
            await conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                               f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
    finally:
        await conn.close()
    yield url
    await server.drop(url)


def test_the_fixture_is_what_the_first_release_wrote() -> None:
    with closing(sqlite3.connect(f"{FIXTURE.as_uri()}?mode=ro", uri=True)) as conn:
        versions = [r[0] for r in conn.execute("SELECT version FROM schema_version")]
        hands = conn.execute("SELECT number, status FROM hands ORDER BY number").fetchall()
    assert versions == [1, 2]
    assert hands == [(1, "ended"), (2, "live")]


async def test_a_database_of_the_first_release_upgrades_and_plays_on(
        first_release: Path | str) -> None:
    db = first_release
    dialect: Dialect = "postgres" if isinstance(db, str) else "sqlite"
    async with await Store.open(db, migrate=False) as old:
        assert await old.maintenance.schema_version() == FIRST_SCHEMA
    clock = FakeClock(start=PLAYED_AT + 86400)  # the bot upgraded a day later
    store = await Store.open(db)
    try:
        assert await store.maintenance.schema_version() == \
            load_migrations(dialect=dialect)[-1].version
        notes = RecordingNotifier()
        service = TableService(store, notes, clock=clock, computer_pause=0.0)
        await service.recover()
        await service.start_facts()  # the stats' facts derived from the old logs
        for _ in range(10_000):
            if notes.of("match_ended"):
                break
            clock.advance(10)
            await service.run_due()
        info = await service.table_info(1)
        assert info.status == "finished" and info.hands_played == 3
        assert info.totals is not None and sum(info.totals) == 0
        frame = await service.replay(HERE, 1, hand=1)  # settled before the upgrade
        assert frame.last > 0
        record = await service.hand_record(HERE, 1, hand=1)
        assert record.filename == "hand-1-1.json"
        again = await service.create_table(HERE, guild_id=1, channel_id=1, rules="hangzhou")
        assert again.ref.table_id == 2
    finally:
        await store.close()
    found = await read_status(db, now=clock.now())
    assert found.stuck == [] and found.figures["tables"]["lobby"] == 1
