"""`Part`: what each part of the service shares (the store, the clock, the scheduler,
the live tables, the languages) and how it reaches the other parts.

`TableService` (service.py) builds one of each part and hands them itself; a part
calls another as ``self.moves.commit(…)``, ``self.commands.seen(…)``, ``self.timers.plan(…)``,
``self.announcer.publish(…)``, ``self.recovery.live(…)``, ``self.queries.table_info(…)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.service.live import LiveTable

if TYPE_CHECKING:
    from bot.service.announcements import Announcer
    from bot.service.claims import Claims
    from bot.service.commands import Commands
    from bot.service.moves import Moves
    from bot.service.queries import Queries
    from bot.service.recovery import Recovery
    from bot.service.service import TableService
    from bot.service.timers import Timers


class Part:
    def __init__(self, service: TableService) -> None:
        self.service = service
        self.store = service.store
        self.clock = service.clock
        self.scheduler = service.scheduler
        self.tables: dict[int, LiveTable] = service.tables
        """The live tables in memory, by id (`Recovery` loads and drops them)."""
        self.locales: dict[int, str] = service.locales
        """The language each person last used (as far as this process knows)."""

    @property
    def commands(self) -> Commands:
        return self.service.commands

    @property
    def moves(self) -> Moves:
        return self.service.moves

    @property
    def timers(self) -> Timers:
        return self.service.timers

    @property
    def announcer(self) -> Announcer:
        return self.service.announcer

    @property
    def recovery(self) -> Recovery:
        return self.service.recovery

    @property
    def queries(self) -> Queries:
        return self.service.queries

    @property
    def claims(self) -> Claims:
        return self.service.claims
