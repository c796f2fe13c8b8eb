"""Picture benchmark: ``python bench/render.py`` prints lines ``NAME VALUE UNIT``.

Renders the samples of `render.samples` to PNG bytes: a 14-tile hand, an 18-tile hand
with four kongs and flowers, a late-game table, a settlement card and a 20-row
leaderboard. Each is rendered once untimed (sprite and font caches warm, as in a
running bot), then `RUNS` times; the median time and the PNG size are reported.

Goals: hand <= 15 ms and <= 120 KB; table <= 40 ms and <= 300 KB.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from render import samples
from render.cards import leaderboard_card, settlement_card
from render.hand import hand_image
from render.table import table_image

RUNS = 25

CASES: dict[str, Callable[[], bytes]] = {}


def _case(name: str, make: Callable[[], bytes]) -> None:
    CASES[name] = make


def _cases() -> None:
    h14, h18 = samples.hand_14(), samples.hand_four_kongs()
    late = samples.table_late()
    result = samples.settlement_shanghai()
    rows = samples.leaderboard_rows(20)
    _case("hand_14", lambda: hand_image(h14))
    _case("hand_18_kongs_flowers", lambda: hand_image(h18))
    _case("table_late", lambda: table_image(late, samples.NAMES))
    _case("settlement_card", lambda: settlement_card(result, samples.NAMES, "shanghai"))
    _case("leaderboard_20", lambda: leaderboard_card(rows, "Leaderboard"))


def measure(make: Callable[[], bytes]) -> tuple[float, int]:
    """Median milliseconds over RUNS after one warm-up, and the PNG size in bytes."""
    data = make()
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        data = make()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, len(data)


def main() -> None:
    _cases()
    for name, make in CASES.items():
        ms, size = measure(make)
        print(f"{name}_median_ms {ms:.1f} ms")
        print(f"{name}_bytes {size} bytes")


if __name__ == "__main__":
    main()
