"""Timer defaults and replaying a hand from its wall and actions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.game.actions import Action
from engine.game.deal import new_hand
from engine.game.hand import apply
from engine.game.legal import legal_actions
from engine.game.state import HandState, Phase
from engine.rules.common import ActionKind, TableOptions
from engine.tiles import Tile


def timeout_action(state: HandState, seat: int) -> Action:
    """What the timer plays for ``seat``: in a claim window, pass; on a turn, a win if
    one is available and allowed, else discard the drawn tile, or with no drawn tile the
    rightmost tile of the sorted hand."""
    legal = legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no decision to time out")
    if state.phase is not Phase.TURN:
        return Action(ActionKind.PASS, seat)
    win = Action(ActionKind.WIN, seat)
    if win in legal:
        return win
    s = state.seats[seat]
    tile = s.drawn if s.drawn is not None else max(s.hand)
    default = Action(ActionKind.DISCARD, seat, tile)
    # Under 抓打 only the drawn tile may go; it is the drawn one above, so always legal.
    return default if default in legal else next(a for a in legal
                                                  if a.kind is ActionKind.DISCARD)


def replay(ruleset_name: str, options: Mapping[str, Any] | TableOptions | None,
           wall: Sequence[Tile], dice: tuple[int, int], dealer: int,
           actions: Iterable[Action], streak: int = 1, huangfan: bool = False
           ) -> HandState:
    """The state reached by dealing ``wall`` and applying ``actions`` in order."""
    state, _ = new_hand(ruleset_name, options, wall, dealer, dice, streak=streak,
                        huangfan=huangfan)
    for action in actions:
        state, _ = apply(state, action)
    return state
