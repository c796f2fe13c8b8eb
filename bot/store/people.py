"""People: what each person sets for themself, the same at every table of every server
(migration 0018): their time zone, daily quiet hours and a leave of whole days."""

from __future__ import annotations

from collections.abc import Iterable

from bot.store.repository import Repository, marks
from bot.store.rows import PersonRow


class People(Repository):
    """One row per person who set anything (`PersonRow`); nobody else has a row."""

    async def get(self, user_id: int) -> PersonRow | None:
        row = await self._one("SELECT * FROM people WHERE user_id = ?", (user_id,))
        return PersonRow.of(row) if row is not None else None

    async def of(self, user_ids: Iterable[int]) -> dict[int, PersonRow]:
        """The rows of these people who have one."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        rows = await self._all(f"SELECT * FROM people WHERE user_id IN ({marks(wanted)})",
                               wanted)
        return {r["user_id"]: PersonRow.of(r) for r in rows}

    async def set_quiet(self, user_id: int, *, time_zone: str | None,
                        start: int | None, end: int | None, at: float) -> PersonRow:
        """Set (or, with ``start`` and ``end`` None, clear) a person's quiet hours and
        time zone; their leave is kept. A row the schema refuses (a start equal to its
        end, hours without a zone) raises `ConstraintError` and changes nothing."""
        return await self._put(user_id, at, time_zone=time_zone, quiet_start=start,
                               quiet_end=end)

    async def set_vacation(self, user_id: int, *, begin: float | None, until: float | None,
                           at: float) -> PersonRow:
        """Set (or, with None, end) a person's leave ``[begin, until)``; their quiet hours
        and time zone are kept."""
        return await self._put(user_id, at, vacation_from=begin, vacation_until=until)

    async def _put(self, user_id: int, at: float, **values: object) -> PersonRow:
        columns = list(values)
        names = ", ".join(columns)
        updates = ", ".join(f"{c} = excluded.{c}" for c in columns)
        async with self._write() as db:
            row = await db.one(
                f"INSERT INTO people (user_id, {names}, updated_at)"
                f" VALUES (?, {marks(columns)}, ?) ON CONFLICT (user_id) DO UPDATE SET"
                f" {updates}, updated_at = excluded.updated_at RETURNING *",
                (user_id, *values.values(), at))
            assert row is not None  # an upsert … RETURNING returns its row
            return PersonRow.of(row)
