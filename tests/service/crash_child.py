"""The process the crash test kills: a match of four computer players through the real
service and a real database file, on a fast clock. It prints each action only after its
commit returned ("C hand_id seq payload"), so whatever it printed must survive a kill.

    python tests/service/crash_child.py DB_PATH HANDS
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bot.service import Cause, NullNotifier, SystemClock, TableService  # noqa: E402
from tests.crashkit import PrintingStore  # noqa: E402


async def main(db: str, hands: int) -> int:
    store = await PrintingStore.open(db)
    service = TableService(store, NullNotifier(), clock=SystemClock(), computer_pause=0.0,
                           grace=0.0)
    await service.recover()
    host = Cause(1, "Host")
    tables = await store.lobby.tables_in_channel(1)
    if tables:
        table_id = tables[0].id
    else:
        info = await service.create_table(host, guild_id=1, channel_id=1, rules="hangzhou",
                                          options={"hands": hands}, sit=False)
        table_id = info.ref.table_id
    # A kill may have come during the setup: finish it (seat the computers, start).
    info = await service.table_info(table_id)
    if info.status == "lobby":
        for _ in info.empty_seats:
            await service.add_computer(host, table_id)
        await service.start(host, table_id)
    runner = asyncio.create_task(service.run())
    while (row := await store.lobby.get_table(table_id)) is not None and row.status == "playing":
        await asyncio.sleep(0.02)
    # as the bot shuts down: the firing that ended the match finishes its announcements
    # before the database closes
    service.stop()
    await service.drain()
    runner.cancel()
    print("DONE", flush=True)
    await store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1], int(sys.argv[2]))))
