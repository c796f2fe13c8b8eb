"""Which rule module answers the state machine's questions for a hand.

Each rule module (engine.rules.shanghai / hangzhou) exposes the same play interface:
MULTIPLE_WINNERS, ROB_ADDED_KONG, KONG_BURNS, LAST_WINDOW_TILES, HAS_FLOWERS,
PASSED_CLAIMS_BIND, claim_refusal(check, options) and turn_refusal(check, options).
"""

from __future__ import annotations

from types import ModuleType

from engine.rules import hangzhou, shanghai

_MODULES: dict[str, ModuleType] = {shanghai.NAME: shanghai, hangzhou.NAME: hangzhou}


def play_rules(name: str) -> ModuleType:
    return _MODULES[name]
