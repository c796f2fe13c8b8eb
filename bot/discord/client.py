"""`MahjongBot`: the discord.py client that wires the adapter to the table service.

    bot = MahjongBot(database_path=config.database_path, dev_guild_id=config.dev_guild_id)
    await bot.start(token)          # setup_hook opens the store, recovers every table,
                                    # starts the timers and syncs /mahjong
    await bot.close()               # stops the timers, lets in-flight moves finish under
                                    # their locks, delivers queued messages, closes the store

Only the ``guilds`` intent: commands and components arrive as interactions, so the bot
needs neither message content nor the member list (no privileged intent).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.discord.commands import MahjongCommands
from bot.discord.core import collector
from bot.discord.core.answering import InFlight
from bot.discord.core.i18n import MahjongTranslator
from bot.discord.core.items import DYNAMIC_ITEMS, answer_unshown, unshown
from bot.discord.core.pictures import Pictures
from bot.discord.core.tree_errors import on_app_command_error
from bot.discord.delivery import retry
from bot.discord.lobby import leave, message  # noqa: F401  (their buttons, registered)
from bot.discord.lobby.names import computer_name
from bot.discord.play import choices, moves, premoves  # noqa: F401  (their buttons, registered)
from bot.discord.table.notifier import DiscordNotifier
from bot.service import Clock, TableService
from bot.store import Store, StoreMemory

log = logging.getLogger(__name__)


def intents() -> discord.Intents:
    """Guilds only: channels and the guild's locale; nothing privileged."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class MahjongBot(discord.Client):
    """The bot. Everything game-related is built in `setup_hook` (inside the loop)."""

    def __init__(self, *, database_path: Path | str | None = None, store: Store | None = None,
                 clock: Clock | None = None, computer_pause: float = 2.0,
                 dev_guild_id: int | None = None, sync_commands: bool | str = True,
                 table_interval: float = 2.0, repost_after: float = 3600.0,
                 service_options: dict[str, Any] | None = None,
                 picture_processes: int = 1, **client_options: Any) -> None:
        # client_options: ShardedMahjongBot's shard_count and shard_ids. No message
        # cache: the bot never reads one (a click carries its message), and every DM and
        # answer of a click would pass through it, living long enough to be collected
        # in the older generations
        client_options.setdefault("max_messages", None)
        super().__init__(intents=intents(), **client_options)
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(MahjongCommands())
        self.tree.error(on_app_command_error)
        self.database_path = database_path
        self.store: Store = store  # type: ignore[assignment]  # None until setup_hook opens it
        self._own_store = store is None
        self.clock = clock
        self.computer_pause = computer_pause
        self.dev_guild_id = dev_guild_id
        # True/False (tests, tools) or the SYNC_COMMANDS setting: changed, always, never
        self.sync_commands = sync_commands if isinstance(sync_commands, str) else \
            "changed" if sync_commands else "never"
        self.table_interval = table_interval
        self.repost_after = repost_after
        self.service_options = service_options or {}
        self.pictures = Pictures(picture_processes)
        self.service: TableService = None  # type: ignore[assignment]  # built in setup_hook
        self.notifier: DiscordNotifier = None  # type: ignore[assignment]  # built in setup_hook
        self.in_flight = InFlight()
        """The interactions' service calls: shutdown waits for them."""
        self._tasks: list[asyncio.Task[Any]] = []
        self._unshown: set[asyncio.Task[None]] = set()
        """Presses on components no longer shown being answered (held: the loop keeps
        only weak references to tasks)."""
        self._shut = False

    async def setup_hook(self) -> None:
        # the picture workers warm up beside the recovery, not on the first player's click
        self._tasks = [asyncio.create_task(self.pictures.start(), name="mahjong-pictures")]
        await self.tree.set_translator(MahjongTranslator())
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.store is None:
            self.store = await Store.open(self.database_path or "mahjong.sqlite3")
        # a database put back from a backup: new nonces (`retry.nonce_salt`), small hook
        retry.nonce_salt = await self.store.lobby.setting(retry.RESTORED) or ""
        self.notifier = DiscordNotifier(self, StoreMemory(self.store),
                                        table_interval=self.table_interval,
                                        repost_after=self.repost_after,
                                        pictures=self.pictures,
                                        shared=bool(self.service_options.get("shared")))
        # a click's answer first, its DMs and pictures right after (see Outbox.yield_to)
        self.notifier.outbox.yield_to = self.in_flight.answered
        # what the recovery and the first moves owe waits for the gateway (`_deliver`)
        self.notifier.outbox.hold()
        self._tasks.append(asyncio.create_task(self._deliver(), name="mahjong-ready"))
        notifier = self.notifier
        options = {"computer_name": lambda ref, seat, replaces: computer_name(
            notifier.channel_locale(ref), seat, replaces), **self.service_options}
        self.service = TableService(self.store, self.notifier, clock=self.clock,
                                    computer_pause=self.computer_pause, **options)
        # a table that leaves the service's memory idle leaves the presenter's too
        self.service.tables.on_unload = notifier.unloaded
        # not counted: a count reads every live table's index entry (`mahjong-bot status`)
        report = await self.service.recover(counted=False)
        log.info("recovered: %s table(s) mended, %s deadline(s) deferred",
                 report.rebuilt, report.deferred)
        await self.service.resend_dms()  # the decisions a crash left without their DMs
        await self.service.start_facts()  # the stats' facts, when derived another way
        await self.service.start_ratings()  # a new formula rebuilds them; missed ones rated
        # no warm-up: each table is loaded on its first click, command or deadline, and
        # leaves memory again when idle (issue 32: start-up costs nothing per table)
        self._tasks.append(asyncio.create_task(self.service.run(), name="mahjong-scheduler"))
        if self.sync_commands != "never":
            await self.sync(force=self.sync_commands == "always")
        collector.tune()  # start-up's objects frozen, fewer collections from now on

    async def sync(self, *, force: bool = False) -> None:
        """Instant sync to DEV_GUILD_ID while developing; global otherwise (Discord may
        take up to an hour to show global changes). Only when the tree (as Discord would
        receive it, translations included) differs from the last sync to that scope:
        Discord limits how often an application may overwrite its commands."""
        guild = discord.Object(self.dev_guild_id) if self.dev_guild_id is not None else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        scope = f"guild:{guild.id}" if guild is not None else "global"
        key, fingerprint = f"commands:{scope}", await self._fingerprint(guild)
        if not force and await self.store.lobby.setting(key) == fingerprint:
            log.info("commands unchanged since the last sync (%s): not synced", scope)
            return
        synced = await self.tree.sync(guild=guild)
        await self.store.lobby.set_setting(key, fingerprint, at=time.time())
        log.info("synced %s command(s) (%s)", len(synced), scope)

    async def _fingerprint(self, guild: discord.abc.Snowflake | None) -> str:
        """SHA-256 of the commands' payload as `CommandTree.sync` would send it."""
        translator = self.tree.translator
        payload = [await c.get_translated_payload(self.tree, translator) if translator
                   else c.to_dict(self.tree) for c in self.tree.get_commands(guild=guild)]
        text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    async def _deliver(self) -> None:
        """The deliveries go once the gateway told the bot its servers: before, a table
        picture would be captioned in English whatever its server's language, and each
        channel fetched. That is discord.py's ready, or sooner (`on_guild_available`)."""
        await self.wait_until_ready()
        self.notifier.outbox.release()

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """Every server READY listed has come: the deliveries need not wait for
        discord.py's ready, which waits ``guild_ready_timeout`` (2 s) for more."""
        if self._every_guild_here():
            self.notifier.outbox.release()

    def _every_guild_here(self) -> bool:
        return not any(g.unavailable for g in self.guilds)

    async def on_ready(self) -> None:
        log.info("connected as %s to %s server(s)", self.user, len(self.guilds))

    def dispatch(self, event: str, /, *args: Any, **kwargs: Any) -> None:
        """discord.py's dispatch, and a press on a component its message no longer shows
        answered (`answer_unshown`). Not an ``on_interaction`` listener: discord.py
        makes a task per listener per event, one a click, where a look at the click
        (`unshown`) finds nothing to do for all but a rare few."""
        super().dispatch(event, *args, **kwargs)
        if event == "interaction" and unshown(args[0]):
            task = asyncio.create_task(self._answer_unshown(args[0]),
                                       name="mahjong-unshown")
            self._unshown.add(task)
            task.add_done_callback(self._unshown.discard)

    async def _answer_unshown(self, interaction: discord.Interaction) -> None:
        try:
            await answer_unshown(interaction)
        except Exception:  # as discord.py's listeners: logged, the next click goes on
            log.exception("answering a press on a component no longer shown failed")

    async def shutdown(self, timeout: float = 10.0) -> None:
        """Nothing half-written: stop the timers, let the moves in flight finish under
        their locks, deliver what is queued, then close the store. Idempotent."""
        if self._shut:
            return
        self._shut = True
        await self.in_flight.close(timeout)
        if self.service is not None:
            self.service.stop()
            await self.service.drain()
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self.notifier is not None:
            await self.notifier.outbox.close(timeout)
            await self.notifier.tables.drain()  # what idle tables' presenter knew
        await asyncio.to_thread(self.pictures.close)
        if self._own_store and self.store is not None:
            await self.store.close()
        log.info("the game side is shut down")

    async def close(self) -> None:
        await self.shutdown()
        await super().close()


class ShardedMahjongBot(MahjongBot, discord.AutoShardedClient):
    """The same bot on some of Discord's shards (``SHARD_COUNT``, ``SHARD_IDS``): one
    gateway connection per shard, every shard's interactions answered by this process's
    one table service. Another process may run the other shards on the same PostgreSQL
    database; Discord sends every DM interaction to shard 0, whichever process runs the
    table it is for, and the service reads the table fresh (see bot/service/README.md)."""

    def __init__(self, *, shard_count: int, shard_ids: tuple[int, ...] | None = None,
                 **options: Any) -> None:
        super().__init__(shard_count=shard_count,
                         shard_ids=list(shard_ids) if shard_ids is not None else None,
                         **options)

    def _every_guild_here(self) -> bool:
        """A shard still to send READY has listed no server yet: the deliveries wait
        for discord.py's ready (every shard's)."""
        return False

    async def on_ready(self) -> None:
        log.info("connected as %s on shard(s) %s of %s to %s server(s)", self.user,
                 ",".join(map(str, sorted(self.shards))), self.shard_count, len(self.guilds))


def make_bot(*, shard_count: int | None = None, shard_ids: tuple[int, ...] | None = None,
             **options: Any) -> MahjongBot:
    """The bot for a configuration: unsharded without ``shard_count`` (as ever), else the
    sharded client running ``shard_ids`` (all shards when None)."""
    if shard_count is None:
        return MahjongBot(**options)
    return ShardedMahjongBot(shard_count=shard_count, shard_ids=shard_ids, **options)
