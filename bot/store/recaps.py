"""Weekly recaps (0028): which channels want one (`recaps`, set by a server manager),
the weeks already decided (`recaps_posted`), and the week's figures read from the
hands' facts (`hand_facts`).

A week is posted once: its `recaps_posted` row and its announcement (the outbox,
kind ``recap``) are written in one transaction, the row by ``ON CONFLICT DO NOTHING``
(a second writer, a restarted process or another one, writes nothing at all). A quiet
week gets its row and no announcement.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.outbox import announce_in
from bot.store.repository import Repository, marks
from bot.store.rows import NewAnnouncement, Row


@dataclass(frozen=True)
class RecapRow:
    """A channel's weekly recap setting: on or off, since when."""

    channel_id: int
    guild_id: int
    enabled: bool
    since: float

    @classmethod
    def of(cls, r: Row) -> RecapRow:
        return cls(r["channel_id"], r["guild_id"], bool(r["enabled"]), r["since"])


@dataclass(frozen=True)
class BiggestHand:
    """The week's biggest win of one rule set in a channel (a person's)."""

    rules: str
    user_id: int
    value: int
    patterns: tuple[str, ...]
    hand_id: int


@dataclass(frozen=True)
class WeekFigures:
    """What a channel's hands of one week give the recap: how many hands ended, the
    biggest win of each rule set played, who played the most hands (and how many),
    the matches of the channel (for the ratings' changes), the names of the people
    they name, and the table the recap's announcement is carried by (the last table
    whose hand ended in the week)."""

    hands: int
    biggest: tuple[BiggestHand, ...]
    most_hands: tuple[int, int] | None
    matches: frozenset[int]
    names: Mapping[int, str]
    table_id: int | None


class Recaps(Repository):
    """The weekly recaps."""

    async def set(self, channel_id: int, guild_id: int, enabled: bool, *, at: float
                  ) -> RecapRow:
        """Turn the channel's recap on or off (``since`` moves when it is turned on)."""
        async with self._write() as db:
            await db.run("INSERT INTO recaps (channel_id, guild_id, enabled, since)"
                         " VALUES (?, ?, ?, ?) ON CONFLICT (channel_id) DO UPDATE SET"
                         " guild_id = excluded.guild_id, enabled = excluded.enabled,"
                         " since = CASE WHEN recaps.enabled = excluded.enabled"
                         " THEN recaps.since ELSE excluded.since END",
                         (channel_id, guild_id, int(enabled), at))
            row = await db.one("SELECT * FROM recaps WHERE channel_id = ?", (channel_id,))
            assert row is not None
            return RecapRow.of(row)

    async def get(self, channel_id: int) -> RecapRow | None:
        row = await self._one("SELECT * FROM recaps WHERE channel_id = ?", (channel_id,))
        return RecapRow.of(row) if row is not None else None

    async def due(self, week: str) -> list[RecapRow]:
        """The channels whose recap is on with ``week`` not yet decided (a recap turned
        on after its week ended still gets that week's, once)."""
        rows = await self._all(
            "SELECT r.* FROM recaps r WHERE r.enabled = 1"
            " AND NOT EXISTS (SELECT 1 FROM recaps_posted p WHERE p.channel_id = r.channel_id"
            " AND p.week = ?) ORDER BY r.channel_id", (week,))
        return [RecapRow.of(r) for r in rows]

    async def posted(self, channel_id: int) -> list[str]:
        """The weeks decided for the channel, oldest first."""
        rows = await self._all("SELECT week FROM recaps_posted WHERE channel_id = ?"
                               " ORDER BY week", (channel_id,))
        return [r["week"] for r in rows]

    async def week(self, channel_id: int, start: float, end: float) -> WeekFigures:
        """The channel's figures of the hands that ended in ``[start, end)`` (people
        only: a computer is never named)."""
        span = (channel_id, start, end)
        where = "channel_id = ? AND ended_at >= ? AND ended_at < ?"
        count = await self._one(f"SELECT count(DISTINCT hand_id) AS n, max(table_id) AS t"
                                f" FROM hand_facts WHERE {where}", span)
        hands = int(count["n"]) if count is not None and count["n"] is not None else 0
        if hands == 0:
            return WeekFigures(0, (), None, frozenset(), {}, None)
        table_row = await self._one(
            f"SELECT table_id FROM hand_facts WHERE {where}"
            " ORDER BY ended_at DESC, hand_id DESC LIMIT 1", span)
        wins = await self._all(
            f"SELECT rules, user_id, win_value, patterns, hand_id, ended_at FROM hand_facts"
            f" WHERE {where} AND won = 1 AND user_id IS NOT NULL AND win_value IS NOT NULL"
            " ORDER BY rules, win_value DESC, ended_at, hand_id", span)
        biggest: dict[str, BiggestHand] = {}
        for w in wins:
            if w["rules"] not in biggest:
                biggest[w["rules"]] = BiggestHand(
                    w["rules"], int(w["user_id"]), int(w["win_value"]),
                    tuple(map(str, json.loads(w["patterns"] or "[]"))), int(w["hand_id"]))
        most_row = await self._one(
            f"SELECT user_id, count(*) AS n, min(ended_at) AS first FROM hand_facts"
            f" WHERE {where} AND user_id IS NOT NULL GROUP BY user_id"
            " ORDER BY count(*) DESC, min(ended_at), user_id LIMIT 1", span)
        most = (int(most_row["user_id"]), int(most_row["n"])) if most_row else None
        matches = await self._all(
            "SELECT m.id FROM matches m JOIN game_tables t ON t.id = m.table_id"
            " WHERE t.channel_id = ?", (channel_id,))
        people = {b.user_id for b in biggest.values()} | ({most[0]} if most else set())
        return WeekFigures(hands, tuple(biggest.values()), most,
                           frozenset(int(m["id"]) for m in matches),
                           await self.names(channel_id, sorted(people)),
                           int(table_row["table_id"]) if table_row else None)

    async def names(self, channel_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """Each person's name as their newest seat in the channel shows it."""
        if not user_ids:
            return {}
        rows = await self._all(
            "SELECT s.user_id, s.display_name FROM seats s"
            " JOIN game_tables t ON t.id = s.table_id"
            f" WHERE t.channel_id = ? AND s.user_id IN ({marks(user_ids)})"
            " ORDER BY t.id", (channel_id, *user_ids))
        return {int(r["user_id"]): r["display_name"] for r in rows}

    async def post(self, channel_id: int, week: str, *, at: float, table_id: int | None,
                   number: int, facts: Mapping[str, Any] | None) -> bool:
        """Decide the channel's ``week``: its row and, with ``facts``, its announcement
        (carried by ``table_id``, numbered ``number``), in one transaction. False, and
        nothing is written, when the week was decided already."""
        async with self._write() as db:
            count = await db.run("INSERT INTO recaps_posted (channel_id, week, posted_at)"
                                 " VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                                 (channel_id, week, at))
            if count == 0:
                return False
            if facts is not None and table_id is not None:
                await announce_in(db, table_id, [NewAnnouncement(
                    "recap", hand_number=number, facts=dict(facts))], at)
            return True
