"""Complete per-group tables for the shanten the computer player weighs, and their algebra.

A group (a suit's nine kinds, or the seven honours) is given by its *code*: its counts
as one base-5 number, the first kind the lowest digit (a count is at most four). A draw
or a discard then adds or takes one power of five, and the group's value is one index
into a table of bytes, with no key to build and no memo to miss.

What a group is worth to the standard shape is its *vector*: for ``k`` = 0..4 blocks
(melds or partial melds) the group may fill, the most of ``2 * melds + partials`` it
holds within them, without the pair (``2k``) and with it, the pair counting one more
(``2k + 1``; `NO_PAIR` when the group holds none). Worked out from the group's
(melds, partials, pair) options (`engine.analysis`'s `_partials`), the 405,350 suits of
at most fourteen tiles have 69 distinct vectors and the honours 24: each table entry is
a vector's number (`shapes.bin`, written by `engine.shapes_build` and checked against
the live computation by tests/engine/test_shapes.py).

Groups combine by `merge` (a max-plus convolution over the blocks and the one pair,
memoised: the vectors met in play are a few hundred), and a hand of ``natural`` tiles
with ``blocks`` melds still to make needs at least `needed` tiles: the larger of what
its tile count leaves short and ``2 * blocks + 1`` less its merged value. That is the
same number as the (melds, partials, pair) count the analysis takes the least of over
every combination (`engine.analysis._fewest_needed`): its loose-tile term is the
smaller of two bounds, each a sum that cancels to one of these.
"""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Iterable, Iterator

NO_PAIR = -99
"""A vector's value with the pair when the group(s) hold no pair (any sum with it stays
below every real value)."""
KINDS_IN_SUIT = 9
KINDS_IN_HONOURS = 7
MAX_TILES = 14
"""The most tiles of one group a table holds (a whole hand); codes of more tiles, or
with a count of five, are worked out live (`engine.shape_tables.vector_id`)."""
UNKNOWN = 255
"""A table entry for a code the table does not hold."""
POWERS = tuple(5 ** i for i in range(KINDS_IN_SUIT))
"""A kind's place in a group's code."""
MAGIC = b"mahjong-shapes 1\n"
BLOCKS = 5
"""Vectors cover 0..4 blocks (four melds to make at most)."""

Vector = tuple[int, ...]
"""``2 * blocks + pair`` entries (`BLOCKS` × 2)."""


def vector_of(options: Iterable[tuple[int, int, int]]) -> Vector:
    """A group's vector from its (melds, partials, pair) options."""
    out: list[int] = []
    listed = list(options)
    for k in range(BLOCKS):
        alone = with_pair = NO_PAIR
        for melds, partials, pair in listed:
            used = min(melds, k)
            value = 2 * used + min(partials, k - used)
            if value > alone:
                alone = value
            if pair and value + 1 > with_pair:
                with_pair = value + 1
        out += (alone, with_pair)
    return tuple(out)


def _merged_vector(a: Vector, b: Vector) -> Vector:
    """Two groups' vectors as one: the blocks shared out between them, the pair in one."""
    out: list[int] = []
    for k in range(BLOCKS):
        for pair in (0, 1):
            best = NO_PAIR
            for k1 in range(k + 1):
                k2 = 2 * (k - k1)
                first = 2 * k1
                value = a[first] + b[k2 + pair]
                if pair:
                    value = max(value, a[first + 1] + b[k2])
                if value > best:
                    best = value
            out.append(best if best >= 0 else NO_PAIR)  # no pair on either side
    return tuple(out)


class Vectors:
    """Every vector met, numbered: the tables' own first, then merged ones as they come
    (at most the finite number of vectors a hand can merge to; `bench/choice.py` prints
    how many)."""

    def __init__(self, vectors: list[Vector], pairs: bytes = b"") -> None:
        """``pairs``: what each pair of ``vectors`` merges to (``a * count + b``), if
        known (the file's closure)."""
        self.vectors: list[Vector] = []
        self.values: list[tuple[int, ...]] = []
        self.ids: dict[Vector, int] = {}
        self.merged: dict[int, int] = {}
        for vector in vectors:
            self.number(vector)
        if pairs:
            count = len(vectors)
            self.merged.update(((a << 16 | b), pairs[a * count + b])
                               for a in range(count) for b in range(count))

    def number(self, vector: Vector) -> int:
        known = self.ids.get(vector)
        if known is not None:
            return known
        number = self.ids[vector] = len(self.vectors)
        self.vectors.append(vector)
        # The value with ``blocks`` to make: with the pair or without.
        self.values.append(tuple(max(vector[2 * k], vector[2 * k + 1]) for k in range(BLOCKS)))
        return number

    def merge(self, a: int, b: int) -> int:
        key = a << 16 | b
        known = self.merged.get(key)
        if known is None:
            known = self.merged[key] = self.merged[b << 16 | a] = self.number(
                _merged_vector(self.vectors[a], self.vectors[b]))
        return known


def needed(value: int, natural: int, blocks: int) -> int:
    """Fewest tiles a hand of ``natural`` tiles needs for ``blocks`` melds and a pair,
    its groups' merged value ``value``; its standard shanten is this less the jokers and
    one (at least -1)."""
    short = 3 * blocks + 2 - natural
    by_value = 2 * blocks + 1 - value
    return short if short > by_value else by_value


def code_of(counts: Iterable[int]) -> int:
    """A group's code from its counts (the first kind the lowest digit)."""
    return sum(n * p for n, p in zip(counts, POWERS, strict=False))


def every_group(kinds: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Each group of ``kinds`` kinds and at most `MAX_TILES` tiles, as (code, counts),
    in the order of its counts read from the last kind (the builders' tables are
    written in this order, so the same engine writes the same bytes)."""
    # itertools.product varies the last digit fastest; the code's lowest digit is the
    # first kind, so each key is read reversed.
    for digits in itertools.product(range(5), repeat=kinds):
        if sum(digits) <= MAX_TILES:
            key = digits[::-1]
            yield code_of(key), key


def read_bundled(package: str, name: str, magic: bytes, builder: str) -> bytes:
    """The bundled table file ``name`` of ``package``, inflated, after its ``magic``
    first line (refused with what to do when it is not there)."""
    # Imported here: `importlib.resources` costs a process that never reads a table
    # (one that restores and replays only, say) more than a table's whole read.
    from importlib import resources
    data = zlib.decompress(resources.files(package).joinpath(name).read_bytes())
    if not data.startswith(magic):
        where = f"{package.replace('.', '/')}/{name}"
        raise ValueError(f"{where} is not the table it should be (rebuild it with "
                         f"python -m {builder})")
    return data[len(magic):]
