"""`apply`: one action in, the next state and what happened out. Nothing is mutated;
internally each step returns a new state and appends to a local event list."""

from __future__ import annotations

from engine.game.actions import Action
from engine.game.claims import Resolution, resolve
from engine.game.events import (
    ClaimAnswered,
    ClaimWindowClosed,
    ClaimWindowOpened,
    Event,
    FlowerLaidAside,
    HandEnded,
    MeldDeclared,
    TileBurned,
    TileDiscarded,
    TileDrawn,
)
from engine.game.kinds import (  # enum members, read fast
    ADDED_KONG,
    CHI,
    CLAIM,
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
from engine.game.legal import (
    added_kong_target,
    claim_options,
    claimers,
    could_claim,
    known_legal,
    remembered_self_draw,
    validate,
)
from engine.game.settle import eight_flowers, judge
from engine.game.state import (
    ClaimWindow,
    Discard,
    HandResult,
    HandState,
    SeatState,
    WinRecord,
    copied,
    make,
    replace,
)
from engine.melds import MeldKind
from engine.rules.common import SEATS, ChainStep, Replacement, WinKind, make_meld
from engine.tiles import Tile

_MELD_OF = {CHI: MeldKind.CHI, PONG: MeldKind.PONG,
            KONG: MeldKind.KONG}
FLOWERS_FOR_BA_HUA = 8


def apply(state: HandState, action: Action) -> tuple[HandState, tuple[Event, ...]]:
    """The state after ``action`` and the events it caused; raises a subclass of
    `IllegalAction` (and changes nothing) when the action is not allowed now."""
    if not known_legal(state, action):
        validate(state, action)  # which rule refuses it, when one does
    events: list[Event] = []
    if state.phase is not TURN:
        new = _answer(state, action, events)
    elif action.kind is DISCARD:  # the commonest move
        assert action.tile is not None
        new = discard(state, action.seat, action.tile, events)
    else:
        new = _turn(state, action, events)
    # ``new`` was made by this call and nobody has seen it yet: count the action in it
    # rather than copy it once more.
    assert new is not state
    new.__dict__["seq"] = state.seq + 1
    return new, tuple(events)


def _turn(state: HandState, action: Action, ev: list[Event]) -> HandState:
    seat = action.seat
    if action.kind is CONCEALED_KONG:
        return _concealed_kong(state, seat, action.tiles, ev)
    if action.kind is ADDED_KONG:
        assert action.tile is not None
        return _added_kong(state, seat, action.tile, ev)
    record = remembered_self_draw(state, seat)
    assert record is not None
    return end(state, (record,), ev)


# ---------------------------------------------------------------------------
# Draws


def draw(state: HandState, seat: int, ev: list[Event],
         values: dict[str, object] | None = None, seats: list[SeatState] | None = None, *,
         replacement: Replacement | None = None) -> HandState:
    """``seat`` draws (a replacement from the back), laying flowers aside as they come.

    The hand is drawn (荒局) when a draw is needed and the wall is empty. ``values``:
    the dictionary of the state's copy (`copied`) with the changes of the move that led
    to this draw (a discard nobody may claim, the answer that closed a window), which
    the draw sets its own changes in: the move and the draw make one copy of the state;
    ``seats``, the seats as that move left them, a list the draw may change (then not
    set in ``values`` yet).
    """
    wall = state.wall
    front, back = state.front, state.back
    if values is None:
        values = state.__dict__.copy()
    if seats is None:
        # (The dictionary holds any field's values, so the type is said here.)
        seats = list(values["seats"])  # type: ignore[call-overload]  # ↑
    if len(wall) == front + back:  # nothing left to draw
        values["seats"] = tuple(seats)
        return end(copied(state, values), (), ev)
    s = seats[seat]
    mine = s.__dict__.copy()
    # A draw ends what lasts "until the player's own next draw" (漏胡, 漏碰, 抓打); a
    # plain draw starts a turn, and by the dealer ends the first go-round.
    mine["passed_wins"] = mine["passed_pongs"] = _NONE_PASSED
    if replacement is None:
        tile = wall[front]
        values["front"] = front + 1
        mine["claimed_turn"] = False
        if seat == state.dealer:
            values["first_go_round"] = False
    else:
        tile = wall[-1 - back]
        values["back"] = back + 1
    if values["zhua_da"] == seat:
        values["zhua_da"] = None
    if tile >= _FIRST_FLOWER:  # laid aside, and a replacement drawn for it
        mine["flowers"] = flowers = (*s.flowers, tile)
        seats[seat] = copied(s, mine)
        values["seats"] = tuple(seats)
        state = copied(state, values)
        ev.append(FlowerLaidAside(seat, tile))
        if len(flowers) == FLOWERS_FOR_BA_HUA:
            return end(state, (eight_flowers(state, seat),), ev)
        return draw(state, seat, ev, replacement=Replacement.FLOWER)
    ev.append(_DRAWN[seat][replacement is not None][tile])
    mine["drawn"] = tile
    seats[seat] = s.after(tile, 1, mine)
    # The seat's record and the state's are each copied once a draw (a move's hot path).
    values["seats"] = tuple(seats)
    values["phase"] = TURN
    values["turn"] = seat
    values["window"] = None
    values["replacement"] = replacement
    return copied(state, values)


_FIRST_FLOWER = int(Tile.SPRING)  # a plain int: compared on every draw
_NONE_PASSED: frozenset[Tile] = frozenset()
_NEXT = tuple((seat + 1) % SEATS for seat in range(SEATS))


def kong_replacement(state: HandState, seat: int, ev: list[Event]) -> HandState:
    """The replacement after a kong, then (Hangzhou) the tiles that leave unseen."""
    state = draw(state, seat, ev, replacement=Replacement.KONG)
    for _ in range(state.ruleset.kong_burns):
        if state.phase is ENDED or state.wall_remaining == 0:
            break
        tile = state.wall[-1 - state.back]
        state = replace(state, back=state.back + 1, set_aside=(*state.set_aside, tile))
        ev.append(TileBurned())
    return state


# ---------------------------------------------------------------------------
# One's own turn


def discard(state: HandState, seat: int, tile: Tile, ev: list[Event]) -> HandState:
    """``seat`` discards ``tile``."""
    wildcards = state.wildcards
    face = state.plays[tile]  # what it plays as (`Wildcards.plays_as`; None: a 财神)
    seats = list(state.seats)
    s = seats[seat]
    mine = s.__dict__.copy()
    mine["drawn"] = None
    # The chain runs over consecutive turns that ended in a 财神 discard (飘); a turn
    # that began with a chi or pong is outside it (hangzhou.md, decision).
    mine["chain"] = (*s.chain, ChainStep.PIAO) if face is None and not s.claimed_turn \
        else ()
    mine["discards"] = (*s.discards, _UNCLAIMED[tile])
    seats[seat] = s.after(tile, -1, mine)
    values = state.__dict__.copy()
    if face is None:  # 抓打 starts, or passes to this seat, with a 财神 discard
        values["zhua_da"] = seat
    ev.append(_DISCARDED[seat][tile])
    ruleset = state.ruleset
    limit = ruleset.last_window_tiles
    last = limit is not None and len(state.wall) - state.front - state.back <= limit
    # Who could claim it (`could_claim`), asked of the other seats (the discarder's is
    # never asked). Most discards: nobody, and the next seat's draw is made in the same
    # copy of the state as the discard.
    could = could_claim(state, tile, seat, False) if face is None else \
        claimers(seats, wildcards, ruleset.shapes, tile, face, seat)
    if not last and True not in could:
        return draw(state, _NEXT[seat], ev, values, seats)
    values["seats"] = tuple(seats)
    return open_window(copied(state, values), seat, tile, ev, last=last, could=could)


# A discard nobody claimed is a value of its tile alone, and the events of discards
# and draws values of their seat and tile: each made once.
_UNCLAIMED = {tile: Discard(tile) for tile in Tile}
_DISCARDED = tuple({tile: TileDiscarded(seat, tile) for tile in Tile} for seat in range(SEATS))
_DRAWN = tuple({back: {tile: TileDrawn(seat, tile, back) for tile in Tile}
                for back in (False, True)} for seat in range(SEATS))


def _concealed_kong(state: HandState, seat: int, tiles: tuple[Tile, ...],
                    ev: list[Event]) -> HandState:
    meld = make_meld(MeldKind.CONCEALED_KONG, tiles, None, state.wildcards)
    state = _kong_made(state, seat, meld_tiles=tiles)
    s = state.seats[seat]
    state = state.with_seat(seat, melds=(*s.melds, meld))
    ev.append(MeldDeclared(seat, meld))
    return kong_replacement(state, seat, ev)


def _added_kong(state: HandState, seat: int, tile: Tile, ev: list[Event]) -> HandState:
    index = added_kong_target(state, seat, tile)
    assert index is not None
    state = _kong_made(state, seat, meld_tiles=(tile,))
    s = state.seats[seat]
    pong = s.melds[index]
    kong = make_meld(MeldKind.ADDED_KONG, (*pong.tiles, tile), pong.from_seat, state.wildcards)
    kong = replace(kong, claimed=pong.claimed)
    melds = (*s.melds[:index], kong, *s.melds[index + 1:])
    state = state.with_seat(seat, melds=melds)
    ev.append(MeldDeclared(seat, kong))
    if state.ruleset.rob_added_kong:
        return open_window(state, seat, tile, ev, rob=True)
    return kong_replacement(state, seat, ev)


def _kong_made(state: HandState, seat: int, meld_tiles: tuple[Tile, ...]) -> HandState:
    s = state.seats[seat]
    state = state.with_seat(seat, hand=s.without(*meld_tiles), drawn=None,
                            chain=(*s.chain, ChainStep.GANG))
    return replace(state, first_go_round=False)


# ---------------------------------------------------------------------------
# Claim windows


def open_window(state: HandState, seat: int, tile: Tile, ev: list[Event], *,
                last: bool = False, rob: bool = False,
                could: tuple[bool, ...] | None = None) -> HandState:
    """Ask only the seats with a legal claim; with none, move straight on. ``could``:
    `could_claim` of the tile, when the caller asked it already."""
    # Most discards: no seat holds the tiles to claim this one, and no window is built.
    if could is None:
        could = could_claim(state, tile, seat, rob)
    if not any(could):
        return _no_claim(state, seat, rob, last, ev)
    phase = ROB_KONG if rob else CLAIM
    empty = ((),) * SEATS
    window = make(ClaimWindow, {"tile": tile, "from_seat": seat, "options": empty,
                                "answers": (None,) * SEATS, "last": last,
                                "opened_at": state.seq + 1})
    probe = replace(state, phase=phase, window=window)
    options = tuple(claim_options(probe, s) if could[s] else () for s in range(SEATS))
    if not any(options):
        return _no_claim(state, seat, rob, last, ev)
    window = replace(window, options=options)
    ev.append(ClaimWindowOpened(tile, seat, window.asked, rob, last))
    return replace(probe, window=window)


def _answer(state: HandState, action: Action, ev: list[Event]) -> HandState:
    window = state.window
    assert window is not None
    seat = action.seat
    passed = _passed(state, action)
    # A pass (well formed: `validate` or an offer said so) is one value a seat.
    ev.append(_PASS_ANSWERED[seat] if action.kind is PASS else
              ClaimAnswered(action))
    values = state.__dict__.copy()  # the state's copy (`copied`)
    seats: list[SeatState] | None = None
    if passed is not None:  # what the answer binds the seat to
        seats = list(state.seats)
        seats[seat] = copied(seats[seat], passed)
    if action.kind is PASS and state.phase is CLAIM and not window.last \
            and _others_passed(window, seat):
        # The last of the asked seats passed a discard (what `resolve` says nobody
        # takes): the next draw is made in the same copy of the state as the answer.
        ev.append(_UNCLAIMED_CLOSE)
        return draw(state, _NEXT[window.from_seat], ev, values, seats)
    if seats is not None:
        values["seats"] = tuple(seats)
    answers = list(window.answers)
    answers[seat] = action
    window = values["window"] = replace(window, answers=tuple(answers))
    outcome = resolve(window, state.ruleset.multiple_winners)
    # The answer and what it binds the seat to, in one copy of the state.
    state = copied(state, values)
    return state if outcome is None else _close(state, outcome, ev)


def _others_passed(window: ClaimWindow, seat: int) -> bool:
    """Whether every seat asked on ``window`` but ``seat`` has answered with a pass."""
    answers, options = window.answers, window.options
    for other in range(SEATS):
        if other != seat and options[other]:
            answer = answers[other]
            if answer is None or answer.kind is not PASS:
                return False
    return True


# The events of a pass and of a window nobody claimed from, each made once a seat.
_PASS_ANSWERED = tuple(ClaimAnswered(Action(PASS, seat)) for seat in range(SEATS))
_UNCLAIMED_CLOSE = ClaimWindowClosed()


def _passed(state: HandState, action: Action) -> dict[str, object] | None:
    """漏胡 / 漏碰: declining a win (or a pong, by passing or chi) binds until one's draw.
    The seat's copy's dictionary (`copied`), or None when this answer binds it to
    nothing new."""
    window = state.window
    assert window is not None
    if not state.ruleset.passed_claims_bind or state.phase is ROB_KONG:
        return None
    kind = action.kind
    declined_win = declined_pong = False
    for offer in window.options[action.seat]:  # one loop, not two generators (every answer)
        if offer.kind is WIN:
            declined_win = kind is not WIN
        elif offer.kind is PONG:
            declined_pong = kind is PASS or kind is CHI
    if not declined_win and not declined_pong:
        return None  # most answers: a pass on a chi, or the claim taken
    face = state.wildcards.plays_as(window.tile) or window.tile
    s = state.seats[action.seat]
    wins, pongs = s.passed_wins, s.passed_pongs
    if declined_win:
        wins = wins | {face}
    if declined_pong:
        pongs = pongs | {face}
    if wins == s.passed_wins and pongs == s.passed_pongs:
        return None
    mine = s.__dict__.copy()
    mine["passed_wins"] = wins
    mine["passed_pongs"] = pongs
    return mine


def _close(state: HandState, outcome: Resolution, ev: list[Event]) -> HandState:
    window = state.window
    assert window is not None
    rob = state.phase is ROB_KONG
    if outcome.winners:
        ev.append(ClaimWindowClosed(outcome.winners))
        kind = WinKind.ROB_KONG if rob else WinKind.DISCARD
        records = tuple(judge(state, w, kind, window.tile, window.from_seat)
                        for w in outcome.winners)
        return end(state, records, ev)
    if outcome.claim is not None:
        ev.append(ClaimWindowClosed((outcome.claim.seat,)))
        return _take(state, outcome.claim, ev)
    ev.append(_UNCLAIMED_CLOSE)
    return _no_claim(state, window.from_seat, rob, window.last, ev)


def _no_claim(state: HandState, seat: int, rob: bool, last: bool,
              ev: list[Event]) -> HandState:
    """Nobody takes the tile: the next draw (or the end) closes the window, in the copy
    of the state it makes anyway."""
    if rob:
        return kong_replacement(state, seat, ev)
    if last:
        return end(state, (), ev)
    return draw(state, (seat + 1) % SEATS, ev)


def _take(state: HandState, action: Action, ev: list[Event]) -> HandState:
    """Chi, pong or exposed kong: the discard joins the claimer's meld."""
    window = state.window
    assert window is not None
    c, d, tile = action.seat, window.from_seat, window.tile
    meld = make_meld(_MELD_OF[action.kind], (*action.tiles, tile), d, state.wildcards)
    meld = replace(meld, claimed=tile)
    seats = list(state.seats)
    giver = seats[d]
    last = replace(giver.discards[-1], claimed_by=c)
    seats[d] = replace(giver, discards=(*giver.discards[:-1], last))
    s = seats[c]
    kong = action.kind is KONG
    # A turn that begins with a chi or pong stops the Hangzhou chain (its kongs are
    # kept, marked ``claimed_turn``, for a plain win's 杠开); a kong on a discard
    # extends the chain.
    chain = (*s.chain, ChainStep.GANG) if kong else ()
    seats[c] = replace(s, hand=s.without(*action.tiles), melds=(*s.melds, meld), drawn=None,
                       chain=chain, claimed_turn=not kong)
    claims = [list(row) for row in state.claims]
    claims[c][d] += 1
    # Both seats and the state in one copy of it.
    state = replace(state, seats=tuple(seats), claims=tuple(tuple(r) for r in claims),
                    first_go_round=False, phase=TURN, turn=c, window=None,
                    replacement=None)
    ev.append(MeldDeclared(c, meld))
    return kong_replacement(state, c, ev) if kong else state


# ---------------------------------------------------------------------------
# The end


def end(state: HandState, wins: tuple[WinRecord, ...], ev: list[Event]) -> HandState:
    result = HandResult.of(wins)
    ev.append(HandEnded(result))
    return replace(state, phase=ENDED, window=None, result=result)
