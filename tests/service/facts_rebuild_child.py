"""The process the facts rebuild test kills: a rebuild of the projection on a database
file, one hand a batch with a pause between batches, so a SIGKILL lands midway.

    python tests/service/facts_rebuild_child.py DB_PATH
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bot.service.facts import rebuild_facts  # noqa: E402
from bot.store import Store  # noqa: E402


async def main(db: str) -> int:
    store = await Store.open(db)
    print("GO", flush=True)
    await rebuild_facts(store, time.time, size=1, hold=1.0, pause=0.25)
    print("DONE", flush=True)
    await store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1])))
