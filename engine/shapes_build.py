"""Writes `engine/shapes.bin`, the per-group tables of `engine.shapes`, from the live
computation (`engine.analysis`'s `_partials`)::

    python -m engine.shapes_build [PATH]

Deterministic: codes are visited in order and vectors numbered as first met, so the
same engine writes the same bytes (tests/engine/test_shapes.py checks the committed
file against the live computation). About a minute: that is why it is not done at
import."""

from __future__ import annotations

import argparse
import sys
import zlib
from pathlib import Path

from engine.analysis import _partials
from engine.shapes import (
    BLOCKS,
    KINDS_IN_HONOURS,
    KINDS_IN_SUIT,
    MAGIC,
    UNKNOWN,
    Vector,
    Vectors,
    every_group,
    vector_of,
)


def table(kinds: int, honours: bool, numbers: dict[Vector, int]) -> bytes:
    """Each code's vector number (`UNKNOWN` for a group of more than `MAX_TILES`);
    ``numbers`` gains the vectors met."""
    out = bytearray([UNKNOWN]) * 5 ** kinds
    for code, key in every_group(kinds):
        vector = vector_of(_partials(key, honours))
        number = numbers.setdefault(vector, len(numbers))
        if number >= UNKNOWN:
            raise ValueError("more vectors than a byte can number")
        out[code] = number
    return bytes(out)


def closure(table_vectors: list[Vector]) -> tuple[list[Vector], bytes]:
    """Every vector groups of the tables merge to (the tables' own first, the rest in the
    order first met), and the number each pair merges to (``a * count + b``)."""
    vectors = Vectors(table_vectors)
    frontier = list(range(len(table_vectors)))
    while frontier:
        known = len(vectors.vectors)
        for a in frontier:
            for b in range(len(table_vectors)):
                vectors.merge(a, b)
        frontier = list(range(known, len(vectors.vectors)))
    count = len(vectors.vectors)
    if count >= UNKNOWN:
        raise ValueError("more merged vectors than a byte can number")
    pairs = bytes(vectors.merge(a, b) for a in range(count) for b in range(count))
    if len(vectors.vectors) != count:
        raise ValueError("merging merged vectors met a vector the tables' merges did not")
    return vectors.vectors, pairs


def build() -> bytes:
    numbers: dict[Vector, int] = {}
    runs = table(KINDS_IN_SUIT, False, numbers)
    pungs = table(KINDS_IN_SUIT, True, numbers)
    honours = table(KINDS_IN_HONOURS, True, numbers)
    vectors, pairs = closure(list(numbers))  # a dict keeps insertion (number) order
    head = bytearray(MAGIC)
    head += len(numbers).to_bytes(2, "little") + len(vectors).to_bytes(2, "little")
    for vector in vectors:
        assert len(vector) == 2 * BLOCKS
        head += b"".join(v.to_bytes(1, "little", signed=True) for v in vector)
    return zlib.compress(bytes(head) + pairs + runs + pungs + honours, 9)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m engine.shapes_build",
        description="Write the analysis's shape tables (about a minute).")
    parser.add_argument("path", nargs="?", type=Path, metavar="PATH",
                        default=Path(__file__).with_name("shapes.bin"),
                        help="where to write them (default: engine/shapes.bin)")
    path: Path = parser.parse_args(sys.argv[1:] if argv is None else argv).path
    path.write_bytes(build())
    print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
