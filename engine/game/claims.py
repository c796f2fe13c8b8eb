"""Closing a claim window: who takes the tile, and when the window may stop waiting."""

from __future__ import annotations

from dataclasses import dataclass

from engine.game.actions import Action
from engine.game.kinds import PASS, WIN  # enum members, read fast
from engine.game.state import ClaimWindow
from engine.rules.common import claim_rank, turn_distance

_NOTHING = (0, -4)
"""Below every claim's rank: what a window with no claim chosen yet holds."""


@dataclass(frozen=True)
class Resolution:
    """How a window closes: the winners (several only under 一炮多响), or one claim, or
    nothing (every asked seat passed)."""

    winners: tuple[int, ...] = ()
    claim: Action | None = None


def resolve(window: ClaimWindow, multiple_winners: bool) -> Resolution | None:
    """The outcome once no undecided seat could change it; None while one still could.

    A chosen claim waits for every undecided seat that may still claim higher (so a
    higher claim still undecided holds a lower one already chosen); a seat that could
    only claim lower is not waited for.
    """
    d = window.from_seat
    chosen = [a for a in window.answers if a is not None and a.kind is not PASS]
    undecided = window.undecided
    if not chosen:
        # Only passes so far: an undecided seat may still claim (every claim ranks
        # above nothing), else nobody takes the tile.
        return None if undecided else _NO_CLAIM
    if multiple_winners:
        winners = [a.seat for a in chosen if a.kind is WIN]
        if winners:
            if any(_may_win(window, u) for u in undecided):
                return None
            return Resolution(winners=tuple(sorted(winners, key=lambda s: turn_distance(d, s))))
    best = max(chosen, key=lambda a: claim_rank(a.kind, a.seat, d), default=None)
    best_rank = claim_rank(best.kind, best.seat, d) if best else _NOTHING
    if any(_best_rank(window, u) > best_rank for u in undecided):
        return None
    if best is None:
        return Resolution()
    if best.kind is WIN:
        return Resolution(winners=(best.seat,))
    return Resolution(claim=best)


_NO_CLAIM = Resolution()


def _may_win(window: ClaimWindow, seat: int) -> bool:
    return any(a.kind is WIN for a in window.options[seat])


def _best_rank(window: ClaimWindow, seat: int) -> tuple[int, int]:
    return max(claim_rank(a.kind, seat, window.from_seat) for a in window.options[seat])
