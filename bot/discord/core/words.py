"""The adapter's shared words: tiles, waits and values in words, the rule set's name, a
seat's wind, Discord timestamps, a settlement's amounts, a pattern's value, a message
cut to fit. Each feature's own texts are with it: a DM's in `bot.discord.play.words`,
the channel's (what happened, pings, settlements, the caption) in
`bot.discord.table.words`, the leaderboard's in `bot.discord.leaderboard`, the rules
summary in `bot.discord.rules`, refusals in `bot.discord.core.refusals`.

Pure functions in the reader's locale. Every text fits Discord's 2000-character content.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction

from bot.discord.core.i18n import LocaleLike, join, lang, t
from engine.game.prospect import Wait
from engine.melds import MeldKind
from engine.rules import RULESETS
from engine.rules.common import Pattern
from engine.tiles import Tile
from engine.view import SEAT_WINDS, PatternView, TableView

MAX_CONTENT = 2000
MAX_OPTION_TEXT = 100
CAISHEN = "财神"


def clip(text: str, limit: int) -> str:
    """Cut ``text`` to ``limit`` characters with an ellipsis: never fail on a limit."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
    one counted ("九条×3"); each ``caishen`` marked as one ("白板（财神）").

    A few tiles' text is remembered (`_SHORT_TEXTS`): a click's reply and DM name single
    tiles and pairs some thirty times (each menu entry, each claim), always the same."""
    seq = tuple(tiles)
    if len(seq) > MAX_SHORT:
        return _tiles_text(seq, lang(locale), sort, caishen)
    key = (seq, lang(locale), sort, caishen)
    text = _SHORT_TEXTS.get(key)
    if text is None:
        if len(_SHORT_TEXTS) >= MAX_SHORT_TEXTS:
            _SHORT_TEXTS.clear()
        text = _SHORT_TEXTS[key] = _tiles_text(*key)
    return text


MAX_SHORT = 3
"""The most tiles whose text `tiles_text` remembers (a claim's, a menu entry's)."""
MAX_SHORT_TEXTS = 4096
"""Texts `tiles_text` remembers at most (then it forgets them all and starts again)."""
_SHORT_TEXTS: dict[tuple[tuple[Tile, ...], str, bool, Tile | None], str] = {}


def _tiles_text(tiles: tuple[Tile, ...], locale: LocaleLike, sort: bool,
                caishen: Tile | None) -> str:
    """`tiles_text`, made each time."""
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
UNIT_WORDS = {"花": "hua", "×": "times"}


def value_text(rules: str, value: int, locale: LocaleLike) -> str:
    """A win's worth in the rule set's unit: "40 花", "×4"."""
    return unit_value_text(RULESETS[rules].value_unit, value, locale)


def unit_value_text(unit: str, value: int, locale: LocaleLike) -> str:
    return t(f"value.{UNIT_WORDS[unit]}", locale, value=value)


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


def pattern_value(pattern: Pattern | PatternView, locale: LocaleLike) -> str:
    """A pattern's value as the rules page writes it ("1 喇", "×2 each", "3 shares"), or
    as the pattern says it in Chinese for a Chinese reader."""
    return pattern.value_zh if lang(locale) == "zh" else pattern.value


# Factors that change nothing when they are 1 are left out of a formula (底分 1, one
# ordinary share, 庄闲分 1 between two non-dealers); liability shares always show.
