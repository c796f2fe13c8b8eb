"""`RatingAdmin`: the ratings' start-up and their rebuild by a server manager
(``/mahjong ratings rebuild``). The formula is bot/service/ratings.py's; each finished
match is rated in its own last transaction (`Moves.end_hand` hands the formula to
`Endings.finish_hand`), so this part only starts and rebuilds.
"""

from __future__ import annotations

import logging

from bot.service import errors as E
from bot.service.cause import Cause
from bot.service.clock import Clock
from bot.service.errors import Refused
from bot.service.ratings import FORMULA
from bot.store import Rebuilt, Store

log = logging.getLogger(__name__)


class RatingAdmin:
    """The ratings' start-up and rebuild."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self._store = store
        self._clock = clock

    async def start(self) -> Rebuilt | None:
        """Start-up: every rating rebuilt if they were made by another formula (once,
        whatever the number of processes starting), then any finished match not rated
        yet rated, in order. The rebuild's report, if one was made."""
        rebuilt = await self._store.ratings.start(FORMULA, at=self._clock.now())
        if rebuilt is not None:
            log.info("ratings rebuilt with %s: %s finished matches replayed, %s rated, "
                     "%s people rated", FORMULA.name, rebuilt.matches, rebuilt.rated,
                     rebuilt.people)
        return rebuilt

    async def rebuild(self, cause: Cause) -> Rebuilt:
        """Replay the finished matches of the server asked in, in order, and say what
        moved (a server manager only; nothing changes for anyone else)."""
        place = cause.place
        guild_id = place.guild_id if place is not None else None
        if guild_id is None or not cause.manages(guild_id):
            raise Refused(E.RATINGS_NOT_MANAGER,
                          "only a server manager can rebuild the server's ratings")
        rebuilt = await self._store.ratings.rebuild(FORMULA, guild_id)
        log.info("ratings of server %s rebuilt by %s: %s matches replayed, %s moved",
                 guild_id, cause.user_id, rebuilt.matches, len(rebuilt.moved))
        return rebuilt
