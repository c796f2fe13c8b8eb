"""The per-group tables of `engine.shapes`, read once from the bundled `shapes.bin` at
import (about 4 MB held: three tables of a byte per code, 5^9 + 5^9 + 5^7 entries), and
the vectors numbered for this process.

A code the tables leave out (a group of more than fourteen tiles, or a count of five:
the computer asking about one more of a kind it holds four of) is worked out live
(`vector_id`)."""

from __future__ import annotations

from engine.analysis import _partials
from engine.shapes import (
    BLOCKS,
    KINDS_IN_HONOURS,
    KINDS_IN_SUIT,
    MAGIC,
    UNKNOWN,
    Vector,
    Vectors,
    code_of,
    read_bundled,
    vector_of,
)


def _load() -> tuple[int, list[Vector], bytes, bytes, bytes, bytes]:
    data = read_bundled("engine", "shapes.bin", MAGIC, "engine.shapes_build")
    at = 0
    in_tables = int.from_bytes(data[at:at + 2], "little")
    count = int.from_bytes(data[at + 2:at + 4], "little")
    at += 4
    width = 2 * BLOCKS
    raw = data[at:at + count * width]
    vectors = [tuple(int.from_bytes(raw[i:i + 1], "little", signed=True)
                     for i in range(n * width, (n + 1) * width)) for n in range(count)]
    at += count * width
    pairs = data[at:at + count * count]
    at += count * count
    suit_size, honours_size = 5 ** KINDS_IN_SUIT, 5 ** KINDS_IN_HONOURS
    runs = data[at:at + suit_size]
    pungs = data[at + suit_size:at + 2 * suit_size]
    honours = data[at + 2 * suit_size:]
    if len(runs) != suit_size or len(pungs) != suit_size or len(honours) != honours_size:
        raise ValueError("engine/shapes.bin is cut short or too long")
    return in_tables, vectors, pairs, runs, pungs, honours


TABLE_NUMBERS, _VECTORS, _PAIRS, SUIT_RUNS, SUIT_PUNGS, HONOURS = _load()
"""How many vector numbers the tables hold (0 up to this); every vector their groups
merge to, and what each pair merges to; each code's vector number: a suit read with
chows, a suit read with pungs only, the honours (`UNKNOWN`: not held, see
`engine.shapes.MAX_TILES`)."""

VECTORS = Vectors(_VECTORS, _PAIRS)
EMPTY = VECTORS.number(vector_of([(0, 0, 0)]))
"""The vector of a group holding nothing (merging it changes nothing)."""
VALUES = VECTORS.values
"""By vector number, the value with 0..4 blocks to make."""
MERGED = VECTORS.merged
"""`merge`'s memo, keyed ``a << 16 | b``: every pair of the file's vectors is in it from
the start, so the computer's path looks merges up inline."""
merge = VECTORS.merge


def vector_id(table: bytes, counts: tuple[int, ...], honours: bool) -> int:
    """The vector number of a group's ``counts`` read from ``table`` (with chows unless
    ``honours``), worked out live when the table does not hold it."""
    if max(counts, default=0) <= 4:
        number: int = table[code_of(counts)]
        if number != UNKNOWN:
            return number
    return VECTORS.number(vector_of(_partials(counts, honours)))
