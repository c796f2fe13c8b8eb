"""Why an action is refused. Every refusal is an `IllegalAction` (a ValueError) whose
message is meant for the player who tried it, and never reveals another seat's tiles."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the current state does not allow; nothing was changed."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class MalformedAction(IllegalAction):
    """Not an action at all: bad JSON, an unknown kind, a missing tile."""


class HandOver(IllegalAction):
    """The hand has ended."""


class NotYourDecision(IllegalAction):
    """The seat has nothing to decide now (not its turn, not asked in this window)."""


class WrongPhase(IllegalAction):
    """This kind of action does not fit the moment (a claim on one's own turn, …)."""


class AlreadyAnswered(IllegalAction):
    """The seat already answered this claim window."""


class TileNotHeld(IllegalAction):
    """The action uses a tile the seat does not hold."""


class InvalidMeld(IllegalAction):
    """The tiles do not make the meld claimed (or there is no pong to add to)."""


class NotAWin(IllegalAction):
    """The hand does not win under these rules now (incomplete, or not qualifying)."""


class Restricted(IllegalAction):
    """A rule restriction forbids it (漏胡, 漏碰, 抓打, 摊, chi limit, last window, …)."""
