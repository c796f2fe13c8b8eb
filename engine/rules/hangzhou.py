"""Hangzhou rules (`hangzhou.md`): 财神, 暴头 and its chain, 老庄, 摊 and 承包."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar

from engine.analysis import (
    HandAnalysis,
    ShapeRules,
    Wildcards,
    is_complete,
    seven_pairs_luxury,
)
from engine.melds import MeldKind
from engine.refusals import Code, Refusal, echo
from engine.rules.common import (
    SEATS,
    ActionKind,
    ChainStep,
    Charge,
    ClaimCheck,
    Factor,
    FactorKind,
    OptionError,
    Pattern,
    Replacement,
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
from engine.tiles import Tile

if TYPE_CHECKING:
    from engine.game.state import HandState

NAME = "hangzhou"
SHAPES = ShapeRules(seven_pairs=True)
STREAK_POINTS = {1: 2, 2: 4, 3: 8}
"""庄闲分 between the dealer and another seat, by the dealer's streak."""
MAX_STREAK = 3

PATTERNS: dict[str, Pattern] = {
    p.id: p for p in (
        Pattern("qi_dui", "七对子", "Seven Pairs", "×2", "×2"),
        Pattern("hao_hua", "豪华", "Luxury", "×2 each", "×2 每个"),
        Pattern("qing_qi_dui", "清七对", "Clean Seven Pairs", "×2", "×2"),
        Pattern("bao_tou", "暴头", "Burst Head", "×2", "×2"),
        Pattern("cai_piao", "财飘", "Floating Wildcard", "×2 each", "×2 每个"),
        Pattern("gang_kai", "杠开", "Kong Bloom", "×2 each", "×2 每个"),
    )}

# The figures stats count of Hangzhou hands (`Hangzhou.stat_marks`), per seat and hand:
CAISHEN_WIN = "caishen_win"
"""A win whose winning hand held a 财神 (concealed, the winning tile, or in a meld;
`StatHand.wildcards`). Where that count is not known (hands settled before it was
kept) a win that scored 暴头 or 财飘 stands in for it, the only 财神 the patterns show."""
BAO_TOU = "bao_tou"
"""A 暴头 win."""
CAI_PIAO = "cai_piao"
"""The 财飘 (飘) counted in a win's chain."""
GANG_KAI = "gang_kai"
"""The 杠开 counted in a win (a 暴头 chain's 杠, or a kong replacement's)."""
PIAO_GANG = "piao_gang"
"""A win whose chain holds both 飘 and 杠 (飘杠 / 杠飘)."""
TAN_MADE = "tan_made"
"""摊 the seat made: its chi, pong and exposed kongs on others' discards."""
TAN_TAKEN = "tan_taken"
"""摊 made on the seat: others' chi, pong and exposed kongs on its discards."""
CHENG_BAO_PAID = "cheng_bao_paid"
"""The seat paid for others as the liable one (承包 or 倒承包)."""
CHENG_BAO_RECEIVED = "cheng_bao_received"
"""The seat won and was paid through 承包 or 倒承包."""
STAT_KEYS = (CAISHEN_WIN, BAO_TOU, CAI_PIAO, GANG_KAI, PIAO_GANG, TAN_MADE, TAN_TAKEN,
             CHENG_BAO_PAID, CHENG_BAO_RECEIVED)


def stat_marks(hand: StatHand) -> tuple[dict[str, int], ...]:
    """Each seat's Hangzhou figures of a settled hand (`STAT_KEYS`): from its winner's
    patterns and its 摊, liability as `_liable` judges it (three 摊 between two seats)."""
    out: list[dict[str, int]] = [{} for _ in range(SEATS)]
    claims = hand.claims
    for seat in range(SEATS):
        made = sum(claims[seat][b] for b in range(SEATS) if b != seat)
        taken = sum(claims[a][seat] for a in range(SEATS) if a != seat)
        if made:
            out[seat][TAN_MADE] = made
        if taken:
            out[seat][TAN_TAKEN] = taken
    liability = getattr(hand.options, "liability", True)
    for w in hand.winners:
        pats = hand.patterns[w]
        piao, gang = pats.count("cai_piao"), pats.count("gang_kai")
        if "bao_tou" in pats:
            out[w][BAO_TOU] = 1
        held = hand.wildcards[w] if w < len(hand.wildcards) else None
        # not kept (settled before 0030): 暴头 or 财飘, the only 财神 the patterns show
        if held > 0 if held is not None else "bao_tou" in pats or piao > 0:
            out[w][CAISHEN_WIN] = 1
        if piao:
            out[w][CAI_PIAO] = piao
        if gang:
            out[w][GANG_KAI] = gang
        if piao and gang:
            out[w][PIAO_GANG] = 1
        if not liability:
            continue
        takers = [b for b in range(SEATS) if b != w and claims[w][b] >= 3][:1]
        givers = [a for a in range(SEATS) if a != w and claims[a][w] >= 3]
        for liable in (*takers, *givers):
            out[liable][CHENG_BAO_PAID] = 1
        if takers or givers:
            out[w][CHENG_BAO_RECEIVED] = 1
    return tuple(out)


@dataclass(frozen=True)
class Options(TableOptions):
    """Hangzhou table options (`hangzhou.md`, Table options)."""

    caishen: str = "fixed"
    caishen_melds: bool = True
    discard_win_streak: int = 3
    liability: bool = True
    base: int = 1

    RANGES: ClassVar[dict[str, tuple[int, int]]] = {
        **TableOptions.RANGES, "discard_win_streak": (1, 3)}
    CHOICES: ClassVar[dict[str, tuple[object, ...]]] = {
        "caishen": ("fixed", "flip"), "base": (1, 2, 3, 5)}


def wildcards(options: Options, flipped: Tile | None) -> Wildcards:
    """The 财神 of a hand: the White Dragons, or the copies of the turned tile."""
    if options.caishen == "fixed":
        if flipped is not None:
            raise RuleError(Code.FLIPPED_FIXED)
        return Wildcards.fixed()
    if flipped is None:
        raise RuleError(Code.FLIP_NEEDS_FLIPPED)
    return Wildcards.flip(flipped)


def zhuang_xian(ctx: WinContext, payer: int) -> int:
    """庄闲分 between the winner and one payer."""
    if ctx.dealer in (ctx.winner, payer):
        return STREAK_POINTS[ctx.streak]
    return 1


# ---------------------------------------------------------------------------
# The multiplier F


@dataclass(frozen=True)
class _Factor:
    patterns: tuple[str, ...]
    value: int


def _chain_counts(ctx: WinContext) -> tuple[int, int, int]:
    """(飘 in the chain, 杠 in the chain, 杠 in the winning turn)."""
    if ctx.claimed_turn:
        # The winning turn began with a chi or pong: no chain (hangzhou.md, decision);
        # what ``chain`` holds are this turn's kongs.
        return 0, 0, len(ctx.chain)
    piao = sum(1 for s in ctx.chain if s is ChainStep.PIAO)
    gang = sum(1 for s in ctx.chain if s is ChainStep.GANG)
    last_turn = 0
    for step in reversed(ctx.chain):
        if step is not ChainStep.GANG:
            break
        last_turn += 1
    return piao, gang, last_turn


def _factor(ctx: WinContext, seven_pairs: int | None, clean: bool, bao_tou: bool) -> _Factor:
    pats: list[str] = []
    if seven_pairs is not None:
        pats.append("qi_dui")
        pats += ["hao_hua"] * seven_pairs
        if clean:
            pats.append("qing_qi_dui")
    piao, gang, last_turn = _chain_counts(ctx)
    if bao_tou:
        pats.append("bao_tou")
        pats += ["cai_piao"] * piao + ["gang_kai"] * gang
    elif ctx.replacement is Replacement.KONG:
        # The replacement itself proves one kong even when no chain was given.
        pats += ["gang_kai"] * max(1, last_turn)
    return _Factor(tuple(pats), 2 ** len(pats))


def _best_factor(ctx: WinContext, wild: Wildcards) -> _Factor | Refusal:
    """The most valuable reading's multiplier, or why the win is refused."""
    assert ctx.win_tile is not None
    before = HandAnalysis(ctx.concealed, ctx.melds, wild, SHAPES)
    after = before.with_tile(ctx.win_tile)
    counts, jokers = wild.split(after.concealed)
    standard = is_complete(counts, jokers)
    pairs = seven_pairs_luxury(counts, jokers) if not ctx.melds else None
    if not standard and pairs is None:
        return Refusal(Code.INCOMPLETE)
    bao_tou = before.is_bao_tou()
    if ctx.win is WinKind.DISCARD:
        if bao_tou:
            return Refusal(Code.BAO_TOU)
        if not standard:
            return Refusal(Code.SEVEN_PAIRS)
        return _Factor((), 1)
    options: list[_Factor] = []
    if standard:
        options.append(_factor(ctx, None, False, bao_tou))
    if pairs is not None:
        options.append(_factor(ctx, pairs, jokers == 0, bao_tou))
    return max(options, key=lambda f: f.value)


def discard_win_refusal(ctx: WinContext, options: Options, wild: Wildcards
                        ) -> Refusal | None:
    """The 放铳 conditions a win on a discard must meet (漏胡/抓打 are the game's)."""
    if ctx.streak < options.discard_win_streak:
        return Refusal.of(Code.STREAK, need=options.discard_win_streak, now=ctx.streak)
    if ctx.dealer not in (ctx.winner, ctx.from_seat):
        return Refusal(Code.DEALER_ONLY)
    if ctx.win_tile is not None and wild.is_joker(ctx.win_tile):
        return Refusal(Code.CAISHEN_DISCARD)
    return None


# ---------------------------------------------------------------------------
# Settlement


def settle(ctx: WinContext, factor: int, options: Options
           ) -> tuple[tuple[Fraction, ...], list[str], str | None, tuple[Charge, ...]]:
    w = ctx.winner
    payers = [s for s in range(SEATS) if s != w] if ctx.win is WinKind.SELF_DRAW \
        else [ctx.from_seat]
    normal = {s: Fraction(options.base * zhuang_xian(ctx, s) * factor)
              for s in payers if s is not None}
    lines = [f"seat {s}: 底分 {options.base} × 庄闲分 {zhuang_xian(ctx, s)} × {factor} = "
             f"{number(v)}" for s, v in normal.items()]
    owed, note = _liability(ctx, normal, options)
    payments = [Fraction(0)] * SEATS
    for seat, amount in owed.items():
        payments[seat] -= amount
    payments[w] = -sum(payments, Fraction(0))
    if note:
        lines.append(note)
    found = _charges(ctx, factor, options, [s for s in payers if s is not None])
    return tuple(payments), lines, note, found


def _charges(ctx: WinContext, factor: int, options: Options, payers: list[int]
             ) -> tuple[Charge, ...]:
    """Each payment as F × 底分 × 庄闲分, or, under 承包 / 倒承包, F × 底分 × the 庄闲分
    of every seat paid for (twice for 倒承包, shared when two seats owe it)."""
    common = (Factor(FactorKind.HAND, Fraction(factor)),
              Factor(FactorKind.BASE, Fraction(options.base)))
    taker, givers = _liable(ctx, options)
    if taker is None and not givers:
        return tuple(Charge(s, (*common, Factor(FactorKind.DEALER,
                                                Fraction(zhuang_xian(ctx, s)))))
                     for s in payers)
    parts = tuple(Fraction(zhuang_xian(ctx, s)) for s in payers)
    total = sum(parts, Fraction(0))
    out = []
    if taker is not None:
        out.append(Charge(taker, (*common, Factor(FactorKind.LIABILITY, total, parts))))
    split = (Factor(FactorKind.SHARED, Fraction(1, len(givers))),) if len(givers) > 1 else ()
    out += [Charge(a, (*common, Factor(FactorKind.REVERSE_LIABILITY, 2 * total, parts),
                       *split)) for a in givers]
    return tuple(out)


def _liable(ctx: WinContext, options: Options) -> tuple[int | None, list[int]]:
    """(the 承包 seat: three 摊 of the winner on it, the 倒承包 seats: three 摊 on the
    winner). The winner's four melds hold three 摊 on one seat at most; two seats can
    each hold three on a winner who is the dealer at streak 3."""
    if not options.liability:
        return None, []
    w = ctx.winner
    takers = [b for b in range(SEATS) if b != w and ctx.claims[w][b] >= 3]
    return (takers[0] if takers else None,
            [a for a in range(SEATS) if a != w and ctx.claims[a][w] >= 3])


def _liability(ctx: WinContext, normal: dict[int, Fraction], options: Options
               ) -> tuple[dict[int, Fraction], str | None]:
    """承包 / 倒承包 from three 摊; with ``liability`` off, the normal payments."""
    total = sum(normal.values(), Fraction(0))
    taker, givers = _liable(ctx, options)
    if taker is None and not givers:
        return normal, None
    owed: dict[int, Fraction] = {}
    notes: list[str] = []
    if taker is not None:
        owed[taker] = total
        notes.append(f"承包 Liability: seat {taker} pays {number(total)}")
    for a in givers:
        # Decision (two liable players): they share the 倒承包; the winner receives
        # twice the total, as from one liable player, and each pays its part of it.
        part = 2 * total / len(givers)
        owed[a] = owed.get(a, Fraction(0)) + part
        notes.append(f"倒承包 Reverse liability: seat {a} pays {number(part)}")
    return owed, "; ".join(notes)


# ---------------------------------------------------------------------------
# The whole judgement


def check(ctx: WinContext, options: Options) -> Wildcards:
    """Refuse a Hangzhou win that cannot exist (RuleError); return its wildcards."""
    check_context(ctx, flowers_allowed=False)
    if ctx.win_tile is None:
        raise RuleError(Code.NEEDS_WIN_TILE)
    if ctx.win is WinKind.ROB_KONG:
        raise RuleError(Code.NO_ROB_KONG, rules="Hangzhou")
    if not 1 <= ctx.streak <= MAX_STREAK:
        raise RuleError(Code.STREAK_RANGE, top=MAX_STREAK, value=echo(ctx.streak))
    if ctx.replacement is Replacement.FLOWER:
        raise RuleError(Code.NO_FLOWER_REPLACEMENT)
    wild = wildcards(options, ctx.flipped)
    if not options.caishen_melds and any(wild.is_joker(t) for m in ctx.melds for t in m.tiles):
        raise RuleError(Code.CAISHEN_MELDS)
    check_hand_size(ctx)
    _check_claims_and_chain(ctx, options)
    # Each 飘 of the chain is a 财神 its winner discarded: a copy in play too.
    piao = [wild.joker] * ctx.chain.count(ChainStep.PIAO) if wild.joker is not None else []
    tiles = [*ctx.concealed, ctx.win_tile, *(t for m in ctx.melds for t in m.tiles), *piao]
    limits = {ctx.flipped: 3} if ctx.flipped is not None else {}
    check_copies_in_play(tiles, limits)
    return wild


def _check_claims_and_chain(ctx: WinContext, options: Options) -> None:
    """Refuse 摊 beyond their limit, chis beyond two without liability, and a chain
    with more kongs than the winner shows."""
    for a, row in enumerate(ctx.claims):
        for b, n in enumerate(row):
            limit = tan_limit(a, b, ctx.dealer, ctx.streak)
            if n > limit:
                raise RuleError(Code.TAN_COUNT, seat=a, seat_b=b, n=n, limit=limit)
    chis = sum(1 for m in ctx.melds if m.kind is MeldKind.CHI)
    if not options.liability and chis > MAX_CHIS_WITHOUT_LIABILITY:
        raise RuleError(Code.CHI_LIMIT, n=MAX_CHIS_WITHOUT_LIABILITY)
    kongs = sum(1 for m in ctx.melds if m.kind.is_kong)
    gang = ctx.chain.count(ChainStep.GANG)
    if gang > kongs:
        raise RuleError(Code.CHAIN_KONGS, n=gang, kongs=kongs)


def score(ctx: WinContext, options: Options | None = None) -> Settlement:
    options = options or Options()
    if not isinstance(options, Options):
        raise OptionError(Code.OPTIONS_TYPE, rules="Hangzhou")
    try:
        wild = check(ctx, options)
    except RuleError as exc:
        return Settlement.refused(exc.refusal)
    best = _judged(ctx, options, wild)
    if isinstance(best, Refusal):
        return Settlement.refused(best)
    lines = [f"{PATTERNS[p].label()}: {PATTERNS[p].value}" for p in best.patterns]
    if not best.patterns:
        lines.append("平胡 Plain win: ×1")
    lines.append(f"F = {best.value}")
    payments, settle_lines, note, owed = settle(ctx, best.value, options)
    return Settlement(True, best.patterns, best.value, payments, None,
                      (*lines, *settle_lines), note, owed)


def _judged(ctx: WinContext, options: Options, wild: Wildcards) -> _Factor | Refusal:
    """The win's multiplier, or why it is refused (``ctx`` passed `check`)."""
    if ctx.win is WinKind.DISCARD:
        refusal = discard_win_refusal(ctx, options, wild)
        if refusal:
            return refusal
    return _best_factor(ctx, wild)


def win_value(ctx: WinContext, options: Options | None = None) -> int | None:
    """`score`'s value F of the win (None: refused), without working out its payments."""
    options = options or Options()
    if not isinstance(options, Options):
        raise OptionError(Code.OPTIONS_TYPE, rules="Hangzhou")
    try:
        wild = check(ctx, options)
    except RuleError:
        return None
    best = _judged(ctx, options, wild)
    return None if isinstance(best, Refusal) else best.value


# ---------------------------------------------------------------------------
# Leaving a match (逃跑)

ABANDON_UNITS = 8
ABANDON_UNITS_IN_ZHUA_DA = 32


def abandon_penalty(options: Options, leaver: int, zhua_da_discarder: int | None,
                    discarder_waiting: bool) -> tuple[Fraction, ...]:
    """What leaving a running hand costs: base × 8, nobody receiving it; base × 32 inside
    a 抓打 window, which the 财神 discarder receives only if waiting (听牌).

    The only payments that do not sum to zero (hangzhou.md, Leaving a match).
    """
    in_window = zhua_da_discarder is not None and zhua_da_discarder != leaver
    amount = Fraction(options.base * (ABANDON_UNITS_IN_ZHUA_DA if in_window else ABANDON_UNITS))
    payments = [Fraction(0)] * SEATS
    payments[leaver] = -amount
    if in_window and discarder_waiting:
        assert zhua_da_discarder is not None
        payments[zhua_da_discarder] = amount
    return tuple(payments)


# ---------------------------------------------------------------------------
# Play (engine.game asks these)

MAX_TAN = 2
MAX_CHIS_WITHOUT_LIABILITY = 2


def tan_limit(claimer: int, discarder: int, dealer: int, streak: int) -> int:
    """How many 摊 ``claimer`` may make on ``discarder``: two, or three between the dealer
    and a non-dealer while the dealer's streak is 3 (A: 只有在三老庄时才能吃碰杠３摊)."""
    if streak >= MAX_STREAK and dealer in (claimer, discarder):
        return MAX_TAN + 1
    return MAX_TAN


def _face(tile: Tile, check: ClaimCheck) -> Tile:
    # In flip mode a 5z plays as the turned tile, so 漏胡/漏碰 follow what a tile plays as.
    return check.wildcards.plays_as(tile) or tile


def claim_refusal(check: ClaimCheck, options: Options) -> Refusal | None:
    """Why the rules forbid this claim (财神, 抓打, last window, 漏胡, 漏碰, 摊), or None."""
    for rule in (_caishen_claim, _zhua_da_claim, _last_window_claim, _passed_claim,
                 _meld_caishen, _tan_claim, _chi_limit):
        refusal = rule(check, options)
        if refusal is not None:
            return refusal
    return None


def _caishen_claim(check: ClaimCheck, options: Options) -> Refusal | None:
    if check.wildcards.is_joker(check.tile):
        return Refusal(Code.CAISHEN_CLAIM)
    return None


def _zhua_da_claim(check: ClaimCheck, options: Options) -> Refusal | None:
    x = check.zhua_da
    if x is not None and x != check.claimer:
        return Refusal.of(Code.ZHUA_DA_CLAIM, seat=x)
    return None


def _last_window_claim(check: ClaimCheck, options: Options) -> Refusal | None:
    if check.last_window and check.kind is not ActionKind.WIN:
        return Refusal(Code.LAST_WINDOW)
    return None


def _passed_claim(check: ClaimCheck, options: Options) -> Refusal | None:
    face = _face(check.tile, check)
    if check.kind is ActionKind.WIN and face in check.passed_wins:
        return Refusal.of(Code.LOU_HU, tile=face)
    if check.kind is ActionKind.PONG and face in check.passed_pongs:
        return Refusal.of(Code.LOU_PENG, tile=face)
    return None


def _meld_caishen(check: ClaimCheck | TurnCheck, options: Options) -> Refusal | None:
    if not options.caishen_melds and any(check.wildcards.is_joker(t) for t in check.meld_tiles):
        return Refusal(Code.CAISHEN_MELDS)
    return None


def _tan_claim(check: ClaimCheck, options: Options) -> Refusal | None:
    # The limit holds whatever ``liability`` says: the page lifts only 承包 with it off
    # and adds the chi limit, which then matters where a third 摊 is allowed.
    if check.kind is ActionKind.WIN:
        return None
    limit = tan_limit(check.claimer, check.discarder, check.dealer, check.streak)
    if check.claims[check.claimer][check.discarder] >= limit:
        return Refusal.of(Code.TAN if limit > MAX_TAN else Code.TAN_THIRD, n=limit,
                          seat=check.discarder)
    return None


def _chi_limit(check: ClaimCheck, options: Options) -> Refusal | None:
    if not options.liability and check.kind is ActionKind.CHI and \
            check.chis >= MAX_CHIS_WITHOUT_LIABILITY:
        return Refusal.of(Code.CHI_LIMIT, n=MAX_CHIS_WITHOUT_LIABILITY)
    return None


def turn_refusal(check: TurnCheck, options: Options) -> Refusal | None:
    """Why the rules forbid this decision on one's own turn, or None."""
    if check.kind is ActionKind.WIN and check.after_claim:
        return Refusal(Code.WIN_AFTER_CLAIM)
    x = check.zhua_da
    if x is not None and x != check.seat and not _zhua_da_allows(check):
        return Refusal.of(Code.ZHUA_DA_TURN, seat=x)
    if check.kind in (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG):
        return _meld_caishen(check, options)
    return None


def _zhua_da_allows(check: TurnCheck) -> bool:
    if check.kind in (ActionKind.WIN, ActionKind.CONCEALED_KONG):
        return True
    return check.kind is ActionKind.DISCARD and check.tile is check.drawn


OPTION_WORDS: dict[str, OptionWords] = {
    "caishen": OptionWords(
        Words("caishen", "财神"),
        Words("Hangzhou: which tiles are 财神 (default fixed: the White Dragons)",
              "杭州：哪种牌是财神（默认固定为白板）"),
        Words("财神: {value}", "财神：{value}"),
        choices={"fixed": Words("Fixed: the White Dragons 白板", "固定：白板为财神"),
                 "flip": Words("Flip 翻财神: a tile turned after the deal", "翻财神：发牌后翻出")},
        values={"fixed": Words("fixed (the White Dragons 白板)", "固定（白板为财神）"),
                "flip": Words("flip (翻财神: turned after the deal)", "翻财神（发牌后翻出）")}),
    "caishen_melds": OptionWords(
        Words("caishen_melds", "财神组牌"),
        Words("Hangzhou: may a 财神 be used in chi, pong or kong (default yes)",
              "杭州：财神能否用于吃、碰、杠（默认可以）"),
        Words("财神 in chi/pong/kong: {value}", "财神可用于吃碰杠：{value}")),
    "discard_win_streak": OptionWords(
        Words("discard_win_streak", "放冲老庄"),
        Words("Hangzhou: the dealer's streak (老庄) needed for a win on a discard (1–3, "
              "default 3)", "杭州：老庄达到几才可以胡别人打的牌（1–3，默认 3）"),
        Words("Win on a discard from the dealer's streak 老庄 {value}",
              "老庄 {value} 起可以放冲胡")),
    "liability": OptionWords(
        Words("liability", "承包"),
        Words("Hangzhou: 承包 liability (default on; off: at most two chi)",
              "杭州：承包（默认开；关则每局最多吃两次）"),
        Words("承包 liability: {value}", "承包：{value}")),
    "base": OptionWords(
        Words("base", "底分"),
        Words("Hangzhou 底分 per share: 1, 2, 3 or 5 (default 1)",
              "杭州底分：1、2、3 或 5（默认 1）"),
        Words("底分 base: {value}", "底分：{value}")),
}


class Hangzhou(RuleSet):
    """杭州 (hangzhou.md)."""

    __slots__ = ()

    name = NAME
    zh = "杭州"
    en = "Hangzhou"
    about = Words(
        "Hangzhou rules: 136 tiles, no flowers, with the wildcard 财神. A hand scores a "
        "multiplier (×): 暴头, seven pairs, 财神 chains 飘/杠 and more. Winning on a "
        "discard is allowed only between the dealer and a player once the dealer's streak "
        "(老庄) is long enough; restrictions 漏胡, 漏碰, 抓打 and 摊 apply. A payer pays "
        "底分 × 庄闲分 × the multiplier.",
        "杭州麻将：136 张牌，无花牌，有财神（百搭）。牌值为倍数（×）：暴头、七对子、财神飘杠等。"
        "只有庄家与闲家之间、且老庄达到要求时才能胡别人打的牌；有漏胡、漏碰、抓打和摊的限制。"
        "每家付 底分 × 庄闲分 × 倍数。")
    unit = Words("points: multiples of 底分", "积分：底分 × 庄闲分 × 倍数")
    options_type = Options
    option_words = OPTION_WORDS
    patterns = PATTERNS
    shapes = SHAPES
    value_unit = "×"
    decisions_per_hand = 53.0
    """Measured: 150 hands dealt from random.Random(7), the computer player
    (engine.ai.choose_action) at every seat: 52.8 decisions a hand, 35.2 turns and 17.5
    claim windows."""
    has_flowers = False
    counts_chain = True
    counts_streak = True
    max_streak = MAX_STREAK
    multiple_winners = False
    """One winner only: the first in turn order from the discarder."""
    rob_added_kong = False
    """Hangzhou has no 抢杠."""
    kong_burns = 1
    """A: 杠了之后摸一张牌，牌桌上的剩余牌数额外减少１张."""
    last_window_tiles = 20
    """流局: at 20 or fewer tiles left, the discard then in play gets a last, win-only
    window."""
    passed_claims_bind = True

    stat_keys = STAT_KEYS

    def _score(self, ctx: WinContext, options: Options) -> Settlement:
        return score(ctx, options)

    def _win_value(self, ctx: WinContext, options: Options) -> int | None:
        return win_value(ctx, options)

    def stat_marks(self, hand: StatHand) -> tuple[dict[str, int], ...]:
        return stat_marks(hand)

    def wildcards(self, options: TableOptions, flipped: Tile | None = None) -> Wildcards:
        assert isinstance(options, Options)
        return wildcards(options, flipped)

    def turns_wildcard(self, options: TableOptions) -> bool:
        return isinstance(options, Options) and options.caishen == "flip"

    def claim_refusal(self, check: ClaimCheck, options: Options) -> Refusal | None:
        return claim_refusal(check, options)

    def turn_refusal(self, check: TurnCheck, options: Options) -> Refusal | None:
        return turn_refusal(check, options)

    def discard_win_refusal(self, ctx: WinContext, options: Options) -> Refusal | None:
        """The 放铳 conditions (`discard_win_refusal`), as `score` asks them."""
        return discard_win_refusal(ctx, options, wildcards(options, ctx.flipped))

    def restricts_discards(self, situation: TurnCheck, options: Options) -> bool:
        # Only 抓打 refuses a discard (any but the tile just drawn).
        x = situation.zhua_da
        return x is not None and x != situation.seat

    def next_dealer(self, dealer: int, streak: int, winners: Sequence[int],
                    discarder: int | None) -> tuple[int, int]:
        """A draw or the dealer's win: the dealer deals again, one streak higher (up to
        3); another's win: the winner deals at streak 1."""
        if not winners or winners[0] == dealer:
            return dealer, min(streak + 1, MAX_STREAK)
        return winners[0], 1

    def abandon_penalty(self, state: HandState, leaver: int) -> tuple[Fraction, ...]:
        waiting = False
        if state.zhua_da is not None:
            s = state.seats[state.zhua_da]
            waiting = bool(HandAnalysis(s.hand, s.melds, state.wildcards, SHAPES).waits())
        assert isinstance(state.options, Options)
        return abandon_penalty(state.options, leaver, state.zhua_da, waiting)

    def foreign_fields(self, ctx: WinContext) -> Refusal | None:
        return Refusal(Code.SHANGHAI_FIELD) if ctx.huangfan else None
