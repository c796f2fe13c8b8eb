"""`TableService`: the door between the game and the outside world (DESIGN.md).

It takes commands (create, join, leave, computer players, start, act, cancel, standing
choices) and queries, keeps each live table in memory as the replay of its log, and
reports through a `Notifier`. It knows nothing of Discord: users, guilds and channels
are ints, and "is a server manager" is a flag the adapter passes in.

Every move takes the same path, whether a person clicked, a timer ran out or the
computer played: the table's lock → the engine validates on the in-memory state →
`Store.append_action` (compare-and-set on the next seq, with the next deadlines in the
same transaction) → the new state replaces the old → the notifier is told.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from bot.service import errors as E
from bot.service.cause import Cause
from bot.service.clock import Clock, SystemClock
from bot.service.errors import Refused
from bot.service.fairness import Deal, first_dealer, parse_wall, roll_dice, shuffle
from bot.service.live import LiveHand, LiveTable, Pending, auto_reason, empty_seats, step_of
from bot.service.notices import (
    Announcement,
    AwayNotice,
    HandStartNotice,
    LeaderboardNotice,
    LobbyNotice,
    MatchEndNotice,
    MoveKind,
    MoveNotice,
    Notice,
    PrivateNotice,
    Receipt,
    RevealNotice,
    SeatInfo,
    SettlementNotice,
    TableInfo,
    TableNotice,
    TableRef,
    public_events,
    public_lines,
)
from bot.service.notifier import Notifier
from bot.service.scheduler import Scheduler, Wake
from bot.store import (
    ActionSource,
    AlreadySeated,
    AnnouncementRow,
    AnnouncementStatus,
    HandRow,
    LeaderboardDelta,
    LeaderboardRow,
    NewAction,
    NewAnnouncement,
    NewDeadline,
    NotFound,
    SeatRow,
    SeatTaken,
    Settlement,
    StaleAction,
    StaleStatus,
    StandingChoices,
    Store,
    StoreError,
    TableRow,
    best_hand_key,
    is_rules,
    player_key,
)
from engine import rules as rulesets
from engine.ai import choose_action
from engine.game import (
    Action,
    ActionKind,
    Event,
    HandState,
    IllegalAction,
    Phase,
    apply,
    deciding_seats,
    new_hand,
    replay,
    timeout_action,
)
from engine.match import (
    HandOutcome,
    HandSetup,
    MatchState,
    finish_hand,
    new_match,
    start_hand,
)
from engine.match import leave as match_leave
from engine.rules.common import SEATS, OptionError, TableOptions
from engine.view import PlayerView, TableView, spectator_view, view, visible_deciding

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ActResult:
    """A move that landed: it is committed as action ``seq`` of hand ``hand_number``."""

    table_id: int
    hand_number: int
    seq: int
    hand_ended: bool
    match_ended: bool
    seat: int
    """The seat that moved."""


@dataclass(frozen=True)
class Seated:
    """Someone (a person or a computer) sat down: the table now, and the seat taken."""

    table: TableInfo
    seat: int


@dataclass(frozen=True)
class TablePicture:
    """The public picture's input: the table (names, hand) and the spectator view."""

    info: TableInfo
    view: TableView


@dataclass(frozen=True)
class HandInfo:
    """What `/mahjong hand` shows one player: their view and the decision in front of
    them (``step`` for the buttons, ``deadline`` when a timer runs)."""

    table_id: int
    seat: int
    hand_number: int
    view: PlayerView
    step: int | None
    deadline: float | None
    names: tuple[str, ...]
    choices: StandingChoices
    """The seat's standing choices now."""
    away: bool
    """The computer plays the seat until its person is back."""


@dataclass(frozen=True)
class HandHistory:
    """The last finished hand of a table, as the channel may read it: its public events
    in order (no draw, no dealt tiles: nothing private to a seat) and its revealed wall."""

    table_id: int
    number: int
    names: tuple[str, ...]
    events: tuple[Event, ...]
    wall: str
    salt: str


@dataclass(frozen=True)
class RecoveryReport:
    live_tables: int
    rebuilt: int
    deadlines: int
    deferred: int
    failed: tuple[int, ...] = ()


class TableService:
    """Commands and queries over tables; one lock per table; output via the notifier."""

    def __init__(self, store: Store, notifier: Notifier, *, clock: Clock | None = None,
                 computer_pause: float = 2.0, grace: float = 120.0,
                 notify_computer_hands: bool = False,
                 deal: Callable[[str, int], Deal] | None = None,
                 computer_name: ComputerNamer | None = None) -> None:
        """``computer_pause``: seconds a computer player waits before moving (so people
        can follow). ``grace``: after a restart, a person's deadlines that passed while
        the bot was down are moved this far into the future (the others by
        ``computer_pause``). ``notify_computer_hands``: also send
        private notices for computer seats (the offline demo shows them). ``deal``
        replaces the `secrets` shuffle (tests stack walls with it; never in the bot).
        ``computer_name`` names a computer seat when it sits down (the adapter's, in the
        server's language; see `ComputerNamer`)."""
        self.store = store
        self.notifier = notifier
        self.clock: Clock = clock or SystemClock()
        self.computer_pause = computer_pause
        self.grace = grace
        self.notify_computer_hands = notify_computer_hands
        self._deal = deal or (lambda rules, _dealer: shuffle(rulesets.get(rules).has_flowers))
        self.computer_name: ComputerNamer = computer_name or default_computer_name
        self.scheduler = Scheduler(self.clock, self._fire)
        self._tables: dict[int, LiveTable] = {}
        self._loading: dict[int, asyncio.Lock] = {}
        self._handed: set[int] = set()
        """Announcements handed to the notifier by this process and not yet delivered."""
        self._locales: dict[int, str] = {}
        """The language each person last used (as far as this process knows)."""

    # ------------------------------------------------------------------ lobby

    async def create_table(self, cause: Cause, *, guild_id: int, channel_id: int, rules: str,
                           options: Mapping[str, Any] | None = None,
                           sit: bool = True) -> TableInfo:
        """A new table in the channel's lobby, opened by ``cause``'s person, who sits in
        seat 1 unless ``sit`` is False. Options are validated by the rule set before
        anything is written; a channel holds one live table at a time."""
        await self.seen(cause)
        creator_id, creator_name = cause.user_id, cause.name
        try:
            ruleset = rulesets.get(rules)
            ruleset.options(options)
            stored = ruleset.name
            if not is_rules(stored):  # a rule set newer than the tables' CHECK
                raise OptionError(f"tables cannot hold rules {stored!r} yet")
        except OptionError as exc:
            raise Refused(E.BAD_OPTIONS, str(exc)) from None
        if await self.store.tables_in_channel(channel_id, live_only=True):
            raise Refused(E.CHANNEL_BUSY, "this channel already has a table; finish or "
                                          "cancel it first")
        now = self.clock.now()
        row = await self.store.create_table(
            guild_id=guild_id, channel_id=channel_id, creator_id=creator_id,
            rules=stored, at=now, options=dict(options or {}))
        live = LiveTable(row, empty_seats())
        if sit:
            live.set_seat(await self.store.sit(row.id, 0, user_id=creator_id,
                                               display_name=creator_name, at=now))
        self._tables[row.id] = live
        info = self._info(live)
        await self._publish(LobbyNotice(info, "created", 0 if sit else None))
        return info

    async def join(self, cause: Cause, table_id: int, seat: int | None = None) -> Seated:
        """Sit down in the lobby (the first empty seat unless one is named), under
        ``cause.name``."""
        await self.seen(cause)
        user_id, name = cause.user_id, cause.name
        live = await self._live(table_id)
        async with live.lock:
            self._need_lobby(live)
            if live.seat_of(user_id) is not None:
                raise Refused(E.ALREADY_SEATED, "you already sit at this table")
            seat = self._free_seat(live, seat)
            try:
                row = await self.store.sit(table_id, seat, user_id=user_id, display_name=name,
                                           at=self.clock.now())
            except SeatTaken:
                raise Refused(E.SEAT_TAKEN, f"seat {seat + 1} is taken",
                              seat=seat + 1) from None
            except AlreadySeated:
                raise Refused(E.ALREADY_SEATED, "you already sit at this table") from None
            live.set_seat(row)
            info = self._info(live)
        await self._publish(LobbyNotice(info, "joined", seat))
        return Seated(info, seat)

    async def add_computer(self, cause: Cause, table_id: int, seat: int | None = None
                           ) -> Seated:
        """Seat a computer player (asked by someone seated, the creator or a manager)."""
        await self.seen(cause)
        live = await self._live(table_id)
        async with live.lock:
            self._need_lobby(live)
            self._need_member(live, cause)
            seat = self._free_seat(live, seat)
            try:
                row = await self.store.sit_computer(
                    table_id, seat, at=self.clock.now(),
                    display_name=self.computer_name(live.ref, seat, None))
            except SeatTaken:
                raise Refused(E.SEAT_TAKEN, f"seat {seat + 1} is taken",
                              seat=seat + 1) from None
            live.set_seat(row)
            info = self._info(live)
        await self._publish(LobbyNotice(info, "computer_added", seat))
        return Seated(info, seat)

    async def remove_computer(self, cause: Cause, table_id: int, seat: int) -> TableInfo:
        await self.seen(cause)
        live = await self._live(table_id)
        async with live.lock:
            self._need_lobby(live)
            self._need_member(live, cause)
            row = live.seats[seat] if 0 <= seat < SEATS else None
            if row is None or not row.is_computer:
                raise Refused(E.NOT_A_COMPUTER, f"seat {seat + 1} is not a computer player",
                              seat=seat + 1)
            await self.store.leave(table_id, seat)
            live.seats[seat] = None
            info = self._info(live)
        await self._publish(LobbyNotice(info, "computer_removed", seat))
        return info

    async def leave(self, cause: Cause, table_id: int) -> TableInfo:
        """Leave a table: in the lobby the seat empties; during a match the computer
        takes the seat over (Hangzhou charges the 逃跑 penalty if a hand is running)."""
        await self.seen(cause)
        live = await self._live(table_id)
        async with live.lock:
            seat = self._need_seat(live, cause.user_id)
            if live.row.status == "lobby":
                await self.store.leave(table_id, seat)
                live.seats[seat] = None
                what = "left"
            else:
                await self._replace_by_computer(live, seat)
                what = "replaced"
            info = self._info(live)
        await self._publish(LobbyNotice(info, what, seat))
        return info

    async def start(self, cause: Cause, table_id: int) -> TableInfo:
        """Start the match (the creator or a manager), with every seat filled."""
        await self.seen(cause)
        live = await self._live(table_id)
        async with live.lock:
            self._need_lobby(live)
            if cause.user_id != live.row.creator_id and not cause.is_manager:
                raise Refused(E.NOT_ALLOWED, "only the table's creator or a server manager "
                                             "can start it")
            empty = [i + 1 for i, s in enumerate(live.seats) if s is None]
            if empty:
                raise Refused(E.EMPTY_SEATS, f"seat(s) {', '.join(map(str, empty))} are empty: "
                                             "wait for players or add computer players",
                              seats=tuple(empty))
            try:
                live.row = await self.store.set_table_status(table_id, "playing",
                                                             expected="lobby")
            except StaleStatus:
                raise Refused(E.NOT_IN_LOBBY, "the table has already started") from None
            dealer = first_dealer()
            match_row = await self.store.create_match(table_id, first_dealer=dealer,
                                                      at=self.clock.now())
            live.match_id = match_row.id
            live.match = new_match(live.row.rules, self._options(live.row), dealer,
                                   self._computers(live))
            await self._start_hand(live)  # tells the lobby, with the hand's number
            return self._info(live)

    async def cancel(self, cause: Cause, table_id: int) -> TableInfo:
        """Cancel a table (its creator or a server manager): the running hand is void
        (no settlement) and its wall revealed; the match is recorded as abandoned."""
        await self.seen(cause)
        live = await self._live(table_id)
        async with live.lock:
            if cause.user_id != live.row.creator_id and not cause.is_manager:
                raise Refused(E.NOT_ALLOWED, "only the table's creator or a server manager "
                                             "can cancel it")
            try:
                live.row = await self.store.cancel_table(
                    table_id, at=self.clock.now(), announcements=self._void(live))
            except StaleStatus:
                raise Refused(E.NOT_PLAYING, "the table is already over") from None
            self._drop(live)
            live.pending = {}
            info = self._info(live)
        await self._deliver(live)
        return info

    async def set_choices(self, cause: Cause, table_id: int,
                          choices: StandingChoices) -> StandingChoices:
        """A seat's standing choices, applied from its next decision on (or this one);
        returns the seat's choices now."""
        await self.seen(cause)
        live = await self._live(table_id)
        async with live.lock:
            seat = self._need_seat(live, cause.user_id)
            row = await self.store.set_choices(table_id, seat, choices)
            live.set_seat(row)
            await self._replan(live)
            return row.choices

    async def set_choice(self, cause: Cause, table_id: int, name: str, on: bool
                         ) -> StandingChoices:
        """Turn one standing choice on or off, keeping the others as they are *now*:
        read and written under the table's lock, so two quick toggles both count."""
        if name not in StandingChoices.__dataclass_fields__:
            raise ValueError(f"there is no standing choice {name!r}")  # a caller's slip
        await self.seen(cause)
        live = await self._live(table_id)
        async with live.lock:
            seat = self._need_seat(live, cause.user_id)
            row = live.seats[seat]
            assert row is not None
            row = await self.store.set_choices(table_id, seat,
                                               replace(row.choices, **{name: on}))
            live.set_seat(row)
            await self._replan(live)
            return row.choices

    async def back(self, cause: Cause, table_id: int) -> TableInfo:
        """An away player is back: their timers run again instead of the computer."""
        await self.seen(cause)
        live = await self._live(table_id)
        async with live.lock:
            seat = self._need_seat(live, cause.user_id)
            await self._mark_present(live, seat)
            await self._replan(live)
            return self._info(live)

    # ------------------------------------------------------------------ play

    async def act(self, cause: Cause, table_id: int, action: Action | Mapping[str, Any], *,
                  step: int | None = None, hand_number: int | None = None) -> ActResult:
        """Play one of the seat's legal actions, for ``cause``'s person.

        Pressing a button of a seat held by someone else is refused: ``not_yours`` for
        someone who does not sit at the table, ``wrong_seat`` for a player of another
        seat. ``step`` (and ``hand_number``), from the button, make a click for an
        earlier decision stale: refused, nothing changed. A duplicate click is such a
        click.
        """
        await self.seen(cause)
        live = await self._live(table_id)
        async with live.lock:
            hand = self._need_hand(live)
            move = _parse_action(action)
            seat = self._need_player(live, cause.user_id, move.seat)
            if move.seat != seat:
                raise Refused(E.WRONG_SEAT, f"you sit in seat {seat + 1}; that move is for "
                                            f"seat {move.seat + 1}", seat=move.seat + 1,
                              name=_name(live, move.seat))
            if hand_number is not None and hand_number != live.hand_number:
                raise Refused(E.STALE_HAND, "that button is from an earlier hand")
            current = step_of(hand.state, seat)
            if step is not None and step != current:
                raise Refused(E.STALE, "that button is for a decision that has passed")
            return await self._commit(live, move, "player")

    async def seen(self, cause: Cause) -> None:
        """Any interaction, even one that changes nothing: remember the person's
        language (their private notices speak it), written only when it changed."""
        locale = cause.locale
        if not locale or self._locales.get(cause.user_id) == locale:
            return
        self._locales[cause.user_id] = locale
        try:
            await self.store.set_user_locale(cause.user_id, locale, self.clock.now())
        except StoreError as exc:  # only a language preference: never worth a failure
            log.info("locale of user %s not saved: %s", cause.user_id, exc)

    async def run(self) -> None:
        """The scheduler loop: run it as a background task for the bot's lifetime."""
        await self.scheduler.run()

    async def run_due(self) -> int:
        """Play everything due now (tests with a fake clock; the demo's fast loop)."""
        return await self.scheduler.run_due()

    # ------------------------------------------------------------------ queries

    async def table_info(self, table_id: int) -> TableInfo:
        live = self._tables.get(table_id)
        if live is None:
            try:
                live = await self._live(table_id)
            except Refused:
                row = await self.store.get_table(table_id)
                if row is None:
                    raise
                seats = empty_seats()
                for s in await self.store.seats(table_id):
                    seats[s.seat] = s
                info = self._info(LiveTable(row, seats))
                info = replace(info, hands_in_match=self._options(row).hands)
                matches = await self.store.matches(table_id)
                if matches:
                    # A settled hand has a settlement row per seat (a drawn one too); a
                    # hand voided by cancelling has none and was not played.
                    settled = await self.store.match_settlements(matches[-1].id)
                    info = replace(info, hands_played=len({s.hand_id for s in settled}))
                if matches and matches[-1].totals is not None:
                    totals = matches[-1].totals
                    info = replace(info, totals=tuple(totals[s] for s in range(SEATS)))
                return info
        return self._info(live)

    async def tables_in_channel(self, channel_id: int, *, live_only: bool = True
                                ) -> list[TableInfo]:
        rows = await self.store.tables_in_channel(channel_id, live_only=live_only)
        return [await self.table_info(r.id) for r in rows]

    async def find_table(self, cause: Cause, channel_id: int, given: int | None = None
                         ) -> int:
        """The table a command means: ``given``, else the channel's live table (the
        person's own first when there are several), else the channel's last table."""
        if given is not None:
            return given
        tables = await self.tables_in_channel(channel_id)
        if not tables:
            tables = (await self.tables_in_channel(channel_id, live_only=False))[-1:]
        if not tables:
            raise Refused(E.NO_TABLE, "there is no table in this channel; open one with "
                                      "/mahjong new")
        mine = [x for x in tables
                if any(s is not None and s.user_id == cause.user_id for s in x.seats)]
        return (mine or tables)[-1].ref.table_id

    async def hand(self, cause: Cause, table_id: int) -> HandInfo:
        """The person's own hand, for `/mahjong hand` (private)."""
        await self.seen(cause)
        live = await self._live(table_id)
        async with live.lock:
            hand = self._need_hand(live)
            seat = self._need_seat(live, cause.user_id)
            pending = live.pending.get(seat)
            row = live.seats[seat]
            assert row is not None
            return HandInfo(table_id, seat, live.hand_number,
                            view(hand.state, seat, live.hand_number),
                            step_of(hand.state, seat), self._deadline(pending),
                            live.names, row.choices, row.away)

    async def table_picture(self, table_id: int) -> TablePicture:
        """The public table picture's input: the table and the spectator view."""
        live = await self._live(table_id)
        hand = self._need_hand(live)
        return TablePicture(self._info(live), spectator_view(hand.state, live.hand_number))

    async def hand_history(self, table_id: int) -> HandHistory | None:
        """The last finished hand, replayed from its wall and log (None: none yet).

        Public whoever asks: the events are the channel's (`public_events`: nothing
        private to a seat, a concealed kong without its tiles); the wall itself is public
        once the hand is over.
        """
        row = await self.store.get_table(table_id)
        if row is None:
            raise Refused(E.NO_TABLE, "there is no such table")
        ended = [h for m in await self.store.matches(table_id)
                 for h in await self.store.hands(m.id) if h.status == "ended"]
        if not ended:
            return None
        hand = ended[-1]
        state, events = new_hand(row.rules, self._options(row), parse_wall(hand.wall),
                                 hand.dealer, hand.dice, streak=hand.streak,
                                 huangfan=hand.huangfan > 0)
        told = list(events)
        for action in await self.store.actions(hand.id):
            state, events = apply(state, Action.from_json(action.payload))
            told += events
        names = (await self.table_info(table_id)).names
        return HandHistory(table_id, hand.number, names,
                           public_events(told), hand.wall, hand.salt)

    async def leaderboard(self, channel_id: int, *, limit: int = 10) -> list[LeaderboardRow]:
        return await self.store.leaderboard(channel_id, limit=limit)

    # ------------------------------------------------------------------ restart

    async def recover(self, *, eager: bool = False) -> RecoveryReport:
        """Bring every live table back after a start-up.

        Deadlines that passed while the bot was down move to now + grace (a person's) or
        now + ``computer_pause`` (a computer's, an away seat's, a standing choice's:
        grace is for people); every deadline is scheduled again. Tables that need work
        at once (playing but with no deadline: a crash between two writes) are rebuilt
        now; the others on first use (a command, a deadline) or by `warm`, so the bot
        serves again in milliseconds even with a thousand tables. With ``eager`` every
        live table is replayed now.
        """
        now = self.clock.now()
        await self._redeliver()
        deferred = await self.store.defer_overdue(now + self.grace,
                                                  computer_until=now + self.computer_pause)
        tables = await self.store.live_tables()
        live_ids = {t.id for t in tables}
        rows = [r for r in await self.store.deadlines() if r.table_id in live_ids]
        waiting = {r.table_id for r in rows}
        todo = [t.id for t in tables if eager or (t.status == "playing"
                                                  and t.id not in waiting)]
        rebuilding = set(todo)
        for r in rows:
            if r.table_id in rebuilding:
                continue  # its rebuild schedules what still stands
            self.scheduler.push(Wake(r.due_at, r.table_id, r.hand_id, r.seat, r.seq))
            if r.kind != "computer" and r.reminded_at is None:
                self.scheduler.push(Wake(r.half_at, r.table_id, r.hand_id, r.seat, r.seq,
                                         "remind"))
        failed = []
        for table_id in todo:
            try:
                await self._live(table_id)
            except Refused:
                pass  # mended and over: its last hand had ended the match (no longer live)
            except Exception:
                log.exception("table %s could not be rebuilt", table_id)
                failed.append(table_id)
        return RecoveryReport(len(tables), len(todo) - len(failed), len(rows), deferred,
                              tuple(failed))

    async def warm(self) -> int:
        """Rebuild, one after another, the live tables a lazy `recover` left for later
        (run it as a background task); return how many were rebuilt."""
        rebuilt = 0
        for row in await self.store.live_tables():
            if row.id in self._tables:
                continue
            try:
                await self._live(row.id)
                rebuilt += 1
            except Refused:
                pass
            except Exception:
                log.exception("table %s could not be rebuilt", row.id)
            await asyncio.sleep(0)
        return rebuilt

    # ------------------------------------------------------------------ internals: tables

    async def _live(self, table_id: int) -> LiveTable:
        """The live table, rebuilt from the store on first use."""
        live = self._tables.get(table_id)
        if live is not None:
            return live
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            live = self._tables.get(table_id)
            if live is None:
                live = await self._rebuild(table_id)
        self._loading.pop(table_id, None)
        if live is None:
            row = await self.store.get_table(table_id)
            if row is not None:
                raise Refused(E.NOT_PLAYING, f"this table is {row.status}")
            raise Refused(E.NO_TABLE, "there is no such table")
        return live

    async def _rebuild(self, table_id: int) -> LiveTable | None:
        row = await self.store.get_table(table_id)
        if row is None or not row.is_live:
            return None
        seats = empty_seats()
        for s in await self.store.seats(table_id):
            seats[s.seat] = s
        live = LiveTable(row, seats)
        self._tables[table_id] = live
        await self._load_locales(live)
        if row.status == "playing":
            async with live.lock:
                await self._rebuild_match(live)
        return self._tables.get(table_id)

    async def _rebuild_match(self, live: LiveTable) -> None:
        """Rebuild the match and hand from the log, finishing whatever a crash cut short
        between two writes (a match without its first hand, a hand ended without the
        next one started, a deal that ended at once)."""
        match_row = await self.store.live_match(live.id)
        options = self._options(live.row)
        if match_row is None:
            if await self.store.matches(live.id):  # the last match ended: so did the table
                await self._close_finished(live)
                return
            match_row = await self.store.create_match(live.id, first_dealer=first_dealer(),
                                                      at=self.clock.now())
        live.match_id = match_row.id
        hands = await self.store.hands(match_row.id)
        if not hands:
            live.match = new_match(live.row.rules, options, match_row.first_dealer,
                                   self._computers(live))
            await self._start_hand(live)
            return
        last = hands[-1]
        settled = await self.store.match_settlements(match_row.id)
        totals = [Fraction(0)] * SEATS
        wins = [0] * SEATS
        for s in settled:
            if s.hand_id != last.id:
                totals[s.seat] += s.amount
                wins[s.seat] += 1 if s.value > 0 and s.amount > 0 else 0
        for seat, amount in (await self.store.penalty_totals(match_row.id)).items():
            totals[seat] += amount
        live.match = MatchState(
            live.row.rules, options, dealer=last.dealer, hands_played=last.number - 1,
            streak=last.streak, huangfan=last.huangfan, totals=tuple(totals),
            wins=tuple(wins), computer=self._computers(live),
            current=HandSetup(last.number, last.dealer, last.dice, last.streak,
                              last.huangfan > 0))
        state = await self._replay(live.row, options, last)
        live.hand = LiveHand(last, state)
        if last.status == "ended":
            live.match = finish_hand(live.match, _outcome(state))
            live.hand = None
            await self._start_hand(live)
        elif state.phase is Phase.ENDED:
            await self._end_hand(live, state, (), None)
        else:
            await self._restore_deadlines(live)

    async def _load_locales(self, live: LiveTable) -> None:
        """The languages of the table's people, remembered from before a restart."""
        users = [s.user_id for s in live.seats if s is not None and s.user_id is not None
                 and s.user_id not in self._locales]
        for user, locale in (await self.store.user_locales(users)).items():
            self._locales.setdefault(user, locale)

    async def _replay(self, row: TableRow, options: TableOptions, hand: HandRow) -> HandState:
        actions = [Action.from_json(a.payload) for a in await self.store.actions(hand.id)]
        return replay(row.rules, options, parse_wall(hand.wall), hand.dice, hand.dealer,
                      actions, streak=hand.streak, huangfan=hand.huangfan > 0)

    async def _restore_deadlines(self, live: LiveTable) -> None:
        """Take the stored deadlines that still fit the replayed state; make new ones
        for any decision that has none."""
        assert live.hand is not None
        state = live.hand.state
        rows = {r.seat: r for r in await self.store.deadlines(live.hand.row.id)}
        now = self.clock.now()
        pending: dict[int, Pending] = {}
        fresh = False
        for seat in deciding_seats(state):
            step = step_of(state, seat)
            assert step is not None
            r = rows.get(seat)
            if r is not None and r.seq == step:
                pending[seat] = Pending(seat, step, r.kind, r.set_at, r.due_at,
                                        r.reminded_at is not None)
            else:
                pending[seat] = self._new_pending(live, state, seat, step, now)
                fresh = True
        live.pending = pending
        if fresh:
            await self.store.replace_deadlines(live.hand.row.id, _deadline_rows(pending))
        self._schedule(live, pending.values())

    async def _close_finished(self, live: LiveTable) -> None:
        """Mend a table whose last match ended in a database written before the last
        hand finished its table in its own transaction."""
        with contextlib.suppress(StaleStatus):
            live.row = await self.store.set_table_status(live.id, "finished",
                                                         expected="playing")
        self._drop(live)

    def _drop(self, live: LiveTable) -> None:
        """The table is over: out of memory and out of the scheduler."""
        self._tables.pop(live.id, None)
        self.scheduler.forget(live.id)

    # ------------------------------------------------------------------ internals: hands

    async def _start_hand(self, live: LiveTable) -> None:
        """Deal the next hand: a wall shuffled with `secrets`, its commitment shown."""
        assert live.match is not None and live.match_id is not None
        dice = roll_dice()
        match, setup = start_hand(live.match, dice)
        deal = self._deal(live.row.rules, setup.dealer)
        state, events = new_hand(live.row.rules, match.options, deal.wall, setup.dealer, dice,
                                 streak=setup.streak, huangfan=setup.huangfan)
        now = self.clock.now()
        row = await self.store.create_hand(
            live.match_id, wall=deal.wall_text, salt=deal.salt, commitment=deal.commitment,
            dice=dice, dealer=setup.dealer, streak=setup.streak, huangfan=match.huangfan,
            at=now, announcements=[NewAnnouncement("hand_started", facts={
                "names": list(live.names), "hands": match.options.hands,
                "huangfan": setup.huangfan})])
        live.match = match
        live.hand = LiveHand(row, state)
        live.pending = {}
        self.scheduler.forget(live.id)
        # The lobby message says which hand is being played: each deal updates it.
        await self._publish(LobbyNotice(
            self._info(live), "started" if setup.number == 1 else "hand_started"))
        await self._deliver(live)
        if state.phase is Phase.ENDED:  # 八花 on the deal
            await self._end_hand(live, state, events, None)
            return
        pending = self._plan(live, state, now)
        await self.store.replace_deadlines(row.id, _deadline_rows(pending))
        live.pending = pending
        self._schedule(live, pending.values())
        await self._announce(live, None, state, events, set(pending))

    async def _commit(self, live: LiveTable, action: Action, source: ActionSource
                      ) -> ActResult:
        """The one path of every move (see the module docstring)."""
        hand = live.hand
        assert hand is not None
        old = hand.state
        try:
            new, events = apply(old, action)
        except IllegalAction as exc:
            raise _illegal(exc, live.names) from None
        now = self.clock.now()
        row = NewAction(old.seq + 1, action.seat, action.kind.value, action.to_json(),
                        source, now)
        if new.phase is Phase.ENDED:
            await self._end_hand(live, new, events, row)
            await self._after_move(live, action.seat, source, old.phase is not Phase.TURN)
            return ActResult(live.id, hand.row.number, row.expected_seq, True,
                             live.match is None or live.match.finished, action.seat)
        pending = self._plan(live, new, now)
        fresh = {s for s, p in pending.items() if live.pending.get(s) is not p}
        try:
            await self.store.append_action(
                hand.row.id, row.expected_seq, row.seat, row.kind, row.payload, source, now,
                deadlines=_deadline_rows(pending) if fresh else None)
        except StoreError as exc:
            await self._reload(live)
            raise _stale(exc) from None
        hand.state = new
        live.pending = pending
        self._schedule(live, (pending[s] for s in fresh))
        await self._after_move(live, action.seat, source, old.phase is not Phase.TURN)
        await self._announce(live, old, new, events, fresh)
        return ActResult(live.id, hand.row.number, row.expected_seq, False, False, action.seat)

    async def _end_hand(self, live: LiveTable, state: HandState, events: tuple[Event, ...],
                        final: NewAction | None) -> None:
        """Settle: final action, settlements, standings (and match totals) in one
        transaction; then tell; then deal the next hand unless the match is over."""
        assert live.hand is not None and live.match is not None and state.result is not None
        hand = live.hand
        match = finish_hand(live.match, _outcome(state))
        now = self.clock.now()
        told = [NewAnnouncement("settlement", facts={
                    "names": list(live.names), "totals": _fractions(match.totals)}),
                NewAnnouncement("reveal"), NewAnnouncement("leaderboard")]
        if match.finished:
            told += [NewAnnouncement("lobby", facts={"what": "finished"}),
                     NewAnnouncement("match_ended", facts=_end_facts(live, match))]
        try:
            await self.store.finish_hand(
                hand.row.id, final, settlements=_settlements(state),
                deltas=self._deltas(live, state, match.finished), at=now,
                match_totals=dict(enumerate(match.totals)) if match.finished else None,
                announcements=told)
        except StoreError as exc:
            await self._reload(live)
            raise _stale(exc) from None
        old = hand.state
        hand.state = state
        live.match = match
        live.pending = {}
        self.scheduler.forget(live.id)
        await self._announce(live, old, state, events, set())
        if match.finished:
            live.row = replace(live.row, status="finished")  # written with the last hand
            self._drop(live)
            live.hand = None
        await self._deliver(live, {hand.row.id: state})
        if not match.finished:
            await self._start_hand(live)

    def _void(self, live: LiveTable) -> list[NewAnnouncement]:
        """What a cancelled table tells the channel (recorded with the cancellation):
        the running hand is void (no settlement) and its wall revealed; the match is
        abandoned."""
        hand = live.hand
        number = live.hand_number
        told = []
        if hand is not None and hand.state.phase is not Phase.ENDED:
            told.append(NewAnnouncement("reveal", hand.row.id, hand.row.number))
        told.append(NewAnnouncement("lobby", None, number, {"what": "cancelled"}))
        if live.match is not None:
            told.append(NewAnnouncement("match_ended", None, number,
                                        _end_facts(live, live.match, cancelled=True)))
        return told

    # ------------------------------------------------------------------ internals: outbox

    async def _deliver(self, live: LiveTable,
                       states: Mapping[int, HandState] | None = None) -> None:
        """Hand the table's undelivered announcements to the notifier, oldest first.

        They were written with the changes they announce; each goes to the notifier
        once per process (it marks them delivered), and `recover` hands over again
        whatever a crash left undelivered. ``states``: hands already in memory (no
        replay needed to word their settlement)."""
        rows = [r for r in await self.store.undelivered(live.id) if r.id not in self._handed]
        await self._hand_over(live.ref, rows, live, states or {})

    async def _redeliver(self) -> None:
        """Start-up: every announcement a crash left undelivered, in order per table."""
        by_table: dict[int, list[AnnouncementRow]] = {}
        for row in await self.store.undelivered():
            by_table.setdefault(row.table_id, []).append(row)
        for table_id, rows in by_table.items():
            table = await self.store.get_table(table_id)
            if table is None:
                continue
            ref = TableRef(table.id, table.guild_id, table.channel_id, table.creator_id)
            log.info("table %s: delivering %s announcement(s) left by a restart", table_id,
                     len(rows))
            await self._hand_over(ref, rows, None, {})

    async def _hand_over(self, ref: TableRef, rows: list[AnnouncementRow],
                         live: LiveTable | None, states: Mapping[int, HandState]) -> None:
        self._handed.update(r.id for r in rows)
        for row in rows:
            try:
                notice = await self._notice_of(row, ref, live, states)
            except Exception:
                log.exception("announcement %s could not be worded", row.key)
                continue
            await self._publish(notice)

    async def _notice_of(self, row: AnnouncementRow, ref: TableRef, live: LiveTable | None,
                         states: Mapping[int, HandState]) -> Announcement:
        """Rebuild an announcement from its row: the hand's record (and for the
        settlement its replay, hands being deterministic) plus the row's facts."""
        receipt = Receipt(row.id, row.key, row.status == "sending", self._mark)
        facts = row.facts
        if row.kind == "lobby":
            info = self._info(live) if live is not None else \
                await self.table_info(ref.table_id)
            return LobbyNotice(info, facts["what"], receipt=receipt)
        if row.kind == "match_ended":
            return MatchEndNotice(ref, tuple(facts["names"]), _fraction_tuple(facts["totals"]),
                                  facts["hands_played"], facts["cancelled"], receipt=receipt)
        hand = await self.store.get_hand(row.hand_id or 0)
        assert hand is not None, row.key
        if row.kind == "hand_started":
            return HandStartNotice(ref, tuple(facts["names"]), hand.number, facts["hands"],
                                   hand.dealer, hand.dice, hand.streak, facts["huangfan"],
                                   hand.commitment, receipt=receipt)
        if row.kind == "reveal":
            return RevealNotice(ref, hand.number, hand.wall, hand.salt, hand.commitment,
                                receipt=receipt)
        if row.kind == "leaderboard":
            table = await self.store.get_table(ref.table_id)
            assert table is not None
            rows = await self.store.leaderboard(table.channel_id)
            return LeaderboardNotice(ref, tuple(rows), hand.number, receipt=receipt)
        state = states.get(hand.id)
        if state is None:
            table = await self.store.get_table(ref.table_id)
            assert table is not None
            state = await self._replay(table, self._options(table), hand)
        view = spectator_view(state, hand.number)
        assert view.result is not None, row.key
        return SettlementNotice(ref, tuple(facts["names"]), state.ruleset.name, hand.number,
                                view.result, _fraction_tuple(facts["totals"]),
                                caishen=view.caishen, receipt=receipt)

    async def _mark(self, announcement_id: int, status: AnnouncementStatus) -> None:
        await self.store.mark_announcement(announcement_id, status,
                                           self.clock.now())
        if status == "delivered":
            self._handed.discard(announcement_id)

    async def _reload(self, live: LiveTable) -> None:
        """The store disagreed with memory (another writer): rebuild from the log."""
        self._drop(live)
        live.pending = {}
        try:
            await self._rebuild(live.id)
        except Exception:
            log.exception("table %s could not be reloaded", live.id)

    # ------------------------------------------------------------------ internals: timers

    def _plan(self, live: LiveTable, state: HandState, now: float) -> dict[int, Pending]:
        """The pending decisions after a move: kept as they are for seats whose decision
        did not change (a claim window still open), new for the others."""
        pending = {}
        for seat in deciding_seats(state):
            step = step_of(state, seat)
            assert step is not None
            old = live.pending.get(seat)
            pending[seat] = old if old is not None and old.step == step else \
                self._new_pending(live, state, seat, step, now)
        return pending

    def _new_pending(self, live: LiveTable, state: HandState, seat: int, step: int,
                     now: float) -> Pending:
        reason = auto_reason(live.seats[seat], state, seat)
        if reason == "computer":
            return Pending(seat, step, "computer", now, now + self.computer_pause)
        if reason is not None:  # away, or a standing choice: at once
            return Pending(seat, step, "computer", now, now)
        options = state.options
        if state.phase is Phase.TURN:
            return Pending(seat, step, "turn", now, now + options.turn_timer)
        return Pending(seat, step, "claim", now, now + options.claim_timer)

    async def _replan(self, live: LiveTable) -> None:
        """Seats whose auto-play changed (away, back, standing choices, replaced by the
        computer) get a new pending decision; the hand's deadlines are rewritten."""
        hand = live.hand
        if hand is None or hand.state.phase is Phase.ENDED:
            return
        now = self.clock.now()
        pending: dict[int, Pending] = {}
        fresh = set()
        for seat, old in live.pending.items():
            auto = auto_reason(live.seats[seat], hand.state, seat) is not None
            if (old.kind == "computer") == auto:
                pending[seat] = old
            else:
                pending[seat] = self._new_pending(live, hand.state, seat, old.step, now)
                fresh.add(seat)
        if not fresh:
            return
        await self.store.replace_deadlines(hand.row.id, _deadline_rows(pending))
        live.pending = pending
        self._schedule(live, (pending[s] for s in fresh))
        await self._ping(live, fresh)

    def _schedule(self, live: LiveTable, pendings: Any) -> None:
        """After ``live.pending`` changed: seats no longer deciding lose their entries
        (answered, or the window closed), ``pendings`` (the new decisions) replace
        theirs; the others keep theirs."""
        assert live.hand is not None
        hand_id = live.hand.row.id
        self.scheduler.keep(live.id, live.pending)
        for p in pendings:
            wakes = [Wake(p.due_at, live.id, hand_id, p.seat, p.step)]
            if p.reminds:
                wakes.append(Wake(p.half_at, live.id, hand_id, p.seat, p.step, "remind"))
            self.scheduler.replace(live.id, p.seat, wakes)

    async def _fire(self, wake: Wake) -> None:
        """A scheduled moment: check it still stands, then remind or play the default
        (timer), the computer's move or a standing choice, as any move is played."""
        try:
            live = await self._live(wake.table_id)
        except Refused:
            return
        async with live.lock:
            hand = live.hand
            p = live.pending.get(wake.seat)
            if hand is None or hand.row.id != wake.hand_id or p is None \
                    or p.step != wake.step or step_of(hand.state, wake.seat) != p.step:
                return
            if wake.what == "remind":
                await self._remind(live, p, wake)
                return
            if wake.when != p.due_at:
                return
            action, source = self._auto_action(live, p)
            try:
                await self._commit(live, action, source)
            except Refused as exc:
                # the kind only: a log must not hold a concealed tile
                log.warning("table %s: a %s %s was refused: %s", live.id, source,
                            action.kind.value, exc.code)

    async def _remind(self, live: LiveTable, p: Pending, wake: Wake) -> None:
        assert live.hand is not None
        if not p.reminds or wake.when != p.half_at:
            return
        try:
            await self.store.mark_reminded(live.hand.row.id, p.seat, self.clock.now())
        except NotFound:
            return
        live.pending[p.seat] = replace(p, reminded=True)
        seat_row = live.seats[p.seat]
        kind: MoveKind = "turn" if p.kind == "turn" else "claim"
        await self._publish(MoveNotice(
            live.ref, p.seat, seat_row.user_id if seat_row else None, live.hand_number,
            p.step, kind, p.due_at, reminder=True))

    def _auto_action(self, live: LiveTable, p: Pending) -> tuple[Action, ActionSource]:
        assert live.hand is not None
        state = live.hand.state
        seat = p.seat
        if p.kind != "computer":
            return timeout_action(state, seat), "timeout"
        seat_row = live.seats[seat]
        reason = auto_reason(seat_row, state, seat)
        if reason == "always_win":
            return Action(ActionKind.WIN, seat), "computer"
        if reason == "pass_claims":
            return Action(ActionKind.PASS, seat), "computer"
        if reason == "away" and seat_row is not None \
                and seat_row.choices.discard_drawn_when_away:
            return timeout_action(state, seat), "computer"
        return choose_action(state, seat, live.rng), "computer"

    async def _after_move(self, live: LiveTable, seat: int, source: ActionSource,
                          claim: bool = False) -> None:
        """Count timeouts in a row (away after ``away_after``); a person's own move
        ends the run and brings them back. A timed-out ``claim`` does not count: being
        marked away right at a claim deadline would tell everyone the seat was asked."""
        row = live.seats[seat]
        if row is None or row.is_computer or source == "computer":
            return
        if claim and source == "timeout":
            return
        if source == "player":
            await self._mark_present(live, seat)
            return
        row = await self.store.add_timeout(live.id, seat)
        live.set_seat(row)
        assert live.match is not None
        if not row.away and row.consecutive_timeouts >= live.match.options.away_after:
            if live.match.options.away_leaves and not live.match.finished:
                await self._remove_away(live, seat)
                return
            live.set_seat(await self.store.set_away(live.id, seat, True))
            await self._publish(AwayNotice(live.ref, seat, row.user_id, row.display_name,
                                                True))
            await self._replan(live)

    async def _mark_present(self, live: LiveTable, seat: int) -> None:
        row = live.seats[seat]
        if row is None or (not row.away and not row.consecutive_timeouts):
            return
        if row.consecutive_timeouts:
            row = await self.store.reset_timeouts(live.id, seat)
        if row.away:
            row = await self.store.set_away(live.id, seat, False)
            await self._publish(AwayNotice(live.ref, seat, row.user_id, row.display_name,
                                                False))
        live.set_seat(row)

    async def _remove_away(self, live: LiveTable, seat: int) -> None:
        """``away_leaves``: the timeouts in a row count as leaving the match (逃跑)."""
        row = live.seats[seat]
        assert row is not None
        penalty = await self._replace_by_computer(live, seat)
        await self._publish(AwayNotice(live.ref, seat, row.user_id, row.display_name,
                                            True, removed=True,
                                            penalty=-penalty[seat] if penalty else Fraction(0)))
        await self._publish(LobbyNotice(self._info(live), "replaced", seat))

    async def _replace_by_computer(self, live: LiveTable, seat: int
                                   ) -> tuple[Fraction, ...] | None:
        """The computer takes the seat for good; returns the 逃跑 penalty charged."""
        old = live.seats[seat]
        assert old is not None and live.match is not None
        penalty = self._abandon_penalty(live, seat)
        charged = {s: a for s, a in enumerate(penalty or ()) if a}
        deltas = [LeaderboardDelta(player_key(old.user_id if s == seat else
                                              _user(live.seats[s]), s),
                                   old.display_name if s == seat else _name(live, s),
                                   points=amount)
                  for s, amount in charged.items()]
        live.set_seat(await self.store.replace_by_computer(
            live.id, seat, display_name=self.computer_name(live.ref, seat, old.display_name),
            match_id=live.match_id, penalties=charged, reason="abandon", deltas=deltas,
            at=self.clock.now()))
        live.match = match_leave(live.match, seat, penalty)
        await self._replan(live)
        return penalty

    def _abandon_penalty(self, live: LiveTable, seat: int) -> tuple[Fraction, ...] | None:
        hand = live.hand
        if hand is None or hand.state.phase is Phase.ENDED:
            return None
        return hand.state.ruleset.abandon_penalty(hand.state, seat)

    # ------------------------------------------------------------------ internals: telling

    async def _announce(self, live: LiveTable, old: HandState | None, new: HandState,
                        events: tuple[Event, ...], fresh: set[int]) -> None:
        """The public table; each person whose hand or decision changed; a ping for
        each fresh decision of a person."""
        assert live.hand is not None
        number = live.hand.row.number
        names = live.names
        await self._publish(TableNotice(live.ref, names, number, new.seq,
                                              public_lines(events, names),
                                              visible_deciding(new), public_events(events),
                                              new))
        for seat in range(SEATS):
            row = live.seats[seat]
            if row is None or (row.is_computer and not self.notify_computer_hands):
                continue
            step = step_of(new, seat)
            if old is not None and old.seats[seat] is new.seats[seat] \
                    and step_of(old, seat) == step and seat not in fresh:
                continue
            await self._publish(PrivateNotice(
                live.ref, seat, row.user_id, names, number, step,
                self._deadline(live.pending.get(seat)), new))
        await self._ping(live, fresh)

    async def _ping(self, live: LiveTable, seats: set[int]) -> None:
        for seat in sorted(seats):
            p = live.pending.get(seat)
            row = live.seats[seat]
            if p is None or p.kind == "computer" or row is None or row.is_computer:
                continue
            kind: MoveKind = "turn" if p.kind == "turn" else "claim"
            await self._publish(MoveNotice(live.ref, seat, row.user_id,
                                                     live.hand_number, p.step, kind,
                                                     p.due_at))

    async def _publish(self, notice: Notice) -> None:
        """Notifier errors are logged, never raised: the move is already committed."""
        try:
            await self.notifier.publish(notice)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("notifier failed on a %s notice", notice.kind)

    # ------------------------------------------------------------------ internals: small

    @staticmethod
    def _deadline(p: Pending | None) -> float | None:
        return p.due_at if p is not None and p.kind != "computer" else None

    @staticmethod
    def _options(row: TableRow) -> TableOptions:
        return rulesets.get(row.rules).options(row.options)

    @staticmethod
    def _computers(live: LiveTable) -> tuple[bool, ...]:
        return tuple(s is None or s.is_computer for s in live.seats)

    def _deltas(self, live: LiveTable, state: HandState, match_over: bool
                ) -> list[LeaderboardDelta]:
        assert state.result is not None
        wins = {w.winner: w for w in state.result.wins}
        out = []
        for seat in range(SEATS):
            row = live.seats[seat]
            record = wins.get(seat)
            # Kept as data (rule set and pattern ids): each reader gets it in their words.
            desc = best_hand_key(state.rules, record.settlement.patterns) if record else None
            out.append(LeaderboardDelta(
                player_key(_user(row), seat), _name(live, seat),
                points=state.result.payments[seat], hands_won=1 if record else 0,
                hands_played=1, matches_played=1 if match_over else 0,
                hand_value=record.settlement.value if record else None, hand_desc=desc))
        return out

    def _info(self, live: LiveTable) -> TableInfo:
        match = live.match
        hand = live.hand
        return TableInfo(
            live.ref, live.row.creator_id, live.row.rules, dict(live.row.options),
            live.row.status, live.seat_infos,
            hand_number=live.hand_number or None,
            hands_in_match=match.options.hands if match else None,
            deciding=visible_deciding(hand.state) if hand else (),
            totals=match.totals if match else None,
            hands_played=match.hands_played if match else 0)

    @staticmethod
    def _need_lobby(live: LiveTable) -> None:
        if live.row.status != "lobby":
            raise Refused(E.NOT_IN_LOBBY, "the table has already started")

    @staticmethod
    def _need_hand(live: LiveTable) -> LiveHand:
        if live.row.status != "playing" or live.hand is None:
            raise Refused(E.NOT_PLAYING, "no hand is being played at this table")
        return live.hand

    @staticmethod
    def _need_seat(live: LiveTable, user_id: int) -> int:
        seat = live.seat_of(user_id)
        if seat is None:
            raise Refused(E.NOT_SEATED, "you do not sit at this table")
        return seat

    @staticmethod
    def _need_player(live: LiveTable, user_id: int, seat: int) -> int:
        """The presser's seat; a stranger pressing a person's button is told whose it is."""
        mine = live.seat_of(user_id)
        if mine is not None:
            return mine
        row = live.seats[seat] if 0 <= seat < SEATS else None
        if row is not None and not row.is_computer:
            raise Refused(E.NOT_YOURS, "that button is for another player; you do not sit "
                                       "at this table", seat=seat + 1, name=_name(live, seat))
        raise Refused(E.NOT_SEATED, "you do not sit at this table")

    @staticmethod
    def _need_member(live: LiveTable, cause: Cause) -> None:
        user_id = cause.user_id
        if not cause.is_manager and user_id != live.row.creator_id \
                and live.seat_of(user_id) is None:
            raise Refused(E.NOT_MEMBER, "only players at this table, its creator or a server "
                                        "manager can do that")

    @staticmethod
    def _free_seat(live: LiveTable, seat: int | None) -> int:
        if seat is None:
            free = [i for i, s in enumerate(live.seats) if s is None]
            if not free:
                raise Refused(E.TABLE_FULL, "the table is full")
            return free[0]
        if not 0 <= seat < SEATS:
            raise Refused(E.NO_SUCH_SEAT, "seats are numbered 1 to 4")
        if live.seats[seat] is not None:
            raise Refused(E.SEAT_TAKEN, f"seat {seat + 1} is taken")
        return seat


# ---------------------------------------------------------------------- helpers


ComputerNamer = Callable[[TableRef, int, str | None], str]
"""The name a computer seat gets when it sits down: (table, seat 0–3, the name of the
player it replaces mid-match or None). The name is stored with the seat, so every place
that shows it (lobby, pictures, settlement, leaderboard) shows the same words."""


def default_computer_name(ref: TableRef, seat: int, replaces: str | None) -> str:
    """Without an adapter's namer (the demo, tests): both languages at once."""
    name = f"电脑 Bot {seat + 1}"
    return name if replaces is None else f"{name} ({replaces})"


def _parse_action(action: Action | Mapping[str, Any]) -> Action:
    if isinstance(action, Action):
        return action
    try:
        return Action.from_json(action)
    except IllegalAction as exc:
        raise _illegal(exc) from None


def _illegal(exc: IllegalAction, names: Sequence[str] = ()) -> Refused:
    """The engine's refusal: its kind (``why``) and English reason (``detail``) for the
    adapter to say in the reader's language; ``names`` for the seats it mentions."""
    return Refused(E.ILLEGAL, exc.reason, why=exc.code, detail=exc.reason, names=tuple(names))


def _stale(exc: StoreError) -> Refused:
    if isinstance(exc, StaleAction):
        return Refused(E.RACED, "another move landed first; look at the table again")
    return Refused(E.RACED, "the table changed meanwhile; look at it again")


def _outcome(state: HandState) -> HandOutcome:
    result = state.result
    assert result is not None
    discarder = result.wins[0].from_seat if result.wins else None
    return HandOutcome(tuple(w.winner for w in result.wins), discarder, result.payments)


def _settlements(state: HandState) -> list[Settlement]:
    assert state.result is not None
    wins = {w.winner: w.settlement for w in state.result.wins}
    return [Settlement(seat, state.result.payments[seat],
                       list(wins[seat].patterns) if seat in wins else [],
                       wins[seat].value if seat in wins else 0)
            for seat in range(SEATS)]


def _fractions(values: tuple[Fraction, ...]) -> list[str]:
    return [str(v) for v in values]


def _fraction_tuple(values: list[str]) -> tuple[Fraction, ...]:
    return tuple(Fraction(v) for v in values)


def _end_facts(live: LiveTable, match: MatchState, *, cancelled: bool = False
               ) -> dict[str, Any]:
    """What the match-end message says that the log does not keep."""
    return {"names": list(live.names), "totals": _fractions(match.totals),
            "hands_played": match.hands_played, "cancelled": cancelled}


def _deadline_rows(pending: Mapping[int, Pending]) -> list[NewDeadline]:
    return [NewDeadline(p.seat, p.step, p.kind, p.set_at, p.due_at)
            for p in pending.values()]


def _user(row: SeatRow | None) -> int | None:
    return row.user_id if row is not None else None


def _name(live: LiveTable, seat: int) -> str:
    return live.names[seat]


__all__ = ["ActResult", "HandHistory", "HandInfo", "RecoveryReport", "SeatInfo", "Seated",
           "TablePicture", "TableRef", "TableService"]
