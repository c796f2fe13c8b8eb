"""``tree.on_error`` driven directly with a fake interaction: each kind of app-command
error gets its own private sentence in the user's language; an interaction already
deferred is answered by a followup."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord.client import MahjongBot
from bot.discord.core.i18n import t
from bot.discord.core.tree_errors import ServerOnly


@dataclass
class Said:
    content: str
    ephemeral: bool
    how: str


@dataclass
class FakeResponse:
    said: list[Said]
    done: bool = False

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, content: str, *, ephemeral: bool = False) -> None:
        assert not self.done
        self.done = True
        self.said.append(Said(content, ephemeral, "response"))


@dataclass
class FakeFollowup:
    said: list[Said]

    async def send(self, content: str, *, ephemeral: bool = False) -> None:
        self.said.append(Said(content, ephemeral, "followup"))


@dataclass
class FakeInteraction:
    locale: discord.Locale
    deferred: bool = False
    said: list[Said] = field(default_factory=list)
    command: Any = None

    def __post_init__(self) -> None:
        self.response = FakeResponse(self.said, self.deferred)
        self.followup = FakeFollowup(self.said)


def _errors() -> dict[str, app_commands.AppCommandError]:
    return {
        "error.check": app_commands.CheckFailure("no"),
        "error.server_only": ServerOnly("a table's command in private messages"),
        "error.bad_value": app_commands.TransformerError(
            "abc", discord.AppCommandOptionType.integer, app_commands.Transformer()),
        "error.unexpected": app_commands.AppCommandError("something else"),
    }


@pytest.mark.parametrize("key", ["error.check", "error.server_only", "error.bad_value",
                                 "error.unexpected"])
@pytest.mark.parametrize("locale", [discord.Locale.american_english, discord.Locale.chinese])
async def test_each_error_gets_a_private_sentence_in_the_users_language(
        key: str, locale: discord.Locale) -> None:
    bot = MahjongBot(sync_commands=False)
    interaction = FakeInteraction(locale)
    await bot.tree.on_error(interaction, _errors()[key])  # type: ignore[arg-type]  # a fake
    (said,) = interaction.said
    assert said == Said(t(key, locale), True, "response")
    assert said.content.count("。" if locale is discord.Locale.chinese else ".") == 1


async def test_a_deferred_interaction_is_answered_by_a_followup() -> None:
    bot = MahjongBot(sync_commands=False)
    interaction = FakeInteraction(discord.Locale.chinese, deferred=True)
    await bot.tree.on_error(interaction,  # type: ignore[arg-type]  # a fake interaction
                            app_commands.CheckFailure())
    assert interaction.said == [Said(t("error.check", "zh-CN"), True, "followup")]


def test_the_sentences_differ_and_exist_in_both_languages() -> None:
    for locale in ("en-US", "zh-CN"):
        words = {t(k, locale) for k in ("error.check", "error.server_only", "error.bad_value",
                                        "error.unexpected")}
        assert len(words) == 4 and all("error." not in w for w in words)
