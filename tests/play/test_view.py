"""Views: a seat sees its own tiles and moves, others only counts; spectators nothing."""

from __future__ import annotations

from engine.game import Action, ActionKind, apply
from engine.tiles import Tile, parse_tiles
from engine.view import seat_wind, spectator_view, view
from tests.game.helpers import QUIET, start


def _start(rules: str, hands: dict[int, str], back: str = ""):
    state, _ = start(rules, hands, back=back)
    return state


def test_a_seat_sees_its_hand_and_moves_and_only_counts_of_others() -> None:
    state = _start("hangzhou", {0: "123456m789p111s5z9s", 1: QUIET[1], 2: QUIET[2],
                                3: QUIET[3]})
    mine = view(state, 0, hand_number=3)
    assert sorted(mine.concealed) == sorted(parse_tiles("123456m789p111s5z9s"))
    assert mine.drawn is None  # the dealer's opening 14 were dealt, not drawn
    assert mine.table.hand_number == 3 and mine.table.caishen is Tile.WHITE
    kinds = {m.action.kind for m in mine.moves}
    assert {ActionKind.DISCARD, ActionKind.WIN} <= kinds
    win = next(m for m in mine.moves if m.action.kind is ActionKind.WIN)
    assert win.value == 2  # 暴头
    other = view(state, 1)
    assert other.moves == () and other.table.seats[0].concealed_count == 14
    assert not hasattr(other.table.seats[0], "hand")


def test_discard_moves_carry_their_waits_and_a_suggestion() -> None:
    state = _start("hangzhou", {0: "1112345678999m1z", 1: QUIET[1], 2: QUIET[2],
                                3: QUIET[3]})
    mine = view(state, 0)
    drop_east = next(m for m in mine.moves if m.action.tile is Tile.EAST)
    # Nine kinds, and the 财神 itself, which completes anything.
    assert drop_east.waits == frozenset(parse_tiles("123456789m5z"))
    assert mine.suggested is Tile.EAST
    assert drop_east.label == "打 Discard 1z"


def test_concealed_kongs_are_backs_to_everyone_but_the_owner() -> None:
    state = _start("hangzhou", {0: "1111m258p369s1234z", 1: QUIET[1], 2: QUIET[2],
                                3: QUIET[3]}, back="9s")
    kong = Action(ActionKind.CONCEALED_KONG, 0, tiles=tuple(parse_tiles("1111m")))
    state, _ = apply(state, kong)
    assert view(state, 0).table.seats[0].melds[0].tiles == tuple(parse_tiles("1111m"))
    assert view(state, 1).table.seats[0].melds[0].tiles == (None,) * 4
    assert spectator_view(state).seats[0].melds[0].tiles == (None,) * 4
    assert view(state, 0).drawn is Tile.S9


def test_spectator_view_and_winds() -> None:
    state = _start("shanghai", {0: "1112345678999m1z", 1: QUIET[1], 2: QUIET[2],
                                3: QUIET[3]})
    table = spectator_view(state)
    assert [s.wind for s in table.seats] == [Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH]
    assert seat_wind(0, 2) is Tile.WEST
    assert table.deciding == (0,) and table.phase == "turn" and table.caishen is None
    assert table.wall_left == state.wall_remaining


def test_in_a_claim_window_each_seat_sees_only_its_own_decision() -> None:
    # Ann deals 9p; Bob may chi it and Di may pong it.
    state = _start("shanghai", {0: QUIET[0] + "9p", 1: "258m789p147s1234z", 2: QUIET[2],
                                3: "258m799p369s2347z"})
    state, _ = apply(state, Action(ActionKind.DISCARD, 0, Tile.P9))
    assert spectator_view(state).deciding == ()
    assert [view(state, seat).table.deciding for seat in range(4)] == [(), (1,), (), (3,)]
    assert spectator_view(state).phase == "claim"  # that it may be claimed is public
