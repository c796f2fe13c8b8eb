"""Instructions of the move path, counted by valgrind (never a timed test).

    python bench/instructions.py [--hands N] [--baseline REV]

The clock figures of `bench/game.py` move 10–25 % from one run to the next on the
2-core machine, more than most changes to the move path; the CPU instructions a run
executes do not. Each figure is counted by ``valgrind --tool=callgrind`` over a child
run of this script, less a child run that does everything before the measured part:

- ``move_instructions_k``: thousands of instructions per move of `legal_actions` (of
  the seat about to move) then `apply`, as `bench/game.py` times them: over ``N``
  hands of each rule set (default 15), first played by computer players from seeded
  walls (`bench/game.py`'s `recorded_hands`), then replayed move by move from their
  first state.
- ``legal_actions_instructions_k``: per move, one more `legal_actions` of the same
  seat in that replay, on a copy of the state that remembers nothing (so it is worked
  out again, from the same kept `HeldTiles`).

With ``--baseline REV`` the engine of git revision REV is counted first, and each line
reads ``NAME BEFORE NOW UNIT``. Needs ``valgrind`` on the PATH: three counted runs per
engine, about a minute each.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

if Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:  # run as a script
    # The checkout on the path instead of this folder (whose discord.py, engine.py and
    # render.py are not those packages): `bench.baseline` is read from it.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.baseline import ENGINE_ROOT_FLAG, engine_root, exported, use_engine_root

CHILD_FLAG = "--child"
"""The hidden option of a counted child run: what it does (``played``, ``moves`` or
``legal``)."""
SEEDED = 11


def child(what: str, hands: int) -> None:
    """The counted run: play the hands; for ``moves`` and ``legal`` replay them too
    (``legal``: with one more `legal_actions` a move); print how many moves."""
    use_engine_root()
    # A revision before a08aacb reads its bench helpers as top-level modules from its
    # bench folder (``from baseline import``): last on the path, so they shadow nothing.
    sys.path.append(str(engine_root() / "bench"))
    from bench.game import recorded_hands  # bench/game.py's hands, on the same engine
    from engine import rules
    from engine.game import apply, legal_actions
    from engine.game.state import replace

    played = [hand for number, name in enumerate(rules.RULESETS)
              for hand in recorded_hands(name, hands, SEEDED + number)]
    count = 0
    if what != "played":
        for start, moves in played:
            state = replace(start)  # nothing remembered from the first play
            for move in moves:
                if what == "legal":
                    legal_actions(replace(state), move.seat)
                legal_actions(state, move.seat)
                state, _ = apply(state, move)
                count += 1
    print(count)


def counted(what: str, hands: int, engine: str | None) -> tuple[int, int]:
    """(instructions, moves) of a child run under callgrind."""
    where = [ENGINE_ROOT_FLAG, engine] if engine else []
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         __file__, CHILD_FLAG, what, "--hands", str(hands), *where],
        check=True, capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise RuntimeError(f"callgrind said no count:\n{run.stderr[-2000:]}")
    return int(found[1]), int(run.stdout.strip())


def figures(hands: int, engine: str | None) -> dict[str, float]:
    played, _ = counted("played", hands, engine)
    replayed, moves = counted("moves", hands, engine)
    twice, _ = counted("legal", hands, engine)
    return {"move_instructions_k": (replayed - played) / moves / 1000,
            "legal_actions_instructions_k": (twice - replayed) / moves / 1000,
            "moves_counted": moves}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=15)
    parser.add_argument("--baseline", help="a git revision counted before this one")
    parser.add_argument(CHILD_FLAG, help=argparse.SUPPRESS)
    parser.add_argument(ENGINE_ROOT_FLAG, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.hands)
        return
    if shutil.which("valgrind") is None:
        sys.exit("bench/instructions.py needs valgrind")
    before = None
    if args.baseline:
        with exported(args.baseline) as tmp:
            before = figures(args.hands, str(Path(tmp)))
    now = figures(args.hands, None)
    if before is not None:
        print(f"{'figure':32} {'before':>10} {'now':>10} unit")
    for name, value in now.items():
        unit, form = ("moves", "10.0f") if name == "moves_counted" else ("k", "10.1f")
        old = "" if before is None else f"{before[name]:{form}} "
        print(f"{name:32} {old}{value:{form}} {unit}", flush=True)


if __name__ == "__main__":
    main()
