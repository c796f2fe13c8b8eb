"""`bench/scale.py` at a tiny size, so that it cannot rot: a few live tables made from
one opened by the real bot, the bot started on them, a cold table clicked and a
deadline timed, on SQLite (BASE's code and PostgreSQL are the bench's full run); its
last line the JSON object issue 32 names. The figures are the bench's to print, not a
test's to hold."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

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


def _scale() -> Any:
    from bench import scale
    return scale


def test_percentile_of_no_values_is_nan_not_an_index_error() -> None:
    scale = _scale()
    assert math.isnan(scale.percentile([], 0.99))
    assert scale.percentile([3.0, 1.0, 2.0], 0.5) == 2.0


def test_a_small_size_still_clicks_and_times_some_tables_apart() -> None:
    """``--sizes 6`` with the default 50 clicks and 30 deadlines: five copies, so each
    gets its share (every copy was timed, none clicked, and percentile crashed)."""
    scale = _scale()
    clicked, timed = scale._sample(50, 30, 5)
    assert clicked and timed and not set(clicked) & set(timed)
    assert sorted(clicked + timed) == [1, 2, 3, 4, 5]
    assert scale._sample(2, 1, 5) == ([1, 4], [2])  # enough copies: as before
    clicked, timed = scale._sample(50, 30, 999)
    assert len(clicked) == 50 and len(timed) == 30 and not set(clicked) & set(timed)
    assert scale._sample(1, 1, 1) == ([1], [])
    assert scale._sample(0, 0, 5) == ([], [])


def test_the_template_move_is_this_hands_deciding_seats_not_an_earlier_tables() -> None:
    """Every template is opened by the same four people, so their DMs hold the earlier
    templates' decisions, of another table 1 (ids alike): the bench took the first
    person's newest decision, seat 1's from an earlier run, and every cold click of
    the run was refused as stale (issue 32's PostgreSQL 50 of 50)."""
    scale = _scale()
    earlier = ("earlier", ("mj:dc:1:1:p2:s0", ["2z"]))
    mine = ("mine", ("mj:dc:1:1:p2:s2", ["6z"]))
    others = [("pref", None), ("another hand", ("mj:dc:1:2:p2:s2", ["1m"])),
              ("another table", ("mj:mv:7:1:p2:x:s2", None))]
    assert scale.template_move([earlier], 1, 1, 2) is None
    assert scale.template_move([earlier, mine, *others], 1, 1, 2) == mine
    assert scale.template_move([mine, earlier], 1, 1, 0) == earlier
    old_id = ("before seats were carried", ("mj:mv:1:1:5:x", None))
    assert scale.template_move([old_id], 1, 1, 3) == old_id


def test_the_floor_ratio_alternates_rounds_and_pools_them(
        monkeypatch: Any, capsys: Any) -> None:
    """Each round runs the click bench then the floor; the ratio is every round's CPU
    over every round's floor (not one run's over another's), the median printed too."""
    scale = _scale()
    runs: list[str] = []
    bot = iter([(6.0, 4.0), (9.0, 6.0)])  # (BASE's, now) a click, per round
    floor = iter([2.0, 3.0])

    def figures(command: list[str]) -> dict[str, float]:
        runs.append(command[0])
        if command[0] == "bench/floor.py":
            return {"bot_cpu_ms_per_click": next(floor)}
        old, now = next(bot)
        return {"bot_cpu_ms_per_click": now, "bot_cpu_ms_per_click_before_BASE": old}

    monkeypatch.setattr(scale, "_run_figures", figures)
    ratio = scale.floor_ratio("BASE", 20, 30, rounds=2)
    assert runs == ["bench/discord.py", "bench/floor.py"] * 2
    assert ratio == (4.0 + 6.0) / (2.0 + 3.0)
    shown = {line.split()[0]: line.split()[1:3] for line in capsys.readouterr().out.splitlines()}
    assert shown["click_round_2_floor_ratio"] == ["3", "2"]
    assert shown["click_floor_ratio"] == ["3", "2"]
    assert shown["click_floor_ratio_median"] == ["3", "2"]
