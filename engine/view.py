"""What a seat (or a spectator) may see of a hand: the only input pictures and messages
need. Nothing here ever holds another seat's concealed tiles.

A concealed kong shows its four tiles to its owner and four backs (None) to everyone
else; a seat's concealed tiles appear only as a count outside its own `PlayerView`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from engine.ai import Judge, choose_discard, remembered_judge, remembered_unseen
from engine.analysis import HandAnalysis, discard_waits
from engine.game.actions import Action
from engine.game.legal import deciding_seats, legal_actions, remembered_self_draw
from engine.game.settle import eight_flowers, judge
from engine.game.state import HandState, Phase, SeatState, WinRecord, replace
from engine.melds import Meld, MeldKind
from engine.memo import IdentityMemo
from engine.rules.common import ActionKind, Charge, WinKind
from engine.tiles import Tile, format_tiles

SEAT_WINDS = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)


def seat_wind(seat: int, dealer: int) -> Tile:
    """The dealer sits East; winds follow the turn order."""
    return SEAT_WINDS[(seat - dealer) % 4]


@dataclass(frozen=True)
class DiscardView:
    tile: Tile
    claimed_by: int | None = None
    """The seat that claimed this discard into a meld (drawn marked in the river)."""


@dataclass(frozen=True)
class MeldView:
    kind: MeldKind
    tiles: tuple[Tile | None, ...]
    """Physical tiles; None is a tile shown face down (a concealed kong to others)."""
    from_seat: int | None = None
    claimed: Tile | None = None
    """The claimed tile: drawn sideways, pointing at ``from_seat``."""


@dataclass(frozen=True)
class SeatView:
    seat: int
    wind: Tile
    dealer: bool
    concealed_count: int
    """Tiles in the hand, the drawn tile included: drawn as backs to others."""
    has_drawn: bool
    discards: tuple[DiscardView, ...] = ()
    melds: tuple[MeldView, ...] = ()
    flowers: tuple[Tile, ...] = ()


@dataclass(frozen=True)
class PaymentView:
    seat: int
    amount: Fraction
    """Signed: positive for the winner."""


@dataclass(frozen=True)
class PatternView:
    id: str
    zh: str
    en: str
    value: str
    """The value as the rules page writes it: "1 喇", "1 番", "×2"."""


@dataclass(frozen=True)
class SettlementView:
    """One win's settlement as players see it at the end of the hand."""

    winner: int
    win: str
    """"self_draw", "discard" or "rob_kong"."""
    from_seat: int | None
    concealed: tuple[Tile, ...]
    """The winning hand's concealed tiles before the winning tile, sorted."""
    win_tile: Tile | None
    melds: tuple[MeldView, ...]
    flowers: tuple[Tile, ...]
    patterns: tuple[PatternView, ...]
    value: int
    """Shanghai H in 花; Hangzhou the multiplier F."""
    value_unit: str
    """"花" or "×"."""
    payments: tuple[Fraction, ...]
    liability: str | None
    breakdown: tuple[str, ...]
    charges: tuple[Charge, ...] = ()
    """Each payment as the product of its factors (荒番, 庄闲分, 承包, 吃三口包 …)."""


@dataclass(frozen=True)
class ResultView:
    """How a hand ended: its wins (none for a drawn hand) and the net payments."""

    settlements: tuple[SettlementView, ...]
    payments: tuple[Fraction, ...]

    @property
    def drawn(self) -> bool:
        return not self.settlements


@dataclass(frozen=True)
class TableView:
    """The public table: what a spectator sees."""

    rules: str
    hand_number: int
    dealer: int
    streak: int
    """Hangzhou 老庄 (1–3); 1 in Shanghai."""
    huangfan: bool
    """Shanghai: a 荒番 hand."""
    dice: tuple[int, int]
    wall_left: int
    """Tiles left to draw."""
    caishen: Tile | None
    """The wild kind this hand (Hangzhou), else None."""
    turned: Tile | None
    """Hangzhou flip mode: the tile turned and set aside."""
    seats: tuple[SeatView, ...]
    phase: str
    """"turn", "claim", "rob_kong" or "ended"."""
    turn: int
    """Whose turn it is (the discarder while a claim window is open)."""
    deciding: tuple[int, ...]
    """Seats whose decision is awaited now, as far as the viewer may know: in a claim
    window only the viewer itself (`visible_deciding`)."""
    last_discard: tuple[int, int] | None = None
    """(seat, index in that seat's discards) of the discard now in play or last made."""
    result: ResultView | None = None


@dataclass(frozen=True)
class MoveView:
    """One legal move, with what it leads to."""

    action: Action
    label: str
    """Short bilingual label, e.g. "碰 Pong 5m"."""
    waits: frozenset[Tile] = frozenset()
    """For a discard: the tiles the hand would then wait on."""
    value: int | None = None
    """For a win: what it scores (H or F)."""


@dataclass(frozen=True)
class PlayerView:
    """All one seat may see: the table plus its own concealed tiles and moves."""

    table: TableView
    seat: int
    concealed: tuple[Tile, ...]
    """Sorted, without the drawn tile."""
    drawn: Tile | None
    moves: tuple[MoveView, ...]
    waits: frozenset[Tile] = frozenset()
    """With 13 tiles (a kong counting 3): the tiles that would complete the hand."""
    shanten: int = 8
    suggested: Tile | None = None
    """The discard the computer player would make, when a discard is due."""

    @property
    def me(self) -> SeatView:
        return self.table.seats[self.seat]


# ---------------------------------------------------------------------------
# Building views from a hand's state


def spectator_view(state: HandState, hand_number: int = 1) -> TableView:
    """The public table: no concealed tile of anyone."""
    return _table(state, None, hand_number)


def view(state: HandState, seat: int, hand_number: int = 1) -> PlayerView:
    """Everything ``seat`` may see now, with its legal moves and what they lead to."""
    s = state.seats[seat]
    table = _table(state, seat, hand_number)
    drawn = s.drawn if table.seats[seat].has_drawn else None
    concealed = tuple(sorted(s.without(drawn) if drawn is not None else s.hand))
    judge = remembered_judge(state)
    actions = legal_actions(state, seat)
    # The waits of every discard offered, from one pass over the hand.
    after_discard = discard_waits(s.hand, s.melds, state.wildcards, state.ruleset.shapes) \
        if any(a.kind is ActionKind.DISCARD for a in actions) else {}
    moves = tuple(_move(state, seat, a, after_discard) for a in actions)
    suggested = None
    discards = [m.action.tile for m in moves if m.action.kind is ActionKind.DISCARD]
    if discards:
        suggested = choose_discard(judge, s.hand, s.melds, remembered_unseen(state, seat),
                                   random.Random(0), [t for t in discards if t is not None])
    waits, shanten = _OWN_HAND.get(s, (state.rules, state.wildcards),
                                   lambda: _own_hand(state, s, judge))
    return PlayerView(table, seat, concealed, drawn, moves, waits, shanten, suggested)


def _own_hand(state: HandState, s: SeatState, judge: Judge) -> tuple[frozenset[Tile], int]:
    """What a seat's hand waits on and its distance from a win."""
    hand = HandAnalysis(s.hand, s.melds, state.wildcards, state.ruleset.shapes)
    return hand.waits(), judge.shanten(s.hand, s.melds)


# Three seats of four have not moved since the last view of them: same record, same answer.
_OWN_HAND: IdentityMemo[tuple[frozenset[Tile], int]] = IdentityMemo("engine.view.own_hand", 1024)


def _table(state: HandState, viewer: int | None, hand_number: int) -> TableView:
    # Every viewer sees the public table but for its own seat and its own decision:
    # the public one is built once a state, each viewer's a copy with those two changed.
    public = _PUBLIC_TABLES.get(state, hand_number, lambda: _public_table(state, hand_number))
    if viewer is None:
        return public
    own, deciding = _seat(state, viewer, viewer), visible_deciding(state, viewer)
    if own is public.seats[viewer] and deciding == public.deciding:
        return public  # on a turn, and with no concealed kong to show: the same values
    seats = (*public.seats[:viewer], own, *public.seats[viewer + 1:])
    return replace(public, seats=seats, deciding=deciding)


def _public_table(state: HandState, hand_number: int) -> TableView:
    return TableView(
        rules=state.rules, hand_number=hand_number, dealer=state.dealer, streak=state.streak,
        huangfan=state.huangfan, dice=state.dice, wall_left=state.wall_remaining,
        caishen=state.wildcards.joker, turned=state.flipped,
        seats=tuple(_seat(state, i, None) for i in range(len(state.seats))),
        phase=state.phase.value, turn=state.turn, deciding=visible_deciding(state, None),
        last_discard=_last_discard(state), result=_result(state))


def visible_deciding(state: HandState, viewer: int | None = None) -> tuple[int, ...]:
    """Whose decision the hand waits for, as ``viewer`` (None: the public) may know it.

    A turn is everyone's to know. In a claim window only the viewer's own decision is
    shown: who else is asked depends on what they hold (a seat asked only to win is
    waiting on that very tile), so the others learn only that the discard may be
    claimed, the same whoever may claim it and however."""
    seats = deciding_seats(state)
    if state.phase is Phase.TURN:
        return seats
    return (viewer,) if viewer in seats else ()


def _seat(state: HandState, i: int, viewer: int | None) -> SeatView:
    s = state.seats[i]
    has_drawn = state.phase is Phase.TURN and state.turn == i and s.drawn is not None
    # Shown or not differs only for a concealed kong: without one, the owner's view of
    # the seat is the public one.
    shown = (viewer == i or state.phase is Phase.ENDED) and \
        any(m.kind is MeldKind.CONCEALED_KONG for m in s.melds)
    # A seat that did not move is the same record in the next state and in the other
    # viewers' tables: its view is built once (the secrecy checks build twenty a move).
    return _SEAT_VIEWS.get(s, (i, state.dealer, has_drawn, shown),
                           lambda: _seat_view(s, i, state.dealer, has_drawn, shown))


_SEAT_VIEWS: IdentityMemo[SeatView] = IdentityMemo("engine.view.seat_views", 1024)
_PUBLIC_TABLES: IdentityMemo[TableView] = IdentityMemo("engine.view.public_tables", 64)


def _seat_view(s: SeatState, i: int, dealer: int, has_drawn: bool, shown: bool) -> SeatView:
    return SeatView(
        seat=i, wind=seat_wind(i, dealer), dealer=i == dealer,
        concealed_count=len(s.hand), has_drawn=has_drawn,
        discards=tuple(_DISCARD_VIEWS[d.tile, d.claimed_by] for d in s.discards),
        melds=tuple(_meld(m, shown=shown) for m in s.melds),
        flowers=s.flowers)


# Every discard as anyone sees it: a value of its tile and claimer, made once.
_DISCARD_VIEWS = {(tile, by): DiscardView(tile, by)
                  for tile in Tile for by in (None, *range(len(SEAT_WINDS)))}


def _meld(meld: Meld, shown: bool) -> MeldView:
    hidden = meld.kind is MeldKind.CONCEALED_KONG and not shown
    tiles: tuple[Tile | None, ...] = (None,) * len(meld.tiles) if hidden else meld.tiles
    return MeldView(meld.kind, tiles, meld.from_seat, meld.claimed)


def _last_discard(state: HandState) -> tuple[int, int] | None:
    if state.window is not None and state.phase is Phase.CLAIM:
        giver = state.window.from_seat
    elif state.phase is Phase.TURN:
        giver = (state.turn + 3) % 4
    else:
        return None
    n = len(state.seats[giver].discards)
    return (giver, n - 1) if n else None


def _result(state: HandState) -> ResultView | None:
    if state.result is None:
        return None
    return ResultView(tuple(settlement_view(state, r) for r in state.result.wins),
                      state.result.payments)


def settlement_view(state: HandState, record: WinRecord) -> SettlementView:
    ctx, result = record.context, record.settlement
    patterns = state.ruleset.patterns
    return SettlementView(
        winner=record.winner, win=record.win.value, from_seat=record.from_seat,
        concealed=tuple(sorted(ctx.concealed)), win_tile=ctx.win_tile,
        melds=tuple(_meld(m, shown=True) for m in ctx.melds), flowers=ctx.flowers,
        patterns=tuple(PatternView(p, patterns[p].zh, patterns[p].en, patterns[p].value)
                       for p in result.patterns),
        value=result.value, value_unit=state.ruleset.value_unit,
        payments=result.payments, liability=result.liability, breakdown=result.breakdown,
        charges=result.charges)


_LABELS = {
    ActionKind.DISCARD: "打 Discard", ActionKind.CHI: "吃 Chi", ActionKind.PONG: "碰 Pong",
    ActionKind.KONG: "杠 Kong", ActionKind.ADDED_KONG: "加杠 Add to kong",
    ActionKind.CONCEALED_KONG: "暗杠 Concealed kong", ActionKind.WIN: "胡 Win",
    ActionKind.PASS: "过 Pass",
}


_DISCARD_LABELS = {tile: f"{_LABELS[ActionKind.DISCARD]} {tile.notation}" for tile in Tile}


def _move(state: HandState, seat: int, action: Action,
          after_discard: dict[Tile, frozenset[Tile]]) -> MoveView:
    """``after_discard``: the waits each discard leaves (`discard_waits`)."""
    if action.kind is ActionKind.DISCARD and action.tile is not None:
        # Most moves are discards (about fourteen after every draw): labels made once.
        return MoveView(action, _DISCARD_LABELS[action.tile], after_discard[action.tile])
    label = _LABELS[action.kind]
    waits: frozenset[Tile] = frozenset()
    value = None
    if action.kind is ActionKind.WIN:
        record = _win_record(state, seat)
        value = record.settlement.value if record is not None else None
    elif action.tiles or action.tile is not None:
        shown = action.tiles if action.tiles else (action.tile,)
        label += " " + format_tiles(t for t in shown if t is not None)
    return MoveView(action, label, waits, value)


def _win_record(state: HandState, seat: int) -> WinRecord | None:
    if state.phase is Phase.TURN:
        if len(state.seats[seat].flowers) == 8:
            return eight_flowers(state, seat)
        return remembered_self_draw(state, seat)
    window = state.window
    if window is None:
        return None
    kind = WinKind.ROB_KONG if state.phase is Phase.ROB_KONG else WinKind.DISCARD
    return judge(state, seat, kind, window.tile, window.from_seat)
