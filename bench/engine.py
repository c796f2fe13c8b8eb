"""Engine benchmark: ``python bench/engine.py`` prints lines ``NAME VALUE UNIT``.

Times the win check (`is_complete`) with 0–4 wildcards, the waits of a 13-tile hand
(`HandAnalysis(...).waits()`, Hangzhou fixed 财神), the score calculator on the shared
cases, and the PyPI ``mahjong`` package's ``Agari.is_agari`` for comparison. Hands are
built constructively from a seeded `random.Random`: complete hands (four melds and a
pair) and hands one tile away from complete (a complete hand with one tile swapped for
a random one). All memo caches are warmed by one untimed pass first; that pass is
reported as ``cold_first_pass_ms`` so nobody is fooled by warm numbers. Every engine
memo is bounded (`engine.memo`); its entries and hit rate are printed at the end.

Goals: win check median <= 10 us and p99 <= 50 us, waits median <= 300 us,
win check ratio vs mahjong <= 1.
"""

from __future__ import annotations

import glob
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, TypeVar

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine import analysis, memo
from engine.analysis import STANDARD_ONLY, HandAnalysis, Wildcards, is_complete
from engine.tiles import NUM_KINDS, Tile

SEED = 20261130
HANDS_PER_LEVEL = 1000
MAX_JOKERS = 4
REPEATS = 5
LOOP = 5
CASES_GLOB = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "cases", "*.json")

# Natural kinds: everything but the White Dragon, which is the fixed-mode 财神.
NATURAL_KINDS = [k for k in range(NUM_KINDS) if k != Tile.WHITE]
CHOW_STARTS = [s * 9 + r for s in range(3) for r in range(7)]


# ---------------------------------------------------------------------------
# Hand construction


def complete_hand(rng: random.Random) -> list[int]:
    """Fourteen natural tiles (no 5z) forming four melds and a pair, <= 4 copies."""
    while True:
        counts = [0] * NUM_KINDS
        tiles: list[int] = []
        for _ in range(4):
            if rng.random() < 0.5:
                start = rng.choice(CHOW_STARTS)
                group = [start, start + 1, start + 2]
            else:
                group = [rng.choice(NATURAL_KINDS)] * 3
            for t in group:
                counts[t] += 1
            tiles.extend(group)
        pair = rng.choice(NATURAL_KINDS)
        counts[pair] += 2
        tiles.extend([pair, pair])
        if max(counts) <= 4:
            rng.shuffle(tiles)
            return tiles


def near_hand(rng: random.Random) -> list[int]:
    """A complete hand with one tile swapped for a random other natural tile."""
    while True:
        tiles = complete_hand(rng)
        idx = rng.randrange(len(tiles))
        new = rng.choice(NATURAL_KINDS)
        if new == tiles[idx]:
            continue
        tiles[idx] = new
        if tiles.count(new) <= 4:
            rng.shuffle(tiles)
            return tiles


def with_jokers(tiles: list[int], jokers: int, rng: random.Random) -> tuple[list[int], int]:
    """Replace ``jokers`` random tiles by 财神: natural counts and the joker count."""
    keep = list(tiles)
    rng.shuffle(keep)
    keep = keep[jokers:]
    counts = [0] * NUM_KINDS
    for t in keep:
        counts[t] += 1
    return counts, jokers


class Hands(NamedTuple):
    """The hands timed, by wildcard count: win checks' counts, waits' 13 tiles."""

    win: dict[int, list[tuple[list[int], int]]]
    waits: dict[int, list[tuple[Tile, ...]]]
    agari: list[list[int]]
    """The wildcard-free winning hands' counts, for the mahjong package comparison."""


def build(rng: random.Random) -> Hands:
    data = Hands({}, {}, [])
    for w in range(MAX_JOKERS + 1):
        win_hands = []
        for i in range(HANDS_PER_LEVEL):
            tiles = complete_hand(rng) if i % 2 == 0 else near_hand(rng)
            win_hands.append(with_jokers(tiles, w, rng))
        data.win[w] = win_hands
        wait_hands = []
        for i in range(HANDS_PER_LEVEL):
            tiles = complete_hand(rng) if i % 2 == 0 else near_hand(rng)
            tiles.pop(rng.randrange(len(tiles)))  # 13 tiles: ready, or one away
            counts, jokers = with_jokers(tiles, w, rng)
            physical = tuple([Tile(k) for k, n in enumerate(counts) for _ in range(n)]
                             + [Tile.WHITE] * jokers)
            wait_hands.append(physical)
        data.waits[w] = wait_hands
    data.agari.extend(c for i, (c, _) in enumerate(data.win[0]) if i % 2 == 0)
    return data


# ---------------------------------------------------------------------------
# Timing


A = TypeVar("A")
B = TypeVar("B")
R = TypeVar("R")


def calling(fn: Callable[[A], R], a: A) -> Callable[[], R]:
    """``fn(a)`` as a function of no arguments, what `per_call_ns` times."""
    return lambda: fn(a)


def calling2(fn: Callable[[A, B], R], a: A, b: B) -> Callable[[], R]:
    """``fn(a, b)`` as a function of no arguments, what `per_call_ns` times."""
    return lambda: fn(a, b)


def per_call_ns(fn: Callable[[], object], loop: int = LOOP, repeats: int = REPEATS) -> float:
    """The fastest of ``repeats`` runs of ``loop`` calls, per call."""
    best: int | None = None
    clock = time.perf_counter_ns
    for _ in range(repeats):
        start = clock()
        for _ in range(loop):
            fn()
        elapsed = clock() - start
        if best is None or elapsed < best:
            best = elapsed
    assert best is not None, "repeats >= 1"
    return best / loop


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def emit(name: str, value: float, unit: str) -> None:
    print(f"{name} {value:.3f} {unit}" if isinstance(value, float) else f"{name} {value} {unit}")


def load_cases() -> list[dict[str, Any]]:
    paths = sorted(glob.glob(CASES_GLOB))
    cases: list[dict[str, Any]] = []
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        cases.extend(data if isinstance(data, list) else [data])
    return cases


def memo_entries() -> int:
    """Entries in the engine's memo caches (each bounded: `engine.memo`)."""
    return sum(cache.size for cache in memo.stats())


def emit_memos() -> None:
    """Every engine memo: its entries against its bound, and its hit rate so far."""
    for cache in memo.stats():
        short = cache.name.removeprefix("engine.")
        emit(f"memo_{short}_entries", cache.size, f"of_{cache.maxsize}")
        if cache.hit_rate is not None:  # a `PlainMemo` does not count its hits
            emit(f"memo_{short}_hit_rate", cache.hit_rate, "ratio")


def main() -> int:
    rng = random.Random(SEED)
    data = build(rng)
    fixed = Wildcards.fixed()
    uncached_waits = memo.uncached(analysis._waits)

    def compute_waits(tiles: tuple[Tile, ...]) -> frozenset[Tile]:
        return uncached_waits(tuple(sorted(tiles)), (), fixed, STANDARD_ONLY)

    def remembered_waits(tiles: tuple[Tile, ...]) -> frozenset[Tile]:
        return HandAnalysis(tiles, wildcards=fixed).waits()

    cases = load_cases()
    score_case: Callable[[Mapping[str, Any]], dict[str, Any]] | None
    try:
        from engine.score import score_case
    except ImportError:  # pragma: no cover - the calculator is part of the engine
        score_case = None

    # One warm-up pass over everything with cold memo caches, reported as a whole
    # (and its slowest single calls, which is what a fresh process pays at worst).
    clock = time.perf_counter_ns
    cold_win = cold_waits = 0
    start = clock()
    for w in range(MAX_JOKERS + 1):
        for counts, jokers in data.win[w]:
            t0 = clock()
            is_complete(counts, jokers)
            cold_win = max(cold_win, clock() - t0)
        for physical in data.waits[w]:
            t0 = clock()
            HandAnalysis(physical, wildcards=fixed).waits()
            cold_waits = max(cold_waits, clock() - t0)
    if score_case is not None:
        for case in cases:
            score_case(case)
    emit("cold_first_pass_ms", (clock() - start) / 1e6, "ms")
    emit("cold_win_check_max_us", cold_win / 1000, "us")
    emit("cold_waits_max_us", cold_waits / 1000, "us")
    emit("memo_entries_after_warmup", memo_entries(), "entries")
    emit("hands_per_level", HANDS_PER_LEVEL, "hands")

    win_medians: dict[int, float] = {}
    for w in range(MAX_JOKERS + 1):
        times = [per_call_ns(calling2(is_complete, counts, jokers)) / 1000
                 for counts, jokers in data.win[w]]
        win_medians[w] = statistics.median(times)
        emit(f"win_check_median_us_w{w}", win_medians[w], "us")
        emit(f"win_check_p99_us_w{w}", p99(times), "us")
        if w == 0:
            winning = times[0::2]
            emit("win_check_median_us_w0_winning_only", statistics.median(winning), "us")

    for w in range(MAX_JOKERS + 1):
        # The waits of a hand are memoised whole: time the computation behind the memo
        # (what a hand not seen before costs), and a look-up that finds it.
        times = [per_call_ns(calling(compute_waits, physical), loop=1, repeats=3) / 1000
                 for physical in data.waits[w]]
        emit(f"waits_median_us_w{w}", statistics.median(times), "us")
        emit(f"waits_p99_us_w{w}", p99(times), "us")
        remembered = [per_call_ns(calling(remembered_waits, physical), loop=1, repeats=3) / 1000
                      for physical in data.waits[w]]
        emit(f"waits_remembered_median_us_w{w}", statistics.median(remembered), "us")

    if score_case is None or not cases:
        print("score_case_median_us skipped (no engine.score or no shared cases)")
    else:
        times = [per_call_ns(calling(score_case, case), loop=1, repeats=5) / 1000
                 for case in cases]
        emit("score_case_median_us", statistics.median(times), "us")
        emit("score_cases", len(cases), "cases")

    emit_memos()
    try:
        from mahjong.agari import Agari
    except ImportError:
        print("mahjong_is_agari skipped: the PyPI 'mahjong' package is not installed")
        return 0
    agari = Agari()
    for counts in data.agari:  # warm, like ours
        agari.is_agari(counts)
    times = [per_call_ns(calling(agari.is_agari, counts)) / 1000 for counts in data.agari]
    theirs = statistics.median(times)
    emit("mahjong_is_agari_median_us", theirs, "us")
    emit("mahjong_is_agari_p99_us", p99(times), "us")
    for w in range(MAX_JOKERS + 1):
        emit(f"win_check_ratio_vs_mahjong_w{w}", win_medians[w] / theirs, "x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
