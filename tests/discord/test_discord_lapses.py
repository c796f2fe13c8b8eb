"""Deadlines sharing one timer (bot/discord/delivery/lapses.py): the outbox's slot holds
and waits for the answers, the gate's call timeouts."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bot.discord.delivery.lapses import Lapses


async def test_deadlines_lapse_in_order_unless_dropped() -> None:
    lapses = Lapses()
    lapsed: list[str] = []
    lapses.add(0.03, lambda: lapsed.append("late"))
    met = lapses.add(0.01, lambda: lapsed.append("met"))
    lapses.add(0.02, lambda: lapsed.append("early"))
    assert lapses.drop(met)
    assert not lapses.drop(met)  # dropped once only
    await asyncio.sleep(0.1)
    assert lapsed == ["early", "late"] and len(lapses) == 0
    lapses.add(0.01, lambda: lapsed.append("again"))  # armed again after going idle
    await asyncio.sleep(0.05)
    assert lapsed[-1] == "again"


async def test_one_timer_serves_many_deadlines() -> None:
    loop: Any = asyncio.get_running_loop()
    lapses = Lapses()
    armed = []
    call_at: Callable[..., asyncio.TimerHandle] = loop.call_at

    def counting(when: float, callback: object, *args: object) -> asyncio.TimerHandle:
        armed.append(when)
        return call_at(when, callback, *args)

    loop.call_at = counting
    try:
        for _ in range(100):
            lapses.drop(lapses.add(0.5, lambda: None))
    finally:
        del loop.call_at
    assert len(armed) == 1


async def test_a_cut_raises_timeout_and_leaves_the_task_uncancelled() -> None:
    lapses = Lapses()
    with pytest.raises(TimeoutError), lapses.cut(0.01):
        await asyncio.sleep(5)
    task = asyncio.current_task()
    assert task is not None and task.cancelling() == 0
    with lapses.cut(0.01) as cut:
        await asyncio.sleep(0)
    assert not cut.expired
    await asyncio.sleep(0.03)  # its deadline was dropped: no cancel comes


async def test_a_cut_waits_on_while_told_not_to_cut() -> None:
    lapses = Lapses()
    locked = {"now": True}

    async def unlock() -> None:
        await asyncio.sleep(0.05)
        locked["now"] = False

    unlocking = asyncio.create_task(unlock())
    started = asyncio.get_running_loop().time()
    with pytest.raises(TimeoutError), lapses.cut(0.01, unless=lambda: locked["now"]):
        await asyncio.sleep(5)
    assert asyncio.get_running_loop().time() - started >= 0.05
    await unlocking


async def test_a_cancel_from_outside_is_not_taken_for_a_cut() -> None:
    lapses = Lapses()

    async def waits() -> None:
        with lapses.cut(5):
            await asyncio.sleep(5)

    task = asyncio.create_task(waits())
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert len(lapses) == 0
