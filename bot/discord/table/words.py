"""The table's channel in words: what happened (from engine events; also a seat's DM
news and `/mahjong history`), the pings for a decision, the settlement of a hand, the
scores, the table picture's caption, the wall's commitment and its reveal.

Public texts never hold a concealed tile (a winner's hand excepted, once shown); a
seat's DM lines (``seat`` given) tell that seat's own private events too."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

from bot.discord.core.i18n import LocaleLike, join, t
from bot.discord.core.words import (
    MAX_CONTENT,
    UNIT_WORDS,
    amount_text,
    amounts_text,
    clip,
    fit,
    pattern_name,
    pattern_value,
    rules_name,
    tile_label,
    tile_name,
    tiles_text,
    timestamp,
    unit_value_text,
)
from engine.game.events import (
    ClaimWindowOpened,
    ConcealedKongDeclared,
    Event,
    FlowerLaidAside,
    HandEnded,
    HandStarted,
    MeldDeclared,
    TileDiscarded,
    TileDrawn,
    TilesDealt,
    WildcardTurned,
)
from engine.melds import MeldKind
from engine.rules import RULESETS
from engine.rules.common import Charge, Factor, FactorKind
from engine.tiles import Tile
from engine.view import ResultView, SettlementView, TableView

# ---------------------------------------------------------------------------
# What happened, in plain words


def describe_events(events: Iterable[Event], names: Sequence[str], seat: int | None,
                    locale: LocaleLike, hand: int = 1, caishen: Tile | None = None
                    ) -> list[str]:
    """Lines for ``seat``'s DM (None: the channel), tiles by name (``caishen``: the
    hand's wildcard, marked in melds). Private events are told only to the seat they
    belong to; a concealed kong's tiles only to its owner."""
    out = []
    for event in events:
        if isinstance(event, WildcardTurned):
            caishen = event.tile  # flip mode: its other copies are the 财神
        private = event.private_to
        if private is not None and private != seat:
            continue
        line = _event_line(event, names, seat, locale, hand, caishen)
        if line:
            out.append(line)
    return out


def _event_line(event: Event, names: Sequence[str], seat: int | None, locale: LocaleLike,
                hand: int, caishen: Tile | None = None) -> str | None:
    if isinstance(event, TileDiscarded):
        return t("ev.discard", locale, name=names[event.seat],
                 tile=tile_name(event.tile, locale))
    if isinstance(event, MeldDeclared | ConcealedKongDeclared):
        return _meld_line(event, names, seat, locale, caishen)
    if isinstance(event, FlowerLaidAside):
        return t("ev.flower", locale, name=names[event.seat],
                 tile=tile_name(event.flower, locale))
    if isinstance(event, WildcardTurned):
        return t("ev.wildcard", locale, tile=tile_name(event.tile, locale))
    if isinstance(event, TileDrawn):
        return t("ev.drew", locale, tile=tile_name(event.tile, locale))
    if isinstance(event, TilesDealt):
        return t("ev.dealt", locale)
    if isinstance(event, HandStarted):
        return t("ev.hand_start", locale, hand=hand, name=names[event.dealer])
    if isinstance(event, ClaimWindowOpened):
        return None  # the caption or the DM's question says it, once
    if isinstance(event, HandEnded):
        if event.result.drawn:
            return t("ev.drawn_hand", locale)
        return " ".join(t("ev.win", locale, name=names[w.winner]) for w in event.result.wins)
    return None


def _meld_line(event: MeldDeclared | ConcealedKongDeclared, names: Sequence[str],
               seat: int | None, locale: LocaleLike, caishen: Tile | None) -> str:
    if isinstance(event, ConcealedKongDeclared) or event.meld.kind is MeldKind.CONCEALED_KONG:
        # Public events carry no tile of it; the owner sees it face up in the picture.
        if seat == event.seat:
            return t("ev.my_concealed_kong", locale)
        return t("ev.concealed_kong", locale, name=names[event.seat])
    meld = event.meld
    tiles = tiles_text(meld.tiles, locale, caishen=caishen)
    return t(f"ev.{meld.kind.value}", locale, name=names[event.seat], tiles=tiles)


# ---------------------------------------------------------------------------
# A decision's ping


def your_move_text(mention: str, *, table_id: int, hand: int, kind: str,
                   deadline: float | None, locale: LocaleLike, reminder: bool = False,
                   closed_dms: bool = False) -> str:
    """The channel ping for a decision (kind "turn" or "claim"), or its half-time
    ``reminder`` (turns only); no tile in it. Where to play: the DMs, or for a player
    whose DMs are closed, `/mahjong hand`."""
    key = "chan.your_claim" if kind == "claim" else "chan.your_turn"
    if reminder and kind == "turn":
        key = "chan.turn_reminder"
    when = timestamp(deadline) if deadline is not None else "—"
    where = "chan.where_closed" if closed_dms else "chan.where"
    return t(key, locale, mention=mention, table=table_id, hand=hand, when=when) \
        + " " + t(where, locale)


# ---------------------------------------------------------------------------
# Settlement, scores and the table caption (public: no concealed tile but a winner's)


_SILENT_WHEN_ONE = frozenset((FactorKind.BASE, FactorKind.SHARES, FactorKind.DEALER))


def plain_number(value: Fraction | int) -> str:
    """An unsigned exact number: "40", "3.5", "1/2" (thirds and such stay fractions)."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    if value.denominator in (2, 4, 5, 10):
        return f"{float(value):g}"
    return f"{value.numerator}/{value.denominator}"


def factor_text(factor: Factor, unit: str, locale: LocaleLike) -> str:
    """One factor of a payment in words: "2 (荒番 dead-hand round)", "(2+1+1) (承包 …)"."""
    value = plain_number(factor.value)
    if factor.kind is FactorKind.SHARED:
        value = f"1/{factor.value.denominator}"
    if factor.parts:
        summed = "+".join(plain_number(p) for p in factor.parts)
        summed = f"({summed})" if len(factor.parts) > 1 else summed
        value = f"2 × {summed}" if factor.kind is FactorKind.REVERSE_LIABILITY else summed
    if factor.kind is FactorKind.HAND:
        return t(f"factor.hand.{UNIT_WORDS[unit]}", locale, value=value)
    if factor.kind is FactorKind.DEALER:  # 2 / 4 / 8 at 老庄 1 / 2 / 3
        return t("factor.dealer", locale, value=value,
                 streak=int(factor.value).bit_length() - 1)
    return t(f"factor.{factor.kind.value}", locale, value=value,
             count=factor.value.denominator)


def formula_text(charge: Charge, unit: str, locale: LocaleLike) -> str:
    """A payment as the product of its factors: "20 花 × 2 (荒番 dead-hand round)"."""
    shown = [f for f in charge.factors
             if f.kind is FactorKind.HAND or not (f.kind in _SILENT_WHEN_ONE and f.value == 1)]
    return " × ".join(factor_text(f, unit, locale) for f in shown)


def charge_lines(win: SettlementView, names: Sequence[str], locale: LocaleLike) -> list[str]:
    """How each payer's payment comes from the hand's value, every multiplier shown; one
    line for the payers whose payments are made the same way."""
    groups: dict[str, list[Charge]] = {}
    for charge in win.charges:
        groups.setdefault(formula_text(charge, win.value_unit, locale), []).append(charge)
    lines = []
    for formula, charges in groups.items():
        who = join([names[c.payer] for c in charges], locale)
        key = "settle.charge.each" if len(charges) > 1 else "settle.charge.one"
        lines.append(t(key, locale, names=who, formula=formula,
                       amount=plain_number(charges[0].amount)))
    return lines


def how_paid_lines(result: ResultView, names: Sequence[str], locale: LocaleLike
                   ) -> list[list[str]]:
    """The settlement card's "how it is paid" lines, one list per win (heading first)."""
    return [[t("settle.how", locale), *charge_lines(win, names, locale)] if win.charges else []
            for win in result.settlements]


def _settlement_lines(win: SettlementView, names: Sequence[str], hand: int,
                      locale: LocaleLike, caishen: Tile | None = None) -> list[str]:
    giver = names[win.from_seat] if win.from_seat is not None else ""
    lines = [t(f"settle.{win.win}", locale, hand=hand, name=names[win.winner], giver=giver)]
    win_tile = tiles_text((win.win_tile,), locale, caishen=caishen) \
        if win.win_tile is not None else "—"
    lines.append(t("settle.hand", locale, tiles=tiles_text(win.concealed, locale,
                                                          caishen=caishen), win=win_tile))
    if win.melds:
        melds = [t(f"meld.{m.kind.value}", locale,
                   tiles=tiles_text((x for x in m.tiles if x is not None), locale,
                                    caishen=caishen)) for m in win.melds]
        lines.append(t("settle.melds", locale, melds=t("meld.sep", locale).join(melds)))
    if win.flowers:
        lines.append(t("settle.flowers", locale, tiles=tiles_text(win.flowers, locale)))
    patterns = [t("settle.pattern", locale, name=pattern_name(p.zh, p.en, locale),
                  value=pattern_value(p, locale)) for p in win.patterns]
    if not patterns:  # as the card says it: a plain win, worth its unit's one
        plain = "×1" if win.value_unit == "×" else None
        patterns = [t("settle.pattern", locale, name=t("settle.no_patterns", locale),
                      value=plain) if plain else t("settle.no_patterns", locale)]
    if win.base:  # the 底花 a value in 花 starts from, by where it comes from
        parts = [t(f"base.{kind}", locale, hua=hua) for kind, hua in win.base]
        lines.append(t("settle.base", locale, parts=" + ".join(parts),
                       total=sum(h for _, h in win.base)))
    lines.append(t("settle.patterns", locale, patterns=join(patterns, locale)))
    lines.append(t("settle.value", locale,
                   value=unit_value_text(win.value_unit, win.value, locale)))
    if win.charges:  # 承包 and 吃三口包 show in them, in the reader's words
        lines.append(t("settle.how", locale))
        lines += ["· " + line for line in charge_lines(win, names, locale)]
    elif win.liability:
        lines.append(t("settle.liability", locale, text=win.liability))
    return lines


def settlement_text(result: ResultView, names: Sequence[str], hand: int, locale: LocaleLike,
                    totals: Sequence[Fraction | int] | None = None, *,
                    caishen: Tile | None = None) -> str:
    """The end of a hand for the channel: each win (its hand, patterns and value), the
    net payments, and the match totals when given (``caishen``: the hand's wildcard,
    marked where it stands in the winner's tiles)."""
    lines: list[str] = []
    for win in result.settlements:
        lines += _settlement_lines(win, names, hand, locale, caishen)
    if result.drawn:
        lines.append(t("settle.drawn", locale, hand=hand))
    if result.settlements or any(result.payments):
        lines.append(t("settle.payments", locale,
                       payments=amounts_text(names, result.payments, locale)))
    if totals is not None:
        lines.append(t("settle.totals", locale, totals=amounts_text(names, totals, locale)))
    return clip("\n".join(lines), MAX_CONTENT)


def score_text(table_id: int, names: Sequence[str], totals: Sequence[Fraction | int],
               played: int, hands: int, locale: LocaleLike, *, cancelled: bool = False
               ) -> str:
    """``/mahjong score``: the match totals at a table (so far, if it was cancelled)."""
    key = "reply.score.cancelled" if cancelled else "reply.score.title"
    lines = [f"**{t(key, locale, table=table_id, played=played, hands=hands)}**"]
    lines += [t("reply.score.row", locale, name=n, points=amount_text(a))
              for n, a in zip(names, totals, strict=True)]
    return clip("\n".join(lines), MAX_CONTENT)


def table_caption(table: TableView, *, table_id: int, names: Sequence[str],
                  locale: LocaleLike, happened: Sequence[str] = (),
                  mention: Mapping[int, str] | None = None) -> str:
    """The text with the channel's table picture: where the hand stands, whose move it
    is (mentioned when ``mention`` gives a seat's mention), what just happened."""
    head = [t("caption.table", locale, rules=rules_name(table.rules, locale),
              table=table_id, hand=table.hand_number, left=table.wall_left),
            t("caption.dealer", locale, name=names[table.dealer])]
    if RULESETS[table.rules].counts_streak and table.streak > 1:
        head.append(t("caption.streak", locale, streak=table.streak))
    if table.huangfan:
        head.append(huangfan_text(table, locale))
    if table.caishen is not None:
        head.append(t("caption.caishen", locale, tile=tile_label(table.caishen, locale)))
    who = [(mention or {}).get(s, names[s]) for s in table.deciding]
    tail = []
    if table.phase == "turn" and who:
        tail.append(t("caption.turn", locale, name=who[0]))
    elif table.phase in ("claim", "rob_kong"):
        # Nobody named: who may claim depends on what they hold (the same words
        # whoever and however many may claim).
        key = "caption.rob_kong" if table.phase == "rob_kong" else "caption.claim"
        tail.append(t(key, locale))
    return fit(head, happened, tail)


def huangfan_text(table: TableView, locale: LocaleLike) -> str:
    """Why the hand is a 荒番 hand: its dice, or the 荒番 carried over from earlier drawn
    hands (or dice) of the match."""
    if RULESETS[table.rules].huangfan_after_dice(0, table.dice) > 0:
        return t("caption.huangfan.dice", locale, dice=f"{table.dice[0]}+{table.dice[1]}")
    return t("caption.huangfan.carried", locale)


def commitment_text(digest: str, locale: LocaleLike) -> str:
    return t("caption.commitment", locale, digest=digest)


def reveal_text(hand: int, wall: str, salt: str, locale: LocaleLike) -> str:
    """The wall and salt after a hand; clipped (a full wall fits: 144 tiles × 2)."""
    return clip(t("caption.reveal", locale, hand=hand, wall=wall, salt=salt), MAX_CONTENT)
