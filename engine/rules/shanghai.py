"""Shanghai rules (`shanghai.md`): special hands only, 花 and 喇, 荒番, 吃三口包."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from engine.analysis import (
    NO_WILDCARDS,
    GroupKind,
    HandAnalysis,
    Reading,
    Shape,
    ShapeRules,
    Wildcards,
)
from engine.melds import Meld, MeldKind
from engine.refusals import Code, Refusal
from engine.rules.common import (
    SEATS,
    Charge,
    ClaimCheck,
    Factor,
    FactorKind,
    Pattern,
    RuleError,
    Settlement,
    TableOptions,
    TurnCheck,
    WinContext,
    WinKind,
    check_context,
    check_copies_in_play,
    check_hand_size,
    number,
)
from engine.rules.ruleset import OptionWords, RuleSet, StatHand, Words
from engine.tiles import FLOWERS, Tile

NAME = "shanghai"
SHAPES = ShapeRules(honours_jumble=True)
WILDCARDS = NO_WILDCARDS
HUA_PER_LA = 20

# id -> (zh, en, 喇, 番); a 喇 pattern has la > 0, a 番 pattern la == 0.
_TABLE: dict[str, tuple[str, str, int, int]] = {
    "tian_hu": ("天胡", "Heavenly Hand", 10, 0),
    "di_hu": ("地胡", "Earthly Hand", 8, 0),
    "ba_hua": ("八花", "Eight Flowers", 6, 0),
    "zi_yi_se": ("字一色", "All Honours", 4, 0),
    "luan_feng": ("乱风向", "Honours Jumble", 2, 0),
    "qing_peng": ("清碰", "Pure All Pungs", 2, 0),
    "qing_yi_se": ("清一色", "Full Flush", 1, 0),
    "hun_peng": ("混碰", "Half-Flush All Pungs", 1, 0),
    "da_diao_che": ("大吊车", "Big Crane", 1, 0),
    "gang_kai": ("杠开", "Win on Replacement", 0, 1),
    "men_qing": ("门清", "Concealed Hand", 0, 1),
    "hun_yi_se": ("混一色", "Half Flush", 0, 0),
    "peng_peng_hu": ("碰碰胡", "All Pungs", 0, 0),
    "qiang_gang": ("抢杠", "Robbing a Kong", 0, 0),
}
LA_PATTERNS = frozenset(p for p, v in _TABLE.items() if v[2])
FAN_PATTERNS = frozenset(("gang_kai", "men_qing", "hun_yi_se", "peng_peng_hu"))
QUALIFYING = frozenset(("tian_hu", "di_hu", "ba_hua", "luan_feng", "zi_yi_se", "qing_peng",
                        "qing_yi_se", "hun_peng", "da_diao_che", "gang_kai", "hun_yi_se",
                        "peng_peng_hu"))
INCLUDES: dict[str, tuple[str, ...]] = {
    "zi_yi_se": ("luan_feng", "peng_peng_hu", "hun_yi_se"),
    "qing_peng": ("qing_yi_se", "peng_peng_hu"),
    "hun_peng": ("hun_yi_se", "peng_peng_hu"),
}


def _value_text(pid: str, share: str) -> str:
    la, fan = _TABLE[pid][2:]
    if pid == "qiang_gang":
        return f"3 {share}"
    return f"{la} 喇" if la else f"{fan} 番"


PATTERNS: dict[str, Pattern] = {
    pid: Pattern(pid, zh, en, _value_text(pid, "shares"), _value_text(pid, "份"))
    for pid, (zh, en, _, _) in _TABLE.items()}

# The figures stats count of Shanghai hands (`Shanghai.stat_marks`), per seat and hand:
LA_HAND = "la_hand"
"""A 喇 hand won: worth one 喇 (20 花) or more — a 喇 pattern, or 8 花 and up."""
BA_HUA = "ba_hua"
"""An 八花 win."""
HUANGFAN_WIN = "huangfan_win"
"""A win in a 荒番 hand (its settlement doubled)."""
STAT_KEYS = (LA_HAND, BA_HUA, HUANGFAN_WIN)
LA = 20
"""One 喇 in 花: a hand worth this or more is a 喇 hand."""


def stat_marks(hand: StatHand) -> tuple[dict[str, int], ...]:
    """Each seat's Shanghai figures of a settled hand (`STAT_KEYS`)."""
    out: list[dict[str, int]] = [{} for _ in range(SEATS)]
    for w in hand.winners:
        if hand.values[w] >= LA:
            out[w][LA_HAND] = 1
        if "ba_hua" in hand.patterns[w]:
            out[w][BA_HUA] = 1
        if hand.huangfan > 0:
            out[w][HUANGFAN_WIN] = 1
    return tuple(out)


@dataclass(frozen=True)
class Options(TableOptions):
    """Shanghai table options (`shanghai.md`, Table options)."""

    base: int = 1
    la_cap: int | None = None
    huangfan_multiplier: int = 2

    RANGES: ClassVar[dict[str, tuple[int, int]]] = {
        **TableOptions.RANGES, "base": (1, 1000), "la_cap": (1, 100),
        "huangfan_multiplier": (1, 10)}


# ---------------------------------------------------------------------------
# Reading the patterns


def _meld_hua(meld: Meld) -> int:
    tile = meld.face
    if meld.kind is MeldKind.CHI:
        return 0
    if not meld.kind.is_kong:
        return 2 if tile.is_dragon else 1 if tile.is_wind else 0
    exposed = {"suit": 1, "wind": 2, "dragon": 3}
    kind = "dragon" if tile.is_dragon else "wind" if tile.is_wind else "suit"
    return exposed[kind] + (1 if meld.kind is MeldKind.CONCEALED_KONG else 0)


def base_hua(ctx: WinContext, reading: Reading) -> int:
    """底花: the stake, each flower, pungs of honours and every kong."""
    return sum(hua for _, hua in base_parts(ctx, reading))


def base_parts(ctx: WinContext, reading: Reading) -> tuple[tuple[str, int], ...]:
    """底花 by where it comes from, for players to see: ("stake", 1), ("flowers", n),
    ("pungs", honour pungs), ("kongs", every kong); the parts worth nothing left out
    but the stake."""
    pungs = 0
    for group in reading.melds:
        if group.kind is GroupKind.PUNG and group.face is not None:
            pungs += 2 if group.face.is_dragon else 1 if group.face.is_wind else 0
    pungs += sum(_meld_hua(m) for m in ctx.melds if not m.kind.is_kong)
    kongs = sum(_meld_hua(m) for m in ctx.melds if m.kind.is_kong)
    parts = (("stake", 1), ("flowers", len(ctx.flowers)), ("pungs", pungs), ("kongs", kongs))
    return tuple(p for p in parts if p[0] == "stake" or p[1])


def _hand_patterns(ctx: WinContext, reading: Reading, all_tiles: list[Tile]) -> set[str]:
    found: set[str] = set()
    suits = {t.suit for t in all_tiles if t.is_suited}
    honours = any(t.is_honor for t in all_tiles)
    standard = reading.shape is Shape.STANDARD
    all_pungs = standard and all(g.kind is GroupKind.PUNG for g in reading.melds) and \
        all(m.is_pung_like for m in ctx.melds)
    if not suits:
        found.add("zi_yi_se" if all_pungs else "luan_feng")
    elif len(suits) == 1:
        flush = "hun_yi_se" if honours else "qing_yi_se"
        found.add(flush)
        if all_pungs:
            found.add("hun_peng" if honours else "qing_peng")
    if all_pungs:
        found.add("peng_peng_hu")
    if len(ctx.concealed) == 1:
        found.add("da_diao_che")
    if ctx.first_go_round and ctx.winner != ctx.dealer:
        found.add("di_hu")
    elif ctx.first_go_round and ctx.win is WinKind.SELF_DRAW:
        found.add("tian_hu")
    if ctx.replacement is not None and ctx.win is WinKind.SELF_DRAW:
        found.add("gang_kai")
    if all(m.kind is MeldKind.CONCEALED_KONG for m in ctx.melds):
        found.add("men_qing")
    if ctx.win is WinKind.ROB_KONG:
        found.add("qiang_gang")
    for outer, inner in INCLUDES.items():
        if outer in found:
            found.difference_update(inner)
    return found


@dataclass(frozen=True)
class _Valued:
    patterns: tuple[str, ...]
    value: int
    lines: tuple[str, ...]
    qualifies: bool
    la: int
    """The 喇 of its counted patterns, before ``la_cap``."""
    base: tuple[tuple[str, int], ...] = ()
    """底花 by its parts, when the value counts it (no 喇 pattern)."""


_TABLE_ORDER = {pid: index for index, pid in enumerate(_TABLE)}


def listed(readings: Sequence[_Valued]) -> _Valued:
    """The reading a win is listed as (shanghai.md, decision "which reading is listed"):
    of those worth the most, the one with the most 喇 before ``la_cap``; then the one
    with more counted patterns; then the one whose patterns come first in the pattern
    table's order. The payments are the same whichever it is: it is what players see."""
    return min(readings, key=lambda v: (-v.value, -v.la, -len(v.patterns),
                                        [_TABLE_ORDER[p] for p in v.patterns]))


def _value(ctx: WinContext, reading: Reading, found: set[str], cap: int | None) -> _Valued:
    order = [p for p in _TABLE if p in found]
    qualifies = any(p in QUALIFYING for p in order)
    la = sum(_TABLE[p][2] for p in order)
    lines: list[str] = []
    base: tuple[tuple[str, int], ...] = ()
    if la:
        counted = tuple(p for p in order if p in LA_PATTERNS or p == "qiang_gang")
        lines += [f"{PATTERNS[p].label()}: {PATTERNS[p].value}" for p in counted]
        value = HUA_PER_LA * la
        lines.append(f"{la} 喇 × {HUA_PER_LA} = {value} 花")
    else:
        counted = tuple(p for p in order if p in FAN_PATTERNS or p == "qiang_gang")
        base = base_parts(ctx, reading)
        hua = sum(h for _, h in base)
        fan = sum(_TABLE[p][3] for p in counted)
        lines.append(f"底花 Base flowers: {hua} 花")
        lines += [f"{PATTERNS[p].label()}: {PATTERNS[p].value}" for p in counted]
        value = hua * 2 ** fan
        lines.append(f"{hua} 花 × 2^{fan} = {value} 花")
        if value >= 8:
            value = HUA_PER_LA
            lines.append(f"≥ 8 花 counts as 1 喇 = {HUA_PER_LA} 花")
    if cap is not None and value > cap * HUA_PER_LA:
        value = cap * HUA_PER_LA
        lines.append(f"capped at {cap} 喇 = {value} 花 (la_cap)")
    return _Valued(counted, value, tuple(lines), qualifies, la, base if not la else ())


# ---------------------------------------------------------------------------
# Settlement


def related(claims: tuple[tuple[int, ...], ...], a: int, b: int) -> bool:
    """吃三口: one of the two has claimed three of the other's discards this hand."""
    return claims[a][b] >= 3 or claims[b][a] >= 3


def shares(ctx: WinContext) -> tuple[dict[int, Fraction], str | None]:
    """How many shares each losing seat pays, and the liability rule that applied."""
    w = ctx.winner
    rel = [s for s in range(SEATS) if s != w and related(ctx.claims, w, s)]
    if ctx.win is WinKind.ROB_KONG:
        assert ctx.from_seat is not None
        return {ctx.from_seat: Fraction(3)}, "抢杠 Robbing a Kong: the robbed player pays 3 shares"
    if ctx.win is WinKind.SELF_DRAW:
        if not rel:
            return {s: Fraction(1) for s in range(SEATS) if s != w}, None
        each = {1: Fraction(5), 2: Fraction(7, 2), 3: Fraction(3)}[len(rel)]
        who = ", ".join(f"seat {s}" for s in rel)
        return {s: each for s in rel}, f"吃三口包 Three-claim liability: {who} pay {each} shares"
    d = ctx.from_seat
    assert d is not None
    out = {d: Fraction(2 if d in rel else 1)}
    for s in rel:
        if s != d:
            out[s] = Fraction(1)
    note = None
    if rel:
        note = ("吃三口包 Three-claim liability: "
                + ("the related discarder pays 2 shares" if d in rel
                   else "the discarder pays 1 share") +
                "".join(f"; seat {s} pays 1 share" for s in rel if s != d))
    return out, note


def _share_kind(ctx: WinContext, payer: int) -> FactorKind:
    """Why ``payer`` owes its shares: 抢杠, 吃三口包 (related to the winner), or plainly."""
    if ctx.win is WinKind.ROB_KONG:
        return FactorKind.ROB_KONG
    if related(ctx.claims, ctx.winner, payer):
        return FactorKind.THREE_CLAIMS
    return FactorKind.SHARES


def charges(ctx: WinContext, value: int, options: Options,
            owed: dict[int, Fraction]) -> tuple[Charge, ...]:
    """Each payer's payment as H × 底分 (× 荒番) × its shares."""
    common = [Factor(FactorKind.HAND, Fraction(value)),
              Factor(FactorKind.BASE, Fraction(options.base))]
    if ctx.huangfan:
        common.append(Factor(FactorKind.HUANGFAN, Fraction(options.huangfan_multiplier)))
    return tuple(Charge(seat, (*common, Factor(_share_kind(ctx, seat), n)))
                 for seat, n in sorted(owed.items()))


def settle(ctx: WinContext, value: int, options: Options
           ) -> tuple[tuple[Fraction, ...], list[str], str | None, tuple[Charge, ...]]:
    share = Fraction(value * options.base)
    lines: list[str] = []
    if options.base != 1:
        lines.append(f"底分 Base: × {options.base}")
    if ctx.huangfan:
        share *= options.huangfan_multiplier
        lines.append(f"荒番 Dead-hand round: × {options.huangfan_multiplier}")
    lines.append(f"1 share = {number(share)}")
    owed, note = shares(ctx)
    payments = [Fraction(0)] * SEATS
    for seat, n in sorted(owed.items()):
        payments[seat] -= n * share
        lines.append(f"seat {seat} pays {number(n * share)} ({number(n)} share"
                     f"{'' if n == 1 else 's'})")
    payments[ctx.winner] = -sum(payments, Fraction(0))
    if note:
        lines.append(note)
    return tuple(payments), lines, note, charges(ctx, value, options, owed)


# ---------------------------------------------------------------------------
# The whole judgement


def check(ctx: WinContext) -> None:
    """Refuse a Shanghai win that cannot exist (RuleError)."""
    check_context(ctx, flowers_allowed=True)
    if ctx.flipped is not None:
        raise RuleError(Code.NO_CAISHEN, rules="Shanghai")
    if ctx.win_tile is not None and len(set(ctx.flowers)) == len(FLOWERS):
        raise RuleError(Code.EIGHT_FLOWERS_TILE)
    check_hand_size(ctx, extra_allowed=ctx.win_tile is None)
    tiles = list(ctx.concealed) + list(ctx.flowers)
    tiles += [t for m in ctx.melds for t in m.tiles]
    if ctx.win_tile is not None:
        tiles.append(ctx.win_tile)
    check_copies_in_play(tiles, {})
    if any(t.is_flower for m in ctx.melds for t in m.tiles):
        raise RuleError(Code.FLOWER_MELD)


def score(ctx: WinContext, options: Options | None = None) -> Settlement:
    options = options or Options()
    try:
        check(ctx)
    except RuleError as exc:
        return Settlement.refused(exc.refusal)
    if ctx.win_tile is None:
        return _eight_flowers(ctx, options)
    best = _best(ctx, options)
    if isinstance(best, Refusal):
        return Settlement.refused(best)
    payments, lines, note, owed = settle(ctx, best.value, options)
    return Settlement(True, best.patterns, best.value, payments, None,
                      (*best.lines, *lines), note, owed, base=best.base)


def _best(ctx: WinContext, options: Options) -> _Valued | Refusal:
    """The reading `score` lists (of those worth the most), or why the win is refused;
    ``ctx`` passed `check` and has a winning tile."""
    assert ctx.win_tile is not None
    hand = HandAnalysis((*ctx.concealed, ctx.win_tile), ctx.melds, WILDCARDS, SHAPES)
    readings = hand.readings()
    if not readings:
        return Refusal(Code.INCOMPLETE)
    all_tiles = [*ctx.concealed, ctx.win_tile, *(t for m in ctx.melds for t in m.tiles)]
    valued = [_value(ctx, r, _hand_patterns(ctx, r, all_tiles), options.la_cap)
              for r in readings]
    winning = [v for v in valued if v.qualifies]
    if not winning:
        return Refusal(Code.PLAIN_HAND)
    return listed(winning)


def win_value(ctx: WinContext, options: Options | None = None) -> int | None:
    """`score`'s value of the win (None: refused), without working out its payments."""
    options = options or Options()
    try:
        check(ctx)
    except RuleError:
        return None
    if ctx.win_tile is None:
        settlement = _eight_flowers(ctx, options)
        return settlement.value if settlement.valid else None
    best = _best(ctx, options)
    return None if isinstance(best, Refusal) else best.value


def _eight_flowers(ctx: WinContext, options: Options) -> Settlement:
    if len(set(ctx.flowers)) != 8:
        return Settlement.refused(Refusal(Code.NO_WIN_TILE))
    if ctx.win is not WinKind.SELF_DRAW:
        return Settlement.refused(Refusal(Code.EIGHT_FLOWERS))
    la = _TABLE["ba_hua"][2]
    value = HUA_PER_LA * la
    if options.la_cap is not None:
        value = min(value, options.la_cap * HUA_PER_LA)
    payments, lines, note, owed = settle(ctx, value, options)
    head = (f"{PATTERNS['ba_hua'].label()}: {PATTERNS['ba_hua'].value}",
            f"{la} 喇 × {HUA_PER_LA} = {value} 花")
    return Settlement(True, ("ba_hua",), value, payments, None, (*head, *lines), note, owed)


# ---------------------------------------------------------------------------
# Play (engine.game asks these)

def claim_refusal(check: ClaimCheck, options: Options) -> Refusal | None:
    """Shanghai restricts no claim beyond its shape (chi from the upper player only)."""
    return None


def turn_refusal(check: TurnCheck, options: Options) -> Refusal | None:
    """Shanghai restricts nothing on one's own turn beyond a valid hand for a win."""
    return None


def dice_huangfan(dice: tuple[int, int]) -> int:
    """How much a roll adds to the 荒番 counter: 1+1 or 4+4 add 2; another pair with a
    1 or a 4, or another double, adds 1. The match checks the dice are 1–6."""
    a, b = dice
    if (a, b) in ((1, 1), (4, 4)):
        return 2
    if a in (1, 4) or b in (1, 4) or a == b:
        return 1
    return 0


OPTION_WORDS: dict[str, OptionWords] = {
    "base": OptionWords(
        Words("base", "底分"),
        Words("Shanghai 底分 per share: 1–1000 (default 1)", "上海底分：1–1000（默认 1）"),
        Words("底分 base: {value}", "底分：{value}")),
    "la_cap": OptionWords(
        Words("la_cap", "喇上限"),
        Words("Shanghai: cap on a hand's 喇 (1–100, default none)",
              "上海：每手牌喇数上限（1–100，默认不封顶）"),
        Words("喇 cap: {value}", "喇上限：{value}")),
    "huangfan_multiplier": OptionWords(
        Words("huangfan_multiplier", "荒番倍数"),
        Words("Shanghai: a 荒番 hand pays this many times (1–10, default 2)",
              "上海：荒番局的倍数（1–10，默认 2）"),
        Words("荒番 multiplier: ×{value}", "荒番倍数：×{value}")),
}


class Shanghai(RuleSet):
    """上海 (shanghai.md)."""

    __slots__ = ()

    name = NAME
    zh = "上海"
    en = "Shanghai"
    about = Words(
        "Shanghai rules: 144 tiles with eight flowers; chi, pong and kong. A hand is worth "
        "花: the stake, flowers, honour pungs and kongs, doubled by each 番; 喇 patterns "
        "are worth 20 花 each, and an ordinary hand of 8 花 or more counts as 1 喇. "
        "A share is 花 × 底分; a self-draw is paid by all three, a discard by the "
        "discarder; 吃三口 liability applies. Drawn hands and some dice make 荒番 hands "
        "that pay more.",
        "上海麻将：144 张牌，含八张花牌；可以吃、碰、杠。牌值以花计：底注、花牌、字牌刻子和杠"
        "各有花数，每番翻倍；喇的牌型每喇 20 花，普通牌满 8 花算 1 喇。一份 = 花数 × 底分；"
        "自摸三家各付一份，放冲由放冲者付；有吃三口包。流局和某些骰子会带来荒番局，加倍结算。")
    unit = Words("points: 花 × 底分", "积分：花 × 底分")
    options_type = Options
    option_words = OPTION_WORDS
    patterns = PATTERNS
    shapes = SHAPES
    value_unit = "花"
    decisions_per_hand = 79.0
    """Measured: 150 hands dealt from random.Random(7), the computer player
    (engine.ai.choose_action) at every seat: 78.8 decisions a hand, 64.2 turns (flowers
    laid aside included) and 14.6 claim windows."""
    has_flowers = True
    has_huangfan = True
    needs_qualifying_pattern = True
    multiple_winners = True
    """一炮多响: every player who wins on a discard settles with the discarder."""
    rob_added_kong = True
    """抢杠 on an added kong is allowed (not on exposed or concealed kongs)."""
    kong_burns = 0
    last_window_tiles = None
    """Shanghai plays the wall out: the hand is drawn only when a draw finds it empty."""
    passed_claims_bind = False

    stat_keys = STAT_KEYS

    def stat_marks(self, hand: StatHand) -> tuple[dict[str, int], ...]:
        return stat_marks(hand)

    def _score(self, ctx: WinContext, options: Options) -> Settlement:
        return score(ctx, options)

    def _win_value(self, ctx: WinContext, options: Options) -> int | None:
        return win_value(ctx, options)

    def wildcards(self, options: TableOptions, flipped: Tile | None = None) -> Wildcards:
        if flipped is not None:
            raise RuleError(Code.NO_CAISHEN, rules="Shanghai")
        return WILDCARDS

    def claim_refusal(self, check: ClaimCheck, options: Options) -> Refusal | None:
        return claim_refusal(check, options)

    def turn_refusal(self, check: TurnCheck, options: Options) -> Refusal | None:
        return turn_refusal(check, options)

    def huangfan_after_dice(self, counter: int, dice: tuple[int, int]) -> int:
        return counter + dice_huangfan(dice)

    def huangfan_after_hand(self, counter: int, drawn: bool) -> int:
        """A draw adds one; a win takes one off (never below zero)."""
        return counter + 1 if drawn else max(0, counter - 1)

    def next_dealer(self, dealer: int, streak: int, winners: Sequence[int],
                    discarder: int | None) -> tuple[int, int]:
        if not winners:
            return dealer, 1  # Decision (shanghai.md): after a draw the dealer deals again
        # The winner deals; with several winners on one discard, the one nearest the
        # discarder in turn order.
        start = discarder if discarder is not None else winners[0]
        return min(winners, key=lambda s: (s - start) % SEATS or SEATS), 1

    def foreign_fields(self, ctx: WinContext) -> Refusal | None:
        if ctx.streak != 1 or ctx.chain:
            return Refusal(Code.HANGZHOU_FIELDS)
        return None
