"""`bench/faults.py` at a tiny size: one table, a 1-second outage of 502s (which
discord.py itself retries, so every bot since BASE delivers after it), this checkout
beside a baseline run from a git worktree. The figures are the bench's to print, not a
test's: only their presence and sense are checked."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAMES = {"delivery_delay_p50_s", "delivery_delay_p99_s", "dm_delay_p50_s", "dm_delay_p99_s",
         "picture_delay_p50_s", "picture_delay_p99_s", "undelivered", "duplicates",
         "requests_in_outage", "owed"}


def _worktrees() -> set[str]:
    listed = subprocess.run(["git", "-C", str(ROOT), "worktree", "list", "--porcelain"],
                            capture_output=True, text=True, check=True).stdout
    return {line for line in listed.splitlines() if line.startswith("worktree ")}


def test_the_bench_prints_delays_and_duplicates_beside_a_baseline() -> None:
    before_run = _worktrees()
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "faults.py"), "--outages", "1", "--tables", "1",
         "--cap", "20", "--status", "502", "--after", "1", "--baseline", "HEAD"],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = {}
    for line in done.stdout.splitlines():
        name, value, _unit = line.split()
        figures[name] = float(value)
    assert figures["wait_cap_s"] == 20 and "load_average_start" in figures
    now = {n.removeprefix("outage_1s."): v for n, v in figures.items()
           if n.startswith("outage_1s.") and "_before_" not in n}
    before = {n.removeprefix("outage_1s.").removesuffix("_before_HEAD"): v
              for n, v in figures.items() if n.endswith("_before_HEAD")}
    assert set(now) == set(before) == NAMES
    for figures_of in (now, before):
        assert figures_of["owed"] == 2 and figures_of["undelivered"] == 0
        assert 0 < figures_of["delivery_delay_p50_s"] <= figures_of["delivery_delay_p99_s"] < 20
        assert figures_of["requests_in_outage"] >= 1 and figures_of["duplicates"] == 0
    assert not {w for w in _worktrees() - before_run if w.endswith("/base")}  # removed
