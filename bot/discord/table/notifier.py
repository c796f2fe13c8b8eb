"""`DiscordNotifier`: the presenter of the service's notices as Discord messages.

It implements `bot.service.Notifier`: ``publish(notice)`` is its one entry, a ``match``
on the notice's type. Each notice holds everything it shows (seats and user ids, the
seat's choices, the person's language, the public news, the request behind it), so the
presenter never calls the service back; what it must remember itself (message ids,
closed DMs) goes through its `PresenterMemory`. It reads no store.

``publish`` runs inline under the table's lock, so it only records what to send and
queues it on the `Outbox` (per table channel, per seat's DMs): the move never waits
for Discord, and one slow or failing send never blocks or corrupts a table.

Here, the channel side; the DMs are `bot.discord.play.dms.DmPresenter`'s, the calls to
Discord `bot.discord.delivery.posting.Poster`'s.

- Channel mentions (one ping message per table, the previous one deleted): a turn when
  its player's DMs are closed, when half its time is gone, or every turn if the table's
  ``mentions`` option is ``every_turn``. A claim window never names its claimants: it
  mentions every seat with closed DMs but the discarder, claimant or not. A reminder
  whose decision was taken meanwhile (the seat's newer notices say so) is dropped.
- A `MoveNotice` marked ``silent`` makes its mention without notifying (Discord's
  suppress-notifications flag).
- A `DigestNotice` (someone's quiet hours ended with decisions waiting) is one DM to
  that person, which notifies (`bot.discord.turns.send_digest`).
- The table picture is one channel message, edited at most once per ``table_interval``
  (the newest state wins) and re-posted instead of edited when older than
  ``repost_after``.
- A missing channel permission (50013/50001) is reported once, by DM, to the creator.
- Shared mode (``shared``: other processes draw the same tables' changes): the message
  ids are read from the memory before each delivery, and a new message is swapped in,
  the one it replaces deleted (see bot/discord/delivery/memory.py): one lobby message, one
  picture, at most one mention, whichever process posted them. Which of the two is
  chosen once, here (`ChannelMessages`, bot/discord/delivery/channel.py).
- A table the service lets go idle (`unloaded`) leaves here too once nothing of it is
  being delivered (its picture's timer, DMs and replies queued, a reply still
  following): what the presenter keeps is bounded by the tables in use. What only it
  knew comes back with the table (`Tables.drop`, through the memory): its DMs lose
  their buttons, its pings go and its picture is redrawn as if it had stayed.
- Announcements (commitment, settlement, reveal, standings, match end, closed lobby)
  carry the store's `Receipt`: marked ``sending`` right before the send and
  ``delivered`` once Discord accepted it. Discord's send has no idempotency key, so one
  left ``sending`` by a crash is first looked for among the channel's recent messages
  (by its attachment's name, else its exact text) and sent again only if missing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

import discord

from bot.discord.core.i18n import LocaleLike, lang, t
from bot.discord.core.pictures import Pictures, table_job, table_picture
from bot.discord.core.words import amounts_text
from bot.discord.delivery.channel import ChannelMessages, KeptHere, Swapped
from bot.discord.delivery.memory import PresenterMemory
from bot.discord.delivery.outbox import Outbox
from bot.discord.delivery.posting import Poster, has_file, memory_file, same_text
from bot.discord.delivery.retry import Superseded, always
from bot.discord.delivery.table_state import SharedTables, Tables, TableState, channel_queue
from bot.discord.hand.replies import LiveReplies, SharedReplies
from bot.discord.leaderboard import board_png, leaderboard_text
from bot.discord.lobby.message import LobbySeat, lobby_embed, lobby_view
from bot.discord.play.dms import DmPresenter, hand_file, private_message
from bot.discord.play.move_dms import KnownHere, MoveDms, SwappedDms
from bot.discord.quiet import resting_lines, tell_creator
from bot.discord.seasons import recap_text
from bot.discord.table.words import (
    commitment_text,
    describe_events,
    how_paid_lines,
    reveal_text,
    settlement_text,
    table_caption,
    your_move_text,
)
from bot.discord.turns import send_digest
from bot.service import (
    AwayNotice,
    Cause,
    DigestNotice,
    HandStartNotice,
    LeaderboardNotice,
    LeaveNotice,
    LobbyNotice,
    MatchEndNotice,
    MoveNotice,
    Notice,
    PrivateNotice,
    RecapNotice,
    Receipt,
    RevealNotice,
    SeatInfo,
    SettlementNotice,
    TableNotice,
    TableRef,
    WarningNotice,
)
from engine.rules.common import number
from render.cards import settlement_card

__all__ = ["DiscordNotifier", "board_png", "hand_file", "private_message"]

log = logging.getLogger(__name__)


TABLE_QUEUES = ("chan", "dm", "reply")
"""The `Outbox` queues of a table: ("chan", table), ("dm", table, seat), ("reply", table,
seat)."""


def _table_of(notice: Notice) -> int | None:
    """The table a notice is about (None: a person's, not a table's)."""
    ref = getattr(notice, "ref", None)
    if ref is None:
        ref = getattr(getattr(notice, "table", None), "ref", None)
    return ref.table_id if isinstance(ref, TableRef) else None


def _people(seats: Sequence[SeatInfo | None]) -> dict[int, int]:
    """Seat → user id of the people (not computers) in a seats snapshot: whom a
    mention may name."""
    return {s.seat: s.user_id for s in seats
            if s is not None and s.user_id is not None and not s.is_computer}


class DiscordNotifier:
    """Implements `bot.service.Notifier` over a discord.py client."""

    def __init__(self, client: discord.Client, memory: PresenterMemory, *,
                 table_interval: float = 2.0, repost_after: float = 3600.0,
                 now: Callable[[], float] = time.time,
                 pictures: Pictures | None = None, shared: bool = False) -> None:
        self.client = client
        self.pictures = pictures or Pictures(0)
        self.memory = memory
        self.outbox = Outbox()
        self.table_interval = table_interval
        self.repost_after = repost_after
        self.now = now
        self.post = Poster(client, memory)
        # shared mode or one process: chosen here, once, for each part that differs
        self.tables = SharedTables(memory) if shared else Tables(memory)
        """What is known of each table; shared mode reads the memory before each delivery."""
        self.channel: ChannelMessages = Swapped(memory, self.post) if shared \
            else KeptHere(memory, self.post)
        """Where the lobby, picture and mention are remembered (delivery/channel.py)."""
        move_dms: MoveDms = SwappedDms(self.tables, memory) if shared \
            else KnownHere(self.tables, memory)
        self.dms = DmPresenter(self.post, self.tables, self.outbox, self.pictures, move_dms)
        self.replies = (SharedReplies if shared else LiveReplies)(
            self.outbox, self.pictures, self.tables, self._webhook)
        self.dms.on_delivery = self.replies.delivered
        self.dms.follows = self.replies.follows
        self._leaving: set[int] = set()
        """Tables the service let go (or over) that leave here once nothing of them is
        being delivered (`unloaded`)."""
        self.left = 0
        """Tables that left here (tests)."""

    def _webhook(self, token: str) -> discord.Webhook:
        """The webhook of an interaction's token (a reply another process made)."""
        assert self.client.application_id is not None
        return discord.Webhook.partial(self.client.application_id, token, client=self.client)

    # ------------------------------------------------------------------ the door

    async def publish(self, notice: Notice) -> None:
        if self._leaving:  # in use again
            self._leaving.discard(_table_of(notice))
        match notice:
            case LobbyNotice(cause=cause):
                self._learn(cause)
                if notice.what == "replaced" and notice.seat is not None:
                    self.replies.left(notice.table.ref.table_id, notice.seat)
                if notice.what == "cancelled":  # no DM of it any more; the open ones say so
                    self._cancelled(notice)
                self._chan(notice.table.ref, lambda: self._lobby(notice))
                if notice.receipt is not None:  # an edit (or re-post): twice is harmless
                    self._chan(notice.table.ref, notice.receipt.delivered)
            case HandStartNotice():
                self._chan(notice.ref, lambda: self._hand_started(notice))
            case TableNotice(cause=cause):
                self._learn(cause)
                self._table_changed(notice)
            case PrivateNotice():
                self.dms.private(notice)
                self.replies.private(notice)
            case MoveNotice():
                if self._may_ping(notice):
                    self._chan(notice.ref, lambda: self._ping(notice))
            case WarningNotice():
                self.dms.warning(notice)
            case AwayNotice():
                if notice.removed and notice.user_id is not None:  # left: the computer
                    # plays the seat; the person's open decision is no longer theirs
                    self.dms.left(notice.ref.table_id, notice.seat, notice.user_id)
                self._chan(notice.ref, lambda: self._away(notice))
            case SettlementNotice():
                last = self.tables.get(notice.ref.table_id).latest  # this hand's last table
                name = f"settlement-{notice.ref.table_id}-{notice.hand_number}.png"
                self._chan(notice.ref, lambda: self.post.once(
                    notice.ref, notice.receipt, has_file(name),
                    lambda nonce: self._settlement(notice, last, name, nonce)))
            case RevealNotice():
                text = reveal_text(notice.hand_number, notice.wall, notice.salt,
                                   self.channel_locale(notice.ref))
                self._announce(notice.ref, notice.receipt, text)
            case LeaderboardNotice():
                # the hand's number makes the file name, hence the announcement, unique
                name = f"leaderboard-{notice.ref.table_id}-{notice.hand_number}.png"
                self._chan(notice.ref, lambda: self.post.once(
                    notice.ref, notice.receipt, has_file(name),
                    lambda nonce: self._leaderboard(notice, name, nonce)))
            case MatchEndNotice():
                self._announce(notice.ref, notice.receipt, self._match_end_text(notice))
            case RecapNotice():  # a channel's week, carried by its last table
                self._announce(notice.ref, notice.receipt,
                               recap_text(notice, self.channel_locale(notice.ref)))
            case LeaveNotice():  # a player took leave: the table's creator is told once
                self.outbox.put(("leave", notice.creator_id),
                                lambda: tell_creator(self.post, notice))
            case DigestNotice():  # one person's, after their quiet hours
                self.outbox.put(("digest", notice.user_id),
                                lambda: send_digest(self.post, notice))

    def clicked(self, table_id: int, seat: int, message_id: int | None) -> None:
        """The adapter took the buttons off ``message_id`` (a move was played on it)."""
        self.dms.clicked(table_id, seat, message_id)

    def unloaded(self, table_ids: Iterable[int]) -> None:
        """The service let these tables go idle (`LiveTables.on_unload`, called at each
        look for idle tables, maybe with none): they leave here too, each once nothing
        of it is being delivered; those still busy are looked at again next time."""
        self._leaving.update(table_ids)
        if not self._leaving:
            return
        busy = {key[1] for key in self.outbox.busy_keys()
                if isinstance(key, tuple) and len(key) > 1 and key[0] in TABLE_QUEUES}
        for table_id in [i for i in self._leaving if i not in busy]:
            if self.tables.busy(table_id) or self.dms.busy(table_id) \
                    or self.replies.busy(table_id):
                continue
            self._leaving.discard(table_id)
            dms = self.dms.leave(table_id, self.tables.known(table_id))
            self.replies.leave(table_id)
            self.post.forget(table_id)
            self.tables.drop(table_id, dms)
            self.left += 1

    @property
    def on_dm_sent(self) -> Callable[[int, int, int | None], None] | None:
        """Called with (table, seat, interaction id of the cause) after each hand DM."""
        return self.dms.on_dm_sent

    @on_dm_sent.setter
    def on_dm_sent(self, callback: Callable[[int, int, int | None], None] | None) -> None:
        self.dms.on_dm_sent = callback

    def channel_locale(self, ref: TableRef) -> LocaleLike:
        return self.post.channel_locale(ref)

    # ------------------------------------------------------------------ helpers

    def _chan(self, ref: TableRef, job: Callable[[], Any]) -> None:
        self.outbox.put(channel_queue(ref.table_id), job)

    def _learn(self, cause: Cause | None) -> None:
        if cause is not None:
            self.post.learn(cause.user_id, cause.locale)

    def _announce(self, ref: TableRef, receipt: Receipt | None, text: str) -> None:
        """A text announcement, exactly once (found again by its text)."""
        self._chan(ref, lambda: self.post.once(ref, receipt, same_text(text), lambda nonce: (
            self.post.send(ref, content=text, nonce=nonce,
                           allowed_mentions=discord.AllowedMentions.none()))))

    # ------------------------------------------------------------------ lobby

    async def _lobby(self, notice: LobbyNotice) -> None:
        info = notice.table
        ref = info.ref
        st = await self.tables.fresh(ref.table_id)
        locale = self.channel_locale(ref)
        embed = lobby_embed(table_id=ref.table_id, rules=info.rules, options=info.options,
                            seats=[LobbySeat.of(s) for s in info.seats], locale=locale,
                            status=info.status, hand=info.hand_number,
                            hands=info.hands_in_match, pace=notice.pace)
        view = lobby_view(ref.table_id, locale, free_seats=len(info.empty_seats),
                          status=info.status)
        if st.lobby_message is None or not await self.post.edit(ref, st.lobby_message,
                                                                embed=embed, view=view):
            message = await self.post.send(ref, embed=embed, view=view)
            if message is not None:
                st.lobby_message = message.id
                await self.channel.keep(ref, "lobby", message.id)
        if info.status == "cancelled":  # the open decisions' DMs say so
            await self.dms.void(ref, _people(info.seats))
        if info.status in ("finished", "cancelled"):  # edited or posted anew alike
            await self._forget(ref)

    def _cancelled(self, notice: LobbyNotice) -> None:
        """The table was cancelled: what its players' open decisions (DMs and
        `/mahjong hand` replies) say instead, each in its reader's language."""
        ref = notice.table.ref

        def words(user_id: int) -> str:
            locale = self.post.user_locale(user_id, ref)
            if notice.by is None:
                return t("dm.cancelled_anon", locale, table=ref.table_id,
                         channel=ref.channel_id)
            return t("dm.cancelled", locale, table=ref.table_id, name=notice.by,
                     channel=ref.channel_id)

        self.dms.cancelled(ref.table_id, words)
        self.replies.cancelled(ref.table_id, _people(notice.table.seats), words)

    async def _forget(self, ref: TableRef) -> None:
        """The table is over: its last ping goes, and its state is dropped (the seats'
        DMs' too)."""
        st = self.tables.forget(ref.table_id)
        self.dms.forget(ref.table_id)
        self.replies.forget(ref.table_id)
        self.post.forget(ref.table_id)
        self._leaving.add(ref.table_id)  # what is left of it, once its queues are done
        await self.channel.forget(ref, st)

    # ------------------------------------------------------------------ the table

    async def _hand_started(self, n: HandStartNotice) -> None:
        locale = self.channel_locale(n.ref)
        text = t("chan.hand_start", locale, table=n.ref.table_id, hand=n.hand_number,
                 hands=n.hands_in_match, name=n.names[n.dealer],
                 dice=f"{n.dice[0]}+{n.dice[1]}") + "\n" + commitment_text(n.commitment, locale)
        await self.post.once(n.ref, n.receipt, same_text(text),
                             lambda nonce: self.post.send(n.ref, content=text, nonce=nonce))

    def _table_changed(self, notice: TableNotice) -> None:
        """Coalesced: the newest notice is drawn at most once per ``table_interval``."""
        st = self.tables.get(notice.ref.table_id)
        st.latest = notice
        if st.scheduled:
            return
        st.scheduled = True
        delay = max(0.0, st.last_edit + self.table_interval - time.monotonic())
        loop = asyncio.get_running_loop()
        loop.call_later(delay, self._chan, notice.ref, lambda: self._table(notice.ref))

    async def _table(self, ref: TableRef, notice: TableNotice | None = None, *,
                     always: bool = False) -> None:
        """Draw ``notice`` (by default the newest, for the coalescing timer) unless it
        is already the one shown. While Discord fails the coalescing timer's drawing
        gives way to a newer state; one drawn ``always`` (the settlement's) does not."""
        st = await self.tables.load(ref.table_id)
        newest = notice is None and not always
        if notice is None:
            st.scheduled = False
            notice = st.latest
        if notice is None or notice is st.shown:
            return
        if not notice.events and st.shows(notice):
            # Nothing public changed (a claim answered, the window still open): an edit
            # would let the channel count the answers, and so the claimants.
            return
        shown, st.shown = st.shown, notice
        st.last_edit = time.monotonic()
        try:
            await self._draw_table(ref, st, notice, newest)
        except Superseded:
            st.shown = shown  # a newer state is queued: it is drawn instead
            raise
        st.shown_digest = None

    async def _draw_table(self, ref: TableRef, st: TableState, notice: TableNotice,
                          newest: bool) -> None:
        """The picture of ``notice`` edited in (or posted anew). While Discord fails it
        is tried again until a newer state comes (``newest``: the coalescing timer's,
        then dropped; the settlement's own is always drawn)."""
        wanted = (lambda: st.latest is notice) if newest else always
        view = notice.view()
        png = await self.pictures.draw_job(table_picture,
                                           partial(table_job, *notice.viewed(), notice.names))
        locale = self.channel_locale(ref)
        caption = table_caption(
            view, table_id=ref.table_id, names=notice.names, locale=locale,
            happened=tuple(describe_events(notice.events, notice.names, None, locale,
                                           notice.hand_number, view.caishen)),
            mention={s: f"<@{u}>" for s, u in _people(notice.seats).items()})
        if notice.resting:  # beside a resting person's seat: until when, nothing more
            caption = "\n".join([caption, *resting_lines(notice.resting, notice.names,
                                                          locale)])
        picture = memory_file(png, f"table-{ref.table_id}.png")
        await self.tables.fresh(ref.table_id)  # shared mode: the picture as it is now
        fresh = self.now() - st.table_posted < self.repost_after
        if st.table_message is not None and fresh and await self.post.edit_picture(
                ref, st.table_message, content=caption, picture=picture, wanted=wanted):
            return
        picture.reset()
        message = await self.post.send(ref, content=caption, file=picture, wanted=wanted,
                                       allowed_mentions=discord.AllowedMentions.none())
        if message is not None:
            old, st.table_message, st.table_posted = st.table_message, message.id, self.now()
            await self.channel.keep(ref, "table", message.id, old=old,
                                    posted_at=st.table_posted)

    async def _away(self, notice: AwayNotice) -> None:
        key = "chan.away" if notice.away else "chan.back"
        if notice.removed:  # away_leaves: the timeouts made the player leave (逃跑)
            key = "chan.removed_penalty" if notice.penalty else "chan.removed"
        locale = self.channel_locale(notice.ref)
        if notice.by_choice:  # they left themselves (confirmed): who, and what it cost
            key = "chan.left" if not notice.penalty else \
                "chan.left_penalty_to" if notice.receiver else "chan.left_penalty"
        await self.post.send(notice.ref, content=t(
            key, locale, name=notice.name, points=number(notice.penalty),
            table=notice.ref.table_id, receiver=notice.receiver or "",
            rules=t(f"rules.{notice.rules}", locale) if notice.rules else ""),
            allowed_mentions=discord.AllowedMentions.none())

    # ------------------------------------------------------------------ mentions

    def _may_ping(self, n: MoveNotice) -> bool:
        """Whether `_ping` may mention anyone; False only where it surely would not, told
        without waiting (every move's notice otherwise took a turn of the channel's
        queue, a job with its task and slot, to find there was nothing to say)."""
        if n.user_id is None:
            return False
        if n.move == "claim":
            return n.reminder and n.discarder is not None
        if n.reminder or n.mentions == "every_turn":
            return True
        st = self.tables.settled(n.ref.table_id)
        return st is None or n.seat in st.dm_closed

    async def _ping(self, n: MoveNotice) -> None:
        """A turn is mentioned in the channel when its player's DMs are closed (once a
        decision, and not while their `/mahjong hand` reply follows the game: they see
        it there), when half its time is gone (``reminder``), or on every turn if the
        table's ``mentions`` option says so. A claim is never mentioned for its
        claimant: that would tell the channel who may claim (`_claim_ping` instead, at
        half time)."""
        st = await self.tables.load(n.ref.table_id)
        if n.user_id is None:
            return
        if n.reminder and not st.is_due(n.seat, n.hand_number, n.step):
            return  # taken meanwhile: nothing to remind of
        if n.move == "claim":
            if n.reminder and n.discarder is not None:
                await self._claim_ping(n.ref, n.hand_number, n.step, n.discarder,
                                       _people(n.seats), reminder=True, silent=n.silent)
            return
        if not (n.reminder or n.mentions == "every_turn"):
            st = await self.tables.fresh(n.ref.table_id)  # closed DMs, as any process saw
            if n.seat not in st.dm_closed:
                return
        closed = n.seat in st.dm_closed  # else as last read: only its words depend on it
        decision = (n.seat, n.hand_number, n.step)
        if closed and n.mentions != "every_turn" and (
                self.replies.follows(n.ref.table_id, n.seat, n.user_id)
                or (n.reminder and decision in st.turn_pings)):
            return  # they see it in their reply, or were mentioned for it already
        st.turn_pings = {d for d in st.turn_pings if d[1] == n.hand_number} | {decision}
        seen = st.due.get(n.seat)

        def wanted() -> bool:  # not once the seat has a newer decision
            return st.due.get(n.seat) in (seen, (n.hand_number, n.step))

        text = your_move_text(f"<@{n.user_id}>", table_id=n.ref.table_id,
                              hand=n.hand_number, kind=n.move, deadline=n.deadline,
                              locale=self.channel_locale(n.ref), reminder=n.reminder,
                              closed_dms=closed)
        await self._post_ping(n.ref, st, text, silent=n.silent, wanted=wanted)

    async def _claim_ping(self, ref: TableRef, hand: int, step: int, discarder: int,
                          people: dict[int, int], reminder: bool = False,
                          silent: bool = False) -> None:
        """Half the time of a claim window gone (the first claimant's reminder still
        due), for the players whose DMs are closed: all of them but the discarder are
        mentioned, whether they may claim or not, so the mention tells nobody who may
        (that a window is open is public anyway); not one whose `/mahjong hand` reply
        follows the game (it shows them the window). A window is not mentioned when it
        opens: one opens at most discards, and a closed-DMs player would be mentioned
        dozens of times a hand for decisions that are mostly not theirs."""
        st = await self.tables.load(ref.table_id)
        if (hand, step, reminder) in st.claim_pings:
            return
        st.claim_pings = {k for k in st.claim_pings if k[0] == hand} | {(hand, step, reminder)}
        await self.tables.fresh(ref.table_id)  # closed DMs, as any process saw them
        closed = sorted(s for s in st.dm_closed if s != discarder and s in people
                        and not self.replies.follows(ref.table_id, s, people[s]))
        if not closed:
            return
        key = "chan.claim_closed_dms_reminder" if reminder else "chan.claim_closed_dms"
        text = t(key, self.channel_locale(ref), table=ref.table_id, hand=hand,
                 mentions=" ".join(f"<@{people[s]}>" for s in closed))
        seen = dict(st.due)

        def wanted() -> bool:  # while the window is open
            return st.due == seen or (hand, step) in st.due.values()

        await self._post_ping(ref, st, text, silent=silent, wanted=wanted)

    async def _post_ping(self, ref: TableRef, st: TableState, text: str, *,
                         silent: bool = False, wanted: Callable[[], bool] = always
                         ) -> None:
        """One ping message per table: the previous one is deleted, so the channel does
        not fill up with them. ``silent``: its mentions do not notify (the notice's
        `MoveNotice.silent`: Discord's suppress-notifications flag). While Discord fails
        it is tried again as long as ``wanted()`` (its decision still open)."""
        await self.channel.post_ping(ref, st, lambda: self.post.send(
            ref, content=text, silent=silent, wanted=wanted))

    async def _drop_ping(self, ref: TableRef, st: TableState) -> None:
        """The standing mention goes (the hand or the table is over)."""
        await self.channel.drop_ping(ref, st)

    # ------------------------------------------------------------------ the end of a hand

    async def _settlement(self, n: SettlementNotice, last: TableNotice | None,
                          name: str, nonce: str | None) -> discord.Message | None:
        await self._table(n.ref, last, always=True)  # the hand's final table first,
        # whatever the coalescing (the next hand may already have begun meanwhile)
        await self._drop_ping(n.ref, await self.tables.load(n.ref.table_id))  # nobody
        # is to move in this hand any more
        caishen = last.view().caishen if last is not None else n.caishen
        locale = self.channel_locale(n.ref)
        png = await self.pictures.draw(settlement_card, n.result, n.names, n.rules,
                                       caishen=caishen,
                                       how_paid=how_paid_lines(n.result, n.names, locale))
        text = settlement_text(n.result, n.names, n.hand_number, locale, n.totals,
                               caishen=caishen)
        return await self.post.send(n.ref, content=text, nonce=nonce,
                                    allowed_mentions=discord.AllowedMentions.none(),
                                    file=memory_file(png, name))

    async def _leaderboard(self, n: LeaderboardNotice, name: str, nonce: str | None
                           ) -> discord.Message | None:
        locale = self.channel_locale(n.ref)
        # the language, not the locale: a discord.Locale does not pickle to the picture
        # process
        ratings = dict(n.ratings)
        png = await self.pictures.draw(board_png, n.rows, lang(locale), None, ratings)
        return await self.post.send(n.ref, content=leaderboard_text(n.rows, locale,
                                                                    ratings=ratings),
                                    nonce=nonce,
                                    allowed_mentions=discord.AllowedMentions.none(),
                                    file=memory_file(png, name))

    def _match_end_text(self, n: MatchEndNotice) -> str:
        locale = self.channel_locale(n.ref)
        key = "chan.match_cancelled" if n.cancelled else "chan.match_ended"
        return t(key, locale, table=n.ref.table_id, hands=n.hands_played,
                 totals=amounts_text(n.names, n.totals, locale))
