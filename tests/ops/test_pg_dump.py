"""PostgreSQL's backup, as the README says it (issue 34): ``pg_dump`` of the bot's
database during a match, ``pg_restore`` into an empty database, and a bot (the table
service on a fresh connection, as a process starting on it) recovers there and plays
the match to its end. Skipped where pg_dump is not installed."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from bot.ops.status import read_status
from tests.pgcluster import Server
from tests.service.helpers import ANN, worlds_on

PG_DUMP, PG_RESTORE = shutil.which("pg_dump"), shutil.which("pg_restore")
pytestmark = pytest.mark.skipif(PG_DUMP is None or PG_RESTORE is None,
                                reason="pg_dump / pg_restore are not installed")


async def run(*command: str) -> None:
    done = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)
    _, err = await done.communicate()
    assert done.returncode == 0, (command[0], err.decode())


async def test_a_pg_dump_restores_into_a_database_the_bot_then_uses(
        pg_server: Server, tmp_path: Path) -> None:
    assert PG_DUMP is not None and PG_RESTORE is not None
    source = await pg_server.database()
    target = await pg_server.database(migrated=False)  # empty, as createdb makes it
    dump = tmp_path / "mahjong.dump"
    try:
        async with worlds_on(source) as make:
            world = await make()
            table = await world.table(options={"hands": 2})
            await world.advance(13 * 3600)  # a turn timed out: a move, the next asked
            live = await world.store.hands.live(table)
            assert live is not None and live.number == 1
            moved = await world.store.log.next_seq(live.id)
            assert moved > 1
            # the bot is running: pg_dump copies one consistent moment beside it
            await run(PG_DUMP, "--format=custom", f"--file={dump}", source)
        await run(PG_RESTORE, "--no-owner", f"--dbname={target}", str(dump))
        found = await read_status(target, now=world.clock.now())
        assert found.version == found.latest and found.figures["tables"]["playing"] == 1
        async with worlds_on(target) as make:
            world = await make(clock=world.clock)
            await world.service.recover()
            await world.until("match_ended", step=3600)
            info = await world.service.table_info(table)
            assert info.status == "finished"
            (match,) = await world.store.matches.of_table(table)
            hands = await world.store.hands.of_match(match.id)
            assert [h.number for h in hands] == [1, 2]
            assert all(h.status == "ended" for h in hands)
            # and new tables are made there as ever (identity sequences restored too)
            again = await world.table((ANN,), computers=3, start=False, channel=71)
            assert again > table
    finally:
        await pg_server.drop(source)
        await pg_server.drop(target)
