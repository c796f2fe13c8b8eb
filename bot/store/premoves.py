"""Pre-moves (0022): the next discard each seat of a live hand chose in advance, and
(0024) whether it is "or my draw if it helps less" (on unless its person switched it
off: `Premoves.set_or_draw`).

One row per seat per hand at most, private to the seat's person. Set and cleared by the
person (`Premoves.set`, `Premoves.clear`); cleared with the move that plays the chosen
tile (a turn that threw the draw instead, "or my draw", keeps it for the next turn), the
turn that asks instead or the seat's own claim (`clear_in`, in `ActionLog.append`'s
transaction), and with the hand's end or its table's cancellation (`clear_hand_in`,
in theirs). Rebuilding a table reads its live hand's (`of_hands_in`, `Rebuilds.load`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.store import hands
from bot.store.database import Session
from bot.store.repository import Repository, TableBump, marks


async def clear_in(db: Session, hand_id: int, seats: Iterable[int]) -> None:
    """Drop these seats' pre-moves, in the caller's transaction."""
    wanted = sorted(set(seats))
    if wanted:
        await db.run(f"DELETE FROM premoves WHERE hand_id = ? AND seat IN ({marks(wanted)})",
                     (hand_id, *wanted))


async def clear_hand_in(db: Session, hand_id: int) -> None:
    """The hand ended: its pre-moves go, in the caller's transaction."""
    await db.run("DELETE FROM premoves WHERE hand_id = ?", (hand_id,))


async def of_hands_in(db: Session, hand_ids: Sequence[int]
                      ) -> dict[int, dict[int, tuple[str, bool]]]:
    """Hand → seat → (the tile's notation, "or my draw"), for these hands."""
    out: dict[int, dict[int, tuple[str, bool]]] = {}
    if not hand_ids:
        return out
    for r in await db.all(f"SELECT hand_id, seat, tile, or_draw FROM premoves WHERE hand_id"
                          f" IN ({marks(hand_ids)}) ORDER BY hand_id, seat", list(hand_ids)):
        out.setdefault(int(r[0]), {})[int(r[1])] = (str(r[2]), bool(r[3]))
    return out


class Premoves(Repository):
    """The seats' next discards chosen in advance."""

    async def set(self, hand_id: int, seat: int, tile: str, *, at: float,
                  fence: TableBump | None = None) -> None:
        """Choose (or change) the seat's next discard in a live hand (`HandEnded`
        otherwise). A change keeps its "or my draw"; a new one starts with it on."""
        async with self._write(fence) as db:
            await hands.lock_live_in(db, hand_id)
            await db.run("INSERT INTO premoves (hand_id, seat, tile, set_at) VALUES"
                         " (?, ?, ?, ?) ON CONFLICT (hand_id, seat) DO UPDATE SET"
                         " tile = excluded.tile, set_at = excluded.set_at",
                         (hand_id, seat, tile, at))

    async def set_or_draw(self, hand_id: int, seat: int, on: bool, *,
                          fence: TableBump | None = None) -> bool:
        """Switch "or my draw if it helps less" on or off for the seat's next discard
        chosen in a live hand (`HandEnded` otherwise); False: it has none."""
        async with self._write(fence) as db:
            await hands.lock_live_in(db, hand_id)
            return await db.run("UPDATE premoves SET or_draw = ? WHERE hand_id = ?"
                                " AND seat = ?", (1 if on else 0, hand_id, seat)) > 0

    async def clear(self, hand_id: int, seat: int, *, fence: TableBump | None = None
                    ) -> None:
        """The seat's person cancelled their next discard."""
        async with self._write(fence) as db:
            await clear_in(db, hand_id, (seat,))

    async def of_hand(self, hand_id: int) -> dict[int, str]:
        """Seat → the tile's notation."""
        return {seat: tile for seat, (tile, _) in (await self.or_draw_of_hand(hand_id)).items()}

    async def or_draw_of_hand(self, hand_id: int) -> dict[int, tuple[str, bool]]:
        """Seat → (the tile's notation, "or my draw")."""
        async with self._db.read() as db:
            return (await of_hands_in(db, [hand_id])).get(hand_id, {})
