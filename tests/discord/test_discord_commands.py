"""The /mahjong group: one typed method per subcommand, calling the service with the
interaction's Cause; refusals private in the reader's language; pictures deferred first;
shutdown waits for the calls in flight."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

import bot.discord.core.answering as answering
from bot.discord.commands import MahjongCommands
from bot.discord.core.i18n import COMMANDS
from bot.service import Cause, Place, Refused
from bot.service import errors as E
from tests.discord.fakes import FakeService, interaction

HERE = Place(900, 42)
"""Where the fake interactions are made (guild 900, channel 42)."""
ANN = Cause(101, "Ann", "en-US", False, 555, place=HERE)


async def run(name: str, inter: Any, **args: Any) -> None:
    """Invoke a subcommand's callback as discord.py does, on the group it belongs to."""
    group = MahjongCommands()
    command = group.get_command(name)
    assert isinstance(command, app_commands.Command)
    await command.callback(group, inter, **args)  # type: ignore[arg-type]  # a fake interaction


def table(**fields: Any) -> Any:
    return SimpleNamespace(ref=SimpleNamespace(table_id=7), **fields)


def test_the_subcommands_are_listed_in_order() -> None:
    assert [c.name for c in MahjongCommands().commands] == list(COMMANDS)


async def test_table_commands_find_the_table_then_call_the_service_with_the_cause() -> None:
    calls = {"join": "join", "leave": "leave", "addbot": "add_computer", "start": "start",
             "cancel": "cancel"}
    for name, method in calls.items():
        service = FakeService({"find_table": 7, method: SimpleNamespace(seat=2)})
        inter = interaction(service)
        await run(name, inter, table=None)
        assert service.names() == ["find_table", method]
        assert (await service.settled(inter)).seen_causes() == [ANN]
        assert service.last("find_table") == ((ANN, None), {"decision": False})
        assert service.last(method) == ((ANN, 7), {"agreed": None} if name == "leave" else {})
        assert len(inter.said) == 1
    service = FakeService({"find_table": 9, "join": SimpleNamespace(seat=2)})
    inter = interaction(service, locale=discord.Locale.chinese)
    await run("join", inter, table=9)
    assert service.last("find_table")[0][1] == 9
    assert inter.said == [("Ann 坐到了 3 号座位。", True, {})]


async def test_new_passes_the_options_given_and_says_the_table() -> None:
    service = FakeService({"create_table": table()})
    inter = interaction(service, manager=True)
    await run("new", inter, rules="hangzhou", caishen="flip", hands=None)
    args, kwargs = service.last("create_table")
    assert args == (Cause(101, "Ann", "en-US", True, 555, place=HERE),)
    assert kwargs == {"guild_id": 900, "channel_id": 42, "rules": "hangzhou",
                      "options": {"caishen": "flip"}}
    assert inter.said[0][0].startswith("Table #7")


async def test_an_option_of_the_other_rules_is_refused_before_the_service() -> None:
    service = FakeService()
    inter = interaction(service, locale=discord.Locale.chinese)
    await run("new", inter, rules="shanghai", liability=False)
    assert service.names() == []
    assert len((await service.settled(inter)).seen_causes()) == 1  # still seen
    ((text, private, _),) = inter.said
    assert private and "liability" in text and "上海" in text


async def test_a_refusal_is_private_in_the_readers_language() -> None:
    service = FakeService({"find_table": Refused(E.NO_TABLE, "no table")})
    inter = interaction(service, locale=discord.Locale.chinese)
    await run("start", inter, table=None)
    assert inter.said == [("这里没有牌桌；用 /mahjong new 开一张吧。", True, {})]


async def test_a_picture_is_deferred_before_anything_is_read() -> None:
    service = FakeService({"find_table": Refused(E.NO_TABLE, "no table")})
    inter = interaction(service)
    await run("table", inter, table=None)
    # deferred publicly first; the refusal then takes the public "thinking…" away
    assert inter.events == ["defer ephemeral=False", "delete", "followup"]
    assert inter.said[0][1] is True
    hand = interaction(service)
    await run("hand", hand, table=None)
    assert hand.events == ["defer ephemeral=True", "followup"]


async def test_no_hand_being_played_is_said_in_the_tables_words() -> None:
    service = FakeService({"find_table": 7,
                           "table_picture": Refused(E.NOT_PLAYING, "not playing")})
    inter = interaction(service)
    await run("table", inter, table=None)
    assert inter.said[-1][:2] == ("No hand is being played at table #7 right now.", True)


async def test_rules_without_a_table_here_shows_the_default_rules() -> None:
    service = FakeService({"find_table": Refused(E.NO_TABLE, "no table")})
    inter = interaction(service)
    await run("rules", inter, rules=None, table=None)
    ((text, private, _),) = inter.said
    assert private and "Shanghai" in text


async def test_something_unexpected_is_an_apology_and_a_log_line(
        caplog: pytest.LogCaptureFixture) -> None:
    service = FakeService({"find_table": 7, "leave": RuntimeError("boom")})
    inter = interaction(service, locale=discord.Locale.chinese)
    with caplog.at_level(logging.ERROR):
        await run("leave", inter, table=None)
    assert inter.said == [("出了点问题，请再试一次。", True, {})]
    assert [r.getMessage() for r in caplog.records] == ["interaction failed"]


async def test_before_the_service_is_built_the_user_is_told_privately() -> None:
    inter = interaction(None)
    await run("join", inter, table=None)
    assert inter.said == [("Something went wrong on my side; please try again.", True, {})]


async def test_a_slow_call_is_deferred_then_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(answering, "DEFER_AFTER", 0.0)
    release = asyncio.Event()

    class Slow(FakeService):
        async def start(self, cause: Cause, table_id: int) -> Any:
            await release.wait()
            return table()

    service = Slow({"find_table": 7})
    inter = interaction(service)
    running = asyncio.create_task(run("start", inter, table=None))
    while not inter.events:
        await asyncio.sleep(0)
    assert inter.events == ["defer ephemeral=True"]
    release.set()
    await running
    assert inter.events == ["defer ephemeral=True", "followup"]


async def test_shutdown_waits_for_a_call_in_flight_then_starts_nothing_new() -> None:
    release = asyncio.Event()
    started = asyncio.Event()
    finished: list[str] = []

    class Slow(FakeService):
        async def start(self, cause: Cause, table_id: int) -> Any:
            started.set()
            await release.wait()
            finished.append("start")
            return table()

    service = Slow({"find_table": 7})
    inter = interaction(service)
    running = asyncio.create_task(run("start", inter, table=None))
    await started.wait()
    closing = asyncio.create_task(inter.client.in_flight.close(timeout=60))
    await asyncio.sleep(0)
    assert not closing.done()
    release.set()
    await closing
    assert finished == ["start"]
    await running
    later = interaction(service)
    later.client = inter.client
    await run("join", later, table=None)
    assert later.said == [("Something went wrong on my side; please try again.", True, {})]
    assert service.names() == ["find_table"]
    assert len(service.seen_causes()) == 1  # the first interaction only
