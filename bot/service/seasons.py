"""`Seasons`: a server's seasons (`/mahjong season close`) and the boards of past seasons
and of all time (`/mahjong leaderboard … season`).

Closing is a server manager's (`Cause.is_manager`, in the server asked in), confirmed
first by the adapter, and names the season it closes: the store closes it only while it
is the server's open one (`store.seasons.close`, a compare-and-set), so a double press or
two processes close it once, and the second is told `season_closed`. Every board of
every channel of the server goes to the archive in that one transaction; the next
season starts empty. All time is the archive and the live board summed exactly.

Judged in place: a season is the server's own (a board of a channel names its server);
another server's season numbers are never read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from bot.service import errors as E
from bot.service.cause import Cause
from bot.service.clock import Clock
from bot.service.errors import Refused
from bot.service.queries import Queries
from bot.service.results import SeasonClosed, Standings
from bot.store import LeaderboardRow, Store
from bot.store.ratings import Rating
from engine.refusals import Code, Refusal, echo
from engine.rules import RULESETS

Season = int | Literal["all"] | None
"""A board's season: a number, ``"all"`` (all time) or None (the current one)."""


def _place(cause: Cause) -> tuple[int, int]:
    """The server and channel asked in; a private message has no server's seasons."""
    if cause.place is None or cause.place.guild_id is None:
        raise Refused(E.NO_TABLE, "seasons are a server's: asked in private messages")
    return cause.place.guild_id, cause.place.channel_id


def need_manager(cause: Cause, guild_id: int) -> None:
    if not cause.manages(guild_id):
        raise Refused(E.NOT_MANAGER, "only a server manager may do that")


class Seasons:
    """Closing seasons; the boards of a season or of all time."""

    def __init__(self, store: Store, clock: Clock, queries: Queries) -> None:
        self._store = store
        self._clock = clock
        self._queries = queries

    async def season_now(self, cause: Cause) -> int:
        """The season a manager would close now (the server's open one); anyone else is
        refused `not_manager` before being asked to confirm."""
        guild_id, _ = _place(cause)
        need_manager(cause, guild_id)
        return await self._store.seasons.current(guild_id)

    async def close(self, cause: Cause, season: int) -> SeasonClosed:
        """Close the server's season ``season`` (confirmed for that one): archive every
        channel's boards, begin the next. `season_closed` when it is closed already."""
        guild_id, channel_id = _place(cause)
        need_manager(cause, guild_id)
        done = await self._store.seasons.close(guild_id, season, by=cause.user_id,
                                               at=self._clock.now())
        if done is None:
            raise Refused(E.SEASON_CLOSED, f"season {season} is not open", season=season)
        board = await self.board(guild_id, channel_id, None, season)
        return SeasonClosed(done.closed, done.begun, done.archived, board)

    async def board(self, guild_id: int, channel_id: int, rules: str | None,
                    season: Season, *, limit: int = 10) -> Standings:
        """The channel's board of ``rules`` (by default the rule set it played last
        among those it has standings in for that season) for ``season`` of its server."""
        if rules is not None and rules not in RULESETS:
            raise Refused(E.BAD_OPTIONS, f"there are no rules named {rules!r}",
                          refusal=Refusal.of(Code.UNKNOWN_RULES, name=echo(rules),
                                             choices=tuple(RULESETS)))
        current = await self._store.seasons.current(guild_id)
        if season is None or season == current:
            board = await self._queries.leaderboard(channel_id, rules, limit=limit)
            return Standings(board.rules, board.rows, board.others, current, current,
                             await self._ratings(guild_id, board.rules, board.rows))
        if season != "all" and not 1 <= season < current:
            raise Refused(E.NO_SEASON, f"no season {season} here", season=season,
                          current=current)
        number = None if season == "all" else season
        kept = await self._store.seasons.archived_rules(guild_id, channel_id, number)
        if number is None:  # all time: the live boards' rule sets too, the last played first
            live = await self._store.leaderboard.rules(channel_id)
            kept = live + [r for r in kept if r not in live]
        if rules is None:
            rules = kept[0] if kept else (await self._queries.leaderboard(channel_id)).rules
        if number is None:
            rows = await self._store.seasons.all_time(guild_id, channel_id, rules, limit=limit)
        else:
            rows = await self._store.seasons.archived_top(guild_id, channel_id, number, rules,
                                                          limit=limit)
        return Standings(rules, tuple(rows), tuple(r for r in kept if r != rules), number,
                         current, await self._ratings(guild_id, rules, rows))

    async def _ratings(self, guild_id: int, rules: str, rows: Sequence[LeaderboardRow]
                       ) -> dict[int, Rating]:
        """The ratings of a board's people in the server's rule set."""
        return await self._store.ratings.shown(
            guild_id, rules, [r.user_id for r in rows if r.user_id is not None])
