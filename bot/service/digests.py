"""`Digests`: one DM when a person's quiet hours end, summing up what waits for them.

While a person is inside their quiet hours (or on leave) the DMs that reach them come
silently; when the quiet ends and decisions wait for them, they get exactly one DM that
notifies: the list `/mahjong turns` gives (`DigestNotice`), not one notification per
table. Nothing is sent when nothing waits by then.

Durable, as deadlines are: a process looks now and then (`sweep`, every ``every``
seconds) at the people who set quiet hours (or are on leave) and for whom a decision
waits; each one who is quiet now is owed a digest at the moment their quiet ends (a row
of ``digests``, migration 0019, written once). When that moment comes, a process claims
the row with a lease (`Digests.claim`: with several processes on one database one takes
it, ``FOR UPDATE SKIP LOCKED`` on PostgreSQL), looks again (still quiet, the hours
changed: put off to their new end), marks it sent — only while its claim holds, so a
process whose lease ran out never sends what another took — and then publishes the
digest. A restart or a kill before that moment leaves the row to whoever runs next; a
kill between the claim and the mark leaves it claimed until the lease runs out, then
another process sends it; a kill between the mark and the DM loses that one digest
(the decisions' own DMs are there, silent). A sent row stays (0020) until the next
quiet's: a decision that reached the person in the last moments of their quiet, after
the last look, is owed that quiet's digest at the next look, unless it went already.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable

from bot.service.announcements import Announcer
from bot.service.clock import Clock
from bot.service.languages import Languages
from bot.service.notices import DigestNotice, WaitingMove
from bot.service.quiet import BadQuietHours, QuietHours, Rest
from bot.store import DigestRow, PersonRow, Store

log = logging.getLogger(__name__)

SWEEP_EVERY = 60.0
"""Seconds between two looks at who is quiet with a decision waiting: a decision that
reaches a person in the last minute of their quiet hours may get no digest."""
DIGEST_LEASE = 120.0
"""Seconds a process holds a digest it claimed (a killed one's passes to another)."""
LOOKBACK = 3
"""How many looks back a quiet that ended is still owed its digest for a decision that
reached the person after the last look before its end."""
RETRY = 5.0
"""Seconds before looking again at a digest due that another process holds."""


def person_rest(person: PersonRow) -> Rest | None:
    """A person's quiet hours and whole leave as time arithmetic, the same at every table
    (None: neither; hours whose zone this machine does not know count as none). Unlike
    a table's (`people.rest_of`), the leave is not cut to a table's ``vacation_days``:
    the digest is the person's, and comes when their own rest ends."""
    hours = None
    if person.quiet_start is not None and person.quiet_end is not None and person.time_zone:
        try:
            hours = QuietHours(person.time_zone, person.quiet_start, person.quiet_end)
        except BadQuietHours:
            log.warning("quiet hours of person %s not understood: zone %r", person.user_id,
                        person.time_zone)
    if hours is None and person.vacation_until is None:
        return None
    return Rest(hours, person.vacation_from, person.vacation_until)


def last_quiet(rest: Rest, since: float, now: float) -> tuple[float, float] | None:
    """The person's quiet (a night of their hours, or their leave) that ended in
    ``(since, now]``, as ``(begin, end)``; the latest if several (None: none)."""
    ended = []
    if rest.hours is not None:
        ended += [(b, e) for b, e in rest.hours.windows(now, 2) if since < e <= now]
    if rest.leave_from is not None and rest.leave_until is not None \
            and since < rest.leave_until <= now:
        ended.append((rest.leave_from, rest.leave_until))
    return max(ended, key=lambda w: w[1], default=None)


class Digests:
    """The digests owed: found (`sweep`), sent when due (`run_due`, `run`)."""

    def __init__(self, store: Store, clock: Clock, announcer: Announcer,
                 languages: Languages,
                 waiting_for: Callable[[int], Awaitable[tuple[WaitingMove, ...]]], *,
                 every: float = SWEEP_EVERY, lease: float = DIGEST_LEASE) -> None:
        """``waiting_for``: what waits for a person (`Queries.waiting_for`)."""
        self._store = store
        self._clock = clock
        self._announcer = announcer
        self._languages = languages
        self._waiting_for = waiting_for
        self.every = every
        self.lease = lease
        self.owner = secrets.token_hex(8)
        """This process's name on its claims (random: a restarted process is another)."""
        self.swept_at = float("-inf")
        self._wake = asyncio.Event()
        self._running = False
        self._stopped = False

    async def sweep(self) -> int:
        """Everyone quiet now with a decision waiting is owed a digest when their quiet
        ends; so is everyone whose quiet ended since the look before (within a few
        looks) with a decision waiting that reached them during it (after that look:
        the last moments of their quiet). Once a quiet: a digest owed or sent for it
        stands. How many were newly owed."""
        now = self._clock.now()
        since = max(self.swept_at, now - LOOKBACK * self.every)
        self.swept_at = now
        owed = 0
        for person in await self._store.digests.resting_and_waited_for(now):
            rest = person_rest(person)
            if rest is None:
                continue
            until = rest.quiet_until(now)
            if until is None:
                until = await self._just_ended(person.user_id, rest, since, now)
            if until is not None and await self._store.digests.owe(person.user_id, until,
                                                                   at=now):
                owed += 1
        if owed:
            self._wake.set()  # the loop sleeps until the soonest
        return owed

    async def _just_ended(self, user_id: int, rest: Rest, since: float, now: float
                          ) -> float | None:
        """When the person's quiet ended, if it ended in ``(since, now]`` and a decision
        waiting for them reached them during it (None: not so)."""
        ended = last_quiet(rest, since, now)
        if ended is None:
            return None
        begin, end = ended
        waiting = await self._store.deadlines.waiting_for(user_id)
        return end if any(begin <= w.set_at < end for w in waiting) else None

    async def run_due(self) -> int:
        """Look (when a sweep is due), then send the digests come due; how many went."""
        if self._clock.now() - self.swept_at >= self.every:
            await self.sweep()
        sent = 0
        while not self._stopped:
            now = self._clock.now()
            due = await self._store.digests.earliest()  # a read: most calls stop here
            if due is None or due > now:
                break
            rows = await self._store.digests.claim(now, owner=self.owner,
                                                   until=now + self.lease)
            if not rows:
                break
            for row in rows:
                sent += await self._send(row)
        return sent

    async def _send(self, row: DigestRow) -> int:
        """One claimed digest: put off while the person is still quiet (their hours
        changed), else owed no more and, when something waits, sent."""
        now = self._clock.now()
        person = await self._store.people.get(row.user_id)
        rest = person_rest(person) if person is not None else None
        until = rest.quiet_until(now) if rest is not None else None
        if until is not None:
            await self._store.digests.put_off(row.user_id, until, owner=self.owner)
            return 0
        waiting = await self._waiting_for(row.user_id)
        if not await self._store.digests.done(row.user_id, owner=self.owner, at=now) \
                or not waiting:
            return 0  # another process took it (this one's lease ran out), or nothing waits
        await self._announcer.publish(DigestNotice(row.user_id, waiting,
                                                   await self._locale(row.user_id)))
        return 1

    async def _locale(self, user_id: int) -> str | None:
        known = self._languages.of(user_id)
        if known is not None:
            return known
        return (await self._store.lobby.user_locales([user_id])).get(user_id)

    async def run(self) -> None:
        """Forever: send what is due, look now and then, sleep until the next of those."""
        self._running = True
        try:
            while self._running:
                self._wake.clear()
                try:
                    await self.run_due()
                    due = await self._store.digests.earliest()
                except asyncio.CancelledError:
                    raise
                except Exception:  # never the end of the loop (nor of the scheduler's)
                    log.exception("the digests could not be looked at")
                    due = None
                now = self._clock.now()
                wake_at = self.swept_at + self.every
                if due is not None:  # one another process holds: look again a bit later
                    wake_at = min(wake_at, due if due > now else now + RETRY)
                await self._clock.sleep_until(max(wake_at, now), self._wake)
        finally:
            self._running = False

    def stop(self) -> None:
        """End `run`; nothing more is claimed (shutdown)."""
        self._running = False
        self._stopped = True
        self._wake.set()
