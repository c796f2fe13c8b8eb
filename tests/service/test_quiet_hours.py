"""Quiet hours' arithmetic (bot/service/quiet.py): windows that cross midnight, changes
of daylight-saving time, leave, and the deadline that counts only time outside them."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.service.quiet import (
    BadQuietHours,
    QuietHours,
    Rest,
    clock_text,
    parse_clock,
    time_zones,
    zone_of,
)

HOUR = 3600.0
CHECKED = settings(max_examples=300, deadline=None, derandomize=True, database=None)


def at(zone: str, year: int, month: int, day: int, hour: int, minute: int, *,
       fold: int = 0) -> float:
    """A wall time of ``zone`` as a timestamp."""
    return dt.datetime(year, month, day, hour, minute, tzinfo=zoneinfo.ZoneInfo(zone),
                       fold=fold).timestamp()


def quiet_seconds(rest: QuietHours | Rest, a: float, b: float) -> float:
    """How much of ``[a, b)`` is quiet, walked window by window."""
    total, t = 0.0, a
    while t < b:
        until = rest.quiet_until(t)
        if until is not None:
            total += min(until, b) - t
            t = until
            continue
        begin = rest.next_start(t)
        if begin is None or begin >= b:
            break
        t = begin
    return total


NIGHT = QuietHours("Europe/Paris", 23 * 60, 7 * 60)


def test_a_window_across_midnight() -> None:
    z = "Europe/Paris"
    assert not NIGHT.quiet_at(at(z, 2026, 6, 1, 22, 59))
    assert NIGHT.quiet_at(at(z, 2026, 6, 1, 23, 0))          # from its start
    assert NIGHT.quiet_at(at(z, 2026, 6, 2, 3, 0))
    assert not NIGHT.quiet_at(at(z, 2026, 6, 2, 7, 0))       # to its end, not included
    assert NIGHT.quiet_until(at(z, 2026, 6, 1, 23, 30)) == at(z, 2026, 6, 2, 7, 0)
    assert NIGHT.quiet_until(at(z, 2026, 6, 2, 6, 59)) == at(z, 2026, 6, 2, 7, 0)
    assert NIGHT.quiet_until(at(z, 2026, 6, 2, 12, 0)) is None
    assert NIGHT.next_start(at(z, 2026, 6, 2, 12, 0)) == at(z, 2026, 6, 2, 23, 0)


def test_a_window_within_the_day() -> None:
    lunch = QuietHours("Asia/Shanghai", 12 * 60, 13 * 60 + 30)
    z = "Asia/Shanghai"
    assert lunch.quiet_at(at(z, 2026, 1, 5, 12, 15))
    assert not lunch.quiet_at(at(z, 2026, 1, 5, 23, 15))
    assert lunch.quiet_until(at(z, 2026, 1, 5, 12, 15)) == at(z, 2026, 1, 5, 13, 30)


def test_the_deadline_counts_only_time_outside_quiet_hours() -> None:
    z = "Europe/Paris"
    evening = at(z, 2026, 6, 1, 21, 0)
    # two hours awake, then the night, then ten more hours: 17:00 the next day
    assert NIGHT.awake_after(evening, 12 * HOUR) == at(z, 2026, 6, 2, 17, 0)
    # asked while asleep: the clock starts at 07:00
    assert NIGHT.awake_after(at(z, 2026, 6, 2, 2, 0), HOUR) == at(z, 2026, 6, 2, 8, 0)
    # time that runs out as the night begins runs out when it ends
    assert NIGHT.awake_after(evening, 2 * HOUR) == at(z, 2026, 6, 2, 7, 0)
    assert NIGHT.awake_after(evening, 0) == evening
    assert NIGHT.awake_after(at(z, 2026, 6, 2, 2, 0), 0) == at(z, 2026, 6, 2, 7, 0)
    # several nights
    assert NIGHT.awake_after(evening, 3 * 16 * HOUR) == at(z, 2026, 6, 4, 21, 0)


def test_spring_forward_shortens_the_night_by_the_hour_skipped() -> None:
    z = "Europe/Paris"  # 2026-03-29 02:00 → 03:00
    begin, end = at(z, 2026, 3, 28, 23, 0), at(z, 2026, 3, 29, 7, 0)
    assert NIGHT.quiet_until(begin) == end and end - begin == 7 * HOUR
    assert NIGHT.awake_after(at(z, 2026, 3, 28, 22, 0), 2 * HOUR) == at(z, 2026, 3, 29, 8, 0)


def test_fall_back_lengthens_the_night_by_the_hour_repeated() -> None:
    z = "America/New_York"  # 2026-11-01 02:00 → 01:00
    begin, end = at(z, 2026, 10, 31, 23, 0), at(z, 2026, 11, 1, 7, 0)
    ny = QuietHours(z, 23 * 60, 7 * 60)
    assert ny.quiet_until(begin) == end and end - begin == 9 * HOUR
    assert ny.quiet_at(at(z, 2026, 11, 1, 1, 30, fold=1))  # the second 01:30 too


def test_a_skipped_wall_time_is_read_with_the_offset_before_the_change() -> None:
    z = "Europe/Paris"  # 2026-03-29: 02:00 → 03:00, so 02:30 is read as 03:30
    odd = QuietHours(z, 2 * 60 + 30, 2 * 60 + 45)
    day = at(z, 2026, 3, 29, 0, 0)
    assert odd.next_start(day) == at(z, 2026, 3, 29, 3, 30)
    assert odd.quiet_until(at(z, 2026, 3, 29, 3, 31)) == at(z, 2026, 3, 29, 3, 45)
    # 02:30–03:00 that day is 03:30–03:00: no window at all that day
    empty = QuietHours(z, 2 * 60 + 30, 3 * 60)
    assert empty.next_start(day) == at(z, 2026, 3, 30, 2, 30)
    assert empty.awake_after(day, 3 * HOUR) == day + 3 * HOUR


@pytest.mark.parametrize("zone, start, end", [
    ("Europe/Paris", 60, 60), ("Europe/Paris", -1, 60), ("Europe/Paris", 60, 1440),
    ("Mars/Olympus", 60, 120), ("", 60, 120), ("../etc/passwd", 60, 120),
])
def test_what_cannot_be_quiet_hours_is_refused(zone: str, start: int, end: int) -> None:
    with pytest.raises(BadQuietHours):
        QuietHours(zone, start, end)


def test_times_of_day_are_read_and_written() -> None:
    assert [parse_clock(t) for t in ("23:00", "7:05", "0700", "7", " 00:00 ", "23:59")] == \
        [1380, 425, 420, 420, 0, 1439]
    for bad in ("24:00", "7:60", "7:5", "", "ab:cd", "12:345", "-1:00", "٣:٠٠"):
        with pytest.raises(BadQuietHours):
            parse_clock(bad)
    assert clock_text(425) == "07:05" and clock_text(0) == "00:00"


def test_the_zones_on_offer_are_real_ones() -> None:
    names = time_zones()
    assert "Asia/Shanghai" in names and "America/New_York" in names and "UTC" in names
    assert all(zone_of(n) is not None for n in names[:50])


def test_leave_and_quiet_hours_together() -> None:
    z = "Europe/Paris"
    leave_from, leave_until = at(z, 2026, 6, 1, 12, 0), at(z, 2026, 6, 3, 1, 0)
    rest = Rest(NIGHT, leave_from, leave_until)
    # the leave ends inside a night: resting until 07:00 that morning
    assert rest.quiet_until(at(z, 2026, 6, 2, 12, 0)) == at(z, 2026, 6, 3, 7, 0)
    assert rest.awake_after(at(z, 2026, 6, 1, 11, 0), 2 * HOUR) == at(z, 2026, 6, 3, 8, 0)
    alone = Rest(None, leave_from, leave_until)
    assert alone.awake_after(at(z, 2026, 6, 1, 11, 0), 2 * HOUR) == leave_until + HOUR
    assert Rest().awake_after(5.0, 7.0) == 12.0 and not Rest().quiet_at(5.0)


zones = st.sampled_from(["Europe/Paris", "America/New_York", "Australia/Lord_Howe",
                         "Asia/Kathmandu", "UTC", "America/Santiago", "Pacific/Chatham"])
minutes = st.integers(0, 24 * 60 - 1)
moments = st.floats(1.7e9, 1.9e9, allow_nan=False)
spans = st.floats(0, 3 * 24 * HOUR, allow_nan=False)


@CHECKED
@given(zones, minutes, minutes, moments, spans)
def test_a_deadline_has_exactly_its_awake_time_and_never_falls_in_quiet_hours(
        zone: str, start: int, end: int, t: float, seconds: float) -> None:
    if start == end:
        return
    hours = QuietHours(zone, start, end)
    due = hours.awake_after(t, seconds)
    assert not hours.quiet_at(due)
    awake = due - t - quiet_seconds(hours, t, due)
    assert awake == pytest.approx(seconds, abs=1e-3)
    # and the moment is the first such: a second earlier, less awake time had passed
    # (unless it is a window's end: the time ran out as the window began)
    if seconds > 1 and not hours.quiet_at(due - 1):
        assert due - 1 - t - quiet_seconds(hours, t, due - 1) < seconds
    assert hours.awake_between(t, due) == pytest.approx(seconds, abs=1e-3)


@CHECKED
@given(zones, minutes, minutes, moments)
def test_quiet_until_ends_the_window_the_moment_is_in(zone: str, start: int, end: int,
                                                      t: float) -> None:
    if start == end:
        return
    hours = QuietHours(zone, start, end)
    until = hours.quiet_until(t)
    if until is None:
        assert not hours.quiet_at(t)
        begin = hours.next_start(t)
        assert begin is not None and t < begin <= t + 2 * 24 * HOUR
        assert hours.quiet_at(begin)
    else:
        assert hours.quiet_at(t) and t < until <= t + 25 * HOUR
        assert not hours.quiet_at(until)
        assert hours.quiet_at(until - 0.5) or until - t < 1
