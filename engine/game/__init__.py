"""One hand of mahjong as a pure, deterministic state machine.

    state, events = new_hand("shanghai", {}, wall, dealer=0, dice=(3, 5))
    legal_actions(state, seat)            # exactly what ``seat`` may do now
    state, events = apply(state, action)  # or IllegalAction(reason); nothing changed
    deciding_seats(state)                 # whose decision the hand waits for
    timeout_action(state, seat)           # what the timer plays for that seat
    preload_tables()                      # read the bundled tables now (server start-up)
    replay(rules, options, wall, dice, dealer, actions, streak, huangfan) -> state

No I/O, no clock, no randomness: the wall is injected (`stack_wall` builds one that
deals chosen hands). A hand is fully determined by its wall, dealer, dice, streak, 荒番
flag and the ordered actions. Rule-specific judgements (priorities, 漏胡, 抓打, 摊, …)
live in `engine.rules`; this package only asks them (see `play.py`).
"""

from engine.game.actions import Action
from engine.game.claims import Resolution, resolve
from engine.game.deal import DEALT, deal_order, new_hand, stack_wall
from engine.game.errors import (
    AlreadyAnswered,
    HandOver,
    IllegalAction,
    InvalidMeld,
    MalformedAction,
    NotAWin,
    NotYourDecision,
    Restricted,
    TileNotHeld,
    WrongPhase,
)
from engine.game.events import (
    ClaimAnswered,
    ClaimWindowClosed,
    ClaimWindowOpened,
    ConcealedKongDeclared,
    Event,
    FlowerLaidAside,
    HandEnded,
    HandStarted,
    MeldDeclared,
    TileBurned,
    TileDiscarded,
    TileDrawn,
    TilesDealt,
    WildcardTurned,
)
from engine.game.hand import apply
from engine.game.held import preload_tables
from engine.game.legal import deciding_seats, legal_actions
from engine.game.replay import replay, timeout_action
from engine.game.state import (
    ClaimWindow,
    Discard,
    HandResult,
    HandState,
    Phase,
    SeatState,
    WinRecord,
)
from engine.rules.common import ActionKind

__all__ = [
    "DEALT", "Action", "ActionKind", "AlreadyAnswered", "ClaimAnswered", "ClaimWindow",
    "ClaimWindowClosed", "ClaimWindowOpened", "ConcealedKongDeclared", "Discard", "Event",
    "FlowerLaidAside",
    "HandEnded", "HandOver", "HandResult", "HandStarted", "HandState", "IllegalAction",
    "InvalidMeld", "MalformedAction", "MeldDeclared", "NotAWin", "NotYourDecision",
    "Phase", "Resolution", "Restricted", "SeatState", "TileBurned", "TileDiscarded",
    "TileDrawn", "TileNotHeld", "TilesDealt", "WildcardTurned", "WinRecord",
    "WrongPhase", "apply", "deal_order", "deciding_seats", "legal_actions", "new_hand",
    "preload_tables", "replay", "resolve", "stack_wall", "timeout_action",
]
