"""Why an action is refused. Every refusal is an `IllegalAction` (a ValueError) whose
message is meant for the player who tried it, and never reveals another seat's tiles."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the current state does not allow; nothing was changed.

    ``code`` names the kind of refusal (stable, for translations: the reason is English).
    """

    code = "illegal"

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class MalformedAction(IllegalAction):
    """Not an action at all: bad JSON, an unknown kind, a missing tile."""

    code = "malformed"


class HandOver(IllegalAction):
    """The hand has ended."""

    code = "hand_over"


class NotYourDecision(IllegalAction):
    """The seat has nothing to decide now (not its turn, not asked in this window)."""

    code = "not_your_decision"


class WrongPhase(IllegalAction):
    """This kind of action does not fit the moment (a claim on one's own turn, …)."""

    code = "wrong_phase"


class AlreadyAnswered(IllegalAction):
    """The seat already answered this claim window."""

    code = "already_answered"


class TileNotHeld(IllegalAction):
    """The action uses a tile the seat does not hold."""

    code = "tile_not_held"


class InvalidMeld(IllegalAction):
    """The tiles do not make the meld claimed (or there is no pong to add to)."""

    code = "invalid_meld"


class NotAWin(IllegalAction):
    """The hand does not win under these rules now (incomplete, or not qualifying)."""

    code = "not_a_win"


class Restricted(IllegalAction):
    """A rule restriction forbids it (漏胡, 漏碰, 抓打, 摊, chi limit, last window, …)."""

    code = "restricted"
