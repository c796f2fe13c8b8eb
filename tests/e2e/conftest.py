"""Fixtures that run a real discord.py client against the fake Discord.

``fake`` starts a :class:`FakeDiscord` on 127.0.0.1 and points discord.py at it;
``bots`` starts clients (``await bots.start(client)``), restarts them with a new client
object on the same fake state (``await bots.restart(running, new_client)``), and on
teardown lets in-flight requests finish, closes them and fails the test if discord.py
logged an error. Import helpers as ``from fakediscord import ...`` (this directory is
on ``sys.path`` through pytest's rootdir-relative conftest import).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator

import discord
import discord.gateway
import discord.http
import pytest
import yarl
from fakediscord import BotLauncher, ErrorLog, FakeDiscord


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """A started fake Discord, with discord.py's REST base and gateway pointed at it."""
    server = FakeDiscord()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_url)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(server.gateway_url)
    )
    # A client running several shards waits 5 s before each IDENTIFY after its first,
    # as Discord's limit asks; the fake has no such limit, so they follow at once.
    monkeypatch.setattr(discord.Client, "before_identify_hook", _identify_at_once)
    try:
        yield server
    finally:
        await server.stop()


async def _identify_at_once(self: discord.Client, shard_id: int | None, *,
                            initial: bool = False) -> None:
    """`discord.Client.before_identify_hook` without its wait."""


@pytest.fixture
def discord_errors() -> Iterator[ErrorLog]:
    """ERROR records logged by discord.py during the test."""
    handler = ErrorLog()
    logger = logging.getLogger("discord")
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)


@pytest.fixture
async def bots(fake: FakeDiscord, discord_errors: ErrorLog) -> AsyncIterator[BotLauncher]:
    """Start clients with ``await bots.start(client)``; all are closed at teardown.

    The test fails if discord.py logged an error (an exception in a command, view or
    event) unless it cleared ``bots.errors.records``, or if the bot called a route the
    fake does not implement unless it set ``fake.strict_routes = False``.
    """
    launcher = BotLauncher(fake, discord_errors)
    try:
        yield launcher
    finally:
        await launcher.stop_all()
    assert not discord_errors.records, "discord.py logged errors:\n" + discord_errors.describe()
    crashed = [f"{r.method} {r.path}: {r.error}" for r in fake.crashed()]
    assert not crashed, f"the fake failed on requests: {crashed}"
    if fake.strict_routes:
        unknown = [f"{r.method} {r.path}" for r in fake.unhandled()]
        assert not unknown, f"the bot called routes the fake lacks: {unknown}"
