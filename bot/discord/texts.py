"""Message texts: tiles and values in words, what happened (from engine events), the
DM above a seat's picture and buttons, channel pings, the rules summary (refusals:
refusals.py).

Pure functions in the reader's locale. Channel texts never hold a concealed tile; the
DM texts are for their seat only. Every text fits Discord's 2000-character content.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from bot.discord.core.i18n import LocaleLike, join, lang, t
from bot.discord.lobby.options import NEW_OPTIONS, option_value_text
from bot.service import BestHand, LeaderboardRow
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
from engine.game.prospect import Wait
from engine.melds import MeldKind
from engine.rules import RULESETS
from engine.rules.common import ActionKind, Charge, Factor, FactorKind, TableOptions
from engine.tiles import Tile
from engine.view import SEAT_WINDS, PlayerView, ResultView, SettlementView, TableView
from render.hand import held_tiles, offers_discard, suggested_number

MAX_CONTENT = 2000
MAX_OPTION_TEXT = 100
CAISHEN = "财神"


def clip(text: str, limit: int) -> str:
    """Cut ``text`` to ``limit`` characters with an ellipsis: never fail on a limit."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------------------
# Tiles and values in words


def tile_name(tile: Tile, locale: LocaleLike) -> str:
    """"五万" or "Five of Characters"."""
    return tile.zh if lang(locale) == "zh" else tile.en


def tile_label(tile: Tile, locale: LocaleLike) -> str:
    """A tile in a menu or a caption: its name ("五万", "Five of Characters")."""
    return tile_name(tile, locale)


_ZH_DIGITS = "一二三四五六七八九"
_ZH_SUITS = {"m": "万", "p": "筒", "s": "条"}
_EN_SUITS = {"m": "Characters", "p": "Dots", "s": "Bamboo"}


def tiles_text(tiles: Iterable[Tile], locale: LocaleLike, *, sort: bool = True,
               caishen: Tile | None = None) -> str:
    """Tiles by name in the reader's language, never in the notation players do not
    read: a suit's tiles together ("一四七万 四四条 东风×2", "Characters 1 4 7, Bamboo
    4 4, East Wind ×2"); a lone tile by its name ("七筒", "Seven of Dots"), copies of
    one counted ("九条×3"); each ``caishen`` marked as one ("白板（财神）")."""
    zh = lang(locale) == "zh"
    seq = sorted(tiles) if sort else list(tiles)
    groups: list[list[Tile]] = []
    for tile in seq:
        last = groups[-1] if groups else None
        if last is not None and tile != caishen and last[0] != caishen and (
                (tile.is_suited and last[0].suit is tile.suit)
                or (not tile.is_suited and last[0] == tile)):
            last.append(tile)
        else:
            groups.append([tile])
    words = []
    for group in groups:
        first = group[0]
        if first == caishen:
            words.append(t("tile.caishen", locale, name=tile_name(first, locale)))
        elif len(group) == 1:
            words.append(tile_name(first, locale))
        elif not first.is_suited or all(x == first for x in group):
            words.append(t("tile.copies", locale, name=tile_name(first, locale),
                           count=len(group)))
        elif zh:
            words.append("".join(_ZH_DIGITS[x.rank - 1] for x in group)
                         + _ZH_SUITS[first.suit.value])
        else:
            words.append(f"{_EN_SUITS[first.suit.value]} "
                         + " ".join(str(x.rank) for x in group))
    return (" " if zh else ", ").join(words)


MANY_WAITS = 13
"""More tiles than this with one value are counted, not listed (a 暴头 hand waits on
every tile): the menu's line has room for 100 characters."""


def waits_text(waits: Sequence[Wait], rules: str, locale: LocaleLike, *,
               caishen: Tile | None = None) -> str:
    """A hand's waits with what each win is worth, tiles of one value together (by name,
    ``caishen`` marked): "Dots 6 7 (2 花)", "一四万 (只能自摸，×1)"."""
    groups: dict[tuple[int | None, int | None], list[Tile]] = {}
    for wait in sorted(waits):
        groups.setdefault((wait.self_draw, wait.discard), []).append(wait.tile)
    parts = []
    for (self_draw, discard), kinds in groups.items():
        shown = t("wait.many", locale, n=len(kinds)) if len(kinds) > MANY_WAITS \
            else tiles_text(kinds, locale, caishen=caishen)
        parts.append(t("wait.group", locale, tiles=shown,
                       value=_wait_value(rules, self_draw, discard, locale)))
    return t("wait.groups_sep", locale).join(parts)


def _wait_value(rules: str, self_draw: int | None, discard: int | None,
                locale: LocaleLike) -> str:
    """What a wait's win is worth, and how it may come when not either way alike."""
    if self_draw is not None and (discard is None or discard == self_draw):
        value = value_text(rules, self_draw, locale)
        return value if discard is not None else t("wait.self_draw", locale, value=value)
    assert discard is not None  # a wait is a win one way at least
    if self_draw is None:
        return t("wait.discard", locale, value=value_text(rules, discard, locale))
    return t("wait.both", locale, self_draw=value_text(rules, self_draw, locale),
             discard=value_text(rules, discard, locale))


# Words for a hand's value by what the rule set says it counts (`RuleSet.value_unit`):
# 花 added up (Shanghai H), or a multiplier (Hangzhou F).
_UNIT_WORDS = {"花": "hua", "×": "times"}


def value_text(rules: str, value: int, locale: LocaleLike) -> str:
    """A win's worth in the rule set's unit: "40 花", "×4"."""
    return unit_value_text(RULESETS[rules].value_unit, value, locale)


def unit_value_text(unit: str, value: int, locale: LocaleLike) -> str:
    return t(f"value.{_UNIT_WORDS[unit]}", locale, value=value)


def rules_name(rules: str, locale: LocaleLike) -> str:
    return t(f"rules.{rules}", locale)


def wind_name(seat: int, dealer: int | None, locale: LocaleLike) -> str:
    """The seat's wind (East is the dealer); before the first deal, the seat's own."""
    wind = SEAT_WINDS[(seat - (dealer or 0)) % 4]
    return wind.zh[0] if lang(locale) == "zh" else wind.en.split()[0]


def timestamp(unix: float, style: str = "R") -> str:
    """A Discord timestamp, shown in each reader's own time zone and language."""
    return f"<t:{int(unix)}:{style}>"


# ---------------------------------------------------------------------------
# The tile in play


def claimed_tile(table: TableView) -> Tile | None:
    """The tile now in a claim window, if any: the discard, or the tile of an added kong
    that may be robbed (the kong of the seat whose turn it is)."""
    if table.phase == "rob_kong":
        return _robbed_tile(table)
    if table.phase != "claim" or table.last_discard is None:
        return None
    seat, index = table.last_discard
    discards = table.seats[seat].discards
    return discards[index].tile if 0 <= index < len(discards) else None


def _robbed_tile(table: TableView) -> Tile | None:
    kongs = [m for m in table.seats[table.turn].melds if m.kind is MeldKind.ADDED_KONG]
    if not kongs:
        return None
    shown = Counter(x for x in kongs[-1].tiles if x is not None)
    return shown.most_common(1)[0][0] if shown else None


# ---------------------------------------------------------------------------
# Rules summary


def full_options(rules: str, options: Mapping[str, Any] | TableOptions | None
                 ) -> TableOptions:
    """The table's options with the defaults filled in (and validated by the engine)."""
    if isinstance(options, TableOptions):
        return options
    return RULESETS[rules].options(dict(options or {}))


def option_lines(rules: str, options: Mapping[str, Any] | TableOptions | None,
                 locale: LocaleLike) -> list[str]:
    """One line per option of the rule set, in the order of ``/mahjong new``."""
    values = full_options(rules, options).to_dict()
    return ["· " + t(f"opt.{spec.name}", locale,
                     value=option_value_text(spec.name, values[spec.name], locale))
            for spec in NEW_OPTIONS if spec.name in values and rules in spec.rules]


def rules_summary(rules: str, options: Mapping[str, Any] | TableOptions | None,
                  locale: LocaleLike) -> str:
    """``/mahjong rules``: what the rule set is about, its patterns and their values,
    every option's value (a table's, or the defaults when ``options`` is None), and how
    to read the hand picture (its legend, said in a DM once a match)."""
    patterns = [t("settle.pattern", locale, name=pattern_name(p.zh, p.en, locale),
                  value=pattern_value(p.value, locale))
                for p in RULESETS[rules].patterns.values()]
    heading = "rules.defaults" if options is None else "rules.options"
    parts = [f"**{t('rules.title', locale, rules=rules_name(rules, locale))}**",
             t(f"rules.about.{rules}", locale),
             t("rules.patterns", locale, patterns=join(patterns, locale)), "",
             t(heading, locale), *option_lines(rules, options, locale), "",
             picture_legend(rules, locale)]
    return clip("\n".join(parts), MAX_CONTENT)


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
# Direct messages and channel pings


def prompt_line(view: PlayerView, names: Sequence[str], locale: LocaleLike) -> str:
    """What is asked of this seat now, or who is being waited for."""
    table = view.table
    if table.phase == "ended":
        return t("dm.ended", locale)
    if not view.moves and table.phase in ("claim", "rob_kong"):
        return t("dm.waiting_claim", locale)  # who else may claim is theirs to know
    if not view.moves:
        waiting = [names[s] for s in table.deciding]
        return t("dm.waiting", locale, names=join(waiting, locale) or "—")
    if table.phase == "turn":
        return t("dm.turn", locale)
    tile = claimed_tile(table)
    giver = table.last_discard[0] if table.last_discard is not None else table.turn
    if table.phase == "rob_kong":
        giver = table.turn
    key = "dm.rob_kong" if table.phase == "rob_kong" else "dm.claim"
    return t(key, locale, name=names[giver], tile=tile_name(tile, locale) if tile else "?")


def hand_line(view: PlayerView, locale: LocaleLike) -> str:
    """The concealed tiles in text (the picture shows them too; text is searchable)."""
    wild = view.table.caishen
    tiles = tiles_text(view.concealed, locale, caishen=wild)
    if view.drawn is None:
        return t("dm.hand", locale, tiles=tiles)
    return t("dm.hand_drawn", locale, tiles=tiles,
             drawn=tiles_text((view.drawn,), locale, caishen=wild))


def first_discard(view: PlayerView) -> bool:
    """The seat's first discard of the match is due: the first hand, nothing discarded
    yet (the numbers are drawn only when a discard is due, for the menu)."""
    return offers_discard(view) and view.table.hand_number == 1 \
        and not view.table.seats[view.seat].discards


def legend_line(view: PlayerView, locale: LocaleLike) -> str | None:
    """What the hand picture's numbers and highlights mean, said once a match: with the
    seat's first discard (`/mahjong rules` says it again, `rules_summary`)."""
    if not first_discard(view):
        return None
    parts = [t("dm.legend.numbers", locale)]
    hint = suggested_number(view)
    if hint is not None:
        parts.append(t("dm.legend.suggested", locale, n=hint))
    if view.drawn is not None:
        parts.append(t("dm.legend.drawn", locale, n=len(held_tiles(view))))
    if view.table.caishen is not None:
        parts.append(t("dm.legend.caishen", locale))
    return t("dm.legend", locale, parts=t("dm.legend.sep", locale).join(parts)) \
        + " " + t("dm.legend.again", locale)


def picture_legend(rules: str, locale: LocaleLike) -> str:
    """The hand picture's numbers and highlights in general words (`/mahjong rules`)."""
    parts = [t("dm.legend.numbers", locale), t("legend.suggested", locale),
             t("legend.drawn", locale)]
    if any(spec.name == "caishen" and rules in spec.rules for spec in NEW_OPTIONS):
        parts.append(t("dm.legend.caishen", locale))
    return t("legend.title", locale, parts=t("dm.legend.sep", locale).join(parts))


def _asked_news(view: PlayerView, names: Sequence[str], locale: LocaleLike) -> str | None:
    """The news line a claim's question tells again ("Bob discarded Seven of Dots: claim
    it or pass.", "Bob adds … to a kong: win on it or pass."), when this seat is asked."""
    table = view.table
    if not view.moves:
        return None
    if table.phase == "claim" and table.last_discard is not None:
        tile = claimed_tile(table)
        return t("ev.discard", locale, name=names[table.last_discard[0]],
                 tile=tile_name(tile, locale) if tile else "?")
    if table.phase == "rob_kong":
        kongs = [m for m in table.seats[table.turn].melds if m.kind is MeldKind.ADDED_KONG]
        if kongs:
            shown = [x for x in kongs[-1].tiles if x is not None]
            return t("ev.added_kong", locale, name=names[table.turn],
                     tiles=tiles_text(shown, locale, caishen=table.caishen))
    return None


def dm_text(view: PlayerView, *, table_id: int, names: Sequence[str], locale: LocaleLike,
            happened: Sequence[str] = (), deadline: float | None = None,
            reminder: bool = False) -> str:
    """A seat's DM (or ephemeral ``/mahjong hand`` reply) above the picture and buttons:
    the table and hand, what just happened, what is asked, the hand, the deadline."""
    table = view.table
    head = [t("dm.header", locale, rules=rules_name(table.rules, locale), table=table_id,
              hand=table.hand_number)]
    if reminder:
        head.append(t("dm.reminder", locale))
    prompt = prompt_line(view, names, locale)
    said = _asked_news(view, names, locale)
    if happened and said is not None and happened[-1] == said:
        happened = happened[:-1]  # the question says it again: told once
    tail = [prompt, hand_line(view, locale)]
    if table.caishen is not None:
        tail.append(t("dm.caishen", locale, tile=tile_label(table.caishen, locale)))
    legend = legend_line(view, locale)
    if legend:
        tail.append(legend)
    if view.waits and not any(m.action.kind is ActionKind.DISCARD for m in view.moves):
        tail.append(t("dm.waits", locale, tiles=waits_text(view.waits, view.table.rules, locale,
                                                           caishen=table.caishen)))
    if deadline is not None and view.moves:
        tail.append(t("dm.deadline", locale, when=timestamp(deadline, "R"),
                      at=timestamp(deadline, "f")))
    return fit(head, happened, tail)


def fit(head: Sequence[str], news: Sequence[str], tail: Sequence[str],
        limit: int = MAX_CONTENT) -> str:
    """Join head, news and tail lines within ``limit``: the oldest news goes first, so
    the question and the deadline are never lost to a long story."""
    news = list(news)
    text = "\n".join([*head, *news, *tail])
    while len(text) > limit and news:
        news.pop(0)
        text = "\n".join([*head, *news, *tail])
    return clip(text, limit)


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


def dm_closed_text(mention: str, locale: LocaleLike) -> str:
    """Posted in the channel when a DM is refused (50007): reveals nothing."""
    return t("dm.closed", locale, mention=mention)


# ---------------------------------------------------------------------------
# Settlement, scores and the table caption (public: no concealed tile but a winner's)


def amount_text(amount: Fraction | int) -> str:
    """A signed payment: "+120", "−40", "−3.5", "0" (3.5 shares can make halves)."""
    value = Fraction(amount)
    if value == 0:
        return "0"
    sign = "+" if value > 0 else "−"
    magnitude = abs(value)
    digits = str(magnitude.numerator) if magnitude.denominator == 1 \
        else f"{float(magnitude):g}"
    return sign + digits


def amounts_text(names: Sequence[str], amounts: Sequence[Fraction | int],
                 locale: LocaleLike) -> str:
    return join([t("settle.amount", locale, name=names[i], amount=amount_text(a))
                 for i, a in enumerate(amounts)], locale)


def pattern_name(zh: str, en: str, locale: LocaleLike) -> str:
    """The rules README: show the Chinese name and an English gloss (清一色 Full Flush);
    a Chinese reader gets the Chinese name alone."""
    return zh if lang(locale) == "zh" else f"{zh} {en}"


_ZH_VALUE_WORDS = ((" each", " 每个"), (" shares", " 份"), (" share", " 份"))


def pattern_value(value: str, locale: LocaleLike) -> str:
    """A pattern's value as the rules page writes it ("1 喇", "×2 each", "3 shares"),
    its English words put in Chinese for a Chinese reader."""
    if lang(locale) == "zh":
        for en, zh in _ZH_VALUE_WORDS:
            value = value.replace(en, zh)
    return value


# Factors that change nothing when they are 1 are left out of a formula (底分 1, one
# ordinary share, 庄闲分 1 between two non-dealers); liability shares always show.
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
        return t(f"factor.hand.{_UNIT_WORDS[unit]}", locale, value=value)
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
                  value=pattern_value(p.value, locale)) for p in win.patterns]
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


def best_hand_text(row: LeaderboardRow, locale: LocaleLike) -> str | None:
    """A player's best hand: its patterns named and its value ("清一色 · 20 花"); a row
    written before hands were kept as data shows its old description."""
    best = row.best_hand or _old_best_hand(row.best_hand_desc, row.best_hand_value)
    if best is None or best.rules not in RULESETS:
        return row.best_hand_desc
    known = RULESETS[best.rules].patterns
    names = []
    for pid, count in Counter(best.patterns).items():  # 豪华 and 财飘 can repeat
        name = pattern_name(known[pid].zh, known[pid].en, locale) if pid in known else pid
        names.append(name if count == 1 else t("best.repeat", locale, name=name, count=count))
    return t("best.hand", locale, patterns=join(names, locale) or t("best.plain", locale),
             value=value_text(best.rules, best.value, locale))


_OLD_PLAIN_WIN = "胡 Win"


def _old_best_hand(desc: str | None, value: int | None) -> BestHand | None:
    """A best hand stored before they were kept as data: its bilingual pattern labels
    ("清一色 Full Flush 碰碰胡 All Pungs") read back into one rule set's pattern ids, or
    "胡 Win", a win without a pattern (only Hangzhou has those); None if it reads as
    neither."""
    if desc is None or value is None:
        return None
    if desc == _OLD_PLAIN_WIN:
        plain = [r.name for r in RULESETS.values() if not r.needs_qualifying_pattern]
        return BestHand(plain[0], (), value) if len(plain) == 1 else None
    for rules, ruleset in RULESETS.items():
        labels = sorted(((p.label(), p.id) for p in ruleset.patterns.values()),
                        key=lambda x: -len(x[0]))  # the longest label first
        rest, found = desc, []
        while rest:
            match = next(((label, pid) for label, pid in labels
                          if rest == label or rest.startswith(label + " ")), None)
            if match is None:
                break
            found.append(match[1])
            rest = rest[len(match[0]):].lstrip(" ")
        if found and not rest:
            return BestHand(rules, tuple(found), value)
    return None


def board_title(rules: str, locale: LocaleLike) -> str:
    """A leaderboard's title: its rule set, and the unit its points are in."""
    return f"{t('board.title', locale, rules=rules_name(rules, locale))} · " \
           f"{t(f'board.unit.{rules}', locale)}"


def leaderboard_text(rows: Sequence[Any], locale: LocaleLike, *, rules: str | None = None,
                     others: Sequence[str] = ()) -> str:
    """``/mahjong leaderboard``: rows with display_name, points, hands_won, hands_played
    and rules (the store's LeaderboardRow), best first as given, all of one rule set
    (``rules``, else the rows'); ``others``: the channel's other boards, named."""
    rules = rules or (rows[0].rules if rows else None)
    if not rows:
        empty = t("reply.leaderboard.empty", locale) if rules is None else \
            t("reply.leaderboard.rules_empty", locale, rules=rules_name(rules, locale))
        lines = [empty]
    else:
        assert rules is not None
        lines = [f"**{board_title(rules, locale)}**"]
    tail = [t("reply.leaderboard.others", locale,
              boards=join([rules_name(r, locale) for r in others], locale))] if others else []
    for i, r in enumerate(rows):
        key = "reply.leaderboard.row.one" if r.hands_played == 1 else "reply.leaderboard.row"
        line = t(key, locale, rank=i + 1, name=r.display_name,
                 points=amount_text(r.points), won=r.hands_won, hands=r.hands_played)
        if sum(len(x) + 1 for x in lines + tail) + len(line) > MAX_CONTENT:
            break  # the best rows come first: drop the tail
        lines.append(line)
    return "\n".join(lines + tail)


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
