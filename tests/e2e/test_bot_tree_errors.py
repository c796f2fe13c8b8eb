"""An exception that escapes a slash command's callback reaches ``tree.on_error``: the
user gets a private one-sentence apology in their language instead of "The application
did not respond", and the log has the traceback but not the exception's message (which
might carry tiles)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from botkit import make_bot, make_world, slash
from fakediscord import BotLauncher, FakeDiscord

SECRET = "1m 2m 3m 4m 5m 6m"


def _explode(rules: str, given: dict[str, Any]) -> dict[str, Any]:
    raise RuntimeError(f"concealed: {SECRET}")


async def test_an_escaping_error_is_answered_privately_and_logged_without_tiles(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    world = make_world(fake, locales=["zh-CN"])
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    # the options are read in the command's own callback, before the handler guards it
    monkeypatch.setattr("bot.discord.commands.table_options", _explode)
    with caplog.at_level(logging.INFO):
        zh = await (await slash(world, world.players[0], "new", rules="shanghai")).response()
        en = await (await slash(world, world.players[1], "new", rules="shanghai")).response()
    assert zh.type == 4 and zh.ephemeral and zh.content == "出了点问题，请再试一次。"
    assert en.ephemeral and en.content == "Something went wrong on my side; please try again."
    logged = [r for r in caplog.records if r.name.startswith("bot.")
              and r.levelno >= logging.ERROR]
    assert len(logged) == 2
    text = caplog.text
    assert "Traceback" in text and "_explode" in text and "RuntimeError" in text
    assert SECRET not in text
