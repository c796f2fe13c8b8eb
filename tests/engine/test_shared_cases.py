"""Every scoring case in ../shared/cases (or, without that folder, in the copy kept in
tests/cases) runs and matches its expectation."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.rules import OptionError, RuleError
from engine.score import CaseError, read_case, score_case
from engine.tiles import NotationError
from tests.conftest import KEPT_CASES, ROOT, SHARED_BESIDE, SHARED_CASES


def _case_files() -> list[Path]:
    return sorted(SHARED_CASES.glob("*.json")) if SHARED_CASES.is_dir() else []


def _cases() -> list[Any]:
    params = []
    for path in _case_files():
        for case in json.loads(path.read_text(encoding="utf-8")):
            params.append(pytest.param(case, id=f"{path.stem}:{case['name']}"))
    if not params:
        params.append(pytest.param(None, marks=pytest.mark.skip(
            reason=f"no scoring cases at {SHARED_CASES}")))
    return params


@pytest.mark.parametrize("case", _cases())
def test_shared_case(case: dict[str, Any]) -> None:
    got = score_case(case)
    expect = case["expect"]
    assert got["name"] == case["name"]
    assert got["valid"] is expect["valid"], got
    assert got["breakdown"], "every result explains itself"
    if expect["valid"]:
        assert Counter(got["patterns"]) == Counter(expect["patterns"])
        assert got["value"] == expect["value"]
        assert got["payments"] == expect["payments"]
        assert sum(got["payments"]) == 0
    else:
        assert got["reason"]


@pytest.mark.skipif(not _case_files(), reason="no shared scoring cases folder")
def test_command_line_prints_one_line_per_case() -> None:
    for path in _case_files():
        out = subprocess.run([sys.executable, "-m", "engine.score", str(path)], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
        cases = json.loads(path.read_text(encoding="utf-8"))
        lines = out.splitlines()
        assert len(lines) == len(cases)
        for case, line in zip(cases, lines, strict=True):
            assert json.loads(line) == score_case(case)


@pytest.mark.skipif(not SHARED_BESIDE.is_dir(), reason="no shared/ folder beside the checkout")
def test_the_kept_copy_is_the_shared_cases() -> None:
    """Copy them again (``cp ../shared/cases/*.json tests/cases/``) when the team's
    cases change."""
    shared = {p.name: p.read_bytes() for p in SHARED_BESIDE.glob("*.json")}
    kept = {p.name: p.read_bytes() for p in KEPT_CASES.glob("*.json")}
    assert kept == shared


def test_a_wins_value_without_its_payments_is_the_calculators() -> None:
    # `RuleSet.win_value` (what a 听 hint shows) is `score`'s value, or None where
    # `score` refuses: every shared case, and each again as a win on a discard from
    # every other seat and as a self-draw.
    checked = 0
    for path in _case_files():
        for case in json.loads(path.read_text(encoding="utf-8")):
            variants = [case] + [{**case, "win": "discard", "from": seat}
                                 for seat in range(4) if seat != case.get("winner")]
            variants.append({k: v for k, v in case.items() if k != "from"} |
                            {"win": "self_draw"})
            for variant in variants:
                try:
                    ruleset, options, ctx = read_case(variant)
                except (CaseError, RuleError, OptionError, NotationError):
                    continue
                settlement = ruleset.score(ctx, options)
                assert ruleset.win_value(ctx, options) == \
                    (settlement.value if settlement.valid else None), variant
                checked += 1
    assert checked > 100 or not _case_files()
