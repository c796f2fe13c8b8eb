"""`Recaps`: a channel's weekly recap, turned on by a server manager (`/mahjong recap`),
posted once a week in the server's language: the biggest hand of each rule set played in
the channel that week (named with its patterns), the most improved rating, and who
played the most hands. A week with no hand ended in the channel posts nothing.

**When.** Each week (ISO weeks, Monday 00:00 UTC to the next) is due on the Monday after
it at 09:00 UTC (`POST_AT`). A process looks at start and then every `RECAP_EVERY`
seconds (or at the next due moment, if sooner), in its own loop beside the digests'
(`TableService.run`), for the channels whose recap is on and whose latest due week is
not decided yet. A bot down across a Monday posts that week's recap when it is back
(only the latest due week: a bot down for weeks does not post a backlog).

**Once.** Deciding a week is one transaction (`store.recaps.post`): the channel's
`recaps_posted` row, written ``ON CONFLICT DO NOTHING``, and the recap's announcement in
the outbox (kind ``recap``, carried by the channel's last table whose hand ended that
week). Whoever writes the row second — this process again after a restart or a SIGKILL,
or another process in shared mode — writes nothing at all; the outbox then delivers the
announcement exactly once as it does every other (claimed with a lease in shared mode,
looked for in the channel before a resend after a crash). So this needs no lease of its
own, unlike the digests: the week's row is the claim and the record at once.

Why not the scheduler: it holds the live tables' decisions (deadline rows of hands,
claimed per hand in shared mode); a weekly channel post belongs to no hand.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from bot.service.announcements import Announcer
from bot.service.cause import Cause
from bot.service.clock import Clock
from bot.service.notices import RecapGain, RecapHand, RecapNotice, TableInfo, TableRef
from bot.service.results import RecapSet
from bot.service.seasons import _place, need_manager
from bot.store import Store
from bot.store.recaps import WeekFigures

log = logging.getLogger(__name__)

WEEK = 7 * 86400.0
POST_AT = 9 * 3600.0
"""A week's recap is due this long after the week ends (Monday 09:00 UTC)."""
RECAP_EVERY = 600.0
"""Seconds between two looks for a due recap (a process wakes sooner at a due moment)."""


def week_name(start: float) -> str:
    """The ISO week beginning at ``start`` (a Monday 00:00 UTC), as ``YYYY-Www``."""
    year, week, _ = datetime.fromtimestamp(start, UTC).isocalendar()
    return f"{year}-W{week:02d}"


def due_week(now: float) -> tuple[str, float, float]:
    """The latest week whose recap is due at ``now``: its name, start and end (UTC)."""
    at = datetime.fromtimestamp(now, UTC)
    monday = datetime(at.year, at.month, at.day, tzinfo=UTC) - timedelta(days=at.weekday())
    this_week = monday.timestamp()
    start = this_week - (WEEK if now >= this_week + POST_AT else 2 * WEEK)
    return week_name(start), start, start + WEEK


def next_due(now: float) -> float:
    """The next moment a week's recap comes due after ``now``."""
    _, _, end = due_week(now)
    return end + WEEK + POST_AT


def week_number(name: str) -> int:
    """``2026-W49`` → 202649: the number the recap's announcement carries (its key)."""
    year, week = name.split("-W")
    return int(year) * 100 + int(week)


class Recaps:
    """The weekly recaps: turned on or off (`set_recap`), posted when due (`run_due`,
    `run`)."""

    def __init__(self, store: Store, clock: Clock, announcer: Announcer,
                 table_info: Callable[[int], Awaitable[TableInfo]], *,
                 every: float = RECAP_EVERY) -> None:
        """``table_info``: a table's info by id (`Queries.table_info`), for the outbox."""
        self._store = store
        self._clock = clock
        self._announcer = announcer
        self._table_info = table_info
        self.every = every
        self._wake = asyncio.Event()
        self._running = False

    async def set_recap(self, cause: Cause, enabled: bool) -> RecapSet:
        """Turn the weekly recap of the channel asked in on or off (a server manager)."""
        guild_id, channel_id = _place(cause)
        need_manager(cause, guild_id)
        row = await self._store.recaps.set(channel_id, guild_id, enabled,
                                           at=self._clock.now())
        return RecapSet(row.channel_id, row.enabled)

    async def run_due(self) -> int:
        """Decide the due week of every channel whose recap is on and has not had it
        (nothing posted for a quiet week); how many recaps were posted."""
        week, start, end = due_week(self._clock.now())
        posted = 0
        for recap in await self._store.recaps.due(week):
            figures = await self._store.recaps.week(recap.channel_id, start, end)
            notice = None
            if figures.hands and figures.table_id is not None:
                notice = await self._notice(recap.guild_id, recap.channel_id, figures, week,
                                            start, end)
            if not await self._store.recaps.post(
                    recap.channel_id, week, at=self._clock.now(), table_id=figures.table_id,
                    number=week_number(week),
                    facts=None if notice is None else notice.facts()):
                continue  # decided meanwhile (another process)
            if notice is not None and figures.table_id is not None:
                posted += 1
                await self._announcer.deliver_table(figures.table_id, self._table_info)
        return posted

    async def _notice(self, guild_id: int, channel_id: int, figures: WeekFigures, week: str,
                      start: float, end: float) -> RecapNotice:
        names = dict(figures.names)

        def name(user_id: int) -> str:
            return names.get(user_id) or str(user_id)

        biggest = tuple(RecapHand(b.rules, b.user_id, name(b.user_id), b.value, b.patterns)
                        for b in figures.biggest)
        most = None if figures.most_hands is None else \
            (name(figures.most_hands[0]), figures.most_hands[1])
        improved = await self._improved(guild_id, channel_id, figures, start, end)
        assert figures.table_id is not None
        ref = TableRef(figures.table_id, guild_id, 0, 0)
        return RecapNotice(ref, week, figures.hands, biggest, improved, most)

    async def _improved(self, guild_id: int, channel_id: int, figures: WeekFigures,
                        start: float, end: float) -> RecapGain | None:
        """The week's most improved rating from the channel's matches that ended in it:
        each person's shown rating of a rule set after their last such match there less
        before their first (None: none rose, or no match was rated)."""
        changes = [c for c in await self._store.ratings.changes_between(guild_id, start, end)
                   if c.match_id in figures.matches]
        first: dict[tuple[int, str], int] = {}
        last: dict[tuple[int, str], int] = {}
        for c in changes:  # in the order they were made
            first.setdefault((c.user_id, c.rules), c.shown_before)
            last[(c.user_id, c.rules)] = c.shown_after
        gains = sorted(((last[k] - first[k], last[k], -k[0], k) for k in first), reverse=True)
        if not gains or gains[0][0] <= 0:
            return None
        gain, shown, _, (user_id, rules) = gains[0]
        names = await self._store.recaps.names(channel_id, [user_id])
        now = (await self._store.ratings.shown(guild_id, rules, [user_id])).get(user_id)
        return RecapGain(rules, user_id, names.get(user_id) or str(user_id), gain, shown,
                         now is not None and now.provisional)

    async def run(self) -> None:
        """Forever: post what is due, then sleep until the next due moment (or a look)."""
        self._running = True
        try:
            while self._running:
                self._wake.clear()
                try:
                    await self.run_due()
                except asyncio.CancelledError:
                    raise
                except Exception:  # never the end of the loop
                    log.exception("the weekly recaps could not be looked at")
                now = self._clock.now()
                await self._clock.sleep_until(min(next_due(now), now + self.every),
                                              self._wake)
        finally:
            self._running = False

    def stop(self) -> None:
        """End `run` (shutdown)."""
        self._running = False
        self._wake.set()
