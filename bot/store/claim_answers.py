"""Claims answered in advance (migration 0021): "pong 5m", "kong 5m" for one hand of
one seat, written from the person's DM, read with the table when it is rebuilt
(`bot.store.rebuilds`), deleted with the rest of the hand's state when it ends
(`clear_in`, in `bot.store.endings`' transactions)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.store import hands
from bot.store.database import Session
from bot.store.repository import Repository, TableBump, marks
from bot.store.rows import ClaimAnswerKind, ClaimAnswerRow


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
                      answers: Iterable[tuple[str, ClaimAnswerKind]], *,
                      fence: TableBump | None = None) -> list[ClaimAnswerRow]:
        """Make ``answers`` (tile, kind) the seat's only ones in the hand (none: clear
        them); `HandEnded` if the hand is over (nothing written)."""
        wanted = dict(answers)
        async with self._write(fence) as db:
            await hands.live_hand_in(db, hand_id)
            await db.run("DELETE FROM claim_answers WHERE hand_id = ? AND seat = ?",
                         (hand_id, seat))
            if wanted:
                await db.run_many("INSERT INTO claim_answers (hand_id, seat, tile, kind)"
                                  " VALUES (?, ?, ?, ?)",
                                  [(hand_id, seat, tile, kind)
                                   for tile, kind in sorted(wanted.items())])
        return [ClaimAnswerRow(hand_id, seat, tile, kind) for tile, kind in sorted(wanted.items())]
