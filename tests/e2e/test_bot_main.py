"""``mahjong-bot`` itself: a helpful message without a token; with one, it connects,
syncs to the development guild, and stops cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest
from fakediscord import FakeDiscord

from bot.__main__ import main, run
from bot.config import Config
from bot.store import Store


def test_without_a_token_it_says_how_to_get_one(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    assert main([]) != 0
    err = capsys.readouterr().err
    assert "discord.com/developers/applications" in err and "mahjong-bot demo" in err


async def test_it_runs_syncs_and_stops_cleanly_on_sigterm(
        fake: FakeDiscord, tmp_path: Path) -> None:
    fake.add_user(101, "ann")
    guild = fake.add_guild(900, "Club", members=[101])
    db = tmp_path / "bot.sqlite3"
    config = Config(discord_token="fake-token", database_path=db, dev_guild_id=guild.id)
    task = asyncio.create_task(run(config))
    await fake.wait_for(lambda: fake.commands(guild), timeout=10)
    assert fake.commands() == []  # developing: the guild only, at once
    await fake.wait_connected()
    os.kill(os.getpid(), signal.SIGTERM)
    assert await asyncio.wait_for(task, 15) == 0
    store = await Store.open(db)  # closed cleanly, opens again
    await store.close()


def test_only_the_guilds_intent_nothing_privileged() -> None:
    import discord

    from bot.discord.client import intents

    wanted = intents()
    assert wanted.value == discord.Intents(guilds=True).value
    assert not (wanted.members or wanted.presences or wanted.message_content)
