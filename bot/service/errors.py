"""Why the service said no. One exception type, with a stable code for the adapter to
translate, the values its sentence needs, and an English reason for logs and tests
(never holding anyone else's tiles)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any


class Refused(Exception):
    """A command that was not carried out; nothing was changed.

    ``code`` is stable and names one sentence the adapter says in the reader's language;
    ``params`` are that sentence's values (seat numbers 1–4, names, …; for ``ILLEGAL``
    the engine's ``refusal``, an `engine.refusals.Refusal` — its code and values —, its
    kind ``why`` and English ``detail``; for ``BAD_OPTIONS`` the engine's ``refusal``
    when it gave one); ``reason`` is the same in plain
    English, for logs and tests — players read the adapter's sentence, not this.
    """

    def __init__(self, code: str, reason: str, /, **params: Any) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.params: Mapping[str, Any] = MappingProxyType(params)

    def __repr__(self) -> str:
        return f"Refused({self.code!r}, {self.reason!r})"


# The codes, so that a typo in one place cannot silently invent a new one.
NO_TABLE = "no_table"
BAD_OPTIONS = "bad_options"
CHANNEL_BUSY = "channel_busy"
NOT_IN_LOBBY = "not_in_lobby"
NOT_PLAYING = "not_playing"
CANCELLED = "cancelled"
"""The table was cancelled (an old button or command reaching it)."""
CONFIRM_LEAVE = "confirm_leave"
"""Leaving a running match is confirmed first (params: ``penalty``, what leaving now
costs the leaver, 0 under rules without one; ``receiver``, the name of the seat that
receives it, or None: nobody; ``rules``; ``table``)."""
TABLE_FULL = "table_full"
ALREADY_SEATED = "already_seated"
SEAT_TAKEN = "seat_taken"
NO_SUCH_SEAT = "no_such_seat"
BAD_NAME = "bad_name"
"""A name no seat can show (empty, or holding a NUL character)."""
NOT_SEATED = "not_seated"
NOT_MEMBER = "not_member"
"""Only players at the table, its creator or a server manager may do that."""
NOT_YOURS = "not_yours"
"""A stranger pressed a seated player's button (params: seat, name)."""
NOT_ALLOWED = "not_allowed"
EMPTY_SEATS = "empty_seats"
NOT_A_COMPUTER = "not_a_computer"
WRONG_SEAT = "wrong_seat"
"""A seated player pressed another seat's button (params: seat, name)."""
NO_HAND = "no_hand"
STALE = "stale"
"""The button is for a decision that has passed."""
STALE_HAND = "stale_hand"
"""The button is from an earlier hand."""
RACED = "raced"
"""Another move landed first (two clicks at once)."""
ILLEGAL = "illegal"
BAD_CLAIM_ANSWER = "bad_claim_answer"
"""A claim answered in advance for a tile the seat does not hold enough of (params:
``tile``, ``kind`` "pong" or "kong")."""
BAD_CHI_ANSWER = "bad_chi_answer"
"""A chi answered in advance that is no chi of the seat's own two tiles (params:
``tile``, the claimed tile, and ``tiles``, the two named): not held, not a run with the
tile, or a 财神 among them."""
BAD_THEN_DISCARD = "bad_then_discard"
"""A discard named to follow a claim answered in advance that the seat would not hold
after that claim, or named after no such claim, or after a kong (params: ``tile``, the
discard; ``claimed``, the claimed tile)."""
NOT_HELD = "not_held"
"""A next discard chosen in advance that the seat does not hold (params: tile)."""
YOUR_TURN = "your_turn"
"""A next discard chosen (or cancelled) in advance while it is the seat's turn: it is
played from the decision's own menu."""
NO_NEXT_DISCARD = "no_next_discard"
""""Or my draw" switched for a next discard when the seat has none chosen (played, or
cancelled, since the button was shown)."""
BAD_TIME_ZONE = "bad_time_zone"
"""Quiet hours: not an IANA time zone (params: zone, as given)."""
NO_TIME_ZONE = "no_time_zone"
"""Quiet hours set for the first time without a time zone."""
BAD_CLOCK = "bad_clock"
"""Quiet hours: a start or end that is no time of day HH:MM (params: value, as given)."""
QUIET_NEEDS_HOURS = "quiet_needs_hours"
"""Quiet hours set for the first time without both their start and end."""
QUIET_EMPTY = "quiet_empty"
"""Quiet hours that start when they end."""
QUIET_TOO_LONG = "quiet_too_long"
"""Quiet hours longer than a person may rest each day (params: most, in hours)."""
BAD_DAYS = "bad_days"
"""A leave of another number of days than 1 to the most (params: most)."""
NO_FINISHED_HAND = "no_finished_hand"
"""A replay asked of a table none of whose hands has ended yet (params: table)."""
NO_SUCH_HAND = "no_such_hand"
"""A replay of a hand number the table never dealt, or one voided by a cancel (params:
table, hand, last: the table's last finished hand)."""
HAND_RUNNING = "hand_running"
"""A replay of the hand being played (params: table, hand): only finished hands are
replayed."""
NO_SUCH_STEP = "no_such_step"
"""A replay step past the hand's end (params: last, the settlement's step)."""
NOT_MANAGER = "not_manager"
"""Only a manager of the server (Manage Server) may do that: close a season, turn a
channel's weekly recap on or off."""
SEASON_CLOSED = "season_closed"
"""The season a close was confirmed for is closed already (params: season): a second
press, or another manager's close landed first. Nothing changed."""
NO_SEASON = "no_season"
"""A board asked of a season this server never had (params: season, current)."""
BAD_SEASON = "bad_season"
"""A season that is no number nor "all" (params: value, as given)."""
STATS_BAD_SCOPE = "stats_bad_scope"
"""``/mahjong stats`` with a scope that is none of channel, server, all (param ``scope``)."""
STATS_ALL_OTHERS = "stats_all_others"
"""Every server's figures (scope ``all``) of someone else: each person's own only."""
STATS_PRIVATE_SCOPE = "stats_private_scope"
"""A channel's or a server's figures asked in private messages, which have neither
(param ``scope``)."""
STATS_VERSUS_SELF = "stats_versus_self"
"""Head-to-head of a person against themself."""
RATINGS_NOT_MANAGER = "ratings_not_manager"
"""A rebuild of the server's ratings asked by someone who may not manage the server (or
outside a server)."""
