"""The projection rebuilt from the logs equals what each settlement wrote, on a SQLite
file and on PostgreSQL; start-up rebuilds it once when the stored formula differs; a
rebuild killed midway (SIGKILL) leaves whole hands only, and the next start goes on."""

from __future__ import annotations

import asyncio
import gc
import math
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.service import FakeClock, RecordingNotifier, TableService
from bot.service.facts import FACTS, MOVE_BUCKETS, STATS_FORMULA, rebuild_facts
from bot.store import HandFact, Store, fact_log, fact_sources
from bot.store.compact import KINDS, decode, millis
from bot.store.facts import SET_ASIDE
from bot.store.hand_logs import text_of
from bot.store.rows import HandSource
from tests.service.facts_play import Plan, play_match
from tests.service.helpers import ANN, BOB, CID, DEE, MakeWorld, World, by, worlds_on

CHILD = Path(__file__).with_name("facts_rebuild_child.py")


@pytest.fixture
async def make_world(each_database: Path | str) -> AsyncIterator[MakeWorld]:
    """Worlds on one database of each kind (a real SQLite file, a fresh PostgreSQL)."""
    async with worlds_on(each_database) as make:
        yield make


async def _played(world: World) -> None:
    """Matches of both rule sets: people, computers, an away seat, a departure, and a
    table cancelled midway (its voided hand and abandoned match have no facts)."""
    rng = random.Random(3)
    await play_match(world, "shanghai", (ANN, BOB, CID, DEE), computers=0, rng=rng,
                     options={"hands": 2}, channel=71)
    await play_match(world, "hangzhou", (ANN, BOB), computers=2, rng=rng,
                     plan=Plan(lazy=frozenset({BOB})), options={"hands": 2}, channel=72)
    await play_match(world, "hangzhou", (ANN, BOB, CID), computers=1, rng=rng,
                     plan=Plan(leaves={CID: 8}), options={"hands": 2}, channel=73)
    cancelled = await world.table((ANN, BOB), computers=2, channel=74)
    await world.advance(30.0)
    await world.service.cancel(by(ANN), cancelled)


async def test_a_rebuild_equals_what_each_settlement_wrote(make_world: MakeWorld) -> None:
    world = await make_world()
    await _played(world)
    hands, matches = await world.store.facts.all_hands(), await world.store.facts.all_matches()
    assert len(matches) == 12 and len({f.hand_id for f in hands}) >= 6
    rebuilt = await rebuild_facts(world.store, world.clock.now, force=True, size=3)
    assert rebuilt.done and rebuilt.hands == len(hands) // 4
    assert await world.store.facts.all_hands() == hands
    assert await world.store.facts.all_matches() == matches
    assert await world.store.facts.formula() == STATS_FORMULA


async def test_rows_copied_in_bulk_equal_what_each_settlement_wrote(
        make_world: MakeWorld, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rebuild's large batches go through PostgreSQL's COPY into a staging table
    (`fact_sources._COPY_FROM` rows and more): the same rows, twice over (the second
    rebuild replaces each row already there)."""
    world = await make_world()
    await _played(world)
    hands, matches = await world.store.facts.all_hands(), await world.store.facts.all_matches()
    monkeypatch.setattr(fact_sources, "_COPY_FROM", 1)
    for _ in range(2):
        rebuilt = await rebuild_facts(world.store, world.clock.now, force=True, size=50)
        assert rebuilt.done and rebuilt.hands == len(hands) // 4
        assert await world.store.facts.all_hands() == hands
        assert await world.store.facts.all_matches() == matches
    await world.store.facts.write(hands[:8], matches[:4])  # over rows already there
    assert await world.store.facts.all_hands() == hands


async def test_a_log_out_of_order_is_read_again_in_order(
        make_world: MakeWorld, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand's log whose text did not come in seq order (or whose seqs have a gap) is
    read again action by action (`fact_sources._ordered_log`): the same rows."""
    world = await make_world()
    await _played(world)
    hands, matches = await world.store.facts.all_hands(), await world.store.facts.all_matches()
    monkeypatch.setattr(fact_sources, "in_order", lambda *_: False)
    rebuilt = await rebuild_facts(world.store, world.clock.now, force=True, size=50)
    assert rebuilt.done and rebuilt.hands == len(hands) // 4
    assert await world.store.facts.all_hands() == hands
    assert await world.store.facts.all_matches() == matches


async def test_a_compact_log_is_read_as_its_decoded_actions_say(make_world: MakeWorld
                                                               ) -> None:
    """`fact_log.compact_log` reads an ended hand's compact text token by token
    without decoding it: the same seats, sources, kinds and move-time buckets as its
    actions decoded whole (`compact.decode`)."""
    world = await make_world()
    await _played(world)
    rows = await world.store._db.all(
        "SELECT l.hand_id, h.started_at, l.log, l.packed FROM hand_logs l JOIN hands h"
        " ON h.id = l.hand_id ORDER BY l.hand_id")
    assert len(rows) >= 6
    highs = [high * 1000 for high in MOVE_BUCKETS[:-1]]
    letters = {"player": "P", "timeout": "T", "computer": "C"}
    for r in rows:
        log = text_of(str(r["log"]), r["packed"])  # deflated since 0033
        decoded = decode(int(r["hand_id"]), float(r["started_at"]), log)
        previous, want = millis(float(r["started_at"])), []
        for d in decoded:
            row, at = d.row, millis(d.row.at)
            source = letters[row.source]
            if source == "C" and row.kind in ("pass", "win"):
                source = "X"
            bucket = (next(i for i, high in enumerate([*highs, math.inf]) if at - previous <= high)
                      if source == "P" else 0)
            want.append(f"{row.seat}{source}{bucket:x}{KINDS[row.kind]}0")  # seq by place
            previous = at
        text, seqs = fact_log.compact_log(log, highs)
        assert text == "".join(want) and list(seqs) == [d.row.seq for d in decoded]


def test_a_log_is_in_order_only_when_its_seqs_run_on() -> None:
    log = "".join(f"0P0d{seq % 10}" for seq in range(3, 17))
    assert fact_log.in_order(log, 3, 16, 14)
    assert not fact_log.in_order(log, 3, 26, 14)  # a gap of ten: the digits agree
    swapped = log[:5] + log[10:15] + log[5:10] + log[15:]
    assert not fact_log.in_order(swapped, 3, 16, 14)


async def test_the_collector_is_off_during_a_batch_and_on_after(
        make_world: MakeWorld, monkeypatch: pytest.MonkeyPatch) -> None:
    world = await make_world()
    await _played(world)
    seen = []
    derive = FACTS.hands

    def hands(sources: Sequence[HandSource]) -> list[HandFact]:
        seen.append(gc.isenabled())
        return derive(sources)

    monkeypatch.setattr(FACTS, "hands", hands)
    assert gc.isenabled()
    assert (await rebuild_facts(world.store, world.clock.now, force=True, size=2)).done
    assert seen and not any(seen) and gc.isenabled()


async def test_start_up_rebuilds_once_when_the_formula_differs(make_world: MakeWorld) -> None:
    world = await make_world()
    await _played(world)
    hands = await world.store.facts.all_hands()
    # a database from before the projection: no formula kept, no rows
    await world.store._db.execute("DELETE FROM hand_facts")
    await world.store._db.execute("DELETE FROM match_facts")
    first = await world.service.start_facts()
    assert first.done and first.hands == len(hands) // 4
    assert await world.store.facts.all_hands() == hands
    again = await world.service.start_facts()
    assert (again.done, again.hands) == (True, 0)  # the same formula: nothing to do
    # another formula stored (an older bot's): rebuilt, by one of two processes
    await world.store.lobby.set_setting("stats_formula", "facts-0", at=1.0)
    other = await make_world()
    one, two = await asyncio.gather(
        rebuild_facts(world.store, world.clock.now, poll=0.05),
        rebuild_facts(other.store, world.clock.now, poll=0.05))  # one clock: one time
    assert sorted((one.hands, two.hands)) == [0, len(hands) // 4]
    assert one.done and two.done
    assert await world.store.facts.all_hands() == hands


async def test_a_rebuild_killed_midway_goes_on_at_the_next_start(db_path: Path) -> None:
    """SQLite file only: the kill is of another process on the same file."""
    store = await Store.open(db_path)
    try:
        clock, notes = FakeClock(), RecordingNotifier()
        world = World(store, clock, notes,
                      TableService(store, notes, clock=clock, computer_pause=0.0))
        await _played(world)
        hands = await store.facts.all_hands()
        matches = await store.facts.all_matches()
        await store.lobby.set_setting("stats_formula", "facts-0", at=1.0)
    finally:
        await store.close()
    proc = subprocess.Popen([sys.executable, str(CHILD), str(db_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "GO"
    await asyncio.sleep(1.2)  # a few batches of one hand
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    store = await Store.open(db_path)
    try:
        assert await store.facts.formula() == "facts-0"  # not finished
        partial = await store.facts.all_hands()
        done = sorted({f.hand_id for f in partial})
        assert 0 < len(done) < len({f.hand_id for f in hands})
        # whole hands only, each as it was written at its settlement
        assert partial == [f for f in hands if f.hand_id in done]
        # the next start waits for the killed process's claim to run out, goes on
        again = await rebuild_facts(store, time.time, hold=1.0, poll=0.1)
        assert again.done and 0 < again.hands < len(hands) // 4
        assert await store.facts.all_hands() == hands
        assert await store.facts.all_matches() == matches
        assert await store.facts.formula() == STATS_FORMULA
        # the indexes the killed process set aside were made again at the end
        found = await store._db.all("SELECT name FROM sqlite_master WHERE type = 'index'")
        assert set(SET_ASIDE) <= {r["name"] for r in found}
    finally:
        await store.close()
