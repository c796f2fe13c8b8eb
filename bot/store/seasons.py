"""Seasons (0028): a server's boards closed and archived (`leaderboard_archive`), a new
season begun, and the boards of past seasons and of all time read back.

A server with no ``seasons`` row is in its season 1. Closing season n is one
transaction: the season's row is closed by a compare-and-set (``closed_at IS NULL``:
two presses, or two processes, close it once), every leaderboard row of the server's
channels is copied into the archive with n and then cleared, and season n + 1 begins.
On PostgreSQL the server's leaderboard rows are locked first, so a hand settling at
that moment lands whole in one season or the other.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction

from bot.store.leaderboard import PEOPLE, ranked
from bot.store.repository import Repository
from bot.store.rows import LeaderboardRow, Row

_COLUMNS = ("guild_id, channel_id, rules, player_key, display_name, points, hands_won,"
            " hands_played, matches_played, best_hand_value, best_hand_desc")


@dataclass(frozen=True)
class SeasonRow:
    """One season of a server that a close touched (a first season has no row until
    it is closed)."""

    guild_id: int
    number: int
    started_at: float | None
    """None: the server's first season (begun before seasons were kept)."""
    closed_at: float | None
    closed_by: int | None

    @classmethod
    def of(cls, r: Row) -> SeasonRow:
        return cls(r["guild_id"], r["number"], r["started_at"], r["closed_at"],
                   r["closed_by"])


@dataclass(frozen=True)
class SeasonClose:
    """What closing a season did: its number, the next one's, and how many board lines
    went to the archive."""

    closed: int
    begun: int
    archived: int


class Seasons(Repository):
    """The seasons of each server, and their archived boards."""

    async def current(self, guild_id: int) -> int:
        """The server's season now (1 when none was ever closed)."""
        row = await self._one("SELECT max(number) AS n FROM seasons WHERE guild_id = ?"
                              " AND closed_at IS NULL", (guild_id,))
        if row is not None and row["n"] is not None:
            return int(row["n"])
        row = await self._one("SELECT max(number) AS n FROM seasons WHERE guild_id = ?",
                              (guild_id,))
        return 1 if row is None or row["n"] is None else int(row["n"]) + 1

    async def closed(self, guild_id: int) -> list[SeasonRow]:
        """The server's closed seasons, oldest first."""
        rows = await self._all("SELECT * FROM seasons WHERE guild_id = ? AND closed_at IS"
                               " NOT NULL ORDER BY number", (guild_id,))
        return [SeasonRow.of(r) for r in rows]

    async def get(self, guild_id: int, number: int) -> SeasonRow | None:
        row = await self._one("SELECT * FROM seasons WHERE guild_id = ? AND number = ?",
                              (guild_id, number))
        return SeasonRow.of(row) if row is not None else None

    async def close(self, guild_id: int, number: int, *, by: int, at: float
                    ) -> SeasonClose | None:
        """Close the server's season ``number`` (the one it is in), archive every board
        of its channels with it and begin the next: None, and nothing changes, when that
        season is not the server's open one (closed already: a second press)."""
        async with self._write() as db:
            if number == 1:  # a first season has its row once it is closed
                await db.run("INSERT INTO seasons (guild_id, number) VALUES (?, 1)"
                             " ON CONFLICT DO NOTHING", (guild_id,))
            count = await db.run("UPDATE seasons SET closed_at = ?, closed_by = ?"
                                 " WHERE guild_id = ? AND number = ? AND closed_at IS NULL",
                                 (at, by, guild_id, number))
            if count == 0:
                return None
            # the rows are locked (PostgreSQL) so none changes between its copy and its
            # deletion; a line first made meanwhile stays for the new season
            await db.all(f"SELECT channel_id FROM leaderboard WHERE guild_id = ?{db.for_update}",
                         (guild_id,))
            await db.run(f"INSERT INTO leaderboard_archive (season, {_COLUMNS})"
                         f" SELECT ?, {_COLUMNS} FROM leaderboard WHERE guild_id = ?",
                         (number, guild_id))
            archived = await db.run(
                "DELETE FROM leaderboard WHERE guild_id = ? AND EXISTS (SELECT 1 FROM"
                " leaderboard_archive a WHERE a.guild_id = leaderboard.guild_id"
                " AND a.season = ? AND a.channel_id = leaderboard.channel_id"
                " AND a.rules = leaderboard.rules AND a.player_key = leaderboard.player_key)",
                (guild_id, number))
            await db.run("INSERT INTO seasons (guild_id, number, started_at) VALUES (?, ?, ?)",
                         (guild_id, number + 1, at))
            return SeasonClose(number, number + 1, archived)

    async def archived_top(self, guild_id: int, channel_id: int, season: int, rules: str,
                           *, limit: int = 10) -> list[LeaderboardRow]:
        """The channel's board of ``rules`` as season ``season`` of its server closed
        (people only, best first; a season of another server: nothing)."""
        rows = await self._all(
            "SELECT * FROM leaderboard_archive WHERE guild_id = ? AND channel_id = ?"
            f" AND season = ? AND rules = ? AND {PEOPLE}",
            (guild_id, channel_id, season, rules))
        return ranked((LeaderboardRow.of(r) for r in rows), limit)

    async def archived_rules(self, guild_id: int, channel_id: int, season: int | None
                             ) -> list[str]:
        """The rule sets the channel has archived standings in (of one season, or of
        any: None), by name."""
        where, params = ("", (guild_id, channel_id)) if season is None else \
            (" AND season = ?", (guild_id, channel_id, season))
        rows = await self._all(
            "SELECT DISTINCT rules FROM leaderboard_archive WHERE guild_id = ?"
            f" AND channel_id = ?{where} AND {PEOPLE} ORDER BY rules", params)
        return [r["rules"] for r in rows]

    async def all_time(self, guild_id: int, channel_id: int, rules: str, *,
                       limit: int = 10) -> list[LeaderboardRow]:
        """The channel's board of ``rules`` over every season of its server: each
        person's archived lines and live line summed exactly (points as fractions; the
        best hand the best of them; the name the newest)."""
        archived = await self._all(
            "SELECT * FROM leaderboard_archive WHERE guild_id = ? AND channel_id = ?"
            f" AND rules = ? AND {PEOPLE} ORDER BY season", (guild_id, channel_id, rules))
        live = await self._all(
            "SELECT * FROM leaderboard WHERE guild_id = ? AND channel_id = ? AND rules = ?"
            f" AND {PEOPLE}", (guild_id, channel_id, rules))
        return ranked(summed(LeaderboardRow.of(r) for r in [*archived, *live]), limit)


def summed(rows: Iterable[LeaderboardRow]) -> list[LeaderboardRow]:
    """Each person's lines (oldest first) as one: counts and exact points added, the
    best hand the highest (the first of equals), the newest name."""
    out: dict[str, LeaderboardRow] = {}
    for row in rows:
        was = out.get(row.player_key)
        if was is None:
            out[row.player_key] = row
            continue
        better = row.best_hand_value is not None and (
            was.best_hand_value is None or row.best_hand_value > was.best_hand_value)
        out[row.player_key] = replace(
            was, display_name=row.display_name, points=Fraction(was.points + row.points),
            hands_won=was.hands_won + row.hands_won,
            hands_played=was.hands_played + row.hands_played,
            matches_played=was.matches_played + row.matches_played,
            best_hand_value=row.best_hand_value if better else was.best_hand_value,
            best_hand_desc=row.best_hand_desc if better else was.best_hand_desc)
    return list(out.values())
