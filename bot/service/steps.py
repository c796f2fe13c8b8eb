"""The step a decision's buttons carry: counted in moves that every player has seen.

A hand's log numbers every action (`HandState.seq`), and each answer to a claim window
is one: a pass, a timed-out pass, or a claim a higher one overrode, none of which
anyone but the seat that gave it ever sees. A button carrying that number would let a
player count, from the gap between two of their own buttons, how many seats had been
asked to claim meanwhile (issue 28). So the buttons carry the *public step* instead,
worked out from what every seat sees alone: the discards and the melds on the table
(an added kong counting as its pong and the tile added).

After P public moves, a turn's public step is 2P + 2 and a claim (or rob) window's is
2P + 1. A turn ends with a public move (a discard, a kong, a win); a window with a
claim (a new meld) or with every seat passing, after which the next turn comes at the
same P, one step later. So a hand's decisions have strictly growing steps, no number is
shown for two of them, and a seat's answer in a window leaves the others' steps as they
are: a stale button is told from the current decision exactly, as with the seq.

The service's own bookkeeping (deadlines, which DM shows which decision) keeps the seq
numbering (`live.step_of`): it is never shown to anyone.
"""

from __future__ import annotations

from engine.game import HandState, Phase, deciding_seats
from engine.melds import MeldKind


def public_moves(state: HandState) -> int:
    """How many of the hand's moves every seat has seen: discards and melds."""
    return state.remembered(public_moves, lambda: _count(state))


def _count(state: HandState) -> int:
    return sum(len(s.discards) + sum(2 if m.kind is MeldKind.ADDED_KONG else 1
                                     for m in s.melds)
               for s in state.seats)


def public_step_of(state: HandState, seat: int) -> int | None:
    """The public step of the decision in front of ``seat`` (None: it has none)."""
    if seat not in deciding_seats(state):
        return None
    moves = 2 * public_moves(state)
    return moves + 2 if state.phase is Phase.TURN else moves + 1
