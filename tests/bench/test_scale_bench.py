"""`bench/scale.py` at a tiny size, so that it cannot rot: a few live tables made from
one opened by the real bot, the bot started on them, a cold table clicked and a
deadline timed, on SQLite (BASE's code and PostgreSQL are the bench's full run); its
last line the JSON object issue 32 names. The figures are the bench's to print, not a
test's to hold."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_bench_runs_small_and_ends_with_its_json_object(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "scale.py"), "--sizes", "6", "--baseline", "",
         "--clicks", "2", "--deadlines", "1", "--deadline-lead", "3", "--hands", "0",
         "--no-floor", "--sqlite-only"],
        capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    result = json.loads(lines[-1])
    assert list(result) == ["live_tables", "bytes_per_hand"]
    figures = result["live_tables"]["6"]
    assert list(figures) == ["rss_mib", "startup_s", "cold_click_p99_ms",
                             "deadline_late_p99_s"]
    assert figures["rss_mib"] > 0 and figures["startup_s"] > 0
    assert figures["cold_click_p99_ms"] > 0
    assert figures["deadline_late_p99_s"] == figures["deadline_late_p99_s"]  # not NaN
    shown = {line.split()[0]: line.split() for line in lines[:-1]}
    assert shown["scale_6_cold_click_refused"][2] == "0"
    assert shown["scale_6_deadline_missed"][2] == "0"
    assert all("load" in words for words in shown.values())
