"""Shared mode under SIGKILL: two processes (shared_child.py: the real service in shared
mode, short leases) serve one database, SQLite or PostgreSQL. Each keeps opening and
starting tables of its own (four computer players, two hands, a few at a time) while
both play every table; one of the two, chosen at random, is killed at a random moment
and started again, `KILLS` times; then no table more is opened and all are played out.
The default count (12 kills, under a minute a backend) keeps the suite quick; the
environment variable ``MAHJONG_SHARED_KILLS`` raises it (issue 28 asked for hundreds:
run it so once in a while, e.g. ``MAHJONG_SHARED_KILLS=300 python -m pytest
tests/service/test_service_shared_kills.py -k postgres``, some 20 minutes on a loaded
2-core machine).

After every kill, on one snapshot of the database (`Rebuilds.load`):

- no stuck table: a table playing has its match, a live hand and that hand's
  deadlines; no deadline belongs to a table that is over (a table closed as finished
  while its match played kept its hand's deadlines, and no process served it);
- no deadline held by a dead process after its lease: a claim of a killed process is
  taken over by the other within the lease and `MARGIN`.

At the end every table finishes: the match finished with every hand played, each log
replays to its stored settlement (summing to zero), every action a process printed
after its commit is in the log and none twice, no deadline left, every announcement
delivered; and no process printed an error or a traceback (a `Conflict` reaching a
command would)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import commitment, parse_wall
from bot.store import Store, TableRow
from engine.game import Action, Phase, replay
from tests.crashkit import record_commits
from tests.service.shared_child import LEASE, channel_of

CHILD = Path(__file__).with_name("shared_child.py")
KILLS = int(os.environ.get("MAHJONG_SHARED_KILLS", "12"))
HANDS = 2
MARGIN = 10.0
"""Seconds past a dead process's lease its claim may still stand (a loaded machine)."""
FINISH = 240.0
"""Seconds the tables get to finish after the last kill."""


class Child:
    """One process of the two: its slot (whose tables it opens), its name on its
    claims, what it printed."""

    def __init__(self, proc: asyncio.subprocess.Process, slot: int) -> None:
        self.proc = proc
        self.slot = slot
        self.lines: list[str] = []
        assert proc.stdout is not None and proc.stderr is not None
        self._reader = asyncio.create_task(self._read())
        self._errors = asyncio.create_task(proc.stderr.read())

    @classmethod
    async def start(cls, database: str, slot: int, closing: Path) -> Child:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(CHILD), database, str(slot), str(HANDS), str(closing),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        return cls(proc, slot)

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        async for raw in self.proc.stdout:
            self.lines.append(raw.decode().rstrip("\n"))

    @property
    def owner(self) -> str | None:
        return next((line.split()[1] for line in self.lines if line.startswith("OWNER ")),
                    None)

    async def ready(self, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while "READY" not in self.lines:
            if self.proc.returncode is not None or time.monotonic() > end:
                raise AssertionError(f"process {self.slot} never served:\n"
                                     f"{await self.errors()}")
            await asyncio.sleep(0.02)

    async def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        await self.proc.wait()
        await self._reader

    async def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.terminate()
        await asyncio.wait_for(self.proc.wait(), 60)
        await self._reader
        assert "DONE" in self.lines, await self.errors()

    async def errors(self) -> str:
        if self.proc.returncode is None:
            await self.kill()
        return (await self._errors).decode()


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A migrated database of each kind (the processes start at once)."""
    if request.param == "postgres":
        server = request.getfixturevalue("pg_server")  # skips without PostgreSQL
        url: str = await server.database()
        yield url
        await server.drop(url)
        return
    path = tmp_path / "shared.sqlite3"
    await (await Store.open(path)).close()
    yield str(path)


async def test_hundreds_of_kills_of_one_of_two_processes_leave_no_table_behind(
        database: str, tmp_path: Path) -> None:
    closing = tmp_path / "closing"
    rng = random.Random()
    seed = rng.randrange(10**6)
    rng.seed(seed)
    runs: list[Child] = []
    alive = [await Child.start(database, 0, closing), await Child.start(database, 1, closing)]
    runs += alive
    dead: dict[str, float] = {}
    store = await Store.open(database)
    try:
        for child in alive:
            await child.ready()
        for _ in range(KILLS):
            await asyncio.sleep(rng.uniform(0.05, 1.0))
            slot = rng.randrange(2)
            victim = alive[slot]
            await victim.kill()
            if victim.owner is not None:
                dead[victim.owner] = time.time()
            await check_moment(store, dead, seed)
            alive[slot] = await Child.start(database, slot, closing)
            runs.append(alive[slot])
            await alive[slot].ready()
        closing.touch()                              # no table more: all are played out
        end = time.monotonic() + FINISH
        while not await all_finished(store):
            assert time.monotonic() < end, f"tables never finished (seed {seed})"
            await check_moment(store, dead, seed)
            await asyncio.sleep(0.5)
        for child in alive:
            await child.stop()
        committed: dict[tuple[int, int], str] = {}
        for child in runs:
            record_commits(child.lines, committed, seed)
            errors = [line for line in child.lines if line.startswith("ERROR")]
            assert not errors, f"process {child.slot} (seed {seed}): {errors}"
            said = await child.errors()
            assert "Traceback" not in said, f"seed {seed}:\n{said[-4000:]}"
        tables, actions = await check_tables(store, committed, seed)
        assert tables >= 4, f"too few tables to cut into (seed {seed})"
        print(f"{KILLS} kills (seed {seed}), {len(runs)} runs, {tables} tables of "
              f"{HANDS} hands, {actions} actions ({len(committed)} printed by a process)")
    finally:
        for child in runs:
            if child.proc.returncode is None:
                await child.kill()
        await store.close()


async def all_finished(store: Store) -> bool:
    """Every table over, every announcement delivered."""
    return not await store.lobby.live_tables() and not await store.outbox.undelivered()


async def all_tables(store: Store) -> list[TableRow]:
    """Both processes' tables, channel after channel."""
    out: list[TableRow] = []
    for slot in range(2):
        number = 1
        while rows := await store.lobby.tables_in_channel(channel_of(slot, number)):
            out += rows
            number += 1
    return out


async def check_moment(store: Store, dead: dict[str, float], seed: int) -> None:
    """No stuck table, no dead process's claim standing past its lease (one snapshot)."""
    now = time.time()
    tables = await store.lobby.live_tables()
    loads = await store.rebuilds.load([t.id for t in tables])
    live = {t for t, load in loads.items() if load.table.is_live}
    for table_id, load in loads.items():
        if load.table.status != "playing":
            continue
        where = f"table {table_id} (seed {seed})"
        assert load.match is not None, f"{where} plays with no match"
        assert load.log is not None, f"{where} plays with no live hand"
        assert load.deadlines, f"{where}: its live hand has no deadline"
    for d in await store.deadlines.all():
        assert d.table_id in live or await _live(store, d.table_id), \
            f"table {d.table_id} is over but keeps a deadline (seed {seed})"
        if d.claimed_by in dead and d.claimed_until is not None:
            assert d.claimed_until > now - MARGIN, \
                f"table {d.table_id}: a dead process's claim stands {now - d.claimed_until:.1f}" \
                f" s past its lease of {LEASE} s (seed {seed})"


async def _live(store: Store, table_id: int) -> bool:
    """Read again: the table may have started between the two reads; a table read
    over keeps no deadline (its end deletes them in the same transaction)."""
    row = await store.lobby.get_table(table_id)
    if row is not None and row.is_live:
        return True
    return not [d for d in await store.deadlines.all() if d.table_id == table_id]


async def check_tables(store: Store, committed: dict[tuple[int, int], str], seed: int
                       ) -> tuple[int, int]:
    """Every table finished whole (see the module's docstring); how many tables and
    actions."""
    stored: dict[tuple[int, int], object] = {}
    tables = await all_tables(store)
    for table in tables:
        where = f"table {table.id} (seed {seed})"
        assert table.status == "finished", where
        (match,) = await store.matches.of_table(table.id)
        assert match.status == "finished" and match.totals is not None, where
        assert sum(match.totals.values()) == 0, where
        hands = await store.hands.of_match(match.id)
        assert [(h.number, h.status) for h in hands] == \
            [(i, "ended") for i in range(1, HANDS + 1)], where
        for hand in hands:
            assert commitment(hand.salt, hand.wall) == hand.commitment, where
            actions = await store.log.actions(hand.id)
            assert [a.seq for a in actions] == list(range(1, len(actions) + 1)), where
            stored.update({(hand.id, a.seq): a.payload for a in actions})
            state = replay("shanghai", {"hands": HANDS}, parse_wall(hand.wall),
                           hand.dice, hand.dealer,
                           [Action.from_json(a.payload) for a in actions],
                           streak=hand.streak, huangfan=hand.huangfan > 0)
            assert state.phase is Phase.ENDED and state.result is not None, where
            settled = {s.seat: s.amount for s in await store.endings.settlements(hand.id)}
            assert tuple(settled[s] for s in range(4)) == state.result.payments, where
    for key, payload in committed.items():
        assert stored.get(key) == json.loads(payload), f"action {key} lost (seed {seed})"
    assert await store.deadlines.all() == [], seed
    assert await store.outbox.undelivered() == [], seed
    return len(tables), len(stored)
