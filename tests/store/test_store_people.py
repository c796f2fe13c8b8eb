"""People's own settings (migration 0018): time zone, quiet hours and leave, one row per
person, kept across a reopen; what the schema refuses changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import ConstraintError, PersonRow, Store

BIG = 2**62  # Discord ids are 64-bit


async def test_nobody_has_a_row_until_they_set_something(store: Store) -> None:
    assert await store.people.get(7) is None
    assert await store.people.of([7, 8]) == {}
    assert await store.people.of([]) == {}


async def test_quiet_hours_and_vacation_are_kept_apart_and_across_a_reopen(
        store: Store, database: Path | str) -> None:
    row = await store.people.set_quiet(BIG, time_zone="Asia/Shanghai", start=23 * 60,
                                       end=7 * 60, at=10.0)
    assert row == PersonRow(BIG, "Asia/Shanghai", 1380, 420, None, None, 10.0)
    row = await store.people.set_vacation(BIG, begin=100.0, until=100.0 + 86400, at=11.0)
    assert row == PersonRow(BIG, "Asia/Shanghai", 1380, 420, 100.0, 86500.0, 11.0)
    await store.people.set_quiet(5, time_zone="Europe/Paris", start=0, end=1439, at=12.0)
    await store.close()
    again = await Store.open(database)
    try:
        assert await again.people.get(BIG) == row
        assert set(await again.people.of([BIG, 5, 6])) == {BIG, 5}
        off = await again.people.set_quiet(BIG, time_zone="Asia/Shanghai", start=None,
                                           end=None, at=13.0)
        assert (off.quiet_start, off.quiet_end, off.vacation_until) == (None, None, 86500.0)
        back = await again.people.set_vacation(BIG, begin=None, until=None, at=14.0)
        assert back == PersonRow(BIG, "Asia/Shanghai", None, None, None, None, 14.0)
    finally:
        await again.close()


@pytest.mark.parametrize("zone, start, end", [
    ("Asia/Shanghai", 60, 60),        # a start equal to its end
    ("Asia/Shanghai", 60, None),      # half a window
    (None, 60, 120),                  # hours without a zone
    ("Asia/Shanghai", -1, 120),
    ("Asia/Shanghai", 60, 1440),
])
async def test_the_schema_refuses_what_cannot_be(store: Store, zone: str | None,
                                                 start: int | None, end: int | None) -> None:
    await store.people.set_quiet(3, time_zone="UTC", start=10, end=20, at=1.0)
    with pytest.raises(ConstraintError):
        await store.people.set_quiet(3, time_zone=zone, start=start, end=end, at=2.0)
    assert await store.people.get(3) == PersonRow(3, "UTC", 10, 20, None, None, 1.0)


async def test_a_leave_must_end_after_it_begins(store: Store) -> None:
    with pytest.raises(ConstraintError):
        await store.people.set_vacation(3, begin=5.0, until=5.0, at=1.0)
    with pytest.raises(ConstraintError):
        await store.people.set_vacation(3, begin=5.0, until=None, at=1.0)
    assert await store.people.get(3) is None
