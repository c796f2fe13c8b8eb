"""Judging a win from the state: build the `WinContext` with everything the hand knows
(melds, flowers, replacement, first go-round, chain, claims, streak, 荒番, 财神) and ask
the rule set to score it."""

from __future__ import annotations

from engine.game.state import HandState, WinRecord
from engine.rules.common import Replacement, WinContext, WinKind
from engine.tiles import Tile


def judge(state: HandState, seat: int, win: WinKind, win_tile: Tile | None,
          from_seat: int | None = None) -> WinRecord:
    """Score ``seat`` winning now; the settlement says whether the win is valid.

    For a self-draw ``win_tile`` is the drawn tile (still in the hand); for a discard or
    a robbed kong it is the other player's tile.
    """
    s = state.seats[seat]
    self_draw = win is WinKind.SELF_DRAW
    concealed = s.hand
    if self_draw and win_tile is not None:
        concealed = s.without(win_tile)
    chain = state.ruleset.counts_chain and self_draw
    ctx = WinContext(
        winner=seat, dealer=state.dealer, win=win, concealed=concealed, win_tile=win_tile,
        melds=s.melds, from_seat=from_seat, flowers=s.flowers,
        replacement=_replacement(state, self_draw, win_tile),
        first_go_round=state.first_go_round,
        chain=s.chain if chain else (),
        claimed_turn=s.claimed_turn if chain else False,
        claims=state.claims, streak=state.streak,
        huangfan=state.huangfan and state.ruleset.has_huangfan, flipped=state.flipped)
    settlement = state.ruleset.score(ctx, state.options)
    return WinRecord(seat, win, from_seat, win_tile, ctx, settlement)


def _replacement(state: HandState, self_draw: bool, win_tile: Tile | None
                 ) -> Replacement | None:
    if not self_draw or win_tile is None:
        return None
    return state.replacement


def self_draw(state: HandState, seat: int) -> WinRecord | None:
    """The best valid self-draw for ``seat`` now, or None.

    The winning tile is the drawn one; in the dealer's opening turn (no draw, 天胡) the
    reading worth the most to the winner decides which of the 14 counts as the last.
    """
    s = state.seats[seat]
    if s.drawn is not None:
        candidates: tuple[Tile, ...] = (s.drawn,)
    elif state.opening and seat == state.dealer:
        candidates = tuple(sorted(set(s.hand)))
    else:
        return None
    # The shape test, on the seat's `HeldTiles`: most turns known from the draw itself.
    if not s.held(state.wildcards, state.ruleset.shapes).is_complete():
        return None
    records = [judge(state, seat, WinKind.SELF_DRAW, t) for t in candidates]
    valid = [r for r in records if r.settlement.valid]
    if not valid:
        return records[0]
    return max(valid, key=lambda r: r.settlement.payments[seat])


def eight_flowers(state: HandState, seat: int) -> WinRecord:
    """八花: all eight flowers win as a self-draw, whatever the rest of the hand."""
    return judge(state, seat, WinKind.SELF_DRAW, None)


def wildcards_held(state: HandState, record: WinRecord) -> int | None:
    """The 财神 (the hand's wildcards, `HandState.wildcards`) the winning hand of
    ``record`` holds: its concealed tiles with the winning tile, and those inside its
    melds (a chi, pong or kong may hold 财神). None for a rule set without wildcards."""
    wildcards = state.wildcards
    if wildcards.joker is None:
        return None
    ctx = record.context
    tiles = [*ctx.concealed, *(t for m in ctx.melds for t in m.tiles)]
    if record.win_tile is not None:
        tiles.append(record.win_tile)
    return sum(1 for t in tiles if wildcards.is_joker(t))
