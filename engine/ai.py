"""The computer player's judgement: how far a hand is from winning, what to discard,
whether a claim or a kong helps. Pure and deterministic given its random generator.

Shanghai cannot win with a plain hand, so there the distance is measured towards the
patterns that qualify: a flush in one suit (with or without honours), all pungs, or
all honours. Hangzhou measures the standard shape and seven pairs, with the 财神 counted
as wild and always kept (the computer wins whenever it may, so it never floats one).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.analysis import (
    HandAnalysis,
    ShapeRules,
    Wildcards,
    standard_shanten,
)
from engine.melds import Meld
from engine.tiles import NUM_KINDS, Suit, Tile

_SUITS = (Suit.CHARACTERS, Suit.DOTS, Suit.BAMBOO)
_SUIT_RANGE = {Suit.CHARACTERS: range(0, 9), Suit.DOTS: range(9, 18), Suit.BAMBOO: range(18, 27)}
_HONOURS = range(27, 34)


@dataclass(frozen=True)
class Target:
    """What the hand is built towards (Shanghai); ``None`` fields mean no restriction."""

    name: str
    suit: Suit | None = None
    honours: bool = True
    sequences: bool = True
    honours_only: bool = False


_SHANGHAI_TARGETS = (
    *(Target(f"flush:{s.value}", suit=s) for s in _SUITS),
    Target("all_pungs", sequences=False),
    Target("honours", honours_only=True),
)
_FREE = Target("any")


@dataclass(frozen=True)
class Judge:
    """Judges hands for one rule set and one hand's wildcards."""

    rules: str
    wildcards: Wildcards
    shapes: ShapeRules

    def split(self, tiles: Sequence[Tile]) -> tuple[list[int], int]:
        return self.wildcards.split(tiles)

    def targets(self, melds: Sequence[Meld]) -> tuple[Target, ...]:
        if self.rules != "shanghai":
            return (_FREE,)
        return tuple(t for t in _SHANGHAI_TARGETS if _melds_fit(t, melds))

    def shanten(self, tiles: Sequence[Tile], melds: Sequence[Meld],
                target: Target | None = None) -> int:
        """Distance to a winning hand; with a target, to that target only."""
        if self.rules != "shanghai":
            return HandAnalysis(tuple(tiles), tuple(melds), self.wildcards,
                                self.shapes).shanten()
        targets = (target,) if target else self.targets(melds)
        counts, _ = self.split(tiles)
        return min((_target_shanten(t, counts, len(melds)) for t in targets), default=8)

    def best_target(self, tiles: Sequence[Tile], melds: Sequence[Meld]) -> Target:
        counts, _ = self.split(tiles)
        options = self.targets(melds) or (_FREE,)
        return min(options, key=lambda t: (_target_shanten(t, counts, len(melds)),
                                           -_on_target(t, counts)))


def _melds_fit(target: Target, melds: Sequence[Meld]) -> bool:
    for meld in melds:
        face = meld.face
        if target.honours_only and not face.is_honor:
            return False
        if target.suit is not None and face.is_suited and face.suit is not target.suit:
            return False
        if not target.sequences and not meld.is_pung_like:
            return False
    return True


def _keep(target: Target, kind: int) -> bool:
    if target.honours_only:
        return kind >= 27
    if target.suit is not None:
        return kind in _SUIT_RANGE[target.suit] or (target.honours and kind >= 27)
    return True


def _on_target(target: Target, counts: Sequence[int]) -> int:
    return sum(n for k, n in enumerate(counts) if _keep(target, k))


def _target_shanten(target: Target, counts: Sequence[int], melds: int) -> int:
    if target.honours_only:
        # Honours jumble (乱风向): any honours at all, so only the non-honours count.
        concealed = 14 - 3 * melds
        return max(-1, concealed - _on_target(target, counts) - 1)
    kept = [n if _keep(target, k) else 0 for k, n in enumerate(counts)]
    return standard_shanten(kept, 0, 4 - melds, sequences=target.sequences)


# ---------------------------------------------------------------------------
# Decisions


def choose_discard(judge: Judge, tiles: Sequence[Tile], melds: Sequence[Meld],
                   unseen: Sequence[int] | None, rng: random.Random,
                   allowed: Sequence[Tile] | None = None) -> Tile:
    """The discard that leaves the hand nearest a win, then with the most tiles that
    would bring it nearer (``unseen``: copies of each kind not yet in sight)."""
    candidates = sorted(set(allowed if allowed is not None else tiles))
    if len(candidates) == 1:
        return candidates[0]
    target = judge.best_target(tiles, melds)
    scored: list[tuple[int, Tile]] = []
    for tile in candidates:
        rest = _without(tiles, tile)
        if judge.wildcards.is_joker(tile):
            continue  # keep the 财神: it completes anything
        scored.append((judge.shanten(rest, melds, target), tile))
    if not scored:
        return rng.choice(candidates)
    best = min(s for s, _ in scored)
    tied = [t for s, t in scored if s == best]
    if len(tied) > 1:
        useful = {t: _useful(judge, _without(tiles, t), melds, target, best, unseen)
                  for t in tied}
        most = max(useful.values())
        tied = [t for t in tied if useful[t] == most]
    tied.sort(key=lambda t: (_isolation(tiles, t), -_edge(t)), reverse=True)
    top = [t for t in tied if (_isolation(tiles, t), -_edge(t)) ==
           (_isolation(tiles, tied[0]), -_edge(tied[0]))]
    return rng.choice(top)


def _without(tiles: Sequence[Tile], tile: Tile) -> list[Tile]:
    rest = list(tiles)
    rest.remove(tile)
    return rest


def _useful(judge: Judge, rest: Sequence[Tile], melds: Sequence[Meld], target: Target,
            now: int, unseen: Sequence[int] | None) -> int:
    """How many unseen tiles would lower the shanten of ``rest`` (受入)."""
    counts, _ = judge.split(rest)
    total = 0
    for kind in _near(counts):
        left = 4 - counts[kind] if unseen is None else unseen[kind]
        if left <= 0:
            continue
        if judge.shanten([*rest, Tile(kind)], melds, target) < now:
            total += left
    return total


def _near(counts: Sequence[int]) -> list[int]:
    """Kinds that could connect with the hand: held ones and suit neighbours (±2)."""
    near: set[int] = set()
    for kind in range(NUM_KINDS):
        if not counts[kind]:
            continue
        near.add(kind)
        if kind < 27:
            base = kind - kind % 9
            near.update(k for k in range(kind - 2, kind + 3) if base <= k < base + 9)
    return sorted(near)


def _isolation(tiles: Sequence[Tile], tile: Tile) -> int:
    """Higher for a tile with fewer friends nearby: the first to let go of."""
    friends = sum(1 for t in tiles if t != tile and t.suit is tile.suit and
                  tile.is_suited and abs(t - tile) <= 2)
    same = sum(1 for t in tiles if t == tile) - 1
    return -(friends + 2 * same)


def _edge(tile: Tile) -> int:
    """Terminals and honours connect less than middle tiles."""
    if tile.is_honor:
        return 0
    return min(tile.rank - 1, 9 - tile.rank)


def claim_helps(judge: Judge, tiles: Sequence[Tile], melds: Sequence[Meld],
                rest: Sequence[Tile], melds_after: Sequence[Meld], used: Sequence[Tile],
                must_discard: bool) -> bool:
    """Whether claiming a discard — leaving ``rest`` in the hand and ``melds_after`` on
    the table, ``used`` taken from the hand — brings the hand nearer a win. After chi or
    pong the claimer discards, so it is judged by the best discard that follows; an
    exposed kong is taken when it costs nothing."""
    if any(judge.wildcards.is_joker(t) for t in used):
        return False  # a 财神 is worth more in the hand than in a meld
    if not judge.targets(melds_after):
        return False
    now = judge.shanten(tiles, melds)
    if must_discard:
        after = min(judge.shanten(_without(rest, t), melds_after) for t in set(rest))
        return after < now
    return judge.shanten(rest, melds_after) <= now


def kong_helps(judge: Judge, tiles: Sequence[Tile], melds: Sequence[Meld],
               rest: Sequence[Tile], melds_after: Sequence[Meld],
               used: Sequence[Tile]) -> bool:
    """A kong on one's own turn (concealed or added): worth it when the hand left is no
    further from a win than after the best plain discard (it draws a replacement)."""
    if any(judge.wildcards.is_joker(t) for t in used):
        return False
    if not judge.targets(melds_after):
        return False
    plain = min(judge.shanten(_without(tiles, t), melds) for t in set(tiles))
    return judge.shanten(rest, melds_after) <= plain
