"""Why the service said no. One exception type, with a stable code for the adapter to
translate and a reason a player may read (never holding anyone else's tiles)."""

from __future__ import annotations


class Refused(Exception):
    """A command that was not carried out; nothing was changed.

    ``code`` is stable (for translations and tests); ``reason`` is plain English text
    meant only for the person who tried it.
    """

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason

    def __repr__(self) -> str:
        return f"Refused({self.code!r}, {self.reason!r})"


# The codes, so that a typo in one place cannot silently invent a new one.
NO_TABLE = "no_table"
BAD_OPTIONS = "bad_options"
CHANNEL_BUSY = "channel_busy"
NOT_IN_LOBBY = "not_in_lobby"
NOT_PLAYING = "not_playing"
TABLE_FULL = "table_full"
ALREADY_SEATED = "already_seated"
SEAT_TAKEN = "seat_taken"
NO_SUCH_SEAT = "no_such_seat"
NOT_SEATED = "not_seated"
NOT_ALLOWED = "not_allowed"
EMPTY_SEATS = "empty_seats"
NOT_A_COMPUTER = "not_a_computer"
WRONG_SEAT = "wrong_seat"
NO_HAND = "no_hand"
STALE = "stale"
ILLEGAL = "illegal"
