"""``python bench/pieces.py``: CPU per table picture as a bot draws them, whole or from
kept pieces (`render.pieces`); prints lines ``NAME VALUE UNIT``.

The pictures are the spectator views of seeded whole hands (both rule sets), several
tables at once taking turns, as the bot's one public picture process sees them: every
state of each table (``every_1``), or every 4th (``every_4``: the bot's table edits
are coalesced, about one table picture per four clicks in ``bench/discord.py``).
Each is drawn both ways, alternately: ``whole`` is `render_table` then `draw.png` (the
way every table picture was drawn before the pieces), ``pieces`` is `table_image`.
Printed: the median and mean CPU per picture of each (this process's CPU time, which a
loaded machine moves less than the wall clock), the pieces' hit rate and the bytes
they keep. ``--tables N`` (default 8) tables at once; ``--seeds N`` (default 4) hands per
rule set and table.

``bench/render.py``'s table case draws one picture again and again: with the pieces
every part is then kept, so it measures a picture that did not change at all.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import rules
from engine.ai import choose_action
from engine.game import apply, deciding_seats, new_hand
from engine.game.state import Phase
from engine.tiles import full_set
from engine.view import TableView, spectator_view
from render import samples
from render.draw import png
from render.table import PIECES, render_table, table_image


def hand_views(ruleset: str, seed: int) -> list[TableView]:
    rng = random.Random(seed)
    wall = full_set(rules.get(ruleset).has_flowers)
    rng.shuffle(wall)
    state, _ = new_hand(ruleset, None, tuple(wall), seed % 4, (3, 4))
    out = [spectator_view(state)]
    while state.phase is not Phase.ENDED:
        state, _ = apply(state, choose_action(state, deciding_seats(state)[0], rng))
        out.append(spectator_view(state))
    return out


def interleaved(tables: int, seeds: int, step: int) -> list[tuple[int, TableView]]:
    """(table, view) in drawing order: the tables take turns, each on its own hands."""
    queues = []
    for t in range(tables):
        views = [v for s in range(seeds) for r in ("shanghai", "hangzhou")
                 for v in hand_views(r, 1000 * t + s)]
        queues.append([(t, v) for v in views[::step]])
    out = []
    for i in range(max(map(len, queues))):
        out += [q[i] for q in queues if i < len(q)]
    return out


def whole(view: TableView, names: tuple[str, ...]) -> bytes:
    return png(render_table(view, names)[0], shared=True)


def cpu_ms(draw: Callable[[TableView, tuple[str, ...]], object], view: TableView,
           names: tuple[str, ...]) -> float:
    start = time.process_time()
    draw(view, names)
    return (time.process_time() - start) * 1000


def measure(order: list[tuple[int, TableView]], prefix: str) -> None:
    times: dict[str, list[float]] = {"whole": [], "pieces": []}
    hits, misses = PIECES.hits, PIECES.misses
    for i, (t, view) in enumerate(order):
        names = tuple(f"{n}{t}" for n in samples.NAMES)
        ways = [("whole", whole), ("pieces", table_image)]
        for name, draw in ways if i % 2 else ways[::-1]:
            times[name].append(cpu_ms(draw, view, names))
    for name, values in times.items():
        print(f"{prefix}.{name}_cpu_median_ms {statistics.median(values):.2f} ms")
        print(f"{prefix}.{name}_cpu_mean_ms {statistics.fmean(values):.2f} ms")
    kept = PIECES.hits - hits
    print(f"{prefix}.pieces_kept_pct {100 * kept / (kept + PIECES.misses - misses):.1f} %")
    print(f"{prefix}.pictures {len(order)} count")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seeds", type=int, default=4)
    args = parser.parse_args()
    table_image(samples.table_start(), samples.NAMES)  # fonts, palette, sprites warm
    whole(samples.table_start(), samples.NAMES)
    for step in (1, 4):
        measure(interleaved(args.tables, args.seeds, step), f"every_{step}")
    print(f"pieces_kept_bytes {PIECES.kept_bytes / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
