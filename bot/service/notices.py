"""What the service tells the outside world, as frozen values.

Public notices (lobby, hand start, table, away, settlement, reveal, leaderboard, match
end) go to the channel and never hold a concealed tile. `PrivateNotice` and
`MoveNotice` go to one seat's person. Pictures are not made here: a notice offers
the engine view to draw from (`view()`), computed only if the notifier asks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import partial
from typing import Any, ClassVar, Literal

from bot.service.cause import Cause
from bot.service.steps import public_step_of
from bot.store import AnnouncementStatus, LeaderboardRow, StandingChoices
from bot.store.ratings import Rating
from engine.game import (
    Action,
    ActionKind,
    ClaimWindowClosed,
    ClaimWindowOpened,
    ConcealedKongDeclared,
    Event,
    FlowerLaidAside,
    HandEnded,
    HandState,
    MeldDeclared,
    TileDiscarded,
    WildcardTurned,
)
from engine.melds import MeldKind
from engine.tiles import Tile
from engine.view import PlayerView, ResultView, TableView, spectator_view, view

TableStatus = Literal["lobby", "playing", "finished", "cancelled"]


@dataclass(frozen=True)
class TableRef:
    """Where a table lives: enough for an adapter to find the channel."""

    table_id: int
    guild_id: int
    channel_id: int
    creator_id: int | None = field(default=None, compare=False)
    """Who opened the table (told once if the bot lacks a channel permission)."""


@dataclass(frozen=True)
class Receipt:
    """An announcement the store recorded with the change it announces (the outbox).

    A notifier calls `sending` right before it hands the announcement to the outside
    world and `delivered` once that accepted it; until then a restart delivers it again.
    ``unsure``: a crash came between the two, so the announcement may already be out:
    look for ``key`` (unique per announcement) there before sending it again."""

    id: int
    key: str
    unsure: bool = False
    _mark: Callable[[int, AnnouncementStatus], Awaitable[None]] | None = field(
        default=None, repr=False, compare=False)

    async def sending(self) -> None:
        if self._mark is not None:
            await self._mark(self.id, "sending")

    async def delivered(self) -> None:
        if self._mark is not None:
            await self._mark(self.id, "delivered")


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    user_id: int | None
    name: str
    is_computer: bool
    away: bool = False
    consecutive_timeouts: int = 0
    choices: StandingChoices = field(default_factory=StandingChoices)


@dataclass(frozen=True)
class TableInfo:
    """A table as anyone may see it."""

    ref: TableRef
    creator_id: int
    rules: str
    options: dict[str, Any]
    status: TableStatus
    seats: tuple[SeatInfo | None, ...]
    """Four entries; None is an empty seat."""
    hand_number: int | None = None
    hands_in_match: int | None = None
    deciding: tuple[int, ...] = ()
    """Whose turn it is; empty during a claim window (who may claim is secret)."""
    totals: tuple[Fraction, ...] | None = None
    hands_played: int = 0
    """Hands of the (last) match played to their settlement."""

    @property
    def names(self) -> tuple[str, ...]:
        return names_of(self.seats)

    @property
    def empty_seats(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.seats) if s is None)


def names_of(seats: Sequence[SeatInfo | None]) -> tuple[str, ...]:
    return tuple(s.name if s is not None else f"(seat {i + 1} empty)"
                 for i, s in enumerate(seats))


@dataclass(frozen=True)
class LobbyNotice:
    """The lobby (or the table's membership) changed: post or edit the lobby message.

    ``what``: created, joined, left, computer_added, computer_removed, started (the
    first hand is dealt), hand_started (each later hand), cancelled, finished, replaced
    (a player left mid-match, the computer took over).
    """

    kind: ClassVar[str] = "lobby"

    table: TableInfo
    what: str
    seat: int | None = None
    by: str | None = None
    """Who cancelled the table (``what`` cancelled; None: not known, a table cancelled
    before it was kept)."""
    receipt: Receipt | None = field(default=None, compare=False)
    """Set when the store recorded it (the table finished or was cancelled)."""
    cause: Cause | None = field(default=None, compare=False)
    pace: float | None = None
    """In the lobby: the days a match takes at the seated people's own pace
    (`bot.service.match_pace`); None: not known yet (or not in the lobby)."""


@dataclass(frozen=True)
class HandStartNotice:
    """Public: a hand begins. ``commitment`` is SHA-256(salt + wall), revealed later."""

    kind: ClassVar[str] = "hand_started"

    ref: TableRef
    names: tuple[str, ...]
    hand_number: int
    hands_in_match: int
    dealer: int
    dice: tuple[int, int]
    streak: int
    huangfan: bool
    commitment: str
    receipt: Receipt | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Resting:
    """A seat whose person rests now: their quiet hours (or, ``leave``, a leave of days,
    `/mahjong vacation`) end at ``until``. Only that is shown of it."""

    seat: int
    until: float
    leave: bool = False


@dataclass(frozen=True)
class TableNotice:
    """Public: the table changed. ``lines`` say what happened, without hidden tiles."""

    kind: ClassVar[str] = "table"

    ref: TableRef
    names: tuple[str, ...]
    hand_number: int
    seq: int
    """Actions applied so far in this hand."""
    lines: tuple[str, ...]
    deciding: tuple[int, ...]
    """Whose turn it is; empty during a claim window (who may claim is secret)."""
    events: tuple[Event, ...]
    """The public engine events behind ``lines``, for an adapter to word in the reader's
    language (none is private to a seat)."""
    _state: HandState = field(repr=False, compare=False)
    seats: tuple[SeatInfo | None, ...] = ()
    """Who sits where now (names, user ids for mentions, away flags)."""
    cause: Cause | None = field(default=None, compare=False)
    """The person's request that made this change (None: a timer or the computer)."""
    resting: tuple[Resting, ...] = ()
    """The seats whose people rest now (quiet hours, leave), and until when."""

    def view(self) -> TableView:
        return spectator_view(self._state, self.hand_number)

    def viewed(self) -> tuple[HandState, int]:
        """What `view` is made of: the state and the hand number (a table picture's job
        carries them as plain values, `bot.discord.core.pictures.table_job`)."""
        return self._state, self.hand_number


@dataclass(frozen=True, order=True)
class ClaimAnswer:
    """One claim a seat answered in advance for a tile of this hand: ``kind`` PONG
    ("pong 5m"), KONG ("kong 5m") or CHI ("chi 5m with 3m4m": ``tiles`` the two of the
    seat's own it melds with, sorted); ``then``: the discard named to follow it ("pong
    5m, then 9p"), None: the seat is asked its discard."""

    kind: ActionKind
    tiles: tuple[Tile, ...] = ()
    then: Tile | None = None

    def uses(self, tile: Tile) -> tuple[Tile, ...]:
        """The tiles of the seat's hand the claim of ``tile`` melds with (natural: the
        pong's two of the tile itself, never a 财神)."""
        if self.kind is ActionKind.CHI:
            return self.tiles
        return (tile,) * (3 if self.kind is ActionKind.KONG else 2)

    def same_claim(self, other: ClaimAnswer) -> bool:
        """The same claim, whatever discard each names."""
        return self.kind is other.kind and self.tiles == other.tiles


@dataclass(frozen=True)
class NextDiscard:
    """A seat's next discard chosen in advance ("next: 9p"), private to its person:
    ``tile``, and ``or_draw``: "or my draw if it helps less" — at the turn the one of
    the two the engine's own advice keeps less is played (`engine.ai.less_useful`);
    on unless its person switched it off for this pre-move (then exactly ``tile``)."""

    tile: Tile
    or_draw: bool = True


@dataclass(frozen=True)
class PlayedAhead:
    """A seat's turn played at once by what its person chose beforehand (private to
    them): ``reason`` "premove" (their next discard chosen in advance),
    "discard_drawn" ("discard my draw" with a ready hand) or "claim_discard" (the
    discard their claim answered in advance named: ``claim``, the claimed tile and the
    answer; nothing drawn), the tile drawn, the tile discarded, and (a pre-move) the
    tile chosen in advance: the draw is discarded in its place when it helped less ("or
    my draw")."""

    reason: Literal["premove", "discard_drawn", "claim_discard"]
    drawn: Tile | None
    discarded: Tile
    chosen: Tile | None = None
    claim: tuple[Tile, ClaimAnswer] | None = None


@dataclass(frozen=True)
class PrivateNotice:
    """Private to one seat's person: their hand changed or a decision is in front of
    them. ``step`` is the decision's place in the hand (None: nothing to decide now);
    its buttons carry `public_step`."""

    kind: ClassVar[str] = "private_hand"

    ref: TableRef
    seat: int
    user_id: int | None
    names: tuple[str, ...]
    hand_number: int
    step: int | None
    deadline: float | None
    _state: HandState = field(repr=False, compare=False)
    choices: StandingChoices = field(default_factory=StandingChoices)
    """The seat's standing choices now (its DM shows them as toggles)."""
    away: bool = False
    """The computer plays the seat until its person is back."""
    locale: str | None = None
    """The language the person last used with the bot (None: not known)."""
    news: tuple[Event, ...] = ()
    """The public events of the change this notice reports (a presenter that merges
    unsent notices for a seat concatenates them)."""
    cause: Cause | None = field(default=None, compare=False)
    reminder: bool = False
    """Sent once when half the decision's time has passed."""
    resent: bool = False
    """The decision's DM is owed again: a crash (of this process or, in shared mode, of
    another) came between its commit and its DM. A presenter sends it only where the
    seat's DM does not already show ``step`` (another process may have sent it since)."""
    silent: bool = False
    """Sent without notifying its person (Discord's suppress-notifications flag): the
    service decides (a claim offer holding no win, a person inside their quiet hours),
    the adapter only obeys."""
    next_discard: NextDiscard | None = None
    """The seat's next discard chosen in advance (its DM says "next: 9p, or my draw")."""
    played: PlayedAhead | None = None
    """The seat's turn that was just played at once for its person (what was drawn and
    discarded), told in their DM."""
    answers: tuple[tuple[Tile, ClaimAnswer], ...] = ()
    """The claims the seat answered in advance for this hand ("pong 5m": (5m, PONG)),
    by tile; its DM offers to change them while it decides nothing."""
    bank: float | None = None
    """Seconds left in the seat's time bank (it runs once the decision's timer is out;
    the ``deadline`` includes it); None: the table has no time bank."""

    def view(self) -> PlayerView:
        return view(self._state, self.seat, self.hand_number)

    def viewing(self) -> Callable[[], PlayerView]:
        """`view` as a call that holds the state, the seat and the hand number alone
        (sent to a picture process, it carries nothing else of the notice)."""
        return partial(view, *self.viewed())

    def viewed(self) -> tuple[HandState, int, int]:
        """What `view` is made of: the state, the seat and the hand number (a picture
        job carries them as plain values, `bot.discord.play.dms.dm_job`)."""
        return self._state, self.seat, self.hand_number

    @property
    def seq(self) -> int:
        """How many actions of the hand the notice's state follows (what it shows)."""
        return self._state.seq

    @property
    def public_step(self) -> int | None:
        """What the decision's buttons carry: its public step (`steps.py`), nothing
        another seat's hidden answers change (None: nothing to decide now)."""
        return None if self.step is None else public_step_of(self._state, self.seat)


MoveKind = Literal["turn", "claim"]
Mentions = Literal["when_needed", "every_turn"]


@dataclass(frozen=True)
class MoveNotice:
    """Private ping: a decision awaits this seat (or, ``reminder``, half its time is gone)."""

    ref: TableRef
    seat: int
    user_id: int | None
    hand_number: int
    step: int
    move: MoveKind
    deadline: float
    reminder: bool = False
    seats: tuple[SeatInfo | None, ...] = ()
    """Who sits where (a claim window's mention names every closed-DM seat)."""
    mentions: Mentions = "when_needed"
    """The table's ``mentions`` option."""
    discarder: int | None = None
    """For a claim: the seat whose tile may be claimed (never mentioned)."""
    silent: bool = False
    """A mention it makes does not notify (Discord's suppress-notifications flag)."""

    @property
    def kind(self) -> str:
        return "reminder" if self.reminder else "your_move"


@dataclass(frozen=True)
class WarningNotice:
    """Private, once per decision: a quarter of a person's time for it is left. Says
    until when their timer runs (``timer_at``), the time bank that runs after it
    (``bank`` seconds; 0: none), when the timer then plays (``deadline``) and what it
    will play (``default``: their own move, e.g. discarding their drawn tile, or a pass)."""

    kind: ClassVar[str] = "warning"

    ref: TableRef
    seat: int
    user_id: int | None
    rules: str
    hand_number: int
    move: MoveKind
    timer_at: float
    deadline: float
    bank: float
    default: Action
    locale: str | None = None
    silent: bool = False
    """Sent without a notification (the person is in quiet hours)."""


@dataclass(frozen=True)
class WaitingMove:
    """A decision that waits for one person (`/mahjong turns`, the digest after their
    quiet hours): where (the table, its rules, the channel's table message when known),
    which hand, a turn or a claim, and when its timer plays it. Only ever shown to that
    person: whether a seat is asked in a claim window is its secret."""

    ref: TableRef
    rules: str
    hand_number: int
    hands_in_match: int
    move: MoveKind
    deadline: float
    message_id: int | None = None
    """The channel's table message (None: not posted, or not known)."""


@dataclass(frozen=True)
class DigestNotice:
    """Private to one person, once their quiet hours (or leave) end: every decision that
    waits for them, the soonest first — one notifying DM instead of one per table (the
    DMs that reached them while quiet came silently)."""

    kind: ClassVar[str] = "digest"

    user_id: int
    waiting: tuple[WaitingMove, ...]
    locale: str | None = None
    """The language the person last used with the bot (None: not known)."""


@dataclass(frozen=True)
class AwayNotice:
    """Public: a seat is now played by the computer until its person acts (or is back).

    ``removed``: the table's ``away_leaves`` option made the timeouts a departure (逃跑),
    or (``by_choice``) the person left the running match themselves: the computer keeps
    the seat for the rest of the match, ``penalty`` is what the leaver was charged for
    it (0 where the rule set has no penalty), ``receiver`` the name of the seat that
    received it (None: nobody).
    """

    kind: ClassVar[str] = "away"

    ref: TableRef
    seat: int
    user_id: int | None
    name: str
    away: bool
    removed: bool = False
    penalty: Fraction = Fraction(0)
    by_choice: bool = False
    receiver: str | None = None
    rules: str | None = None
    """The table's rule set (``by_choice``: the channel is told under which rules it
    cost what it did)."""


@dataclass(frozen=True)
class LeaveNotice:
    """Private to a table's creator: a person at their table took leave (`/mahjong
    vacation`), which the table honours until ``until`` (its ``vacation_days``); sent
    once each time the person sets a leave."""

    kind: ClassVar[str] = "leave"

    ref: TableRef
    seat: int
    user_id: int
    name: str
    until: float
    creator_id: int


@dataclass(frozen=True)
class SettlementNotice:
    """Public: how the hand ended, every pattern and who pays whom."""

    kind: ClassVar[str] = "settlement"

    ref: TableRef
    names: tuple[str, ...]
    rules: str
    hand_number: int
    result: ResultView
    totals: tuple[Fraction, ...]
    """The match totals after this hand."""
    caishen: Tile | None = None
    """The hand's wild kind (Hangzhou), marked on the card."""
    receipt: Receipt | None = field(default=None, compare=False)


@dataclass(frozen=True)
class RevealNotice:
    """Public: the wall and salt of a finished hand; sha256(salt + wall) == commitment."""

    kind: ClassVar[str] = "reveal"

    ref: TableRef
    hand_number: int
    wall: str
    salt: str
    commitment: str
    receipt: Receipt | None = field(default=None, compare=False)


@dataclass(frozen=True)
class LeaderboardNotice:
    kind: ClassVar[str] = "leaderboard"

    ref: TableRef
    rows: tuple[LeaderboardRow, ...]
    hand_number: int = 0
    """The hand after which these are the standings."""
    receipt: Receipt | None = field(default=None, compare=False)
    ratings: Mapping[int, Rating] = field(default_factory=dict)
    """Each person's skill rating in the server's rule set, by user id (none: left out)."""


@dataclass(frozen=True)
class MatchEndNotice:
    kind: ClassVar[str] = "match_ended"

    ref: TableRef
    names: tuple[str, ...]
    totals: tuple[Fraction, ...]
    hands_played: int
    cancelled: bool = False
    receipt: Receipt | None = field(default=None, compare=False)


@dataclass(frozen=True)
class RecapHand:
    """The week's biggest win of one rule set in a channel: whose, its value (as the
    settlement shows it) and its patterns (the rule set's ids)."""

    rules: str
    user_id: int
    name: str
    value: int
    patterns: tuple[str, ...]


@dataclass(frozen=True)
class RecapGain:
    """The week's most improved rating in a channel: whose, of which rule set, by how
    much (shown points) and where it now stands."""

    rules: str
    user_id: int
    name: str
    gain: int
    shown: int
    provisional: bool


@dataclass(frozen=True)
class RecapNotice:
    """Public: a channel's weekly recap (`Recaps`), posted once for ``week`` (ISO,
    ``YYYY-Www``, UTC) through the outbox; ``ref`` is the channel's table that carries it.
    Its lines: the biggest hand of each rule set played, the most improved rating (None:
    no rating changed, or none is kept), who played the most hands (``most_hands``:
    name and count)."""

    kind: ClassVar[str] = "recap"

    ref: TableRef
    week: str
    hands: int
    biggest: tuple[RecapHand, ...]
    improved: RecapGain | None
    most_hands: tuple[str, int] | None
    receipt: Receipt | None = field(default=None, compare=False)

    def facts(self) -> dict[str, Any]:
        """What its announcement row keeps (JSON): everything but the table and receipt."""
        return {"week": self.week, "hands": self.hands,
                "biggest": [dataclasses.asdict(b) for b in self.biggest],
                "improved": None if self.improved is None
                else dataclasses.asdict(self.improved),
                "most_hands": None if self.most_hands is None else list(self.most_hands)}

    @classmethod
    def of_facts(cls, ref: TableRef, facts: Mapping[str, Any],
                 receipt: Receipt | None = None) -> RecapNotice:
        """The notice its announcement row's ``facts`` keep (`facts`)."""
        improved = facts.get("improved")
        most = facts.get("most_hands")
        return cls(ref, str(facts["week"]), int(facts["hands"]),
                   tuple(RecapHand(b["rules"], int(b["user_id"]), str(b["name"]),
                                   int(b["value"]), tuple(map(str, b["patterns"])))
                         for b in facts["biggest"]),
                   None if improved is None else RecapGain(
                       improved["rules"], int(improved["user_id"]), str(improved["name"]),
                       int(improved["gain"]), int(improved["shown"]),
                       bool(improved["provisional"])),
                   None if most is None else (str(most[0]), int(most[1])), receipt)


Notice = (LobbyNotice | HandStartNotice | TableNotice | PrivateNotice | MoveNotice
          | WarningNotice | AwayNotice | SettlementNotice | RevealNotice
          | LeaderboardNotice | MatchEndNotice | DigestNotice | LeaveNotice | RecapNotice)
"""Everything the service tells the outside world, through `Notifier.publish`."""

Announcement = (LobbyNotice | HandStartNotice | SettlementNotice | RevealNotice
                | LeaderboardNotice | MatchEndNotice | RecapNotice)
"""The notices that may carry a `Receipt` (recorded in the store's outbox)."""


# ---------------------------------------------------------------------------
# Public lines from engine events


def public_events(events: Sequence[Event]) -> tuple[Event, ...]:
    """The events anyone may know of, as anyone may know them: not a seat's draw, deal
    or claim answer; a concealed kong without its tiles; a claim window without the
    seats it asks (who may claim depends on what they hold)."""
    return tuple(_public(e) for e in events if e.private_to is None)


def _public(event: Event) -> Event:
    if isinstance(event, MeldDeclared) and event.meld.kind is MeldKind.CONCEALED_KONG:
        return ConcealedKongDeclared(event.seat)
    if isinstance(event, ClaimWindowOpened):
        return replace(event, asked=())
    return event


def public_lines(events: Sequence[Event], names: Sequence[str]) -> tuple[str, ...]:
    """What the channel may read of ``events``: draws, deals and claim answers are
    private; a concealed kong is told without its tiles."""
    out = []
    for event in events:
        line = _line(event, names)
        if line:
            out.append(line)
    return tuple(out)


def _line(event: Event, names: Sequence[str]) -> str | None:
    if event.private_to is not None:
        return None
    if isinstance(event, TileDiscarded):
        return f"{names[event.seat]} discards {event.tile.notation}"
    if isinstance(event, ConcealedKongDeclared):
        return f"{names[event.seat]} declares a concealed kong"
    if isinstance(event, MeldDeclared):
        if event.meld.kind is MeldKind.CONCEALED_KONG:
            return f"{names[event.seat]} declares a concealed kong"
        shown = "".join(t.notation for t in event.meld.tiles)
        return f"{names[event.seat]} {event.meld.kind.value.replace('_', ' ')} {shown}"
    if isinstance(event, FlowerLaidAside):
        return f"{names[event.seat]} lays aside flower {event.flower.notation}"
    if isinstance(event, WildcardTurned):
        return f"turned {event.tile.notation}: its other copies are 财神"
    if isinstance(event, ClaimWindowOpened):
        # Who is asked is secret (`public_events`): the line names nobody.
        what = "the added kong may be robbed" if event.rob_kong else "may be claimed"
        return f"{event.tile.notation} {what}"
    if isinstance(event, ClaimWindowClosed):
        return None
    if isinstance(event, HandEnded):
        if event.result.drawn:
            return "流局 the hand ends without a winner"
        return "; ".join(f"{names[w.winner]} wins" for w in event.result.wins)
    return None
