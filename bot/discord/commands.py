"""The ``/mahjong`` command group, localised, delegating every command to a handler.

The group only shapes Discord's side (names, descriptions, options, choices, ranges,
all translated by `MahjongTranslator`) and turns the arguments into plain values; what a
command does is up to the handler on the client, the same object as for components:
``interaction.client.mahjong_handler`` implementing `CommandHandler`. Register with
``tree.add_command(build_group())`` after ``await tree.set_translator(MahjongTranslator())``.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import discord
from discord import app_commands

from bot.discord.i18n import ls, t
from bot.discord.options import (
    OptionNotForRules,
    choices_kwargs,
    describe_kwargs,
    rename_kwargs,
    table_options,
)

TableArg = app_commands.Range[int, 1, 2**53]
"""The optional ``table`` argument: needed only when a channel has several tables."""


@runtime_checkable
class CommandHandler(Protocol):
    """What the commands call; found as ``interaction.client.mahjong_handler``.

    ``command`` is the English subcommand name (new, join, leave, addbot, start, hand,
    table, leaderboard, rules, score, cancel, history). ``args``: for ``new``,
    ``{"rules": str, "options": dict}`` with only the options the user set (already
    checked to belong to that rule set; the service validates values); for ``rules``,
    ``{"rules": str | None, "table": int | None}``; for ``leaderboard`` nothing; for the
    ``score``
    ``{"table", "rules", "hand", "win_tile", "win", "melds", "flowers", "dealer", "case"}``
    (each None when not given); for the others ``{"table": int | None}``. The handler
    answers within 3 seconds (or defers).
    """

    async def on_command(self, interaction: discord.Interaction, command: str,
                         args: dict[str, Any]) -> None: ...


def handler_of(interaction: discord.Interaction) -> CommandHandler | None:
    handler = getattr(interaction.client, "mahjong_handler", None)
    return handler if isinstance(handler, CommandHandler) else None


async def dispatch(interaction: discord.Interaction, command: str,
                   args: dict[str, Any]) -> None:
    """Hand the command over, or say privately that the bot is not ready."""
    handler = handler_of(interaction)
    if handler is None:
        await interaction.response.send_message(t("error.unexpected", interaction.locale),
                                                ephemeral=True)
        return
    await handler.on_command(interaction, command, args)


def _sub(group: app_commands.Group, name: str) -> Any:
    return group.command(name=ls(f"cmd.{name}.name"), description=ls(f"cmd.{name}.desc"))


_TABLE_PARAM = {"rename": {"table": ls("param.table.name")},
                "describe": {"table": ls("param.table.desc")}}


def _with_table(group: app_commands.Group, name: str) -> None:
    """A subcommand whose only argument is the optional table number."""

    async def command(interaction: discord.Interaction, table: TableArg | None = None
                      ) -> None:
        await dispatch(interaction, name, {"table": table})

    command.__name__ = command.__qualname__ = f"mahjong_{name}"
    command = app_commands.rename(**_TABLE_PARAM["rename"])(command)
    command = app_commands.describe(**_TABLE_PARAM["describe"])(command)
    _sub(group, name)(command)


def _add_new(group: app_commands.Group) -> None:
    @_sub(group, "new")
    @app_commands.rename(**rename_kwargs())
    @app_commands.describe(**describe_kwargs())
    @app_commands.choices(**choices_kwargs())
    async def new(interaction: discord.Interaction, rules: str,
                  hands: app_commands.Range[int, 1, 64] | None = None,
                  turn_timer: int | None = None, claim_timer: int | None = None,
                  away_after: app_commands.Range[int, 1, 10] | None = None,
                  mentions: str | None = None,
                  base: app_commands.Range[int, 1, 1000] | None = None,
                  la_cap: app_commands.Range[int, 1, 100] | None = None,
                  huangfan_multiplier: app_commands.Range[int, 1, 10] | None = None,
                  caishen: str | None = None, caishen_melds: bool | None = None,
                  discard_win_streak: app_commands.Range[int, 1, 3] | None = None,
                  liability: bool | None = None, away_leaves: bool | None = None) -> None:
        given = {"hands": hands, "turn_timer": turn_timer, "claim_timer": claim_timer,
                 "away_after": away_after, "mentions": mentions, "base": base, "la_cap": la_cap,
                 "huangfan_multiplier": huangfan_multiplier, "caishen": caishen,
                 "caishen_melds": caishen_melds, "discard_win_streak": discard_win_streak,
                 "liability": liability, "away_leaves": away_leaves}
        try:
            options = table_options(rules, given)
        except OptionNotForRules as exc:
            await interaction.response.send_message(exc.text(interaction.locale),
                                                    ephemeral=True)
            return
        await dispatch(interaction, "new", {"rules": rules, "options": options})


def _add_rules(group: app_commands.Group) -> None:
    @_sub(group, "rules")
    @app_commands.rename(rules=ls("param.rules.name"), table=ls("param.table.name"))
    @app_commands.describe(rules=ls("param.rules.desc"), table=ls("param.table.desc"))
    @app_commands.choices(rules=choices_kwargs()["rules"])
    async def rules(interaction: discord.Interaction, rules: str | None = None,
                    table: TableArg | None = None) -> None:
        await dispatch(interaction, "rules", {"rules": rules, "table": table})


WIN_KINDS = ("self_draw", "discard", "rob_kong")


def _add_score(group: app_commands.Group) -> None:
    """The calculator (a hand in notation, or a JSON case → its breakdown); without a
    hand or case, the match totals at the channel's table."""
    names = ("rules", "hand", "win_tile", "win", "melds", "flowers", "dealer", "case", "table")

    @_sub(group, "score")
    @app_commands.rename(**{n: ls(f"param.{n}.name") for n in names})
    @app_commands.describe(**{n: ls(f"param.{n}.desc") for n in names})
    @app_commands.choices(rules=choices_kwargs()["rules"],
                          win=[app_commands.Choice(name=ls(f"choice.win.{k}"), value=k)
                               for k in WIN_KINDS])
    async def score(interaction: discord.Interaction, hand: str | None = None,
                    win_tile: str | None = None, rules: str | None = None,
                    win: str | None = None, melds: str | None = None,
                    flowers: str | None = None, dealer: bool | None = None,
                    case: str | None = None, table: TableArg | None = None) -> None:
        await dispatch(interaction, "score", {
            "table": table, "rules": rules, "hand": hand, "win_tile": win_tile, "win": win,
            "melds": melds, "flowers": flowers, "dealer": dealer, "case": case})


def _add_leaderboard(group: app_commands.Group) -> None:
    @_sub(group, "leaderboard")
    async def leaderboard(interaction: discord.Interaction) -> None:
        await dispatch(interaction, "leaderboard", {})


def build_group() -> app_commands.Group:
    """A fresh ``/mahjong`` group (guild only: a table lives in a channel)."""
    group = app_commands.Group(name=ls("cmd.group.name"), description=ls("cmd.group.desc"),
                               guild_only=True)
    _add_new(group)
    for name in ("join", "leave", "addbot", "start", "hand", "table"):
        _with_table(group, name)
    _add_leaderboard(group)
    _add_rules(group)
    _add_score(group)
    for name in ("cancel", "history"):
        _with_table(group, name)
    return group
