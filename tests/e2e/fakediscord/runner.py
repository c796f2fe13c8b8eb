"""Running real discord.py clients against a :class:`FakeDiscord`.

:class:`BotLauncher` starts a client (``login`` + ``connect(reconnect=False)``), waits
until it is ready with every guild, restarts it as a new client object on the same fake
state, and stops everything; :class:`ErrorLog` collects what discord.py logged as errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import discord

from .gateway import shard_of
from .server import FakeDiscord

GUILD_READY_TIMEOUT = 0.05
START_TIMEOUT = 5.0
STOP_TIMEOUT = 5.0
IDLE_TIMEOUT = 10.0
QUIET = 0.05
"""How long :meth:`BotLauncher.idle` wants no request by default: work the bot queued
for later (a timer, a background task) shows only through its requests."""
# names discord.py gives the tasks that run commands, component/modal callbacks and events
BUSY_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-dynamic-item",
    "discord-ui-modal-dispatch",
    "discord.py: ",
)


def busy_tasks(prefixes: tuple[str, ...] = BUSY_TASK_PREFIXES) -> set[asyncio.Task[object]]:
    """discord.py's unfinished command, callback and event tasks."""
    current = asyncio.current_task()
    return {
        t for t in asyncio.all_tasks()
        if t is not current and not t.done() and t.get_name().startswith(prefixes)
    }


class ErrorLog(logging.Handler):
    """Collects ERROR records from the ``discord`` loggers (ignored exceptions)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record."""
        self.records.append(record)

    def describe(self) -> str:
        """The messages and exceptions, for an assertion message."""
        formatter = logging.Formatter("%(name)s: %(message)s")
        return "\n".join(formatter.format(r) for r in self.records)


C = TypeVar("C", bound=discord.Client)
C_co = TypeVar("C_co", bound=discord.Client, covariant=True)


@dataclass(frozen=True)
class RunningBot(Generic[C_co]):
    """A client connected to the fake, with the task running ``client.connect``."""

    client: C_co
    task: asyncio.Task[None]

    async def stop(self) -> None:
        """Close the client and wait for its connection task to end."""
        if not self.client.is_closed():
            await self.client.close()
        with contextlib.suppress(discord.ConnectionClosed, asyncio.CancelledError):
            await asyncio.wait_for(self.task, STOP_TIMEOUT)


class BotLauncher:
    """Starts and stops clients against one fake."""

    def __init__(self, fake: FakeDiscord, errors: ErrorLog) -> None:
        # tasks :meth:`idle` waits for; drop "discord.py: " if an event handler of the
        # bot never returns (e.g. a loop started in on_ready)
        self.busy_prefixes = BUSY_TASK_PREFIXES
        self.fake = fake
        self.errors = errors
        self.guild_ready_timeout = GUILD_READY_TIMEOUT
        """What the clients started from now on wait after the last GUILD_CREATE before
        they are ready (discord.py's default: 2 s)."""
        self.running: list[RunningBot[discord.Client]] = []

    async def start(self, client: C, token: str = "fake-token") -> RunningBot[C]:
        """Log in, connect and wait until the client is ready with every guild."""
        client._connection.guild_ready_timeout = self.guild_ready_timeout
        await client.login(token)
        task = asyncio.create_task(client.connect(reconnect=False), name="fake-discord-bot")
        running = RunningBot(client, task)
        self.running.append(running)
        await self._until_ready(running)
        return running

    async def _until_ready(self, running: RunningBot[C]) -> None:
        ready = asyncio.create_task(running.client.wait_until_ready())
        done, _ = await asyncio.wait(
            {ready, running.task}, timeout=START_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            if running.task in done:
                running.task.result()  # raises why the connection ended
            raise TimeoutError(f"bot not ready in {START_TIMEOUT}s\n{self.fake.state.diagnose()}")
        mine = [g for g in self.fake.state.guilds if _shard_sees(running.client, g)]
        missing = [g for g in mine if running.client.get_guild(g) is None]
        assert not missing, f"guilds never became available: {missing}"

    async def idle(self, timeout: float = IDLE_TIMEOUT, quiet: float = QUIET) -> None:
        """Wait until every client has read every gateway event the fake sent, runs no
        command/callback/event task, and made no request for ``quiet`` seconds.

        Use it after an interaction to let the bot finish everything it started. A
        caller that knows the bot's own queued work (timers, background deliveries)
        waits for it too and may ask for a shorter ``quiet`` (a safety net only).
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        await self.fake.wait_for(self._caught_up, timeout, "the bot to read its events")
        while True:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"bot still busy after {timeout}s: {self._busy()}")
            pending = self._busy()
            if pending:
                await asyncio.wait(pending, timeout=remaining)
                continue
            await self.fake.settle(quiet, timeout=remaining)
            if not self._busy():
                return

    def _busy(self) -> set[asyncio.Task[object]]:
        return busy_tasks(self.busy_prefixes)

    def _caught_up(self) -> bool:
        """Whether each open session's client has parsed the last dispatch sent to it.

        discord.py sets ``ws.sequence`` and then parses the event without yielding, so
        an equal sequence means the event's handlers have been scheduled.
        """
        sent = {s.session_id: s.sequence for s in self.fake.gateway.sessions if s.open}
        for running in self.running:
            for ws in _websockets(running.client):
                if ws is None or ws.socket.closed or ws.session_id not in sent:
                    continue
                if (ws.sequence or 0) < sent[ws.session_id]:
                    return False
        return True

    async def restart(
        self, old: RunningBot[discord.Client], client: C, *, settle: bool = True
    ) -> RunningBot[C]:
        """Stop ``old`` and start a new client object against the same fake state.

        With ``settle`` (the default) the old client first finishes its in-flight
        requests; without it, work in progress is cut off (and may log errors).
        """
        if settle:
            await self.idle()
        await old.stop()
        return await self.start(client)

    async def stop_all(self) -> None:
        """Let in-flight work finish, then stop every client this launcher started."""
        await self.idle()
        for running in reversed(self.running):
            await running.stop()


def _websockets(client: discord.Client) -> list[Any]:
    """The client's gateway connections: one per shard it runs."""
    if isinstance(client, discord.AutoShardedClient):
        return [info._parent.ws for info in client.shards.values()]
    return [client.ws]


def _shard_sees(client: discord.Client, guild_id: int) -> bool:
    """Whether the client runs the shard Discord sends this guild to."""
    if not isinstance(client, discord.AutoShardedClient) or client.shard_count is None:
        return True
    ids = client.shard_ids if client.shard_ids is not None else range(client.shard_count)
    return shard_of(guild_id, client.shard_count) in ids
