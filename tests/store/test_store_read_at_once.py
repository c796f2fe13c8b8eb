"""`Database.read_at_once`: a read transaction handed over whole (a cold table's load,
issue 32): it sees every committed write, one consistent view, on both backends; on
SQLite it runs on the loop's own connection, and in aiosqlite's thread while a
transaction of several trips holds the connection."""

from __future__ import annotations

import asyncio

from bot.store import Store
from bot.store.database import Session
from tests.store.helpers import NewGame


async def _two_reads(db: Session, table_id: int) -> tuple[int, int]:
    one = await db.one("SELECT count(*) AS n FROM seats WHERE table_id = ?", (table_id,))
    two = await db.one("SELECT count(*) AS n FROM game_tables WHERE id = ?", (table_id,))
    assert one is not None and two is not None
    return int(one["n"]), int(two["n"])


async def test_a_read_at_once_sees_what_was_committed(store: Store, new_game: NewGame
                                                      ) -> None:
    game = await new_game(users=(5, 6))
    assert await store._db.read_at_once(_two_reads, game.table.id) == (4, 1)  # 2 computers
    loads = await store.rebuilds.load([game.table.id])
    assert [s.user_id for s in loads[game.table.id].seats][:2] == [5, 6]


async def test_a_read_at_once_waits_for_a_transaction_of_several_trips(
        store: Store, new_game: NewGame) -> None:
    game = await new_game(users=(5,))
    held = asyncio.Event()
    done = asyncio.Event()

    async def writer() -> None:
        async with store._db.write() as db:
            await db.run("DELETE FROM seats WHERE table_id = ?", (game.table.id,))
            held.set()
            await asyncio.sleep(0.05)
        done.set()

    task = asyncio.create_task(writer())
    await held.wait()
    seen = await store._db.read_at_once(_two_reads, game.table.id)
    assert done.is_set() and seen == (0, 1)  # after the write's commit, never between
    await task
