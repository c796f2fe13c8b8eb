"""What the store hands back and takes in: frozen dataclasses, never raw tuples.

JSON columns come back as plain dicts/lists (the dataclass is frozen, its JSON
contents are the caller's to leave alone); exact amounts come back as `Fraction`.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, Protocol


class Row(Protocol):
    """A result row by column name or position: `sqlite3.Row` and `asyncpg.Record`."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...


Rules = str
"""A rule set's name, stored as plain text: which names exist is the engine's registry's
to say (`engine.rules`), checked by the service before a table is written."""
TableStatus = Literal["lobby", "playing", "finished", "cancelled"]
MatchStatus = Literal["playing", "finished", "abandoned"]
HandStatus = Literal["live", "ended"]
ActionSource = Literal["player", "timeout", "computer"]
DeadlineKind = Literal["turn", "claim", "computer"]
AnnouncementKind = Literal["hand_started", "settlement", "reveal", "leaderboard",
                           "match_ended", "lobby", "recap"]
AnnouncementStatus = Literal["pending", "sending", "delivered"]

LIVE_TABLE_STATUSES: tuple[TableStatus, ...] = ("lobby", "playing")


@dataclass(frozen=True)
class StandingChoices:
    """A seat's standing orders, applied without asking (see DESIGN: async play).

    ``pass_claims`` is "win only" (every chi, pong and kong passed, never a win),
    ``never_chi`` passes the chi offers alone (issue 30's claim answers in advance)."""

    always_win: bool = False
    pass_claims: bool = False
    discard_drawn_when_away: bool = False
    never_chi: bool = False
    discard_drawn_when_ready: bool = False
    """While the hand is ready: a turn whose draw offers no win and no kong discards the
    drawn tile at once (issue 30)."""

    def to_json(self) -> str:
        return json.dumps({name: getattr(self, name) for name in _CHOICES})

    @classmethod
    def from_json(cls, text: str) -> StandingChoices:
        return _choices_of(text)


_CHOICES = tuple(StandingChoices.__dataclass_fields__)
"""The standing choices' names, in their stored order (a missing one is off)."""


@functools.lru_cache(maxsize=64)
def _choices_of(text: str) -> StandingChoices:
    """A seat row's stored choices: a handful of distinct texts, each read once (a
    rebuild reads four seats a table)."""
    data = json.loads(text)
    return StandingChoices(**{name: bool(data.get(name, False)) for name in _CHOICES})


ClaimAnswerKind = Literal["pong", "kong", "chi"]


@dataclass(frozen=True)
class ClaimAnswerRow:
    """A claim a person answered in advance for one hand (migrations 0021, 0025): "pong
    5m" (``tile`` in notation) plays that pong, "kong 5m" that exposed kong, "chi 5m
    with 3m4m" (``with_tiles`` "3m4m") that chi, when a claim window offers it (and
    nothing better decides it); ``then_discard`` (notation, or None): the discard
    played at once after it ("pong 5m, then 9p")."""

    hand_id: int
    seat: int
    tile: str
    kind: ClaimAnswerKind
    with_tiles: str | None = None
    then_discard: str | None = None

    @classmethod
    def of(cls, r: Row) -> ClaimAnswerRow:
        return cls(r["hand_id"], r["seat"], r["tile"], r["kind"], r["with_tiles"],
                   r["then_discard"])


@dataclass(frozen=True)
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    rules: Rules
    options: dict[str, Any]
    status: TableStatus
    created_at: float
    lobby_message_id: int | None
    table_message_id: int | None
    table_message_posted_at: float | None
    permission_error_reported: bool
    ping_message_id: int | None = None
    """The channel's standing "your turn" mention, deleted when the next one is posted."""
    version: int = 0
    """The change counter processes sharing the database compare (0008)."""

    @property
    def is_live(self) -> bool:
        return self.status in LIVE_TABLE_STATUSES

    @classmethod
    def of(cls, r: Row) -> TableRow:
        # added by 0005 and 0008: absent when a Store runs over an older schema (a Row's
        # ``in`` looks at values, hence keys(), a list made at each call: made once)
        names = r.keys()
        return cls(r["id"], r["guild_id"], r["channel_id"], r["creator_id"], r["rules"],
                   json.loads(r["options"]), r["status"], r["created_at"],
                   r["lobby_message_id"], r["table_message_id"],
                   r["table_message_posted_at"], bool(r["permission_error_reported"]),
                   r["ping_message_id"] if "ping_message_id" in names else None,
                   r["version"] if "version" in names else 0)


@dataclass(frozen=True)
class SeatRow:
    table_id: int
    seat: int
    user_id: int | None
    is_computer: bool
    display_name: str
    away: bool
    consecutive_timeouts: int
    choices: StandingChoices
    dm_closed: bool
    joined_at: float

    @classmethod
    def of(cls, r: Row) -> SeatRow:
        return cls(r["table_id"], r["seat"], r["user_id"], bool(r["is_computer"]),
                   r["display_name"], bool(r["away"]), r["consecutive_timeouts"],
                   StandingChoices.from_json(r["choices"]), bool(r["dm_closed"]),
                   r["joined_at"])


@dataclass(frozen=True)
class PersonRow:
    """What a person set for themself, at every table (migration 0018): a time zone,
    daily quiet hours (minutes of the day on that zone's clock, or None) and a leave
    (real time, or None)."""

    user_id: int
    time_zone: str | None = None
    quiet_start: int | None = None
    quiet_end: int | None = None
    vacation_from: float | None = None
    vacation_until: float | None = None
    updated_at: float = 0.0

    @classmethod
    def of(cls, r: Row) -> PersonRow:
        return cls(r["user_id"], r["time_zone"], r["quiet_start"], r["quiet_end"],
                   r["vacation_from"], r["vacation_until"], r["updated_at"])


@dataclass(frozen=True)
class DigestRow:
    """A digest owed to a person (0023): the one DM, when their quiet hours end at
    ``due_at``, that sums up what waits for them."""

    user_id: int
    due_at: float
    created_at: float
    claimed_by: str | None = None
    claimed_until: float | None = None
    sent_at: float | None = None
    """When it went (0020; None: still owed). A sent row stays until the next quiet's."""

    @classmethod
    def of(cls, r: Row) -> DigestRow:
        return cls(r["user_id"], r["due_at"], r["created_at"], r["claimed_by"],
                   r["claimed_until"], r["sent_at"])


@dataclass(frozen=True)
class MatchRow:
    id: int
    table_id: int
    number: int
    first_dealer: int
    status: MatchStatus
    started_at: float
    finished_at: float | None
    totals: dict[int, Fraction] | None
    """Each seat's exact total, once the match has finished."""

    @classmethod
    def of(cls, r: Row) -> MatchRow:
        totals = None
        if r["totals"] is not None:
            totals = {int(k): Fraction(v) for k, v in json.loads(r["totals"]).items()}
        return cls(r["id"], r["table_id"], r["number"], r["first_dealer"], r["status"],
                   r["started_at"], r["finished_at"], totals)


@dataclass(frozen=True)
class Deal:
    """A hand as dealt: its wall in dealing order with the salt and the commitment shown
    at its start, its dice, dealer, 连庄 streak and 荒番 — what a hand to deal
    (`NewHand`) carries and its row (`HandRow`) keeps."""

    wall: str
    """Dealing order, two characters a tile: "1m5z2p…"."""
    salt: str
    commitment: str
    dice: tuple[int, int]
    dealer: int
    streak: int
    huangfan: int

    @property
    def wall_tiles(self) -> list[str]:
        """The wall as a list of 2-character tiles, in dealing order."""
        return [self.wall[i:i + 2] for i in range(0, len(self.wall), 2)]


@dataclass(frozen=True, kw_only=True)
class HandRow(Deal):
    """A hand as stored: its deal, and where and when it is."""

    id: int
    match_id: int
    table_id: int
    number: int
    status: HandStatus
    started_at: float
    ended_at: float | None

    @classmethod
    def of(cls, r: Row) -> HandRow:
        a, b = r["dice"].split("+")
        return cls(r["wall"], r["salt"], r["commitment"], (int(a), int(b)), r["dealer"],
                   r["streak"], r["huangfan"], id=r["id"], match_id=r["match_id"],
                   table_id=r["table_id"], number=r["number"], status=r["status"],
                   started_at=r["started_at"], ended_at=r["ended_at"])


@dataclass(frozen=True)
class ActionRow:
    hand_id: int
    seq: int
    seat: int
    kind: str
    payload: Any
    source: ActionSource
    at: float

    @classmethod
    def of(cls, r: Row) -> ActionRow:
        return cls(r["hand_id"], r["seq"], r["seat"], r["kind"], json.loads(r["payload"]),
                   r["source"], r["at"])


@dataclass(frozen=True)
class NewAction:
    """An action to append as number ``expected_seq`` (compare-and-set)."""

    expected_seq: int
    seat: int
    kind: str
    payload: Any
    source: ActionSource
    at: float
    asked_at: float | None = None
    """A person's own move: when the decision it answers was put to them (0023)."""


@dataclass(frozen=True)
class DeadlineRow:
    hand_id: int
    table_id: int
    seat: int
    seq: int
    """The action seq this deadline is for: stale once the hand has moved past it."""
    kind: DeadlineKind
    set_at: float
    due_at: float
    reminded_at: float | None
    claimed_by: str | None = None
    """Shared mode: the process whose claim holds it (claims.py), until ``claimed_until``
    (past: a killed holder's claim, the next process to look takes it)."""
    claimed_until: float | None = None
    timer_at: float | None = None
    """When the seat's own timer runs out; a time bank runs from there to ``due_at``
    (None: no bank, the timer ends at ``due_at``). Migration 0023."""
    warn_at: float | None = None
    """When a quarter of the timer is left: the warning DM (None: none, a computer's)."""
    warned_at: float | None = None
    """The warning went out (never twice)."""

    @property
    def timer_end(self) -> float:
        return self.due_at if self.timer_at is None else self.timer_at

    @property
    def half_at(self) -> float:
        """When the one reminder is due (half of the timer has passed)."""
        return self.set_at + (self.timer_end - self.set_at) / 2

    @classmethod
    def of(cls, r: Row) -> DeadlineRow:
        return cls(r["hand_id"], r["table_id"], r["seat"], r["seq"], r["kind"], r["set_at"],
                   r["due_at"], r["reminded_at"], r["claimed_by"], r["claimed_until"],
                   r["timer_at"], r["warn_at"], r["warned_at"])


@dataclass(frozen=True)
class Waiting:
    """A decision that waits for one person right now (`Deadlines.waiting_for`): their
    turn or claim in a live hand, with the table it is at (its rules, server, channel
    and message) and when its timer plays it."""

    table: TableRow
    seat: int
    hand_number: int
    kind: Literal["turn", "claim"]
    seq: int
    """The decision's step (the deadline's seq)."""
    set_at: float
    due_at: float

    @classmethod
    def of(cls, r: Row) -> Waiting:
        return cls(TableRow.of(r), r["w_seat"], r["w_number"], r["w_kind"], r["w_seq"],
                   r["w_set_at"], r["w_due_at"])


@dataclass(frozen=True)
class OwedDm:
    """A person's pending decision that their stored DM does not show (`Presenter.owed_dms`):
    a crash between the decision's commit and its DM lost the DM."""

    table_id: int
    seat: int
    hand_number: int
    step: int
    """The decision's step (the deadline's seq), which the DM's buttons are to carry."""


@dataclass(frozen=True)
class HandReplyRow:
    """A seat's `/mahjong hand` reply that follows the game, as the presenter keeps it
    (0015): the message, its interaction's token, the person it was made for, until
    when it may be edited (Unix time) and the state it shows (hand × 2^32 + actions)."""

    message_id: int
    token: str
    user_id: int
    until: float
    order: int


@dataclass(frozen=True)
class NewDeadline:
    """A deadline to set for ``seat`` (replacing any it had in that hand)."""

    seat: int
    seq: int
    kind: DeadlineKind
    set_at: float
    due_at: float
    timer_at: float | None = None
    """When the seat's own timer runs out, a time bank running from there to ``due_at``
    (None: no bank)."""
    warn_at: float | None = None
    """When the quarter-left warning is due (None: no warning)."""


@dataclass(frozen=True)
class Settlement:
    """One seat's result of a hand: what it gains (negative: pays), and why."""

    seat: int
    amount: Fraction
    patterns: Any = ()
    value: int = 0
    win: WinHow | None = None
    """The winner's row: how it won (None on the others')."""
    from_seat: int | None = None
    """The winner's row: the seat that dealt in (None: self-drawn)."""
    caishen: int | None = None
    """The winner's row: the 财神 its winning hand held (0030; None on the others', and
    for a rule set without 财神)."""


WinHow = Literal["self_draw", "discard", "rob_kong"]
"""How a win was made (0029), as the engine's `WinKind` values name it."""


@dataclass(frozen=True)
class SettlementRow:
    hand_id: int
    seat: int
    amount: Fraction
    patterns: Any
    value: int
    win: WinHow | None = None
    """The winner's row: how it won (0029; None on the others', and on rows settled
    before it)."""
    from_seat: int | None = None
    caishen: int | None = None
    """The winner's row: the 财神 its winning hand held (0030; None on the others', for
    a rule set without 财神, and on rows settled before it)."""

    @classmethod
    def of(cls, r: Row) -> SettlementRow:
        names = r.keys()
        patterns = r["patterns"]
        return cls(r["hand_id"], r["seat"], _amount(r["amount"]),
                   [] if patterns == "[]" else json.loads(patterns),
                   r["value"], r["win"] if "win" in names else None,
                   r["from_seat"] if "from_seat" in names else None,
                   r["caishen"] if "caishen" in names else None)


@functools.lru_cache(maxsize=4096)
def _amount(text: str) -> Fraction:
    """An amount's text as a Fraction (a rebuild reads the same few thousand again and
    again; a Fraction is immutable)."""
    return Fraction(text)


@dataclass(frozen=True)
class Departure:
    """A person who left a running match (0016): the seat they left, in which hand, and
    after how many of its actions (those after it are the computer's)."""

    hand_id: int
    hand_number: int
    seat: int
    seq: int
    user_id: int
    display_name: str

    @classmethod
    def of(cls, r: Row) -> Departure:
        return cls(r["hand_id"], r["number"], r["seat"], r["seq"], int(r["user_id"]),
                   r["display_name"])


@dataclass(frozen=True)
class LeaderboardDelta:
    """What one hand (or match) adds to a player's line in the channel's standings.

    ``hand_value``/``hand_desc``: the winning hand, kept as the best if it beats it.
    """

    player_key: str
    display_name: str
    points: Fraction = Fraction(0)
    hands_won: int = 0
    hands_played: int = 0
    matches_played: int = 0
    hand_value: int | None = None
    hand_desc: str | None = None


@dataclass(frozen=True)
class BestHand:
    """A winning hand as the leaderboard keeps it: data, so that each reader gets it
    named in their own language (its rule set's pattern ids, and its value: Shanghai H
    in 花, Hangzhou the multiplier F)."""

    rules: str
    patterns: tuple[str, ...]
    value: int


def best_hand_key(rules: str, patterns: tuple[str, ...] | list[str]) -> str:
    """What ``best_hand_desc`` holds: the rule set and pattern ids, as JSON (the column
    is text; rows from before this held a bilingual description, still shown as is)."""
    return json.dumps({"rules": rules, "patterns": list(patterns)}, separators=(",", ":"))


@dataclass(frozen=True)
class LeaderboardRow:
    guild_id: int
    channel_id: int
    player_key: str
    display_name: str
    points: Fraction
    hands_won: int
    hands_played: int
    matches_played: int
    best_hand_value: int | None
    best_hand_desc: str | None
    rules: str
    """The rule set of the tables that made this line (0014): its points are in that
    rule set's unit (Shanghai 花 × 底分, Hangzhou 底分 × 庄闲分 × multiplier)."""

    @classmethod
    def of(cls, r: Row) -> LeaderboardRow:
        return cls(r["guild_id"], r["channel_id"], r["player_key"], r["display_name"],
                   Fraction(r["points"]), r["hands_won"], r["hands_played"],
                   r["matches_played"], r["best_hand_value"], r["best_hand_desc"],
                   r["rules"])

    @property
    def user_id(self) -> int | None:
        """The line's person (None: a computer's line, which no board shows)."""
        key = self.player_key
        return int(key.removeprefix("user:")) if key.startswith("user:") else None

    @property
    def best_hand(self) -> BestHand | None:
        """The best hand as data; None when there is none or it is an old free text."""
        if self.best_hand_desc is None or self.best_hand_value is None:
            return None
        try:
            data = json.loads(self.best_hand_desc)
        except ValueError:
            return None
        if not isinstance(data, dict) or not isinstance(data.get("rules"), str) \
                or not isinstance(data.get("patterns"), list):
            return None
        return BestHand(data["rules"], tuple(map(str, data["patterns"])), self.best_hand_value)


def player_key(user_id: int | None, seat: int) -> str:
    """The leaderboard key of a seat: its person, or the computer in that seat."""
    return f"user:{user_id}" if user_id is not None else f"computer:{seat}"


def fraction_text(value: Fraction | int) -> str:
    """Exact text for an amount: ``Fraction(7, 2)`` -> "7/2", ``-20`` -> "-20"."""
    return str(Fraction(value))


def totals_json(totals: Mapping[int, Fraction]) -> str:
    return json.dumps({str(seat): fraction_text(v) for seat, v in sorted(totals.items())})


@dataclass(frozen=True)
class NewAnnouncement:
    """What the channel must be told about a change, written with the change itself.

    ``hand_id``/``hand_number``: the hand it is about (None/0 when none was dealt).
    ``facts``: only what the log cannot give back (names, totals, …); JSON-ready."""

    kind: AnnouncementKind
    hand_id: int | None = None
    hand_number: int = 0
    facts: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class NewHand(Deal):
    """A hand to deal (`Matches.start`, `Endings.finish_and_deal`, `Matches.deal`): its
    `Deal`, what the channel is told of it (``announcements``, about this hand) and its
    first decisions' deadlines, all written in the transaction that deals it."""

    announcements: Sequence[NewAnnouncement] = ()
    deadlines: Sequence[NewDeadline] = ()


@dataclass(frozen=True)
class AnnouncementRow:
    id: int
    table_id: int
    hand_id: int | None
    kind: AnnouncementKind
    key: str
    """Unique: ``<kind>-<table>-<hand number>``."""
    facts: dict[str, Any]
    status: AnnouncementStatus
    created_at: float
    delivered_at: float | None

    @classmethod
    def of(cls, r: Row) -> AnnouncementRow:
        return cls(r["id"], r["table_id"], r["hand_id"], r["kind"], r["key"],
                   json.loads(r["facts"]), r["status"], r["created_at"], r["delivered_at"])


def announcement_key(kind: str, table_id: int, hand_number: int) -> str:
    return f"{kind}-{table_id}-{hand_number}"


# ---- snapshots and recovery (migration 0007) ---------------------------------------------


def log_digest(actions: Iterable[tuple[int, int, str, str]]) -> str:
    """The running digest of a hand's log (`next_log_digest` from the first action on,
    the payload as the JSON text stored): what its last action's ``log_digest`` column
    holds (migration 0012), and what a snapshot written with it is sealed with."""
    digest = ""
    for seq, seat, kind, payload in actions:
        digest = next_log_digest(digest, seq, seat, kind, payload)
    return digest


def next_log_digest(previous: str, seq: int, seat: int, kind: str, payload: str) -> str:
    """SHA-256 (hex) of the previous action's running digest ("" before the first) and
    this action as ``seq␟seat␟kind␟payload␞``: a chain, so the digest of the log up to
    any action is stored with it and checking a snapshot needs no re-hash of the log."""
    return hashlib.sha256(previous.encode() + log_line(seq, seat, kind, payload)).hexdigest()


def log_line(seq: int, seat: int, kind: str, payload: str) -> bytes:
    """One action as `next_log_digest` hashes it."""
    return f"{seq}\x1f{seat}\x1f{kind}\x1f{payload}\x1e".encode()


def state_digest(version: str, state: str) -> str:
    """SHA-256 (hex) of a snapshot's version and state text: a damaged text is ignored."""
    return hashlib.sha256(f"{version}\x1f{state}".encode()).hexdigest()


@dataclass(frozen=True)
class NewSnapshot:
    """A hand's state after its action ``seq`` (the engine's text), written with it."""

    seq: int
    version: str
    state: str


@dataclass(frozen=True)
class SnapshotRow:
    hand_id: int
    seq: int
    version: str
    log_digest: str
    state: str
    state_digest: str

    @classmethod
    def of(cls, r: Row) -> SnapshotRow:
        return cls(r["hand_id"], r["seq"], r["version"], r["log_digest"], r["state"],
                   r["state_digest"])


@dataclass(frozen=True)
class HandLog:
    """What rebuilding a live hand reads: its newest snapshot (if any) and the actions
    after it (all of them without one). ``digest_at_snapshot`` is the running digest of
    the log's actions 1..snapshot.seq as stored now with action snapshot.seq (migration
    0012; None without a snapshot, when the log is shorter, or for a log written before
    0012): the snapshot is the log's only if it equals ``snapshot.log_digest``.
    ``last_seq``: the seq of the last action read (0 if none was); ``last_digest``: the
    running digest stored with it (None: none read, or a log written before 0012), from
    which the hand's next append chains (`ActionLog.known`)."""

    hand_id: int
    snapshot: SnapshotRow | None
    digest_at_snapshot: str | None
    actions: tuple[ActionRow, ...]
    last_seq: int
    last_digest: str | None = None


@dataclass(frozen=True)
class TableLoad:
    """Everything rebuilding one live table reads, read in one go for many tables:
    its row and seats, its people's languages, its match in play (None if none), that
    match's hands, settlements and penalties, and its last hand's log and deadlines
    when that hand is live."""

    table: TableRow
    seats: tuple[SeatRow, ...]
    locales: Mapping[int, str]
    match: MatchRow | None
    hands: tuple[HandRow, ...]
    settlements: tuple[SettlementRow, ...]
    penalties: Mapping[int, Fraction]
    log: HandLog | None
    deadlines: tuple[DeadlineRow, ...]
    matches_played: int = 0
    """How many matches the table has had, the one in play included (its number, when
    one is in play): read with the rest, so a table "playing" with none in play is
    judged on one moment's state."""
    claim_answers: tuple[ClaimAnswerRow, ...] = ()
    """The live hand's claims answered in advance (issue 30)."""
    premoves: Mapping[int, str] = field(default_factory=dict)
    """The live hand's next discards chosen in advance: seat → tile notation (0022)."""
    people: Mapping[int, PersonRow] = field(default_factory=dict)
    """The settings of its seated people who set any (quiet hours, leave)."""
    banks: Mapping[int, float] = field(default_factory=dict)
    """The live hand's time banks used or topped up so far, seat → seconds left (a
    seat not here has its whole bank)."""
    premoves_exact: frozenset[int] = frozenset()
    """The seats of ``premoves`` whose person switched "or my draw if it helps less" off
    (0024): their next discard is exactly that tile."""


# ---- the projection of settled hands and finished matches (migration 0026) ----------------


@dataclass(frozen=True)
class HandFact:
    """What one seat did in one settled hand (``hand_facts``, 0026): derived from the
    hand's rows (`bot.service.facts`), never a source. ``user_id``: the person credited
    with the seat this hand (one who left mid-hand keeps it), None for a computer."""

    hand_id: int
    seat: int
    match_id: int
    table_id: int
    guild_id: int
    channel_id: int
    rules: Rules
    hand_number: int
    user_id: int | None
    ended_at: float
    points: Fraction
    """The seat's exact net of the hand."""
    won: bool = False
    self_draw: bool = False
    won_from: int | None = None
    """On the winner's row: the seat that dealt in (None: self-drawn, or no win)."""
    dealt_in: bool = False
    """This seat's discard (or kong robbed) was won on."""
    deal_in_cost: Fraction = Fraction(0)
    """What this seat paid on its deal-in (≥ 0; 0 without one)."""
    win_value: int | None = None
    """The win's value as the settlement shows it (on the winner's row)."""
    patterns: tuple[str, ...] = ()
    """The winner's pattern ids (empty otherwise)."""
    claims: int = 0
    """Chi, pong and exposed kong claims the seat made."""
    drawn: bool = False
    """The hand ended drawn (荒庄)."""
    marks: Mapping[str, int] = field(default_factory=dict)
    """The rule set's own figures (`engine.rules` ``stat_marks``), only those not 0."""
    moves: int = 0
    """Decisions the person made themself (source 'player')."""
    move_hist: tuple[int, ...] = ()
    """Their moves counted by how long each took, one count per ``MOVE_BUCKETS``."""
    timeouts: int = 0
    taken_over: bool = False
    """The computer moved for the seat while it was the person's (away)."""
    dealer: bool = False

    def params(self) -> tuple[Any, ...]:
        """The row's values in `HAND_FACT_COLUMNS` order (a rebuild writes thousands a
        second: the common empty values skip the JSON encoder)."""
        return (self.hand_id, self.seat, self.match_id, self.table_id, self.guild_id,
                self.channel_id, self.rules, self.hand_number, self.user_id, self.ended_at,
                str(self.points), int(self.won), int(self.self_draw),
                self.won_from, int(self.dealt_in), str(self.deal_in_cost),
                self.win_value, _compact(list(self.patterns)) if self.patterns else "[]",
                int(self.claims), int(self.drawn),
                _compact(dict(sorted(self.marks.items()))) if self.marks else "{}",
                self.moves, "[" + ",".join(map(str, self.move_hist)) + "]", self.timeouts,
                int(self.taken_over), int(self.dealer))

    @classmethod
    def of(cls, r: Row) -> HandFact:
        return cls(r["hand_id"], r["seat"], r["match_id"], r["table_id"], r["guild_id"],
                   r["channel_id"], r["rules"], r["hand_number"], r["user_id"],
                   r["ended_at"], Fraction(r["points"]), bool(r["won"]),
                   bool(r["self_draw"]), r["won_from"], bool(r["dealt_in"]),
                   Fraction(r["deal_in_cost"]), r["win_value"],
                   tuple(json.loads(r["patterns"])), r["claims"], bool(r["drawn"]),
                   json.loads(r["marks"]), r["moves"], tuple(json.loads(r["move_hist"])),
                   r["timeouts"], bool(r["taken_over"]), bool(r["dealer"]))


HAND_FACT_COLUMNS = ("hand_id", "seat", "match_id", "table_id", "guild_id", "channel_id",
                     "rules", "hand_number", "user_id", "ended_at", "points", "won",
                     "self_draw", "won_from", "dealt_in", "deal_in_cost", "win_value",
                     "patterns", "claims", "drawn", "marks", "moves", "move_hist",
                     "timeouts", "taken_over", "dealer")


@dataclass(frozen=True)
class MatchFact:
    """One seat's result of a finished match (``match_facts``, 0026). ``placement``: by
    final total, ties sharing the better place (1, 2, 2, 4); ``hands``: the hands the
    seat's person played in it; ``computers``: the seats of the match that never had a
    person (the same on each of its rows). ``user_id`` None: a computer (a seat a person
    left is theirs)."""

    match_id: int
    seat: int
    table_id: int
    guild_id: int
    channel_id: int
    rules: Rules
    user_id: int | None
    finished_at: float
    placement: int
    total: Fraction
    hands: int
    computers: int

    def params(self) -> tuple[Any, ...]:
        """The row's values in `MATCH_FACT_COLUMNS` order."""
        return (self.match_id, self.seat, self.table_id, self.guild_id, self.channel_id,
                self.rules, self.user_id, self.finished_at, self.placement,
                fraction_text(self.total), self.hands, self.computers)

    @classmethod
    def of(cls, r: Row) -> MatchFact:
        return cls(r["match_id"], r["seat"], r["table_id"], r["guild_id"], r["channel_id"],
                   r["rules"], r["user_id"], r["finished_at"], r["placement"],
                   Fraction(r["total"]), r["hands"], r["computers"])


MATCH_FACT_COLUMNS = ("match_id", "seat", "table_id", "guild_id", "channel_id", "rules",
                      "user_id", "finished_at", "placement", "total", "hands", "computers")


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class SeatActs:
    """One seat's actions in a hand, counted in SQL (`bot.store.fact_sources`): its
    person's own moves (source 'player') with how long each took (by ``MOVE_BUCKETS``),
    timeouts, and whether the computer played a turn or a claim for it, all while the
    seat was its person's (actions up to ``departures.seq`` in the hand they left)."""

    seat: int
    moves: int = 0
    move_hist: tuple[int, ...] = ()
    timeouts: int = 0
    taken_over: bool = False


@dataclass(frozen=True)
class TailAction:
    """An action of a hand's end: from its last turn action (discard or kong) on,
    passes left out: who won, and on whose discard."""

    seq: int
    seat: int
    kind: str


@dataclass(frozen=True)
class TakenClaim:
    """A chi, pong or exposed kong that took its tile: by ``seat`` on ``from_seat``'s
    discard, as action ``seq``."""

    seq: int
    seat: int
    from_seat: int


@dataclass(frozen=True)
class HandSource:
    """What a settled hand's facts are derived from, read from its stored rows in SQL
    (`bot.store.fact_sources`) without replaying it: its hand, match and table, who is
    credited with each seat (``users``; None: a computer) and when a person left
    (``left``: the departure's seq, per seat), its settlements, its end
    (``tail``), its claims and each seat's counted actions."""

    hand_id: int
    match_id: int
    table_id: int
    guild_id: int
    channel_id: int
    rules: Rules
    options: Mapping[str, Any]
    number: int
    dealer: int
    huangfan: int
    started_at: float
    ended_at: float
    users: tuple[int | None, ...]
    left: tuple[int | None, ...]
    settlements: tuple[SettlementRow, ...]
    tail: tuple[TailAction, ...]
    claims: tuple[TakenClaim, ...]
    acts: tuple[SeatActs, ...]


@dataclass(frozen=True)
class MatchSource:
    """What a finished match's facts are derived from: its table, its final totals, and
    per seat the person credited with it (None: never a person) and the hands they
    played (from the match's ``hand_facts``)."""

    match_id: int
    table_id: int
    guild_id: int
    channel_id: int
    rules: Rules
    finished_at: float
    totals: Mapping[int, Fraction]
    users: tuple[int | None, ...]
    hands: tuple[int, ...]
