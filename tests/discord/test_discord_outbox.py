"""The presenter's delivery queues let the interactions being answered go first: a
click's answer never queues behind the DMs and pictures of the clicks before it, and a
stream of clicks never starves the deliveries. Only a few deliveries run at once, and
one waiting long on Discord does not hold the others up."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import partial

from bot.discord.core.answering import InFlight
from bot.discord.delivery.outbox import SLOT_HOLD, Outbox


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
        outbox.put("dm", partial(job, n))
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


async def test_only_a_few_deliveries_run_at_once_and_every_queue_keeps_its_order() -> None:
    outbox = Outbox(slots=3)
    running: list[str] = []
    most = 0
    done: list[tuple[str, int]] = []

    async def job(key: str, n: int) -> None:
        nonlocal most
        running.append(key)
        most = max(most, len(running))
        await asyncio.sleep(0.001)
        running.remove(key)
        done.append((key, n))

    for n in range(4):
        for key in "abcdefgh":
            outbox.put(key, partial(job, key, n))
    assert await outbox.drain(5)
    assert most == 3
    assert len(done) == 32
    for key in "abcdefgh":
        assert [n for k, n in done if k == key] == [0, 1, 2, 3]


async def test_a_delivery_waiting_on_discord_gives_its_slot_back() -> None:
    """A rate-limited send (seconds) must not stop every other queue."""
    outbox = Outbox(slots=1)
    slow = asyncio.Event()
    done: list[str] = []

    async def stuck() -> None:
        await slow.wait()
        done.append("slow")

    async def quick() -> None:
        done.append("quick")

    outbox.put("slow", stuck)
    await _turns()
    outbox.put("quick", quick)
    await asyncio.sleep(SLOT_HOLD / 2)
    assert done == []  # the one slot is still the slow job's
    await asyncio.sleep(SLOT_HOLD)
    assert done == ["quick"]
    slow.set()
    assert await outbox.drain(5)
    assert done == ["quick", "slow"]


async def test_a_job_put_while_its_queue_waits_for_a_slot_is_still_delivered_in_order() -> None:
    outbox = Outbox(slots=1)
    gate = asyncio.Event()
    done: list[int] = []

    async def first() -> None:
        await gate.wait()

    async def job(n: int) -> None:
        done.append(n)

    outbox.put("busy", first)
    await _turns()
    outbox.put("dm", lambda: job(1))
    await _turns()
    outbox.put("dm", lambda: job(2))
    gate.set()
    assert await outbox.drain(5)
    assert done == [1, 2]


async def test_deliveries_waiting_for_the_answers_hold_no_slot() -> None:
    """Waiting for the answers happens before a slot is taken: a few waiting jobs
    never keep every other queue from its slot."""
    in_flight = InFlight()
    outbox = Outbox(slots=2)
    outbox.yield_to = in_flight.answered
    done: list[str] = []

    async def job(key: str) -> None:
        done.append(key)

    in_flight.begin()
    for key in "abcd":
        outbox.put(key, partial(job, key))
    await _turns()
    assert done == [] and outbox.slots_taken() == 0
    in_flight.end()
    assert await outbox.drain(5)
    assert sorted(done) == list("abcd") and outbox.slots_taken() == 0


async def test_a_slot_given_back_early_is_not_given_back_twice() -> None:
    outbox = Outbox(slots=1)
    slow = asyncio.Event()

    async def stuck() -> None:
        await slow.wait()

    outbox.put("slow", stuck)
    await _turns()
    assert outbox.slots_taken() == 1
    await asyncio.sleep(SLOT_HOLD * 1.5)
    assert outbox.slots_taken() == 0  # waiting on Discord: given back
    slow.set()
    assert await outbox.drain(5)
    assert outbox.slots_taken() == 0
    gate = asyncio.Event()
    started: list[str] = []

    async def blocked(key: str) -> None:
        started.append(key)
        await gate.wait()

    outbox.put("x", lambda: blocked("x"))
    outbox.put("y", lambda: blocked("y"))
    await _turns()
    assert len(started) == 1 and outbox.slots_taken() == 1  # still one slot, not two
    gate.set()
    assert await outbox.drain(5)
    assert sorted(started) == ["x", "y"]


async def test_held_deliveries_go_at_the_release_in_their_order() -> None:
    """The bot holds them until its gateway told it its servers (bot/discord/client.py)."""
    outbox = Outbox()
    outbox.hold()
    done: list[str] = []

    def job(name: str) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            done.append(name)
        return run

    outbox.put("chan", job("picture"))
    outbox.put("dm", job("dm"))
    outbox.put("chan", job("mention"))
    await _turns()
    assert done == [] and outbox.busy()
    outbox.release()
    assert await outbox.drain(5)
    assert sorted(done) == ["dm", "mention", "picture"]
    assert done.index("picture") < done.index("mention")


async def test_closing_delivers_what_was_held() -> None:
    """A gateway that never came: Discord's REST may still take them."""
    outbox = Outbox()
    outbox.hold()
    done: list[str] = []

    async def job() -> None:
        done.append("dm")

    outbox.put("dm", job)
    await outbox.close(5)
    assert done == ["dm"]


async def test_the_workers_stay_for_the_next_jobs_and_go_at_the_close() -> None:
    """No task per job (about two a click were made and ended, bench/discord.py): a
    waiting worker serves the next job of any key."""
    outbox = Outbox(slots=2)
    tasks: set[asyncio.Task[object] | None] = set()
    done: list[int] = []

    async def job(n: int) -> None:
        tasks.add(asyncio.current_task())
        done.append(n)

    for n in range(10):
        outbox.put(f"key{n % 3}", partial(job, n))
        assert await outbox.drain(5)
    assert done == list(range(10)) and len(tasks) == 1
    await outbox.close(1)
    assert all(task is not None and task.done() for task in tasks)
    outbox.put("key0", partial(job, 10))  # closed: not taken
    await _turns()
    assert done == list(range(10)) and not outbox.busy()
