"""Picture benchmark: ``python bench/render.py`` prints lines ``NAME VALUE UNIT``.

Renders the samples of `render.samples` to PNG bytes: a 14-tile hand, an 18-tile hand
with four kongs and flowers, a late-game table, a settlement card and a 20-row
leaderboard; and a `/mahjong replay` frame as a press makes it: a self-played hand
replayed by the engine from its deal to its last step, then drawn with every hand open
(``replay_frame``; ``replay_frame_engine``: the replay alone). Each is rendered once
untimed (sprite and font caches warm, as in a running bot), then `RUNS` times; the
median time and the PNG size are reported.

Goals: hand <= 15 ms and <= 120 KB; table <= 40 ms and <= 300 KB.

``NAME_cpu_median_ms`` is the same median in CPU time (this process's), which a loaded
machine moves less than the wall clock. ``--baseline REV``: first the same cases on the
pictures of git revision REV (a temporary worktree), their lines named
``NAME_before_REV``; ``--code DIR`` measures the checkout DIR (how ``--baseline`` does it).
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(sys.argv[sys.argv.index("--code") + 1]).resolve()
                       if "--code" in sys.argv[:-1] else ROOT))

from engine import rules  # noqa: E402
from engine.ai import choose_action  # noqa: E402
from engine.game import Action, HandState, apply, deciding_seats, new_hand, replay  # noqa: E402
from engine.game.state import Phase  # noqa: E402
from engine.tiles import Tile  # noqa: E402
from render import samples  # noqa: E402
from render.cards import leaderboard_card, settlement_card  # noqa: E402
from render.hand import hand_image  # noqa: E402
from render.table import table_image  # noqa: E402

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
    try:  # a revision before /mahjong replay (``--baseline``) has no frame to draw
        from engine.view import open_view
        from render.table import open_table_image
    except ImportError:
        return
    rules, wall, actions = _played_hand()

    def replayed() -> HandState:
        return replay(rules, {}, wall, (3, 5), 0, actions)

    _case("replay_frame_engine", lambda: bytes(len(replayed().seats)))
    _case("replay_frame", lambda: open_table_image(open_view(replayed()), samples.NAMES))


def _played_hand(seed: int = 7) -> tuple[str, tuple[Tile, ...], list[Action]]:
    """A Hangzhou hand played by computer players to its end: its wall and actions."""
    rng = random.Random(seed)
    wall = rules.get("hangzhou").tile_set()
    rng.shuffle(wall)
    state, _ = new_hand("hangzhou", {}, tuple(wall), 0, (3, 5))
    actions = []
    while state.phase is not Phase.ENDED:
        action = choose_action(state, deciding_seats(state)[0], rng)
        actions.append(action)
        state, _ = apply(state, action)
    return "hangzhou", tuple(wall), actions


def measure(make: Callable[[], bytes]) -> tuple[float, float, int]:
    """Median milliseconds over RUNS after one warm-up (wall clock, then this process's
    CPU time), and the PNG size in bytes."""
    data = make()
    times, cpu = [], []
    for _ in range(RUNS):
        start, start_cpu = time.perf_counter(), time.process_time()
        data = make()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(times) * 1000, statistics.median(cpu) * 1000, len(data)


def baseline(rev: str) -> None:
    """This bench on the pictures of git revision ``rev``, its lines renamed."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet",
                        str(tree), rev], check=True)
        try:
            out = subprocess.run([sys.executable, __file__, "--code", str(tree)],
                                 check=True, capture_output=True, text=True).stdout
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(tree)], check=True)
    for line in out.splitlines():
        name, *rest = line.split()
        print(" ".join([f"{name}_before_{rev}", *rest]), flush=True)


def main() -> None:
    if "--baseline" in sys.argv[:-1]:
        baseline(sys.argv[sys.argv.index("--baseline") + 1])
    _cases()
    for name, make in CASES.items():
        ms, cpu_ms, size = measure(make)
        print(f"{name}_median_ms {ms:.1f} ms")
        print(f"{name}_cpu_median_ms {cpu_ms:.1f} ms")
        print(f"{name}_bytes {size} bytes")


if __name__ == "__main__":
    main()
