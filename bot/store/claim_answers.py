"""Claims answered in advance (migrations 0021, 0025): "pong 5m", "kong 5m", "chi 5m
with 3m4m", each perhaps with the discard to follow ("then 9p"), for one hand of one
seat, written from the person's DM, read with the table when it is rebuilt
(`bot.store.rebuilds`), deleted with the rest of the hand's state when it ends
(`clear_in`, in `bot.store.endings`' transactions)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.store import hands
from bot.store.database import Session
from bot.store.repository import Repository, TableBump, marks
from bot.store.rows import ClaimAnswerKind, ClaimAnswerRow

NewClaimAnswer = tuple[str, ClaimAnswerKind] | tuple[str, ClaimAnswerKind, str | None, str | None]
"""(tile, kind) or (tile, kind, with_tiles, then_discard), tiles in notation."""


async def clear_in(db: Session, hand_id: int) -> None:
    """The hand is over: its answers go with it."""
    await db.run("DELETE FROM claim_answers WHERE hand_id = ?", (hand_id,))


async def of_hands_in(db: Session, hand_ids: Sequence[int]) -> list[ClaimAnswerRow]:
    """The answers of these hands, by hand, seat and tile."""
    rows = await db.all(f"SELECT * FROM claim_answers WHERE hand_id IN ({marks(hand_ids)})"
                        " ORDER BY hand_id, seat, tile", hand_ids)
    return [ClaimAnswerRow.of(r) for r in rows]


class ClaimAnswers(Repository):
    """The live hands' claims answered in advance."""

    async def of_hand(self, hand_id: int) -> list[ClaimAnswerRow]:
        rows = await self._all("SELECT * FROM claim_answers WHERE hand_id = ?"
                               " ORDER BY seat, tile", (hand_id,))
        return [ClaimAnswerRow.of(r) for r in rows]

    async def replace(self, hand_id: int, seat: int,
                      answers: Iterable[NewClaimAnswer], *,
                      fence: TableBump | None = None) -> list[ClaimAnswerRow]:
        """Make ``answers`` the seat's only ones in the hand (none: clear them), one per
        tile (a later one for a tile replaces an earlier); `HandEnded` if the hand is
        over (nothing written)."""
        wanted: dict[str, ClaimAnswerRow] = {}
        for answer in answers:
            tile, kind, *more = answer
            with_tiles, then = (more[0], more[1]) if more else (None, None)
            wanted[tile] = ClaimAnswerRow(hand_id, seat, tile, kind, with_tiles, then)
        rows = [wanted[t] for t in sorted(wanted)]
        async with self._write(fence) as db:
            await hands.live_hand_in(db, hand_id)
            await db.run("DELETE FROM claim_answers WHERE hand_id = ? AND seat = ?",
                         (hand_id, seat))
            if rows:
                await db.run_many("INSERT INTO claim_answers (hand_id, seat, tile, kind,"
                                  " with_tiles, then_discard) VALUES (?, ?, ?, ?, ?, ?)",
                                  [(r.hand_id, r.seat, r.tile, r.kind, r.with_tiles,
                                    r.then_discard) for r in rows])
        return rows
