"""`bench/stats.py` at a tiny size: it fills a database with real hands and their copies
and prints its figures as ``NAME VALUE UNIT`` lines, on SQLite and (when the tests have
one) on PostgreSQL. The figures themselves are the bench's to print, not a test's."""

from __future__ import annotations

import os

import pytest

from bench import stats as bench

NAMES = {"stats_hands", "stats_actions", "stats_p50_ms", "stats_p99_ms"}


def _figures(out: str, suffix: str = "") -> dict[str, float]:
    found = {}
    for line in out.splitlines():
        name, value, _unit = line.split()
        if name.endswith("_postgres") == bool(suffix):
            found[name.removesuffix(suffix)] = float(value)
    return found


def test_the_bench_prints_its_figures_on_sqlite(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--hands", "60", "--seed-hands", "12", "--queries", "8",
                       "--recounts", "2", "--sqlite-only"]) == 0
    figures = _figures(capsys.readouterr().out)
    assert set(figures) >= NAMES
    assert figures["stats_hands"] >= 60
    assert 0 < figures["stats_p50_ms"] <= figures["stats_p99_ms"]


@pytest.mark.skipif(not os.environ.get(bench.ENV_URL), reason="no PostgreSQL for the tests")
def test_the_bench_prints_its_figures_on_postgres(capsys: pytest.CaptureFixture[str]
                                                  ) -> None:
    assert bench.main(["--hands", "40", "--seed-hands", "12", "--queries", "6",
                       "--recounts", "2", "--postgres-only"]) == 0
    figures = _figures(capsys.readouterr().out, "_postgres")
    assert set(figures) >= NAMES and figures["stats_hands"] >= 40
