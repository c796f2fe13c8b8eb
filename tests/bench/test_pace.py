"""`bench/pace.py`, the pace model of issue 30: seeded and deterministic, its last line
the JSON object the issue names, and what its model guarantees by construction (the
figures themselves are the bench's to print, not a test's to hold)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bench import pace

FIGURES = ["median_hours", "p90_hours", "prompts", "notifications", "sleeping_moves"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[list[str], dict[str, Any]]:
    pace.main(list(args))
    lines = capsys.readouterr().out.rstrip("\n").split("\n")
    return lines, json.loads(lines[-1])


def test_the_last_line_is_one_json_object_by_rule_set_and_configuration(
        capsys: pytest.CaptureFixture[str]) -> None:
    lines, result = run(capsys, "--hands", "3", "--seed", "4")
    assert list(result) == ["shanghai", "hangzhou"]
    for rows in result.values():
        assert isinstance(rows, dict)
        assert list(rows) == ["defaults", "quiet", "premoves", "answers", "digest", "clock",
                              "all"]
        for figures in rows.values():
            assert list(figures) == FIGURES
            assert all(isinstance(v, (int, float)) for v in figures.values())
    # today's figures are printed beside the defaults row, and nowhere in the JSON
    defaults = [line for line in lines if line.startswith("defaults")]
    assert len(defaults) == 2 and "73 h / 101 h" in defaults[0] and "48 h / 73 h" in defaults[1]


def test_one_rule_set_and_the_what_ifs_stay_out_of_the_json(
        capsys: pytest.CaptureFixture[str]) -> None:
    lines, result = run(capsys, "--hands", "2", "--rules", "hangzhou", "--why", "--what-if")
    assert list(result) == ["hangzhou"]
    assert list(result["hangzhou"]) == list(pace.CONFIGURATIONS)
    assert any(line.startswith("all + every what-if") for line in lines)
    assert any(line.startswith("prompts per seat per hand with all on") for line in lines)


def test_a_seed_gives_the_same_figures_every_run() -> None:
    first = pace.measure("shanghai", 4, seed=7)
    again = pace.measure("shanghai", 4, seed=7)
    other = pace.measure("shanghai", 4, seed=8)
    assert {c: pace.figures(t, 4) for c, t in first.items()} == \
        {c: pace.figures(t, 4) for c, t in again.items()}
    assert first["defaults"].hours == again["defaults"].hours
    assert first["defaults"].hours != other["defaults"].hours


def test_every_configuration_plays_the_same_hands() -> None:
    """The hands are recorded once; a configuration changes only times, prompts and
    notifications: with nothing to answer at once, every decision is a prompt."""
    hands = pace.record("hangzhou", 3, seed=2)
    again = pace.record("hangzhou", 3, seed=2)
    assert [len(h.decisions) for h in hands] == [len(h.decisions) for h in again]
    assert [h.delays for h in hands] == [h.delays for h in again]
    tallies = {name: pace.timed(hands, cfg, 12, 2) for name, cfg in pace.CONFIGURATIONS.items()}
    asked = sum(1 if isinstance(d, pace.Turn) else len(d.window.asked)
                for h in hands for d in h.decisions)
    for name in ("defaults", "quiet", "digest", "clock"):
        assert tallies[name].prompts == asked  # no feature answers for them
    assert tallies["all"].prompts <= tallies["premoves"].prompts
    assert tallies["all"].prompts <= tallies["answers"].prompts


def test_what_the_model_guarantees_by_construction() -> None:
    tallies = pace.measure("shanghai", 6, seed=3)
    for name in ("quiet", "digest", "all"):
        assert tallies[name].sleeping == 0  # a timer never runs out at night
    # the bot sends the digest to anyone with quiet hours: the two are one configuration
    assert tallies["digest"].notifications == tallies["quiet"].notifications
    assert tallies["digest"].hours == tallies["quiet"].hours
    for tally in tallies.values():
        assert len(tally.hours) == 6 and min(tally.hours) > 0


@pytest.mark.parametrize(("start", "hours", "end"), [
    (10.0, 0.5, 10.5),           # awake: plain
    (22.5, 1.0, 24 + 7.5),       # runs past 23:00: continues at 07:00
    (2.0, 0.25, 7.25),           # a sleeper: 07:00 plus the delay
    (23.0, 0.0, 24 + 7.0),       # 23:00 is night
    (8.0, 40.0, 48 + 7 + 9.0),   # 15 + 16 + 9 awake hours
])
def test_awake_time(start: float, hours: float, end: float) -> None:
    assert pace.awake_after(start, hours) == pytest.approx(end)


def test_mornings_in_a_stretch() -> None:
    assert pace.mornings(22.0, 24 + 8.0) == [1]
    assert pace.mornings(8.0, 24 + 6.0) == []
    assert pace.mornings(6.0, 48 + 7.5) == [0, 1, 2]
