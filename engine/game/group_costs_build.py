"""Writes `engine/game/group_costs.bin`, the cost of every group a hand can hold
(`engine.game.held.group_cost`), from the analysis's own search (`_solve`)::

    python -m engine.game.group_costs_build [PATH]

One byte a group, indexed by its base-5 code (a kind's count times five to the power
of its place): ``melds * 4 + extra + 1``, ``melds`` the fewest 财神 that make the group
melds alone and ``extra`` (-1 to 2) how many more with the pair; `UNKNOWN` for a code
of more than `engine.shapes.MAX_TILES` tiles. The suits' 1,953,125 codes, then the honours' 78,125,
compressed. Deterministic; a few minutes (the search of 483,000 groups): that is why it
is not done at import. tests/game/test_held.py holds the committed file to the search."""

from __future__ import annotations

import sys
import zlib
from pathlib import Path

from engine.analysis import _solve
from engine.game.held import COSTS_MAGIC as MAGIC
from engine.game.held import UNKNOWN_COST as UNKNOWN
from engine.shapes import every_group

KINDS = (9, 7)
"""A suit's kinds, the honours' kinds: the two tables, in that order."""


def encoded(melds: int, with_pair: int) -> int:
    extra = with_pair - melds
    if not -1 <= extra <= 2 or not 0 <= melds < 63:
        raise ValueError(f"a cost out of the byte's range: {melds}, {with_pair}")
    return melds * 4 + extra + 1


def table(kinds: int, honours: bool) -> bytes:
    out = bytearray([UNKNOWN]) * 5 ** kinds
    search = _solve.__wrapped__  # type: ignore[attr-defined]  # the lru_cache'd function
    known: dict[tuple[tuple[int, ...], bool], int] = {}

    def solve(key: tuple[int, ...], need_pair: bool, _honours: bool) -> int:
        # Unbounded while building (the memo's bound would evict what the next
        # groups need again).
        cost = known.get((key, need_pair))
        if cost is None:
            cost = known[key, need_pair] = search(key, need_pair, honours)
        return cost

    import engine.analysis as analysis
    bounded = analysis._solve
    analysis._solve = solve  # type: ignore[assignment]  # its recursion reads the global
    try:
        for code, key in every_group(kinds):
            out[code] = encoded(solve(key, False, honours), solve(key, True, honours))
    finally:
        analysis._solve = bounded
    return bytes(out)


def build() -> bytes:
    return zlib.compress(MAGIC + b"".join(table(kinds, honours)
                                          for kinds, honours in zip(KINDS, (False, True),
                                                                    strict=True)), 9)


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else \
        Path(__file__).with_name("group_costs.bin")
    path.write_bytes(build())
    print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
