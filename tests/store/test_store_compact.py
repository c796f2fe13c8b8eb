"""A finished hand's log in one compact row (issue 32, "a hand costs its log";
`bot.store.compact`, migration 0032): written when the hand ends, read back as the rows
it was, checked by the log's running digest, and made by migration 0032 from a database
BASE's code wrote (2b35dd9, before it: tests/store/fixtures/make_base.py made the two
committed databases). SQLite and PostgreSQL both."""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import re
import sqlite3
from collections.abc import AsyncIterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bot.service import Cause, FakeClock, Place, RecordingNotifier, TableService
from bot.service.facts import rebuild_facts
from bot.service.fairness import parse_wall
from bot.store import Store
from bot.store.compact import compact_sql, decode, digest_of, encode
from bot.store.migrate import Dialect, load_migrations
from engine.ai import choose_action
from engine.game import Action, deciding_seats, replay
from tests.narrowing import known
from tests.pgcluster import Server

FIXTURES = Path(__file__).parent / "fixtures"
ENDED = (1, 2, 3, 4, 5)
"""The fixture's ended hands: two matches of two hands, and a hand voided by a cancel."""
LIVE = 6
LIVE_TABLE = 4
CHANNELS = {1: 70, 2: 71, 3: 72, 4: 72}
"""Each of the fixture's tables' channel (server 7)."""
FACT_COLUMNS = "hand_id, seat, user_id, points, won, moves, move_hist, timeouts, claims"


def _statement(sql: str) -> str:
    return " ".join(re.sub(r"--[^\n]*", "", sql).split())


@pytest.mark.parametrize("dialect", ["sqlite", "postgres"])
def test_the_migration_writes_what_a_hand_ending_writes(dialect: Dialect) -> None:
    (migration,) = [m for m in load_migrations(dialect=dialect)
                    if m.name == "0032_compact_logs"]
    statements = [s.strip() for s in _statement(migration.sql).split(";") if s.strip()]
    assert _statement(compact_sql(dialect, "h.status = 'ended'")) in statements


@pytest.fixture(params=["sqlite", "postgres"])
async def base(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The database BASE's code made (schema 0030), restored: a SQLite file, or a fresh
    PostgreSQL database the committed dump is run into."""
    if request.param == "sqlite":
        path = tmp_path / "base.sqlite3"
        path.write_bytes(gzip.decompress((FIXTURES / "base_2b35dd9.sqlite3.gz").read_bytes()))
        yield str(path)
        return
    import asyncpg

    server: Server = request.getfixturevalue("pg_server")
    url = await server.database(migrated=False)
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(gzip.decompress(
            (FIXTURES / "base_2b35dd9.pg.sql.gz").read_bytes()).decode())
    finally:
        await conn.close()
    yield url
    await server.drop(url)


async def _raw(target: str, sql: str) -> list[tuple[Any, ...]]:
    """Rows read without the store (the database as BASE left it)."""
    if not target.startswith("postgresql"):
        conn = sqlite3.connect(target)
        try:
            return [tuple(r) for r in conn.execute(sql).fetchall()]
        finally:
            conn.close()
    import asyncpg

    pg = await asyncpg.connect(target)
    try:
        return [tuple(r) for r in await pg.fetch(sql)]
    finally:
        await pg.close()


def _cause(user: int, table: int) -> Cause:
    return Cause(user, f"P{user}", place=Place(7, CHANNELS[table]))


async def _check_record(service: TableService, table: int, number: int) -> None:
    """The hand's JSON record: its commitment checks out, and its actions replayed on
    its wall give its settlement."""
    data = json.loads(json.dumps((await service.hand_record(_cause(1, table), table,
                                                            number)).data))
    digest = hashlib.sha256((data["salt"] + data["wall"]).encode("ascii")).hexdigest()
    assert digest == data["commitment"]
    actions = [Action.from_json(a["payload"]) for a in data["actions"]]
    assert [a["seq"] for a in data["actions"]] == list(range(1, len(actions) + 1))
    state = replay(data["rules"], data["options"], parse_wall(data["wall"]),
                   tuple(data["dice"]), data["dealer"], actions, data["streak"],
                   data["huangfan"] > 0)
    paid = {s["seat"]: Fraction(s["amount"]) for s in data["settlements"]}
    assert paid == dict(enumerate(known(state.result).payments))


async def _play_on(service: TableService, clock: FakeClock, table: int) -> None:
    """The table's match played to its end by its people (the computer plays its own)."""
    rng = random.Random(7)
    for _ in range(5000):
        while await service.run_due():
            pass
        if (await service.table_info(table)).status != "playing":
            return
        live = await service.tables.get(table)
        if live.hand is None:
            clock.advance(60.0)
            continue
        state = live.hand.state
        for seat in deciding_seats(state):
            row = live.seats[seat]
            if row is not None and row.user_id is not None and not row.away:
                clock.advance(rng.uniform(5.0, 900.0))
                await service.act(_cause(row.user_id, table), table,
                                  choose_action(state, seat, rng))
                break
        else:
            clock.advance(3600.0)
    raise AssertionError("the match never ended")


async def test_a_database_made_by_base_is_converted_replayed_verified_and_played_on(
        base: str) -> None:
    before = {h: await _raw(base, "SELECT seq, seat, kind, payload, source, at, asked_at"
                            f" FROM actions WHERE hand_id = {h} ORDER BY seq")
              for h in (*ENDED, LIVE)}
    started = dict(await _raw(base, "SELECT id, started_at FROM hands"))
    facts = await _raw(base, f"SELECT {FACT_COLUMNS} FROM hand_facts ORDER BY hand_id, seat")
    assert all(before.values()) and facts

    store = await Store.open(base)  # migrated: 0032 converts it
    try:
        db = store._db
        logs = {int(r[0]): (str(r[1]), r[2]) for r in await db.all(
            "SELECT hand_id, log, log_digest FROM hand_logs")}
        assert sorted(logs) == list(ENDED)
        left = await db.all("SELECT DISTINCT hand_id FROM actions")
        assert [int(r[0]) for r in left] == [LIVE]
        for hand in ENDED:
            rows = before[hand]
            # the migration's SQL wrote what the reference encoder writes
            assert logs[hand][0] == encode(float(started[hand]), rows)
            decoded = decode(hand, float(started[hand]), logs[hand][0])
            assert digest_of(decoded) == bytes(logs[hand][1]).hex()
            assert await store.log.verify(hand)
            back = await store.log.actions(hand)
            assert [(a.seq, a.seat, a.kind, a.payload, a.source) for a in back] == \
                [(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]
            assert all(abs(a.at - r[5]) <= 0.0005 for a, r in zip(back, rows, strict=True))
            assert [d.asked_at is None for d in decoded] == [r[6] is None for r in rows]
        assert await store.log.verify(LIVE)

        clock = FakeClock(start=max(float(r[0]) for r in await db.all(
            "SELECT MAX(at) FROM actions")) + 10.0)
        # the facts and everything derived from the logs read the same
        await rebuild_facts(store, clock.now, force=True)
        assert [tuple(r[i] for i in range(len(facts[0]))) for r in await db.all(
            f"SELECT {FACT_COLUMNS} FROM hand_facts ORDER BY hand_id, seat")] == facts

        service = TableService(store, RecordingNotifier(), clock=clock, computer_pause=0.0)
        await service.recover()
        for table, numbers in ((1, (1, 2)), (2, (1, 2))):
            for number in numbers:
                await _check_record(service, table, number)
        history = known(await service.hand_history(1))
        assert history.number == 2 and history.parts

        await _play_on(service, clock, LIVE_TABLE)
        ended = [int(r[0]) for r in await db.all(
            "SELECT h.id FROM hands h JOIN matches m ON m.id = h.match_id"
            f" WHERE m.table_id = {LIVE_TABLE} ORDER BY h.id")]
        assert len(ended) == 2 and ended[0] == LIVE
        assert not await db.all(f"SELECT 1 FROM actions WHERE hand_id IN ({ended[0]},"
                                f" {ended[1]})")
        for number, hand in enumerate(ended, start=1):
            assert await store.log.verify(hand)
            await _check_record(service, LIVE_TABLE, number)
        service.stop()
    finally:
        await store.close()
