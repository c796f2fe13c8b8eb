"""One of the two processes the shared-mode kill test runs (test_service_shared_kills.py):
the real table service in shared mode (short leases) on the test's database, serving
every table with the other process, and opening and starting tables of its own.

Its own tables are in the channels ``SLOT * 1000000 + 1``, ``+ 2``, …: it keeps
`AT_ONCE` of them playing, opening the next as one ends, each of four computer players
and ``HANDS`` hands, until the file ``CLOSING`` exists; a table a kill left in the lobby
is seated and started again. It prints "OWNER <name>" (its name on its claims) and
"READY" once it serves, each action only after its commit ("C hand_id seq payload",
tests/crashkit.py), "ERROR …" for anything a command of its raised, and "DONE" after a
clean shutdown (SIGTERM).

    python tests/service/shared_child.py DATABASE SLOT HANDS CLOSING
"""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bot.service import Cause, RecordingNotifier, SystemClock, TableService  # noqa: E402
from bot.service.process import SharedProcess  # noqa: E402
from bot.store import Store  # noqa: E402
from tests.crashkit import PrintingStore  # noqa: E402

AT_ONCE = 3
"""A process's own tables playing at one time (the other's play meanwhile too)."""
LEASE = 1.0
"""Claim lease (s): a killed process's deadlines go to the other one after this."""


def channel_of(slot: int, number: int) -> int:
    return slot * 1_000_000 + number


async def open_tables(service: TableService, store: Store, slot: int, hands: int,
                      closing: Path) -> None:
    """Forever: keep `AT_ONCE` of this process's tables playing (until ``closing``)."""
    first = [1]
    while True:
        try:
            await open_more(service, store, slot, hands, closing, first)
        except Exception as exc:  # what reached a person: the test fails on it
            print(f"ERROR {exc!r}", flush=True)
        await asyncio.sleep(0.05)


async def open_more(service: TableService, store: Store, slot: int, hands: int,
                    closing: Path, first: list[int]) -> None:
    """One round: the lobbies a kill left seated and started, one more table opened.
    ``first``: the first channel whose table may not be over yet."""
    host = Cause(slot + 1, f"Host {slot}")
    playing = 0
    number = first[0]
    while rows := await store.lobby.tables_in_channel(channel_of(slot, number)):
        row = rows[-1]
        if row.status == "lobby":            # a kill came during its setup: finish it
            info = await service.table_info(row.id)
            for _ in info.empty_seats:
                await service.add_computer(host, row.id)
            await service.start(host, row.id)
        if row.is_live:
            playing += 1
        elif number == first[0]:
            first[0] += 1
        number += 1
    if playing < AT_ONCE and not closing.exists():
        await service.create_table(host, guild_id=1, channel_id=channel_of(slot, number),
                                   rules="shanghai", options={"hands": hands}, sit=False)


async def main(database: str, slot: int, hands: int, closing: Path) -> int:
    store = await PrintingStore.open(database)
    service = TableService(store, RecordingNotifier(), clock=SystemClock(), shared=True,
                           claim_lease=LEASE, claim_poll=0.05, announce_lease=2.0,
                           grace=0.0, computer_pause=0.02)
    assert isinstance(service.process, SharedProcess)
    print(f"OWNER {service.process.owner}", flush=True)
    await service.recover()
    await service.resend_dms()
    runner = asyncio.create_task(service.run())
    opener = asyncio.create_task(open_tables(service, store, slot, hands, closing))
    print("READY", flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    opener.cancel()
    service.stop()
    await service.drain()
    runner.cancel()
    await store.close()
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    database, slot, hands, closing = sys.argv[1:]
    raise SystemExit(asyncio.run(main(database, int(slot), int(hands), Path(closing))))
