"""bot/metrics.py: a no-op until enabled; enabled, every call shows in a scrape of the
HTTP endpoint, and the process's memory is there too."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator

import pytest

from bot import metrics


@pytest.fixture
def served() -> Iterator[str]:
    port = metrics.serve(0)
    yield f"http://127.0.0.1:{port}/metrics"
    metrics.disable()


def scrape(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as answer:
        assert answer.status == 200
        text: str = answer.read().decode()
    return text


def test_disabled_every_call_does_nothing() -> None:
    metrics.disable()
    assert not metrics.enabled()
    metrics.interaction("component", "ok", 0.01)
    metrics.move("player")
    metrics.deliveries_owed(3)
    metrics.delivery_failed("dm", "503")
    metrics.discord_error(503)
    metrics.tables(live=2, idle=1)


def test_a_scrape_shows_what_was_counted(served: str) -> None:
    metrics.interaction("component", "ok", 0.012)
    metrics.interaction("component", "refused", 0.004)
    metrics.interaction("application_command", "ok", 0.3)
    for source in ("player", "player", "computer"):
        metrics.move(source)
    metrics.deliveries_owed(7)
    metrics.delivery_failed("dm", "503")
    metrics.discord_error(503)
    metrics.discord_error(503)
    metrics.discord_error("timeout")
    metrics.tables(live=12, idle=9)
    text = scrape(served)
    lines = set(text.splitlines())
    assert 'mahjong_interactions_total{kind="component",outcome="ok"} 1.0' in lines
    assert 'mahjong_interactions_total{kind="component",outcome="refused"} 1.0' in lines
    assert 'mahjong_interaction_seconds_count{kind="component"} 2.0' in lines
    assert 'mahjong_interaction_seconds_bucket{kind="component",le="0.005"} 1.0' in lines
    assert 'mahjong_interaction_seconds_bucket{kind="application_command",le="0.25"} 0.0' \
        in lines
    assert 'mahjong_moves_total{source="player"} 2.0' in lines
    assert 'mahjong_moves_total{source="computer"} 1.0' in lines
    assert "mahjong_deliveries_owed 7.0" in lines
    assert 'mahjong_deliveries_failed_total{kind="dm",reason="503"} 1.0' in lines
    assert 'mahjong_discord_errors_total{status="503"} 2.0' in lines
    assert 'mahjong_discord_errors_total{status="timeout"} 1.0' in lines
    assert 'mahjong_tables{state="live"} 12.0' in lines
    assert 'mahjong_tables{state="idle"} 9.0' in lines
    memory = [line for line in lines if line.startswith("process_resident_memory_bytes ")]
    assert memory and float(memory[0].split()[1]) > 10 * 2**20


def test_disabled_again_the_endpoint_is_gone(served: str) -> None:
    metrics.disable()
    with pytest.raises(OSError):
        scrape(served)
