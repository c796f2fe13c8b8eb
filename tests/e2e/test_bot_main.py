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
    # the demo saves pictures only into a folder it is given: the words say how
    assert "saves the pictures" not in err and "mahjong-bot demo --out DIR" in err


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


async def test_on_sqlite_a_process_running_only_some_shards_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The other shards' process would need the same database: SQLite serves one."""
    config = Config(discord_token="fake-token", database_path=tmp_path / "bot.sqlite3",
                    shard_count=2, shard_ids=(1,))
    assert await run(config) == 2
    err = capsys.readouterr().err
    assert "SHARD_IDS=1 runs 1 of SHARD_COUNT=2 shards" in err
    assert "only share a PostgreSQL database (DATABASE_URL)" in err
    assert not (tmp_path / "bot.sqlite3").exists()  # refused before anything was opened


async def test_with_every_shard_it_runs_them_all_in_one_process(
        fake: FakeDiscord, tmp_path: Path) -> None:
    """SHARD_COUNT without SHARD_IDS: the sharded client connects each shard (one
    IDENTIFY per shard, each told only of its own guilds), on SQLite as ever."""
    fake.add_user(101, "ann")
    guilds = [fake.add_guild(name=f"on {n}", members=[101], shard=(n, 2)) for n in (0, 1)]
    config = Config(discord_token="fake-token", database_path=tmp_path / "bot.sqlite3",
                    sync_commands="never", shard_count=2)
    task = asyncio.create_task(run(config))
    await fake.wait_for(lambda: len([s for s in fake.gateway.sessions if s.open]) == 2, 10)
    assert sorted(s.shard for s in fake.gateway.sessions) == [(0, 2), (1, 2)]
    sent = {s.shard[0]: [f["d"]["id"] for f in s.sent if f["t"] == "GUILD_CREATE"]
            for s in fake.gateway.sessions}
    assert sent == {0: [str(guilds[0].id)], 1: [str(guilds[1].id)]}
    os.kill(os.getpid(), signal.SIGTERM)
    assert await asyncio.wait_for(task, 15) == 0


async def test_on_postgres_a_process_may_run_only_some_shards(
        fake: FakeDiscord, pg_url: str) -> None:
    """The other shards' process shares the database: this one runs shard 1 of 2, in
    shared mode (several processes, bot/service/README.md)."""
    fake.add_user(101, "ann")
    guild = fake.add_guild(name="on 1", members=[101], shard=(1, 2))
    config = Config(discord_token="fake-token", database_url=pg_url, sync_commands="never",
                    shard_count=2, shard_ids=(1,))
    task = asyncio.create_task(run(config))
    await fake.wait_for(lambda: any(s.open for s in fake.gateway.sessions), 15)
    (session,) = fake.gateway.sessions
    assert session.shard == (1, 2)
    assert [f["d"]["id"] for f in session.sent if f["t"] == "GUILD_CREATE"] == [str(guild.id)]
    os.kill(os.getpid(), signal.SIGTERM)
    assert await asyncio.wait_for(task, 15) == 0
