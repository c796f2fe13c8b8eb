"""What the SIGKILL tests share: the store their child processes use, which prints each
action only after its commit returned ("C hand_id seq payload"; "E hand_id" when a hand
is finished), and the parent's reading of those lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.store import ActionRow, HandRow, NewAction, Store
from bot.store.database import Database
from bot.store.endings import Endings
from bot.store.log import ActionLog


class _PrintingLog(ActionLog):
    async def append(self, hand_id: int, expected_seq: int, *args: Any,
                     **kwargs: Any) -> ActionRow:
        row = await super().append(hand_id, expected_seq, *args, **kwargs)
        print(f"C {hand_id} {row.seq} {json.dumps(row.payload)}", flush=True)
        return row


class _PrintingEndings(Endings):
    async def finish_hand(self, hand_id: int, final: NewAction | None, **kwargs: Any
                          ) -> HandRow:
        row = await super().finish_hand(hand_id, final, **kwargs)
        if final is not None:
            print(f"C {hand_id} {final.expected_seq} {json.dumps(final.payload)}", flush=True)
        print(f"E {hand_id}", flush=True)
        return row

    async def finish_and_deal(self, hand_id: int, final: NewAction | None, **kwargs: Any
                              ) -> tuple[HandRow, HandRow]:
        rows = await super().finish_and_deal(hand_id, final, **kwargs)
        if final is not None:
            print(f"C {hand_id} {final.expected_seq} {json.dumps(final.payload)}", flush=True)
        print(f"E {hand_id}", flush=True)
        return rows


class PrintingStore(Store):
    def __init__(self, db: Database, path: Path | str) -> None:
        super().__init__(db, path)
        self.log = _PrintingLog(db)
        self.endings = _PrintingEndings(db, self.log)


def record_commits(lines: list[str], committed: dict[tuple[int, int], str], seed: int
                   ) -> None:
    """Add a child's printed commits to ``committed``: none may have been made twice."""
    for line in lines:
        if line.startswith("C "):
            _, hand, seq, payload = line.split(" ", 3)
            key = (int(hand), int(seq))
            assert key not in committed, f"action {key} committed twice (seed {seed})"
            committed[key] = payload


async def serve_until_sigterm(bot: Any, store: Store) -> None:
    """A child bot's life: logged in at the fake Discord, ``READY`` printed, serving until
    SIGTERM, then closed (its queued deliveries sent) and its store closed."""
    import asyncio
    import signal

    bot._connection.guild_ready_timeout = 0.05
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await bot.login("fake-token")
    connection = asyncio.create_task(bot.connect(reconnect=False))
    await bot.wait_until_ready()
    print("READY", flush=True)
    await stop.wait()
    await bot.close()  # delivers what is queued
    connection.cancel()
    await store.close()
