"""What a seat's concealed tiles amount to under the hand's 财神: derived from the seat's
hand and melds alone, kept with the seat record (`SeatState.held`) until its hand or
melds change, and never stored. A claim window asks it of three seats per discard, and
a seat that did not move is the same record from one state to the next.

The shape questions ("complete?", "one tile from complete?", "won on this tile?") are
answered from the cost of each of the hand's four groups (three suits, honours): the
fewest 财神 that turn the group's tiles into melds, without and with the pair. A draw
or a discard changes one group, so only that group's cost is looked up again; the
answers are then a few additions (tests/game/test_held.py holds them against
`engine.analysis`'s `is_winning` and `is_winning_with`)."""

from __future__ import annotations

import functools
from bisect import bisect_left
from collections.abc import Sequence
from typing import NamedTuple

from engine.analysis import ShapeRules, Wildcards
from engine.analysis import _group_cost as analysis_group_cost  # the memoised core
from engine.melds import Meld, MeldKind
from engine.memo import IdentityMemo, bounded
from engine.shapes import read_bundled
from engine.tiles import NUM_KINDS, Tile

_HONOURS_START = Tile.EAST
"""The first kind that is no suit's (the suits' 27 kinds come first)."""
_GROUPS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))
"""Each group's kinds (from, to) and whether they are honours (no runs)."""
_GROUP_OF = tuple(kind // 9 if kind < _HONOURS_START else 3 for kind in range(NUM_KINDS))

_PLACE = tuple(3 * (kind - _GROUPS[_GROUP_OF[kind]][0]) for kind in range(NUM_KINDS))
"""Where a kind's count sits in its group's packed key: three bits a kind (a count
never reaches eight)."""
_HONOURS_KEY = 1 << 30
"""Set in the honours group's key (above any count): the key alone then says which kind
of group it is, and `group_cost` is looked up by one int (`functools.lru_cache` keys a
single int argument by itself, where two arguments cost a tuple a call)."""


def packed(counts: Sequence[int], group: int) -> int:
    """A group's counts as one int (`_PLACE`, with `_HONOURS_KEY` for the honours): a
    draw or a discard adds to it or takes from it, and it is a cheap key to look the
    group's cost up by."""
    lo, hi, honours = _GROUPS[group]
    return sum(n << _PLACE[kind] for kind, n in enumerate(counts[lo:hi], lo)) | \
        (_HONOURS_KEY if honours else 0)


def _packed_hand(counts: Sequence[int]) -> int:
    """All 34 kinds' counts as one int, three bits a kind in kind order (`_GROUP_KEY`
    takes a group's `packed` key out of it)."""
    whole = 0
    for kind, n in enumerate(counts):
        if n:
            whole += n << 3 * kind
    return whole


_GROUP_KEY = tuple((3 * lo, (1 << 3 * (hi - lo)) - 1, _HONOURS_KEY if honours else 0)
                   for lo, hi, honours in _GROUPS)
"""Each group's place in a hand's packed counts (shift, mask) and its key's mark: a
group's `packed` key is ``packed >> shift & mask | mark``."""
_ODD_BITS = sum(1 << 3 * kind for kind in range(NUM_KINDS))
"""The lowest bit of every kind's count in a hand's packed counts: set for an odd one."""


def _group_key(whole: int, group: int) -> int:
    shift, mask, mark = _GROUP_KEY[group]
    return whole >> shift & mask | mark


@bounded(maxsize=1 << 13)
def group_cost(key: int) -> tuple[int, int]:
    """The fewest 财神 that turn one group's tiles into melds, and how many more (or
    fewer) it takes with the pair as well. ``key``: the group's `packed` counts (a
    suit's nine kinds, or the seven honours, marked by `_HONOURS_KEY`).

    Read from the bundled table of every group a hand can hold (`group_costs.bin`,
    written from the analysis's own search by `engine.game.group_costs_build`): a
    search here cost about 3,000 Python operations, and until the memo holds a
    process's groups (a few thousand), it was about 40 % of the moves' cost. A group
    the table cannot hold (a kind counted more than four times) is searched.
    tests/game/test_held.py holds both to asking `is_all_melds` / `is_complete` joker
    number by joker number."""
    honours = key & _HONOURS_KEY
    counts = key & _COUNTS_MASK
    if counts & _HIGH_BITS & (counts << 1 | counts << 2):
        return _searched(key)  # a count above four: no place in the table
    code = _HONOURS_START_CODE if honours else 0
    for place, power in _CODE_PLACES:
        code += (counts >> place & 7) * power
    cost = _group_costs_table()[code]
    if cost == UNKNOWN_COST:
        return _searched(key)
    return cost >> 2, (cost & 3) - 1


def _searched(key: int) -> tuple[int, int]:
    """`group_cost` by the analysis's search of the group alone (`engine.analysis`'s
    memoised group cost; the search's pair may be two 财神 of its own)."""
    honours = bool(key & _HONOURS_KEY)
    counts = tuple([key >> place & 7 for place in _KEY_PLACES[honours]])
    melds, with_pair = analysis_group_cost(counts, honours)
    return melds, with_pair - melds


_KEY_PLACES = (tuple(range(0, 27, 3)), tuple(range(0, 21, 3)))
"""Where each kind's count sits in a suit's key and in the honours' key."""
_CODE_PLACES = tuple((3 * i, 5 ** i) for i in range(9))
"""Each kind's place in a key and its power of five in the table's base-5 code (the
honours' two missing kinds read as none)."""
_COUNTS_MASK = (1 << 27) - 1
_HIGH_BITS = sum(4 << 3 * i for i in range(9))
"""The four's bit of each count: with the two's or the one's, a count above four."""
_HONOURS_START_CODE = 5 ** 9
"""Where the honours' codes start in the table (after the suits')."""


COSTS_MAGIC = b"mahjong-group-costs 1\n"
"""How `group_costs.bin` begins (its format's version)."""
UNKNOWN_COST = 255
"""A table entry for a code of no group a hand can hold (more than 14 tiles)."""


@functools.cache
def _group_costs_table() -> bytes:
    """The table, read once, at the first group the memo does not hold."""
    table = read_bundled("engine.game", "group_costs.bin", COSTS_MAGIC,
                         "engine.game.group_costs_build")
    if len(table) != 5 ** 9 + 5 ** 7:
        raise ValueError("engine/game/group_costs.bin is cut short or too long")
    return table


def preload_tables() -> None:
    """Read the bundled group-cost table now (about 18 ms), rather than at the first
    group the memo does not hold, which is otherwise a process's first move after a
    restart: for a server to call as it starts. Reading it again costs nothing."""
    _group_costs_table()


def fewest_jokers(melds: int, pairs: Sequence[int]) -> int:
    """Fewest 财神 that make the whole hand melds and one pair: ``melds``, the groups'
    costs as melds alone, added up, and the pair in one of the groups (its ``pairs``
    extra) or (two 财神) on its own."""
    return melds + min(min(pairs), 2)


class _Basis(NamedTuple):
    """What stays the same from one draw or discard to the next: the hand's 财神, shapes
    and melds, and what follows from them. (A named tuple: a restored seat makes one
    when its tiles are first counted, and a frozen dataclass's ``__init__`` costs
    several times as much.)"""

    wildcards: Wildcards
    shapes: ShapeRules
    melds: tuple[Meld, ...]
    plays: tuple[Tile | None, ...]
    """What each tile plays as (`Wildcards.plays_as`), by tile."""
    full: int
    """Concealed tiles of a complete hand: 14 less three a meld."""
    seven_pairs: bool
    """Seven pairs may complete it (the rule set allows them, and no meld is laid)."""
    jumble_melds: bool
    """The melds leave an honours jumble possible (the rule set allows one, and every
    meld is of honours)."""
    pong_faces: frozenset[Tile | None]
    """What the tiles of the pongs play as (None: a 财神 that plays as nothing): a tile
    the hand holds of one of them, or a 财神, may add to a pong (an added kong)."""

    @classmethod
    def of(cls, wildcards: Wildcards, shapes: ShapeRules, melds: tuple[Meld, ...]
           ) -> _Basis:
        plays = plays_table(wildcards)
        pongs = [m for m in melds if m.kind is MeldKind.PONG]
        return cls(wildcards, shapes, melds, plays, 14 - 3 * len(melds),
                   shapes.seven_pairs and not melds,
                   shapes.honours_jumble and all(t.is_honor for m in melds for t in m.tiles),
                   frozenset(plays[t] for m in pongs for t in m.tiles) if pongs else _NO_FACES)


_NO_FACES: frozenset[Tile | None] = frozenset()
"""The pong faces of melds without a pong: one value (each basis would make its own)."""
_PLAYS: IdentityMemo[tuple[Tile | None, ...]] = IdentityMemo("engine.game.held.plays", 64)


def plays_table(wildcards: Wildcards) -> tuple[Tile | None, ...]:
    """What each tile plays as under ``wildcards`` (`Wildcards.plays_as`), by tile: one
    table a hand's 财神 (memoised by which `Wildcards` it is)."""
    return _PLAYS.get(wildcards, None, lambda: tuple(
        wildcards.plays_as(tile) for tile in Tile))

_SHAPE = ("packed", "keys", "melds_cost", "pairs", "odd", "suited", "complete", "completable")
"""`HeldTiles`' values worked out from the counts (`HeldTiles.worked_out`)."""
_MARKS = ("claim_marks", "next_marks", "marks")
"""`HeldTiles`' kinds it may claim (`HeldTiles.mark_claims`)."""


class HeldTiles:
    """A seat's concealed tiles counted on the natural kinds they play as.

    ``split`` is `Wildcards.split` of the hand: the natural counts and the number of
    财神. Its list is shared by every question asked of this seat and never changed.

    The shape (`_SHAPE`), worked out only when a question needs it (`worked_out`):
    ``packed``, the counts as one int (three bits a kind, `_packed_hand`), which holds
    each group's `packed` key; ``melds_cost``, the groups' `group_cost`s as melds alone
    added up, and ``pairs`` each group's extra for the pair; ``odd``: the kinds counted
    an odd number of times (seven pairs); ``suited``: the concealed tiles that are no
    honour (an honours jumble). ``complete``: the tiles are a winning shape
    (`is_winning`); ``completable``: some tile would make them one (`is_winning_with` of
    some tile; False: no discard or robbed kong can be won on).

    Three levels, each set at once or left for the first question that needs it:
    ``split`` always; ``packed`` (``keyed``), which a draw or a discard (`moved`) moves
    by one addition when the tiles before it had it; ``shaped`` (the rest), never moved
    but worked out from ``packed`` (four look-ups) by `worked_out`. A draw also knows
    ``complete`` without the costs when the tiles before it knew whether they were
    ``completable`` (``answered``: ``complete`` and ``completable`` are set). So a move
    costs its count alone, and a seat's shape is worked out at most once a hand change,
    when a claim check or the self-draw offer first asks it (a seat restored from a
    snapshot and never asked costs only its count). Read the answers through
    `is_complete` / `worked_out`: an unset value raises AttributeError rather than
    answer wrongly. ``concealed`` is in tile order, as a seat's hand is.

    A class with slots: one is made per draw and per discard, and it is never compared,
    stored or pickled (a seat's derived value). No ``__getattr__``: with one, every
    attribute read of the class takes Python 3.11's slow path.
    """

    __slots__ = ("wildcards", "shapes", "concealed", "melds", "split", "basis", "keyed",
                 "shaped", "answered", "marked", *_SHAPE, *_MARKS)
    wildcards: Wildcards
    shapes: ShapeRules
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    split: tuple[list[int], int]
    basis: _Basis
    keyed: bool
    """Whether ``packed`` is set."""
    shaped: bool
    """Whether every value of the shape is set (else `worked_out` works them out)."""
    answered: bool
    """Whether ``complete`` and ``completable`` are set."""
    marked: bool
    """Whether ``claim_marks`` and ``next_marks`` are set (`mark_claims`)."""
    packed: int
    keys: tuple[int, int, int, int]
    """Each group's `packed` key (the honours' marked), as `group_cost` takes it."""
    melds_cost: int
    pairs: list[int]
    odd: int
    suited: int
    complete: bool
    completable: bool
    claim_marks: tuple[int, int, int, int]
    next_marks: tuple[int, int, int, int]
    marks: tuple[tuple[int, int, int, int], tuple[int, int, int, int]]
    """``claim_marks`` and ``next_marks``, in that order: indexed by whether the seat
    may chi the discard."""

    @classmethod
    def of(cls, concealed: tuple[Tile, ...], melds: tuple[Meld, ...], wildcards: Wildcards,
           shapes: ShapeRules) -> HeldTiles:
        """The tiles counted afresh; their shape is left to `worked_out`."""
        held = _new(cls)
        held.wildcards, held.shapes, held.concealed, held.melds = \
            wildcards, shapes, concealed, melds
        held.split = wildcards.split(concealed)
        held.basis = _Basis.of(wildcards, shapes, melds)
        held.keyed = held.shaped = held.answered = held.marked = False
        return held

    def is_of(self, concealed: tuple[Tile, ...], melds: tuple[Meld, ...],
              wildcards: Wildcards, shapes: ShapeRules) -> bool:
        """Whether these are the counts of the very values given (by identity: a seat
        keeps its counts in its record, and its copies carry them, used only while they
        count the copy's own hand and melds: `SeatState.held`)."""
        return self.concealed is concealed and self.melds is melds and \
            self.wildcards is wildcards and self.shapes is shapes

    def worked_out(self) -> HeldTiles:
        """These tiles with their shape's values set (`_SHAPE`): worked out from
        ``packed`` (counted first when not kept) now if nothing asked them yet."""
        if self.shaped:
            return self
        counts, jokers = self.split
        if not self.keyed:
            self.packed = _packed_hand(counts)
            self.keyed = True
        whole = self.packed
        self.keys = keys = (whole & _SUIT_MASK, whole >> 27 & _SUIT_MASK,
                            whole >> 54 & _SUIT_MASK, whole >> 81 | _HONOURS_KEY)
        m0, p0 = group_cost(keys[0])
        m1, p1 = group_cost(keys[1])
        m2, p2 = group_cost(keys[2])
        m3, p3 = group_cost(keys[3])
        self.melds_cost = melds_cost = m0 + m1 + m2 + m3
        self.pairs = [p0, p1, p2, p3]
        self.odd = odd = (whole & _ODD_BITS).bit_count()
        concealed = self.concealed
        # The hand is in tile order, the suits' kinds first.
        self.suited = suited = bisect_left(concealed, _HONOURS_START)
        basis = self.basis
        short = basis.full - len(concealed)  # 0: a complete hand's size, 1: one short
        shaped = False
        if short == 0 or short == 1:
            jokers += short  # the missing tile as one more 财神 (`completable`)
            shaped = melds_cost + min(p0, p1, p2, p3, 2) <= jokers or \
                (basis.seven_pairs and odd <= jokers) or (basis.jumble_melds and not suited)
        self.complete = shaped and short == 0
        self.completable = shaped and short == 1
        self.shaped = self.answered = True
        return self

    def fills_four(self) -> bool:
        """Whether some face is held four times, 财神 filling in (a concealed kong may
        be made of it). Told from ``packed`` when kept (three bits a count: a count of
        four or more has its four's bit), else from the counts."""
        counts, jokers = self.split
        if jokers >= 4:
            return True
        if not self.keyed:
            return max(counts) + jokers >= 4
        whole = self.packed
        at_least = whole >> 2  # each count's four's bit, in its one's place
        if jokers:
            twos = whole >> 1
            # three or more: the four's bit, or the two's and the one's; two or more:
            # the four's or the two's; one or more: any of them
            at_least |= twos & whole if jokers == 1 else twos if jokers == 2 else \
                twos | whole
        return bool(at_least & _ODD_BITS)

    def is_complete(self) -> bool:
        """``complete``: known from the draw itself, or worked out now."""
        return self.complete if self.answered else self.worked_out().complete

    def moved(self, tile: Tile, concealed: tuple[Tile, ...], step: int) -> HeldTiles:
        """These tiles with ``step`` (1 or -1) more ``tile`` (``concealed``: the hand
        then): the counts and, when kept, ``packed`` moved by the one tile; the shape
        is left to `worked_out`, but a draw (``step`` 1) onto tiles whose answers are
        known knows whether it completes them."""
        counts, jokers = self.split
        basis = self.basis
        new = _new(HeldTiles)
        new.wildcards = self.wildcards
        new.shapes = self.shapes
        new.melds = self.melds
        new.concealed = concealed
        new.basis = basis
        new.shaped = new.marked = False
        face = basis.plays[tile]
        new.keyed = keyed = self.keyed
        if face is None:
            new.split = (counts, jokers + step)
            if keyed:
                new.packed = self.packed
        else:
            counts = counts.copy()
            counts[face] += step
            new.split = (counts, jokers)
            if keyed:
                new.packed = self.packed + (step << 3 * face)
        if step == 1 and self.answered:
            # The tiles before the draw were one short (or are not a hand's size, and
            # neither are these): complete exactly when the drawn tile completes them.
            new.complete = self.completable and self._completed_by(tile)
            new.completable = False
            new.answered = True
        else:
            new.answered = False
        return new

    def wins_on(self, tile: Tile) -> bool:
        """`is_winning_with` ``tile``: false at once when the hand is not `completable`,
        else told from the costs with the tile in its group."""
        if not self.answered:
            self.worked_out()
        return self.completable and self._completed_by(tile)

    def _completed_by(self, tile: Tile) -> bool:
        """Only of tiles that are ``completable`` (and so ``shaped``)."""
        basis = self.basis
        if basis.jumble_melds and not self.suited and tile >= _HONOURS_START:
            return True
        jokers = self.split[1]
        face = basis.plays[tile]
        if face is None:  # one more 财神
            return fewest_jokers(self.melds_cost, self.pairs) <= jokers + 1 or \
                (basis.seven_pairs and self.odd <= jokers + 1)
        group = _GROUP_OF[face]
        key = _group_key(self.packed, group)
        before, after = group_cost(key), group_cost(key + (1 << _PLACE[face]))
        pairs = self.pairs.copy()
        pairs[group] = after[1]
        odd = self.odd - 1 if self.split[0][face] & 1 else self.odd + 1
        return fewest_jokers(self.melds_cost - before[0] + after[0], pairs) <= jokers or \
            (basis.seven_pairs and odd <= jokers)

    def may_claim(self, tile: Tile, face: Tile | None, chi: bool) -> bool:
        """Whether the hand could claim ``tile``, which plays as ``face`` (None: it is a
        财神, or a robbed kong, which only a win may take): a win on it, or two tiles to
        pong it with, or with ``chi`` two to chi it with (财神 fill any place). False:
        no claim on it is worth enumerating."""
        if face is not None:
            counts, jokers = self.split
            if counts[face] + jokers >= 2:
                return True
            suited = face < _HONOURS_START
            if chi and suited and _may_chi(counts, jokers, face):
                return True
            # Tiles whose answers are not known yet: with no 财神, a tile that makes no
            # pair and no run with a tile held joins no group of a complete hand (only
            # the honours jumble takes any honour), so there is no win on it, and no
            # need to work the shape out to say so. (The jumble asks the tile itself:
            # a white dragon standing in for a suited 财神 is an honour there.)
            if not self.answered and not jokers and not counts[face] and \
                    not (suited and neighbours(counts, face)) and \
                    not (tile >= _HONOURS_START and self.shapes.honours_jumble):
                return False
        if not self.answered:
            self.worked_out()
        return self.completable and self._completed_by(tile)

    def mark_claims(self) -> HeldTiles:
        """These tiles with ``claim_marks`` and ``next_marks`` (and ``marks``, the two
        together) set: for each group (three
        suits, honours) a small int, a bit a kind of it (`KIND_MARK` says which group and
        bit), clear for each kind whose discard `may_claim` refuses, of a seat not next
        to the discarder (``claim_marks``: no pong and no win) or next to it
        (``next_marks``: no chi either). A set bit says only "ask `may_claim`": pongs and
        chis are marked exactly, wins (none unless the tiles are one from complete) by
        what they could join. Worked out once a hand change, from each group's marks
        (`group_marks`, memoised by the group's key): a seat's tiles change at its draw
        and its discard, and they are asked on each of the other three seats' discards
        in between."""
        if self.marked:
            return self
        if not self.shaped:
            self.worked_out()  # the group keys and ``completable``
        k0, k1, k2, k3 = self.keys
        jokers = self.split[1]
        v = jokers if jokers < 2 else 2
        pong0, chi0, near0 = group_marks(k0)[v]
        pong1, chi1, near1 = group_marks(k1)[v]
        pong2, chi2, near2 = group_marks(k2)[v]
        pong3, _, near3 = group_marks(k3)[v]
        if self.completable:
            if self.shapes.honours_jumble and not jokers:
                jumble = self._jumble_marks()
                near0, near1, near2, near3 = \
                    near0 | jumble[0], near1 | jumble[1], near2 | jumble[2], near3 | jumble[3]
            pong0, pong1, pong2, pong3 = \
                pong0 | near0, pong1 | near1, pong2 | near2, pong3 | near3
        self.claim_marks = claim = (pong0, pong1, pong2, pong3)
        self.next_marks = after = (pong0 | chi0, pong1 | chi1, pong2 | chi2, pong3)
        self.marks = (claim, after)
        self.marked = True
        return self

    def _jumble_marks(self) -> list[int]:
        """Each group's kinds that honour tiles play as (the honours jumble takes any
        honour, the white dragon too when it stands in for a suited 财神)."""
        plays = self.basis.plays
        marks = [0, 0, 0, 0]
        for tile in _HONOUR_TILES:
            face = plays[tile]
            if face is not None:
                group, bit = KIND_MARK[face]
                marks[group] |= bit
        return marks


KIND_MARK = tuple((_GROUP_OF[kind], 1 << _PLACE[kind] // 3) for kind in range(NUM_KINDS))
"""A kind's group and its bit among the group's marks (`HeldTiles.mark_claims`)."""
_HONOUR_TILES = tuple(tile for tile in Tile if tile.is_honor)
_Marks = tuple[int, int, int]
"""A group's pongs, chis and kinds it could win on (`group_marks`)."""


@bounded(maxsize=1 << 13)
def group_marks(key: int) -> tuple[_Marks, _Marks, _Marks]:
    """The kinds of one group (``key``, as `group_cost` takes it) that its tiles can
    pong, chi and could win on (a win on a kind neither held nor, in a suit, one or two
    ranks from one held needs a 财神: the tile would join no group), a bit a kind, with
    no 财神, one, and two or more (which fill any place)."""
    honours = bool(key & _HONOURS_KEY)
    kinds = 7 if honours else 9
    counts = [key >> 3 * rank & 7 for rank in range(kinds)]
    every = (1 << kinds) - 1
    once = two = runs = near = 0
    for rank in range(kinds):
        bit = 1 << rank
        once |= bit if counts[rank] else 0
        two |= bit if counts[rank] >= 2 else 0
        if not honours:
            b2, b1, a1, a2 = (0 <= rank + step < 9 and counts[rank + step] > 0
                              for step in (-2, -1, 1, 2))
            runs |= bit if (b2 and b1) or (b1 and a1) or (a1 and a2) else 0
            near |= bit if b2 or b1 or a1 or a2 else 0
    if honours:
        return (two, 0, once), (once, 0, every), (every, 0, every)
    return (two, runs, once | near), (once, near, every), (every, every, every)


_SUIT_MASK = (1 << 27) - 1
"""A suit's nine counts in a hand's packed counts (`_GROUP_KEY`, written out)."""


_new = object.__new__


def neighbours(counts: Sequence[int], face: Tile) -> int:
    """Tiles of a suited ``face``'s suit one or two ranks from it."""
    suit_start = face - face % 9
    return sum(counts[max(suit_start, face - 2):face]) + \
        sum(counts[face + 1:min(suit_start + 9, face + 3)])


def _may_chi(counts: Sequence[int], jokers: int, face: Tile) -> bool:
    """Whether a run of three with the suited ``face`` can be made of the hand's tiles,
    财神 filling the ranks it lacks."""
    rank = face % 9
    # The ranks two below to two above held (a rank outside the suit never is), and
    # the three runs with the face: below it, around it, above it (inside the suit).
    b2 = rank >= 2 and counts[face - 2] > 0
    b1 = rank >= 1 and counts[face - 1] > 0
    a1 = rank <= 7 and counts[face + 1] > 0
    a2 = rank <= 6 and counts[face + 2] > 0
    return (rank >= 2 and 2 - b2 - b1 <= jokers) or \
        (1 <= rank <= 7 and 2 - b1 - a1 <= jokers) or \
        (rank <= 6 and 2 - a1 - a2 <= jokers)
