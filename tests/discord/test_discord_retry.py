"""The gate every call to Discord goes through (bot/discord/delivery/retry.py): passing
failures waited out with one probe at a time, refusals raised at once, superseded
deliveries dropped, hung calls cut and tried again."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
import pytest

from bot import metrics
from bot.discord.delivery import retry
from bot.discord.delivery.retry import Gate, Superseded, nonce_of, passing


class Response:
    def __init__(self, status: int, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.reason = "fake"
        self.headers = headers or {}


def http_error(status: int, code: int = 0, headers: dict[str, str] | None = None
               ) -> discord.HTTPException:
    kind: Any = {403: discord.Forbidden, 404: discord.NotFound}.get(
        status, discord.DiscordServerError if status >= 500 else discord.HTTPException)
    error: discord.HTTPException = kind(Response(status, headers),
                                        {"code": code, "message": "fake"})
    return error


class Discord:
    """Fails every call until ``up`` (each failure as ``failure()`` makes it), then answers
    with the call's number."""

    def __init__(self, failure: Any) -> None:
        self.failure = failure
        self.up = False
        self.calls = 0

    async def call(self) -> int:
        self.calls += 1
        number = self.calls
        await asyncio.sleep(0)
        if not self.up:
            raise self.failure()
        return number


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(retry, "BACKOFF_FIRST", 0.01)
    monkeypatch.setattr(retry, "BACKOFF_CAP", 0.05)
    monkeypatch.setattr(retry, "WAIT_CHECK", 0.02)
    monkeypatch.setattr(retry, "PROBE_TIMEOUT", 0.1)
    monkeypatch.setattr(retry, "CALL_TIMEOUT", 0.2)


def test_passing_failures_and_refusals() -> None:
    for status in (500, 502, 503, 504, 520):
        assert passing(http_error(status)) == 0.0
    assert passing(http_error(429, headers={"Retry-After": "2.5"})) == 2.5
    for exc in (TimeoutError(), aiohttp.ServerDisconnectedError(),
                ConnectionResetError(104, "reset"), aiohttp.ClientOSError()):
        assert passing(exc) == 0.0, exc
    for status in (400, 401, 403, 404):
        assert passing(http_error(status)) is None
    assert passing(ValueError("a bug")) is None


async def test_an_outage_is_waited_out_with_one_probe_at_a_time() -> None:
    gate = Gate()
    discord_ = Discord(lambda: http_error(503))
    calls = [asyncio.create_task(gate.call(discord_.call)) for _ in range(20)]
    await asyncio.sleep(0.5)
    assert not gate.is_open and not any(c.done() for c in calls)
    # 20 calls over half a second of outage: the first tries of each, then one probe a
    # backoff (at most a twentieth of a second here), not twenty
    assert discord_.calls < 20 + 0.5 / 0.01
    tried = discord_.calls
    await asyncio.sleep(0.2)
    assert discord_.calls - tried <= 0.2 / 0.05 + 2
    discord_.up = True
    results = await asyncio.wait_for(asyncio.gather(*calls), 1.0)
    assert gate.is_open and len(set(results)) == 20


async def test_a_refusal_is_raised_at_once_and_never_tried_again() -> None:
    gate = Gate()
    for status in (401, 403, 404):
        discord_ = Discord(lambda s=status: http_error(s, 50007))
        with pytest.raises(discord.HTTPException):
            await gate.call(discord_.call)
        assert discord_.calls == 1
    assert gate.is_open and gate.failures == 0


async def test_a_superseded_call_is_dropped_while_it_waits() -> None:
    gate = Gate()
    discord_ = Discord(lambda: http_error(502))
    newest = {"n": 1}
    old = asyncio.create_task(gate.call(discord_.call, wanted=lambda: newest["n"] == 1))
    await asyncio.sleep(0.1)
    newest["n"] = 2
    with pytest.raises(Superseded):
        await asyncio.wait_for(old, 1.0)


def _hanging_once(tries: list[int]) -> Callable[[], Awaitable[str]]:
    """A call that hangs the first time it is tried (counted in ``tries``) and is
    answered the next."""
    async def hangs_once() -> str:
        tries.append(1)
        if len(tries) == 1:
            await asyncio.sleep(60)
        return "answered"

    return hangs_once


async def test_a_hung_call_is_cut_and_tried_again() -> None:
    gate = Gate()
    tries: list[int] = []
    hangs_once = _hanging_once(tries)

    assert await asyncio.wait_for(gate.call(hangs_once), 2.0) == "answered"
    assert len(tries) == 2 and gate.failures == 1


async def test_a_call_answered_in_time_runs_in_the_callers_task() -> None:
    """No task and no timer of its own per call (a click's cost on the event loop)."""
    gate = Gate()
    outer = asyncio.current_task()

    async def answered() -> bool:
        await asyncio.sleep(0)
        return asyncio.current_task() is outer

    assert await gate.call(answered)
    assert gate.failures == 0 and outer is not None and outer.cancelling() == 0


async def test_a_cut_call_leaves_its_task_uncancelled_and_an_outside_cancel_goes_through(
        ) -> None:
    gate = Gate()
    tries: list[int] = []
    hangs_once = _hanging_once(tries)

    async def caller() -> str:
        answer = await gate.call(hangs_once)
        task = asyncio.current_task()
        assert task is not None and task.cancelling() == 0
        await asyncio.sleep(0.05)  # not cancelled by the cut any more
        return answer

    assert await asyncio.wait_for(caller(), 2.0) == "answered"
    hung = asyncio.create_task(gate.call(lambda: asyncio.sleep(60)))
    await asyncio.sleep(0.05)
    hung.cancel()
    with pytest.raises(asyncio.CancelledError):
        await hung
    assert gate.failures == 1  # the first cut only: a cancel from outside is no failure


async def test_a_global_rate_limit_is_never_cut() -> None:
    """discord.py sleeps out a global 429 inside the call with every request locked:
    cut then, its lock would never open again."""
    over = {"set": False}
    gate = Gate(global_over=lambda: over["set"])

    async def limited() -> str:
        await asyncio.sleep(0.5)  # past CALL_TIMEOUT
        over["set"] = True
        return "answered"

    assert await asyncio.wait_for(gate.call(limited), 2.0) == "answered"
    assert gate.failures == 0


async def test_a_429_waits_its_retry_after() -> None:
    gate = Gate()
    discord_ = Discord(lambda: http_error(429, headers={"Retry-After": "0.3"}))
    call = asyncio.create_task(gate.call(discord_.call))
    await asyncio.sleep(0.25)
    assert discord_.calls == 1  # not again before its retry_after
    discord_.up = True
    assert await asyncio.wait_for(call, 1.0) == 2


def test_nonces_are_the_deliverys_own() -> None:
    a = nonce_of("dm", 1, 2, "text")
    assert a == nonce_of("dm", 1, 2, "text") and len(a) == 25
    assert a != nonce_of("dm", 1, 2, "other text")


async def test_failures_and_what_waits_are_counted_in_the_metrics() -> None:
    registry = metrics.enable()
    try:
        gate = Gate()
        discord_ = Discord(lambda: http_error(503))
        call = asyncio.create_task(gate.call(discord_.call))
        await asyncio.sleep(0.1)
        assert registry.get_sample_value("mahjong_deliveries_owed") == 1
        discord_.up = True
        await asyncio.wait_for(call, 1.0)
        assert registry.get_sample_value("mahjong_deliveries_owed") == 0
        with pytest.raises(discord.Forbidden):
            await gate.call(Discord(lambda: http_error(403, 50007)).call)
        for status in ("503", "403"):
            count = registry.get_sample_value("mahjong_discord_errors_total",
                                              {"status": status})
            assert count is not None and count >= 1, status
    finally:
        metrics.disable()


def test_a_restored_database_salts_every_nonce(monkeypatch: pytest.MonkeyPatch) -> None:
    """After `mahjong-bot restore` the same delivery gets another nonce: Discord must
    not hand back what the lost timeline sent (issue 34)."""
    from bot.discord.delivery import retry

    plain = retry.nonce_of("dm", 1, 2, "text")
    monkeypatch.setattr(retry, "nonce_salt", "1800000000.0")
    salted = retry.nonce_of("dm", 1, 2, "text")
    assert salted != plain and len(salted) == len(plain) == retry.NONCE_LENGTH
    assert retry.nonce_of("dm", 1, 2, "text") == salted  # still the same for a retry
