"""``tree.on_error``: what an app-command error that escapes a command becomes.

Every command answers inside `bot.discord.core.answering.answering`, which says refusals and
apologises for the unexpected itself, so only what happens before it reaches the tree:
a check that failed, an argument discord.py could not convert, an exception in a
command's own callback before it answers (reading the options of ``/mahjong new``), a
command Discord knows but this process does not. The user gets one private sentence in
their language instead of "The application did not respond"; the log gets the
traceback with the exceptions' types and frames but not their messages, which may
quote what the exception was about (a hand's tiles).
"""

from __future__ import annotations

import contextlib
import logging
import traceback

import discord
from discord import app_commands

from bot.discord.core.i18n import t

log = logging.getLogger(__name__)


class ServerOnly(app_commands.CheckFailure):
    """A command about a channel's table, used in private messages with the bot (a
    command group's check raises it): the person is told where it works."""


def error_key(error: app_commands.AppCommandError) -> str:
    """The sentence for ``error``: a table's command in private messages, a check, a
    value, or our own fault."""
    if isinstance(error, ServerOnly):
        return "error.server_only"
    if isinstance(error, app_commands.CheckFailure):
        return "error.check"
    if isinstance(error, app_commands.TransformerError):
        return "error.bad_value"
    return "error.unexpected"


async def on_app_command_error(interaction: discord.Interaction,
                               error: app_commands.AppCommandError) -> None:
    command = interaction.command.qualified_name if interaction.command else "?"
    key = error_key(error)
    if key == "error.server_only":  # not a fault: the person is told where it works
        log.info("app command %s refused in private messages", command)
    else:
        log.error("app command %s failed (%s):\n%s", command, type(error).__name__,
                  traceback_without_messages(error))
    text = t(key, interaction.locale)
    with contextlib.suppress(discord.HTTPException):
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)


def traceback_without_messages(error: BaseException) -> str:
    """Each exception of the chain (outermost last, as Python prints it) as its type
    and stack frames: where and what, never the message's text."""
    chain: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in chain:
        chain.append(current)
        current = current.__cause__ or current.__context__
    parts = []
    for exc in reversed(chain):
        frames = "".join(traceback.format_list(traceback.extract_tb(exc.__traceback__)))
        parts.append(f"Traceback (most recent call last):\n{frames}"
                     f"{type(exc).__module__}.{type(exc).__qualname__}\n")
    return "\n".join(parts)
