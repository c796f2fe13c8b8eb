"""The hands of matches, as rows (their logs: `bot.store.log`; their ends:
`bot.store.endings`; dealing one: `bot.store.matches`)."""

from __future__ import annotations

import re

from bot.store.database import Session
from bot.store.errors import Conflict, ConstraintError, HandEnded, NotFound
from bot.store.repository import HAND_SELECT, Repository
from bot.store.rows import HandRow, NewHand

_WALL = re.compile(r"(?:[1-9][mpszf])+")


async def lock_live_in(db: Session, hand_id: int) -> None:
    """Lock the hand's row (on PostgreSQL; SQLite's write lock already covers the whole
    file), so what follows reads the log after any racing process's append committed;
    `NotFound` or `HandEnded` unless the hand is live."""
    hand = await db.one(f"SELECT status FROM hands WHERE id = ?{db.for_update}", (hand_id,))
    if hand is None:
        raise NotFound(f"no hand {hand_id}")
    if hand[0] != "live":
        raise HandEnded(f"hand {hand_id} has ended")


async def hand_in(db: Session, hand_id: int) -> HandRow:
    row = await db.one(f"{HAND_SELECT} WHERE h.id = ?", (hand_id,))
    if row is None:
        raise NotFound(f"no hand {hand_id}")
    return HandRow.of(row)


async def live_hand_in(db: Session, hand_id: int) -> HandRow:
    """The hand, locked for this write; `HandEnded` unless it is live."""
    await lock_live_in(db, hand_id)
    return await hand_in(db, hand_id)


def check_wall(wall: str) -> None:
    """`ConstraintError` unless ``wall`` is a dealing order, two characters a tile."""
    if not _WALL.fullmatch(wall):
        raise ConstraintError("the wall must be 2-character tiles in order, like '1m5z2p'")


async def insert_in(db: Session, match_id: int, new: NewHand, at: float) -> HandRow:
    """The match's next hand's row (numbered 1, 2, …); one live at a time (the caller
    checked the wall and locked the match: `bot.store.matches.deal_in`)."""
    if await db.one("SELECT 1 FROM hands WHERE match_id = ? AND status = 'live'",
                    (match_id,)):
        raise Conflict(f"match {match_id} already has a live hand")
    row = await db.one(
        "INSERT INTO hands (match_id, number, wall, salt, commitment, dice, dealer,"
        " streak, huangfan, started_at) VALUES (?, (SELECT COALESCE(MAX(number), 0)"
        " + 1 FROM hands WHERE match_id = ?), ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (match_id, match_id, new.wall, new.salt, new.commitment,
         f"{new.dice[0]}+{new.dice[1]}", new.dealer, new.streak, new.huangfan, at))
    assert row is not None  # an INSERT … RETURNING returns its row
    return await hand_in(db, row["id"])


class Hands(Repository):
    """The hands' rows."""

    async def get(self, hand_id: int) -> HandRow | None:
        row = await self._one(f"{HAND_SELECT} WHERE h.id = ?", (hand_id,))
        return HandRow.of(row) if row else None

    async def last_ended(self, table_id: int) -> HandRow | None:
        """The table's most recently ended hand, over all its matches (one read)."""
        row = await self._one(
            f"{HAND_SELECT} WHERE m.table_id = ? AND h.status = 'ended'"
            " ORDER BY m.number DESC, h.number DESC LIMIT 1", (table_id,))
        return HandRow.of(row) if row else None

    async def live(self, table_id: int) -> HandRow | None:
        """The hand being played at a table, if any."""
        row = await self._one(
            f"{HAND_SELECT} WHERE m.table_id = ? AND h.status = 'live'"
            " ORDER BY h.id DESC LIMIT 1", (table_id,))
        return HandRow.of(row) if row else None

    async def of_match(self, match_id: int) -> list[HandRow]:
        rows = await self._all(f"{HAND_SELECT} WHERE h.match_id = ? ORDER BY h.number",
                                    (match_id,))
        return [HandRow.of(r) for r in rows]
