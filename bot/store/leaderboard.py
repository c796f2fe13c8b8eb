"""Each channel's standings, one board per rule set."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from bot.store.database import Session
from bot.store.repository import Repository
from bot.store.rows import LeaderboardDelta, LeaderboardRow, fraction_text

PEOPLE = "player_key LIKE 'user:%'"
"""A leaderboard line of a person: computers never rank (lines kept from before are
not shown)."""


_UPSERT_LEADERBOARD = """
INSERT INTO leaderboard (guild_id, channel_id, rules, player_key, display_name, points,
                         hands_won, hands_played, matches_played, best_hand_value,
                         best_hand_desc)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (channel_id, rules, player_key) DO UPDATE SET
    display_name = excluded.display_name,
    points = excluded.points,
    hands_won = leaderboard.hands_won + excluded.hands_won,
    hands_played = leaderboard.hands_played + excluded.hands_played,
    matches_played = leaderboard.matches_played + excluded.matches_played,
    best_hand_desc = CASE
        WHEN excluded.best_hand_value IS NOT NULL
             AND (leaderboard.best_hand_value IS NULL
                  OR excluded.best_hand_value > leaderboard.best_hand_value)
        THEN excluded.best_hand_desc ELSE leaderboard.best_hand_desc END,
    best_hand_value = CASE
        WHEN excluded.best_hand_value IS NOT NULL
             AND (leaderboard.best_hand_value IS NULL
                  OR excluded.best_hand_value > leaderboard.best_hand_value)
        THEN excluded.best_hand_value ELSE leaderboard.best_hand_value END
"""
"""Columns of the row already there are named with the table's name: PostgreSQL finds
a bare name ambiguous beside ``excluded``."""


async def apply_in(db: Session, guild_id: int, channel_id: int, rules: str,
                   deltas: Sequence[LeaderboardDelta]) -> None:
    line = "SELECT points FROM leaderboard WHERE channel_id = ? AND rules = ?" \
           f" AND player_key = ?{db.for_update}"
    for d in deltas:
        key = (channel_id, rules, d.player_key)
        row = await db.one(line, key)
        if row is None:  # a first line: made (or a racing process's waited for), locked
            await db.run("INSERT INTO leaderboard (guild_id, channel_id, rules, player_key,"
                         " display_name) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                         (guild_id, *key, d.display_name))
            row = await db.one(line, key)
        points = (Fraction(row["points"]) if row else Fraction(0)) + d.points
        await db.run(_UPSERT_LEADERBOARD,
                   (guild_id, *key, d.display_name,
                    fraction_text(points), d.hands_won, d.hands_played, d.matches_played,
                    d.hand_value, d.hand_desc))


def ranked(rows: Iterable[LeaderboardRow], limit: int) -> list[LeaderboardRow]:
    """The top ``limit`` lines by exact points, then hands won, then name."""
    return sorted(rows, key=lambda e: (-e.points, -e.hands_won, e.display_name,
                                       e.player_key))[:limit]


class Leaderboard(Repository):
    """The standings."""

    async def apply(self, guild_id: int, channel_id: int, rules: str,
                    deltas: Sequence[LeaderboardDelta]) -> None:
        """Add to the channel's standings of ``rules`` (outside a hand's end, e.g. a
        leaving penalty)."""
        async with self._write() as db:
            await apply_in(db, guild_id, channel_id, rules, deltas)

    async def top(self, channel_id: int, rules: str, *, limit: int = 10
                  ) -> list[LeaderboardRow]:
        """The channel's top ``limit`` of rule set ``rules`` by exact points (then hands
        won, then name): each rule set scores in its own unit, so each has its board.

        Points are exact fractions stored as text, so they are ordered here rather than
        in SQL; a channel has a few dozen players at most.
        """
        rows = await self._all(
            "SELECT * FROM leaderboard WHERE channel_id = ? AND rules = ?"
            f" AND {PEOPLE}", (channel_id, rules))
        return ranked((LeaderboardRow.of(r) for r in rows), limit)

    async def rules(self, channel_id: int) -> list[str]:
        """The rule sets the channel has standings in, the one it played last first."""
        rows = await self._all(
            "SELECT r.rules FROM (SELECT DISTINCT rules FROM leaderboard WHERE channel_id = ?"
            f" AND {PEOPLE}) r"
            " ORDER BY COALESCE((SELECT MAX(t.id) FROM game_tables t WHERE t.channel_id = ?"
            " AND t.rules = r.rules), 0) DESC, r.rules", (channel_id, channel_id))
        return [r["rules"] for r in rows]

    async def entry(self, channel_id: int, rules: str, player_key: str
                    ) -> LeaderboardRow | None:
        row = await self._one(
            "SELECT * FROM leaderboard WHERE channel_id = ? AND rules = ? AND player_key = ?",
            (channel_id, rules, player_key))
        return LeaderboardRow.of(row) if row else None
