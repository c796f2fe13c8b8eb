"""The /mahjong group hands every command to the client's handler as plain values."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord.commands import CommandHandler, build_group
from bot.discord.i18n import COMMANDS
from tests.discord.test_discord_ids import FakeClient, FakeInteraction


@dataclass
class Recorder:
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    async def on_command(self, interaction: Any, command: str, args: dict[str, Any]) -> None:
        self.calls.append((command, args))


async def test_every_subcommand_reaches_the_handler_with_plain_arguments() -> None:
    handler = Recorder()
    assert isinstance(handler, CommandHandler)
    inter = FakeInteraction(FakeClient(handler))
    group = build_group()
    assert [c.name for c in group.commands] == list(COMMANDS)
    for command in group.commands:
        if command.name == "new":
            await command.callback(inter, rules="hangzhou", caishen="flip", hands=None)
        elif command.name == "leaderboard":
            await command.callback(inter)
        else:
            await command.callback(inter, table=7)
    calls = dict(handler.calls)
    assert calls["new"] == {"rules": "hangzhou", "options": {"caishen": "flip"}}
    assert calls["join"] == {"table": 7} and calls["leaderboard"] == {}
    assert calls["rules"] == {"rules": None, "table": 7}
    assert inter.response.sent == []


async def test_an_option_of_the_other_rules_is_refused_before_the_handler() -> None:
    handler = Recorder()
    inter = FakeInteraction(FakeClient(handler), locale=discord.Locale.chinese)
    new = build_group().get_command("new")
    assert new is not None
    await new.callback(inter, rules="shanghai", liability=False)  # type: ignore[call-arg]
    assert handler.calls == []
    ((text, ephemeral),) = inter.response.sent
    assert ephemeral and "liability" in text and "上海" in text


async def test_without_a_handler_the_user_is_told_privately() -> None:
    inter = FakeInteraction(FakeClient(None))
    join = build_group().get_command("join")
    assert join is not None
    await join.callback(inter)  # type: ignore[call-arg]
    assert inter.response.sent[0][1] is True
