"""Phases and action kinds as plain module names, for the move path.

`apply` and `legal_actions` run on every move, and on Python 3.11 reading an enum member
(``Phase.TURN``) goes through the enum type's own attribute look-up, some ten times the
cost of reading a module name. These are the same members (``TURN is Phase.TURN``),
imported by name where a move is made or checked.
"""

from __future__ import annotations

from engine.game.state import Phase
from engine.rules.common import ActionKind

TURN = Phase.TURN
CLAIM = Phase.CLAIM
ROB_KONG = Phase.ROB_KONG
ENDED = Phase.ENDED

ADDED_KONG = ActionKind.ADDED_KONG
CHI = ActionKind.CHI
CONCEALED_KONG = ActionKind.CONCEALED_KONG
DISCARD = ActionKind.DISCARD
KONG = ActionKind.KONG
PASS = ActionKind.PASS
PONG = ActionKind.PONG
WIN = ActionKind.WIN
