"""Benchmark of self-play's secrecy check alone (never a timed test).

    python bench/secrecy.py [--hands N] [--baseline REV] [--rounds N]

Computer players play N seeded hands of each rule set; every state is checked with
`engine.selfplay.check_secrecy`, and only the check is timed. Prints ``NAME VALUE UNIT``:
- ``check_after_choice_median_us_<rules>``: the check of a state the computer has
  already chosen on (what it remembers, its legal moves and unseen count, is there: the
  check's own cost, as self-play now runs it). Goal ≤ 30 µs.
- ``check_before_choice_median_us_<rules>``: the check of a fresh state (as self-play
  ran it up to a787041: it then paid for what the computer asks next).
- ``check_states_<rules>``: how many states were checked.
- ``one_view_median_us_<rules>``: `engine.view.view` of the deciding seat alone, on a
  state the computer has chosen on and nothing was viewed of yet: what the table
  service pays for one seat's picture (up to f76331f every view made all four).
- ``check_instructions_per_state_<rules>`` (with ``SECRECY_VALGRIND=N`` in the
  environment, valgrind installed): the check counted in instructions, which a shared
  machine's load does not move: N seeded hands played under ``valgrind --tool=callgrind``
  with and without the check (after the choice), the difference divided by the states.

Each pass starts from empty engine memos. With ``--baseline REV`` the engine of git
revision REV (exported to a temporary directory) and this one are measured in turn,
``--rounds`` times each, alternating, and printed side by side (``round<N> NAME BEFORE NOW
UNIT``, one line a figure a round): on a shared machine only alternated runs compare.
"""

from __future__ import annotations

import os
import random
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

if Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:  # run as a script
    # The checkout on the path instead of this folder (whose discord.py, engine.py and
    # render.py are not those packages): `bench.baseline` is read from it.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.baseline import ENGINE_ROOT_FLAG, engine_root, hands_and_rounds_main, use_engine_root

use_engine_root()

from engine import memo, rules  # noqa: E402
from engine.ai import choose_action  # noqa: E402
from engine.game import apply, deciding_seats, new_hand  # noqa: E402
from engine.game.state import HandState, Phase  # noqa: E402
from engine.selfplay import check_secrecy  # noqa: E402
from engine.view import view  # noqa: E402


def seeded_states(rules_name: str, hands: int, chosen: Callable[[HandState], None]
                  ) -> Iterator[HandState]:
    """Every state of ``hands`` seeded hands, from empty engine memos; ``chosen`` is
    called on each once the computer has chosen its action (before it is applied)."""
    memo.clear()
    rng = random.Random(11)
    for _ in range(hands):
        wall = rules.get(rules_name).tile_set()
        rng.shuffle(wall)
        state, _ = new_hand(rules_name, {}, tuple(wall), rng.randrange(4), (3, 4))
        while state.phase is not Phase.ENDED:
            yield state
            action = choose_action(state, deciding_seats(state)[0], rng)
            chosen(state)
            state, _ = apply(state, action)


def check_times(rules_name: str, hands: int, after_choice: bool) -> list[float]:
    """Microseconds of each state's check over ``hands`` seeded hands."""
    times: list[float] = []
    if after_choice:
        for _ in seeded_states(rules_name, hands, lambda s: times.append(_timed_check(s))):
            pass
    else:
        for state in seeded_states(rules_name, hands, lambda s: None):
            times.append(_timed_check(state))
    return times


def _timed_check(state: HandState) -> float:
    started = time.perf_counter_ns()
    check_secrecy(state)
    return (time.perf_counter_ns() - started) / 1000


def one_view_times(rules_name: str, hands: int) -> list[float]:
    """Microseconds of the deciding seat's view alone, each state as the service has
    it once the computer (or the player's buttons) asked for its moves."""
    times: list[float] = []

    def timed_view(state: HandState) -> None:
        seat = deciding_seats(state)[0]
        started = time.perf_counter_ns()
        view(state, seat)
        times.append((time.perf_counter_ns() - started) / 1000)
    for _ in seeded_states(rules_name, hands, timed_view):
        pass
    return times


def measure(hands: int) -> None:
    for rules_name in rules.RULESETS:
        for after_choice, label in ((True, "after"), (False, "before")):
            times = check_times(rules_name, hands, after_choice)
            print(f"check_{label}_choice_median_us_{rules_name} "
                  f"{statistics.median(times):.1f} us", flush=True)
        print(f"check_states_{rules_name} {len(times)} states", flush=True)
        print(f"one_view_median_us_{rules_name} "
              f"{statistics.median(one_view_times(rules_name, hands)):.1f} us", flush=True)
        counted = int(os.environ.get(VALGRIND_HANDS, "0"))
        if counted:
            print(f"check_instructions_per_state_{rules_name} "
                  f"{instructions_per_check(rules_name, counted)} instructions", flush=True)


VALGRIND_HANDS = "SECRECY_VALGRIND"
PLAY_FLAG = "--play-for-valgrind"
"""The hidden option of a child run played under valgrind: RULES HANDS checked|plain."""


def instructions_per_check(rules_name: str, hands: int) -> int:
    """Instructions of the check a state: ``hands`` hands under callgrind with checks
    after the choice, less the same hands without, over the states checked."""
    counts = []
    for mode in ("checked", "plain"):
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
             sys.executable, __file__, ENGINE_ROOT_FLAG, str(engine_root()), PLAY_FLAG,
             rules_name, str(hands), mode],
            env={**os.environ, "PYTHONHASHSEED": "0"}, check=True, capture_output=True,
            text=True)
        collected = re.search(r"Collected : (\d+)", run.stderr)
        if collected is None:
            raise SystemExit(f"valgrind printed no count: {run.stderr[-500:]}")
        counts.append((int(collected.group(1)), int(run.stdout.split()[-1])))
    (checked, states), (plain, _) = counts
    return round((checked - plain) / states)


def play_for_valgrind(rules_name: str, hands: int, checked: bool) -> None:
    states = [0]

    def chosen(state: HandState) -> None:
        states[0] += 1
        if checked:
            check_secrecy(state)
    for _ in seeded_states(rules_name, hands, chosen):
        pass
    print(states[0])


if __name__ == "__main__":
    if PLAY_FLAG in sys.argv:
        where = sys.argv.index(PLAY_FLAG)
        name, count, mode = sys.argv[where + 1:where + 4]
        play_for_valgrind(name, int(count), mode == "checked")
    else:
        hands_and_rounds_main(__file__, measure, default_hands=30)
