"""Quiet hours and leave: pure time arithmetic, no store and no clock.

A person's quiet hours are a daily window of their own wall clock (`QuietHours`: an IANA
time zone, a start and an end as minutes of the day; a window whose end is before its
start crosses midnight, 23:00–07:00). Each local day's window is turned into real time
through the zone, so a change of daylight-saving time moves it with the person's clock.
A wall time that does not exist that day (the hour skipped in spring) is read with the
offset before the change (``fold=0``: 02:30 on a night the clock jumps from 02:00 to 03:00
is 03:30), one that exists twice (the hour repeated in autumn) as its first occurrence; a
window that comes out empty that day (02:30–03:00 that night) is no window.

Timers count only the time a person is not quiet (`awake_after`), and a moment
`awake_after` gives is never inside a window: a deadline whose time runs out as quiet
hours begin falls due when they end, so the re-check at fire time agrees with the plan.

`Rest` puts the daily window and a stretch of leave (a vacation: one interval of real
time, already cut to what the table allows) together behind the same questions, and
`Together` several people's rests (quiet while any of them rests).
"""

from __future__ import annotations

import datetime as dt
import functools
import zoneinfo
from collections.abc import Iterator
from dataclasses import dataclass, field

MINUTES_A_DAY = 24 * 60
_DAY = dt.timedelta(days=1)
_SEARCH_DAYS = 8
"""How many local days ahead a search for the next window looks (every day has one but
for a day whose window a change of time emptied, so two are always enough)."""


class BadQuietHours(ValueError):
    """Quiet hours that cannot be: an unknown zone, a minute outside the day, or a start
    equal to its end (a window of no time, or of the whole day: refused, never guessed)."""


@functools.lru_cache(maxsize=256)
def zone_of(name: str) -> zoneinfo.ZoneInfo:
    """The IANA zone ``name`` (`BadQuietHours` when there is none by that name)."""
    if not name or name != name.strip() or name.startswith(("/", ".")) or ".." in name:
        raise BadQuietHours(f"not a time zone: {name!r}")
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError) as exc:
        raise BadQuietHours(f"not a time zone: {name!r}") from exc


@functools.lru_cache(maxsize=1)
def time_zones() -> tuple[str, ...]:
    """Every IANA zone name this machine knows (from `tzdata` when the system has none),
    sorted; the choices of the time zone's autocomplete."""
    return tuple(sorted(n for n in zoneinfo.available_timezones()
                        if not n.startswith(("posix/", "right/")) and n != "localtime"))


def parse_clock(text: str) -> int:
    """``"HH:MM"`` (or ``"H:MM"``, ``"HHMM"``, ``"H"``) as minutes of the day;
    `BadQuietHours` for anything else (``"24:00"`` included)."""
    value = text.strip()
    if ":" in value:
        hours, _, minutes = value.partition(":")
    elif value.isdigit() and len(value) in (3, 4):
        hours, minutes = value[:-2], value[-2:]
    else:
        hours, minutes = value, "00"
    if not (hours.isdigit() and minutes.isdigit() and 1 <= len(hours) <= 2
            and len(minutes) == 2 and hours.isascii() and minutes.isascii()):
        raise BadQuietHours(f"not a time of day: {text!r}")
    h, m = int(hours), int(minutes)
    if h > 23 or m > 59:
        raise BadQuietHours(f"not a time of day: {text!r}")
    return h * 60 + m


def clock_text(minutes: int) -> str:
    """Minutes of the day as ``"HH:MM"``."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


@dataclass(frozen=True)
class QuietHours:
    """A daily quiet window: ``zone`` an IANA name, ``start`` and ``end`` minutes of the
    day (0–1439) on that zone's clock; ``end < start`` crosses midnight."""

    zone: str
    start: int
    end: int
    _tz: zoneinfo.ZoneInfo = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for minute in (self.start, self.end):
            if isinstance(minute, bool) or not isinstance(minute, int) \
                    or not 0 <= minute < MINUTES_A_DAY:
                raise BadQuietHours(f"not a minute of the day: {minute!r}")
        if self.start == self.end:
            raise BadQuietHours("quiet hours must start and end at different times")
        object.__setattr__(self, "_tz", zone_of(self.zone))

    def _at(self, day: dt.date, minute: int) -> float:
        wall = dt.datetime(day.year, day.month, day.day, minute // 60, minute % 60,
                           tzinfo=self._tz)
        return wall.timestamp()

    def _local_day(self, t: float) -> dt.date:
        return dt.datetime.fromtimestamp(t, self._tz).date()

    def windows(self, t: float, days: int = _SEARCH_DAYS) -> Iterator[tuple[float, float]]:
        """The quiet windows as real time ``(begin, end)``, in order, from the one that
        began on the local day before ``t``'s, ``days`` local days on; empty ones left
        out."""
        day = self._local_day(t) - _DAY
        for _ in range(days + 1):
            begin = self._at(day, self.start)
            end = self._at(day + _DAY if self.end < self.start else day, self.end)
            if end > begin:
                yield begin, end
            day += _DAY

    def quiet_at(self, t: float) -> bool:
        """Is ``t`` inside quiet hours (a window includes its start, not its end)?"""
        return any(begin <= t < end for begin, end in self.windows(t, 2))

    def quiet_until(self, t: float) -> float | None:
        """The moment the quiet hours ``t`` is in end (None when ``t`` is not quiet);
        windows that meet (a change of time can close the gap) count as one."""
        until = None
        for begin, end in self.windows(t, 3):
            if begin <= (t if until is None else until) < end:
                until = end
            elif until is not None:
                break
        return until

    def next_start(self, t: float) -> float | None:
        """The first moment after ``t`` at which quiet hours begin (None: none within a
        week, which a valid window never gives)."""
        for begin, _end in self.windows(t):
            if begin > t:
                return begin
        return None

    def awake_after(self, start: float, seconds: float) -> float:
        """The moment by which ``seconds`` of time outside quiet hours have passed since
        ``start``; never a moment inside quiet hours (time that runs out as they begin
        runs out when they end)."""
        return _awake_after(self, start, seconds)

    def awake_between(self, begin: float, end: float) -> float:
        """How much of ``[begin, end)`` is outside quiet hours (what a timer that ran
        from ``begin`` to ``end`` counted)."""
        return _awake_between(self, begin, end)


@dataclass(frozen=True)
class Rest:
    """A person's whole rest at one table: their daily quiet hours (or none) and a
    stretch of leave ``[leave_from, leave_until)`` in real time (or none), the leave
    already cut to what the table allows."""

    hours: QuietHours | None = None
    leave_from: float | None = None
    leave_until: float | None = None

    def _on_leave(self, t: float) -> bool:
        return (self.leave_from is not None and self.leave_until is not None
                and self.leave_from <= t < self.leave_until)

    def quiet_at(self, t: float) -> bool:
        return self._on_leave(t) or (self.hours is not None and self.hours.quiet_at(t))

    def quiet_until(self, t: float) -> float | None:
        """When this rest ends (None: not resting at ``t``); leave and quiet hours that
        meet or overlap count as one."""
        if not self.quiet_at(t):
            return None
        until = t
        for _ in range(2 * _SEARCH_DAYS):
            moved = until
            if self._on_leave(moved):
                assert self.leave_until is not None
                moved = self.leave_until
            if self.hours is not None:
                moved = self.hours.quiet_until(moved) or moved
            if moved == until:
                break
            until = moved
        return until

    def next_start(self, t: float) -> float | None:
        starts = []
        if self.leave_from is not None and self.leave_until is not None \
                and self.leave_from > t and self.leave_until > self.leave_from:
            starts.append(self.leave_from)
        if self.hours is not None and (begin := self.hours.next_start(t)) is not None:
            starts.append(begin)
        return min(starts, default=None)

    def awake_after(self, start: float, seconds: float) -> float:
        return _awake_after(self, start, seconds)

    def awake_between(self, begin: float, end: float) -> float:
        return _awake_between(self, begin, end)


@dataclass(frozen=True)
class Together:
    """Several people's rests at once (a claim window's clock, which must not tell who
    was asked: it runs only while nobody at the table rests): quiet while any rests."""

    rests: tuple[Rest, ...]

    def quiet_at(self, t: float) -> bool:
        return any(r.quiet_at(t) for r in self.rests)

    def quiet_until(self, t: float) -> float | None:
        """When nobody rests any more (None: nobody rests at ``t``)."""
        if not self.quiet_at(t):
            return None
        until = t
        for _ in range(8 * _SEARCH_DAYS * max(1, len(self.rests))):
            moved = max((r.quiet_until(until) or until for r in self.rests), default=until)
            if moved == until:
                break
            until = moved
        return until

    def next_start(self, t: float) -> float | None:
        return min((b for r in self.rests if (b := r.next_start(t)) is not None),
                   default=None)

    def awake_after(self, start: float, seconds: float) -> float:
        return _awake_after(self, start, seconds)

    def awake_between(self, begin: float, end: float) -> float:
        return _awake_between(self, begin, end)


Quiet = QuietHours | Rest | Together
"""Anything that answers when someone rests (`quiet_at`, `quiet_until`, `next_start`,
`awake_after`, `awake_between`)."""


def _awake_after(rest: Quiet, start: float, seconds: float) -> float:
    if seconds < 0:
        raise ValueError(f"a negative time: {seconds}")
    t, left = start, float(seconds)
    while True:
        until = rest.quiet_until(t)
        if until is not None:
            t = until
        begin = rest.next_start(t)
        if begin is None or t + left < begin:
            return t + left
        left -= begin - t
        t = begin


def _awake_between(rest: Quiet, begin: float, end: float) -> float:
    awake, t = 0.0, begin
    while t < end:
        until = rest.quiet_until(t)
        if until is not None:
            t = until
            continue
        stop = rest.next_start(t)
        stop = end if stop is None else min(stop, end)
        awake += stop - t
        t = stop
    return awake
