"""The process the SIGKILL test kills: the real bot (its discord.py client, notifier and
outbox, the table service, a real database file) pointed at the test's fake Discord. It
plays a match of four computer players to its end, then shuts down cleanly and says
"DONE". Each action is printed only after its commit returned ("C hand_id seq payload"),
so whatever it printed must survive a kill.

    python tests/e2e/crash_bot.py API_URL GATEWAY_URL DB_PATH GUILD CHANNEL HOST HANDS
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import yarl  # noqa: E402

from bot.discord.client import MahjongBot  # noqa: E402
from bot.service import Cause, TableService  # noqa: E402
from bot.store import Store  # noqa: E402
from tests.crashkit import PrintingStore  # noqa: E402


async def seat_computers(service: TableService, store: Store, guild: int, channel: int,
                         host: int, hands: int) -> int:
    """The channel's table, created and started if a kill came before that was done."""
    tables = await store.lobby.tables_in_channel(channel)
    if tables:
        table = tables[0].id
    else:
        info = await service.create_table(Cause(host, "host"), guild_id=guild, channel_id=channel,
                                          rules="shanghai", options={"hands": hands}, sit=False)
        table = info.ref.table_id
    info = await service.table_info(table)
    if info.status == "lobby":
        for seat in info.empty_seats:
            await service.add_computer(Cause(host), table, seat)
        await service.start(Cause(host), table)
    return table


async def main(api: str, gateway: str, db: str, guild: int, channel: int, host: int,
               hands: int) -> int:
    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    store = await PrintingStore.open(db)
    # no grace after a restart: only computers play here (the restart helper's part of
    # issue 9 makes computers skip it anyway)
    # MAHJONG_TEST_IDLE_AFTER (test_bot_sigkill_idle.py): the table leaves memory
    # between the computers' moves (paused MAHJONG_TEST_COMPUTER_PAUSE) and each deadline
    # loads it again, so the kills land while it loads or unloads too
    idle = os.environ.get("MAHJONG_TEST_IDLE_AFTER")
    bot = MahjongBot(store=store,
                     computer_pause=float(os.environ.get("MAHJONG_TEST_COMPUTER_PAUSE", "0")),
                     table_interval=0.05, sync_commands=False, picture_processes=0,
                     service_options={"grace": 0.0,
                                      **({"idle_after": float(idle)} if idle else {})})
    bot._connection.guild_ready_timeout = 0.05
    await bot.login("fake-token")
    connection = asyncio.create_task(bot.connect(reconnect=False))
    await bot.wait_until_ready()
    print("READY", flush=True)
    table = await seat_computers(bot.service, store, guild, channel, host, hands)
    while (row := await store.lobby.get_table(table)) is not None and row.status == "playing":
        await asyncio.sleep(0.02)
    print(f"UNLOADED {bot.service.tables.unloaded} {bot.notifier.left}", flush=True)
    await bot.close()  # delivers what is queued
    connection.cancel()
    await store.close()
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    api, gateway, db, *numbers = sys.argv[1:]
    raise SystemExit(asyncio.run(main(api, gateway, db, *map(int, numbers))))
