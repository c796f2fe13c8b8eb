"""`python -m engine.shapes_build --help` says how to use it and writes nothing (it
once wrote the tables into a file named ``--help``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT


def test_help_is_printed_and_nothing_written(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "engine.shapes_build", "--help"], cwd=tmp_path,
                          env={"PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout and "PATH" in done.stdout
    assert list(tmp_path.iterdir()) == []
