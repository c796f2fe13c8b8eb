"""The ``/mahjong`` commands: one typed method per subcommand, calling the table service.

Names, descriptions, option names and choices are `ls(...)` keys that
`MahjongTranslator` says in English and 简体中文 (`bot/discord/core/i18n.py`). Each command
answers inside ``async with answering(interaction) as answer:`` (`bot.discord.core.answering`):
refusals become a private sentence in the reader's language, slow work is deferred.
Register with ``tree.add_command(MahjongCommands())`` after
``await tree.set_translator(MahjongTranslator())``.

To add a command: a method here, where it should be listed, decorated with
``@command("name")`` (and ``@table_param`` or ``app_commands.rename/describe`` for its
arguments), its body inside ``async with answering(interaction) as answer:`` calling
``answer.service``; its name, description and argument names in
`bot.discord.core.i18n` (its entry in the command table, English and 简体中文, which
`COMMANDS` lists in the same order), its replies in its feature's strings module
(``commands_strings.py`` for those said here). The bot syncs the changed tree by itself at
start (client.py's fingerprint).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine
from functools import partial
from types import MethodType
from typing import Any, Concatenate, ParamSpec, TypeVar

import discord
from discord import app_commands

from bot.discord.calculator import score_reply
from bot.discord.core.answering import answering
from bot.discord.core.i18n import lang, ls, t
from bot.discord.core.items import ComposedView
from bot.discord.core.tree_errors import ServerOnly
from bot.discord.delivery.posting import memory_file
from bot.discord.hand.replies import reply_text
from bot.discord.history import history_text
from bot.discord.leaderboard import board_png, leaderboard_text
from bot.discord.lobby.leave import leave
from bot.discord.lobby.options import (
    OptionNotForRules,
    choices_kwargs,
    describe_kwargs,
    parameters,
    rename_kwargs,
    table_options,
)
from bot.discord.play.dms import hand_file, prepare_dm
from bot.discord.quiet import quiet_reply, vacation_reply, zone_choices
from bot.discord.ratings import rebuilt_text
from bot.discord.replay import replay_command
from bot.discord.rules import rules_summary
from bot.discord.seasons import ask_close, parse_season, season_choices, set_recap, shown_season
from bot.discord.stats import SCOPE_CHOICES, is_private, stats_png, stats_text
from bot.discord.table.words import score_text, table_caption
from bot.discord.turns import turns_text
from bot.service import Refused
from bot.service import errors as E
from engine.rules import DEFAULT
from render.table import table_image

TableArg = app_commands.Range[int, 1, 2**53]
"""The optional ``table`` argument: needed only when a channel has several tables."""

WIN_KINDS = ("self_draw", "discard", "rob_kong")
SCORE_PARAMS = ("rules", "hand", "win_tile", "win", "melds", "flowers", "dealer", "case",
                "table")
NO_MENTIONS = discord.AllowedMentions.none()


GroupT = TypeVar("GroupT", bound=app_commands.Group)
Params = ParamSpec("Params")
Result = TypeVar("Result")
Callback = Callable[Concatenate[GroupT, discord.Interaction, Params],
                    Coroutine[Any, Any, Result]]
"""A subcommand's method: the group, the interaction, then its own typed arguments."""
Decorated = TypeVar("Decorated", bound=Callable[..., Any])


def command(name: str) -> Callable[[Callback[GroupT, Params, Result]],
                                   app_commands.Command[GroupT, Params, Result]]:
    """``@app_commands.command`` with the subcommand's translated name and description;
    the method's own signature is kept (its arguments stay typed for mypy)."""
    return app_commands.command(name=ls(f"cmd.{name}.name"), description=ls(f"cmd.{name}.desc"))


def table_param(func: Decorated) -> Decorated:
    """Translate the ``table`` argument's name and description."""
    func = app_commands.rename(table=ls("param.table.name"))(func)
    return app_commands.describe(table=ls("param.table.desc"))(func)


def _offer_rule_sets(child: app_commands.Command[Any, ..., Any] | app_commands.Group) -> None:
    """A subcommand's ``rules`` argument offers the rule sets registered as the tree is
    built. discord.py reads a parameter's choices from its decorators when the class is
    defined, before a rule set registered later is known: they are set here instead."""
    if isinstance(child, app_commands.Command):
        param = child._params.get("rules")  # discord.py keeps no public setter for them
        if param is not None:
            param.choices = choices_kwargs()["rules"]


IN_DMS = frozenset({"turns", "quiet", "vacation", "rules", "score", "stats"})
"""The subcommands that also work in private messages with the bot: about the person
(what waits for them, their quiet hours and leave, their own stats of every server) or
about no table (a rule set's summary, the calculator). The others act on a channel's
table, and are refused in DMs (`ServerOnly`, whose sentence names these)."""
CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=False)
"""Where Discord offers ``/mahjong``: servers, and private messages with the bot."""


class MahjongCommands(app_commands.Group, name=ls("cmd.group.name"),
                      description=ls("cmd.group.desc")):
    """``/mahjong``: in servers, where a table lives in a channel, and in private
    messages with the bot for the subcommands `IN_DMS` (the others are refused there,
    `interaction_check`). Discord lists the subcommands in the order they are defined
    here."""

    def __init__(self) -> None:
        super().__init__(allowed_contexts=CONTEXTS)
        # /mahjong new's options and every `rules` choice are the registered rule sets':
        # made now, as the tree is built, and ``new`` listed first
        others = self.commands
        for child in others:
            self.remove_command(child.name)
        self.add_command(self._new_command())
        for child in others:
            _offer_rule_sets(child)
            self.add_command(child)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """In private messages, only the subcommands `IN_DMS`: any other is about a
        channel's table, and says so (`ServerOnly`: the tree's error handler)."""
        command = interaction.command
        if interaction.guild_id is None and (command is None or command.name not in IN_DMS):
            raise ServerOnly("a table's command in private messages")
        return True

    def _new_command(self) -> app_commands.Command[Any, ..., None]:
        """``/mahjong new``: its parameters are the options of the registered rule sets
        (`bot.discord.lobby.options.parameters`), declared to discord.py as its
        callback's signature."""
        async def new(group: MahjongCommands, interaction: discord.Interaction,
                      **given: Any) -> None:
            await group.open_table(interaction, given)

        new.__qualname__ = f"{type(self).__qualname__}.new"  # a method: the group first
        new.__signature__ = inspect.Signature([  # type: ignore[attr-defined]  # read by discord.py
            inspect.Parameter("group", inspect.Parameter.POSITIONAL_OR_KEYWORD),
            inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                              annotation=discord.Interaction),
            *parameters()])
        callback = app_commands.choices(**choices_kwargs())(
            app_commands.describe(**describe_kwargs())(
                app_commands.rename(**rename_kwargs())(new)))
        return app_commands.Command(name=ls("cmd.new.name"), description=ls("cmd.new.desc"),
                                    callback=MethodType(callback, self))

    async def open_table(self, interaction: discord.Interaction, given: dict[str, Any]
                         ) -> None:
        """``/mahjong new`` with what was filled in: ``rules`` and the options given."""
        rules = str(given.pop("rules"))
        # Read before answering: a fault here is tree.on_error's to report.
        try:
            options = table_options(rules, given)
        except OptionNotForRules as exc:
            async with answering(interaction) as answer:
                await answer.say(exc.text(answer.locale))
            return
        async with answering(interaction) as answer:
            info = await answer.run(answer.service.create_table(
                answer.cause, guild_id=interaction.guild_id or 0,
                channel_id=answer.channel_id, rules=rules, options=options))
            await answer.say(t("reply.created", answer.locale, table=info.ref.table_id))

    @command("join")
    @table_param
    async def join(self, interaction: discord.Interaction, table: TableArg | None = None
                   ) -> None:
        async with answering(interaction) as answer:
            table_id = await answer.table_id(table)
            seated = await answer.run(answer.service.join(answer.cause, table_id))
            await answer.say(t("reply.joined", answer.locale, name=answer.cause.name,
                               seat=seated.seat + 1))

    @command("leave")
    @table_param
    async def leave(self, interaction: discord.Interaction, table: TableArg | None = None
                    ) -> None:
        async with answering(interaction) as answer:
            table_id = await answer.table_id(table)
            # a running match is confirmed first, privately (`lobby.leave.leave`)
            await leave(answer, table_id,
                        lobby_reply=t("reply.left", answer.locale, name=answer.cause.name))

    @command("addbot")
    @table_param
    async def addbot(self, interaction: discord.Interaction, table: TableArg | None = None
                     ) -> None:
        async with answering(interaction) as answer:
            table_id = await answer.table_id(table)
            seated = await answer.run(answer.service.add_computer(answer.cause, table_id))
            await answer.say(t("reply.computer_added", answer.locale, seat=seated.seat + 1))

    @command("start")
    @table_param
    async def start(self, interaction: discord.Interaction, table: TableArg | None = None
                    ) -> None:
        async with answering(interaction) as answer:
            table_id = await answer.table_id(table)
            await answer.run(answer.service.start(answer.cause, table_id))
            await answer.say(t("reply.started", answer.locale, table=table_id))

    @command("hand")
    @table_param
    async def hand(self, interaction: discord.Interaction, table: TableArg | None = None
                   ) -> None:
        """The private way to play: the same picture and buttons as the DM."""
        async with answering(interaction) as answer:
            await answer.defer(ephemeral=True)
            table_id = await answer.table_id(table)
            info = await answer.run(answer.service.hand(answer.cause, table_id))
            # from now on the seat's notices are kept for this reply (`LiveReplies`)
            replies = answer.notifier.replies
            live = replies.expect(table_id, info.seat, answer.cause.user_id,
                                  info.hand_number, info.seq, answer.locale)
            # words, buttons and picture made together in the hands' picture process,
            # as a DM's are: the view's advice is worked out there, once
            dm = await answer.pictures.draw_hand(partial(
                prepare_dm, info.view, (), lang(answer.locale), table_id=table_id,
                hand=info.hand_number, step=info.public_step, names=info.names,
                deadline=info.deadline, choices=info.choices, away=info.away,
                next_discard=info.next_discard, answers=info.answers, bank=info.bank))
            text = dm.text if live is None else \
                reply_text(dm.text, live.expires_at, answer.locale)
            sent = await answer.say(text, file=hand_file(table_id, info.seat, dm.png),
                                    view=ComposedView(dm.components), wait=True)
            if live is not None and sent is not None:
                replies.sent(table_id, info.seat, live, answer.interaction.followup,
                             sent.id)

    @command("turns")
    async def turns(self, interaction: discord.Interaction) -> None:
        """Every table, in every server, where a decision waits for the person asking:
        privately, wherever it is asked."""
        async with answering(interaction) as answer:
            waiting = await answer.run(answer.service.turns(answer.cause))
            await answer.say(turns_text(waiting, answer.locale))

    @command("quiet")
    @app_commands.rename(start=ls("param.quiet_start.name"), end=ls("param.quiet_end.name"),
                         time_zone=ls("param.time_zone.name"), off=ls("param.quiet_off.name"))
    @app_commands.describe(start=ls("param.quiet_start.desc"), end=ls("param.quiet_end.desc"),
                           time_zone=ls("param.time_zone.desc"),
                           off=ls("param.quiet_off.desc"))
    async def quiet(self, interaction: discord.Interaction, start: str | None = None,
                    end: str | None = None, time_zone: str | None = None,
                    off: bool = False) -> None:
        """The person's quiet hours, at every table of every server (private reply)."""
        async with answering(interaction) as answer:
            done = await answer.run(answer.service.set_quiet(
                answer.cause, start=start, end=end, time_zone=time_zone, off=off))
            await answer.say(quiet_reply(done, answer.locale))

    @quiet.autocomplete("time_zone")
    async def _time_zones(self, interaction: discord.Interaction, current: str
                          ) -> list[app_commands.Choice[str]]:
        return zone_choices(current)

    @command("vacation")
    @app_commands.rename(days=ls("param.days.name"), off=ls("param.vacation_off.name"))
    @app_commands.describe(days=ls("param.days.desc"), off=ls("param.vacation_off.desc"))
    async def vacation(self, interaction: discord.Interaction,
                       days: app_commands.Range[int, 1, 30] | None = None,
                       off: bool = False) -> None:
        """Leave for whole days (or ``off``: back now), honoured per table."""
        async with answering(interaction) as answer:
            # neither days nor off: 0 days, which the service refuses (1 to 30)
            wanted = None if off else int(days or 0)
            done = await answer.run(answer.service.set_vacation(answer.cause, wanted))
            await answer.say(vacation_reply(done, answer.locale))

    @command("table")
    @table_param
    async def table(self, interaction: discord.Interaction, table: TableArg | None = None
                    ) -> None:
        """The table as everyone sees it, posted in the channel."""
        async with answering(interaction) as answer:
            await answer.defer(ephemeral=False)
            table_id = await answer.table_id(table)
            try:
                picture = await answer.service.table_picture(table_id)
            except Refused as exc:
                if exc.code != E.NOT_PLAYING:
                    raise
                await answer.say(t("reply.table.none", answer.locale, table=table_id))
                return
            names = picture.info.names
            png = await answer.pictures.draw(table_image, picture.view, names)
            caption = table_caption(picture.view, table_id=table_id, names=names,
                                    locale=answer.public_locale)
            await answer.say(caption, ephemeral=False, file=memory_file(
                png, f"table-{table_id}.png"))

    @command("leaderboard")
    @app_commands.rename(rules=ls("param.rules.name"), season=ls("param.season.name"))
    @app_commands.describe(rules=ls("param.rules.desc"), season=ls("param.season.desc"))
    async def leaderboard(self, interaction: discord.Interaction, rules: str | None = None,
                          season: str | None = None) -> None:
        """One rule set's standings (its points in its own unit, each person's rating);
        without ``rules``, the rule set the channel played last, and a word on its other
        boards; ``season``: a past season of this server, or all time."""
        async with answering(interaction) as answer:
            wanted = parse_season(season)  # refused before anything public is shown
            await answer.defer(ephemeral=False)
            board = await answer.run(answer.service.leaderboard(
                answer.channel_id, rules, guild_id=interaction.guild_id or 0, season=wanted))
            locale = answer.public_locale
            # a channel with no standings at all, asked about none: no rule set to name
            named = board.rules if rules or board.rows or board.others or wanted \
                or (board.current or 1) > 1 else None
            shown = shown_season(board.season, board.current)
            ratings = dict(board.ratings)
            png = await answer.pictures.draw(board_png, board.rows, lang(locale), named,
                                             ratings, shown)
            text = leaderboard_text(board.rows, locale, rules=named, others=board.others,
                                    ratings=ratings, season=shown)
            await answer.say(text, ephemeral=False,
                             file=memory_file(png, "leaderboard.png"),
                             allowed_mentions=NO_MENTIONS)

    @leaderboard.autocomplete("season")
    async def _seasons(self, interaction: discord.Interaction, current: str
                       ) -> list[app_commands.Choice[str]]:
        service = getattr(interaction.client, "service", None)
        if service is None or interaction.guild_id is None:
            return []
        now = await service.season_of(interaction.guild_id)
        return season_choices(now, current, interaction.locale)

    @command("rules")
    @app_commands.rename(rules=ls("param.rules.name"), table=ls("param.table.name"))
    @app_commands.describe(rules=ls("param.rules.desc"), table=ls("param.table.desc"))
    async def rules(self, interaction: discord.Interaction, rules: str | None = None,
                    table: TableArg | None = None) -> None:
        """A rule set's summary; without one, the options of the channel's table."""
        async with answering(interaction) as answer:
            options = None
            if rules is None:
                try:
                    info = await answer.service.table_info(await answer.table_id(table))
                    rules, options = info.rules, info.options
                except Refused:
                    rules = DEFAULT.name
            await answer.say(rules_summary(rules, options, answer.locale))

    @command("score")
    @app_commands.rename(**{n: ls(f"param.{n}.name") for n in SCORE_PARAMS})
    @app_commands.describe(**{n: ls(f"param.{n}.desc") for n in SCORE_PARAMS})
    @app_commands.choices(win=[app_commands.Choice(name=ls(f"choice.win.{k}"), value=k)
                               for k in WIN_KINDS])
    async def score(self, interaction: discord.Interaction, hand: str | None = None,
                    win_tile: str | None = None, rules: str | None = None,
                    win: str | None = None, melds: str | None = None,
                    flowers: str | None = None, dealer: bool | None = None,
                    case: str | None = None, table: TableArg | None = None) -> None:
        """With a hand or a case: the calculator. Alone: the match totals here."""
        async with answering(interaction) as answer:
            if hand or case:
                asked = {"rules": rules, "hand": hand, "win_tile": win_tile, "win": win,
                         "melds": melds, "flowers": flowers, "dealer": dealer, "case": case}
                await answer.say(score_reply(asked, answer.public_locale), ephemeral=False)
                return
            try:
                table_id = await answer.table_id(table)
                info = await answer.service.table_info(table_id)
            except Refused:  # no table here, or none by that id
                await answer.say(t("reply.score.no_table", answer.locale))
                return
            hands = info.hands_in_match or int(info.options.get("hands", 8))
            # No totals: no match was dealt (a lobby, or a table cancelled before it).
            await answer.say(score_text(table_id, info.names, info.totals or (0, 0, 0, 0),
                                        info.hands_played, hands, answer.public_locale,
                                        cancelled=info.status == "cancelled"),
                             ephemeral=False, allowed_mentions=NO_MENTIONS)

    @command("cancel")
    @table_param
    async def cancel(self, interaction: discord.Interaction, table: TableArg | None = None
                     ) -> None:
        async with answering(interaction) as answer:
            table_id = await answer.table_id(table)
            await answer.run(answer.service.cancel(answer.cause, table_id), ephemeral=False)
            await answer.say(t("reply.cancelled", answer.public_locale, table=table_id),
                             ephemeral=False)

    @command("history")
    @table_param
    async def history(self, interaction: discord.Interaction, table: TableArg | None = None
                      ) -> None:
        """The last finished hand in the channel's words, and its wall and salt (public
        by then); the whole hand as a text file when it does not fit a message."""
        async with answering(interaction) as answer:
            table_id = await answer.table_id(table)
            past = await answer.service.hand_history(table_id)
            locale = answer.public_locale
            if past is None:
                await answer.say(t("reply.history.empty", locale), ephemeral=False)
                return
            told = history_text(past, locale)
            extra: dict[str, Any] = {}
            if told.whole is not None:
                extra["file"] = memory_file(told.whole.encode("utf-8"), told.filename)
            await answer.say(told.content, ephemeral=False, allowed_mentions=NO_MENTIONS,
                             **extra)

    @command("stats")
    @app_commands.rename(player=ls("param.player.name"), rules=ls("param.rules.name"),
                         scope=ls("param.scope.name"), versus=ls("param.versus.name"))
    @app_commands.describe(player=ls("param.player.desc"), rules=ls("param.rules.desc"),
                           scope=ls("param.scope.desc"), versus=ls("param.versus.desc"))
    @app_commands.choices(scope=SCOPE_CHOICES)
    async def stats(self, interaction: discord.Interaction,
                    player: discord.User | None = None, rules: str | None = None,
                    scope: str | None = None, versus: discord.User | None = None) -> None:
        """A person's figures (`bot.discord.stats`): public in the channel, but every
        server's (the asker's own only) privately."""
        async with answering(interaction) as answer:
            await answer.defer(ephemeral=scope == "all" or interaction.guild_id is None)
            got = await answer.run(answer.service.player_stats(
                answer.cause, None if player is None else player.id, rules, scope,
                None if versus is None else versus.id))
            private = is_private(got)
            locale = answer.locale if private else answer.public_locale
            name = (player or interaction.user).display_name
            other = None if versus is None else versus.display_name
            png = await answer.pictures.draw(stats_png, got, name, other, lang(locale))
            await answer.say(stats_text(got, name, other, locale), ephemeral=private,
                             file=memory_file(png, "stats.png"), allowed_mentions=NO_MENTIONS)

    @command("replay")
    @app_commands.rename(table=ls("param.table.name"), hand=ls("param.hand_number.name"))
    @app_commands.describe(table=ls("param.table.desc"), hand=ls("param.hand_number.desc"))
    async def replay(self, interaction: discord.Interaction, table: TableArg | None = None,
                     hand: app_commands.Range[int, 1, 2**53] | None = None) -> None:
        """A finished hand stepped through with every hand open (private), and its
        record; default: the channel's last table's last finished hand."""
        async with answering(interaction) as answer:
            await replay_command(answer, table, hand)

    ratings = app_commands.Group(name=ls("cmd.ratings.name"),
                                 description=ls("cmd.ratings.desc"))
    """``/mahjong ratings …``: the skill ratings of the server (bot/discord/ratings.py)."""

    @ratings.command(name=ls("cmd.ratings.rebuild.name"),
                     description=ls("cmd.ratings.rebuild.desc"))
    async def ratings_rebuild(self, interaction: discord.Interaction) -> None:
        """A server manager rebuilds the server's ratings from its finished matches;
        privately told how many were replayed and what moved."""
        async with answering(interaction) as answer:
            rebuilt = await answer.run(answer.service.rebuild_ratings(answer.cause))
            await answer.say(rebuilt_text(rebuilt, answer.locale), allowed_mentions=NO_MENTIONS)
    season = app_commands.Group(name=ls("cmd.season.name"), description=ls("cmd.season.desc"))
    """``/mahjong season …``: the server's seasons (`bot.discord.seasons`)."""

    @season.command(name=ls("cmd.season.close.name"), description=ls("cmd.season.close.desc"))
    async def season_close(self, interaction: discord.Interaction) -> None:
        """Close the server's season (a server manager): confirmed privately first."""
        async with answering(interaction) as answer:
            await ask_close(answer)

    @command("recap")
    @app_commands.rename(enabled=ls("param.enabled.name"))
    @app_commands.describe(enabled=ls("param.enabled.desc"))
    async def recap(self, interaction: discord.Interaction, enabled: bool) -> None:
        """Turn the channel's weekly recap on or off (a server manager; private reply)."""
        async with answering(interaction) as answer:
            await set_recap(answer, enabled)
