"""`TableService`: the door between the game and the outside world (DESIGN.md).

Commands come in, each with the `Cause` behind it (who asks, in which language);
notices go out, each a frozen `Notice` through the one `Notifier.publish`. The service
knows nothing of Discord: users, guilds and channels are ints, and "is a server
manager" is a flag on the cause.

This file is the door itself: the settings, the parts, and every public command and
query, each delegating to the part that does it:

- `Commands` (commands.py): lobby, play, standing choices, `seen`;
- `Queries` (queries.py): reads, no change;
- `Replays` (replays.py): finished hands stepped through, and their records;
- `Moves` (moves.py): the one path of every move; dealing, settling, voiding hands;
- `Timers` (timers.py): pending decisions and the scheduler's moments;
- `Alarms` (alarms.py): a moment come: the reminder, or the timer's or computer's move;
- `Announcer` (announcements.py): every notice built and published, the outbox;
- `LiveTables` (tables.py): the tables in memory, loaded on first use, each locked;
- `Recovery` (recovery.py): serving again after a restart;
- `Digests` (digests.py): the one DM when someone's quiet hours end and decisions wait.

Each part is handed, when it is made here, exactly the parts and settings it uses;
the process model (process.py: one process, or several sharing the database) is
chosen here once. Each table's changes happen under its own lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from bot.service.alarms import Alarms
from bot.service.announcements import Announcer
from bot.service.cause import Cause
from bot.service.clock import Clock, SystemClock
from bot.service.commands import Commands
from bot.service.digests import DIGEST_LEASE, SWEEP_EVERY, Digests
from bot.service.facts import FactsRebuilt, rebuild_facts
from bot.service.fairness import Deal, shuffle
from bot.service.languages import Languages
from bot.service.live import AnswersGiven, LiveTable
from bot.service.moves import ComputerNamer, Moves
from bot.service.notices import (
    ClaimAnswer,
    NextDiscard,
    SeatInfo,
    TableInfo,
    TableRef,
    WaitingMove,
)
from bot.service.notifier import Notifier
from bot.service.people import People
from bot.service.process import OneProcess, ProcessModel, SharedProcess
from bot.service.queries import Queries
from bot.service.rating_admin import RatingAdmin
from bot.service.ratings import FORMULA as RATING_FORMULA
from bot.service.recaps import RECAP_EVERY, Recaps
from bot.service.recovery import Recovery
from bot.service.replays import HandRecord, ReplayFrame, Replays
from bot.service.resting import Resting
from bot.service.results import (
    ActResult,
    HandHistory,
    HandInfo,
    LeaveSet,
    QuietSet,
    RecapSet,
    RecoveryReport,
    SeasonClosed,
    Seated,
    Standings,
    TablePicture,
)
from bot.service.scheduler import Scheduler
from bot.service.seasons import Season, Seasons
from bot.service.snapshots import SNAPSHOT_EVERY
from bot.service.stats import PlayerStats, Stats
from bot.service.tables import IDLE_AFTER, LiveTables
from bot.service.timers import Timers
from bot.store import Rebuilt, StandingChoices, Store
from engine import rules as rulesets
from engine.game import Action, preload_tables
from engine.tiles import Tile


def default_computer_name(ref: TableRef, seat: int, replaces: str | None) -> str:
    """Without an adapter's namer (the demo, tests): both languages at once."""
    name = f"电脑 Bot {seat + 1}"
    return name if replaces is None else f"{name} ({replaces})"


class TableService:
    """Commands and queries over tables; one lock per table; output via the notifier."""

    def __init__(self, store: Store, notifier: Notifier, *, clock: Clock | None = None,
                 computer_pause: float = 2.0, grace: float = 120.0,
                 notify_computer_hands: bool = False,
                 deal: Callable[[str, int], Deal] | None = None,
                 computer_name: ComputerNamer | None = None,
                 snapshot_every: int = SNAPSHOT_EVERY, use_snapshots: bool = True,
                 shared: bool = False, claim_lease: float = 15.0, claim_poll: float = 0.25,
                 announce_lease: float = 120.0, digest_every: float = SWEEP_EVERY,
                 digest_lease: float = DIGEST_LEASE, recap_every: float = RECAP_EVERY,
                 idle_after: float = IDLE_AFTER) -> None:
        """``computer_pause``: seconds a computer player waits before moving (so people
        can follow). ``grace``: after a restart, a person's deadlines that passed while
        the bot was down are moved this far into the future (the others by
        ``computer_pause``). ``notify_computer_hands``: also send
        private notices for computer seats (the offline demo shows them). ``deal``
        replaces the `secrets` shuffle (tests stack walls with it; never in the bot).
        ``computer_name`` names a computer seat when it sits down (the adapter's, in the
        server's language; see `ComputerNamer`). ``snapshot_every``: a live hand's state
        is saved with every this many actions (0: never); ``use_snapshots`` False
        rebuilds hands from their whole log (the bench's old path; see snapshots.py).

        ``shared``: other processes serve tables from the same database (PostgreSQL):
        every command reads the table's change counter and reloads a stale table, and
        deadlines and announcements are claimed from the database (claims.py) for
        ``claim_lease`` / ``announce_lease`` seconds (what a killed process's claims
        wait before another takes them), polled every ``claim_poll`` seconds. Off, one
        process owns everything in memory, with no extra round trip.

        ``digest_every``: seconds between two looks at who is quiet with a decision
        waiting (each is owed one DM when their quiet ends); ``digest_lease``: how long
        a process holds a digest it is sending (digests.py). ``recap_every``: seconds
        between two looks for a channel's weekly recap come due (recaps.py).

        ``idle_after``: seconds a table nobody uses stays in memory; then it leaves it
        and is loaded again on its next click, command or deadline (tables.py)."""
        self.store = store
        self.clock = clock = clock or SystemClock()
        self.process: ProcessModel = SharedProcess(
            store, clock, claim_lease=claim_lease, claim_poll=claim_poll,
            announce_lease=announce_lease) if shared else OneProcess(store)
        computer_name = computer_name or default_computer_name
        self.scheduler = Scheduler(clock)
        self._languages = languages = Languages(store, clock)
        self.people = people = People(store, clock)
        self.announcer = Announcer(store, clock, notifier, languages, people, self.process,
                                   notify_computer_hands=notify_computer_hands)
        self.timers = Timers(store, clock, self.scheduler, self.announcer, people,
                             computer_pause=computer_pause)
        self.moves = Moves(store, clock, self.scheduler, self.timers, self.announcer,
                           deal=deal or _shuffle, computer_name=computer_name,
                           snapshot_every=snapshot_every)
        self.tables = LiveTables(store, clock, self.scheduler, self.process, self.moves,
                                 self.timers, languages, people, use_snapshots=use_snapshots,
                                 idle_after=idle_after)
        self.alarms = Alarms(store, clock, self.tables, self.moves, self.timers,
                             self.announcer, people, self.process)
        self.commands = Commands(store, clock, self.tables, self.moves, self.timers,
                                 self.announcer, languages, self.process,
                                 computer_name=computer_name)
        self.queries = Queries(store, self.tables, languages)
        self.replays = Replays(store, languages, self.queries.table_info)
        self.resting = Resting(store, clock, self.tables, self.timers, self.announcer, people,
                               languages)
        self.recovery = Recovery(store, clock, self.scheduler, self.tables, self.announcer,
                                 self.process, self.queries.table_info, grace=grace,
                                 computer_pause=computer_pause)
        self.stats = Stats(store, languages)
        self.ratings = RatingAdmin(store, clock)
        self.digests = Digests(store, clock, self.announcer, languages,
                               self.queries.waiting_for, every=digest_every,
                               lease=digest_lease)
        self.seasons = Seasons(store, clock, self.queries)
        self.recaps = Recaps(store, clock, self.announcer, self.queries.table_info,
                             every=recap_every)
        self.loop = self.process.loop(self.scheduler, self.alarms.fire,
                                      sweep=self.recovery.redeliver,
                                      take_over=self.recovery.resend,
                                      moments=self.timers.next_moments)

    @property
    def notifier(self) -> Notifier:
        """Where the service's notices go (the `Announcer`'s)."""
        return self.announcer.notifier

    @notifier.setter
    def notifier(self, notifier: Notifier) -> None:
        self.announcer.notifier = notifier

    @property
    def deal(self) -> Callable[[str, int], Deal]:
        """How walls are shuffled (`Moves.shuffle`; tests stack walls by setting it)."""
        return self.moves.shuffle

    @deal.setter
    def deal(self, deal: Callable[[str, int], Deal]) -> None:
        self.moves.shuffle = deal

    @property
    def _tables(self) -> dict[int, LiveTable]:
        """The live tables in memory (tests peek at them)."""
        return self.tables.loaded

    # ------------------------------------------------------------------ commands

    async def create_table(self, cause: Cause, *, guild_id: int, channel_id: int, rules: str,
                           options: Mapping[str, Any] | None = None,
                           sit: bool = True) -> TableInfo:
        """A new table in the channel's lobby; its creator sits in seat 1 when ``sit``."""
        return await self.commands.create_table(cause, guild_id=guild_id,
                                                channel_id=channel_id, rules=rules,
                                                options=options, sit=sit)

    async def join(self, cause: Cause, table_id: int, seat: int | None = None) -> Seated:
        """Sit down in the lobby: the first empty seat unless one is named."""
        return await self.commands.join(cause, table_id, seat)

    async def add_computer(self, cause: Cause, table_id: int, seat: int | None = None
                           ) -> Seated:
        """Seat a computer player (asked by a player, the creator or a manager)."""
        return await self.commands.add_computer(cause, table_id, seat)

    async def remove_computer(self, cause: Cause, table_id: int, seat: int) -> TableInfo:
        """Take a computer player out of the lobby."""
        return await self.commands.remove_computer(cause, table_id, seat)

    async def leave(self, cause: Cause, table_id: int, *, agreed: Fraction | None = None
                    ) -> TableInfo:
        """Leave: the seat empties in the lobby; during a match the computer takes it,
        once ``agreed`` is what it costs (else `confirm_leave`, with the cost)."""
        return await self.commands.leave(cause, table_id, agreed=agreed)

    async def start(self, cause: Cause, table_id: int) -> TableInfo:
        """Start the match (the creator or a manager), every seat filled."""
        return await self.commands.start(cause, table_id)

    async def cancel(self, cause: Cause, table_id: int) -> TableInfo:
        """Cancel the table (the creator or a manager): the running hand is void."""
        return await self.commands.cancel(cause, table_id)

    async def set_choices(self, cause: Cause, table_id: int, choices: StandingChoices
                          ) -> StandingChoices:
        """Replace the seat's standing choices; returns them."""
        return await self.commands.set_choices(cause, table_id, choices)

    async def set_choice(self, cause: Cause, table_id: int, name: str, on: bool
                         ) -> StandingChoices:
        """Turn one standing choice on or off, the others kept; returns the choices."""
        return await self.commands.set_choice(cause, table_id, name, on)

    async def set_claim_answers(self, cause: Cause, table_id: int,
                                answers: AnswersGiven, *,
                                hand_number: int | None = None) -> dict[Tile, ClaimAnswer]:
        """The seat's claims answered in advance for this hand; returns them."""
        return await self.commands.set_claim_answers(cause, table_id, answers,
                                                     hand_number=hand_number)

    async def set_claim_discard(self, cause: Cause, table_id: int, tile: Tile,
                                then: Tile | None, *, hand_number: int | None = None
                                ) -> dict[Tile, ClaimAnswer]:
        """Name (or, None, clear) the discard after the seat's claim of ``tile``
        answered in advance; returns the seat's answers."""
        return await self.commands.set_claim_discard(cause, table_id, tile, then,
                                                     hand_number=hand_number)

    async def set_next_discard(self, cause: Cause, table_id: int, tile: Tile | None, *,
                               hand_number: int | None = None, seat: int | None = None
                               ) -> Tile | None:
        """Choose (or, None, cancel) the seat's next discard in advance; returns it."""
        return await self.commands.set_next_discard(cause, table_id, tile,
                                                    hand_number=hand_number, seat=seat)

    async def set_next_or_draw(self, cause: Cause, table_id: int, on: bool, *,
                               hand_number: int | None = None, seat: int | None = None
                               ) -> NextDiscard:
        """Switch "or my draw if it helps less" for the seat's next discard; returns it."""
        return await self.commands.set_next_or_draw(cause, table_id, on,
                                                    hand_number=hand_number, seat=seat)

    async def back(self, cause: Cause, table_id: int) -> TableInfo:
        """An away player is back: their timers run again."""
        return await self.commands.back(cause, table_id)

    async def act(self, cause: Cause, table_id: int, action: Action | Mapping[str, Any], *,
                  step: int | None = None, hand_number: int | None = None,
                  public_step: int | None = None) -> ActResult:
        """Play one of the seat's legal actions (a stranger's press: ``not_yours``); a
        button's ``public_step`` (or older one's ``step``) must be the decision's."""
        return await self.commands.act(cause, table_id, action, step=step,
                                       hand_number=hand_number, public_step=public_step)

    async def seen(self, cause: Cause) -> None:
        """Any interaction: remember the person's language."""
        await self.commands.seen(cause)

    def new_language(self, cause: Cause) -> bool:
        """Whether `seen` has anything to remember (a language not known for the person
        here): without, the adapter need not call it."""
        return self._languages.changed(cause)

    async def set_quiet(self, cause: Cause, *, start: str | None = None,
                        end: str | None = None, time_zone: str | None = None,
                        off: bool = False) -> QuietSet:
        """The person's quiet hours (HH:MM to HH:MM on an IANA zone's clock), at every
        table: their timers stand still and nothing notifies them meanwhile."""
        return await self.resting.set_quiet(cause, start=start, end=end,
                                            time_zone=time_zone, off=off)

    async def set_vacation(self, cause: Cause, days: int | None) -> LeaveSet:
        """Take leave for ``days`` days (None: end it); each table honours it up to its
        ``vacation_days`` option, and its creator is told."""
        return await self.resting.set_vacation(cause, days)

    # ------------------------------------------------------------------ queries

    async def table_info(self, table_id: int) -> TableInfo:
        """A table as anyone may see it (also once over)."""
        return await self.queries.table_info(table_id)

    async def tables_in_channel(self, channel_id: int, *, live_only: bool = True
                                ) -> list[TableInfo]:
        """The channel's (live) tables, oldest first."""
        return await self.queries.tables_in_channel(channel_id, live_only=live_only)

    async def find_table(self, cause: Cause, given: int | None = None, *,
                         decision: bool = False) -> int:
        """The table a request means, where it was made (``cause.place``): ``given``
        when it is that channel's (``decision``: or, in private messages, one the person
        sits at), else the channel's live one, or its last; any other: ``no_table``."""
        return await self.queries.find_table(cause, given, decision=decision)

    async def hand(self, cause: Cause, table_id: int) -> HandInfo:
        """The person's own hand and decision (private)."""
        return await self.queries.hand(cause, table_id)

    async def turns(self, cause: Cause) -> tuple[WaitingMove, ...]:
        """What waits for the person asking, at every table of every server (private):
        their turns and claims, the soonest deadline first."""
        return await self.queries.turns(cause)

    async def table_picture(self, table_id: int) -> TablePicture:
        """The public picture's input; ``not_playing`` between matches."""
        return await self.queries.table_picture(table_id)

    async def hand_history(self, table_id: int) -> HandHistory | None:
        """The last finished hand as the channel may read it (None: none yet)."""
        return await self.queries.hand_history(table_id)

    async def leaderboard(self, channel_id: int, rules: str | None = None, *,
                          limit: int = 10, guild_id: int | None = None,
                          season: Season = None) -> Standings:
        """The channel's standings of one rule set (by default the one it played last);
        ``bad_options`` for a rule set that does not exist. With its server
        (``guild_id``): of ``season`` (a past season's number, "all" for all time, None
        for the current one; `no_season` for one the server never had)."""
        if guild_id is None:
            return await self.queries.leaderboard(channel_id, rules, limit=limit)
        return await self.seasons.board(guild_id, channel_id, rules, season, limit=limit)

    async def season_of(self, guild_id: int) -> int:
        """The server's season now (1 until one is closed)."""
        return await self.store.seasons.current(guild_id)

    async def season_now(self, cause: Cause) -> int:
        """The season of the server asked in that a close would close (a server
        manager's: `not_manager` for anyone else)."""
        return await self.seasons.season_now(cause)

    async def close_season(self, cause: Cause, season: int) -> SeasonClosed:
        """Close the server's season ``season`` (a server manager, confirmed): every
        channel's boards archived, the next season begun; `season_closed` if it is
        closed already."""
        return await self.seasons.close(cause, season)

    async def set_recap(self, cause: Cause, enabled: bool) -> RecapSet:
        """Turn the weekly recap of the channel asked in on or off (a server manager)."""
        return await self.recaps.set_recap(cause, enabled)

    async def replay(self, cause: Cause, table_id: int, hand: int | None = None,
                     step: int | None = None, viewer: int | None = None) -> ReplayFrame:
        """A step of a finished hand (default: the last one's deal), all open or as one
        seat saw it; ``no_finished_hand``, ``no_such_hand``, ``hand_running``,
        ``no_such_step``."""
        return await self.replays.frame(cause, table_id, hand, step, viewer)

    async def replay_table(self, cause: Cause, given: int | None) -> int:
        """The table `/mahjong replay` means: ``given`` when it is this channel's
        (`find_table`); else the channel's newest table with a finished hand (a table
        just started has none yet), else the one `find_table` would take."""
        place = cause.place
        if given is None and place is not None and not place.private:
            latest = await self.replays.latest_table(place.channel_id)
            if latest is not None:
                return latest
        return await self.find_table(cause, given)

    async def hand_record(self, cause: Cause, table_id: int, hand: int | None = None
                          ) -> HandRecord:
        """A finished hand as data anyone can check (its JSON file); refused as `replay`."""
        return await self.replays.record(cause, table_id, hand)

    async def player_stats(self, cause: Cause, user_id: int | None = None,
                           rules: str | None = None, scope: str | None = None,
                           versus: int | None = None) -> PlayerStats:
        """``/mahjong stats``: a person's figures (default: the asker's) in one rule set,
        in the channel asked in, its server or (their own only) every server, and
        against ``versus`` (`Stats.player`)."""
        return await self.stats.player(cause, user_id, rules, scope, versus)

    async def rebuild_ratings(self, cause: Cause) -> Rebuilt:
        """Replay the finished matches of the server asked in and rebuild its ratings
        (a server manager: else ``ratings_not_manager``); what moved."""
        return await self.ratings.rebuild(cause)

    # ------------------------------------------------------------------ running

    async def recover(self, *, eager: bool = False, counted: bool = True) -> RecoveryReport:
        """Start-up: serving again at once (see `Recovery.recover`). The engine's
        bundled group-cost table is read first, so that no player's first move after
        the restart waits on it (about 18 ms)."""
        preload_tables()
        return await self.recovery.recover(eager=eager, counted=counted)

    async def start_facts(self) -> FactsRebuilt:
        """Start-up, before `start_ratings`: the stats' facts rebuilt from the logs when
        they were derived by another formula (`bot.service.facts.rebuild_facts`: once,
        whatever the number of processes starting; the others wait for it). Facts
        rebuilt, every rating is replayed from them."""
        rebuilt = await rebuild_facts(self.store, self.clock.now)
        if rebuilt.hands and rebuilt.done:
            await self.store.ratings.rebuild(RATING_FORMULA)
        return rebuilt

    async def rebuild_facts(self) -> FactsRebuilt:
        """Every settled hand's and finished match's facts derived again from the logs
        (tools and tests; start-up does it when the formula changed: `start_facts`)."""
        return await rebuild_facts(self.store, self.clock.now, force=True)

    async def start_ratings(self) -> Rebuilt | None:
        """Start-up: every rating rebuilt when the formula changed (once), and any
        finished match not rated yet rated (see `RatingAdmin.start`)."""
        return await self.ratings.start()

    async def resend_dms(self) -> int:
        """Start-up, after `recover`: DM again each decision a crash left untold (see
        `Recovery.resend_dms`); how many DMs."""
        return await self.recovery.resend_dms()

    async def warm(self) -> int:
        """Replay the live tables `recover` left for later; how many."""
        return await self.recovery.warm()

    async def run(self) -> None:
        """The scheduler loop: run it as a background task for the bot's lifetime
        (shared mode: the loop claiming due deadlines from the database), and beside it
        the digests' (digests.py), the weekly recaps' (recaps.py) and the one that lets
        idle tables leave memory (tables.py)."""
        await asyncio.gather(self.loop.run(), self.digests.run(), self.recaps.run(),
                             self.tables.run())

    def stop(self) -> None:
        """End `run` (its firings in flight finish: `drain`)."""
        self.loop.stop()
        self.digests.stop()
        self.recaps.stop()
        self.tables.stop()

    async def drain(self) -> None:
        """Wait for the firings already started."""
        await self.loop.drain()

    async def run_due(self) -> int:
        """Play everything due now, and send the digests and recaps due, then let the
        idle tables leave memory (tests with a fake clock; the demo's fast loop)."""
        fired = await self.loop.run_due() + await self.digests.run_due() \
            + await self.recaps.run_due()
        self.tables.unload_idle()
        return fired


def _shuffle(rules: str, dealer: int) -> Deal:
    """A wall shuffled with `secrets` (the bot's; tests stack walls instead)."""
    return shuffle(rulesets.get(rules).has_flowers)


__all__ = ["ActResult", "ComputerNamer", "HandHistory", "HandInfo", "RecoveryReport",
           "SeatInfo", "Seated", "TablePicture", "TableRef", "TableService",
           "default_computer_name"]
