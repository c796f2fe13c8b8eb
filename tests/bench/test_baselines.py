"""A bench's ``--baseline`` runs against any commit since 2026-11-30 that has what the
bench measures (issue 32: `bench/game.py --baseline` failed on older commits, asking
their rule sets for `tile_set`, and `bench/discord.py --code old` crashed in the tests'
botkit on a string the old bot did not have). Each commit is the first of its day; a
test skips where the repository lacks the commit (a shallow clone)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench.baseline import exported

ROOT = Path(__file__).resolve().parents[2]
FIRST_OF_DAY = ["dad4bc0", "fb49ea9"]
"""The first commits of 2026-12-01 and 2026-12-03 (`git log --since`)."""
BEFORE_THE_GAME = "342a7d7"
"""2026-11-30's first commit: tiles and patterns, no hand to play yet (engine.game came
with ad5c564)."""


def _have(rev: str) -> bool:
    return subprocess.run(["git", "cat-file", "-e", f"{rev}^{{commit}}"], cwd=ROOT,
                          capture_output=True).returncode == 0


def _figures(out: str) -> dict[str, str]:
    return {line.split()[0]: line.split()[1] for line in out.splitlines() if line.strip()}


@pytest.mark.parametrize("rev", FIRST_OF_DAY)
def test_the_game_bench_measures_an_old_engine(rev: str) -> None:
    if not _have(rev):
        pytest.skip(f"{rev} is not in this clone")
    with exported(rev) as tree:
        done = subprocess.run(
            [sys.executable, str(ROOT / "bench" / "game.py"), "--engine-root", tree,
             "--hands", "1", "--recorded", "1"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = _figures(done.stdout)
    assert float(figures["apply_median_us"]) > 0
    assert float(figures["selfplay_hands_per_second_shanghai"]) > 0


def test_an_engine_without_what_the_bench_measures_is_told_not_mixed_with_this_one() -> None:
    """The old checkout's missing modules are not taken from this one (the editable
    install's finder would): the run stops, naming what is missing."""
    if not _have(BEFORE_THE_GAME):
        pytest.skip(f"{BEFORE_THE_GAME} is not in this clone")
    with exported(BEFORE_THE_GAME) as tree:
        done = subprocess.run(
            [sys.executable, str(ROOT / "bench" / "game.py"), "--engine-root", tree,
             "--hands", "1", "--recorded", "1"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode != 0
    assert "engine.game" in done.stderr or "engine.ai" in done.stderr
    assert str(ROOT / "engine") not in done.stderr


THE_BOT = "32d293a"
"""The Discord bot's first commit (2026-11-30 04:55)."""


@pytest.mark.parametrize(("rev", "mode"), [(THE_BOT, "split"), (FIRST_OF_DAY[0], "inproc"),
                                         (FIRST_OF_DAY[1], "split")])
def test_the_click_bench_runs_an_old_bot(rev: str, mode: str, tmp_path: Path) -> None:
    """This bench's fake Discord and players against the bot of ``rev`` (what
    ``--baseline`` runs): its clicks answered."""
    if not _have(rev):
        pytest.skip(f"{rev} is not in this clone")
    with exported(rev) as tree:
        done = subprocess.run(
            [sys.executable, str(ROOT / "bench" / "discord.py"), "--code", tree,
             "--tables", "1", "--clicks", "4", "--think", "0", "--mode", mode],
            capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert float(_figures(done.stdout)["clicks"]) >= 4, done.stdout
