"""Why an action is refused. Every refusal is an `IllegalAction` (a ValueError) with a
`Code` and its parameters (`engine.refusals`), meant for the player who tried it: it
never reveals another seat's tiles."""

from __future__ import annotations

from engine.refusals import RefusalError


class IllegalAction(RefusalError):
    """An action the current state does not allow; nothing was changed.

    ``kind`` names the kind of refusal (stable: one per subclass); ``code`` and
    ``params`` say exactly why, and ``str(exc)`` (or ``exc.reason``) in English.
    """

    kind = "illegal"


class MalformedAction(IllegalAction):
    """Not an action at all: bad JSON, an unknown kind, a missing tile."""

    kind = "malformed"


class HandOver(IllegalAction):
    """The hand has ended."""

    kind = "hand_over"


class NotYourDecision(IllegalAction):
    """The seat has nothing to decide now (not its turn, not asked in this window)."""

    kind = "not_your_decision"


class WrongPhase(IllegalAction):
    """This kind of action does not fit the moment (a claim on one's own turn, …)."""

    kind = "wrong_phase"


class AlreadyAnswered(IllegalAction):
    """The seat already answered this claim window."""

    kind = "already_answered"


class TileNotHeld(IllegalAction):
    """The action uses a tile the seat does not hold."""

    kind = "tile_not_held"


class InvalidMeld(IllegalAction):
    """The tiles do not make the meld claimed (or there is no pong to add to)."""

    kind = "invalid_meld"


class NotAWin(IllegalAction):
    """The hand does not win under these rules now (incomplete, or not qualifying)."""

    kind = "not_a_win"


class Restricted(IllegalAction):
    """A rule restriction forbids it (漏胡, 漏碰, 抓打, 摊, chi limit, last window, …)."""

    kind = "restricted"
