"""The computer player's judgement: how far a hand is from winning, what to discard,
whether a claim or a kong helps. Pure and deterministic given its random generator.

Shanghai cannot win with a plain hand, so there the distance is measured towards the
patterns that qualify: a flush in one suit (with or without honours), all pungs, or
all honours. Hangzhou measures the standard shape and seven pairs, with the 财神 counted
as wild and always kept (the computer wins whenever it may, so it never floats one).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine import rules
from engine.analysis import (
    HandAnalysis,
    ShapeRules,
    Wildcards,
    groups_shanten,
    seven_pairs_shanten,
    seven_pairs_shanten_plus_each,
    shanten_minus_each,
    shanten_plus_each,
    standard_shanten,
)
from engine.game.actions import Action
from engine.game.legal import legal_actions, remembered_self_draw
from engine.game.state import HandState, Phase
from engine.melds import Meld, MeldKind
from engine.memo import bounded
from engine.rules.common import ActionKind, ChainStep, make_meld
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

    @functools.cached_property
    def aims_for_patterns(self) -> bool:
        """A win needs a qualifying pattern: play toward one of the targets."""
        return rules.get(self.rules).needs_qualifying_pattern

    def split(self, tiles: Sequence[Tile]) -> tuple[list[int], int]:
        return self.wildcards.split(tiles)

    def targets(self, melds: Sequence[Meld]) -> tuple[Target, ...]:
        if not self.aims_for_patterns:
            return (_FREE,)
        if not melds:  # a closed hand may aim anywhere (most hands, most of the time)
            return _SHANGHAI_TARGETS
        return tuple(t for t in _SHANGHAI_TARGETS if _melds_fit(t, melds))

    def shanten(self, tiles: Sequence[Tile], melds: Sequence[Meld],
                target: Target | None = None) -> int:
        """Distance to a winning hand; with a target, to that target only."""
        counts, jokers = self.split(tiles)
        targets = (target,) if target else self.targets(melds)
        return self.counts_shanten(counts, jokers, len(melds), targets)

    def counts_shanten(self, counts: Sequence[int], jokers: int, melds: int,
                       targets: Sequence[Target]) -> int:
        if not self.aims_for_patterns:
            best = standard_shanten(counts, jokers, 4 - melds)
            if self.shapes.seven_pairs and not melds:
                best = min(best, seven_pairs_shanten(counts, jokers))
            return best
        keys = _group_keys(counts)
        return min((_groups_target_shanten(t, keys, melds) for t in targets), default=8)

    def best_target(self, tiles: Sequence[Tile], melds: Sequence[Meld]) -> Target:
        counts, _ = self.split(tiles)
        options = self.targets(melds) or (_FREE,)
        keys = _group_keys(counts)
        return min(options, key=lambda t: (_groups_target_shanten(t, keys, len(melds)),
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


@bounded(maxsize=16)
def _mask(target: Target) -> tuple[bool, ...]:
    return tuple(_keep(target, k) for k in range(NUM_KINDS))


def _on_target(target: Target, counts: Sequence[int]) -> int:
    """The tiles the target keeps (`_keep`), counted by whole suits."""
    if target.honours_only:
        return sum(counts[27:34])
    if target.suit is None:
        return sum(counts)
    kinds = _SUIT_RANGE[target.suit]
    return sum(counts[kinds.start:kinds.stop]) + (sum(counts[27:34]) if target.honours else 0)


def _target_shanten(target: Target, counts: Sequence[int], melds: int) -> int:
    return _groups_target_shanten(target, _group_keys(counts), melds)


GroupKeys = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _group_keys(counts: Sequence[int]) -> GroupKeys:
    """The counts of the three suits and the honours, each a tuple."""
    return (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]),
            tuple(counts[27:34]))


_SUIT_GROUP = {suit: i for i, suit in enumerate(_SUITS)}


def _groups_target_shanten(target: Target, keys: GroupKeys, melds: int) -> int:
    """`_target_shanten` of a hand given by its `_group_keys` (made once for all targets)."""
    if target.honours_only:
        # Honours jumble (乱风向): any honours at all, so only the non-honours count.
        concealed = 14 - 3 * melds
        return max(-1, concealed - sum(keys[3]) - 1)
    pungs = not target.sequences
    groups: tuple[tuple[tuple[int, ...], bool], ...]
    if target.suit is None:
        groups = ((keys[0], pungs), (keys[1], pungs), (keys[2], pungs), (keys[3], True))
    else:
        suit = (keys[_SUIT_GROUP[target.suit]], pungs)
        groups = (suit, (keys[3], True)) if target.honours else (suit,)
    # The same as `standard_shanten` of the `_kept` counts: a group not kept holds nothing.
    return groups_shanten(groups, 0, 4 - melds)


_NO_SUIT = (0,) * 9


def _kept(target: Target, counts: Sequence[int]) -> tuple[int, ...]:
    """The counts of the kinds the target keeps, the others zero (by whole suits: the
    same as masking kind by kind, in a fraction of the time)."""
    counts = tuple(counts)
    if target.suit is None:
        return counts
    suits = tuple(counts[r.start:r.stop] if s is target.suit else _NO_SUIT
                  for s, r in _SUIT_RANGE.items())
    honours = counts[27:] if target.honours else (0,) * 7
    return suits[0] + suits[1] + suits[2] + honours


# ---------------------------------------------------------------------------
# Decisions


USEFUL_CANDIDATES = 4


def choose_discard(judge: Judge, tiles: Sequence[Tile], melds: Sequence[Meld],
                   unseen: Sequence[int] | None, rng: random.Random,
                   allowed: Sequence[Tile] | None = None) -> Tile:
    """The discard that leaves the hand nearest a win, then with the most tiles that
    would bring it nearer (``unseen``: copies of each kind not yet in sight)."""
    candidates = tuple(sorted(set(allowed if allowed is not None else tiles)))
    if len(candidates) == 1:
        return candidates[0]
    # The judgement is memoised (the player's view suggests the very discard the
    # computer then makes); only the final draw among equals uses ``rng``.
    return rng.choice(_best_discards(judge, tuple(sorted(tiles)), tuple(melds),
                                     None if unseen is None else tuple(unseen), candidates))


@bounded(maxsize=256)
def _best_discards(judge: Judge, tiles: tuple[Tile, ...], melds: tuple[Meld, ...],
                   unseen: tuple[int, ...] | None, candidates: tuple[Tile, ...]
                   ) -> tuple[Tile, ...]:
    """The discards `choose_discard` draws from: all equally good by its measures."""
    target = judge.best_target(tiles, melds)
    # Keep the 财神: it completes anything.
    kept = [t for t in candidates if not judge.wildcards.is_joker(t)]
    after = _shanten_without_each(judge, tiles, melds, target, kept)
    scored = [(after[tile], tile) for tile in kept]
    if not scored:
        return candidates
    best = min(s for s, _ in scored)
    tied = [t for s, t in scored if s == best]
    if len(tied) > 1 and judge.wildcards.joker is not None:
        tied = _keep_wildcards_free(judge, tiles, melds, tied)
    physical = _physical_counts(tiles)
    loneliness = {t: (_isolation_in(physical, t), -_edge(t)) for t in tied}
    if len(tied) > 1:
        # Counting useful tiles is the costly part: do it for the few loneliest only.
        tied.sort(key=loneliness.__getitem__, reverse=True)
        tied = tied[:USEFUL_CANDIDATES]
        useful = _useful_each(judge, tiles, melds, target, best, unseen, tied)
        most = max(useful.values())
        tied = [t for t in tied if useful[t] == most]
    tied.sort(key=loneliness.__getitem__, reverse=True)
    return tuple(t for t in tied if loneliness[t] == loneliness[tied[0]])


def _shanten_without_each(judge: Judge, tiles: Sequence[Tile], melds: Sequence[Meld],
                          target: Target, discards: Sequence[Tile]) -> dict[Tile, int]:
    """`Judge.shanten` towards ``target`` of the hand left by each of ``discards`` (held,
    none a 财神): the hand's groups merged once, each discard changing its own group."""
    counts, jokers = judge.split(tiles)
    kinds = {tile: judge.wildcards.plays_as(tile) for tile in discards}
    natural = sorted({k for k in kinds.values() if k is not None})
    blocks = 4 - len(melds)
    by_kind: dict[int, int]
    if not judge.aims_for_patterns:
        by_kind = shanten_minus_each(counts, jokers, blocks, natural)
        if judge.shapes.seven_pairs and not melds:
            for kind in natural:
                counts[kind] -= 1
                by_kind[kind] = min(by_kind[kind], seven_pairs_shanten(counts, jokers))
                counts[kind] += 1
    elif target.honours_only:
        by_kind = {}
        for kind in natural:
            counts[kind] -= 1
            by_kind[kind] = _target_shanten(target, counts, len(melds))
            counts[kind] += 1
    else:
        # A pattern target reads only the kinds it keeps: a discard of another kind
        # leaves its shanten as it is.
        kept, keep = _kept(target, counts), _mask(target)
        by_kind = shanten_minus_each(kept, 0, blocks, [k for k in natural if keep[k]],
                                     sequences=target.sequences)
        unchanged = standard_shanten(kept, 0, blocks, sequences=target.sequences)
        by_kind.update((k, unchanged) for k in natural if not keep[k])
    return {tile: by_kind[kind] for tile, kind in kinds.items() if kind is not None}


def _keep_wildcards_free(judge: Judge, tiles: Sequence[Tile], melds: Sequence[Meld],
                         tied: list[Tile]) -> list[Tile]:
    """Among equal discards, keep the one whose natural tiles are nearest four melds on
    their own: a 财神 left free makes the hand 暴头 (worth double) instead of filling a gap."""
    def natural(tile: Tile) -> int:
        rest = [t for t in _without(tiles, tile) if not judge.wildcards.is_joker(t)]
        counts, _ = judge.split(rest)
        return standard_shanten(counts, 0, 4 - len(melds))
    scores = {t: natural(t) for t in tied}
    low = min(scores.values())
    return [t for t in tied if scores[t] == low]


def burst_head_discard(judge: Judge, tiles: Sequence[Tile], melds: Sequence[Meld],
                       floats: int, piao_counts: bool = True) -> tuple[Tile, int] | None:
    """The discard that leaves a 暴头 hand (any next draw wins), with the multiplier that
    win would have: ×2, doubled again for each 财神 floated in a row (财飘) — a 财神
    discard extends the chain, any other discard ends it. ``piao_counts`` is False in
    a turn that began with a chi or pong: a 财神 floated then is no link (Hangzhou)."""
    best: tuple[Tile, int] | None = None
    for tile in sorted(set(tiles), key=lambda t: not judge.wildcards.is_joker(t)):
        rest = _without(tiles, tile)
        if not HandAnalysis(tuple(rest), tuple(melds), judge.wildcards,
                            judge.shapes).is_bao_tou():
            continue
        piao = floats + 1 if piao_counts and judge.wildcards.is_joker(tile) else 0
        value = 2 ** (1 + min(piao, MAX_FLOATS))
        if best is None or value > best[1]:
            best = (tile, value)
    return best


def _without(tiles: Sequence[Tile], tile: Tile) -> list[Tile]:
    rest = list(tiles)
    rest.remove(tile)
    return rest


def _useful_each(judge: Judge, tiles: Sequence[Tile], melds: Sequence[Meld], target: Target,
                 now: int, unseen: Sequence[int] | None, discards: Sequence[Tile]
                 ) -> dict[Tile, int]:
    """How many unseen tiles would lower the shanten (受入) of the hand each of
    ``discards`` (held, none a 财神) leaves, toward ``target`` (``now``: that shanten,
    ``unseen``: copies of each kind not yet in sight; None: all not held). The hand is
    split once, each discard taking one tile off the kind it plays as."""
    counts, jokers = judge.split(tiles)
    out = {}
    for tile in discards:
        kind = judge.wildcards.plays_as(tile)
        assert kind is not None, "a 财神 is never weighed as a discard"
        counts[kind] -= 1
        out[tile] = _useful_counts(judge, counts, jokers, len(melds), target, now, unseen)
        counts[kind] += 1
    return out


def _useful_counts(judge: Judge, counts: list[int], jokers: int, melds: int, target: Target,
                   now: int, unseen: Sequence[int] | None) -> int:
    """`_useful_each` of one hand, on its natural counts and jokers (``counts`` is left
    as it was)."""
    if judge.aims_for_patterns and target.honours_only:
        keep = _mask(target)
        left = {kind: 4 - counts[kind] if unseen is None else unseen[kind]
                for kind in _near(counts) if keep[kind]}  # a tile off the target never helps
        kinds = [kind for kind, n in left.items() if n > 0]
        return sum(left[kind] for kind, after in _shanten_with_each(
            judge, counts, jokers, melds, target, kinds).items() if after < now)
    # A tile off the target never helps; the kinds near the kept tiles are exactly the
    # kinds on the target near the hand's tiles (a neighbour is of the same suit).
    if judge.aims_for_patterns:
        shanten_after = _near_shanten(_kept(target, counts), 0, 4 - melds, target.sequences,
                                      False)
    else:
        shanten_after = _near_shanten(tuple(counts), jokers, 4 - melds, True,
                                      judge.shapes.seven_pairs and not melds)
    useful = 0
    for kind, after in shanten_after:
        if after < now:
            copies = 4 - counts[kind] if unseen is None else unseen[kind]
            if copies > 0:
                useful += copies
    return useful


@bounded(maxsize=1 << 11)
def _near_shanten(counts: tuple[int, ...], jokers: int, blocks: int, sequences: bool,
                  seven_pairs: bool) -> tuple[tuple[int, int], ...]:
    """The standard shanten (with ``seven_pairs``, the lower of it and seven pairs') of
    the hand with one more tile of each kind near it (`_near`), by kind. Memoised: a
    hand weighed after one discard comes back on the next turn when the drawn tile is
    let go at once, as it often is (a third of the hands weighed, measured in Shanghai
    self-play)."""
    kinds = _near(counts)
    after = shanten_plus_each(counts, jokers, blocks, kinds, sequences=sequences)
    if seven_pairs:
        pairs = seven_pairs_shanten_plus_each(counts, jokers, kinds)
        return tuple((kind, min(after[kind], pairs[kind])) for kind in kinds)
    return tuple((kind, after[kind]) for kind in kinds)


def _shanten_with_each(judge: Judge, counts: list[int], jokers: int, melds: int,
                       target: Target, kinds: list[int]) -> dict[int, int]:
    """`Judge.counts_shanten` towards ``target`` with one more tile of each kind."""
    if judge.aims_for_patterns and not target.honours_only:
        # A pattern target's shanten reads only the kinds it keeps, and these kinds are
        # among them: adding one to the kept counts is adding it to the hand.
        return shanten_plus_each(_kept(target, counts), 0, 4 - melds, kinds,
                                 sequences=target.sequences)
    if not judge.aims_for_patterns:
        out = shanten_plus_each(counts, jokers, 4 - melds, kinds)
        if judge.shapes.seven_pairs and not melds:
            pairs = seven_pairs_shanten_plus_each(counts, jokers, kinds)
            out = {kind: min(out[kind], pairs[kind]) for kind in kinds}
        return out
    out = {}
    for kind in kinds:
        counts[kind] += 1
        out[kind] = judge.counts_shanten(counts, jokers, melds, (target,))
        counts[kind] -= 1
    return out


def _near(counts: Sequence[int]) -> list[int]:
    """Kinds that could connect with the hand: held ones and suit neighbours (±2)."""
    near: set[int] = set()
    for kind, n in enumerate(counts):
        if n:
            near.update(_NEIGHBOURS[kind])
    return sorted(near)


def _neighbours(kind: int) -> tuple[int, ...]:
    """A kind and, in a suit, the kinds one or two ranks from it."""
    if kind >= 27:
        return (kind,)
    base = kind - kind % 9
    return tuple(k for k in range(kind - 2, kind + 3) if base <= k < base + 9)


_NEIGHBOURS = tuple(_neighbours(kind) for kind in range(NUM_KINDS))


def _physical_counts(tiles: Sequence[Tile]) -> list[int]:
    counts = [0] * len(Tile)
    for tile in tiles:
        counts[tile] += 1
    return counts


def _isolation_in(physical: Sequence[int], tile: Tile) -> int:
    """`_isolation` from the hand's physical counts (`_physical_counts`), counted once."""
    friends = 0
    if tile < _FIRST_HONOUR:
        friends = sum(physical[k] for k in _NEIGHBOURS[tile] if k != tile)
    return -(friends + 2 * (physical[tile] - 1))


_FIRST_HONOUR = Tile.EAST


def _isolation(tiles: Sequence[Tile], tile: Tile) -> int:
    """Higher for a tile with fewer friends nearby: the first to let go of."""
    friends = 0
    if tile.is_suited:  # tiles of its suit one or two ranks away (`_NEIGHBOURS`)
        near = _NEIGHBOURS[tile]
        friends = sum(1 for t in tiles if t != tile and t in near)
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


# ---------------------------------------------------------------------------
# Playing a seat of a hand


def choose_action(state: HandState, seat: int, rng: random.Random) -> Action:
    """The computer player's move for ``seat``: always one of `legal_actions`."""
    legal = legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no decision to make")
    judge = remembered_judge(state)
    win = Action(ActionKind.WIN, seat)
    if win in legal:
        return _float_or_win(state, seat, legal, judge) or win
    if state.phase is Phase.TURN:
        return _turn_move(state, seat, legal, judge, rng)
    return _claim_move(state, seat, legal, judge)


MAX_FLOATS = 3
"""财飘 counts at most three times (三财飘)."""


def _float_or_win(state: HandState, seat: int, legal: Sequence[Action], judge: Judge
                  ) -> Action | None:
    """The one time the computer declines a self-draw: when a discard leaves a 暴头 hand
    whose win — certain on the next draw, since any tile completes it — is worth more
    (a plain win given up for ×2, or a 财神 floated for 财飘), and the wall is long
    enough for that draw to come. Hangzhou players play exactly so."""
    if state.phase is not Phase.TURN or state.wildcards.joker is None:
        return None
    if state.wall_remaining <= FLOAT_MIN_WALL:
        return None
    s = state.seats[seat]
    floats = sum(1 for step in s.chain if step is ChainStep.PIAO)
    better = burst_head_discard(judge, s.hand, s.melds, floats, not s.claimed_turn)
    record = remembered_self_draw(state, seat)
    if better is None or record is None or better[1] <= record.settlement.value:
        return None
    action = Action(ActionKind.DISCARD, seat, better[0])
    return action if action in legal else None


FLOAT_MIN_WALL = 24
"""Hangzhou ends the hand at 20 tiles left: float only with a few draws to spare."""


def _turn_move(state: HandState, seat: int, legal: Sequence[Action], judge: Judge,
               rng: random.Random) -> Action:
    s = state.seats[seat]
    for action in legal:
        if action.kind is ActionKind.CONCEALED_KONG:
            meld = make_meld(MeldKind.CONCEALED_KONG, action.tiles, None, state.wildcards)
            rest = s.without(*action.tiles)
            if kong_helps(judge, s.hand, s.melds, rest, (*s.melds, meld), action.tiles):
                return action
        elif action.kind is ActionKind.ADDED_KONG and action.tile is not None:
            after = _added_kong_melds(state, seat, action.tile)
            if after and kong_helps(judge, s.hand, s.melds, s.without(action.tile), after,
                                    (action.tile,)):
                return action
    allowed = [a.tile for a in legal if a.kind is ActionKind.DISCARD and a.tile is not None]
    tile = choose_discard(judge, s.hand, s.melds, remembered_unseen(state, seat), rng, allowed)
    return Action(ActionKind.DISCARD, seat, tile)


def _added_kong_melds(state: HandState, seat: int, tile: Tile) -> tuple[Meld, ...]:
    melds = list(state.seats[seat].melds)
    for i, meld in enumerate(melds):
        if meld.kind is MeldKind.PONG and state.wildcards.plays_as(tile) is meld.face:
            melds[i] = make_meld(MeldKind.ADDED_KONG, (*meld.tiles, tile), meld.from_seat,
                                 state.wildcards)
            return tuple(melds)
    return ()


_CLAIM_MELD = {ActionKind.CHI: MeldKind.CHI, ActionKind.PONG: MeldKind.PONG,
               ActionKind.KONG: MeldKind.KONG}


def _claim_move(state: HandState, seat: int, legal: Sequence[Action], judge: Judge
                ) -> Action:
    window = state.window
    s = state.seats[seat]
    assert window is not None
    # Kongs first, then pongs, then chis: a bigger meld takes more tiles off the table.
    order = (ActionKind.KONG, ActionKind.PONG, ActionKind.CHI)
    for kind in order:
        for action in legal:
            if action.kind is not kind:
                continue
            meld = make_meld(_CLAIM_MELD[kind], (*action.tiles, window.tile), window.from_seat,
                             state.wildcards)
            rest = s.without(*action.tiles)
            if claim_helps(judge, s.hand, s.melds, rest, (*s.melds, meld), action.tiles,
                           must_discard=kind is not ActionKind.KONG):
                return action
    return Action(ActionKind.PASS, seat)


def remembered_judge(state: HandState) -> Judge:
    """The `Judge` of this hand's rule set and 财神, made once a state."""
    return state.remembered("judge", lambda: Judge(state.rules, state.wildcards,
                                                   state.ruleset.shapes))


def remembered_unseen(state: HandState, seat: int) -> tuple[int, ...]:
    """`unseen_counts`, counted once a state (the view's suggestion and the move)."""
    return state.remembered(("unseen", seat), lambda: tuple(unseen_counts(state, seat)))


def unseen_counts(state: HandState, seat: int) -> list[int]:
    """Copies of each kind ``seat`` has not seen: not in its hand, any river, any meld
    shown to it, or the turned 财神 tile (the tiles a kong burns stay unseen, even one
    of the turned tile's kind)."""
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
