"""What a seat may do now: `validate` refuses with a specific reason, and
`legal_actions` offers exactly the candidates that `validate` accepts, so the two can
never disagree."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations_with_replacement, repeat
from operator import is_

from engine.analysis import ShapeRules, Wildcards
from engine.game.actions import Action, checked
from engine.game.errors import (
    AlreadyAnswered,
    HandOver,
    IllegalAction,
    InvalidMeld,
    NotAWin,
    NotYourDecision,
    Restricted,
    TileNotHeld,
    WrongPhase,
)
from engine.game.held import KIND_MARK, HeldTiles, neighbours
from engine.game.kinds import (  # enum members, read fast
    ADDED_KONG,
    CHI,
    CONCEALED_KONG,
    DISCARD,
    ENDED,
    KONG,
    PASS,
    PONG,
    ROB_KONG,
    TURN,
    WIN,
)
from engine.game.settle import judge, self_draw
from engine.game.state import ANSWERS, HandState, SeatState, WinRecord, make, replace
from engine.melds import MeldKind
from engine.memo import IdentityMemo, PlainMemo, bounded
from engine.refusals import Code, Refusal, echo
from engine.rules.common import (
    SEATS,
    ActionKind,
    ClaimCheck,
    RuleError,
    TurnCheck,
    WinKind,
    is_meld,
    make_meld,
)
from engine.tiles import Tile

CLAIM_KINDS = frozenset((CHI, PONG, KONG, WIN))
TURN_KINDS = frozenset((DISCARD, CONCEALED_KONG, ADDED_KONG,
                        WIN))
_CLAIM_MELD = {CHI: MeldKind.CHI, PONG: MeldKind.PONG,
               KONG: MeldKind.KONG}


# ---------------------------------------------------------------------------
# The public questions


def legal_actions(state: HandState, seat: int) -> tuple[Action, ...]:
    """Exactly the actions ``seat`` may take now (empty when it has nothing to decide)."""
    phase = state.phase
    if phase is ENDED or not 0 <= seat < SEATS:
        return ()
    if phase is TURN:
        if seat != state.turn:
            return ()
        # Asked by every view and by the player before its move: worked out once a state
        # (`HandState.remembered`, written out: a turn's offers are never None, and a
        # closure a call was a tenth of the first one's cost).
        answers = state._answers
        if answers is None:
            answers = state.__dict__[ANSWERS] = {}
        question = _LEGAL[seat]
        offers: tuple[Action, ...] | None = answers.get(question)
        if offers is None:
            offers = answers[question] = _turn_actions(state, seat)
        return offers
    window = state.window
    assert window is not None
    if not window.options[seat] or window.answers[seat] is not None:
        return ()
    return (*window.options[seat], _PASSES[seat])


def deciding_seats(state: HandState) -> tuple[int, ...]:
    """The seats whose decision the hand is waiting for."""
    if state.phase is ENDED:
        return ()
    if state.phase is TURN:
        return (state.turn,)
    assert state.window is not None
    return state.window.undecided


def validate(state: HandState, action: Action) -> None:
    """Raise the specific `IllegalAction` if ``action`` is not allowed now."""
    checked(action)
    if state.phase is ENDED:
        raise HandOver(Code.HAND_OVER)
    if state.phase is TURN:
        _validate_turn(state, action)
    else:
        _validate_answer(state, action)


def known_legal(state: HandState, action: Action) -> bool:
    """Whether ``action`` is among the legal actions already worked out for this state
    (`legal_actions` asked before the move, as every player does, or a claim window's
    options): then `validate` would accept it, since the offers are exactly what it
    accepts. Told by identity: every action offered is the one value of it this package
    makes (`offer`), which ``action`` is looked up as (`offered_value`), since comparing
    records field by field costs more than all the rest. Raises `MalformedAction`
    (`checked`) for what is no action at all."""
    same = offered_value(action)
    if same is not None:
        seat = same.seat
        offered: tuple[Action, ...] | None = None
        if state.phase is TURN:
            answers = state._answers  # `remembered_answer`, written out
            if answers is not None:
                offered = answers.get(_LEGAL[seat])
        else:
            window = state.window
            if window is not None and window.answers[seat] is None:
                offered = window.options[seat]
                if offered and same is _PASSES[seat]:
                    return True  # a pass is offered to every seat asked
        if offered and any(map(is_, offered, repeat(same))):
            return True
    checked(action)
    return False


def offered_value(action: Action) -> Action | None:
    """The one value of ``action`` that this package offers (`offer`), when it has made
    one equal to it of exactly typed fields (a copy of an offer, read back from its JSON
    or a button); None otherwise (then it was never offered, or it is malformed)."""
    if not isinstance(action, Action):
        return None
    seat, tile, tiles = action.seat, action.tile, action.tiles
    if type(seat) is not int or not 0 <= seat < SEATS or (
            tile is not None and type(tile) is not Tile):
        return None
    kind = action.kind
    if not tiles:
        if kind is DISCARD:  # the commonest move, and a discard, win or pass: a table's
            return None if tile is None else _DISCARDS[seat][tile]
        if tile is None:
            return _WINS[seat] if kind is WIN else _PASSES[seat] if kind is PASS else None
    elif not all(type(t) is Tile for t in tiles):
        return None
    return _OFFERS.get((kind, seat, tile, tiles)) if type(kind) is ActionKind else None


def offer(kind: ActionKind, seat: int, tile: Tile | None = None,
          tiles: tuple[Tile, ...] = ()) -> Action:
    """The action of these fields as this package offers it: one value, made once (a
    claim's or a kong's; a discard's, a win's and a pass's are made at import,
    `DISCARD_OFFERS`)."""
    action = _OFFERS.get((kind, seat, tile, tiles))
    if action is None:
        made = Action(kind, seat, tile, tiles)
        key = (kind, seat, tile, made.tiles)  # (its tiles in order, as an action keeps them)
        action = _OFFERS.get(key) or _OFFERS.keep(key, made)
    return action


LEGAL_QUESTION = _LEGAL = tuple(f"legal_actions {seat}" for seat in range(SEATS))
"""The question `legal_actions` of a turn is remembered under, a seat's (a string's
hash is kept with it, a tuple's is worked out on every look-up)."""


def _turn_actions(state: HandState, seat: int) -> tuple[Action, ...]:
    situation = _turn_situation(state, seat)
    s = state.seats[seat]
    discards = _discard_offers(seat, s.hand)
    ruleset = state.ruleset
    # Most turns no rule refuses a discard: the rule set says so once for all of them.
    if ruleset.restricts_discards(situation, state.options):
        discards = tuple(a for a in discards if _turn_allowed(state, a, situation))
    # Most turns: no kong (`_may_kong`) and no self-draw (`_self_draw_refusal`, asked
    # first, as it spares the rule set's question).
    held = s.held(state.wildcards, ruleset.shapes)
    others: tuple[Action, ...] = ()
    if _may_kong(held):
        others = tuple(a for a in _meld_candidates(state, seat, s.hand)
                       if _turn_allowed(state, a, situation))
    win = _WINS[seat]
    if _self_draw_refusal(state, seat, held) is None and \
            _turn_allowed(state, win, situation):
        return (*discards, *others, win)
    return (*discards, *others) if others else discards


def _may_kong(held: HeldTiles) -> bool:
    """False when `_meld_candidates` has nothing: no face held four times even with
    every 财神 (no concealed kong), and no tile held that plays as a pong's face, no
    财神 held and no 财神 in a pong (no added kong). Told from the counted tiles and
    what their melds' pongs play as (both kept with them)."""
    if held.fills_four():
        return True
    faces = held.basis.pong_faces
    if not faces:
        return False
    counts, jokers = held.split
    return bool(jokers) or None in faces or any(counts[f] for f in faces if f is not None)


@bounded(maxsize=1 << 12)
def _discard_offers(seat: int, hand: tuple[Tile, ...]) -> tuple[Action, ...]:
    """A discard of each kind in ``hand``, in tile order (one tuple per seat and hand:
    a hand comes back often enough in play, and the tuple is shared, never changed)."""
    return tuple(_DISCARDS[seat][tile] for tile in sorted(set(hand)))


def _turn_allowed(state: HandState, candidate: Action, situation: TurnCheck) -> bool:
    """`validate` of a turn candidate. A candidate is well formed, the seat's own and
    made of its own tiles and melds, so of `_validate_turn`'s checks only the rule set's
    refusals and the self-draw's can refuse it (tests/game/test_properties.py holds
    the offers and `apply` to each other)."""
    try:
        _rule_refusal_on_turn(state, candidate, situation)
    except IllegalAction:
        return False
    return True


# ---------------------------------------------------------------------------
# One's own turn


def _validate_turn(state: HandState, action: Action) -> None:
    seat = action.seat
    if seat != state.turn:
        raise NotYourDecision(Code.NOT_YOUR_TURN, seat=state.turn)
    if action.kind not in TURN_KINDS:
        raise WrongPhase(Code.TURN_ONLY, kind=action.kind.value)
    s = state.seats[seat]
    used = (action.tile,) if action.tile is not None else action.tiles
    if not s.holds(used):
        raise TileNotHeld(Code.NOT_HELD, tiles=tuple(used))
    if action.kind is CONCEALED_KONG:
        _meld_or_refuse(MeldKind.CONCEALED_KONG, action.tiles, state)
    elif action.kind is ADDED_KONG:
        assert action.tile is not None
        if added_kong_target(state, seat, action.tile) is None:
            raise InvalidMeld(Code.NO_PONG, tile=action.tile)
    _rule_refusal_on_turn(state, action)
    if action.kind is WIN:
        refusal = _self_draw_refusal(state, seat, s.held(state.wildcards, state.ruleset.shapes))
        if refusal is not None:
            raise NotAWin(refusal)


def _turn_situation(state: HandState, seat: int) -> TurnCheck:
    """The `TurnCheck` of ``seat``'s turn, without the decision (a discard placeholder):
    the same for every decision the turn offers, and one record for every turn of the
    same facts (`_SITUATIONS`: a turn's offers ask it first)."""
    drawn = state.seats[seat].drawn
    after_claim = drawn is None and not state.opening
    wild, zhua_da = state.wildcards, state.zhua_da
    facts = (seat, drawn, after_claim, zhua_da)
    situation = _SITUATIONS.find(wild, facts)
    if situation is None:
        situation = _SITUATIONS.keep(wild, facts, make(TurnCheck, {
            "kind": DISCARD, "seat": seat, "wildcards": wild, "tile": None,
            "meld_tiles": (), "drawn": drawn, "after_claim": after_claim,
            "zhua_da": zhua_da}))
    return situation


_SITUATIONS: IdentityMemo[TurnCheck] = IdentityMemo("engine.game.legal.turn_situations",
                                                    1 << 12)
"""`_turn_situation`, by the hand's 财神 (which `Wildcards`) and the turn's facts: a
few hundred a hand's 财神 at most (a seat, the tile drawn, 抓打)."""


def _rule_refusal_on_turn(state: HandState, action: Action,
                          situation: TurnCheck | None = None) -> None:
    if situation is None:
        situation = _turn_situation(state, action.seat)
    check = replace(situation, kind=action.kind, tile=action.tile,
                    meld_tiles=action.tiles if action.tile is None else (action.tile,))
    reason = state.ruleset.turn_refusal(check, state.options)
    if reason:
        raise Restricted(reason)


def _self_draw_refusal(state: HandState, seat: int, held: HeldTiles) -> Refusal | None:
    """Why ``seat`` may not win on its own draw now, or None when it may (``held``: the
    seat's `HeldTiles`): the turn's offer and `validate` both ask it."""
    # Most turns: the tiles are no winning shape (`HeldTiles.is_complete`, a few sums),
    # and `self_draw` would say None. Asked first: the seat's shape, worked out here
    # once its tiles changed, is what its next discard and the claim checks on the
    # others' discards read too.
    complete = held.is_complete()
    if state.seats[seat].drawn is None and not state.opening:
        return _NO_DRAW
    if not complete:
        return _INCOMPLETE
    record = remembered_self_draw(state, seat)
    if record is None:
        return _INCOMPLETE
    if not record.settlement.valid:
        return record.settlement.reason or _NOT_VALID
    return None


_NO_DRAW = Refusal.of(Code.NO_DRAW)
_INCOMPLETE = Refusal.of(Code.INCOMPLETE)
_NOT_VALID = Refusal.of(Code.NOT_VALID)


def remembered_self_draw(state: HandState, seat: int) -> WinRecord | None:
    """`self_draw`, judged once a state (the offer, the view's value, the computer's
    choice and the move itself all ask it)."""
    return state.remembered((_SELF_DRAW, seat), lambda: self_draw(state, seat))


_SELF_DRAW = "self_draw"


def added_kong_target(state: HandState, seat: int, tile: Tile) -> int | None:
    """Index of the pong ``tile`` turns into a kong: one of its own face first, else
    (a 财神) the oldest pong it fits."""
    melds = state.seats[seat].melds
    fits = [i for i, m in enumerate(melds) if m.kind is MeldKind.PONG
            and _is_meld(MeldKind.ADDED_KONG, (*m.tiles, tile), state)]
    same = [i for i in fits if state.wildcards.plays_as(tile) is melds[i].face]
    chosen = same or fits
    return chosen[0] if chosen else None


def _meld_candidates(state: HandState, seat: int, hand: tuple[Tile, ...]
                     ) -> Iterator[Action]:
    """The turn's concealed and added kongs; ``hand``: the seat's tiles, in order."""
    for tiles in _kong_sets(state, seat):
        yield offer(CONCEALED_KONG, seat, None, tiles)
    pongs = [m for m in state.seats[seat].melds if m.kind is MeldKind.PONG]
    if pongs:  # else no tile can add to one
        wild = state.wildcards
        # A natural tile adds only to a pong of what it plays as (or of 财神 alone).
        faces = {wild.plays_as(t) for m in pongs for t in m.tiles}
        for tile in sorted(set(hand)):
            plays = wild.plays_as(tile)
            if (plays is None or plays in faces or None in faces) and \
                    added_kong_target(state, seat, tile) is not None:
                yield offer(ADDED_KONG, seat, tile)


# Actions are values: each one offered is made once. A discard, a win and a pass
# (offered on every turn, or to every seat asked) are made here, by seat (and tile).
DISCARD_OFFERS = _DISCARDS = tuple({tile: Action(DISCARD, seat, tile) for tile in Tile}
                  for seat in range(SEATS))
_WINS = tuple(Action(WIN, seat) for seat in range(SEATS))
_PASSES = tuple(Action(PASS, seat) for seat in range(SEATS))
_OFFERS: PlainMemo[tuple[ActionKind, int, Tile | None, tuple[Tile, ...]], Action] = \
    PlainMemo("engine.game.legal.offers", 1 << 14)
"""Every claim and kong offered (`offer`), by its fields: a few thousand at most (a
face's pongs, kongs and runs with 财神, the concealed kongs), the bound never reached in
play; emptied at it, a move given as a value of the old ones is `validate`d in full."""


def _kong_sets(state: HandState, seat: int) -> Iterator[tuple[Tile, ...]]:
    """Every distinct four-tile concealed kong in the hand (财神 may fill places)."""
    wild = state.wildcards
    counts, joker_count = state.seats[seat].held(wild, state.ruleset.shapes).split
    if max(counts) + joker_count < 4:
        return  # most turns: no face held four times, even with every 财神
    hand = Counter(state.seats[seat].hand)
    jokers = [t for t in hand if wild.is_joker(t)]
    playing_as: dict[Tile, list[Tile]] = {}
    for t in hand:
        natural = wild.plays_as(t)
        if natural is not None:
            playing_as.setdefault(natural, []).append(t)
    seen: set[tuple[Tile, ...]] = set()
    # Four 财神 alone are found under any face: a hand that can kong holds five tiles.
    for face in sorted(playing_as):
        kinds = playing_as[face] + jokers
        if sum(hand[t] for t in kinds) >= 4:  # else the hand holds no four of them
            seen.update(_multisets(hand, kinds, 4))
    yield from sorted(s for s in seen if _is_meld(MeldKind.CONCEALED_KONG, s, state))


# ---------------------------------------------------------------------------
# Answering a claim window


def _validate_answer(state: HandState, action: Action) -> None:
    window = state.window
    assert window is not None
    seat = action.seat
    if seat == window.from_seat:
        raise NotYourDecision(Code.OWN_TILE)
    if not window.options[seat]:
        if action.kind in CLAIM_KINDS:
            check_claim(state, action)  # say which rule forbids it, when one does
        raise NotYourDecision(Code.NOTHING_TO_CLAIM, tile=window.tile)
    if window.answers[seat] is not None:
        raise AlreadyAnswered(Code.ANSWERED)
    if action.kind is PASS or action in window.options[seat]:
        return
    check_claim(state, action)
    raise IllegalAction(Code.NOT_A_CHOICE, action=echo(action))


def check_claim(state: HandState, action: Action) -> None:
    """Raise why ``action`` may not claim the tile of the open window."""
    window = state.window
    assert window is not None
    rob = state.phase is ROB_KONG
    if action.kind not in CLAIM_KINDS:
        raise WrongPhase(Code.CLAIM_OR_PASS, seat=window.from_seat, tile=window.tile)
    if rob and action.kind is not WIN:
        raise WrongPhase(Code.ROB_ONLY)
    if action.kind is CHI and action.seat != (window.from_seat + 1) % SEATS:
        raise Restricted(Code.CHI_UPPER)
    if not state.seats[action.seat].holds(action.tiles):
        raise TileNotHeld(Code.NOT_HELD, tiles=action.tiles)
    if action.kind in _CLAIM_MELD:
        _meld_or_refuse(_CLAIM_MELD[action.kind], (*action.tiles, window.tile), state)
    _refuse_claim(state, action, _claim_check(state, action))


def _refuse_claim(state: HandState, action: Action, check: ClaimCheck) -> None:
    """Raise why the rule set refuses the claim ``action`` (``check``: what it is told),
    or why it is no win when it claims one: the last of `check_claim`'s checks, the
    only ones a candidate (`_claim_allowed`) can fail."""
    reason = state.ruleset.claim_refusal(check, state.options)
    if reason:
        raise Restricted(reason)
    if action.kind is WIN:
        _check_claim_win(state, action.seat, state.phase is ROB_KONG)


def _claim_check(state: HandState, action: Action) -> ClaimCheck:
    window = state.window
    assert window is not None
    s = state.seats[action.seat]
    return make(ClaimCheck, {
        "kind": action.kind, "claimer": action.seat, "discarder": window.from_seat,
        "tile": window.tile, "dealer": state.dealer, "streak": state.streak,
        "claims": state.claims, "wildcards": state.wildcards, "meld_tiles": action.tiles,
        "chis": s.chis, "passed_wins": s.passed_wins, "passed_pongs": s.passed_pongs,
        "zhua_da": state.zhua_da, "last_window": window.last})


def _check_claim_win(state: HandState, seat: int, rob: bool) -> None:
    window = state.window
    assert window is not None
    if not state.seats[seat].held(state.wildcards, state.ruleset.shapes).wins_on(window.tile):
        raise NotAWin(Code.NOT_COMPLETE, tile=window.tile)
    kind = WinKind.ROB_KONG if rob else WinKind.DISCARD
    record = judge(state, seat, kind, window.tile, window.from_seat)
    if not record.settlement.valid:
        raise NotAWin(record.settlement.reason or Refusal(Code.NOT_VALID))


def claim_options(state: HandState, seat: int) -> tuple[Action, ...]:
    """Every claim ``seat`` may make on the open window's tile (computed once, when the
    window opens: nothing a claim depends on changes while it is open)."""
    window = state.window
    assert window is not None
    if seat == window.from_seat:
        return ()
    candidates = tuple(_claim_candidates(state, seat))
    if not candidates:
        return ()
    # What the rule set is told is the same for each candidate but its kind and tiles:
    # made once, copied with those.
    first = _claim_check(state, candidates[0])
    return tuple(a for a in candidates if _claim_allowed(state, a, first))


def _claim_allowed(state: HandState, candidate: Action, first: ClaimCheck) -> bool:
    """`check_claim` of a candidate. A candidate claims the window's tile from the seat
    it may (chi: the next seat), with tiles the seat holds that meld with it, or wins on
    a tile that completes the hand; so of `check_claim`'s checks only the last can
    refuse it, the rule set's refusals and the win's settlement (`_refuse_claim`;
    tests/game/test_properties.py holds the offers and `validate` to each other).
    ``first``: `_claim_check` of the seat's first candidate."""
    check = first if first.kind is candidate.kind and first.meld_tiles is candidate.tiles \
        else replace(first, kind=candidate.kind, meld_tiles=candidate.tiles)
    try:
        _refuse_claim(state, candidate, check)
    except IllegalAction:
        return False
    return True


def could_claim(state: HandState, tile: Tile, from_seat: int, rob: bool
                ) -> tuple[bool, ...]:
    """For each seat, whether it has any candidate claim on ``tile`` given by
    ``from_seat`` (on its tiles' shape alone, before any rule is asked): when not, its
    `claim_options` are empty. Most discards nobody could claim, and their window is
    never built."""
    # What the tile plays as (the state's table of `Wildcards.plays_as`); a robbed kong
    # is only won on.
    face = None if rob else state.plays[tile]
    if face is None:  # a 财神, or a robbed kong: only a win may take it
        return _could_win(state, tile, from_seat)
    return claimers(state.seats, state.wildcards, state.ruleset.shapes, tile, face,
                    from_seat)


def claimers(seats: Sequence[SeatState], wild: Wildcards, shapes: ShapeRules, tile: Tile,
             face: Tile, from_seat: int) -> tuple[bool, ...]:
    """`could_claim` of a tile that plays as ``face`` (no 财神, no robbed kong), told
    the state's seats (``from_seat``'s own is not asked), 财神 and shapes: a discard
    (`engine.game.hand.discard`) has them at hand."""
    group, mark = KIND_MARK[face]
    could: list[bool] | None = None
    for seat, chi in _ASKED[from_seat]:  # (chi only from the seat just before)
        s = seats[seat]
        # `SeatState.held`, read from the seat's record where it is kept (three seats a
        # discard, most of them the same records as on the last discard).
        held = s._held
        if held is None or held.wildcards is not wild or held.shapes is not shapes:
            held = s.held(wild, shapes)
        if not held.marked:
            held.mark_claims()
        # Most discards: the kind is not among the seat's marks (`HeldTiles.mark_claims`,
        # worked out once a hand change and asked on the other seats' discards), and the
        # seat may not claim it.
        if held.marks[chi][group] & mark and held.may_claim(tile, face, chi):
            if could is None:
                could = [False] * SEATS
            could[seat] = True
    return _NOBODY if could is None else tuple(could)


def _could_win(state: HandState, tile: Tile, from_seat: int) -> tuple[bool, ...]:
    """`could_claim` of a tile only a win may take (a 财神, or a robbed kong)."""
    wild, shapes = state.wildcards, state.ruleset.shapes
    return tuple(seat != from_seat and s.held(wild, shapes).may_claim(tile, None, False)
                 for seat, s in enumerate(state.seats))


_NOBODY = (False,) * SEATS
_ASKED = tuple(tuple(((seat + k) % SEATS, k == 1) for k in range(1, SEATS))
               for seat in range(SEATS))
"""The seats asked about a discard of each seat, in turn order, and whether each may
chi it (only the next one)."""


def _claim_candidates(state: HandState, seat: int) -> Iterator[Action]:
    window = state.window
    assert window is not None
    s = state.seats[seat]
    wild = state.wildcards
    shapes = state.ruleset.shapes
    # Counted once per hand, on the natural kinds the tiles play as (`HeldTiles`).
    held = s.held(wild, shapes)
    # A win on a tile that does not complete the hand would be refused by `check_claim`
    # anyway; the shape test is cheap, the rest of the checks are not.
    if held.wins_on(window.tile):
        yield _WINS[seat]
    if state.phase is ROB_KONG:
        return
    face = wild.plays_as(window.tile)
    if face is None:
        return  # a discarded 财神: nothing to meld it with (the rules refuse it anyway)
    # Most seats, most discards: fewer than two tiles to meld it with (jokers fill any
    # place), so the enumerations below are skipped.
    counts, jokers_held = held.split
    may_pong = counts[face] + jokers_held >= 2
    may_chi = seat == (window.from_seat + 1) % SEATS and face.is_suited and \
        jokers_held + neighbours(counts, face) >= 2
    if not may_pong and not may_chi:
        return
    yield from _meld_claims(seat, window.tile, face, wild, held.basis.plays, s.hand,
                            may_pong, may_chi)


def _meld_claims(seat: int, tile: Tile, face: Tile, wild: Wildcards,
                 plays: tuple[Tile | None, ...], hand: tuple[Tile, ...], may_pong: bool,
                 may_chi: bool) -> tuple[Action, ...]:
    """The chi, pong and kong candidates of ``seat`` on ``tile`` (which plays as
    ``face``; ``plays``: what each tile plays as under ``wild``): `_melds_of` the tiles
    of ``hand`` that could meld with it, kept once worked out for those tiles (a seat
    holds the same few of them on many discards of a hand, and the same values come
    back from hand to hand: `_MELD_CLAIMS`)."""
    # Only the tiles that could meld with the discard (the 财神, the tiles that play
    # as its face, and its neighbours when the seat may chi): what the claims depend on.
    near = _NEAR[face] if may_chi else _NO_NEIGHBOURS
    melding = tuple([t for t in hand if plays[t] is None or plays[t] is face
                     or plays[t] in near])
    key = (seat, tile, may_pong, may_chi, melding)
    known = _MELD_CLAIMS.find(wild, key)
    if known is None:
        known = _MELD_CLAIMS.keep(wild, key, tuple(
            _melds_of(seat, tile, face, wild, plays, melding, may_pong, may_chi)))
    return known


def _melds_of(seat: int, tile: Tile, face: Tile, wild: Wildcards,
              plays: tuple[Tile | None, ...], tiles: tuple[Tile, ...], may_pong: bool,
              may_chi: bool) -> Iterator[Action]:
    """The chi, pong and kong candidates on ``tile`` (which plays as ``face``), with
    财神 and stand-ins: every multiset of ``tiles`` (the seat's, in order) that could
    meld with it, checked as a meld; the pongs, then the kongs, then the chis, each in
    order."""
    kinds = set(tiles)
    jokers = [t for t in kinds if plays[t] is None]
    # Tiles that make no meld with the discard are left out here: `check_claim` would
    # refuse them, only later and at the price of its message.
    if may_pong:
        same = [t for t in kinds if plays[t] is face] + jokers
        copies = {t: tiles.count(t) for t in same}
        for kind, size in ((PONG, 2), (KONG, 3)):
            for combo in sorted(_multisets(copies, same, size)):
                if is_meld(_CLAIM_MELD[kind], (*combo, tile), wild):
                    yield offer(kind, seat, None, combo)
    if may_chi:
        near = [t for t in kinds if plays[t] in _NEAR[face]] + jokers
        copies = {t: tiles.count(t) for t in near}
        for combo in sorted(_multisets(copies, near, 2)):
            if is_meld(MeldKind.CHI, (*combo, tile), wild):
                yield offer(CHI, seat, None, combo)


_MELD_CLAIMS: IdentityMemo[tuple[Action, ...]] = IdentityMemo(
    "engine.game.legal.meld_claims", 1 << 12)
"""`_meld_claims`, by the hand's 财神 (which `Wildcards`) and the seat, discard and
tiles that could meld with it: the claims, each one value made once for them (so that
`known_legal` knows a claim given back by identity)."""


def _near(tile: Tile | None, face: Tile) -> bool:
    """A kind one or two ranks from the suited ``face``, in its suit."""
    return tile is not None and tile < _HONOURS and tile // 9 == face // 9 and \
        0 < abs(tile - face) <= 2


_HONOURS = int(Tile.EAST)  # the kinds before it are the suits' (a plain int: compared often)
_NEAR = tuple(frozenset(t for t in Tile if _near(t, face)) for face in Tile)
"""The kinds `_near` each face (by tile), that a chi on it may take."""
_NO_NEIGHBOURS: frozenset[Tile] = frozenset()


# ---------------------------------------------------------------------------
# Melds


def _multisets(hand: Mapping[Tile, int], kinds: list[Tile], size: int
               ) -> set[tuple[Tile, ...]]:
    """Distinct ``size``-tile multisets of ``kinds`` that the hand holds (``hand``: the
    copies held of each of ``kinds``, at least)."""
    out: set[tuple[Tile, ...]] = set()
    for combo in combinations_with_replacement(sorted(set(kinds)), size):
        if all(hand[t] >= combo.count(t) for t in combo):
            out.add(combo)
    return out


def _is_meld(kind: MeldKind, tiles: tuple[Tile, ...], state: HandState) -> bool:
    return is_meld(kind, tiles, state.wildcards)


def _meld_or_refuse(kind: MeldKind, tiles: tuple[Tile, ...], state: HandState) -> None:
    try:
        make_meld(kind, tiles, None, state.wildcards)
    except RuleError as exc:
        raise InvalidMeld(exc.refusal) from None
