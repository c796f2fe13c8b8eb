"""`TableService`: the door between the game and the outside world (DESIGN.md).

Commands come in, each with the `Cause` behind it (who asks, in which language);
notices go out, each a frozen `Notice` through the one `Notifier.publish`. The service
knows nothing of Discord: users, guilds and channels are ints, and "is a server
manager" is a flag on the cause.

This file is the door itself: the settings, the parts, and every public command and
query, each delegating to the part that does it:

- `Commands` (commands.py): lobby, play, standing choices, `seen`;
- `Queries` (queries.py): reads, no change;
- `Moves` (moves.py): the one path of every move; dealing, settling, voiding hands;
- `Timers` (timers.py): pending decisions, the scheduler's moments, reminders, away;
- `Announcer` (announcements.py): every notice built and published, the outbox;
- `Recovery` (recovery.py): live tables loaded on first use, rebuilt after a restart.

The parts share the store, the clock, the scheduler and the live tables (`Part`,
part.py); each table's changes happen under its own lock.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.service.announcements import Announcer
from bot.service.cause import Cause
from bot.service.clock import Clock, SystemClock
from bot.service.commands import Commands
from bot.service.fairness import Deal, shuffle
from bot.service.live import LiveTable
from bot.service.moves import Moves
from bot.service.notices import SeatInfo, TableInfo, TableRef
from bot.service.notifier import Notifier
from bot.service.queries import Queries
from bot.service.recovery import Recovery
from bot.service.results import (
    ActResult,
    HandHistory,
    HandInfo,
    RecoveryReport,
    Seated,
    TablePicture,
)
from bot.service.scheduler import Scheduler
from bot.service.timers import Timers
from bot.store import LeaderboardRow, StandingChoices, Store
from engine import rules as rulesets
from engine.game import Action

ComputerNamer = Callable[[TableRef, int, str | None], str]
"""The name a computer seat gets when it sits down: (table, seat 0–3, the name of the
player it replaces mid-match or None). The name is stored with the seat, so every place
that shows it (lobby, pictures, settlement, leaderboard) shows the same words."""


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
        self.deal: Callable[[str, int], Deal] = deal or (
            lambda rules, _dealer: shuffle(rulesets.get(rules).has_flowers))
        self.computer_name: ComputerNamer = computer_name or default_computer_name
        self.tables: dict[int, LiveTable] = {}
        self.locales: dict[int, str] = {}
        self.scheduler = Scheduler(self.clock, lambda wake: self.timers.fire(wake))
        self.recovery = Recovery(self)
        self.moves = Moves(self)
        self.timers = Timers(self)
        self.announcer = Announcer(self)
        self.commands = Commands(self)
        self.queries = Queries(self)

    @property
    def _tables(self) -> dict[int, LiveTable]:
        """The live tables (tests peek at them)."""
        return self.tables

    # ------------------------------------------------------------------ commands

    async def create_table(self, cause: Cause, *, guild_id: int, channel_id: int, rules: str,
                           options: Mapping[str, Any] | None = None,
                           sit: bool = True) -> TableInfo:
        return await self.commands.create_table(cause, guild_id=guild_id,
                                                channel_id=channel_id, rules=rules,
                                                options=options, sit=sit)

    async def join(self, cause: Cause, table_id: int, seat: int | None = None) -> Seated:
        return await self.commands.join(cause, table_id, seat)

    async def add_computer(self, cause: Cause, table_id: int, seat: int | None = None
                           ) -> Seated:
        return await self.commands.add_computer(cause, table_id, seat)

    async def remove_computer(self, cause: Cause, table_id: int, seat: int) -> TableInfo:
        return await self.commands.remove_computer(cause, table_id, seat)

    async def leave(self, cause: Cause, table_id: int) -> TableInfo:
        return await self.commands.leave(cause, table_id)

    async def start(self, cause: Cause, table_id: int) -> TableInfo:
        return await self.commands.start(cause, table_id)

    async def cancel(self, cause: Cause, table_id: int) -> TableInfo:
        return await self.commands.cancel(cause, table_id)

    async def set_choices(self, cause: Cause, table_id: int, choices: StandingChoices
                          ) -> StandingChoices:
        return await self.commands.set_choices(cause, table_id, choices)

    async def set_choice(self, cause: Cause, table_id: int, name: str, on: bool
                         ) -> StandingChoices:
        return await self.commands.set_choice(cause, table_id, name, on)

    async def back(self, cause: Cause, table_id: int) -> TableInfo:
        return await self.commands.back(cause, table_id)

    async def act(self, cause: Cause, table_id: int, action: Action | Mapping[str, Any], *,
                  step: int | None = None, hand_number: int | None = None) -> ActResult:
        return await self.commands.act(cause, table_id, action, step=step,
                                       hand_number=hand_number)

    async def seen(self, cause: Cause) -> None:
        await self.commands.seen(cause)

    # ------------------------------------------------------------------ queries

    async def table_info(self, table_id: int) -> TableInfo:
        return await self.queries.table_info(table_id)

    async def tables_in_channel(self, channel_id: int, *, live_only: bool = True
                                ) -> list[TableInfo]:
        return await self.queries.tables_in_channel(channel_id, live_only=live_only)

    async def find_table(self, cause: Cause, channel_id: int, given: int | None = None
                         ) -> int:
        return await self.queries.find_table(cause, channel_id, given)

    async def hand(self, cause: Cause, table_id: int) -> HandInfo:
        return await self.queries.hand(cause, table_id)

    async def table_picture(self, table_id: int) -> TablePicture:
        return await self.queries.table_picture(table_id)

    async def hand_history(self, table_id: int) -> HandHistory | None:
        return await self.queries.hand_history(table_id)

    async def leaderboard(self, channel_id: int, *, limit: int = 10) -> list[LeaderboardRow]:
        return await self.queries.leaderboard(channel_id, limit=limit)

    # ------------------------------------------------------------------ running

    async def recover(self, *, eager: bool = False) -> RecoveryReport:
        return await self.recovery.recover(eager=eager)

    async def warm(self) -> int:
        return await self.recovery.warm()

    async def run(self) -> None:
        """The scheduler loop: run it as a background task for the bot's lifetime."""
        await self.scheduler.run()

    async def run_due(self) -> int:
        """Play everything due now (tests with a fake clock; the demo's fast loop)."""
        return await self.scheduler.run_due()


__all__ = ["ActResult", "ComputerNamer", "HandHistory", "HandInfo", "RecoveryReport",
           "SeatInfo", "Seated", "TablePicture", "TableRef", "TableService",
           "default_computer_name"]
