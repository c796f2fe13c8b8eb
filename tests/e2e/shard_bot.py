"""One of the bot processes the shards test runs: the real bot (discord.py's sharded
client, notifier and outbox, the table service in shared mode) running one shard of
two against the test's fake Discord, on the database the test gives. Each action is
printed only after its commit returned ("C hand_id seq payload"), so whatever it printed
must be in the log however it ends. SIGTERM: a clean shutdown, then "DONE".

    python tests/e2e/shard_bot.py API_URL GATEWAY_URL DATABASE SHARD COUNT
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import yarl  # noqa: E402

from bot.discord.client import make_bot  # noqa: E402
from tests.crashkit import PrintingStore, serve_until_sigterm  # noqa: E402

SHARED = {"shared": True, "claim_lease": 2.0, "claim_poll": 0.05, "announce_lease": 4.0,
          "grace": 0.0}
"""Short leases: a killed process's deadlines and announcements are taken over within
seconds (a real bot keeps the defaults)."""


async def main(api: str, gateway: str, database: str, shard: int, count: int) -> int:
    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    store = await PrintingStore.open(database)
    bot = make_bot(store=store, shard_count=count, shard_ids=(shard,), computer_pause=0.2,
                   table_interval=0.05, sync_commands=shard == 0, picture_processes=0,
                   service_options=SHARED)
    await serve_until_sigterm(bot, store)
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    api, gateway, database, shard, count = sys.argv[1:]
    raise SystemExit(asyncio.run(main(api, gateway, database, int(shard), int(count))))
