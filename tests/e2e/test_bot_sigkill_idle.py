"""Nothing is lost when the bot is killed while tables load or unload (issue 32): the
SIGKILL test's match (test_bot_sigkill.py) played by a bot whose table leaves memory
between the computers' moves and is loaded again by each deadline, killed at random
moments and restarted (the presenter lets it go too, writing what only it knew).
Every committed move is in the log once, and the channel shows each hand's
announcements once."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from botkit import make_world
from fakediscord import FakeDiscord
from test_bot_sigkill import KILLS, check_channel, check_log, kill_moment, run_child

from tests.crashkit import record_commits


async def test_a_match_survives_sigkill_while_its_table_loads_and_unloads(
        fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAHJONG_TEST_IDLE_AFTER", "0.01")
    monkeypatch.setenv("MAHJONG_TEST_COMPUTER_PAUSE", "0.02")
    rng = random.Random(7)
    world = make_world(fake)
    db = tmp_path / "bot.sqlite3"
    committed: dict[tuple[int, int], str] = {}
    kills = 0
    while True:
        lines, killed = await run_child(fake, world, db,
                                        kill_moment(rng) if kills < KILLS else None)
        record_commits(lines, committed, 7)
        if "DONE" in lines:
            if killed:
                lines, _ = await run_child(fake, world, db, None)
                record_commits(lines, committed, 7)
                assert "DONE" in lines
            break
        kills += 1
    assert kills >= 3, "the match ended before it was killed often"
    unloaded = [line.split()[1:] for line in lines if line.startswith("UNLOADED ")]
    assert unloaded and int(unloaded[0][0]) > 0, \
        "the table never left memory: nothing was tested"
    assert int(unloaded[0][1]) > 0, "the table never left the presenter: not tested there"
    table, hands = await check_log(db, world.channel.id, committed)
    check_channel(fake, world, table, hands)
