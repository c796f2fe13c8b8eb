"""Crash safety: a match in a subprocess is killed with SIGKILL at random moments and
restarted; every action it reported as committed must survive, none may be applied
twice, and the match must finish with settlements that sum to zero. Each restart
resumes the live hand from its state snapshot (written with every 4th action), so a
snapshot that did not match its log would show as settlements the log does not give."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

from bot.service import commitment, parse_wall
from bot.store import Store
from engine.game import Action, Phase, replay
from tests.crashkit import record_commits
from tests.narrowing import known

CHILD = Path(__file__).with_name("crash_child.py")
HANDS = 32
KILLS = 8


def run_child(db: Path, kill_after: float | None) -> tuple[list[str], bool]:
    """Run the child; kill it with SIGKILL after ``kill_after`` seconds (if still alive):
    its lines, and whether it was killed. A run that finished the match and was not
    killed ended cleanly: exit code 0, and no error on its way out (its last hand's
    announcements done before the database was closed)."""
    proc = subprocess.Popen([sys.executable, str(CHILD), str(db), str(HANDS)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed = False
    if kill_after is not None:
        time.sleep(kill_after)
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            killed = True
    out, err = proc.communicate(timeout=60)
    lines = out.splitlines()
    if not killed:
        assert proc.returncode == 0 and "Traceback" not in err, err[-3000:]
    return lines, killed


async def test_sigkill_at_random_moments_loses_nothing_committed(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite3"
    rng = random.Random()
    seed = rng.randrange(10**6)
    rng.seed(seed)
    committed: dict[tuple[int, int], str] = {}
    lines: list[str] = []
    kills = 0
    killed = False
    for _ in range(KILLS):
        lines, killed = run_child(db, rng.uniform(0.25, 0.9))
        record_commits(lines, committed, seed)
        if "DONE" in lines:
            break
        kills += 1
    if "DONE" not in lines or killed:  # (the kill may land after DONE, on the way out)
        lines, _ = run_child(db, None)
        record_commits(lines, committed, seed)
        assert "DONE" in lines
    assert kills >= 3, f"the match ended before it could be killed often (seed {seed})"
    await check_database(db, committed, seed)


async def check_database(db: Path, committed: dict[tuple[int, int], str], seed: int) -> None:
    import json

    store = await Store.open(db)
    try:
        (table,) = await store.lobby.tables_in_channel(1)
        assert table.status == "finished"
        (match,) = await store.matches.of_table(table.id)
        assert match.status == "finished" and sum(known(match.totals).values()) == 0
        hands = await store.hands.of_match(match.id)
        assert [h.number for h in hands] == list(range(1, HANDS + 1)), seed
        stored = {}
        totals = [Fraction(0)] * 4
        for hand in hands:
            assert hand.status == "ended"
            assert await store.log.snapshots(hand.id) == []  # an ended hand keeps none
            assert commitment(hand.salt, hand.wall) == hand.commitment
            actions = await store.log.actions(hand.id)
            assert [a.seq for a in actions] == list(range(1, len(actions) + 1))
            for a in actions:
                stored[(hand.id, a.seq)] = a.payload
            state = replay("hangzhou", {"hands": HANDS}, parse_wall(hand.wall), hand.dice,
                           hand.dealer, [Action.from_json(a.payload) for a in actions],
                           streak=hand.streak, huangfan=hand.huangfan > 0)
            assert state.phase is Phase.ENDED and state.result is not None
            settled = {s.seat: s.amount for s in await store.endings.settlements(hand.id)}
            assert tuple(settled[s] for s in range(4)) == state.result.payments
            assert sum(settled.values()) == 0
            for s in range(4):
                totals[s] += settled[s]
        assert tuple(totals) == tuple(known(match.totals)[s] for s in range(4))
        for key, payload in committed.items():
            assert key in stored, f"committed action {key} was lost (seed {seed})"
            assert stored[key] == json.loads(payload)
        assert await store.deadlines.all() == []
    finally:
        await store.close()
