"""``/mahjong turns`` in the adapter: the service's list said privately in the reader's
language, with a link to each table; and where ``/mahjong`` works (servers, and the
bot's private messages for the subcommands about the person or no table)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord.commands import IN_DMS, MahjongCommands
from bot.discord.core.i18n import t
from bot.discord.core.tree_errors import ServerOnly
from bot.discord.turns import place_link, turns_text
from bot.service import Cause, Place, TableRef, WaitingMove
from tests.discord.fakes import FakeService, interaction

CLAIM = WaitingMove(TableRef(5, 900, 42, 101), "hangzhou", 2, 8, "claim", 1_700_000_000.0,
                    7777)
TURN = WaitingMove(TableRef(9, 901, 43, 102), "shanghai", 1, 4, "turn", 1_700_040_000.0)


async def run(name: str, inter: Any, **args: Any) -> None:
    group = MahjongCommands()
    command = group.get_command(name)
    assert isinstance(command, app_commands.Command)
    await command.callback(group, inter, **args)  # type: ignore[arg-type]  # a fake interaction


async def test_the_list_is_said_privately_in_the_readers_language() -> None:
    service = FakeService({"turns": (CLAIM, TURN)})
    inter = interaction(service, locale=discord.Locale.chinese)
    await run("turns", inter)
    assert service.names() == ["turns"]
    (cause,), _ = service.last("turns")
    assert cause == Cause(101, "Ann", "zh-CN", False, 555, place=Place(900, 42))
    (said, private, _), = inter.said
    assert private and said == turns_text((CLAIM, TURN), "zh-CN")
    assert said.startswith("**等你决定的牌局**（2）")


def test_each_line_says_where_which_hand_what_and_by_when_with_a_link() -> None:
    text = turns_text((CLAIM, TURN), "en-US")
    title, first, second = text.split("\n")
    assert title == "**Waiting for you** (2), the soonest first:"
    assert first == ("1. Hangzhou · table #5 · hand 2 of 8: a discard you may claim; decide "
                     "<t:1700000000:R> (<t:1700000000:f>) · "
                     "https://discord.com/channels/900/42/7777")
    assert second.startswith("2. Shanghai · table #9 · hand 1 of 4: your turn; decide "
                             "<t:1700040000:R>")
    assert second.endswith("https://discord.com/channels/901/43")  # no table message yet
    assert place_link(TURN) == "https://discord.com/channels/901/43"
    assert "上海" in turns_text((TURN,), "zh-CN") and "轮到你出牌" in turns_text((TURN,), "zh")


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_nothing_waits_and_a_long_list_fits_a_message(locale: str) -> None:
    assert turns_text((), locale) == t("reply.turns.none", locale)
    many = tuple(WaitingMove(TableRef(n, 900 + n, 42, 1), "shanghai", 1, 8, "turn",
                             1_700_000_000.0 + n, 10**18 + n) for n in range(1, 60))
    text = turns_text(many, locale)
    assert len(text) <= 2000
    lines = text.split("\n")
    shown = len(lines) - 2
    assert 5 < shown < 59 and lines[-1] == t("turns.more", locale, n=59 - shown)
    assert turns_text(many, locale, digest=True).startswith(
        t("turns.digest.title", locale, n=59).split("(")[0].split("（")[0])


async def test_in_private_messages_only_the_subcommands_about_no_table_work() -> None:
    group = MahjongCommands()
    # about the person (their own stats of every server too) or about no table
    assert {"turns", "quiet", "vacation", "rules", "score", "stats"} == IN_DMS
    for command in group.commands:
        private = SimpleNamespace(guild_id=None, command=command)
        in_server = SimpleNamespace(guild_id=900, command=command)
        assert await group.interaction_check(in_server)  # type: ignore[arg-type]  # a fake
        if command.name in IN_DMS:
            assert await group.interaction_check(private)  # type: ignore[arg-type]  # a fake
        else:
            with pytest.raises(ServerOnly):
                await group.interaction_check(private)  # type: ignore[arg-type]  # a fake


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_refusal_in_private_messages_names_what_works_there(locale: str) -> None:
    said = t("error.server_only", locale)
    for name in IN_DMS:
        assert t(f"cmd.{name}.name", locale) in said, name
