"""A starting bot tunes its process's garbage collector once (`bot.discord.core.collector`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from botkit import make_bot
from fakediscord import BotLauncher, FakeDiscord

from bot.discord.core import collector


async def test_the_started_bot_tuned_the_collector(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    tuned: list[bool] = []
    def tune() -> bool:
        tuned.append(True)
        return True

    monkeypatch.setattr(collector, "tune", tune)
    await bots.start(make_bot(tmp_path / "db.sqlite3"))
    assert tuned == [True]
