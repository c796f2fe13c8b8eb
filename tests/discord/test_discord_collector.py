"""`bot.discord.core.collector`: the bot's process collects and freezes start-up's objects, then
collects less often; only once per process."""

from __future__ import annotations

import gc

import pytest

from bot.discord.core import collector


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[int, ...]]]:
    """The collector's calls, recorded instead of made (the test process keeps its own)."""
    made: list[tuple[str, tuple[int, ...]]] = []
    monkeypatch.setattr(collector, "_tuned", False)
    def collect(*generations: int) -> int:
        made.append(("collect", generations))
        return 0

    monkeypatch.setattr(gc, "collect", collect)
    monkeypatch.setattr(gc, "freeze", lambda: made.append(("freeze", ())))
    monkeypatch.setattr(gc, "set_threshold", lambda *a: made.append(("threshold", a)))
    return made


def test_start_up_is_collected_then_frozen_then_thresholds_raised(
        calls: list[tuple[str, tuple[int, ...]]]) -> None:
    assert collector.tune() is True
    assert calls == [("collect", ()), ("freeze", ()),
                     ("threshold", (collector.YOUNG, collector.MIDDLE, collector.OLD))]
    assert collector.YOUNG > 700  # CPython's default young threshold


def test_a_second_bot_in_the_process_changes_nothing(
        calls: list[tuple[str, tuple[int, ...]]]) -> None:
    collector.tune()
    calls.clear()
    assert collector.tune() is False
    assert calls == []
