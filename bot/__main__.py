"""``mahjong-bot``: run the Discord bot; ``mahjong-bot demo`` plays offline.

The bot reads DISCORD_TOKEN, DATABASE_PATH or DATABASE_URL, DEV_GUILD_ID and LOG_LEVEL from
the environment or ``.env`` (see ``.env.example``), logs to stdout, and on SIGTERM or
SIGINT shuts down cleanly: the timers stop, moves in flight finish under their table
locks, queued messages are delivered, and the store is closed — nothing half-written.
A database file that cannot be used, or that another bot process already holds, is
refused at start-up in one line (exit code 2), as a missing token is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from typing import TYPE_CHECKING, Any

from bot.config import Config, ConfigError
from bot.logs import configure_logging

if TYPE_CHECKING:
    from bot.store import Store

USAGE = """\
usage: mahjong-bot          run the Discord bot (needs DISCORD_TOKEN)
       mahjong-bot demo     play a match of computer players offline (no Discord)
                            [--rules R] [--hands N] [--out DIR] [--db PATH]
       mahjong-bot copy-database --from SQLITE_FILE --to postgresql://… [--replace]
                            copy the SQLite database into PostgreSQL (bot stopped)
       mahjong-bot status   how the bot is doing, from the database alone
                            [--json] [--stuck-after SECONDS]; exit 1 when stuck
       mahjong-bot backup --to FILE
                            copy the SQLite database while the bot runs
       mahjong-bot restore --from FILE
                            put a backup in place (the bot stopped)
       mahjong-bot migrate [--check]
                            the schema upgrades a start would apply (list, or apply)

Settings come from the environment or a .env file (see .env.example):
  DISCORD_TOKEN   the bot's token (required to run the bot)
  DATABASE_PATH   the SQLite file (default ./mahjong.sqlite3)
  DATABASE_URL    postgresql://user:password@host/db to use PostgreSQL instead
  DEV_GUILD_ID    a server id for instant command sync while developing
  LOG_LEVEL       DEBUG, INFO, WARNING or ERROR (default INFO)
  SHARD_COUNT     Discord shards of the whole bot (unset: no sharding)
  SHARD_IDS       the shards this process runs, such as 0,1 (default: all)
  LOG_FORMAT      text (default) or json: one JSON object per line
  METRICS_PORT    serve Prometheus metrics on this port (pip install "mahjong-bot[metrics]")
  METRICS_HOST    the address it listens on (default 127.0.0.1)
  IDLE_AFTER      seconds an unused table stays in memory (default 600)
"""

NO_TOKEN = """\
mahjong-bot: DISCORD_TOKEN is not set, so the bot cannot connect to Discord.

To get a token:
  1. Open https://discord.com/developers/applications and press "New Application".
  2. In "Bot", press "Reset Token" and copy the token (it is shown once).
  3. Put it in a file named .env next to where you run the bot:
         DISCORD_TOKEN=your-token-here
     (copy .env.example to .env to start), or export DISCORD_TOKEN=... in the shell.
  4. Invite the bot with the "bot" and "applications.commands" scopes (see the
     README's Discord section for the permissions and the invite link).

No token at hand? `mahjong-bot demo` plays a whole match of computer players
offline, through the same table service and database; `mahjong-bot demo --out DIR`
saves its pictures in DIR too.
"""

LOGIN_FAILED = """\
mahjong-bot: Discord refused the token in DISCORD_TOKEN. Reset it in the developer
portal (Applications → your app → Bot → Reset Token) and update .env or the environment.
"""

SQLITE_ALONE = """\
mahjong-bot: SHARD_IDS={ids} runs {ids} of SHARD_COUNT={count} shards, leaving the others
to other bot processes; processes can only share a PostgreSQL database (DATABASE_URL).
SQLite serves one process: unset SHARD_IDS to run every shard here, or move to
PostgreSQL (see the README, "Several processes").
"""

log = logging.getLogger("bot")


def _status(argv: list[str]) -> int:
    from bot.ops.status import main as status

    return status(argv)


def _migrate(argv: list[str]) -> int:
    from bot.ops.upgrade import main as migrate

    return migrate(argv)


def _backup(argv: list[str]) -> int:
    from bot.ops.backup import backup_main

    return backup_main(argv)


def _restore(argv: list[str]) -> int:
    from bot.ops.backup import restore_main

    return restore_main(argv)


OPS = {"status": _status, "migrate": _migrate, "backup": _backup, "restore": _restore}
"""The admin's commands (bot/ops), each imported only when asked for."""


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "demo":
        from bot.demo import main as demo

        return demo(args[1:])
    if args and args[0] == "copy-database":
        from bot.copy_database import main as copy_database

        return copy_database(args[1:])
    if args and args[0] in OPS:
        return OPS[args[0]](args[1:])
    if args:
        sys.stdout.write(USAGE)
        return 0 if args[0] in ("-h", "--help", "help") else 2
    try:
        config = Config.from_env()
    except ConfigError as exc:
        sys.stderr.write(f"mahjong-bot: {exc}\n")
        return 2
    if not config.discord_token:
        sys.stderr.write(NO_TOKEN)
        return 2
    # never a secret, whatever the level; one line per event
    configure_logging(config.log_level_number, json_lines=config.log_format == "json")
    return asyncio.run(run(config))


async def run(config: Config) -> int:
    """Run until Discord disconnects for good or a signal asks to stop. The database
    is checked first: one bot process per file, and a file that cannot be used is
    explained in one line (exit code 2) before anything connects to Discord; so is a
    metrics endpoint (``METRICS_PORT``) that cannot listen."""
    if config.shares_shards and not config.shared_database:
        sys.stderr.write(SQLITE_ALONE.format(ids=",".join(map(str, config.own_shards)),
                                             count=config.shard_count))
        return 2
    if config.metrics_port is not None:
        from bot import metrics

        try:
            metrics.serve(config.metrics_port, config.metrics_host)
        except (metrics.MetricsUnavailable, OSError) as exc:
            why = exc if isinstance(exc, metrics.MetricsUnavailable) else (
                f"the metrics endpoint cannot listen on {config.metrics_host}:"
                f"{config.metrics_port} ({exc.strerror or exc}): choose another "
                "METRICS_PORT, or leave it empty")
            sys.stderr.write(f"mahjong-bot: {why}\n")
            return 2
    try:
        return await _run(config)
    finally:
        if config.metrics_port is not None:
            from bot import metrics

            metrics.disable()


async def _run(config: Config) -> int:
    from bot.store import ProcessLock, Store, StoreError

    try:
        # one process per SQLite file; processes sharing a PostgreSQL database coordinate
        # through it instead
        lock = None if config.database_url else ProcessLock.acquire(config.database_path)
    except StoreError as exc:
        sys.stderr.write(f"mahjong-bot: {exc}\n")
        return 2
    try:
        try:
            store = await Store.open(config.database)
        except StoreError as exc:
            sys.stderr.write(f"mahjong-bot: {exc}\n")
            return 2
        try:
            return await _serve(config, store)
        finally:
            await store.close()
    finally:
        if lock is not None:
            lock.release()


async def _serve(config: Config, store: Store) -> int:
    import discord

    from bot.discord.client import make_bot

    # on PostgreSQL other processes may serve the same tables: shared mode (README)
    bot = make_bot(store=store, dev_guild_id=config.dev_guild_id,
                   sync_commands=config.sync_commands, shard_count=config.shard_count,
                   shard_ids=config.shard_ids,
                   service_options={"idle_after": float(config.idle_after),
                                    **({"shared": True} if config.shared_database else {})})
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # not on Windows
            loop.add_signal_handler(sig, stop.set)
    runner = asyncio.create_task(bot.start(config.require_token()), name="discord")
    gauges = asyncio.create_task(_gauges(bot, store), name="metrics") \
        if config.metrics_port is not None else None
    waiter = asyncio.create_task(stop.wait(), name="signals")
    done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
    if waiter in done:
        log.info("signal received: shutting down")
    waiter.cancel()
    if gauges is not None:
        gauges.cancel()
    await bot.close()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.remove_signal_handler(sig)
    if runner in done and runner.exception() is not None:
        exc = runner.exception()
        if isinstance(exc, discord.LoginFailure):
            sys.stderr.write(LOGIN_FAILED)
            return 1
        log.error("the bot stopped: %r", exc)
        return 1
    runner.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await runner
    return 0


GAUGES_EVERY = 15.0
"""Seconds between two readings of the tables' gauge (the deliveries' own gauge and
counters are kept by bot/discord/delivery as they happen)."""


async def _gauges(bot: Any, store: Store) -> None:
    """The tables' gauge from the database and the service, every `GAUGES_EVERY`."""
    from bot import metrics

    while True:
        try:
            live = await store.maintenance.live_tables()
            service = getattr(bot, "service", None)
            loaded = len(getattr(getattr(service, "tables", None), "loaded", ()))
            metrics.tables(live=live, idle=max(0, live - loaded))
        except Exception as exc:  # a gauge is never worth the bot
            log.warning("metrics: the gauges could not be read (%s)", exc)
        await asyncio.sleep(GAUGES_EVERY)


if __name__ == "__main__":
    raise SystemExit(main())
