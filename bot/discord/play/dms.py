"""`DmPresenter`: a seat's private notices as DMs with its hand picture and buttons.

Everything a DM shows comes with its `PrivateNotice`: the state to draw, the names, the
seat's standing choices and away flag, the person's language, the public news of the
change and the request behind it. Nothing is asked of the service.

- One DM queue per seat (`Outbox`): an unsent DM is replaced by a newer one (its
  buttons would be stale anyway), their news concatenated.
- The player whose own answer to a decision left them nothing to decide is not DMed
  its echo: the answer to the click already updated the message they clicked.
- A notice marked ``silent`` (the service decides: a claim offer with no win, a
  person in quiet hours) is sent with Discord's suppress-notifications flag; of
  merged notices, the newest (the one the DM shows) decides.
- A half-time reminder (``reminder``) is the DM again with its reminder line; one a
  newer notice overtook before it went out is not sent.
- A DM refused with 50007 marks the seat's DMs closed (remembered across restarts) and
  says so in the channel once, without a tile, and not when the refused DM asked to
  claim (that would tell who may claim). Closed DMs are tried again from the next hand.
- A DM's move buttons are taken off once a newer DM replaces it (a reminder too), or
  once its person answered the decision elsewhere (through `/mahjong hand`): one DM
  with live buttons per seat. In shared mode the seat's DM with buttons is kept in the
  memory and swapped (bot/discord/delivery/memory.py), so the buttons go whichever process
  posted the older DM; with one process the memory's is read once, after a start, so
  that a DM from before a restart loses its buttons too (`MoveDms`, move_dms.py, chosen
  once where the presenter is made).
- The step each DM with a decision shows is stored once it went out (any mode): after
  a crash the service DMs again the decisions whose DM never went out (``resent``
  notices; in shared mode one whose step the stored DM already shows is not sent).
- A cancelled table (`cancelled`, then `void`): no DM of it goes out any more, and the
  DM still showing a decision's buttons loses them and says who cancelled the table
  and where its wall is revealed (one sent while it was being cancelled too).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import discord

from bot import metrics
from bot.discord.core.i18n import Lang, LocaleLike, lang
from bot.discord.core.pictures import (
    Pictures,
    PlainState,
    events_of,
    plain_events,
    plain_record,
    plain_state,
    record_of,
    state_of,
)
from bot.discord.delivery.outbox import Outbox
from bot.discord.delivery.posting import Poster, memory_file
from bot.discord.delivery.retry import Superseded
from bot.discord.delivery.table_state import Tables, TableState, channel_queue
from bot.discord.play.choices import Answers, add_claim_answers, add_preferences, answers_text
from bot.discord.play.move_dms import MoveDms
from bot.discord.play.moves import move_view
from bot.discord.play.premoves import can_choose_next, next_items, next_options
from bot.discord.play.words import dm_closed_text, dm_text, warning_text
from bot.discord.table.words import describe_events
from bot.service import PrivateNotice, TableRef, WarningNotice
from bot.service.notices import NextDiscard, PlayedAhead
from bot.service.steps import public_step_of
from engine.game.events import Event
from engine.game.state import HandState
from engine.rules.common import SEATS, ActionKind
from engine.view import PlayerView, view
from render.hand import hand_image

log = logging.getLogger(__name__)

DM_CLOSED = 50007

Key = tuple[int, int]
"""(table, seat)"""
Voided = Callable[[int], str]
"""What a cancelled table's open decision DM says, for the user it is sent to."""


def hand_file(table_id: int, seat: int, png: bytes) -> discord.File:
    """The only picture that shows concealed tiles; its name says whose they are."""
    return memory_file(png, f"hand-{table_id}-{seat}.png")


def private_message(view: PlayerView, *, table_id: int, hand: int, step: int | None,
                    names: tuple[str, ...], locale: LocaleLike, deadline: float | None,
                    choices: Any = None, away: bool = False, reminder: bool = False,
                    happened: Sequence[str] = (), next_discard: NextDiscard | None = None,
                    played: PlayedAhead | None = None, answers: Answers | None = None,
                    bank: float | None = None) -> tuple[str, discord.ui.View]:
    """The text and components of a seat's DM or ``/mahjong hand`` reply (``step``:
    the public step its decision's buttons carry, None: nothing to decide: the "Next
    discard…" menu then, `bot.discord.play.premoves`, and the claims answered in
    advance, shown and offered to change: ``answers``, None: no such menu).
    ``next_discard``: the one chosen in advance; ``played``: the turn just played for
    the seat as chosen beforehand; ``bank``: the seat's time bank left (None: the table
    has none)."""
    idle = step is None and answers is not None
    answered = answers_text(answers, locale) if idle and answers else None
    text = dm_text(view, table_id=table_id, names=names, locale=locale, deadline=deadline,
                   reminder=reminder, happened=happened, next_discard=next_discard,
                   played=played, answered=answered, bank=bank)
    ui = move_view(view, table_id, hand, step, locale) if view.moves and step is not None \
        else discord.ui.View(timeout=None)
    if can_choose_next(view, step):
        for item in next_items(table_id, hand, view.seat,
                               next_options(view, next_discard, locale),
                               next_discard, locale, row=0):
            ui.add_item(item)
    if idle and answers is not None:
        add_claim_answers(ui, view, table_id, hand, answers, locale)
    if choices is not None:
        add_preferences(ui, table_id, choices, locale, away=away, ready=_ready(view))
    return text, ui


def _ready(view: PlayerView) -> bool:
    """The seat's hand waits on a tile the win button would accept (the engine's
    waits): with 13 tiles, or after one of the discards it is offered."""
    return bool(view.waits) or any(m.waits for m in view.moves
                                   if m.action.kind is ActionKind.DISCARD)


@dataclass(frozen=True)
class PreparedDm:
    """A seat's DM as it will be sent, made in the hands' picture process: its text,
    its components as Discord receives them, its picture, and what the presenter must
    know of the view it showed."""

    text: str
    components: list[dict[str, Any]]
    png: bytes
    has_moves: bool
    claim: bool
    """A decision to claim (a refused DM must not say so in the channel)."""


def prepare_dm(shown: PlayerView | Callable[[], PlayerView], news: Sequence[Event],
               lang: Lang, *, table_id: int, hand: int, step: int | None,
               names: tuple[str, ...], deadline: float | None, choices: Any, away: bool,
               reminder: bool = False, next_discard: NextDiscard | None = None,
               played: PlayedAhead | None = None, answers: Answers | None = None,
               bank: float | None = None) -> PreparedDm:
    """Off the event loop and off its GIL, in the hands' picture process
    (`Pictures.draw_hand`): the seat's view (its analysis and suggestion take a few ms),
    its picture, and the DM's words and components (the discard menu's entries, each
    with its notes, are most of a DM's composing). ``shown`` is the view, or the
    notice's `viewing` (the state, seat and hand: the view is made there); ``lang`` the
    reader's language (a locale does not pickle). `/mahjong hand` is composed here too:
    its advice is then worked out once, where its picture reads it. The state travels
    as its snapshot text (`bot.discord.core.pictures.job_bytes`)."""
    view = shown if isinstance(shown, PlayerView) else shown()
    happened = describe_events(news, names, view.seat, lang, hand, view.table.caishen)
    text, ui = private_message(view, table_id=table_id, hand=hand, step=step, names=names,
                               locale=lang, deadline=deadline, choices=choices, away=away,
                               reminder=reminder, happened=happened,
                               next_discard=next_discard, played=played, answers=answers,
                               bank=bank)
    return PreparedDm(text, ui.to_components(), hand_image(view, lang=lang), bool(view.moves),
                      view.table.phase in ("claim", "rob_kong") and bool(view.moves))


DmJob = tuple[PlainState | HandState, int, int, tuple[Any, ...], Lang, int, bool,
              tuple[str, ...], float | None, Any, bool, bool,
              NextDiscard | None, PlayedAhead | None, Answers, float | None]
"""A seat's DM as its job travels to the hands' picture process (`dm_job`)."""
ComposedDm = tuple[str, str, bytes, bool, bool]
"""A seat's DM as it comes back (`compose_dm`): its text, its components as JSON text,
its picture, whether it shows moves, whether it asks to claim."""


def dm_job(n: PrivateNotice, news: Sequence[Event], reader: Lang, plain: bool = True
           ) -> DmJob:
    """The notice's DM as plain values (`Pictures.draw_hand_job`): its state (its
    snapshot text, `plain_state`), its news (`plain_events`), its standing choices as
    their fields, whether it asks a decision (its public step is worked out there, ~20
    µs of the loop a DM in the bench); the rest is numbers and text already (what a
    player chose in advance travels as it is: rare). Not ``plain``: the same, its
    state, news and choices as they are (composed in a thread of this process)."""
    state, seat, hand = n.viewed()
    shown: PlainState | HandState = plain_state(state) if plain else state
    told = plain_events(news) if plain else tuple(news)
    choices = plain_record(n.choices) if plain else n.choices
    return (shown, seat, hand, told, reader, n.ref.table_id, n.step is not None, n.names,
            n.deadline, choices, n.away, n.reminder, n.next_discard, n.played, n.answers,
            n.bank)


def compose_dm(state: PlainState | HandState, seat: int, hand: int, news: tuple[Any, ...],
               reader: Lang, table_id: int, decides: bool, names: tuple[str, ...],
               deadline: float | None, choices: Any, away: bool,
               reminder: bool, next_discard: NextDiscard | None, played: PlayedAhead | None,
               answers: Answers, bank: float | None) -> ComposedDm:
    """`dm_job`'s DM, in the hands' picture process: `prepare_dm`, with its components
    as the JSON text its request carries (`Poster.dm_id`): read back as Discord's dicts
    and encoded again in the request, they took the event loop ~30 µs a DM."""
    shown = state_of(state)
    # the decision's public step (what its buttons carry) worked out here, not on the loop
    step = public_step_of(shown, seat) if decides else None
    dm = prepare_dm(view(shown, seat, hand), events_of(news), reader,
                    table_id=table_id, hand=hand, step=step, names=names, deadline=deadline,
                    choices=record_of(choices), away=away, reminder=reminder,
                    next_discard=next_discard, played=played, answers=answers, bank=bank)
    return (dm.text, json.dumps(dm.components, separators=(",", ":")), dm.png, dm.has_moves,
            dm.claim)


def _order(hand: int, step: int) -> int:
    """What the memory keeps of the step a DM shows (``dm_order``): later is larger."""
    return (hand << 32) + step


def _echo(notice: PrivateNotice, before: tuple[int, int | None] | None) -> bool:
    """The notice only echoes its person's own answer to the decision that was in front
    of them (``before``: the seat's previous (hand, step)): the answer to their click
    already updated the message they clicked. A notice they caused otherwise (the
    hand they started, say) is news to them."""
    cause = notice.cause
    return (notice.step is None and cause is not None and cause.user_id == notice.user_id
            and before is not None and before[0] == notice.hand_number
            and before[1] is not None)


class DmPresenter:
    def __init__(self, poster: Poster, tables: Tables, outbox: Outbox,
                 pictures: Pictures, move_dms: MoveDms) -> None:
        """``move_dms``: where each seat's DM with move buttons is known (move_dms.py:
        this process, or the shared memory)."""
        self.poster = poster
        self.pictures = pictures
        self.tables = tables
        self.memory = tables.memory
        self.outbox = outbox
        self.on_delivery: Callable[[Key, PrivateNotice, tuple[Event, ...]], None] | None \
            = None
        """Called in the seat's queue with each notice to deliver (its news merged) once
        the memory was read again, before anything is sent (`LiveReplies.delivered`)."""
        self.on_dm_sent: Callable[[int, int, int | None], None] | None = None
        """Called with (table, seat, interaction id of the cause) after each hand DM
        went out (benchmarks: the latency from a click to its DMs)."""
        self._pending: dict[Key, tuple[PrivateNotice, tuple[Event, ...]]] = {}
        """The unsent notice of each seat with the news of every notice it replaced."""
        self.move_dms = move_dms
        self.follows: Callable[[int, int, int], bool] | None = None
        """Whether a person's `/mahjong hand` reply follows a seat's game now
        (`LiveReplies.follows`)."""
        self._cancelled: dict[int, Voided] = {}
        """Cancelled tables → what their open decisions' DMs say now."""
        self._unsure: dict[Key, PrivateNotice] = {}
        """A seat's first notice since its table came (back) into memory, queued: whether
        it only echoes its person's answer is told once the memory was read (the seat's
        decision before it, `TableState.recalled_due`)."""

    def private(self, notice: PrivateNotice) -> None:
        """Queue the seat's DM (or fold the notice into the one already queued)."""
        key = (notice.ref.table_id, notice.seat)
        st = self.tables.get(key[0])
        before = st.due.get(notice.seat)
        # the table back in memory, maybe: the seat's decision before is its residue's
        unsure = before is None and not st.loaded
        st.due[notice.seat] = (notice.hand_number, notice.step)
        if notice.user_id is None:
            return
        self.poster.learn(notice.user_id, notice.locale)
        if not unsure and _echo(notice, before):
            self._pending.pop(key, None)  # an unsent older state is stale too
            self._unsure.pop(key, None)
            self._answered(key, notice)
            return
        queued = self._pending.get(key)
        news = (queued[1] if queued is not None else ()) + notice.news
        self._pending[key] = (notice, news)
        if queued is None:
            if unsure:
                self._unsure[key] = notice
            self.outbox.put(("dm", *key), lambda: self._deliver(key))

    async def _deliver(self, key: Key) -> None:
        pending = self._pending.pop(key, None)
        unsure = self._unsure.pop(key, None)
        if pending is None or key[0] in self._cancelled:
            return
        notice, news = pending
        assert notice.user_id is not None  # never queued otherwise
        st = await self.tables.fresh(notice.ref.table_id)
        if unsure is not None and _echo(unsure, st.recalled_due.get(key[1])):
            # it only echoed its person's answer, as `private` tells of a table in memory
            news = news[len(unsure.news):]
            assert unsure.cause is not None and unsure.user_id is not None
            spared = unsure.cause.message_id
            if not self.move_dms.answered_on(key, spared, st):
                await self._take_off(key, unsure.user_id, spared,
                                     _order(unsure.hand_number, unsure.seq))
            if notice is unsure:
                return
        if self.on_delivery is not None:
            self.on_delivery(key, notice, news)
        if st.dm_blocked(notice.seat, notice.hand_number):
            return
        if notice.resent and notice.step is not None \
                and st.dm_orders.get(notice.seat, -1) >= _order(notice.hand_number, notice.step):
            return  # owed after a crash, but another process has sent it since
        try:
            sent = await self._send(notice, notice.user_id, news)
        except Superseded:
            # never seen: its news go with the newer DM, if one is queued
            newer = self._pending.get(key)
            if newer is not None:
                self._pending[key] = (newer[0], news + newer[1])
            raise
        if sent and self.on_dm_sent is not None:
            cause = notice.cause.interaction_id if notice.cause is not None else None
            self.on_dm_sent(notice.ref.table_id, notice.seat, cause)

    def _wanted(self, key: Key, n: PrivateNotice) -> Callable[[], bool]:
        """Whether the DM of ``n`` is still to be sent while Discord fails: not once a
        newer DM of the seat is queued (it is sent instead, with this one's news), the
        seat's person answered elsewhere (their decision passed), or the table was
        cancelled."""
        due = self.tables.get(key[0]).due

        def wanted() -> bool:
            return key not in self._pending and key[0] not in self._cancelled \
                and due.get(key[1]) == (n.hand_number, n.step)

        return wanted

    async def _send(self, n: PrivateNotice, user_id: int, news: Sequence[Event]) -> bool:
        """DM the seat its hand; False when Discord refused it (handled here). ``news``:
        the public events since its last DM, worded in the reader's language."""
        ref, seat = n.ref, n.seat
        reader = lang(n.locale or self.poster.user_locale(user_id, ref))
        text, components, png, has_moves, claim = await self.pictures.draw_hand_job(
            compose_dm, partial(dm_job, n, news, reader))
        try:
            message = await self.poster.dm_id(
                user_id, content=text, file=hand_file(ref.table_id, seat, png),
                components=components, silent=n.silent,
                wanted=self._wanted((ref.table_id, seat), n))
        except discord.Forbidden as exc:
            metrics.delivery_failed("dm", str(exc.code or exc.status))
            if exc.code == DM_CLOSED:
                # Told now, the refusal of a DM asking to claim would tell who may claim.
                await self._closed(ref, seat, user_id, n.hand_number, say=not claim)
            else:
                log.warning("table %s: DM to seat %s forbidden (%s)", ref.table_id, seat,
                            exc.code)
            return False
        except discord.HTTPException as exc:
            metrics.delivery_failed("dm", str(exc.code or exc.status))
            log.warning("table %s: DM to seat %s failed: %s", ref.table_id, seat, exc.status)
            return False
        if ref.table_id in self._cancelled and has_moves:  # cancelled while it went
            await self._void_dm(user_id, message, self._cancelled[ref.table_id])
            return True
        order = None if n.step is None else _order(n.hand_number, n.step)
        await self._supersede((ref.table_id, seat), user_id,
                              message if has_moves else None, order=order,
                              shows=_order(n.hand_number, n.seq))
        await self._opened(ref, seat)
        return True

    async def _supersede(self, key: Key, user_id: int, buttons: int | None, *,
                         order: int | None, shows: int | None = None) -> None:
        """A DM's move buttons stop being offered once a newer DM replaces them (the
        click on them would be refused as stale anyway); a clicked DM lost them already.
        ``buttons``: the newer DM when it shows move buttons (None: it shows none, or
        there is no newer DM: the decision was answered elsewhere, `_take_off`).
        Shared mode: a DM of an older step than the stored one (another process sent the
        newer one first) comes back from the swap itself and loses its own buttons; a DM
        without a decision (``shows``: the state it shows) older than the stored
        decision takes nothing off it."""
        for message in await self.move_dms.replace(key, buttons, order=order, shows=shows):
            await self._buttons_off(user_id, message)

    async def _buttons_off(self, user_id: int, message: int) -> None:
        try:
            await self.poster.edit_dm(user_id, message, view=None)
        except discord.HTTPException as exc:
            log.info("an old DM kept its buttons (%s)", exc.status)

    def _answered(self, key: Key, notice: PrivateNotice) -> None:
        """The seat's person answered their decision themselves. The message they
        answered on loses its buttons with the answer; the seat's DM still showing them
        (the move was made through `/mahjong hand`) loses them now, or in slow play it
        would offer a move that has passed for hours. The DM this process knows is
        checked at once (most answers are clicks on it); in shared mode another
        process may have sent it, and the memory is asked in the seat's queue."""
        assert notice.cause is not None and notice.user_id is not None
        spared = notice.cause.message_id
        if self.move_dms.answered_on(key, spared, self.tables.get(key[0])):
            return
        self.outbox.put(("dm", *key), partial(self._take_off, key, notice.user_id, spared,
                                              _order(notice.hand_number, notice.seq)))

    async def _take_off(self, key: Key, user_id: int, spared: int | None, shows: int
                        ) -> None:
        """`_answered`'s edit, in the seat's DM queue: after the DMs queued before it,
        and before any newer one (which would take the buttons off itself)."""
        st = await self.tables.fresh(key[0])
        stored = self.move_dms.stored(key, st)
        if stored is not None and stored != spared:
            await self._supersede(key, user_id, None, order=None, shows=shows)

    def warning(self, notice: WarningNotice) -> None:
        """A quarter of the seat's time is left: a short DM (no picture, no buttons),
        after the seat's queued DMs; not for a cancelled table."""
        user_id = notice.user_id
        if user_id is None:
            return
        self.poster.learn(user_id, notice.locale)
        key = (notice.ref.table_id, notice.seat)
        self.outbox.put(("dm", *key), partial(self._warn, notice, user_id))

    async def _warn(self, n: WarningNotice, user_id: int) -> None:
        if n.ref.table_id in self._cancelled:
            return
        reader = lang(n.locale or self.poster.user_locale(user_id, n.ref))
        due = self.tables.get(n.ref.table_id).due
        seen = due.get(n.seat)
        try:
            await self.poster.dm(user_id, content=warning_text(n, reader), silent=n.silent,
                                 wanted=lambda: due.get(n.seat) == seen)
        except discord.HTTPException as exc:
            log.info("table %s: the warning DM to seat %s failed (%s)", n.ref.table_id,
                     n.seat, exc.status)

    def left(self, table_id: int, seat: int, user_id: int) -> None:
        """The seat's person left the match: their DM still showing move buttons loses
        them (the computer decides for the seat now), after their queued DMs."""
        key = (table_id, seat)
        self._pending.pop(key, None)
        self._unsure.pop(key, None)
        self.outbox.put(("dm", *key), partial(self._supersede, key, user_id, None,
                                              order=None))

    def cancelled(self, table_id: int, words: Voided) -> None:
        """The table was cancelled: none of its DMs goes out any more, and its open
        decisions' DMs will say ``words`` (`void`)."""
        self._cancelled[table_id] = words
        for seat in range(SEATS):
            self._pending.pop((table_id, seat), None)
            self._unsure.pop((table_id, seat), None)

    async def void(self, ref: TableRef, people: Mapping[int, int]) -> None:
        """The cancelled table's open decisions (``people``: seat → user id): each DM
        still showing move buttons loses them and says the table was cancelled (by whom,
        where the wall is revealed). Run before the table is forgotten. Shared mode: the
        memory hands each seat's DM to one process (the swap); one process: the DM this
        process knows, or after a restart the one the memory kept."""
        words = self._cancelled.get(ref.table_id)
        if words is None:
            return
        for seat, user_id in sorted(people.items()):
            message = await self.move_dms.void((ref.table_id, seat))
            if message is not None:
                await self._void_dm(user_id, message, words)

    async def _void_dm(self, user_id: int, message: int, words: Voided) -> None:
        try:
            await self.poster.edit_dm(user_id, message, content=words(user_id), view=None)
        except discord.HTTPException as exc:
            log.info("a cancelled table's DM kept its buttons (%s)", exc.status)

    def forget(self, table_id: int) -> None:
        """The table is over: its seats' DMs are not edited any more."""
        self.move_dms.forget(table_id)

    def busy(self, table_id: int) -> bool:
        """Whether a DM of the table waits to go."""
        return any((table_id, seat) in self._pending for seat in range(SEATS))

    def leave(self, table_id: int, st: TableState | None) -> dict[int, int] | None:
        """The table leaves this memory (idle, or over: none of its DMs waits): what is
        kept of it goes; each seat's DM with buttons, when known here (`MoveDms.leave`)."""
        self._cancelled.pop(table_id, None)
        return self.move_dms.leave(table_id, st)

    def clicked(self, table_id: int, seat: int, message_id: int | None) -> None:
        """The adapter took the buttons off ``message_id`` (a move was played on it)."""
        self.move_dms.clicked((table_id, seat), message_id)

    async def _closed(self, ref: TableRef, seat: int, user_id: int, hand: int,
                      say: bool = True) -> None:
        """Remember it (even after a restart) and tell the channel, once per hand (not
        when ``say`` is False: the seat's turns are mentioned from now on anyway)."""
        st = await self.tables.load(ref.table_id)
        known = seat in st.dm_closed
        if st.dm_closed.get(seat, -1) >= hand:
            return
        st.dm_closed[seat] = hand
        if not known:
            await self.memory.set_dm_closed(ref.table_id, seat, True)
        if not say or (self.follows is not None and self.follows(ref.table_id, seat, user_id)):
            return  # their `/mahjong hand` reply follows the game: they play there
        text = dm_closed_text(f"<@{user_id}>", self.poster.channel_locale(ref))
        self.outbox.put(channel_queue(ref.table_id), lambda: self._say(ref, text))

    async def _say(self, ref: TableRef, text: str) -> None:
        await self.poster.send(ref, content=text)

    async def _opened(self, ref: TableRef, seat: int) -> None:
        """A DM went through to a seat marked closed: its player opened them again."""
        st = await self.tables.load(ref.table_id)
        if st.dm_closed.pop(seat, None) is not None:
            await self.memory.set_dm_closed(ref.table_id, seat, False)
