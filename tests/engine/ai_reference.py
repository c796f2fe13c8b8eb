"""Plain references for the computer player's shared, memoised judgement: each worked out
the slow, obvious way (a hand at a time, kind by kind), for the tests to hold the fast
paths to."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from engine.ai import (
    _FREE,
    _NEIGHBOURS,
    USEFUL_CANDIDATES,
    Judge,
    Target,
    _edge,
    _keep,
    _on_target,
)
from engine.analysis import _pareto, seven_pairs_shanten, standard_shanten
from engine.game.state import HandState
from engine.melds import Meld, MeldKind
from engine.tiles import NUM_KINDS, Tile


@functools.cache  # a plain memo of the counts themselves, kept for the test run
def partials_as_first_written(key: tuple[int, ...], honors: bool
                              ) -> frozenset[tuple[int, int, int]]:
    """Every (melds, partials, pair) a group can hold at once, by trying every use of its
    lowest tile on the counts as they are (no shapes, no parts)."""
    i = next((k for k, n in enumerate(key) if n), -1)
    if i < 0:
        return frozenset({(0, 0, 0)})
    lst = list(key)
    ways: list[tuple[list[int], int, int, int]] = []

    def take(*places: int) -> list[int]:
        rest = list(lst)
        for place in places:
            rest[place] -= 1
        return rest

    ways.append((take(i), 0, 0, 0))
    if key[i] >= 3:
        ways.append((take(i, i, i), 1, 0, 0))
    if key[i] >= 2:
        ways.append((take(i, i), 0, 0, 1))
        ways.append((take(i, i), 0, 1, 0))
    if not honors:
        up = key[i + 1] if i + 1 < len(key) else 0
        up2 = key[i + 2] if i + 2 < len(key) else 0
        if up and up2:
            ways.append((take(i, i + 1, i + 2), 1, 0, 0))
        if up:
            ways.append((take(i, i + 1), 0, 1, 0))
        if up2:
            ways.append((take(i, i + 2), 0, 1, 0))
    options = set()
    for rest, dm, dt, dp in ways:
        for m, t, p in partials_as_first_written(tuple(rest), honors):
            if dp + p <= 1:
                options.add((m + dm, t + dt, p + dp))
    return frozenset(_pareto(options))


def counts_shanten_as_first_written(judge: Judge, counts: Sequence[int], jokers: int,
                                    melds: int, targets: Sequence[Target]) -> int:
    """`Judge.counts_shanten` by the analysis's own shanten of the whole hand (its groups'
    structures merged), not the per-group tables the computer player reads: each
    pattern target's shanten is that of the counts it keeps."""
    if not judge.aims_for_patterns:
        best = standard_shanten(counts, jokers, 4 - melds)
        if judge.shapes.seven_pairs and not melds:
            best = min(best, seven_pairs_shanten(counts, jokers))
        return best
    found = []
    for target in targets:
        if target.honours_only:
            found.append(max(-1, 14 - 3 * melds - sum(counts[27:34]) - 1))
            continue
        kept = [n if _keep(target, k) else 0 for k, n in enumerate(counts)]
        found.append(standard_shanten(kept, 0, 4 - melds, sequences=target.sequences))
    return min(found, default=8)


def shanten_as_first_written(judge: Judge, tiles: Sequence[Tile], melds: Sequence[Meld],
                             target: Target | None = None) -> int:
    """`Judge.shanten` by `counts_shanten_as_first_written`."""
    counts, jokers = judge.split(tiles)
    targets = (target,) if target else judge.targets(melds)
    return counts_shanten_as_first_written(judge, counts, jokers, len(melds), targets)


def useful_as_first_written(judge: Judge, rest: list[Tile], melds: Sequence[Meld],
                            target: Target, now: int, unseen: Sequence[int] | None) -> int:
    """受入 of one hand, kind by kind, as the computer player first counted it."""
    counts, jokers = judge.split(rest)
    keep = [_keep(target, k) for k in range(NUM_KINDS)]
    near = sorted({n for k in range(NUM_KINDS) if counts[k] for n in _NEIGHBOURS[k]})
    useful = 0
    for kind in near:
        left = 4 - counts[kind] if unseen is None else unseen[kind]
        if not keep[kind] or left <= 0:
            continue
        counts[kind] += 1
        after = counts_shanten_as_first_written(judge, counts, jokers, len(melds), (target,))
        counts[kind] -= 1
        useful += left if after < now else 0
    return useful


def best_target_as_first_written(judge: Judge, tiles: Sequence[Tile], melds: Sequence[Meld]
                                 ) -> Target:
    counts, jokers = judge.split(tiles)
    options = judge.targets(melds) or (_FREE,)
    return min(options, key=lambda t: (counts_shanten_as_first_written(
        judge, counts, jokers, len(melds), (t,)),
                                       -_on_target(t, counts)))


def best_discards_as_first_written(judge: Judge, tiles: Sequence[Tile], melds: Sequence[Meld],
                                   unseen: Sequence[int] | None, candidates: Sequence[Tile]
                                   ) -> tuple[Tile, ...]:
    """`engine.ai._best_discards`, a discard at a time: the nearest hands, then (for the
    loneliest few) the most useful tiles, then the loneliest."""
    target = best_target_as_first_written(judge, tiles, melds)
    kept = [t for t in candidates if not judge.wildcards.is_joker(t)]
    if not kept:
        return tuple(candidates)
    after = {t: shanten_as_first_written(judge, _without(tiles, t), melds, target) for t in kept}
    best = min(after.values())
    tied = [t for t in kept if after[t] == best]
    if len(tied) > 1 and judge.wildcards.joker is not None:
        natural = {t: standard_shanten(judge.split(
            [r for r in _without(tiles, t) if not judge.wildcards.is_joker(r)])[0], 0,
            4 - len(melds)) for t in tied}
        tied = [t for t in tied if natural[t] == min(natural.values())]
    loneliness = {t: (_isolation(tiles, t), -_edge(t)) for t in tied}
    if len(tied) > 1:
        tied.sort(key=loneliness.__getitem__, reverse=True)
        tied = tied[:USEFUL_CANDIDATES]
        useful = {t: useful_as_first_written(judge, _without(tiles, t), melds, target, best,
                                             unseen) for t in tied}
        tied = [t for t in tied if useful[t] == max(useful.values())]
    tied.sort(key=loneliness.__getitem__, reverse=True)
    return tuple(t for t in tied if loneliness[t] == loneliness[tied[0]])


def _isolation(tiles: Sequence[Tile], tile: Tile) -> int:
    """Higher for a tile with fewer friends nearby: tiles of its suit one or two ranks
    away, and more copies of itself."""
    friends = 0
    if tile.is_suited:
        friends = sum(1 for t in tiles if t != tile and t in _NEIGHBOURS[tile])
    return -(friends + 2 * (sum(1 for t in tiles if t == tile) - 1))


def _without(tiles: Sequence[Tile], tile: Tile) -> list[Tile]:
    rest = list(tiles)
    rest.remove(tile)
    return rest


def best_shanten_after_discard_as_first_written(judge: Judge, tiles: Sequence[Tile],
                                                melds: Sequence[Meld]) -> int:
    """The lowest `Judge.shanten` of the hands a discard leaves, a discard at a time (as
    the claims and kongs were first judged)."""
    return min(shanten_as_first_written(judge, _without(tiles, t), melds) for t in set(tiles))


def unseen_counts_as_first_written(state: HandState, seat: int) -> list[int]:
    """`engine.ai.unseen_counts` counted tile by tile over every river and meld."""
    seen = [0] * NUM_KINDS
    for other, s in enumerate(state.seats):
        for d in s.discards:
            if d.claimed_by is None:
                seen[d.tile] += 1
        for meld in s.melds:
            if meld.kind is MeldKind.CONCEALED_KONG and other != seat:
                continue
            for tile in meld.tiles:
                seen[tile] += 1
    for tile in state.seats[seat].hand:
        seen[tile] += 1
    if state.flipped is not None:
        seen[state.flipped] += 1
    return [max(0, 4 - n) for n in seen]
