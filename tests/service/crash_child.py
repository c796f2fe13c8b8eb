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
    tables = await store.tables_in_channel(1)
    if not tables:
        host = Cause(1, "Host")
        info = await service.create_table(host, guild_id=1, channel_id=1, rules="hangzhou",
                                          options={"hands": hands}, sit=False)
        for _ in range(4):
            await service.add_computer(host, info.ref.table_id)
        await service.start(host, info.ref.table_id)
        table_id = info.ref.table_id
    else:
        table_id = tables[0].id
    runner = asyncio.create_task(service.run())
    while (await store.get_table(table_id)).status == "playing":  # type: ignore[union-attr]
        await asyncio.sleep(0.02)
    service.scheduler.stop()
    runner.cancel()
    print("DONE", flush=True)
    await store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1], int(sys.argv[2]))))
