"""`DiscordNotifier`: the service's notices as Discord messages.

Each notice method runs inline under the table's lock, so it only records what to send
and queues it on the `Outbox` (per table channel, per seat's DMs) — the move never
waits for Discord, and one slow or failing send never blocks or corrupts a table.

- Private notices become DMs with the hand picture (``hand-<table>-<seat>.png``), the
  text and only the legal moves as persistent components. An unsent DM for a seat is
  replaced by a newer one (its buttons would be stale anyway). A DM refused with 50007
  marks the seat ``dm_closed`` in the store and says so in the channel once, without a
  tile (not when the refused DM asked to claim: that would tell who may claim); that
  seat is not DMed again and plays through ``/mahjong hand``.
- Channel mentions (one ping message per table, the previous one deleted): a turn when
  its player's DMs are closed, when half its time is gone, or every turn if the table's
  ``mentions`` option is ``every_turn``. A claim window never names its claimants: it
  mentions every seat with closed DMs but the discarder, claimant or not.
- The table picture is one channel message, edited at most once per ``table_interval``
  (the newest state wins) and re-posted instead of edited when older than
  ``repost_after``.
- A missing channel permission (50013/50001) is reported once, by DM, to the creator.
- Announcements (commitment, settlement, reveal, standings, match end, closed lobby)
  carry the store's `Receipt`: marked ``sending`` right before the send and
  ``delivered`` once Discord accepted it. Discord's send has no idempotency key, so one
  left ``sending`` by a crash is first looked for among the channel's recent messages
  (by its attachment's name, else its exact text) and sent again only if missing.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.components import LobbySeat, add_preferences, lobby_embed, lobby_view, move_view
from bot.discord.i18n import LocaleLike, lang, t
from bot.discord.outbox import Outbox
from bot.discord.pictures import Pictures
from bot.discord.texts import (
    amounts_text,
    best_hand_text,
    commitment_text,
    describe_events,
    dm_closed_text,
    dm_text,
    full_options,
    how_paid_lines,
    leaderboard_text,
    reveal_text,
    settlement_text,
    table_caption,
    your_move_text,
)
from bot.service import (
    AwayNotice,
    Cause,
    HandStartNotice,
    LeaderboardNotice,
    LobbyNotice,
    MatchEndNotice,
    MoveNotice,
    Notice,
    PrivateNotice,
    Receipt,
    RevealNotice,
    SettlementNotice,
    TableNotice,
    TableRef,
)
from engine.game.events import ClaimWindowOpened, Event
from engine.rules.common import number
from engine.view import PlayerView
from render.cards import BoardWords, leaderboard_card, settlement_card
from render.cards import LeaderboardRow as BoardRow
from render.hand import hand_image
from render.table import table_image

if TYPE_CHECKING:
    from bot.service import TableService
    from bot.store import Store

log = logging.getLogger(__name__)

CAUSE: contextvars.ContextVar[tuple[int, int] | None] = contextvars.ContextVar(
    "mahjong_cause", default=None)
"""(interaction id, user id) of the click being handled, set by the handler. DMs queued
while it runs are tagged with it (latency from a click to its DMs can be measured), and
the clicking player is not DMed the mere echo of their own move: the answer to the
click already updated the message they clicked."""

DM_CLOSED = 50007
NO_PERMISSION = (50013, 50001)
RECENT = 100
"""How many of a channel's newest messages are searched for an announcement that a
crash left unsure (one history request)."""


def hand_file(table_id: int, seat: int, png: bytes) -> discord.File:
    """The only picture that shows concealed tiles; its name says whose they are."""
    return discord.File(io.BytesIO(png), filename=f"hand-{table_id}-{seat}.png")


def private_message(view: PlayerView, *, table_id: int, hand: int, step: int | None,
                    names: tuple[str, ...], locale: LocaleLike, deadline: float | None,
                    choices: Any = None, away: bool = False, reminder: bool = False,
                    happened: Sequence[str] = ()) -> tuple[str, discord.ui.View]:
    """The text and components of a seat's DM or ``/mahjong hand`` reply."""
    text = dm_text(view, table_id=table_id, names=names, locale=locale, deadline=deadline,
                   reminder=reminder, happened=happened)
    ui = move_view(view, table_id, hand, step, locale) if view.moves and step is not None \
        else discord.ui.View(timeout=None)
    if choices is not None:
        add_preferences(ui, table_id, choices, locale, away=away)
    return text, ui


def _lines(notice: TableNotice, locale: LocaleLike) -> tuple[str, ...]:
    """What just happened, for the caption, in the channel's language."""
    return tuple(describe_events(notice.events, notice.names, None, locale,
                                 notice.hand_number))


def board_png(rows: Sequence[Any], locale: LocaleLike) -> bytes:
    """The leaderboard card from the store's rows (best first, as given), every word
    in the reader's language."""
    words = BoardWords(t("board.name", locale), t("board.points", locale),
                       t("board.won", locale), t("board.matches", locale),
                       t("board.best", locale), t("reply.leaderboard.empty", locale))
    return leaderboard_card([BoardRow(i + 1, r.display_name, r.points, r.hands_won,
                                      r.matches_played, best_hand_text(r, locale))
                             for i, r in enumerate(rows)],
                            t("reply.leaderboard.title", locale), words)


def _view_and_picture(make_view: Callable[[], PlayerView]) -> tuple[PlayerView, bytes]:
    """Off the event loop: the seat's view (its analysis and suggestion take a few ms)
    and its picture. In a thread, not the picture process: a hand is quick to draw,
    and queueing hands behind table pictures in one process made DMs slower."""
    view = make_view()
    return view, hand_image(view)


@dataclass
class TableState:
    """The channel side of one table: its table picture's coalescing and its messages."""

    latest: TableNotice | None = None
    shown: TableNotice | None = None
    scheduled: bool = False
    last_edit: float = 0.0
    lobby_message: int | None = None
    table_message: int | None = None
    table_posted: float = 0.0
    loaded: bool = False
    dm_closed: dict[int, int] | None = None
    """Seats whose DMs Discord refused → the hand it happened in (0: before a restart)."""
    ping_message: int | None = None
    claim_pings: set[tuple[int, int, bool]] = field(default_factory=set)
    """(hand, step, reminder) of the claim windows already mentioned (`_claim_ping`)."""
    loading: asyncio.Lock = field(default_factory=asyncio.Lock)


class DiscordNotifier:
    """Implements `bot.service.Notifier` over a discord.py client."""

    def __init__(self, client: discord.Client, store: Store, *, table_interval: float = 2.0,
                 repost_after: float = 3600.0, now: Callable[[], float] = time.time,
                 pictures: Pictures | None = None) -> None:
        self.client = client
        self.pictures = pictures or Pictures(0)
        self.store = store
        self.service: TableService | None = None
        self.outbox = Outbox()
        self.table_interval = table_interval
        self.repost_after = repost_after
        self.now = now
        self.locales: dict[int, str] = {}
        """The last locale each user interacted in: their DMs speak it."""
        self._tables: dict[int, TableState] = {}
        self._private: dict[tuple[int, int], PrivateNotice] = {}
        self._dm_channels: dict[int, discord.abc.Messageable] = {}
        self.on_dm_sent: Callable[[int, int, int | None], None] | None = None
        """Called with (table, seat, cause) after each hand DM went out (benchmarks)."""
        self._causes: dict[tuple[int, int], int | None] = {}
        self._news: dict[tuple[int, int], list[Event]] = {}
        self._move_dms: dict[tuple[int, int], int] = {}
        """(table, seat) → the newest DM still showing move buttons."""

    # ------------------------------------------------------------------ helpers

    def _state(self, table_id: int) -> TableState:
        return self._tables.setdefault(table_id, TableState())

    def channel_locale(self, ref: TableRef) -> LocaleLike:
        guild = self.client.get_guild(ref.guild_id)
        return guild.preferred_locale if guild is not None else None

    def user_locale(self, user_id: int | None, ref: TableRef) -> LocaleLike:
        return self.locales.get(user_id or 0) or self.channel_locale(ref)

    def _chan(self, ref: TableRef, job: Callable[[], Any]) -> None:
        self.outbox.put(("chan", ref.table_id), job)

    async def _load(self, ref: TableRef) -> TableState:
        """Message ids (lobby, table picture, standing mention), closed DMs and the
        players' languages as the store remembers them (after a restart)."""
        st = self._state(ref.table_id)
        if st.loaded:
            return st
        # the channel's and each seat's queues run at once: none may go on before the
        # load has finished (a mention or a DM would miss what it remembers)
        async with st.loading:
            if st.loaded:
                return st
            row = await self.store.get_table(ref.table_id)
            if row is not None:
                st.lobby_message = st.lobby_message or row.lobby_message_id
                st.table_message = st.table_message or row.table_message_id
                st.table_posted = st.table_posted or (row.table_message_posted_at or 0.0)
                st.ping_message = st.ping_message or row.ping_message_id
            seats = await self.store.seats(ref.table_id)
            st.dm_closed = {s.seat: 0 for s in seats if s.dm_closed}
            users = [s.user_id for s in seats if s.user_id is not None]
            users += [row.creator_id] if row is not None else []
            for user, locale in (await self.store.user_locales(users)).items():
                self.locales.setdefault(user, locale)  # remembered from before a restart
            st.loaded = True
        return st

    @staticmethod
    def _dm_blocked(st: TableState, seat: int, hand: int) -> bool:
        """Closed DMs are tried again once a new hand starts, so a player who opened
        them meanwhile is written to again; within the hand they stay closed."""
        closed = st.dm_closed or {}
        if seat not in closed:
            return False
        if closed[seat] == 0:
            closed[seat] = hand  # known from the store only: closed as of this hand
        return closed[seat] >= hand

    async def _channel(self, ref: TableRef) -> discord.abc.Messageable | None:
        channel = self.client.get_channel(ref.channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(ref.channel_id)
            except discord.HTTPException:
                log.warning("table %s: channel %s is gone", ref.table_id, ref.channel_id)
                return None
        return channel  # type: ignore[return-value]  # a table's channel takes messages

    async def _send(self, ref: TableRef, **kwargs: Any) -> discord.Message | None:
        """A channel message; a missing permission is reported, never raised."""
        channel = await self._channel(ref)
        if channel is None:
            return None
        try:
            return await channel.send(**kwargs)
        except discord.Forbidden as exc:
            await self._permission_error(ref, exc)
        except discord.HTTPException as exc:
            log.warning("table %s: channel send failed: %s %s", ref.table_id, exc.status,
                        exc.code)
        return None

    async def _edit(self, ref: TableRef, message_id: int, **kwargs: Any) -> bool:
        """Edit a channel message; False when it is gone (post a new one instead)."""
        channel = await self._channel(ref)
        if channel is None or not hasattr(channel, "get_partial_message"):
            return False
        try:
            await channel.get_partial_message(message_id).edit(**kwargs)
            return True
        except discord.NotFound:
            return False
        except discord.Forbidden as exc:
            await self._permission_error(ref, exc)
            return True
        except discord.HTTPException as exc:
            log.warning("table %s: edit failed: %s %s", ref.table_id, exc.status, exc.code)
            return True

    async def _permission_error(self, ref: TableRef, exc: discord.Forbidden) -> None:
        """Say it once to whoever started the table (by DM), then stay quiet."""
        if exc.code not in NO_PERMISSION:
            log.warning("table %s: forbidden %s", ref.table_id, exc.code)
            return
        row = await self.store.get_table(ref.table_id)
        if row is None or row.permission_error_reported:
            return
        await self.store.set_permission_error_reported(ref.table_id, True)
        log.warning("table %s: missing permission in channel %s (%s)", ref.table_id,
                    ref.channel_id, exc.code)
        what = "Send Messages / Attach Files" if exc.code == 50013 else "View Channel"
        text = t("perm.missing", self.user_locale(row.creator_id, ref), table=ref.table_id,
                 channel=ref.channel_id, what=what)
        try:
            await self._dm(row.creator_id, content=text)
        except discord.HTTPException as exc:
            log.warning("table %s: the creator could not be told (%s)", ref.table_id,
                        exc.code)

    async def _dm(self, user_id: int, **kwargs: Any) -> discord.Message:
        """Send a DM (the DM channel is opened once per user); raises on failure."""
        channel = self._dm_channels.get(user_id)
        if channel is None:
            channel = await self.client.create_dm(discord.Object(user_id))
            self._dm_channels[user_id] = channel
        return await channel.send(**kwargs)

    # ------------------------------------------------------------------ the door

    async def publish(self, notice: Notice) -> None:
        match notice:
            case LobbyNotice():
                await self.lobby(notice)
            case HandStartNotice():
                await self.hand_started(notice)
            case TableNotice():
                await self.table(notice)
            case PrivateNotice():
                await self.private_hand(notice)
            case MoveNotice() if notice.reminder:
                await self.reminder(notice)
            case MoveNotice():
                await self.your_move(notice)
            case AwayNotice():
                await self.away(notice)
            case SettlementNotice():
                await self.settlement(notice)
            case RevealNotice():
                await self.reveal(notice)
            case LeaderboardNotice():
                await self.leaderboard(notice)
            case MatchEndNotice():
                await self.match_ended(notice)

    # ------------------------------------------------------------------ lobby

    async def lobby(self, notice: LobbyNotice) -> None:
        self._chan(notice.table.ref, lambda: self._lobby(notice))
        if notice.receipt is not None:  # an edit (or re-post): doing it twice is harmless
            self._chan(notice.table.ref, notice.receipt.delivered)

    async def _lobby(self, notice: LobbyNotice) -> None:
        info = notice.table
        ref = info.ref
        st = await self._load(ref)
        locale = self.channel_locale(ref)
        embed = lobby_embed(table_id=ref.table_id, rules=info.rules, options=info.options,
                            seats=[LobbySeat.of(s) for s in info.seats], locale=locale,
                            status=info.status, hand=info.hand_number,
                            hands=info.hands_in_match)
        view = lobby_view(ref.table_id, locale, free_seats=len(info.empty_seats),
                          status=info.status)
        if st.lobby_message is None or not await self._edit(ref, st.lobby_message,
                                                            embed=embed, view=view):
            message = await self._send(ref, embed=embed, view=view)
            if message is not None:
                st.lobby_message = message.id
                await self.store.set_lobby_message(ref.table_id, message.id)
        if info.status in ("finished", "cancelled"):  # edited or posted anew alike
            await self._forget(ref)

    async def _forget(self, ref: TableRef) -> None:
        """The table is over: its last ping goes, and its state is dropped."""
        st = self._tables.pop(ref.table_id, None)
        if st is not None:
            await self._drop_ping(ref, st)

    # ------------------------------------------------------------------ the table

    async def hand_started(self, notice: HandStartNotice) -> None:
        self._chan(notice.ref, lambda: self._hand_started(notice))

    async def _hand_started(self, n: HandStartNotice) -> None:
        locale = self.channel_locale(n.ref)
        text = t("chan.hand_start", locale, table=n.ref.table_id, hand=n.hand_number,
                 hands=n.hands_in_match, name=n.names[n.dealer],
                 dice=f"{n.dice[0]}+{n.dice[1]}") + "\n" + commitment_text(n.commitment, locale)
        await self._once(n.ref, n.receipt, _same_text(text),
                         lambda: self._send(n.ref, content=text))

    async def table(self, notice: TableNotice) -> None:
        """Coalesced: the newest notice is drawn at most once per ``table_interval``."""
        st = self._state(notice.ref.table_id)
        st.latest = notice
        for event in notice.events:
            if isinstance(event, ClaimWindowOpened):
                self._chan(notice.ref, partial(self._claim_ping, notice.ref,
                                               notice.hand_number, notice.seq + 1,
                                               event.from_seat))
        if st.scheduled:
            return
        st.scheduled = True
        delay = max(0.0, st.last_edit + self.table_interval - time.monotonic())
        loop = asyncio.get_running_loop()
        loop.call_later(delay, self._chan, notice.ref, lambda: self._table(notice.ref))

    async def _table(self, ref: TableRef, notice: TableNotice | None = None) -> None:
        """Draw ``notice`` (by default the newest, for the coalescing timer) unless it
        is already the one shown."""
        st = await self._load(ref)
        if notice is None:
            st.scheduled = False
            notice = st.latest
        if notice is None or notice is st.shown:
            return
        if not notice.events and st.shown is not None \
                and notice.hand_number == st.shown.hand_number \
                and notice.view() == st.shown.view():
            # Nothing public changed (a claim answered, the window still open): an edit
            # would let the channel count the answers, and so the claimants.
            return
        st.shown = notice
        st.last_edit = time.monotonic()
        view = notice.view()
        png = await self.pictures.draw(table_image, view, notice.names)
        locale = self.channel_locale(ref)
        mention = {s: f"<@{u}>" for s, u in (await self._users(ref.table_id)).items()}
        caption = table_caption(view, table_id=ref.table_id, names=notice.names,
                                locale=locale, happened=_lines(notice, locale),
                                mention=mention)
        picture = discord.File(io.BytesIO(png), filename=f"table-{ref.table_id}.png")
        fresh = self.now() - st.table_posted < self.repost_after
        if st.table_message is not None and fresh and await self._edit(
                ref, st.table_message, content=caption, attachments=[picture]):
            return
        picture.reset()
        message = await self._send(ref, content=caption, file=picture,
                                   allowed_mentions=discord.AllowedMentions.none())
        if message is not None:
            old, st.table_message, st.table_posted = st.table_message, message.id, self.now()
            await self.store.set_table_message(ref.table_id, message.id, st.table_posted)
            if old is not None:  # one live picture: the stale one goes
                await self._delete(ref, old)

    async def _seats(self, table_id: int) -> tuple[Any, ...]:
        """The service's SeatInfo of each seat (None: empty), or () if unknown."""
        if self.service is None:
            return ()
        try:
            return (await self.service.table_info(table_id)).seats
        except Exception:
            return ()

    async def _users(self, table_id: int) -> dict[int, int]:
        """Seat → user id of the people at a table (for mentions)."""
        return {s.seat: s.user_id for s in await self._seats(table_id)
                if s is not None and s.user_id is not None and not s.is_computer}

    async def away(self, notice: AwayNotice) -> None:
        key = "chan.away" if notice.away else "chan.back"
        if notice.removed:  # away_leaves: the timeouts made the player leave (逃跑)
            key = "chan.removed_penalty" if notice.penalty else "chan.removed"
        self._chan(notice.ref, lambda: self._send(
            notice.ref, content=t(key, self.channel_locale(notice.ref), name=notice.name,
                                  points=number(notice.penalty))))

    # ------------------------------------------------------------------ private

    async def private_hand(self, notice: PrivateNotice) -> None:
        if notice.user_id is None:
            return
        key = (notice.ref.table_id, notice.seat)
        cause = CAUSE.get()
        if notice.step is None and cause is not None and cause[1] == notice.user_id:
            self._private.pop(key, None)  # an unsent older state is stale too
            self._news.pop(key, None)
            return
        queued = key in self._private
        self._private[key] = notice
        latest = self._state(key[0]).latest  # the change this notice reports (told first)
        if latest is not None:
            self._news.setdefault(key, []).extend(latest.events)
        self._causes[key] = cause[0] if cause is not None else None
        if not queued:
            self.outbox.put(("dm", *key), lambda: self._private_hand(key))

    async def _private_hand(self, key: tuple[int, int]) -> None:
        notice = self._private.pop(key, None)
        cause = self._causes.pop(key, None)
        news = self._news.pop(key, [])
        if notice is None or notice.user_id is None:
            return
        st = await self._load(notice.ref)
        if self._dm_blocked(st, notice.seat, notice.hand_number):
            return
        sent = await self._send_hand(notice.ref, notice.seat, notice.user_id, notice.view,
                                     notice.hand_number, notice.step, notice.names,
                                     notice.deadline, news=news)
        if sent and self.on_dm_sent is not None:
            self.on_dm_sent(notice.ref.table_id, notice.seat, cause)

    async def _send_hand(self, ref: TableRef, seat: int, user_id: int,
                         make_view: Callable[[], PlayerView],
                         hand: int, step: int | None, names: tuple[str, ...],
                         deadline: float | None, reminder: bool = False,
                         news: Sequence[Event] = ()) -> bool:
        """DM a seat its hand; False when Discord refused it (handled here). ``news``:
        the public events since its last DM, worded in the reader's language."""
        locale = self.user_locale(user_id, ref)
        choices, away = await self._choices(ref.table_id, seat)
        view, png = await asyncio.to_thread(_view_and_picture, make_view)
        text, ui = private_message(view, table_id=ref.table_id, hand=hand, step=step,
                                   names=names, locale=locale, deadline=deadline,
                                   choices=choices, away=away, reminder=reminder,
                                   happened=describe_events(news, names, seat, locale,
                                                            hand))
        try:
            message = await self._dm(user_id, content=text,
                                     file=hand_file(ref.table_id, seat, png), view=ui)
        except discord.Forbidden as exc:
            if exc.code == DM_CLOSED:
                # Told now, the refusal of a DM asking to claim would tell who may claim.
                claim = view.table.phase in ("claim", "rob_kong") and bool(view.moves)
                await self._dm_closed(ref, seat, user_id, hand, say=not claim)
            else:
                log.warning("table %s: DM to seat %s forbidden (%s)", ref.table_id, seat,
                            exc.code)
            return False
        except discord.HTTPException as exc:
            log.warning("table %s: DM to seat %s failed: %s", ref.table_id, seat, exc.status)
            return False
        await self._supersede((ref.table_id, seat), message, has_moves=bool(view.moves))
        await self._dm_open(ref, seat)
        return True

    async def _supersede(self, key: tuple[int, int], message: discord.Message, *,
                         has_moves: bool) -> None:
        """A DM's move buttons stop being offered once a newer DM replaces them (the
        click on them would be refused as stale anyway); a clicked DM lost them already."""
        old = self._move_dms.pop(key, None)
        if has_moves:
            self._move_dms[key] = message.id
        if old is None or old == message.id:
            return
        try:
            dm = message.channel
            await dm.get_partial_message(old).edit(view=None)  # type: ignore[union-attr]  # a DM
        except discord.HTTPException as exc:
            log.info("an old DM kept its buttons (%s)", exc.status)

    def clicked(self, table_id: int, seat: int, message_id: int | None) -> None:
        """The handler took the buttons off ``message_id`` (a move was played on it)."""
        if self._move_dms.get((table_id, seat)) == message_id:
            del self._move_dms[(table_id, seat)]

    async def _choices(self, table_id: int, seat: int) -> tuple[Any, bool]:
        seats = await self._seats(table_id)
        if not seats or seats[seat] is None:
            return None, False
        return seats[seat].choices, seats[seat].away

    async def _dm_closed(self, ref: TableRef, seat: int, user_id: int, hand: int,
                         say: bool = True) -> None:
        """Remember it (even after a restart) and tell the channel, once per hand (not
        when ``say`` is False: the seat's turns are mentioned from now on anyway)."""
        st = await self._load(ref)
        if st.dm_closed is None:
            st.dm_closed = {}
        known = seat in st.dm_closed
        if st.dm_closed.get(seat, -1) >= hand:
            return
        st.dm_closed[seat] = hand
        if not known:
            await self.store.set_dm_closed(ref.table_id, seat, True)
        if not say:
            return
        text = dm_closed_text(f"<@{user_id}>", self.channel_locale(ref))
        self._chan(ref, lambda: self._send(ref, content=text))

    async def _dm_open(self, ref: TableRef, seat: int) -> None:
        """A DM went through to a seat marked closed: its player opened them again."""
        st = await self._load(ref)
        if st.dm_closed and st.dm_closed.pop(seat, None) is not None:
            await self.store.set_dm_closed(ref.table_id, seat, False)

    async def your_move(self, notice: MoveNotice) -> None:
        """The channel mention, once per decision (the service sends one per decision)."""
        if notice.user_id is not None:
            self._chan(notice.ref, lambda: self._ping(notice))

    async def _ping(self, n: MoveNotice) -> None:
        """A turn is mentioned in the channel when its player's DMs are closed, when
        half its time is gone (``reminder``), or on every turn if the table's
        ``mentions`` option says so. A claim is never mentioned for its claimant: that
        would tell the channel who may claim (`_claim_ping` instead)."""
        st = await self._load(n.ref)
        if n.move == "claim":
            return
        if not (n.reminder or n.seat in (st.dm_closed or {})
                or await self._every_turn(n.ref.table_id)):
            return
        if n.reminder and not await self._still_due(n):
            return  # played meanwhile: nothing to remind of
        text = your_move_text(f"<@{n.user_id}>", table_id=n.ref.table_id,
                              hand=n.hand_number, kind=n.move, deadline=n.deadline,
                              locale=self.channel_locale(n.ref), reminder=n.reminder)
        await self._post_ping(n.ref, st, text)

    async def _claim_ping(self, ref: TableRef, hand: int, step: int, discarder: int | None,
                          reminder: bool = False) -> None:
        """A claim window, for the players whose DMs are closed: all of them but the
        discarder are mentioned, whether they may claim or not, so the mention tells
        nobody who may (that a window is open is public anyway). Once when it opens,
        once more at half time (``discarder`` None: the seat whose turn it still is)."""
        st = await self._load(ref)
        if (hand, step, reminder) in st.claim_pings:
            return
        st.claim_pings = {k for k in st.claim_pings if k[0] == hand} | {(hand, step, reminder)}
        if discarder is None:
            if self.service is None:
                return
            view = (await self.service.table_picture(ref.table_id)).view
            if view.phase not in ("claim", "rob_kong"):
                return
            discarder = view.turn
        users = await self._users(ref.table_id)
        closed = sorted(s for s in (st.dm_closed or {}) if s != discarder and s in users)
        if not closed:
            return
        key = "chan.claim_closed_dms_reminder" if reminder else "chan.claim_closed_dms"
        text = t(key, self.channel_locale(ref), table=ref.table_id, hand=hand,
                 mentions=" ".join(f"<@{users[s]}>" for s in closed))
        await self._post_ping(ref, st, text)

    async def _still_due(self, n: MoveNotice) -> bool:
        """The decision ``n`` is about is still in front of its seat."""
        if self.service is None or n.user_id is None:
            return False
        try:
            return (await self.service.hand(Cause(n.user_id), n.ref.table_id)).step == n.step
        except Exception:
            return False

    async def _every_turn(self, table_id: int) -> bool:
        """The table's ``mentions`` option is "every_turn"."""
        if self.service is None:
            return False
        try:
            info = await self.service.table_info(table_id)
        except Exception:
            return False
        return full_options(info.rules, info.options).mentions == "every_turn"

    async def _post_ping(self, ref: TableRef, st: TableState, text: str) -> None:
        """One ping message per table: the previous one is deleted, so the channel does
        not fill up with them."""
        old, st.ping_message = st.ping_message, None
        if old is not None:
            await self._delete(ref, old)
        message = await self._send(ref, content=text)
        st.ping_message = message.id if message is not None else None
        await self._keep_ping(ref, old, st.ping_message)

    async def _drop_ping(self, ref: TableRef, st: TableState) -> None:
        """The standing mention goes (the hand or the table is over)."""
        old, st.ping_message = st.ping_message, None
        if old is not None:
            await self._delete(ref, old)
            await self._keep_ping(ref, old, None)

    async def _keep_ping(self, ref: TableRef, old: int | None, new: int | None) -> None:
        """The standing mention's id is kept in the store, so that after a restart it
        is still deleted when the next one is posted or the hand ends."""
        if new != old:
            await self.store.set_ping_message(ref.table_id, new)

    async def _delete(self, ref: TableRef, message_id: int) -> None:
        channel = await self._channel(ref)
        if channel is None or not hasattr(channel, "get_partial_message"):
            return
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException as exc:
            log.info("table %s: old message not deleted (%s)", ref.table_id, exc.status)

    async def reminder(self, notice: MoveNotice) -> None:
        if notice.user_id is None or self.service is None:
            return
        self.outbox.put(("dm", notice.ref.table_id, notice.seat),
                        lambda: self._reminder(notice))
        if notice.move == "claim":
            self._chan(notice.ref, lambda: self._claim_ping(
                notice.ref, notice.hand_number, notice.step, None, reminder=True))
        else:
            self._chan(notice.ref, lambda: self._ping(notice))

    async def _reminder(self, notice: MoveNotice) -> None:
        st = await self._load(notice.ref)
        assert self.service is not None and notice.user_id is not None
        if self._dm_blocked(st, notice.seat, notice.hand_number):
            return
        info = await self.service.hand(Cause(notice.user_id), notice.ref.table_id)
        if info.step != notice.step:
            return
        names = (await self.service.table_info(notice.ref.table_id)).names
        await self._send_hand(notice.ref, notice.seat, notice.user_id, lambda: info.view,
                              info.hand_number, info.step, names, info.deadline, reminder=True)

    # ------------------------------------------------------------------ the end of a hand

    async def settlement(self, notice: SettlementNotice) -> None:
        last = self._state(notice.ref.table_id).latest
        name = f"settlement-{notice.ref.table_id}-{notice.hand_number}.png"
        self._chan(notice.ref, lambda: self._once(
            notice.ref, notice.receipt, _has_file(name),
            lambda: self._settlement(notice, last, name)))

    async def _settlement(self, n: SettlementNotice, last: TableNotice | None,
                          name: str) -> discord.Message | None:
        await self._table(n.ref, last)  # the hand's final table first, whatever the
        # coalescing (the next hand may already have begun meanwhile)
        await self._drop_ping(n.ref, self._state(n.ref.table_id))  # nobody is to move
        # in this hand any more
        caishen = last.view().caishen if last is not None else n.caishen
        locale = self.channel_locale(n.ref)
        png = await self.pictures.draw(settlement_card, n.result, n.names, n.rules,
                                       caishen=caishen,
                                       how_paid=how_paid_lines(n.result, n.names, locale))
        text = settlement_text(n.result, n.names, n.hand_number, locale, n.totals)
        return await self._send(n.ref, content=text,
                                allowed_mentions=discord.AllowedMentions.none(),
                                file=discord.File(io.BytesIO(png), filename=name))

    async def reveal(self, notice: RevealNotice) -> None:
        text = reveal_text(notice.hand_number, notice.wall, notice.salt,
                           self.channel_locale(notice.ref))
        self._chan(notice.ref, lambda: self._once(
            notice.ref, notice.receipt, _same_text(text),
            lambda: self._send(notice.ref, content=text)))

    async def leaderboard(self, notice: LeaderboardNotice) -> None:
        # the hand's number makes the file name, hence the announcement, unique
        name = f"leaderboard-{notice.ref.table_id}-{notice.hand_number}.png"
        self._chan(notice.ref, lambda: self._once(
            notice.ref, notice.receipt, _has_file(name),
            lambda: self._leaderboard(notice, name)))

    async def _leaderboard(self, n: LeaderboardNotice, name: str) -> discord.Message | None:
        locale = self.channel_locale(n.ref)
        # the language, not the locale: a discord.Locale does not pickle to the picture
        # process
        png = await self.pictures.draw(board_png, n.rows, lang(locale))
        return await self._send(n.ref, content=leaderboard_text(n.rows, locale),
                                allowed_mentions=discord.AllowedMentions.none(),
                                file=discord.File(io.BytesIO(png), filename=name))

    async def match_ended(self, notice: MatchEndNotice) -> None:
        locale = self.channel_locale(notice.ref)
        key = "chan.match_cancelled" if notice.cancelled else "chan.match_ended"
        text = t(key, locale, table=notice.ref.table_id, hands=notice.hands_played,
                 totals=amounts_text(notice.names, notice.totals, locale))
        self._chan(notice.ref, lambda: self._once(
            notice.ref, notice.receipt, _same_text(text), lambda: self._send(
                notice.ref, content=text, allowed_mentions=discord.AllowedMentions.none())))

    # ------------------------------------------------------------------ exactly once

    async def _once(self, ref: TableRef, receipt: Receipt | None,
                    mark: Callable[[discord.Message], bool],
                    send: Callable[[], Awaitable[discord.Message | None]]) -> None:
        """Send an announcement so that it appears once, crash or not.

        The receipt is marked ``sending`` before the send and ``delivered`` after
        Discord accepted it. One a crash left ``sending`` (``unsure``) may be in the
        channel already: it is looked for there (``mark``) before it is sent again.
        A send Discord refused stays ``sending``, tried again at the next start."""
        if receipt is None:
            await send()
            return
        if receipt.unsure and await self._posted(ref, mark):
            await receipt.delivered()
            return
        await receipt.sending()
        if await send() is not None:
            await receipt.delivered()

    async def _posted(self, ref: TableRef, mark: Callable[[discord.Message], bool]) -> bool:
        """Whether one of the channel's newest messages is the bot's and ``mark``s."""
        channel = await self._channel(ref)
        me = self.client.user
        if channel is None or me is None or not hasattr(channel, "history"):
            return False
        try:
            async for message in channel.history(limit=RECENT):
                if message.author.id == me.id and mark(message):
                    return True
        except discord.HTTPException as exc:  # e.g. no Read Message History: send again
            log.warning("table %s: recent messages unreadable (%s %s)", ref.table_id,
                        exc.status, exc.code)
        return False


def _has_file(name: str) -> Callable[[discord.Message], bool]:
    return lambda message: any(a.filename == name for a in message.attachments)


def _same_text(text: str) -> Callable[[discord.Message], bool]:
    return lambda message: message.content.strip() == text.strip()
