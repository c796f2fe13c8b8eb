"""`HeldTiles`, what a seat's concealed tiles amount to: its quick answers ("no tile can
complete this hand", "nobody could claim this discard") never say no where the full
tests say yes, its counts kept across draws and discards equal counting afresh, and it
lives with the seat record only while the hand and melds it was counted on do."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations, combinations_with_replacement

import pytest

from engine import memo
from engine.analysis import (
    NO_WILDCARDS,
    ShapeRules,
    Wildcards,
    is_all_melds,
    is_complete,
    is_winning,
    is_winning_with,
)
from engine.game import group_costs_build, preload_tables
from engine.game import held as held_module
from engine.game.held import _HONOURS_KEY, HeldTiles, _may_chi, group_cost
from engine.game.state import SeatState, replace
from engine.melds import Meld, MeldKind
from engine.rules.common import is_meld, make_meld
from engine.rules.hangzhou import SHAPES as HANGZHOU_SHAPES
from engine.rules.shanghai import SHAPES as SHANGHAI_SHAPES
from engine.shapes import read_bundled
from engine.tiles import NUM_KINDS, PLAYING_TILES, Tile

CASES = 1500
WILDCARDS = (NO_WILDCARDS, Wildcards.fixed(), Wildcards.flip(Tile.M5),
             Wildcards.flip(Tile.EAST))
SHAPES = (SHANGHAI_SHAPES, HANGZHOU_SHAPES)


def _complete_hand(rng: random.Random) -> list[Tile]:
    """Four melds and a pair (at most four of a kind), often near an honours hand."""
    while True:
        honours = rng.random() < 0.2
        kinds = [t for t in PLAYING_TILES if t.is_honor] if honours else list(PLAYING_TILES)
        pair = rng.choice(kinds)
        tiles = [pair, pair]
        for _ in range(4):
            start = rng.choice(kinds)
            if start.is_suited and start % 9 <= 6 and rng.random() < 0.5:
                tiles += [start, Tile(start + 1), Tile(start + 2)]
            else:
                tiles += [start] * 3
        if max(Counter(tiles).values()) <= 4:
            return tiles


def _thirteen(rng: random.Random, wild: Wildcards) -> list[Tile]:
    """A hand one tile from complete (a tile taken from a complete one, a tile or two
    turned into 财神), or any thirteen tiles."""
    if rng.random() < 0.3:
        return rng.sample([t for t in PLAYING_TILES for _ in range(4)], 13)
    tiles = _complete_hand(rng)
    tiles.remove(rng.choice(tiles))
    if wild.joker is not None:
        for _ in range(rng.choice((0, 0, 1, 2))):
            tiles[rng.randrange(13)] = wild.joker
    return tiles


def _cases() -> list[tuple[HeldTiles, Wildcards, ShapeRules]]:
    rng = random.Random("held tiles")
    out = []
    for _ in range(CASES):
        wild, shapes = rng.choice(WILDCARDS), rng.choice(SHAPES)
        tiles = sorted(_thirteen(rng, wild))
        melds: tuple[Meld, ...] = ()
        if rng.random() < 0.3:  # three tiles of the hand laid down as a pong
            face = Counter(tiles).most_common(1)[0][0]
            if tiles.count(face) >= 3:
                for _ in range(3):
                    tiles.remove(face)
                melds = (make_meld(MeldKind.PONG, (face,) * 3, 1, wild),)
        out.append((HeldTiles.of(tuple(tiles), melds, wild, shapes), wild, shapes))
    return out


CASE_LIST = _cases()


def test_a_hand_no_tile_completes_is_never_won_on() -> None:
    won = 0
    for held, wild, shapes in CASE_LIST:
        for tile in PLAYING_TILES:
            wins = is_winning_with(held.concealed, tile, wild.split(held.concealed),
                                   held.melds, wild, shapes)
            assert held.wins_on(tile) == wins
            assert held.worked_out().completable or not wins
            won += wins
    assert won > CASES  # the cases do hold many winning tiles


def _could_meld(held: HeldTiles, tile: Tile, wild: Wildcards, chi: bool) -> bool:
    """Any two tiles of the hand that make a pong, or (``chi``) a chi, with ``tile``."""
    kinds = (MeldKind.PONG, MeldKind.CHI) if chi else (MeldKind.PONG,)
    return any(is_meld(kind, (*pair, tile), wild)
               for pair in combinations(held.concealed, 2) for kind in kinds)


@pytest.mark.parametrize("chi", [False, True])
def test_a_seat_said_unable_to_claim_has_no_win_and_no_meld(chi: bool) -> None:
    refused = 0
    for held, wild, _ in CASE_LIST[:600]:
        for tile in PLAYING_TILES:
            face = wild.plays_as(tile)
            if not held.may_claim(tile, face, chi):
                refused += 1
                assert not held.wins_on(tile)
                assert face is None or not _could_meld(held, tile, wild, chi)
    assert refused > 600  # most tiles most hands cannot claim


@pytest.mark.parametrize("chi", [False, True])
def test_a_kind_left_unmarked_is_never_claimable_and_melds_are_marked_exactly(chi: bool
                                                                               ) -> None:
    """`HeldTiles.mark_claims`: a clear bit means `may_claim` refuses the kind (so the
    discard's claim check may skip the seat); a pong's or (next seat) a chi's kinds are
    marked exactly, and a win's only while the tiles are one from complete."""
    skipped = 0
    for held, wild, _ in CASE_LIST:
        marks = held.mark_claims().next_marks if chi else held.mark_claims().claim_marks
        assert held.mark_claims() is held  # worked out once
        counts, jokers = held.split
        for tile in PLAYING_TILES:
            face = wild.plays_as(tile)
            if face is None:
                continue  # a 财神: the claim check is the general way's
            group, bit = held_module.KIND_MARK[face]
            marked = bool(marks[group] & bit)
            claimable = held.may_claim(tile, face, chi)
            assert marked or not claimable, (held.concealed, tile)
            melds = counts[face] + jokers >= 2 or (
                chi and face.is_suited and _may_chi(counts, jokers, face))
            if not held.completable:
                assert marked == melds, (held.concealed, tile)
            skipped += not marked
    assert skipped > CASES * 10  # most kinds are skipped at once


def test_a_stand_in_honour_wins_an_honours_jumble_before_the_shape_is_worked_out() -> None:
    """The white dragon standing in for a suited 财神 (here a 5 of characters) is still an
    honour for the honours jumble: tiles counted afresh answer the claim on it as tiles
    whose shape is known (the shortcut for unworked tiles looked at the kind it plays as)."""
    wild = Wildcards.flip(Tile.M5)  # the white dragon stands in for the 5 of characters
    tiles = tuple(sorted([Tile.SOUTH] * 3 + [Tile.WEST] * 3 + [Tile.NORTH] * 3
                         + [Tile.GREEN] * 2 + [Tile.RED] * 2))
    known = HeldTiles.of(tiles, (), wild, SHANGHAI_SHAPES).worked_out()
    fresh = HeldTiles.of(tiles, (), wild, SHANGHAI_SHAPES)
    face = wild.plays_as(Tile.WHITE)
    assert known.may_claim(Tile.WHITE, face, False)
    assert fresh.may_claim(Tile.WHITE, face, False)


def test_counts_kept_across_a_draw_and_a_discard_equal_counting_afresh() -> None:
    rng = random.Random("draw and discard")
    for held, wild, shapes in CASE_LIST[:500]:
        drawn = rng.choice(PLAYING_TILES)
        fourteen = tuple(sorted((*held.concealed, drawn)))
        after_draw = held.moved(drawn, fourteen, 1)
        assert after_draw.split == wild.split(fourteen)
        assert after_draw.worked_out().complete == is_winning(fourteen, held.melds, wild, shapes)
        thrown = rng.choice(fourteen)
        rest = list(fourteen)
        rest.remove(thrown)
        after_discard = after_draw.moved(thrown, tuple(rest), -1)
        assert after_discard.split == wild.split(rest)
        assert after_discard.worked_out().completable == \
            HeldTiles.of(tuple(rest), held.melds, wild, shapes).worked_out().completable


def test_a_face_filled_to_four_is_told_alike_from_the_counts_and_from_packed() -> None:
    """`fills_four` (a concealed kong's first question) reads the counts, or once the
    shape is worked out the packed counts' bits: both say what the counts say, for
    any number of 财神 filling in."""
    rng = random.Random("four of a face")
    wild = Wildcards.fixed()
    assert wild.joker is not None
    told: Counter[tuple[bool, int]] = Counter()
    for _ in range(3000):
        jokers = rng.choice((0, 0, 1, 2, 3, 4))
        size = rng.choice((14, 11, 8, 5))
        tiles = [t for t in PLAYING_TILES if t != wild.joker for _ in range(4)]
        tiles = rng.sample(tiles, size - jokers) if rng.random() < 0.5 else \
            [t for t in rng.sample(PLAYING_TILES, 3) if t != wild.joker for _ in range(4)
             ][:size - jokers]
        hand = tuple(sorted([*tiles, *(wild.joker,) * jokers]))
        counts, held_jokers = wild.split(hand)
        expected = max(counts) + held_jokers >= 4
        held = HeldTiles.of(hand, (), wild, HANGZHOU_SHAPES)
        assert held.fills_four() == expected, hand  # from the counts
        assert held.worked_out().fills_four() == expected, hand  # from packed
        told[expected, held_jokers] += 1
    # (with three 财神 any tile of a face makes four)
    assert all(told[True, j] for j in range(5)) and all(told[False, j] for j in range(3))


def test_a_seat_keeps_its_held_tiles_only_while_its_hand_and_melds_stay() -> None:
    seat = SeatState(hand=(Tile.M1, Tile.M1, Tile.M2))
    held = seat.held(NO_WILDCARDS, SHANGHAI_SHAPES)
    assert seat.held(NO_WILDCARDS, SHANGHAI_SHAPES) is held
    assert replace(seat, passed_wins=frozenset({Tile.M3})).held(
        NO_WILDCARDS, SHANGHAI_SHAPES) is held
    assert replace(seat, hand=(Tile.M1,)).held(NO_WILDCARDS, SHANGHAI_SHAPES).concealed == \
        (Tile.M1,)
    meld = make_meld(MeldKind.PONG, (Tile.P5,) * 3, 1, NO_WILDCARDS)
    assert replace(seat, melds=(meld,)).held(NO_WILDCARDS, SHANGHAI_SHAPES) is not held
    # a copy told its hand (here an equal one) counts it again
    assert replace(seat, hand=seat.hand[:2] + seat.hand[2:]).held(
        NO_WILDCARDS, SHANGHAI_SHAPES) is not held
    assert seat.held(Wildcards.fixed(), SHANGHAI_SHAPES) is not held  # other 财神
    again = pickle.loads(pickle.dumps(seat))
    assert again == seat and "_held" not in again.__dict__


def test_may_chi_finds_a_run_exactly_when_one_can_be_made() -> None:
    """`_may_chi` against every run of three through the face, tried one by one."""
    rng = random.Random(17)
    for _ in range(3000):
        counts = [rng.choice((0, 0, 0, 1, 2)) for _ in range(34)]
        jokers = rng.choice((0, 0, 1, 2))
        face = Tile(rng.randrange(27))
        rank = face % 9
        runs = [range(face - rank + low, face - rank + low + 3)
                for low in range(max(rank - 2, 0), min(rank, 6) + 1)]
        expected = any(sum(1 for k in run if k != face and not counts[k]) <= jokers
                       for run in runs)
        assert _may_chi(counts, jokers, face) is expected


def test_a_hand_counted_at_once_is_complete_exactly_when_it_wins() -> None:
    """`complete` of tiles counted afresh (`HeldTiles.of`, each group's cost looked up
    once) against `is_winning`, on complete hands, seven pairs, honours and any tiles."""
    rng = random.Random("complete at once")
    wins = 0
    for held, wild, shapes in CASE_LIST:
        extra = rng.choice((*held.concealed, *PLAYING_TILES))
        fourteen = tuple(sorted((*held.concealed, extra)))
        counted = HeldTiles.of(fourteen, held.melds, wild, shapes).worked_out()
        expected = is_winning(fourteen, held.melds, wild, shapes)
        assert counted.complete == expected
        assert not counted.completable  # a complete hand's size is no tile short
        wins += expected
    pairs = tuple(sorted(Tile(k) for k in (0, 0, 4, 4, 9, 9, 13, 13, 20, 20, 27, 27, 33, 33)))
    assert HeldTiles.of(pairs, (), NO_WILDCARDS, HANGZHOU_SHAPES).worked_out().complete
    assert not HeldTiles.of(pairs, (), NO_WILDCARDS, SHANGHAI_SHAPES).worked_out().complete
    assert wins > CASES // 10


@pytest.mark.parametrize("chi", [False, True])
def test_tiles_counted_afresh_answer_a_claim_as_tiles_whose_shape_is_known(chi: bool) -> None:
    """A seat restored from a snapshot counts its tiles (`HeldTiles.of`) and works their
    shape out only when a question needs it: its answers equal those of tiles whose
    shape was worked out at once, and a tile nobody could use leaves it unworked."""
    left_unworked = 0
    for held, wild, shapes in CASE_LIST[:400]:
        known = HeldTiles.of(held.concealed, held.melds, wild, shapes)
        assert not known.shaped and known.worked_out() is known and known.shaped
        for tile in PLAYING_TILES:
            fresh = HeldTiles.of(held.concealed, held.melds, wild, shapes)
            face = wild.plays_as(tile)
            assert fresh.may_claim(tile, face, chi) == known.may_claim(tile, face, chi)
            left_unworked += not fresh.shaped
    assert left_unworked > 2000


def _group_cost_asked_joker_by_joker(counts: list[int], honours: bool) -> tuple[int, int]:
    """The definition `group_cost` answers: the fewest 财神 for which `is_all_melds` /
    `is_complete` accept the group alone in a hand, counted up joker by joker."""
    whole = [0] * NUM_KINDS
    start = Tile.EAST if honours else 0
    whole[start:start + len(counts)] = counts
    tiles = sum(counts)
    melds = next(j for j in range(-tiles % 3, 2 * tiles + 1, 3) if is_all_melds(whole, j))
    pair = next(j for j in range((2 - tiles) % 3, 2 * tiles + 3, 3) if is_complete(whole, j))
    return melds, pair - melds


def _groups(kinds: int, most: int) -> Iterator[list[int]]:
    """Every group of ``kinds`` kinds (0-4 of each) holding at most ``most`` tiles."""
    for size in range(most + 1):
        for chosen in combinations_with_replacement(range(kinds), size):
            counts = [chosen.count(kind) for kind in range(kinds)]
            if max(counts, default=0) <= 4:
                yield counts


@pytest.mark.parametrize("honours", [False, True])
def test_a_groups_cost_is_the_fewest_jokers_that_make_it_melds_and_a_pair(honours: bool
                                                                         ) -> None:
    kinds = 7 if honours else 9
    rng = random.Random(5)
    # Every group of up to six tiles, and 3,000 random larger ones up to fourteen.
    groups = list(_groups(kinds, 6))
    while len(groups) < 3_000 + 5_000 * (not honours):
        counts = [rng.choice((0, 0, 1, 1, 2, 3, 4)) for _ in range(kinds)]
        if 7 <= sum(counts) <= 14:
            groups.append(counts)
    for counts in groups:
        key = sum(n << 3 * place for place, n in enumerate(counts)) | \
            (_HONOURS_KEY if honours else 0)
        assert group_cost(key) == _group_cost_asked_joker_by_joker(counts, honours), counts


def test_preloading_reads_the_table_once_so_that_no_move_reads_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`engine.game.preload_tables` (a server's start-up) reads the bundled table now;
    a group the memo does not hold is then looked up without reading it again."""
    reads: list[str] = []
    real_read = read_bundled  # what held imported

    def counted_read(package: str, name: str, magic: bytes, builder: str) -> bytes:
        reads.append(name)
        return real_read(package, name, magic, builder)

    monkeypatch.setattr(held_module, "read_bundled", counted_read)
    held_module._group_costs_table.cache_clear()
    memo.clear()  # group_cost's among them
    try:
        preload_tables()
        assert reads == ["group_costs.bin"]
        preload_tables()
        assert group_cost(sum(n << 3 * i for i, n in enumerate((1, 1, 1, 0, 2)))) == (1, -1)
        assert reads == ["group_costs.bin"]
    finally:
        held_module._group_costs_table.cache_clear()  # read again, unpatched, when asked


def test_the_bundled_table_holds_every_group_of_at_most_fourteen_tiles() -> None:
    """Each code of the table is a group's cost exactly when its counts are a group a
    hand can hold (at most 14 tiles); 4,000 random codes are checked against the
    search, beside every group up to six tiles above."""
    table = held_module._group_costs_table()
    rng = random.Random(11)
    for _ in range(4_000):
        honours = rng.random() < 0.3
        kinds = 7 if honours else 9
        counts = [rng.randint(0, 4) for _ in range(kinds)]
        code = sum(n * 5 ** i for i, n in enumerate(counts)) + (5 ** 9 if honours else 0)
        if sum(counts) > 14:
            assert table[code] == held_module.UNKNOWN_COST
        else:
            key = sum(n << 3 * i for i, n in enumerate(counts)) | \
                (_HONOURS_KEY if honours else 0)
            assert (table[code] >> 2, (table[code] & 3) - 1) == held_module._searched(key)


def test_a_group_the_table_cannot_hold_is_searched() -> None:
    """A kind counted five times has no base-5 code: its cost is searched, not read
    from another group's place."""
    counts = [5, 1, 1, 0, 0, 0, 0, 0, 0]
    key = sum(n << 3 * i for i, n in enumerate(counts))
    assert group_cost(key) == _group_cost_asked_joker_by_joker(counts, False)


def test_the_builder_writes_the_bundled_honours_table() -> None:
    """The generator's honours table is the committed one, byte for byte (the suits'
    takes a minute to build: it is sampled above instead)."""
    assert group_costs_build.table(7, True) == held_module._group_costs_table()[5 ** 9:]
