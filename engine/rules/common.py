"""What both rule sets share: the moment of a win, the settlement, patterns, options."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any, ClassVar

from engine.analysis import NO_WILDCARDS, Wildcards
from engine.melds import Meld, MeldKind
from engine.refusals import MAX_ECHO, Code, Refusal, RefusalError, echo
from engine.tiles import Tile

SEATS = 4


class RuleError(RefusalError):
    """A win or settlement request that the rules cannot accept; its code says why."""


class OptionError(RefusalError):
    """An unknown table option or a bad value for one (or an unknown rule set)."""


class WinKind(Enum):
    SELF_DRAW = "self_draw"
    DISCARD = "discard"
    ROB_KONG = "rob_kong"


class Replacement(Enum):
    KONG = "kong"
    FLOWER = "flower"


class ChainStep(Enum):
    """One link of a Hangzhou chain: a turn ending in a 财神 discard, or a kong."""

    PIAO = "P"
    GANG = "K"


def upper_seat(seat: int) -> int:
    """The 上家 of ``seat``: the one who discards just before it."""
    return (seat + SEATS - 1) % SEATS


def zero_claims() -> tuple[tuple[int, ...], ...]:
    return tuple((0,) * SEATS for _ in range(SEATS))


@dataclass(frozen=True)
class WinContext:
    """Everything the rules need to judge and settle one win.

    ``concealed`` is the winner's concealed hand *before* the winning tile;
    ``claims[a][b]`` counts chi/pong/exposed kongs seat a made on seat b's discards.
    """

    winner: int
    dealer: int
    win: WinKind
    concealed: tuple[Tile, ...]
    win_tile: Tile | None
    melds: tuple[Meld, ...] = ()
    from_seat: int | None = None
    flowers: tuple[Tile, ...] = ()
    replacement: Replacement | None = None
    first_go_round: bool = False
    chain: tuple[ChainStep, ...] = ()
    claimed_turn: bool = False
    """Hangzhou: the winning turn began with a chi or pong, so it is outside the 暴头
    chain; ``chain`` then holds only the kongs made in it (for a plain win's 杠开)."""
    claims: tuple[tuple[int, ...], ...] = field(default_factory=zero_claims)
    streak: int = 1
    huangfan: bool = False
    flipped: Tile | None = None


@dataclass(frozen=True)
class Pattern:
    """A pattern of a rule page: its id, Chinese name, English gloss and value text, in
    English (as the page writes it: "1 喇", "×2 each", "3 shares") and in Chinese."""

    id: str
    zh: str
    en: str
    value: str
    value_zh: str

    def label(self) -> str:
        return f"{self.zh} {self.en}"


class FactorKind(Enum):
    """What stands between a hand's value and what one payer pays."""

    HAND = "hand"
    """The hand's value: Shanghai H in 花, Hangzhou the multiplier F."""
    BASE = "base"
    """底分, a table option."""
    HUANGFAN = "huangfan"
    """Shanghai 荒番 hand: the table's ``huangfan_multiplier``."""
    SHARES = "shares"
    """Shanghai: the ordinary shares a payer owes (1)."""
    ROB_KONG = "rob_kong"
    """Shanghai 抢杠: the robbed player pays 3 shares."""
    THREE_CLAIMS = "three_claims"
    """Shanghai 吃三口包: the shares a related player pays (5, 3.5, 3, 2 or 1)."""
    DEALER = "dealer"
    """Hangzhou 庄闲分 between the winner and this payer (2/4/8 with the dealer, else 1)."""
    LIABILITY = "liability"
    """Hangzhou 承包: the 庄闲分 of every seat whose payment the liable seat takes over,
    summed (``parts``)."""
    REVERSE_LIABILITY = "reverse_liability"
    """Hangzhou 倒承包: twice that sum."""
    SHARED = "shared"
    """Hangzhou: several seats liable at once share the total (1/n each)."""


@dataclass(frozen=True)
class Factor:
    kind: FactorKind
    value: Fraction
    parts: tuple[Fraction, ...] = ()
    """LIABILITY / REVERSE_LIABILITY: the 庄闲分 summed, one per seat paid for."""


@dataclass(frozen=True)
class Charge:
    """What one payer owes one winner: the product of its factors, so players can see
    every multiplier between the hand's value and the payment (a payer may owe several
    charges to one winner, e.g. 承包 and 倒承包 at once)."""

    payer: int
    factors: tuple[Factor, ...]

    @property
    def amount(self) -> Fraction:
        total = Fraction(1)
        for factor in self.factors:
            total *= factor.value
        return total


@dataclass(frozen=True)
class Settlement:
    """The outcome of a win: valid or not, the counted patterns, the value and the
    signed payment of each seat (summing to zero)."""

    valid: bool
    patterns: tuple[str, ...] = ()
    value: int = 0
    payments: tuple[Fraction, ...] = (Fraction(0),) * SEATS
    reason: Refusal | None = None
    """Why the win is refused (``valid`` False)."""
    breakdown: tuple[str, ...] = ()
    liability: str | None = None
    charges: tuple[Charge, ...] = ()
    """Each payer's charges; for each seat but the winner, the payment is minus the sum
    of its charges' amounts (the calculator's JSON leaves them out)."""
    base: tuple[tuple[str, int], ...] = ()
    """Shanghai 底花 by its parts ("stake", "flowers", "pungs", "kongs") when the value
    counts it; empty otherwise."""

    @classmethod
    def refused(cls, reason: Refusal) -> Settlement:
        return cls(valid=False, reason=reason, breakdown=(f"不能胡 Not a valid win: {reason}",))


def number(value: Fraction | int) -> int | float:
    """A payment as JSON wants it: an int when whole (3.5 shares can make halves)."""
    frac = Fraction(value)
    return int(frac) if frac.denominator == 1 else float(frac)


# ---------------------------------------------------------------------------
# Options


_TIMER_RANGE = (10, 7 * 24 * 3600)


@dataclass(frozen=True)
class TableOptions:
    """Options every table has. Subclasses add the rule set's own."""

    hands: int = 8
    turn_timer: int = 12 * 3600
    claim_timer: int = 2 * 3600
    away_after: int = 3
    away_leaves: bool = False
    """With it on, a seat that reaches ``away_after`` timeouts in a row leaves the match
    (逃跑) instead of only being marked away: the computer takes the seat for good and
    the rule set's penalty for leaving applies. Off (the default), an away seat stays,
    played by the computer until its person acts again, and pays nothing."""
    mentions: str = "when_needed"
    """When the bot mentions a player in the channel: "when_needed" (their DMs are
    closed, or half their time is gone) or "every_turn"."""
    vacation_days: int = 3
    """How many days of a person's leave (``/mahjong vacation``) this table honours:
    their timers stand still that long; 0: no leave at this table."""
    time_bank: int = 0
    """Seconds of each seat's own reserve for a hand (0: none, the default): once a
    person's turn or claim timer runs out, their bank runs before the timer plays; what
    they use of it is gone for the rest of the hand."""
    time_bank_add: int = 0
    """Seconds given back to a seat's bank after each of its own moves (never above
    ``time_bank``)."""

    RANGES: ClassVar[dict[str, tuple[int, int]]] = {
        "hands": (1, 64),
        "turn_timer": _TIMER_RANGE,
        "claim_timer": (5, 2 * 24 * 3600),
        "away_after": (1, 10),
        "vacation_days": (0, 30),
        "time_bank": (0, 2 * 24 * 3600),
        "time_bank_add": (0, 12 * 3600),
    }
    CHOICES: ClassVar[dict[str, tuple[Any, ...]]] = {
        "mentions": ("when_needed", "every_turn")}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> TableOptions:
        """Build and validate options; unknown names and bad values raise OptionError."""
        data = dict(data or {})
        known = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise OptionError(Code.OPTION_UNKNOWN, option=str(unknown[0])[:MAX_ECHO],
                              known=", ".join(sorted(known)))
        values = {name: cls._check(name, known[name], value) for name, value in data.items()}
        return cls(**values)

    @classmethod
    def _check(cls, name: str, spec: dataclasses.Field[Any], value: Any) -> Any:
        default = spec.default
        choices = cls._choices()
        if name in choices:
            if value not in choices[name]:
                raise OptionError(Code.OPTION_CHOICE, option=name, choices=choices[name],
                                  value=echo(value))
            return value
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise OptionError(Code.OPTION_BOOL, option=name, value=echo(value))
            return value
        if value is None and default is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(Code.OPTION_WHOLE, option=name, value=echo(value))
        low, high = cls.RANGES.get(name, (1, 10**6))
        if not low <= value <= high:
            raise OptionError(Code.OPTION_RANGE, option=name, low=low, high=high,
                              value=echo(value))
        return value

    @classmethod
    def _choices(cls) -> dict[str, tuple[Any, ...]]:
        """The choices of every class up the line (a rule set's own add to the common)."""
        out: dict[str, tuple[Any, ...]] = {}
        for klass in reversed(cls.__mro__):
            out.update(getattr(klass, "CHOICES", {}))
        return out

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


# ---------------------------------------------------------------------------
# Checks that any win must pass before it is scored


def check_seat(name: str, seat: Any) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise RuleError(Code.BAD_SEAT, field=name, value=echo(seat))
    return seat


def check_context(ctx: WinContext, *, flowers_allowed: bool) -> None:
    """Refuse anything impossible about a win, whatever the rule set."""
    check_seat("winner", ctx.winner)
    check_seat("dealer", ctx.dealer)
    if ctx.win is WinKind.SELF_DRAW:
        if ctx.from_seat is not None:
            raise RuleError(Code.SELF_DRAW_FROM)
    else:
        if ctx.from_seat is None:
            raise RuleError(Code.NEEDS_FROM, win=ctx.win.value)
        check_seat("from", ctx.from_seat)
        if ctx.from_seat == ctx.winner:
            raise RuleError(Code.FROM_WINNER)
        if ctx.replacement is not None:
            raise RuleError(Code.REPLACEMENT_DISCARD)
    if ctx.flowers and not flowers_allowed:
        raise RuleError(Code.NO_FLOWERS)
    if any(not t.is_flower for t in ctx.flowers):
        raise RuleError(Code.FLOWERS_ONLY)
    if any(t.is_flower for t in ctx.concealed) or (ctx.win_tile and ctx.win_tile.is_flower):
        raise RuleError(Code.FLOWER_IN_HAND)
    if ctx.replacement is Replacement.KONG and not any(m.kind.is_kong for m in ctx.melds):
        raise RuleError(Code.REPLACEMENT_KONG)
    if ctx.replacement is Replacement.FLOWER and flowers_allowed and not ctx.flowers:
        raise RuleError(Code.REPLACEMENT_FLOWER)
    _check_melds(ctx)
    _check_claims(ctx)
    if ctx.first_go_round and any(m.kind.is_claim or m.kind.is_kong for m in ctx.melds):
        raise RuleError(Code.FIRST_GO_ROUND)


def _check_melds(ctx: WinContext) -> None:
    for meld in ctx.melds:
        if meld.kind is MeldKind.CONCEALED_KONG:
            if meld.from_seat is not None:
                raise RuleError(Code.CONCEALED_KONG_FROM)
            continue
        if meld.from_seat is None:
            raise RuleError(Code.MELD_FROM, meld=meld.kind.value)
        check_seat("a meld's from", meld.from_seat)
        if meld.from_seat == ctx.winner:
            raise RuleError(Code.OWN_DISCARD, meld=meld.kind.value, tiles=meld.tiles)
        if meld.kind is MeldKind.CHI and meld.from_seat != upper_seat(ctx.winner):
            raise RuleError(Code.CHI_FROM_UPPER, meld=meld.kind.value, tiles=meld.tiles,
                            seat=upper_seat(ctx.winner))


MAX_CLAIMS = 4
"""A player's claims in one hand: each chi, pong or exposed kong is one of its four melds."""


def _check_claims(ctx: WinContext) -> None:
    claims = ctx.claims
    if len(claims) != SEATS or any(len(row) != SEATS for row in claims):
        raise RuleError(Code.CLAIMS_SHAPE)
    for a, row in enumerate(claims):
        for b, n in enumerate(row):
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise RuleError(Code.CLAIMS_COUNT, seat=a, seat_b=b, value=echo(n))
            if a == b and n:
                raise RuleError(Code.CLAIMS_OWN, seat=a)
        if sum(row) > MAX_CLAIMS:
            raise RuleError(Code.CLAIMS_ROW, seat=a, n=sum(row), limit=MAX_CLAIMS)
    # Every claim the winner made is a meld still shown (a pong stays one when a kong
    # is added to it), so the winner's row and its melds tell the same story.
    w = ctx.winner
    made = Counter(m.from_seat for m in ctx.melds if m.from_seat is not None)
    for seat in range(SEATS):
        n, said = made.get(seat, 0), claims[w][seat]
        if said < n:
            raise RuleError(Code.CLAIMS_FEWER, seat=w, seat_b=seat, melds=n, n=said)
        if said > n:
            raise RuleError(Code.CLAIMS_MORE, seat=w, seat_b=seat, melds=n, n=said)


def check_copies_in_play(tiles: Sequence[Tile], limits: Mapping[Tile, int]) -> None:
    for tile, n in Counter(tiles).items():
        limit = limits.get(tile, 1 if tile.is_flower else 4)
        if n > limit:
            raise RuleError(Code.COPIES_IN_PLAY, n=n, tile=tile, limit=limit)


def check_hand_size(ctx: WinContext, *, extra_allowed: bool = False) -> None:
    want = 13 - 3 * len(ctx.melds)
    got = len(ctx.concealed)
    if got == want or (extra_allowed and got == want + 1):
        return
    raise RuleError(Code.HAND_SIZE, want=want, melds=len(ctx.melds), got=got)


def make_meld(kind: MeldKind, tiles: Sequence[Tile], from_seat: int | None,
              wildcards: Wildcards = NO_WILDCARDS) -> Meld:
    """A meld from its physical tiles, checked for shape; a wildcard may fill any place."""
    size = kind.size
    if len(tiles) != size:
        raise RuleError(Code.MELD_SIZE, meld=kind.value, size=size, got=len(tiles),
                        tiles=tuple(sorted(tiles)))
    if any(t.is_flower for t in tiles):
        raise RuleError(Code.FLOWER_MELD)
    face = _face_of(kind, tiles, wildcards)
    if face is None:
        raise RuleError(Code.NOT_A_RUN if kind is MeldKind.CHI else Code.NOT_IDENTICAL,
                        tiles=tuple(sorted(tiles)), meld=kind.value)
    return Meld(kind, tuple(tiles), face, from_seat)


def is_meld(kind: MeldKind, tiles: Sequence[Tile], wildcards: Wildcards = NO_WILDCARDS
            ) -> bool:
    """Whether `make_meld` accepts these tiles (asked of many candidates: no message)."""
    return len(tiles) == kind.size and not any(t.is_flower for t in tiles) and \
        _face_of(kind, tiles, wildcards) is not None


def _face_of(kind: MeldKind, tiles: Sequence[Tile], wildcards: Wildcards) -> Tile | None:
    real = sorted(t for t in map(wildcards.plays_as, tiles) if t is not None)
    # Made of wildcards alone, a meld stands for anything; show it by its own face.
    return _meld_face(kind, real) if real else tiles[0]


def _meld_face(kind: MeldKind, real: list[Tile]) -> Tile | None:
    if kind is not MeldKind.CHI:
        return real[0] if len(set(real)) == 1 else None
    if len(set(real)) != len(real) or not all(t.is_suited for t in real):
        return None
    if len({t.suit for t in real}) != 1 or real[-1] - real[0] > 2:
        return None
    first_of_suit = real[0] - real[0].rank + 1
    for start in range(max(first_of_suit, real[-1] - 2), min(real[0], first_of_suit + 6) + 1):
        return Tile(start)  # the lowest run that holds every real tile
    return None


# ---------------------------------------------------------------------------
# Play: what the hand's state machine asks the rule set (engine.game)


class ActionKind(Enum):
    """Every decision a seat can take during a hand."""

    DISCARD = "discard"
    CHI = "chi"
    PONG = "pong"
    KONG = "kong"
    """An exposed kong on a discard (明杠 / 直杠)."""
    ADDED_KONG = "added_kong"
    CONCEALED_KONG = "concealed_kong"
    WIN = "win"
    PASS = "pass"


CLAIM_PRIORITY: dict[ActionKind, int] = {
    ActionKind.WIN: 3, ActionKind.PONG: 2, ActionKind.KONG: 2, ActionKind.CHI: 1,
    ActionKind.PASS: 0}
"""README, the shape of a turn: win > pong = kong > chi."""


def turn_distance(frm: int, to: int) -> int:
    """How many places after ``frm`` seat ``to`` comes in turn order (1–3; 0 for itself)."""
    return (to - frm) % SEATS


def claim_rank(kind: ActionKind, claimer: int, discarder: int) -> tuple[int, int]:
    """Orders competing claims on one discard: priority first, then the seat nearer the
    discarder in turn order (which settles pong against kong and Hangzhou's one winner)."""
    return CLAIM_PRIORITY[kind], -turn_distance(discarder, claimer)


@dataclass(frozen=True)
class ClaimCheck:
    """A claim on a discard (or a robbed kong) with everything a rule set needs to judge
    the restrictions on it. ``meld_tiles`` are the tiles taken from the claimer's hand."""

    kind: ActionKind
    claimer: int
    discarder: int
    tile: Tile
    dealer: int
    streak: int
    claims: tuple[tuple[int, ...], ...]
    wildcards: Wildcards = NO_WILDCARDS
    meld_tiles: tuple[Tile, ...] = ()
    chis: int = 0
    passed_wins: frozenset[Tile] = frozenset()
    passed_pongs: frozenset[Tile] = frozenset()
    zhua_da: int | None = None
    last_window: bool = False


@dataclass(frozen=True)
class TurnCheck:
    """A decision on one's own turn (discard, concealed/added kong, self-draw win).

    ``after_claim``: the turn began with a chi or pong and nothing has been drawn since.
    """

    kind: ActionKind
    seat: int
    wildcards: Wildcards = NO_WILDCARDS
    tile: Tile | None = None
    meld_tiles: tuple[Tile, ...] = ()
    drawn: Tile | None = None
    after_claim: bool = False
    zhua_da: int | None = None
