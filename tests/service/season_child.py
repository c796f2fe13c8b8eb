"""The processes of the seasons' and recaps' two-process tests: a shared-mode service on
the test's PostgreSQL database (or SQLite file) and a fake clock set by the test, which
waits until the wall clock reaches ``START`` (so two children act at the same moment),
then closes the server's season 1 (``close``), or decides the week due (``recap``), or
decides it and is killed while its announcement is being handed over (``recap-hang``:
it prints ``HANDED`` and waits for SIGKILL). It prints what it did.

    python tests/service/season_child.py TARGET close|recap|recap-hang NOW START
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bot.service import (  # noqa: E402
    Cause,
    FakeClock,
    NullNotifier,
    Place,
    RecapNotice,
    Refused,
    TableService,
)
from bot.service.notices import Notice  # noqa: E402
from bot.store import Store  # noqa: E402

GUILD, CHANNEL, MANAGER = 7, 70, 2


class Hanging(NullNotifier):
    """Hands a recap to nobody: says so, then hangs (the test kills it there)."""

    async def publish(self, notice: Notice) -> None:
        if isinstance(notice, RecapNotice):
            if notice.receipt is not None:
                await notice.receipt.sending()
            print("HANDED", flush=True)
            await asyncio.sleep(3600)
        await super().publish(notice)


async def main(target: str, what: str, now: float, start: float) -> int:
    store = await Store.open(target)
    notifier = Hanging() if what == "recap-hang" else NullNotifier()
    service = TableService(store, notifier, clock=FakeClock(now), computer_pause=0.0,
                           shared=target.startswith("postgres"))
    await asyncio.sleep(max(0.0, start - time.time()))
    if what == "close":
        manager = Cause(MANAGER, "Bob", is_manager=True, place=Place(GUILD, CHANNEL))
        try:
            done = await service.close_season(manager, 1)
            print(f"CLOSED {done.archived}", flush=True)
        except Refused as refused:
            print(f"REFUSED {refused.code}", flush=True)
    else:
        print(f"POSTED {await service.recaps.run_due()}", flush=True)
    await store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3]),
                                      float(sys.argv[4]))))
