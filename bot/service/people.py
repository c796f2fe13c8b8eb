"""`People`: what each person set for themself (quiet hours, time zone, a leave), as far
as this process knows, and the `Rest` it gives at one table.

The store is the truth (`store.people`); this process keeps what it read. A rebuilt
table brings its people's rows (`learn`, read in the same batch as the table); a
person's own change is written first and kept here after (`set_quiet`,
`set_vacation`); a timer about to play reads its person's row fresh (`fresh`).

Shared mode: the process that takes a person's change re-plans their pending decisions
at each of their live tables under that table's lock, and each such write (or, with
nothing pending, a bare bump) puts the table's change counter up; every other process
then reloads the table before it next serves it, and the reload reads the people's rows
with it. So a change made in one process is what another plans with.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping

from bot.service.clock import Clock
from bot.service.quiet import BadQuietHours, QuietHours, Rest
from bot.store import PersonRow, Store
from engine.rules.common import TableOptions

DAY = 24 * 3600.0
log = logging.getLogger(__name__)


def rest_of(row: PersonRow | None, options: TableOptions) -> Rest | None:
    """A person's rest at a table with these options: their quiet hours, and their leave
    cut to the table's ``vacation_days`` (0: none honoured); None when neither."""
    if row is None:
        return None
    hours = None
    if row.time_zone is not None and row.quiet_start is not None \
            and row.quiet_end is not None:
        try:
            hours = QuietHours(row.time_zone, row.quiet_start, row.quiet_end)
        except BadQuietHours:  # a zone this machine's tzdata does not know (any more)
            log.warning("quiet hours of user %s not used: zone %r unknown here",
                        row.user_id, row.time_zone)
    begin, until = row.vacation_from, row.vacation_until
    days = options.vacation_days
    if begin is None or until is None or days <= 0:
        begin = until = None
    else:
        until = min(until, begin + days * DAY)
    if hours is None and begin is None:
        return None
    return Rest(hours, begin, until)


def leave_end(row: PersonRow | None, options: TableOptions, now: float) -> float | None:
    """When the person's leave ends at this table (None: not on leave there now)."""
    rest = rest_of(row, options)
    if rest is None or rest.leave_from is None or rest.leave_until is None:
        return None
    return rest.leave_until if rest.leave_from <= now < rest.leave_until else None


class People:
    """Person → their stored settings (`PersonRow`), as this process last read them."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self._store = store
        self._clock = clock
        self._known: dict[int, PersonRow | None] = {}

    def row(self, user_id: int | None) -> PersonRow | None:
        return None if user_id is None else self._known.get(user_id)

    def rest(self, user_id: int | None, options: TableOptions) -> Rest | None:
        """The person's rest at a table with these options, as known here."""
        return rest_of(self.row(user_id), options)

    def learn(self, user_ids: Iterable[int], rows: Mapping[int, PersonRow]) -> None:
        """These people's rows as read from the store with a table (one without a row
        set nothing): the store is the truth."""
        for user in user_ids:
            self._known[user] = rows.get(user)

    def forget(self, user_ids: Iterable[int]) -> None:
        """No table in memory seats these people any more: their rows leave memory (a
        table that seats them again reads them with itself)."""
        for user in user_ids:
            self._known.pop(user, None)

    async def know(self, user_ids: Iterable[int | None]) -> None:
        """Read the rows of those of these people this process does not know yet (a
        person who sat down at a table made here: their timers must know their rest);
        no read when it knows them all."""
        unknown = [u for u in user_ids if u is not None and u not in self._known]
        if unknown:
            self.learn(unknown, await self._store.people.of(unknown))

    async def fresh(self, user_id: int) -> PersonRow | None:
        """The person's row read from the store now (and kept)."""
        row = await self._store.people.get(user_id)
        self._known[user_id] = row
        return row

    async def set_quiet(self, user_id: int, hours: QuietHours | None,
                        time_zone: str | None) -> PersonRow:
        """Store the person's quiet hours (None: off; the zone kept) and keep them."""
        now = self._clock.now()
        if hours is None:
            row = await self._store.people.set_quiet(user_id, time_zone=time_zone,
                                                     start=None, end=None, at=now)
        else:
            row = await self._store.people.set_quiet(user_id, time_zone=hours.zone,
                                                     start=hours.start, end=hours.end, at=now)
        self._known[user_id] = row
        return row

    async def set_vacation(self, user_id: int, until: float | None) -> PersonRow:
        """Store the person's leave, from now to ``until`` (None: ended now)."""
        now = self._clock.now()
        row = await self._store.people.set_vacation(
            user_id, begin=None if until is None else now, until=until, at=now)
        self._known[user_id] = row
        return row
