"""`MahjongHandler`: slash commands and component clicks → `TableService` calls.

Both `commands.CommandHandler` and `ids.InteractionHandler`: found by discord.py's
side as ``client.mahjong_handler``. Every interaction is answered within Discord's 3
seconds: the service commits in milliseconds and the notifier only queues, so the
answer is normally the direct reply; a call that is still running after
``DEFER_AFTER`` seconds is deferred and answered by a followup instead. An answer that
uploads a picture (hand, table, leaderboard) is deferred first, before anything is
read or drawn: drawing may take longer than the window. Refusals (stale button,
stranger, illegal move, …) are always private and in the user's locale.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.discord.calculator import score_reply
from bot.discord.history import history_text
from bot.discord.i18n import LocaleLike, t
from bot.discord.ids import LobbyWhat, MoveCode, Preference
from bot.discord.notifier import board_png, hand_file, private_message
from bot.discord.refusals import refusal_text
from bot.discord.texts import (
    MAX_CONTENT,
    clip,
    leaderboard_text,
    rules_summary,
    score_text,
    table_caption,
)
from bot.service import Cause, Refused, TableInfo
from bot.service import errors as E
from bot.store import StoreError
from engine.game.actions import Action
from engine.rules import DEFAULT
from engine.rules.common import ActionKind
from engine.tiles import Tile
from render.hand import hand_image
from render.table import table_image

if TYPE_CHECKING:
    from bot.discord.client import MahjongBot

log = logging.getLogger(__name__)
T = TypeVar("T")
DEFER_AFTER = 2.0
"""Seconds a call may run before the interaction is deferred (Discord allows 3)."""


class MahjongHandler:
    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot
        self.inflight: set[asyncio.Task[Any]] = set()
        self.closing = False
        self._public_deferrals: set[int] = set()
        """Interactions deferred publicly whose answer is not said yet."""
        self._locales: dict[int, str] = {}
        """The locale each user last used, as last saved (saved again only when changed)."""

    @property
    def service(self) -> Any:
        return self.bot.service

    # ------------------------------------------------------------------ plumbing

    def _remember(self, interaction: discord.Interaction) -> LocaleLike:
        """DMs later speak the language the user last used with the bot (kept in the
        store per user, seated or not, so a restart does not forget it; written only
        when it changed)."""
        user, locale = interaction.user.id, interaction.locale.value
        if self._locales.get(user) != locale:
            self._locales[user] = locale
            task = asyncio.ensure_future(self._save_locale(user, locale))
            self.inflight.add(task)
            task.add_done_callback(self.inflight.discard)
        return interaction.locale

    async def _save_locale(self, user: int, locale: str) -> None:
        try:
            await self.bot.store.set_user_locale(user, locale, time.time())
        except StoreError as exc:  # only a language preference: never worth a failure
            log.info("locale of user %s not saved: %s", user, exc)

    async def _run(self, interaction: discord.Interaction, work: Awaitable[T], *,
                   ephemeral: bool = True) -> T:
        """Run a service call as a tracked task (shutdown waits for it); defer the
        interaction if it takes longer than ``DEFER_AFTER`` (``ephemeral``: whether the
        answer to come is private; a click's deferral is a silent update)."""
        task = asyncio.ensure_future(work)
        self.inflight.add(task)
        task.add_done_callback(self.inflight.discard)
        try:
            return await asyncio.wait_for(asyncio.shield(task), DEFER_AFTER)
        except TimeoutError:
            if not interaction.response.is_done():
                await interaction.response.defer(ephemeral=ephemeral)
            return await task

    async def _defer(self, interaction: discord.Interaction, *, ephemeral: bool) -> None:
        """Acknowledge now ("thinking…"); the answer follows. ``ephemeral``: whether the
        answer is private (a deferral fixes that for its first followup)."""
        if interaction.response.is_done():
            return
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        if not ephemeral:
            self._public_deferrals.add(interaction.id)

    async def _say(self, interaction: discord.Interaction, content: str, *,
                   ephemeral: bool = True, **kwargs: Any) -> None:
        """Reply, or follow up when the interaction was already answered (deferred).
        A private answer after a public deferral (a refusal, "no game here") first takes
        the channel's "thinking…" away: its first followup would be public."""
        public_deferral = interaction.id in self._public_deferrals
        self._public_deferrals.discard(interaction.id)
        if public_deferral and ephemeral:
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        if interaction.response.is_done():
            await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
        else:
            await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)

    async def _refuse(self, interaction: discord.Interaction, exc: Refused) -> None:
        await self._say(interaction, refusal_text(exc.code, exc.reason, interaction.locale,
                                                  exc.params))

    async def _guarded(self, interaction: discord.Interaction,
                       body: Callable[[], Awaitable[None]]) -> None:
        """Refusals become private replies; anything unexpected a private apology (and a
        log line without tiles); shutting down, a polite no."""
        self._remember(interaction)
        if self.closing:
            await self._say(interaction, t("error.unexpected", interaction.locale))
            return
        try:
            await body()
        except Refused as exc:
            await self._refuse(interaction, exc)
        except discord.HTTPException as exc:
            log.warning("answering an interaction failed: %s %s", exc.status, exc.code)
        except Exception:
            log.exception("interaction failed")
            with contextlib.suppress(discord.HTTPException):
                await self._say(interaction, t("error.unexpected", interaction.locale))
        finally:
            self._public_deferrals.discard(interaction.id)

    async def _table_id(self, interaction: discord.Interaction, given: int | None) -> int:
        """The table a command means (the service's `find_table`)."""
        table_id: int = await self.service.find_table(self._cause(interaction),
                                                      interaction.channel_id or 0, given)
        return table_id

    def _cause(self, interaction: discord.Interaction) -> Cause:
        """Who asks, as the service takes it."""
        return Cause(interaction.user.id, interaction.user.display_name,
                     interaction.locale.value, self._is_manager(interaction), interaction.id)

    @staticmethod
    def _public(interaction: discord.Interaction) -> LocaleLike:
        """A post the whole channel reads speaks the server's language (its preferred
        locale); only private answers follow the invoker's."""
        return interaction.guild_locale or interaction.locale

    @staticmethod
    def _is_manager(interaction: discord.Interaction) -> bool:
        return bool(interaction.permissions.manage_guild)

    # ------------------------------------------------------------------ commands

    async def on_command(self, interaction: discord.Interaction, command: str,
                         args: dict[str, Any]) -> None:
        handler = getattr(self, f"_cmd_{command}", None)
        if handler is None:
            await self._say(interaction, t("error.unexpected", interaction.locale))
            return
        await self._guarded(interaction, lambda: handler(interaction, args))

    async def _cmd_new(self, interaction: discord.Interaction, args: dict[str, Any]) -> None:
        info = await self._run(interaction, self.service.create_table(
            self._cause(interaction), guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            rules=args["rules"], options=args.get("options") or {}))
        await self._say(interaction, t("reply.created", interaction.locale,
                                       table=info.ref.table_id))

    async def _cmd_join(self, interaction: discord.Interaction, args: dict[str, Any]) -> None:
        table_id = await self._table_id(interaction, args.get("table"))
        seated = await self._run(interaction, self.service.join(
            self._cause(interaction), table_id))
        await self._say(interaction, t("reply.joined", interaction.locale,
                                       name=interaction.user.display_name,
                                       seat=seated.seat + 1))

    async def _cmd_leave(self, interaction: discord.Interaction, args: dict[str, Any]) -> None:
        table_id = await self._table_id(interaction, args.get("table"))
        await self._run(interaction, self.service.leave(self._cause(interaction), table_id))
        await self._say(interaction, t("reply.left", interaction.locale,
                                       name=interaction.user.display_name))

    async def _cmd_addbot(self, interaction: discord.Interaction, args: dict[str, Any]
                          ) -> None:
        table_id = await self._table_id(interaction, args.get("table"))
        seated = await self._run(interaction, self.service.add_computer(
            self._cause(interaction), table_id))
        await self._say(interaction, t("reply.computer_added", interaction.locale,
                                       seat=seated.seat + 1))

    async def _cmd_start(self, interaction: discord.Interaction, args: dict[str, Any]) -> None:
        table_id = await self._table_id(interaction, args.get("table"))
        await self._run(interaction, self.service.start(self._cause(interaction), table_id))
        await self._say(interaction, t("reply.started", interaction.locale, table=table_id))

    async def _cmd_cancel(self, interaction: discord.Interaction, args: dict[str, Any]
                          ) -> None:
        table_id = await self._table_id(interaction, args.get("table"))
        await self._run(interaction, self.service.cancel(self._cause(interaction), table_id),
                        ephemeral=False)
        await self._say(interaction, t("reply.cancelled", self._public(interaction),
                                       table=table_id), ephemeral=False)

    async def _cmd_hand(self, interaction: discord.Interaction, args: dict[str, Any]) -> None:
        """The private way to play: the same picture and buttons as the DM."""
        await self._defer(interaction, ephemeral=True)
        table_id = await self._table_id(interaction, args.get("table"))
        info = await self._run(interaction, self.service.hand(self._cause(interaction),
                                                              table_id))
        table = await self.service.table_info(table_id)
        seat = table.seats[info.seat]
        png = await asyncio.to_thread(hand_image, info.view)
        text, ui = private_message(
            info.view, table_id=table_id, hand=info.hand_number, step=info.step,
            names=table.names, locale=interaction.locale, deadline=info.deadline,
            choices=seat.choices if seat else None, away=bool(seat and seat.away))
        await self._say(interaction, text, file=hand_file(table_id, info.seat, png), view=ui)

    async def _cmd_table(self, interaction: discord.Interaction, args: dict[str, Any]) -> None:
        await self._defer(interaction, ephemeral=False)
        table_id = await self._table_id(interaction, args.get("table"))
        info = await self.service.table_info(table_id)
        if info.status != "playing":
            await self._say(interaction, t("reply.table.none", interaction.locale,
                                           table=table_id))
            return
        view = (await self.service.table_picture(table_id)).view
        png = await asyncio.to_thread(table_image, view, info.names)
        caption = table_caption(view, table_id=table_id, names=info.names,
                                locale=self._public(interaction))
        await self._say(interaction, caption, ephemeral=False,
                        file=discord.File(io.BytesIO(png), filename=f"table-{table_id}.png"))

    async def _cmd_leaderboard(self, interaction: discord.Interaction, args: dict[str, Any]
                               ) -> None:
        await self._defer(interaction, ephemeral=False)
        rows = await self.service.leaderboard(interaction.channel_id or 0)
        locale = self._public(interaction)
        png = await asyncio.to_thread(board_png, rows, locale)
        await self._say(interaction, leaderboard_text(rows, locale), ephemeral=False,
                        file=discord.File(io.BytesIO(png), filename="leaderboard.png"),
                        allowed_mentions=discord.AllowedMentions.none())

    async def _cmd_rules(self, interaction: discord.Interaction, args: dict[str, Any]) -> None:
        rules, options = args.get("rules"), None
        if rules is None:
            try:
                table_id = await self._table_id(interaction, args.get("table"))
                info = await self.service.table_info(table_id)
                rules, options = info.rules, info.options
            except Refused:
                rules = DEFAULT.name
        await self._say(interaction, rules_summary(rules, options, interaction.locale))

    async def _cmd_score(self, interaction: discord.Interaction, args: dict[str, Any]) -> None:
        """With a hand or a case: the calculator. Alone: the match totals here."""
        if args.get("hand") or args.get("case"):
            await self._say(interaction, score_reply(args, self._public(interaction)),
                            ephemeral=False)
            return
        try:
            table_id = await self._table_id(interaction, args.get("table"))
        except Refused:
            await self._say(interaction, t("reply.score.no_table", interaction.locale))
            return
        info = await self.service.table_info(table_id)
        totals = info.totals or (0, 0, 0, 0)
        await self._say(interaction, score_text(
            table_id, info.names, totals, info.hands_played, info.hands_in_match
            or int(info.options.get("hands", 8)), self._public(interaction)), ephemeral=False,
            allowed_mentions=discord.AllowedMentions.none())

    async def _cmd_history(self, interaction: discord.Interaction, args: dict[str, Any]
                           ) -> None:
        """The last finished hand in the channel's words, and its wall and salt (public
        by then); the whole hand as a text file when it does not fit a message."""
        table_id = await self._table_id(interaction, args.get("table"))
        history = await self.service.hand_history(table_id)
        locale = self._public(interaction)
        if history is None:
            await self._say(interaction, t("reply.history.empty", locale), ephemeral=False)
            return
        told = history_text(history, locale)
        extra: dict[str, Any] = {}
        if told.whole is not None:
            extra["file"] = discord.File(io.BytesIO(told.whole.encode("utf-8")),
                                         filename=told.filename)
        await self._say(interaction, told.content, ephemeral=False,
                        allowed_mentions=discord.AllowedMentions.none(), **extra)

    # ------------------------------------------------------------------ components

    async def on_move(self, interaction: discord.Interaction, table_id: int, hand: int,
                      seq: int, choice: MoveCode, seat: int | None = None) -> None:
        await self._guarded(interaction, lambda: self._play(
            interaction, table_id, hand, seq, choice.action, seat))

    async def on_discard(self, interaction: discord.Interaction, table_id: int, hand: int,
                         seq: int, tile: Tile, seat: int | None = None) -> None:
        await self._guarded(interaction, lambda: self._play(
            interaction, table_id, hand, seq,
            lambda seat: Action(ActionKind.DISCARD, seat, tile), seat))

    async def _play(self, interaction: discord.Interaction, table_id: int, hand: int,
                    seq: int, make: Callable[[int], Action], owner: int | None) -> None:
        """Check the seat, play, then take the buttons off the message clicked (the
        next decision arrives as a new DM). ``owner``: the seat the button was made for
        (the move is made for it, so the service refuses anyone else's press as not
        theirs); None for an id from before it was carried: the presser's seat."""
        info = await self.service.table_info(table_id)
        seat = _seat_of(info, interaction.user.id)
        if seat is None:
            if owner is not None:
                raise Refused(E.NOT_YOURS, "that button is for another player; you do not "
                                           "sit at this table", seat=owner + 1,
                              name=info.names[owner])
            raise Refused(E.NOT_SEATED, "you do not sit at this table")
        action = make(seat if owner is None else owner)
        await self._run(interaction, self.service.act(
            self._cause(interaction), table_id, action, step=seq, hand_number=hand))
        message = interaction.message
        before = message.content if message is not None else ""
        self.bot.notifier.clicked(table_id, seat, message.id if message is not None else None)
        content = clip(f"{before}\n✓ " + t("reply.move_taken", interaction.locale,
                                             move=move_text(action, interaction.locale)),
                       MAX_CONTENT)
        if interaction.response.is_done():
            with contextlib.suppress(discord.HTTPException):
                await interaction.edit_original_response(content=content, view=None)
            return
        await interaction.response.edit_message(content=content, view=None)

    async def on_lobby(self, interaction: discord.Interaction, table_id: int,
                       what: LobbyWhat) -> None:
        await self._guarded(interaction, lambda: self._lobby(interaction, table_id, what))

    async def _lobby(self, interaction: discord.Interaction, table_id: int,
                     what: LobbyWhat) -> None:
        """The lobby message is edited by the notifier; the click itself is only
        acknowledged (a refusal is said privately)."""
        cause = self._cause(interaction)
        calls = {
            "join": lambda: self.service.join(cause, table_id),
            "leave": lambda: self.service.leave(cause, table_id),
            "addbot": lambda: self.service.add_computer(cause, table_id),
            "start": lambda: self.service.start(cause, table_id),
        }
        await self._run(interaction, calls[what]())
        if not interaction.response.is_done():
            await interaction.response.defer()

    async def on_preference(self, interaction: discord.Interaction, table_id: int,
                            name: Preference, on: bool) -> None:
        await self._guarded(interaction, lambda: self._preference(
            interaction, table_id, name, on))

    async def _preference(self, interaction: discord.Interaction, table_id: int,
                          name: Preference, on: bool) -> None:
        await self._run(interaction, self.service.set_choice(
            self._cause(interaction), table_id, name, on))
        label = t(f"btn.pref.{name}", interaction.locale)
        if on:
            label = t("btn.pref.on", interaction.locale, label=label)
        await self._say(interaction, t("reply.pref_saved", interaction.locale, label=label))

    async def on_back(self, interaction: discord.Interaction, table_id: int) -> None:
        async def body() -> None:
            await self._run(interaction, self.service.back(self._cause(interaction), table_id))
            await self._say(interaction, t("reply.back", interaction.locale))

        await self._guarded(interaction, body)

    # ------------------------------------------------------------------ shutdown

    async def close(self, timeout: float = 10.0) -> None:
        """Refuse new work; let the calls in flight finish (under their table locks)."""
        self.closing = True
        if self.inflight:
            await asyncio.wait(set(self.inflight), timeout=timeout)


_MOVE_KEYS = {ActionKind.WIN: "btn.win", ActionKind.PASS: "btn.pass",
              ActionKind.DISCARD: "btn.discard", ActionKind.CHI: "btn.chi",
              ActionKind.PONG: "btn.pong", ActionKind.KONG: "btn.kong",
              ActionKind.ADDED_KONG: "btn.added_kong",
              ActionKind.CONCEALED_KONG: "btn.concealed_kong"}


def move_text(action: Action, locale: LocaleLike) -> str:
    """The move just played, as its button said it ("打 Discard 5m")."""
    tiles = (action.tile,) if action.tile is not None else action.tiles
    return t(_MOVE_KEYS[action.kind], locale, tiles=" ".join(x.notation for x in tiles))


def _seat_of(info: TableInfo, user_id: int) -> int | None:
    for seat in info.seats:
        if seat is not None and not seat.is_computer and seat.user_id == user_id:
            return seat.seat
    return None
