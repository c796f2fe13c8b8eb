"""A bot process the delivery tests kill (issue 33): the real bot on a database (a
SQLite file or a PostgreSQL URL; ``shared``: in shared mode, with short leases) pointed
at the test's fake Discord. It serves until SIGTERM (or a SIGKILL) and says "READY"
once connected.

    python tests/e2e/outage_bot.py API_URL GATEWAY_URL DATABASE SHARED(0|1)
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

from bot.discord.client import MahjongBot  # noqa: E402
from bot.store import Store  # noqa: E402
from tests.crashkit import serve_until_sigterm  # noqa: E402

SHARED = {"shared": True, "claim_lease": 2.0, "claim_poll": 0.05, "announce_lease": 4.0}
"""As tests/e2e/deliverykit.py's: a dead process's work is taken over within seconds."""


async def main(api: str, gateway: str, database: str, shared: bool) -> int:
    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    store = await Store.open(database)
    bot = MahjongBot(store=store, computer_pause=0.0, table_interval=0.05,
                     sync_commands=True, picture_processes=0,
                     service_options=dict(SHARED) if shared else {})
    await serve_until_sigterm(bot, store)
    return 0


if __name__ == "__main__":
    api, gateway, database, shared = sys.argv[1:]
    raise SystemExit(asyncio.run(main(api, gateway, database, shared == "1")))
