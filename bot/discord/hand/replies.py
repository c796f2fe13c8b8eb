"""`LiveReplies`: `/mahjong hand`'s private replies, kept showing the seat's hand.

An interaction's token lets the bot edit its reply for 15 minutes. For that long (less
a margin, `FOLLOWS_FOR`) a seat's newest `/mahjong hand` reply follows the game as its
DM does: each private notice of the seat redraws it with the newer state and the
buttons of the decision in front of it, so a player whose DMs are closed plays a run of
decisions in one reply, and nobody is shown a decision that has passed. After that the
reply stays as it was last drawn (a press on it is refused as passed; its text says
until when it follows).

- One reply follows a seat: a newer `/mahjong hand` takes the buttons off the older.
- An edit waits for the seat's queue (`Outbox`), and an unsent redraw is replaced by a
  newer one, as a DM is; it waits, too, for the answer to a click on the reply
  (`clicking`), which edits the reply itself and must not overwrite a newer state.
- The echo of a move played on the reply that leaves its person nothing to decide is
  not drawn again: the click's answer showed it.
- A seat its person left (the computer plays it) stops its reply, buttons off.
- A cancelled table stops its replies: each loses its buttons and says so (`cancelled`).
- Each reply is kept in the memory with its interaction's token
  (`PresenterMemory.swap_hand_reply`), so a restart does not end it: the first
  delivery of the seat's DM after the start (which reads the table's memory) takes it
  up again (`_adopt`) for what is left of its time. A crash between a move and the
  reply's redraw leaves it showing the passed decision until the seat's next change
  (a press on it is refused as passed), as it may leave a closed-DMs player's mention
  unsent.
- Shared mode (several processes on one database, each drawing the moves it made):
  each seat's reply is also kept in the memory (`PresenterMemory.swap_hand_reply`,
  with its interaction's token), so the process that made a move redraws the reply
  wherever it was asked. Its jobs then run in the seat's DM queue, where the DM
  delivery reads the memory again first (`SharedTables.fresh`; `delivered`), and a redraw
  lands only over an older state (`PresenterMemory.advance_hand_reply`, asked before
  the edit). The echo of a move its person played on another process than the reply's
  (no delivery reads the memory for it) is redrawn from the memory as last read there:
  a reply made since then shows that decision until the seat's next change (a press on
  it is refused as passed).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import discord

from bot.discord.core.i18n import LocaleLike, lang, t
from bot.discord.core.items import ComposedView
from bot.discord.core.pictures import Pictures
from bot.discord.core.words import MAX_CONTENT, clip, timestamp
from bot.discord.delivery.memory import PresenterMemory
from bot.discord.delivery.outbox import Outbox
from bot.discord.delivery.retry import Gate, Superseded
from bot.discord.delivery.table_state import Tables
from bot.discord.play.dms import PreparedDm, hand_file, prepare_dm
from bot.service import PrivateNotice
from bot.store.presenter_memory import HandReplyRow
from engine.game.events import Event
from engine.rules.common import SEATS

log = logging.getLogger(__name__)

FOLLOWS_FOR = 14 * 60.0
"""Seconds after the command that its reply follows the game: Discord's 15 minutes of
an interaction's token, less a margin for a slow edit."""
GONE = (401, 404)
"""An edit's answers that mean the reply cannot be edited again: its token no longer
valid, or the message dismissed by its reader."""
CLICK_WAIT = 5.0
"""Seconds a redraw waits at most for the answer to a click on the reply."""

Key = tuple[int, int]
"""(table, seat)"""


def order(hand: int, seq: int) -> int:
    """A state's place in the table's play: later is larger."""
    return (hand << 32) + seq


@dataclass
class Reply:
    """A seat's newest `/mahjong hand` reply."""

    user_id: int
    locale: LocaleLike
    shows: int
    """The `order` of the state it shows."""
    until: float
    """`time.monotonic()` after which it is not edited any more."""
    expires_at: float
    """The same moment in Unix time (its text says it)."""
    webhook: discord.Webhook | None = None
    message_id: int | None = None
    """None until the reply went out."""
    token: str = ""
    """Its interaction's token (shared mode keeps it for the other processes)."""
    clicks: int = 0
    """Clicks on it being answered now (`LiveReplies.clicking`)."""
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    """Set while no click on it is being answered."""

    def __post_init__(self) -> None:
        self.answered.set()


def follow_line(expires_at: float, locale: LocaleLike) -> str:
    return t("reply.hand.follows", locale, until=timestamp(expires_at, "t"))


WebhookOf = Callable[[str], discord.Webhook]
"""The webhook of an interaction's token (shared mode: a reply another process made)."""


class LiveReplies:
    def __init__(self, outbox: Outbox, pictures: Pictures, tables: Tables | None = None,
                 webhook_of: WebhookOf | None = None) -> None:
        """``tables`` (with its memory) and ``webhook_of``: each reply is kept in the
        memory, so that a restart (and in shared mode, every process) follows it on;
        without them replies live in this object alone."""
        self.outbox = outbox
        self.pictures = pictures
        self.tables = tables
        self.kept = tables is not None and webhook_of is not None
        self.webhook_of = webhook_of
        self.gate = Gate()
        """The replies' edits wait out Discord's passing failures (retry.py): a gate
        of their own, interactions' webhooks failing and recovering apart from the
        bot's other calls (Discord's incidents mostly spare them)."""
        self._replies: dict[Key, Reply] = {}
        self._by_message: dict[int, Reply] = {}
        """The same replies by their message, once sent (a click names its message)."""
        self._pending: dict[Key, tuple[PrivateNotice, tuple[Event, ...]]] = {}
        """The unsent redraw of each seat's reply, with the news of every notice it
        replaced."""
        self._seen: dict[Key, int] = {}
        """The `order` of the seat's newest notice (a reply of an older state, made
        while the notice went by, is behind from its start)."""

    # -- the command ------------------------------------------------------------

    def expect(self, table_id: int, seat: int, user_id: int, hand: int, seq: int,
               locale: LocaleLike) -> Reply | None:
        """A `/mahjong hand` reply of the state (``hand``, ``seq``) is being made; from
        now on the seat's notices are kept for it. None when replies do not follow
        (`FOLLOWS_FOR` is 0)."""
        if FOLLOWS_FOR <= 0:
            return None
        reply = Reply(user_id, locale, order(hand, seq), time.monotonic() + FOLLOWS_FOR,
                      time.time() + FOLLOWS_FOR)
        key = (table_id, seat)
        older = self._replies.get(key)
        if older is not None:  # kept: the memory's swap hands it back (`_keep`)
            self._stop(key, older, buttons_off=not self.kept)
        self._replies[key] = reply
        return reply

    def _queue(self, key: Key) -> Hashable:
        """The `Outbox` queue of a seat's reply: its own (shared mode: `SharedReplies`)."""
        return ("reply", *key)

    def sent(self, table_id: int, seat: int, reply: Reply, webhook: discord.Webhook,
             message_id: int) -> None:
        """The reply went out: a notice that came meanwhile is drawn in it now; one
        that went by before it was expected takes its buttons off (its state is not
        kept here), as does a newer reply asked meanwhile."""
        key = (table_id, seat)
        reply.webhook, reply.message_id, reply.token = webhook, message_id, webhook.token or ""
        queue = self._queue(key)
        if self._replies.get(key) is not reply:
            self.outbox.put(queue, partial(self._buttons_off, key, reply))
            return
        self._by_message[message_id] = reply
        if self.kept:
            self.outbox.put(queue, partial(self._keep, key, reply))
        if key in self._pending:
            self.outbox.put(queue, partial(self._redraw, key))
        elif self._seen.get(key, -1) > reply.shows:
            self.outbox.put(queue, partial(self._buttons_off, key, reply))

    @contextlib.asynccontextmanager
    async def clicking(self, message_id: int | None) -> AsyncIterator[None]:
        """Around the answer to a click on ``message_id``: when it is a live reply,
        its redraws wait for the answer, which edits the reply itself."""
        reply = self._by_message.get(message_id) if message_id is not None else None
        if reply is None:
            yield
            return
        reply.clicks += 1
        reply.answered.clear()
        try:
            yield
        finally:
            reply.clicks -= 1
            if not reply.clicks:
                reply.answered.set()

    def follows(self, table_id: int, seat: int, user_id: int) -> bool:
        """Whether ``user_id``'s `/mahjong hand` reply follows the seat's game now (it
        shows their decisions: nobody need mention them), made here or, as the memory
        last said, by another process or before a restart."""
        reply = self._replies.get((table_id, seat))
        if reply is not None and reply.user_id == user_id \
                and time.monotonic() < reply.until:
            return True
        if self.tables is None:
            return False
        kept = self.tables.get(table_id).hand_replies.get(seat)
        return kept is not None and kept.user_id == user_id and time.time() < kept.until

    # -- the notifier ------------------------------------------------------------

    def private(self, notice: PrivateNotice) -> None:
        """Queue the redraw of the seat's reply (or fold the notice into the one
        queued)."""
        key = (notice.ref.table_id, notice.seat)
        shows = order(notice.hand_number, notice.seq)
        self._seen[key] = max(shows, self._seen.get(key, -1))
        reply = self._replies.get(key)
        if reply is None:  # shared mode: another process's reply, maybe (`delivered`)
            if self._echo_elsewhere(key, notice):
                self._hold(key, notice, self._redraw_kept)
            return
        if shows <= reply.shows:
            return
        if notice.user_id != reply.user_id or time.monotonic() >= reply.until:
            self._stop(key, reply, buttons_off=notice.user_id != reply.user_id)
            return
        cause = notice.cause
        if notice.step is None and cause is not None and cause.message_id is not None \
                and cause.message_id == reply.message_id:
            # played on the reply, nothing more to decide: the click's answer shows it
            # (an older redraw queued would overwrite that answer with a passed decision)
            reply.shows = shows
            self._pending.pop(key, None)
            self._answered_on(key, reply, shows)
            return
        if reply.message_id is None:
            self._hold(key, notice, None)  # drawn once it went out (`sent`)
        else:
            self._hold(key, notice, self._redraw)

    def _answered_on(self, key: Key, reply: Reply, shows: int) -> None:
        """A move was played on this process's reply (shared mode: `SharedReplies`)."""

    def _echo_elsewhere(self, key: Key, notice: PrivateNotice) -> bool:
        """Whether a notice of a seat this process follows no reply of is drawn in
        another process's reply (shared mode: `SharedReplies`)."""
        return False

    def delivered(self, key: Key, notice: PrivateNotice, news: tuple[Event, ...]) -> None:
        """The seat's DM delivery read the memory (`DmPresenter`, in the seat's queue;
        one process: once a table after a start). A reply the memory keeps for the seat
        that this process does not follow is redrawn after it: in shared mode one
        another process made, looked up there rather than at the notice (the memory as
        it is now, without a query or a job for each notice of every seat); with one
        process, one made before a restart, followed again from now on (`_adopt`)."""
        if not self.kept or self.tables is None or key in self._replies:
            return
        stored = self.tables.get(key[0]).hand_replies
        if key[1] not in stored:
            return
        self._found_kept(key, stored, notice, news)

    def _found_kept(self, key: Key, stored: dict[int, HandReplyRow], notice: PrivateNotice,
                    news: tuple[Event, ...]) -> None:
        """The memory keeps a reply for the seat that this process does not follow: one
        process, one made before a restart (`_adopt`; shared mode: `SharedReplies`)."""
        self._adopt(key, stored.pop(key[1]), notice, news)

    def _adopt(self, key: Key, kept: HandReplyRow, notice: PrivateNotice,
               news: tuple[Event, ...]) -> None:
        """One process: the seat's reply kept from before a restart follows the game
        again for what is left of its time, as if asked here, and shows ``notice``."""
        left = kept.until - time.time()
        if left <= 0 or kept.user_id != notice.user_id or self.webhook_of is None:
            return
        reply = Reply(kept.user_id, notice.locale, kept.order, time.monotonic() + left,
                      kept.until, self.webhook_of(kept.token), kept.message_id, kept.token)
        self._replies[key] = reply
        self._by_message[kept.message_id] = reply
        if order(notice.hand_number, notice.seq) > reply.shows:
            self._pending[key] = (notice, news)  # the delivery's: its news merged already
            self.outbox.put(self._queue(key), partial(self._redraw, key))

    def _hold(self, key: Key, notice: PrivateNotice,
              draw: Callable[[Key], Awaitable[None]] | None) -> None:
        """Keep ``notice`` as the seat's next redraw (with the news of the one it
        replaces), and queue ``draw`` unless one is queued already."""
        queued = self._pending.get(key)
        news = (queued[1] if queued is not None else ()) + notice.news
        self._pending[key] = (notice, news)
        if queued is None and draw is not None:
            self.outbox.put(self._queue(key), partial(draw, key))

    def left(self, table_id: int, seat: int) -> None:
        """The seat's person left the match (the computer plays it): their reply's
        buttons go."""
        key = (table_id, seat)
        reply = self._replies.get(key)
        if reply is not None:  # kept: the memory hands it back (`_let_go`)
            self._stop(key, reply, buttons_off=not self.kept)
        if self.kept:
            self.outbox.put(self._queue(key), partial(self._let_go, key))

    def cancelled(self, table_id: int, seats: Iterable[int],
                  words: Callable[[int], str]) -> None:
        """The table was cancelled: the seats' replies follow no more; each, whoever
        made it (kept: the memory hands it back), loses its buttons and says ``words``
        (for the user it was made for)."""
        for seat in seats:
            key = (table_id, seat)
            reply = self._replies.get(key)
            if reply is not None:
                self._stop(key, reply, buttons_off=False)
            self._pending.pop(key, None)
            self.outbox.put(self._queue(key), partial(self._void, key, reply, words))

    async def _void(self, key: Key, reply: Reply | None, words: Callable[[int], str]
                    ) -> None:
        kept = await self._memory.swap_hand_reply(*key, None) if self.kept else None
        if reply is not None:
            await self._edit(key, reply, content=words(reply.user_id), view=None)
        if kept is not None and (reply is None or kept.message_id != reply.message_id):
            await self._edit_kept(kept, content=words(kept.user_id), view=None)

    def _stop(self, key: Key, reply: Reply, *, buttons_off: bool) -> None:
        """The reply follows no more: its time is up, a newer reply follows the seat,
        or the seat is someone else's now (``buttons_off``: the buttons go, in the
        seat's queue: after any redraw of it already running)."""
        del self._replies[key]
        self._pending.pop(key, None)
        if reply.message_id is not None:
            del self._by_message[reply.message_id]
            if buttons_off:
                self.outbox.put(self._queue(key), partial(self._buttons_off, key, reply))

    def forget(self, table_id: int) -> None:
        """The table is over: its replies follow no more."""
        for seat in range(SEATS):
            key = (table_id, seat)
            if key in self._replies:
                self._stop(key, self._replies[key], buttons_off=False)
            self._seen.pop(key, None)

    def busy(self, table_id: int) -> bool:
        """Whether a reply of the table still follows its seat, or waits for a redraw."""
        now = time.monotonic()
        return any((key := (table_id, seat)) in self._pending
                   or (key in self._replies and now < self._replies[key].until)
                   for seat in range(SEATS))

    def leave(self, table_id: int) -> None:
        """The table leaves this memory (idle: no reply of it follows any more, none
        waits): what is kept of its replies goes."""
        self.forget(table_id)

    # -- the edits -------------------------------------------------------------------

    async def _redraw(self, key: Key) -> None:
        reply = self._replies.get(key)
        if reply is None or reply.message_id is None:
            return  # a newer reply, not sent yet: `sent` queues its redraw
        pending = self._pending.pop(key, None)
        if pending is None:
            return
        if self._replaced(key, reply):  # by a reply another process made: that one
            self._stop(key, reply, buttons_off=False)  # (its swap took these buttons)
            self._pending[key] = pending
            await self._redraw_kept(key)
            return
        notice, news = pending
        shows = order(notice.hand_number, notice.seq)
        if shows <= reply.shows:
            return  # kept before this reply was asked
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(reply.answered.wait(), CLICK_WAIT)
        if self._replies.get(key) is not reply:
            return
        dm = await self._draw(key, notice, news, reply.locale)
        if self._replies.get(key) is not reply or shows <= reply.shows:
            return  # overtaken while it was drawn (a newer reply, a click's answer)
        assert reply.message_id is not None
        if not await self._may_draw(key, reply.message_id, shows):
            return  # another process drew a state as new, or a newer reply follows
        text = reply_text(dm.text, reply.expires_at, reply.locale)
        if await self._edit(key, reply, content=text, view=ComposedView(dm.components),
                            attachments=[hand_file(key[0], key[1], dm.png)]):
            reply.shows = shows

    async def _draw(self, key: Key, notice: PrivateNotice, news: tuple[Event, ...],
                    locale: LocaleLike | None) -> PreparedDm:
        """The reply's words, buttons and picture, made as a DM's are."""
        return await self.pictures.draw_hand(partial(
            prepare_dm, notice.viewing(), news, lang(locale), table_id=key[0],
            hand=notice.hand_number, step=notice.public_step, names=notice.names,
            deadline=notice.deadline, choices=notice.choices, away=notice.away,
            reminder=notice.reminder, next_discard=notice.next_discard,
            answers=notice.answers, bank=notice.bank))

    # -- shared mode: the memory's reply, whichever process made it ------------------

    @property
    def _memory(self) -> PresenterMemory:
        assert self.tables is not None
        return self.tables.memory

    async def _may_draw(self, key: Key, message_id: int, shows: int) -> bool:
        """Whether the reply may show the state ``shows`` (shared mode: `SharedReplies`)."""
        return True

    def _replaced(self, key: Key, reply: Reply) -> bool:
        """Whether another process made a later reply for the seat (shared mode:
        `SharedReplies`)."""
        return False

    async def _keep(self, key: Key, reply: Reply) -> None:
        """This process's reply went out: it follows the seat for every process (one
        process: after a restart too); the one it replaces (whichever process made it,
        before a restart or not) loses its buttons."""
        assert self.tables is not None and reply.message_id is not None
        old = await self._memory.swap_hand_reply(
            *key, reply.message_id, token=reply.token, user_id=reply.user_id,
            until=reply.expires_at, order=reply.shows)
        self._stored(key, reply)
        if old is not None and old.message_id != reply.message_id:
            await self._edit_kept(old, view=None)

    def _stored(self, key: Key, reply: Reply) -> None:
        """This process's reply is kept: one process keeps in `TableState.hand_replies`
        only the replies made before its start (shared mode: `SharedReplies`)."""
        assert self.tables is not None
        self.tables.get(key[0]).hand_replies.pop(key[1], None)

    async def _advance(self, key: Key, reply: Reply, shows: int) -> None:
        """A move played on this process's reply: the memory says it shows it."""
        if reply.message_id is not None:
            await self._memory.advance_hand_reply(*key, reply.message_id, shows)

    async def _let_go(self, key: Key) -> None:
        """The seat's person left: the reply kept for it, whoever made it, goes."""
        assert self.tables is not None
        self.tables.get(key[0]).hand_replies.pop(key[1], None)
        old = await self._memory.swap_hand_reply(*key, None)
        if old is not None:
            await self._edit_kept(old, view=None)

    async def _redraw_kept(self, key: Key) -> None:
        """Redraw the reply the memory keeps for the seat (made by another process),
        as its delivery read it just before (`SharedTables.fresh`, in the same queue)."""
        pending = self._pending.pop(key, None)
        if pending is None or key in self._replies or self.tables is None:
            return  # this process's own reply came meanwhile: `sent` draws it
        notice, news = pending
        kept = self.tables.get(key[0]).hand_replies.get(key[1])
        shows = order(notice.hand_number, notice.seq)
        if kept is None or kept.user_id != notice.user_id or shows <= kept.order or \
                time.time() >= kept.until:
            return
        cause = notice.cause
        if notice.step is None and cause is not None and cause.message_id == kept.message_id:
            return  # played on the reply: the click's answer shows it
        dm = await self._draw(key, notice, news, notice.locale)
        if not await self._memory.advance_hand_reply(*key, kept.message_id, shows):
            return
        await self._edit_kept(kept, content=reply_text(dm.text, kept.until, notice.locale),
                              view=ComposedView(dm.components),
                              attachments=[hand_file(key[0], key[1], dm.png)])

    async def _edit_kept(self, kept: HandReplyRow, **fields: Any) -> None:
        if self.webhook_of is None or time.time() >= kept.until:
            return
        webhook = self.webhook_of(kept.token)
        try:
            await self.gate.call(lambda: webhook.edit_message(kept.message_id, **fields),
                                 wanted=lambda: time.time() < kept.until,
                                 what="a /mahjong hand reply")
        except Superseded:
            return
        except discord.HTTPException as exc:
            log.info("a /mahjong hand reply was not edited (%s)", exc.status)

    async def _buttons_off(self, key: Key, reply: Reply) -> None:
        await self._edit(key, reply, view=None)

    async def _edit(self, key: Key, reply: Reply, **fields: Any) -> bool:
        if reply.webhook is None or reply.message_id is None or \
                time.monotonic() >= reply.until:
            return False
        webhook, message_id = reply.webhook, reply.message_id
        try:
            await self.gate.call(
                lambda: webhook.edit_message(message_id, **fields),
                wanted=lambda: time.monotonic() < reply.until, what="a /mahjong hand reply")
        except Superseded:
            return False
        except discord.HTTPException as exc:
            log.info("a /mahjong hand reply was not edited (%s)", exc.status)
            if exc.status in GONE and self._replies.get(key) is reply:
                self._stop(key, reply, buttons_off=False)  # dismissed, or its token
            return False
        return True


def reply_text(text: str, expires_at: float, locale: LocaleLike) -> str:
    """A reply's words: its DM's, then until when it follows the game."""
    line = follow_line(expires_at, locale)
    return clip(text, MAX_CONTENT - len(line) - 1) + "\n" + line


class SharedReplies(LiveReplies):
    """Shared mode: the memory's reply is the one that follows a seat, whichever process
    made it; each seat's reply is redrawn in the seat's DM queue (its deliveries read
    the memory first). Chosen once, where the presenter is made."""

    def __init__(self, outbox: Outbox, pictures: Pictures, tables: Tables,
                 webhook_of: WebhookOf) -> None:
        super().__init__(outbox, pictures, tables, webhook_of)
        self._tables = tables

    def _queue(self, key: Key) -> Hashable:
        return ("dm", *key)

    def _answered_on(self, key: Key, reply: Reply, shows: int) -> None:
        """No other process draws an older state over the answer."""
        self.outbox.put(self._queue(key), partial(self._advance, key, reply, shows))

    def _echo_elsewhere(self, key: Key, notice: PrivateNotice) -> bool:
        """The echo of a move its person played here (no DM delivery reads the memory
        for it) while the memory, as last read here, keeps a reply for the seat that
        another process made: the reply shows the passed decision, redrawn from what is
        known (a reply made since the last read is not, a replaced one refuses the
        redraw: `advance_hand_reply`)."""
        cause = notice.cause
        return notice.step is None and cause is not None and \
            cause.user_id == notice.user_id and \
            key[1] in self._tables.get(key[0]).hand_replies

    def _found_kept(self, key: Key, stored: dict[int, HandReplyRow], notice: PrivateNotice,
                    news: tuple[Event, ...]) -> None:
        """One another process made, looked up there rather than at the notice (the
        memory as it is now, without a query or a job for each notice of every seat)."""
        queued = key in self._pending
        self._pending[key] = (notice, news)  # the delivery's: its news merged already
        if not queued:
            self.outbox.put(self._queue(key), partial(self._redraw_kept, key))

    async def _may_draw(self, key: Key, message_id: int, shows: int) -> bool:
        return await self._memory.advance_hand_reply(*key, message_id, shows)

    def _replaced(self, key: Key, reply: Reply) -> bool:
        """Whether the memory, as the seat's delivery read it just before, keeps another
        reply for the seat (made later, on another process)."""
        kept = self._tables.get(key[0]).hand_replies.get(key[1])
        return kept is not None and kept.message_id != reply.message_id

    def _stored(self, key: Key, reply: Reply) -> None:
        assert reply.message_id is not None
        self._tables.get(key[0]).hand_replies[key[1]] = HandReplyRow(
            reply.message_id, reply.token, reply.user_id, reply.expires_at, reply.shows)
