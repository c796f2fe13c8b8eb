"""The process the digests' kill test kills: a service on the test's database file and
a fake clock set by the test, which either looks at who is quiet (``owe``: the digest
owed is committed) or claims the digest due (``claim``: it holds it, unsent), prints
what it did once it is committed, and waits to be killed with SIGKILL.

    python tests/service/digest_child.py DB_PATH owe|claim NOW
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bot.service import FakeClock, NullNotifier, TableService  # noqa: E402
from bot.store import Store  # noqa: E402


async def main(db: str, what: str, now: float) -> int:
    store = await Store.open(db)
    service = TableService(store, NullNotifier(), clock=FakeClock(now), computer_pause=0.0)
    if what == "owe":
        owed = await service.digests.sweep()
        print(f"OWED {owed}", flush=True)
    else:
        rows = await store.digests.claim(now, owner="doomed", until=now + 120.0)
        print(f"CLAIMED {len(rows)}", flush=True)
    await asyncio.sleep(3600)  # killed meanwhile
    return 1


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3]))))
