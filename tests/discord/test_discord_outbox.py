"""The presenter's delivery queues let the interactions being answered go first: a
click's answer never queues behind the DMs and pictures of the clicks before it, and a
stream of clicks never starves the deliveries."""

from __future__ import annotations

import asyncio

from bot.discord.answering import InFlight
from bot.discord.outbox import Outbox


async def _turns(n: int = 20) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


async def test_deliveries_wait_while_an_interaction_is_being_answered() -> None:
    in_flight = InFlight()
    outbox = Outbox()
    outbox.yield_to = in_flight.answered
    done: list[str] = []

    async def job() -> None:
        done.append("dm")

    in_flight.begin()  # a click arrived
    outbox.put("dm", job)
    await _turns()
    assert done == []
    in_flight.end()  # answered
    assert await outbox.drain(5)
    assert done == ["dm"]


async def test_deliveries_go_on_under_a_stream_of_interactions() -> None:
    in_flight = InFlight()
    outbox = Outbox()
    outbox.yield_to = in_flight.answered
    done: list[int] = []

    async def job(n: int) -> None:
        done.append(n)

    in_flight.begin()  # never answered: the jobs still run, in order
    for n in range(3):
        outbox.put("dm", lambda n=n: job(n))
    assert await outbox.drain(5)
    assert done == [0, 1, 2]


async def test_interactions_are_counted_until_the_last_is_answered() -> None:
    in_flight = InFlight()
    in_flight.begin()
    in_flight.begin()
    in_flight.end()
    assert not in_flight.answered.is_set()
    in_flight.end()
    assert in_flight.answered.is_set()
