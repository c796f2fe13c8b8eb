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

Each pass starts from empty engine memos. With ``--baseline REV`` the engine of git
revision REV (exported to a temporary directory) and this one are measured in turn,
``--rounds`` times each, alternating, and printed side by side (``round<N> NAME BEFORE NOW
UNIT``, one line a figure a round): on a shared machine only alternated runs compare.
"""

from __future__ import annotations

import random
import statistics
import time

from baseline import hands_and_rounds_main, use_engine_root

use_engine_root()

from engine import memo, rules  # noqa: E402
from engine.ai import choose_action  # noqa: E402
from engine.game import apply, deciding_seats, new_hand  # noqa: E402
from engine.game.state import Phase  # noqa: E402
from engine.selfplay import check_secrecy  # noqa: E402


def check_times(rules_name: str, hands: int, after_choice: bool) -> list[float]:
    """Microseconds of each state's check over ``hands`` seeded hands."""
    memo.clear()
    rng = random.Random(11)
    times = []
    for _ in range(hands):
        wall = rules.get(rules_name).tile_set()
        rng.shuffle(wall)
        state, _ = new_hand(rules_name, {}, tuple(wall), rng.randrange(4), (3, 4))
        while state.phase is not Phase.ENDED:
            if not after_choice:
                times.append(_timed_check(state))
            action = choose_action(state, deciding_seats(state)[0], rng)
            if after_choice:
                times.append(_timed_check(state))
            state, _ = apply(state, action)
    return times


def _timed_check(state: object) -> float:
    started = time.perf_counter_ns()
    check_secrecy(state)  # type: ignore[arg-type]
    return (time.perf_counter_ns() - started) / 1000


def measure(hands: int) -> None:
    for rules_name in rules.RULESETS:
        for after_choice, label in ((True, "after"), (False, "before")):
            times = check_times(rules_name, hands, after_choice)
            print(f"check_{label}_choice_median_us_{rules_name} "
                  f"{statistics.median(times):.1f} us", flush=True)
        print(f"check_states_{rules_name} {len(times)} states", flush=True)


if __name__ == "__main__":
    hands_and_rounds_main(__file__, measure, default_hands=30)
