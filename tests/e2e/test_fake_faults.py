"""The fake Discord's failures (``fake.faults``, ``drop_gateway``, ``nonce``,
``duplicates``), each seen by a real discord.py client as Discord's own would be.

A bare ``discord.Client`` makes the calls (a DM, a channel message): what discord.py
retries (500, 502, 504 after 1 s, 3 s…; 429 after ``retry_after``) and what it raises
at once (503, a reset, a timeout) is what the bot's delivery code has to live with.
"""

from __future__ import annotations

import asyncio
import io
import re
import time
import types
from collections.abc import Callable, Coroutine
from typing import Any

import aiohttp
import discord
import pytest
from fakediscord import BotLauncher, FakeDiscord, FakeGuild, FakeUser
from fakediscord.faults import HANG_SECONDS, KINDS, Faults

DMS = "POST /channels/\\d+/messages"


@pytest.fixture
def world(fake: FakeDiscord) -> tuple[FakeGuild, FakeUser]:
    """A guild with #general and alice."""
    alice = fake.add_user(101, "alice")
    guild = fake.add_guild(900, "Mahjong Club", owner=alice, members=[alice])
    return guild, alice


async def client(bots: BotLauncher) -> discord.Client:
    """A connected plain client."""
    bot = discord.Client(intents=discord.Intents.default())
    await bots.start(bot)
    return bot


async def dm_channel(bot: discord.Client, user: FakeUser) -> discord.DMChannel:
    """The bot's DM channel with ``user`` (opened before any fault)."""
    return await (await bot.fetch_user(user.id)).create_dm()


def posts(fake: FakeDiscord) -> int:
    """How many message creations the bot attempted."""
    return len(fake.requests("POST", "/messages"))


# -- 5xx -------------------------------------------------------------------------


@pytest.mark.parametrize("status", [500, 502, 504])
async def test_discord_py_retries_500_502_504_until_discord_is_back(
        fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser],
        status: int) -> None:
    _, alice = world
    bot = await client(bots)
    channel = await dm_channel(bot, alice)
    fake.faults.outage(status, seconds=0.5)
    sent = await channel.send("your turn")  # fails, sleeps 1 s, tries again: back
    assert [m.content for m in fake.dms(alice)] == ["your turn"] and sent.content == "your turn"
    assert [r.status for r in fake.requests("POST", "/messages")] == [status, 200]
    assert [f.kind for f in fake.faults.injected] == [str(status)]
    assert fake.faults.injected[0].route == f"POST /channels/{channel.id}/messages"
    assert not fake.faults.in_outage and fake.faults.returned_at is not None


class _Sleeps(types.ModuleType):
    """``asyncio`` as discord.http sees it, its sleeps recorded and made short."""

    def __init__(self) -> None:
        super().__init__("asyncio")
        self.slept: list[float] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        await asyncio.sleep(0)


async def test_discord_py_gives_up_on_a_502_after_five_tries(
        fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _, alice = world
    bot = await client(bots)
    channel = await dm_channel(bot, alice)
    sleeps = _Sleeps()
    monkeypatch.setattr(discord.http, "asyncio", sleeps)
    fake.faults.outage(502)
    with pytest.raises(discord.DiscordServerError):
        await channel.send("your turn")
    assert posts(fake) == 5 and [s for s in sleeps.slept if s] == [1, 3, 5, 7, 9]  # 25 s


async def test_discord_py_never_retries_503(
        fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser]) -> None:
    _, alice = world
    bot = await client(bots)
    channel = await dm_channel(bot, alice)
    fake.faults.outage(503)
    with pytest.raises(discord.DiscordServerError) as raised:
        await channel.send("your turn")
    assert raised.value.status == 503 and posts(fake) == 1 and fake.dms(alice) == []
    assert fake.failures() == fake.requests("POST", "/messages")
    fake.faults.restore()
    await channel.send("your turn")
    assert [m.content for m in fake.dms(alice)] == ["your turn"]


async def test_an_outage_spares_interactions_and_ends_by_itself(fake: FakeDiscord) -> None:
    faults = fake.faults
    faults.outage(502, seconds=0.2)
    began = time.time()
    assert faults.pick("POST /channels/1/messages").kind == "502"
    assert faults.pick("POST /users/@me/channels").kind == "502"
    assert faults.pick("POST /interactions/5/tok-en/callback").kind is None
    assert faults.pick("PATCH /webhooks/7/tok-en/messages/@original").kind is None
    assert faults.pick("POST /webhooks/7/tok-en").kind is None
    await asyncio.sleep(0.25)
    assert faults.pick("POST /channels/1/messages").kind is None and not faults.in_outage
    assert faults.returned_at is not None and 0.15 < faults.returned_at - began < 0.25

    faults.outage("timeout", routes=DMS, interactions=True)
    assert faults.pick("POST /channels/1/messages").kind == "timeout"
    assert faults.pick("PATCH /channels/1/messages/2").kind is None
    faults.outage(503, routes=lambda route: route.startswith("PATCH"))
    assert faults.pick("PATCH /channels/1/messages/2").kind == "503"
    assert faults.pick("POST /channels/1/messages").kind is None
    faults.restore()
    assert faults.pick("PATCH /channels/1/messages/2").kind is None
    with pytest.raises(ValueError, match="not a fault"):
        faults.outage(404)


async def test_interactions_are_answered_during_an_outage(
        fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser]) -> None:
    guild, alice = world
    bot = discord.Client(intents=discord.Intents.default())
    tree = discord.app_commands.CommandTree(bot)
    failed: list[int] = []

    @tree.command(name="ping", description="Ping")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        try:
            await interaction.user.send("by DM")
        except discord.DiscordServerError as exc:
            failed.append(exc.status)
        await interaction.followup.send("pong")

    await bots.start(bot)
    await tree.sync()
    fake.faults.outage(503)
    handle = await fake.slash(alice, guild, fake.channel(guild, "general"), "ping")
    assert (await handle.response()).type == 5
    [followup] = await handle.wait_followups()
    assert followup.content == "pong" and failed == [503] and fake.dms(alice) == []


# -- random ----------------------------------------------------------------------


def test_random_faults_fail_a_share_of_calls_the_same_way_every_run(fake: FakeDiscord) -> None:
    def run(seed: int) -> list[str | None]:
        faults = Faults(fake.state)
        faults.random(0.2, seed=seed, routes=re.compile(r"^POST /channels"))
        return [faults.pick("POST /channels/1/messages").kind for _ in range(2000)]

    kinds = run(0)
    failed = [k for k in kinds if k is not None]
    assert 0.17 < len(failed) / len(kinds) < 0.23
    assert set(failed) == set(KINDS)
    assert run(0) == kinds and run(1) != kinds
    faults = Faults(fake.state)
    faults.random(1.0, kinds=(502,))
    assert faults.pick("GET /channels/1").kind == "502"
    assert faults.pick("POST /interactions/5/tok/callback").kind is None
    with pytest.raises(ValueError):
        faults.random(1.5)


async def test_random_faults_reach_discord_py(
        fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser]) -> None:
    _, alice = world
    bot = await client(bots)
    channel = await dm_channel(bot, alice)
    fake.faults.random(0.5, kinds=("503", "429"), seed=3, routes=DMS)
    outcomes = []
    for n in range(8):
        try:
            await channel.send(f"message {n}")
            outcomes.append("sent")
        except discord.DiscordServerError:
            outcomes.append("503")
    served = [f.kind for f in fake.faults.injected]
    assert outcomes.count("503") == served.count("503") > 0 and served.count("429") > 0
    assert len(fake.dms(alice)) == outcomes.count("sent")  # a 429 was waited out, then sent


# -- 429 -------------------------------------------------------------------------


async def test_a_bucket_rate_limit_is_waited_out_with_its_retry_after(
        fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser]) -> None:
    _, alice = world
    bot = await client(bots)
    channel = await dm_channel(bot, alice)
    fake.faults.rate_limit(DMS, count=2, retry_after=0.3)
    began = time.monotonic()
    await channel.send("your turn")
    assert time.monotonic() - began >= 0.6
    calls = fake.requests("POST", "/messages")
    assert [r.status for r in calls] == [429, 429, 200] and len(fake.dms(alice)) == 1
    assert [f.kind for f in fake.faults.injected] == ["429", "429"]


async def test_a_429_carries_discords_headers_and_body(fake: FakeDiscord) -> None:
    fake.faults.rate_limit("GET /users/", count=1, retry_after=1.5)
    fake.faults.rate_limit("GET /users/", count=1, retry_after=0.25, global_=True)
    async with aiohttp.ClientSession() as session:
        async with session.get(fake.api_url + "/users/101") as bucket:
            assert bucket.status == 429
            assert await bucket.json() == {"message": "You are being rate limited.",
                                           "retry_after": 1.5, "global": False, "code": 0}
            headers = bucket.headers
            assert headers["Retry-After"] == "2" and headers["Via"]
            assert headers["X-RateLimit-Remaining"] == "0"
            assert headers["X-RateLimit-Reset-After"] == "1.500"
            assert headers["X-RateLimit-Bucket"] and headers["X-RateLimit-Scope"] == "user"
        async with session.get(fake.api_url + "/users/101") as global_:
            assert (await global_.json())["global"] is True
            assert global_.headers["X-RateLimit-Global"] == "true"
            assert global_.headers["X-RateLimit-Scope"] == "global"
            assert "X-RateLimit-Bucket" not in global_.headers
        async with session.get(fake.api_url + "/users/101") as after:
            assert after.status == 404  # limits used up; no such user


async def test_a_global_rate_limit_holds_every_route(
        fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser]) -> None:
    guild, alice = world
    bot = await client(bots)
    channel = await dm_channel(bot, alice)
    fake.faults.rate_limit(DMS, count=1, retry_after=0.5, global_=True)
    began = time.monotonic()
    sending = asyncio.create_task(channel.send("your turn"))
    await fake.wait_for(lambda: fake.faults.injected)
    await bot.fetch_channel(fake.channel(guild, "general").id)  # another route: held too
    assert time.monotonic() - began >= 0.45
    await sending
    assert len(fake.dms(alice)) == 1


# -- timeouts, resets, lost answers ------------------------------------------------


def test_a_timeout_hangs_past_discord_pys_only_timeout() -> None:
    total = aiohttp.client.DEFAULT_TIMEOUT.total  # discord.py's session sets none of its own
    assert total is not None and total < HANG_SECONDS


async def test_a_timeout_reaches_discord_py_as_a_timeout_not_retried(
        fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser]) -> None:
    _, alice = world
    bot = await client(bots)
    channel = await dm_channel(bot, alice)
    session = bot.http._HTTPClient__session  # type: ignore[attr-defined]  # discord.py's own session (private), to give it a short timeout
    session._timeout = aiohttp.ClientTimeout(total=0.3)  # the bot's own, shorter timeout
    fake.faults.hang_seconds = 0.6
    fake.faults.outage("timeout")
    with pytest.raises(TimeoutError):
        await channel.send("your turn")
    assert posts(fake) == 1 and fake.dms(alice) == []
    await fake.wait_for(lambda: fake.state.in_flight == 0)  # the hang ends, cut
    [call] = fake.requests("POST", "/messages")
    assert call.fault == "timeout" and call.status == 0 and fake.failures() == [call]


async def test_restore_cuts_the_requests_still_hanging(
        fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser]) -> None:
    _, alice = world
    bot = await client(bots)
    channel = await dm_channel(bot, alice)
    fake.faults.outage("timeout")  # the default hang: longer than any test
    sending = asyncio.create_task(channel.send("your turn"))
    await fake.wait_for(lambda: fake.faults.injected)
    fake.faults.restore(cut=False)  # as a real incident: what hangs hangs on
    await asyncio.sleep(0.3)
    assert not sending.done() and fake.state.in_flight == 1
    began = time.monotonic()
    fake.faults.restore()
    with pytest.raises((aiohttp.ClientError, OSError)):
        await sending
    assert time.monotonic() - began < 2 and fake.dms(alice) == []
    await fake.wait_for(lambda: fake.state.in_flight == 0)


async def test_a_reset_reaches_discord_py_as_a_connection_error(
        fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser]) -> None:
    _, alice = world
    bot = await client(bots)
    channel = await dm_channel(bot, alice)
    fake.faults.outage("reset", routes=DMS)
    with pytest.raises((aiohttp.ClientError, OSError)):
        await channel.send("your turn")
    assert fake.dms(alice) == [] and [f.kind for f in fake.faults.injected] == ["reset"]
    fake.faults.restore()
    await channel.send("your turn")  # a fresh connection works
    assert len(fake.dms(alice)) == 1


async def test_a_lost_answer_with_the_same_nonce_makes_no_second_message(
        fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser]) -> None:
    _, alice = world
    bot = await client(bots)
    channel = await dm_channel(bot, alice)
    fake.faults.outage("lost", routes=DMS)
    with pytest.raises((aiohttp.ClientError, OSError)):
        await channel.send("your turn", nonce="hand-1-turn-4")
    [made] = fake.dms(alice)  # Discord made it; the bot cannot know
    assert made.nonce == "hand-1-turn-4"
    fake.faults.restore()
    again = await channel.send("your turn", nonce="hand-1-turn-4")
    assert again.id == made.id and fake.dms(alice) == [made] and fake.duplicates() == []
    await channel.send("your turn")  # a retry with a new nonce (discord.py's default)
    assert fake.duplicates() == [fake.dms(alice)[1]]


# -- nonce -----------------------------------------------------------------------


async def test_enforce_nonce_gives_back_the_first_message(
        fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser]) -> None:
    guild, alice = world
    bot = await client(bots)
    channel = await dm_channel(bot, alice)
    first = await channel.send("your turn", nonce=77)
    assert (await channel.send("changed text", nonce=77)).id == first.id
    assert [m.content for m in fake.dms(alice)] == ["your turn"]
    assert first.nonce == "77"
    general = bot.get_partial_messageable(fake.channel(guild, "general").id)
    assert (await general.send("elsewhere", nonce=77)).id == first.id  # same author
    other = await channel.send("your turn", nonce=78)
    assert other.id != first.id and len(fake.dms(alice)) == 2
    # a nonce without enforce_nonce does not deduplicate
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    for _ in range(2):
        await bot.http.request(route, json={"content": "plain", "nonce": "79"})
    assert [m.content for m in fake.dms(alice)][-2:] == ["plain", "plain"]
    # the window passed: a new message
    fake.state.nonce_window = 0.0
    assert (await channel.send("your turn", nonce=77)).id != first.id


async def test_a_nonce_of_a_deleted_message_is_refused(
        fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser]) -> None:
    _, alice = world
    bot = await client(bots)
    channel = await dm_channel(bot, alice)
    first = await channel.send("your turn", nonce="n-1")
    await first.delete()
    with pytest.raises(discord.NotFound):
        await channel.send("your turn", nonce="n-1")


# -- duplicates --------------------------------------------------------------------


async def test_duplicates_lists_messages_sent_twice(
        fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser]) -> None:
    guild, alice = world
    bot = await client(bots)
    channel = await dm_channel(bot, alice)
    general = bot.get_partial_messageable(fake.channel(guild, "general").id)
    picture = b"\x89PNG\r\n\x1a\nfake"
    first = await channel.send("your turn", file=discord.File(_io(picture), "hand.png"))
    await channel.send("your turn", file=discord.File(_io(picture), "hand-2.png"))  # other
    await channel.send("your turn")  # no picture: another message
    await general.send("your turn", file=discord.File(_io(picture), "hand.png"))  # elsewhere
    assert fake.duplicates() == []
    await first.edit(content="played", view=None)  # edited later: compared as created
    again = await channel.send("your turn", file=discord.File(_io(picture), "hand.png"))
    assert [m.id for m in fake.duplicates()] == [again.id]
    await again.delete()
    assert fake.duplicates() == [] and len(fake.duplicates(deleted=True)) == 1


def _io(data: bytes) -> io.BytesIO:
    return io.BytesIO(data)


# -- DMs forbidden -----------------------------------------------------------------


async def test_forbidden_dms_answer_50007(
        fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser]) -> None:
    _, alice = world
    bot = await client(bots)
    channel = await dm_channel(bot, alice)
    fake.faults.forbid_dms(alice.id)
    with pytest.raises(discord.Forbidden) as raised:
        await channel.send("your turn")
    assert raised.value.code == 50007 and fake.failures(50007)
    fake.faults.forbid_dms(alice.id, False)
    await channel.send("your turn")


# -- slow --------------------------------------------------------------------------


async def test_slow_answers_come_late(
        fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser]) -> None:
    _, alice = world
    bot = await client(bots)
    channel = await dm_channel(bot, alice)
    fake.faults.slow(0.3, routes=DMS)
    began = time.monotonic()
    await channel.send("your turn")
    assert time.monotonic() - began >= 0.3 and len(fake.dms(alice)) == 1
    fake.faults.restore()
    began = time.monotonic()
    await channel.send("your turn")
    assert time.monotonic() - began < 0.3
    assert fake.faults.injected == []  # slowness is no failure


# -- the gateway -------------------------------------------------------------------


async def test_a_dropped_gateway_resumes_and_replays_what_was_missed(
        fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser]) -> None:
    bot = await client(bots)
    session = fake.gateway.current()
    assert session is not None
    resumed = asyncio.Event()
    bot.event(_setter("on_resumed", resumed))
    late = fake.add_guild(901, "Late Club")
    await fake.drop_gateway()
    await fake.announce_guild(late)  # while the bot is away: kept for the RESUME
    await asyncio.wait_for(resumed.wait(), 5)
    await fake.wait_for(lambda: bot.get_guild(late.id))
    assert fake.gateway.current() is session and session.resumes == 1


async def test_a_dropped_gateway_without_resume_identifies_again(
        fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser]) -> None:
    guild, _ = world
    bot = await client(bots)
    old = fake.gateway.current()
    await fake.drop_gateway(resume=False)
    await fake.wait_connected()
    new = fake.gateway.current()
    assert new is not None and old is not None and new.session_id != old.session_id
    await fake.wait_for(lambda: bot.get_guild(guild.id) and bot.is_ready())


def _setter(name: str, event: asyncio.Event) -> Callable[[], Coroutine[Any, Any, None]]:
    async def handler() -> None:
        event.set()
    handler.__name__ = name
    return handler
