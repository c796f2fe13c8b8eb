"""``python -m engine.score`` on hostile input (issue 28, point 8): JSON nested 1,000
deep, an integer of 4,301 digits, bytes that are not UTF-8. A file it cannot read is
one line on standard error and exit code 2; a case it cannot read is its own refusal
line (the others are scored); never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.score import MAX_DEPTH, MAX_REASON, score_case
from tests.conftest import ROOT

GOOD = {"name": "good", "rules": "shanghai", "dealer": 0, "winner": 0, "win": "self_draw",
        "hand": "1112223334445m", "win_tile": "5m"}


def _run(args: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "engine.score", *args], cwd=ROOT,
                          input=stdin, capture_output=True, timeout=60, check=False)
    return subprocess.CompletedProcess(done.args, done.returncode,
                                       done.stdout.decode("utf-8", "replace"),
                                       done.stderr.decode("utf-8", "replace"))


UNREADABLE = {
    "nested_1000_deep": ("[" * 1000 + "]" * 1000).encode(),
    "nested_100000_deep": ("[" * 100_000).encode(),
    "integer_of_4301_digits": ('[{"name": "x", "dealer": ' + "1" * 4301 + "}]").encode(),
    "not_utf8": b'[{"name": "\xff\xfe"}]',
    "not_json": b"[{",
}


@pytest.mark.parametrize("given", list(UNREADABLE), ids=list(UNREADABLE))
@pytest.mark.parametrize("how", ["file", "stdin"])
def test_a_file_it_cannot_read_is_one_line_and_exit_code_2(
        tmp_path: Path, given: str, how: str) -> None:
    data = UNREADABLE[given]
    if how == "file":
        path = tmp_path / "cases.json"
        path.write_bytes(data)
        done = _run([str(path)])
    else:
        done = _run(["-"], stdin=data)
    assert done.returncode == 2, done
    assert done.stdout == ""
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("cannot read cases from "), done.stderr
    assert len(done.stderr) < 300, done.stderr  # what it read is not echoed


def test_a_case_it_cannot_read_is_refused_and_the_others_are_scored(tmp_path: Path) -> None:
    deep = "[" * 900 + "]" * 900
    cases = ('[{"name": "deep", "rules": "shanghai", "hand": ' + deep + "}, "
             '{"name": ' + deep + "}, " + json.dumps(GOOD) + "]")
    path = tmp_path / "cases.json"
    path.write_text(cases, encoding="utf-8")
    done = _run([str(path)])
    assert done.returncode == 0 and "Traceback" not in done.stderr, done
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [x["valid"] for x in lines] == [False, False, True]
    assert [x["name"] for x in lines] == ["deep", None, "good"]
    for refused in lines[:2]:
        assert f"nested more than {MAX_DEPTH} deep" in refused["reason"], refused
        assert len(refused["reason"]) < 200


def test_what_a_refusal_echoes_is_clipped() -> None:
    case = dict(GOOD, hand="z" * 5000, rules="x" * 5000)
    result = score_case(case)
    assert not result["valid"] and len(result["reason"]) <= MAX_REASON, result
    result = score_case(dict(GOOD, options={"base": list(range(3000))}))
    assert not result["valid"] and len(result["reason"]) <= MAX_REASON, result
