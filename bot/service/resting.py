"""`Resting`: a person's quiet hours and leave (`/mahjong quiet`, `/mahjong vacation`).

Both are the person's, at every table of every server (`People`, store.people). A
change is checked whole before anything is written (a refusal changes nothing), stored,
then carried to each live table the person sits at, under that table's lock: their
pending decision keeps the time it had left, counted under the new rest
(`Timers.rest_changed`), and the table is told (its message shows who rests until
when). In shared mode each of those tables' change counter moves (the deadline's write,
or a bare bump), so every other process reloads it, and its people's settings with it,
before serving it again. A leave is honoured at each table only up to its
``vacation_days``; the table's creator is told once (`LeaveNotice`).
"""

from __future__ import annotations

from bot.service import errors as E
from bot.service.announcements import Announcer
from bot.service.cause import Cause
from bot.service.clock import Clock
from bot.service.errors import Refused
from bot.service.languages import Languages
from bot.service.live import LiveTable
from bot.service.notices import LeaveNotice, TableNotice
from bot.service.people import DAY, People, leave_end
from bot.service.quiet import MINUTES_A_DAY, BadQuietHours, QuietHours, parse_clock, zone_of
from bot.service.results import LeaveSet, QuietSet
from bot.service.tables import LiveTables
from bot.service.timers import Timers
from bot.store import PersonRow, Store
from engine.view import visible_deciding

MOST_QUIET_HOURS = 16
"""The longest quiet hours a person may take each day (a longer rest is a leave, which
each table limits)."""
MOST_VACATION_DAYS = 30


class Resting:
    """Quiet hours and leave: set, checked, and carried to the person's tables."""

    def __init__(self, store: Store, clock: Clock, tables: LiveTables, timers: Timers,
                 announcer: Announcer, people: People, languages: Languages) -> None:
        self._store = store
        self._clock = clock
        self._tables = tables
        self._timers = timers
        self._announcer = announcer
        self._people = people
        self._languages = languages

    async def set_quiet(self, cause: Cause, *, start: str | None = None,
                        end: str | None = None, time_zone: str | None = None,
                        off: bool = False) -> QuietSet:
        """Set the person's quiet hours (``start``, ``end`` as HH:MM on ``time_zone``'s
        clock; what is left out is kept from before), or turn them ``off``. Refused,
        nothing changed: an unknown zone, no zone ever given, a time of day that is
        not one, a start equal to its end, more than `MOST_QUIET_HOURS`."""
        await self._languages.seen(cause)
        before = await self._people.fresh(cause.user_id)
        zone = time_zone.strip() if time_zone is not None and time_zone.strip() else None
        if zone is not None:
            try:
                zone_of(zone)
            except BadQuietHours:
                raise Refused(E.BAD_TIME_ZONE, f"not a time zone: {zone!r}",
                              zone=zone) from None
        zone = zone or (before.time_zone if before else None)
        hours = None if off else self._hours(before, zone, start, end)
        await self._people.set_quiet(cause.user_id, hours, zone)
        await self._carry(cause.user_id, before, leave_told=False)
        return self._quiet_set(hours, zone)

    def _hours(self, before: PersonRow | None, zone: str | None, start: str | None,
               end: str | None) -> QuietHours:
        if zone is None:
            raise Refused(E.NO_TIME_ZONE, "quiet hours need a time zone")
        begin = _minute(start) if start is not None else before.quiet_start if before else None
        until = _minute(end) if end is not None else before.quiet_end if before else None
        if begin is None or until is None:
            raise Refused(E.QUIET_NEEDS_HOURS, "quiet hours need a start and an end")
        if begin == until:
            raise Refused(E.QUIET_EMPTY, "quiet hours must end at another time than they "
                                         "start")
        if (until - begin) % MINUTES_A_DAY > MOST_QUIET_HOURS * 60:
            raise Refused(E.QUIET_TOO_LONG, f"quiet hours last at most {MOST_QUIET_HOURS} h",
                          most=MOST_QUIET_HOURS)
        return QuietHours(zone, begin, until)

    def _quiet_set(self, hours: QuietHours | None, zone: str | None) -> QuietSet:
        if hours is None:
            return QuietSet(zone, None, None)
        now = self._clock.now()
        until = hours.quiet_until(now)
        if until is not None:  # quiet now: the window they are in
            begin = max((b for b, e in hours.windows(now, 2) if b <= now < e), default=now)
            return QuietSet(zone, hours.start, hours.end, begin, until, now=True)
        upcoming = hours.next_start(now)
        return QuietSet(zone, hours.start, hours.end, upcoming,
                        None if upcoming is None else hours.quiet_until(upcoming))

    async def set_vacation(self, cause: Cause, days: int | None) -> LeaveSet:
        """Take leave for ``days`` whole days from now (None: end it now); each table
        honours it up to its ``vacation_days``. Refused, nothing changed: another
        number of days than 1 to `MOST_VACATION_DAYS`."""
        await self._languages.seen(cause)
        if days is not None and (isinstance(days, bool) or not isinstance(days, int)
                                 or not 1 <= days <= MOST_VACATION_DAYS):
            raise Refused(E.BAD_DAYS, f"a leave is 1 to {MOST_VACATION_DAYS} days",
                          most=MOST_VACATION_DAYS)
        before = await self._people.fresh(cause.user_id)
        until = None if days is None else self._clock.now() + days * DAY
        row = await self._people.set_vacation(cause.user_id, until)
        honoured = await self._carry(cause.user_id, before, leave_told=days is not None)
        return LeaveSet(row.vacation_until, honoured)

    async def _carry(self, user_id: int, before: PersonRow | None, *, leave_told: bool
                     ) -> tuple[tuple[int, float | None], ...]:
        """The change reaches each live table the person sits at: their pending
        decision re-planned, the table told; with ``leave_told``, each table's creator
        learns the leave. Returns, per table, until when it honours the leave."""
        honoured = []
        for seat_row in await self._store.lobby.seats_of_user(user_id):
            try:
                async with self._tables.locked(seat_row.table_id) as live:
                    there = await self._carry_to(live, user_id, before, leave_told)
            except Refused:
                continue  # over meanwhile
            if there is not None:
                honoured.append((seat_row.table_id, there[0]))
        return tuple(honoured)

    async def _carry_to(self, live: LiveTable, user_id: int, before: PersonRow | None,
                        leave_told: bool) -> tuple[float | None] | None:
        """Until when this table honours the person's leave (None inside: not at all);
        None: they no longer sit there."""
        seat = live.seat_of(user_id)
        if seat is None or not live.row.is_live:
            return None
        options = live.options
        moved = await self._timers.rest_changed(live, user_id, before)
        if not moved:  # shared mode: the other processes still learn it (a reload)
            await self._store.processes.touch(fence=live.fence)
        now = self._clock.now()
        until = leave_end(self._people.row(user_id), options, now)
        hand = live.hand
        if hand is not None:  # the table message shows who rests until when
            state = hand.state
            await self._announcer.publish(TableNotice(
                live.ref, live.names, live.hand_number, state.seq, (),
                visible_deciding(state), (), state, live.seat_infos,
                resting=self._announcer.resting(live)))
            for other in sorted(moved):  # their DM shows the deadline as it is now
                await self._announcer.redraw(live, other)
        row = live.seats[seat]
        if leave_told and until is not None and row is not None \
                and live.row.creator_id != user_id:
            await self._announcer.publish(LeaveNotice(live.ref, seat, user_id,
                                                      row.display_name, until,
                                                      live.row.creator_id))
        return (until,)


def _minute(text: str) -> int:
    try:
        return parse_clock(text)
    except BadQuietHours:
        raise Refused(E.BAD_CLOCK, f"not a time of day: {text!r}", value=text) from None
