"""What a seat's concealed tiles amount to under the hand's 财神: derived from the seat's
hand and melds alone, kept with the seat record (`SeatState.held`) until its hand or
melds change, and never stored. A claim window asks it of three seats per discard, and
a seat that did not move is the same record from one state to the next."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.analysis import (
    ShapeRules,
    Wildcards,
    is_complete,
    is_winning,
    is_winning_with,
    seven_pairs_luxury,
)
from engine.melds import Meld
from engine.tiles import Tile


@dataclass(frozen=True, eq=False)
class HeldTiles:
    """A seat's concealed tiles counted on the natural kinds they play as.

    ``split`` is `Wildcards.split` of the hand: the natural counts and the number of
    财神. Its list is shared by every question asked of this seat and never changed.
    """

    wildcards: Wildcards
    shapes: ShapeRules
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    split: tuple[list[int], int]

    @classmethod
    def of(cls, concealed: tuple[Tile, ...], melds: tuple[Meld, ...], wildcards: Wildcards,
           shapes: ShapeRules) -> HeldTiles:
        return cls._made(wildcards, shapes, concealed, melds, wildcards.split(concealed))

    @classmethod
    def _made(cls, wildcards: Wildcards, shapes: ShapeRules, concealed: tuple[Tile, ...],
              melds: tuple[Meld, ...], split: tuple[list[int], int]) -> HeldTiles:
        """``cls(...)`` without the frozen ``__init__``'s per-field ``setattr``: one is
        made per draw and per discard (`engine.game.state.make`, which this module
        cannot import)."""
        held = object.__new__(cls)
        held.__dict__.update(wildcards=wildcards, shapes=shapes, concealed=concealed,
                             melds=melds, split=split)
        return held

    def plus(self, tile: Tile, concealed: tuple[Tile, ...]) -> HeldTiles:
        """The tiles after drawing ``tile`` (``concealed``: the hand with it), counted
        from these ones; whether they are `complete` is known at once from these
        ones' `completable` (most draws: not, with no shape test at all)."""
        after = self._moved(tile, concealed, 1)
        after.__dict__["_drawn_to"] = (self, tile)  # for `complete`, if it is asked
        return after

    def minus(self, tile: Tile, concealed: tuple[Tile, ...]) -> HeldTiles:
        """The tiles after discarding ``tile`` (``concealed``: the hand without it),
        counted from these ones."""
        return self._moved(tile, concealed, -1)

    def _moved(self, tile: Tile, concealed: tuple[Tile, ...], step: int) -> HeldTiles:
        counts, jokers = self.split
        counts = counts.copy()
        face = self.wildcards.plays_as(tile)
        if face is None:
            jokers += step
        else:
            counts[face] += step
        return self._made(self.wildcards, self.shapes, concealed, self.melds,
                          (counts, jokers))

    @property
    def complete(self) -> bool:
        """Whether the tiles themselves are a winning shape (`is_winning`)."""
        # Worked out once, kept in the record (`cached_property` would do the same
        # behind a lock: asked on almost every turn, that lock was a third of the cost).
        known: bool | None = self.__dict__.get("_complete")
        if known is None:
            known = self.__dict__["_complete"] = self._is_complete()
        return known

    def _is_complete(self) -> bool:
        grown: tuple[HeldTiles, Tile] | None = self.__dict__.pop("_drawn_to", None)
        if grown is None:
            return is_winning(self.concealed, self.melds, self.wildcards, self.shapes)
        # Drawn to (`plus`): the hand before's `wins_on` the tile drawn, false without
        # a shape test when that hand could not be completed at all (most draws).
        before, tile = grown
        return before.wins_on(tile)

    @property
    def completable(self) -> bool:
        """`_is_completable`, worked out once (as `complete`)."""
        known: bool | None = self.__dict__.get("_completable")
        if known is None:
            known = self.__dict__["_completable"] = self._is_completable()
        return known

    def _is_completable(self) -> bool:
        """Whether some tile could complete the hand: False means no discard or robbed
        kong can be won on (`is_winning_with` is False for every tile).

        Asked as if the tile were one more 财神, which may stand for any tile: a hand
        that one tile completes is then complete too, in every shape (four melds and a
        pair, seven pairs, the honours jumble). tests/game/test_held.py holds this
        against `is_winning_with` of every tile.
        """
        if len(self.concealed) + 1 != 14 - 3 * len(self.melds):
            return False
        counts, jokers = self.split
        if is_complete(counts, jokers + 1):
            return True
        shapes = self.shapes
        if shapes.seven_pairs and not self.melds and \
                seven_pairs_luxury(counts, jokers + 1) is not None:
            return True
        return shapes.honours_jumble and _all_honours(self.concealed, self.melds)

    def wins_on(self, tile: Tile) -> bool:
        """`is_winning_with` ``tile``: asked once a tile (the claim window's first
        look, then its offers) and not at all when the hand is not `completable`."""
        if not self.completable:
            return False
        wins: dict[Tile, bool] = self.__dict__.setdefault("_wins_on", {})
        known = wins.get(tile)
        if known is None:
            counts, jokers = self.split
            # A copy: `is_winning_with` adds the tile to the counts it is given while it
            # works, and this record's may be read by another thread meanwhile.
            known = wins[tile] = is_winning_with(self.concealed, tile, (counts.copy(), jokers),
                                                 self.melds, self.wildcards, self.shapes)
        return known

    def may_claim(self, tile: Tile, face: Tile | None, chi: bool) -> bool:
        """Whether the hand could claim ``tile``, which plays as ``face`` (None: it is a
        财神, or a robbed kong, which only a win may take): a win on it, or two tiles to
        pong it with, or with ``chi`` two to chi it with (财神 fill any place). False:
        no claim on it is worth enumerating."""
        if face is not None:
            counts, jokers = self.split
            if counts[face] + jokers >= 2:
                return True
            suited = face < _HONOURS_START
            if chi and suited and _may_chi(counts, jokers, face):
                return True
            # With no 财神, a tile that makes no pair and no run with a tile held joins
            # no group of a complete hand (only the honours jumble takes any honour):
            # no win on it, and no need to ask whether the hand is one from complete.
            if not jokers and not counts[face] and \
                    not (suited and neighbours(counts, face)) and \
                    not (not suited and self.shapes.honours_jumble):
                return False
        return self.wins_on(tile)


_HONOURS_START = Tile.EAST
"""The first kind that is no suit's (the suits' 27 kinds come first)."""


def neighbours(counts: Sequence[int], face: Tile) -> int:
    """Tiles of a suited ``face``'s suit one or two ranks from it."""
    suit_start = face - face % 9
    return sum(counts[max(suit_start, face - 2):face]) + \
        sum(counts[face + 1:min(suit_start + 9, face + 3)])


def _may_chi(counts: Sequence[int], jokers: int, face: Tile) -> bool:
    """Whether a run of three with the suited ``face`` can be made of the hand's tiles,
    财神 filling the ranks it lacks."""
    rank = face % 9
    # The ranks two below to two above held (a rank outside the suit never is), and
    # the three runs with the face: below it, around it, above it (inside the suit).
    b2 = rank >= 2 and counts[face - 2] > 0
    b1 = rank >= 1 and counts[face - 1] > 0
    a1 = rank <= 7 and counts[face + 1] > 0
    a2 = rank <= 6 and counts[face + 2] > 0
    return (rank >= 2 and 2 - b2 - b1 <= jokers) or \
        (1 <= rank <= 7 and 2 - b1 - a1 <= jokers) or \
        (rank <= 6 and 2 - a1 - a2 <= jokers)


def _all_honours(concealed: tuple[Tile, ...], melds: tuple[Meld, ...]) -> bool:
    return all(t.is_honor for t in concealed) and \
        all(t.is_honor for m in melds for t in m.tiles)
