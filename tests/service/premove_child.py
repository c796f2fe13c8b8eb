"""The process the pre-move SIGKILL test kills: a table of four people on a real
database file, the dealer to discard, and Bob's next discard chosen in advance. It
prints "SET" once that choice's write returned, then waits to be killed.

    python tests/service/premove_child.py DB_PATH
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bot.service import Cause, NullNotifier, SystemClock, TableService, fairness  # noqa: E402
from bot.service.fairness import deal_of  # noqa: E402
from bot.store import Store  # noqa: E402
from engine.game import stack_wall  # noqa: E402
from engine.tiles import tile_from_notation  # noqa: E402
from tests.service.helpers import QUIET  # noqa: E402

HANDS = {0: QUIET[0] + "9m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
"""The dealer discards 9m, which nobody may claim; Bob then draws 9s."""


def deal(rules: str, dealer: int) -> fairness.Deal:
    return deal_of(stack_wall(rules, HANDS, dealer, draws="9s"))


async def main(db: str) -> int:
    fairness.first_dealer = lambda: 0  # seat 0 deals the stacked wall
    store = await Store.open(db)
    service = TableService(store, NullNotifier(), clock=SystemClock(), computer_pause=0.0,
                           deal=deal)
    people = [Cause(user, name) for user, name in ((1, "Ann"), (2, "Bob"), (3, "Cid"),
                                                   (4, "Dee"))]
    info = await service.create_table(people[0], guild_id=1, channel_id=1, rules="shanghai",
                                      options={"turn_timer": 3600, "claim_timer": 600})
    table = info.ref.table_id
    for person in people[1:]:
        await service.join(person, table)
    await service.start(people[0], table)
    await service.set_next_discard(people[1], table, tile_from_notation("1z"))
    print("SET", table, flush=True)
    await asyncio.sleep(3600)  # killed before
    return 1


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1])))
