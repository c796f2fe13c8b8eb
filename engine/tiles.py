"""Tile values, the project's tile notation, and Chinese/English names.

A tile *kind* is a `Tile` (an `IntEnum`, so it doubles as an index into count
arrays); a set of physical tiles is just a sequence of kinds. Indices are laid out
so that the three suits are contiguous runs of nine: the hand analysis relies on it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from enum import Enum, IntEnum

from engine.refusals import Code, RefusalError, clipped


class NotationError(RefusalError):
    """Raised for text that is not valid tile notation; its code says why."""


class Suit(Enum):
    CHARACTERS = "m"
    DOTS = "p"
    BAMBOO = "s"
    HONORS = "z"
    FLOWERS = "f"


# Where the kinds' groups start (the values of EAST, WHITE, SPRING below): the tile
# properties compare with these plain ints, as looking a member up on the enum class
# costs more than the comparison (they are asked on every move's hot path).
_HONOURS_FROM = 27
_DRAGONS_FROM = 31
_FLOWERS_FROM = 34


class Tile(IntEnum):
    M1 = 0
    M2 = 1
    M3 = 2
    M4 = 3
    M5 = 4
    M6 = 5
    M7 = 6
    M8 = 7
    M9 = 8
    P1 = 9
    P2 = 10
    P3 = 11
    P4 = 12
    P5 = 13
    P6 = 14
    P7 = 15
    P8 = 16
    P9 = 17
    S1 = 18
    S2 = 19
    S3 = 20
    S4 = 21
    S5 = 22
    S6 = 23
    S7 = 24
    S8 = 25
    S9 = 26
    EAST = 27
    SOUTH = 28
    WEST = 29
    NORTH = 30
    WHITE = 31
    GREEN = 32
    RED = 33
    SPRING = 34
    SUMMER = 35
    AUTUMN = 36
    WINTER = 37
    PLUM = 38
    ORCHID = 39
    BAMBOO_FLOWER = 40
    CHRYSANTHEMUM = 41

    @property
    def suit(self) -> Suit:
        return _SUIT_OF[self]

    @property
    def rank(self) -> int:
        """1–9 for suit tiles, 1–7 for honours (1z East … 7z Red), 1–8 for flowers."""
        return _RANK_OF[self]

    @property
    def is_suited(self) -> bool:
        return self < _HONOURS_FROM

    @property
    def is_honor(self) -> bool:
        return _HONOURS_FROM <= self < _FLOWERS_FROM

    @property
    def is_wind(self) -> bool:
        return _HONOURS_FROM <= self < _DRAGONS_FROM

    @property
    def is_dragon(self) -> bool:
        return _DRAGONS_FROM <= self < _FLOWERS_FROM

    @property
    def is_flower(self) -> bool:
        return self >= _FLOWERS_FROM

    @property
    def notation(self) -> str:
        return f"{self.rank}{self.suit.value}"

    @property
    def zh(self) -> str:
        return _ZH_NAMES[self]

    @property
    def en(self) -> str:
        return _EN_NAMES[self]

    def __str__(self) -> str:
        return self.notation

    def __bool__(self) -> bool:
        # 1m has the value 0; a tile is still "something" wherever code asks `if tile`.
        return True


NUM_KINDS = 34
"""Kinds that can be in a hand (everything but flowers)."""

PLAYING_TILES: tuple[Tile, ...] = tuple(Tile(i) for i in range(NUM_KINDS))
FLOWERS: tuple[Tile, ...] = tuple(Tile(i) for i in range(Tile.SPRING, Tile.CHRYSANTHEMUM + 1))

_SUIT_LETTERS = "mpsz"
_SUIT_OF: dict[Tile, Suit] = {}
_RANK_OF: dict[Tile, int] = {}
for _t in Tile:
    if _t.value < 27:
        _SUIT_OF[_t] = Suit(_SUIT_LETTERS[_t.value // 9])
        _RANK_OF[_t] = _t.value % 9 + 1
    elif _t.value < 34:
        _SUIT_OF[_t] = Suit.HONORS
        _RANK_OF[_t] = _t.value - 26
    else:
        _SUIT_OF[_t] = Suit.FLOWERS
        _RANK_OF[_t] = _t.value - 33

_ZH_NUMERALS = "一二三四五六七八九"
_EN_NUMERALS = ("One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine")
_HONOR_ZH = ("东风", "南风", "西风", "北风", "白板", "发财", "红中")
_HONOR_EN = ("East Wind", "South Wind", "West Wind", "North Wind",
             "White Dragon", "Green Dragon", "Red Dragon")
_FLOWER_ZH = ("春", "夏", "秋", "冬", "梅", "兰", "竹", "菊")
_FLOWER_EN = ("Spring", "Summer", "Autumn", "Winter",
              "Plum", "Orchid", "Bamboo", "Chrysanthemum")
_SUIT_ZH = {Suit.CHARACTERS: "万", Suit.DOTS: "筒", Suit.BAMBOO: "条"}
_SUIT_EN = {Suit.CHARACTERS: "Characters", Suit.DOTS: "Dots", Suit.BAMBOO: "Bamboo"}

_ZH_NAMES: dict[Tile, str] = {}
_EN_NAMES: dict[Tile, str] = {}
for _t in Tile:
    if _t.is_suited:
        _ZH_NAMES[_t] = _ZH_NUMERALS[_t.rank - 1] + _SUIT_ZH[_t.suit]
        _EN_NAMES[_t] = f"{_EN_NUMERALS[_t.rank - 1]} of {_SUIT_EN[_t.suit]}"
    elif _t.is_honor:
        _ZH_NAMES[_t] = _HONOR_ZH[_t.rank - 1]
        _EN_NAMES[_t] = _HONOR_EN[_t.rank - 1]
    else:
        _ZH_NAMES[_t] = _FLOWER_ZH[_t.rank - 1]
        _EN_NAMES[_t] = f"{_FLOWER_EN[_t.rank - 1]} (flower {_t.rank})"

_BY_NOTATION: dict[str, Tile] = {t.notation: t for t in Tile}
_MAX_RANK = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}
_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}
_GROUP = re.compile(r"(\d+)([a-z])")


def tile_from_notation(text: str) -> Tile:
    """One tile such as ``"5m"``; anything else raises `NotationError`."""
    tile = _BY_NOTATION.get(text) if isinstance(text, str) else None
    if tile is not None:
        return tile  # the common case, read from logs and buttons: no parsing needed
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise NotationError(Code.ONE_TILE, n=len(tiles), text=clipped(text))
    return tiles[0]


def parse_tiles(text: str, *, allow_empty: bool = False, max_copies: bool = True) -> list[Tile]:
    """Parse compact notation (``"123m456p11z"``) into tiles, in the order written.

    Rejects unknown suits, out-of-range digits, stray characters, an empty string
    (unless ``allow_empty``) and, with ``max_copies``, more copies of a tile than a set
    holds (four, or one for a flower).
    """
    if not isinstance(text, str):
        raise NotationError(Code.NOTATION_NOT_TEXT, type=type(text).__name__)
    compact = text.replace(" ", "")
    if not compact:
        if allow_empty:
            return []
        raise NotationError(Code.NO_TILES)
    tiles: list[Tile] = []
    pos = 0
    for match in _GROUP.finditer(compact):
        if match.start() != pos:
            raise _stray(compact, pos)
        digits, letter = match.groups()
        if letter not in _MAX_RANK:
            raise NotationError(Code.SUIT_LETTER, letter=letter, text=clipped(text))
        for ch in digits:
            rank = int(ch)
            if not 1 <= rank <= _MAX_RANK[letter]:
                raise NotationError(Code.NO_SUCH_TILE, face=ch + letter, text=clipped(text),
                                    letter=letter, top=_MAX_RANK[letter])
            tiles.append(Tile(_SUIT_BASE[letter] + rank - 1))
        pos = match.end()
    if pos != len(compact):
        raise _stray(compact, pos)
    if max_copies:
        check_copies(tiles)
    return tiles


def _stray(compact: str, pos: int) -> NotationError:
    rest = compact[pos:]
    if rest[:1].isdigit():
        return NotationError(Code.NO_SUIT, text=clipped(rest))
    return NotationError(Code.STRAY, char=rest[:1], text=clipped(compact))


def check_copies(tiles: Iterable[Tile], limits: dict[Tile, int] | None = None) -> None:
    """Raise `NotationError` if any kind appears more often than a set holds."""
    for tile, n in Counter(tiles).items():
        limit = (limits or {}).get(tile, 1 if tile.is_flower else 4)
        if n > limit:
            raise NotationError(Code.COPIES, n=n, tile=tile, limit=limit)


def format_tiles(tiles: Iterable[Tile], *, sort: bool = True) -> str:
    """Compact notation, one suit letter per run: ``[M1, M2, Z1]`` -> ``"12m1z"``."""
    seq = sorted(tiles) if sort else list(tiles)
    out: list[str] = []
    run_letter = ""
    for tile in seq:
        letter = tile.suit.value
        if out and letter != run_letter:
            out.append(run_letter)
        out.append(str(tile.rank))
        run_letter = letter
    if out:
        out.append(run_letter)
    return "".join(out)


def counts_of(tiles: Iterable[Tile]) -> list[int]:
    """A 34-long count array of the non-flower tiles."""
    counts = [0] * NUM_KINDS
    for tile in tiles:
        counts[tile] += 1
    return counts


def tiles_from_counts(counts: Sequence[int]) -> list[Tile]:
    return [Tile(i) for i, n in enumerate(counts) for _ in range(n)]


def full_set(with_flowers: bool) -> list[Tile]:
    """Every physical tile of a set: 136, or 144 with the eight flowers."""
    tiles = [t for t in PLAYING_TILES for _ in range(4)]
    if with_flowers:
        tiles.extend(FLOWERS)
    return tiles
