"""``METRICS_PORT``: the real bot (``run``, as ``mahjong-bot`` starts it) serves
Prometheus's metrics while it plays: the interactions and their latency, the moves,
the live tables, Discord's errors by status and the process's memory, scraped over
HTTP; the endpoint goes with the bot. `mahjong-bot status` reads the same bot's
database beside it. A port that cannot be listened on is refused in one line, before
Discord."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import urllib.request
from pathlib import Path

import pytest
from botkit import Driver, make_world, open_table
from fakediscord import FakeDiscord

from bot.__main__ import run
from bot.config import Config
from bot.ops.status import read_status


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def scrape(port: int) -> dict[str, float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        text = answer.read().decode()
    return {line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1])
            for line in text.splitlines() if line and not line.startswith("#")}


async def test_the_running_bot_serves_its_metrics(
        fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.__main__.GAUGES_EVERY", 0.05)
    world = make_world(fake)
    port = free_port()
    config = Config(discord_token="fake-token", database_path=tmp_path / "bot.sqlite3",
                    dev_guild_id=world.guild.id, metrics_port=port)
    fake.faults.forbid_dms(world.players[3].id)  # Discord answers her DMs 403
    task = asyncio.create_task(run(config))
    await fake.wait_for(lambda: fake.commands(world.guild), timeout=10)
    await fake.wait_connected()
    await open_table(world)
    driver = Driver(world, closed={world.players[3].id})

    async def idle() -> None:
        await asyncio.sleep(0.05)

    await driver.play_until(lambda: driver.clicks >= 4, idle=idle)
    seen = await asyncio.to_thread(scrape, port)
    assert seen['mahjong_interactions_total{kind="application_command",outcome="ok"}'] >= 1
    assert seen['mahjong_interactions_total{kind="component",outcome="ok"}'] >= 4
    assert seen['mahjong_interaction_seconds_count{kind="component"}'] >= 4
    assert seen['mahjong_moves_total{source="player"}'] >= 4
    assert seen['mahjong_tables{state="live"}'] == 1
    assert seen['mahjong_tables{state="idle"}'] == 0  # in memory: it is played
    assert "mahjong_deliveries_owed" in seen
    assert seen["process_resident_memory_bytes"] > 20 * 2**20
    assert seen['mahjong_discord_errors_total{status="403"}'] >= 1
    # and `mahjong-bot status` beside it: the bot holds the database, nothing is stuck
    found = await read_status(config.database_path)
    assert found.bots == [str(os.getpid())] and found.stuck == []
    assert found.figures["tables"]["playing"] == 1
    assert found.figures["decisions"]["waiting"] >= 1
    os.kill(os.getpid(), signal.SIGTERM)
    assert await asyncio.wait_for(task, 15) == 0
    with pytest.raises(OSError):
        await asyncio.to_thread(scrape, port)


async def test_a_port_in_use_is_refused_before_discord(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        config = Config(discord_token="fake-token", database_path=tmp_path / "bot.sqlite3",
                        metrics_port=port)
        assert await run(config) == 2
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err and "METRICS_PORT" in err
    assert not (tmp_path / "bot.sqlite3").exists()
