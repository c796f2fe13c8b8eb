"""What the service's commands and queries return: frozen values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.service.notices import ClaimAnswer, NextDiscard, TableInfo
from bot.store import LeaderboardRow, StandingChoices
from bot.store.ratings import Rating
from engine.game import Event
from engine.tiles import Tile
from engine.view import PlayerView, TableView


@dataclass(frozen=True)
class ActResult:
    """A move that landed: it is committed as action ``seq`` of hand ``hand_number``."""

    table_id: int
    hand_number: int
    seq: int
    hand_ended: bool
    match_ended: bool
    seat: int
    """The seat that moved."""
    held: tuple[Tile, ...] = ()
    """The moving seat's concealed tiles after the move when it decides nothing now (for
    its own "Next discard…" menu on the message it clicked: `set_next_discard`); empty
    otherwise. Returned to the person who moved alone."""
    caishen: Tile | None = None
    """The hand's 财神 (public), to name ``held``."""
    answers: tuple[tuple[Tile, ClaimAnswer], ...] = ()
    """With ``held``: the moving seat's claims answered in advance in the hand, by tile
    (for its "Claim in advance, this hand…" menu on the message it clicked, its chosen
    entries marked: `set_claim_answers`)."""


@dataclass(frozen=True)
class Seated:
    """Someone (a person or a computer) sat down: the table now, and the seat taken."""

    table: TableInfo
    seat: int


@dataclass(frozen=True)
class TablePicture:
    """The public picture's input: the table (names, hand) and the spectator view."""

    info: TableInfo
    view: TableView


@dataclass(frozen=True)
class HandInfo:
    """What `/mahjong hand` shows one player: their view and the decision in front of
    them (``step``, its place in the hand; ``public_step`` for the buttons; ``deadline``
    when a timer runs)."""

    table_id: int
    seat: int
    hand_number: int
    view: PlayerView
    step: int | None
    deadline: float | None
    names: tuple[str, ...]
    choices: StandingChoices
    """The seat's standing choices now."""
    away: bool
    """The computer plays the seat until its person is back."""
    seq: int
    """How many actions of the hand the view follows (a later notice of the seat shows
    a newer state when its ``seq`` is larger)."""
    public_step: int | None = None
    """What the decision's buttons carry (`steps.py`; None: nothing to decide now)."""
    next_discard: NextDiscard | None = None
    """The seat's next discard chosen in advance (its person's alone)."""
    answers: tuple[tuple[Tile, ClaimAnswer], ...] = ()
    """The claims the seat answered in advance for this hand, by tile."""
    bank: float | None = None
    """The seat's time bank for its decision (None: the table has none)."""


@dataclass(frozen=True)
class HistoryPart:
    """A run of a hand's public events, with who held each seat while they happened."""

    names: tuple[str, ...]
    events: tuple[Event, ...]


@dataclass(frozen=True)
class HandHistory:
    """The last finished hand of a table, as the channel may read it: its public events
    in order (no draw, no dealt tiles: nothing private to a seat) and its revealed wall.
    ``parts``: the events in runs, a new run where a person left the hand (their seat's
    actions before are theirs, the computer's after), each with the names of then."""

    table_id: int
    number: int
    parts: tuple[HistoryPart, ...]
    wall: str
    salt: str

    @property
    def names(self) -> tuple[str, ...]:
        """Who held each seat at the hand's end."""
        return self.parts[-1].names

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(e for part in self.parts for e in part.events)


@dataclass(frozen=True)
class RecoveryReport:
    live_tables: int | None
    """None: not counted (`Recovery.recover` with ``counted`` False)."""
    rebuilt: int
    deadlines: int | None
    deferred: int
    failed: tuple[int, ...] = ()


@dataclass(frozen=True)
class Standings:
    """A channel's leaderboard of one rule set: points in that rule set's unit (Shanghai
    花 × 底分, Hangzhou 底分 × 庄闲分 × multiplier), so never added across rule sets."""

    rules: str
    rows: tuple[LeaderboardRow, ...]
    """Best first."""
    others: tuple[str, ...] = ()
    """The channel's other rule sets with standings, the last played first."""
    season: int | None = None
    """The server's season the board is of (None: all time, every season summed; a
    board asked without a season is its current one's, or None where unknown)."""
    current: int | None = None
    """The server's season now (None where unknown: a board asked without a server)."""
    ratings: Mapping[int, Rating] = field(default_factory=dict)
    """The skill rating in the server's rule set of each person on the board who has
    one, by user id (the rating now, whichever season the board is of)."""


@dataclass(frozen=True)
class SeasonClosed:
    """A server's season closed (`/mahjong season close`): its number, the next one's,
    how many board lines went to the archive, and the channel's board of the closed
    season (its rule set played last, best first)."""

    closed: int
    begun: int
    archived: int
    board: Standings


@dataclass(frozen=True)
class RecapSet:
    """A channel's weekly recap as it now stands (`/mahjong recap`)."""

    channel_id: int
    enabled: bool


@dataclass(frozen=True)
class QuietSet:
    """A person's quiet hours as they now stand (`/mahjong quiet`): ``start`` and ``end``
    minutes of the day on ``time_zone``'s clock (None: off), and the next quiet window
    in real time (``next_start`` None while off; while quiet now, the window they are
    in: ``next_start`` is when it began)."""

    time_zone: str | None
    start: int | None
    end: int | None
    next_start: float | None = None
    next_end: float | None = None
    now: bool = False
    """The person is inside those quiet hours now."""


@dataclass(frozen=True)
class LeaveSet:
    """A person's leave as it now stands (`/mahjong vacation`): until when (None: none),
    and at each live table they sit at, until when that table honours it (its
    ``vacation_days``; None: that table allows no leave)."""

    until: float | None
    tables: tuple[tuple[int, float | None], ...] = ()
