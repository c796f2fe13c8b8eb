"""Views: a seat sees its own tiles and moves, others only counts; spectators nothing."""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator
from dataclasses import FrozenInstanceError
from typing import Any

import pytest

import engine.view as view_module
from engine import rules
from engine.ai import choose_action, choose_discard, remembered_judge, unseen_counts
from engine.analysis import HandAnalysis, discard_waits
from engine.game import Action, ActionKind, apply, deciding_seats, legal_actions, new_hand
from engine.game.prospect import Wait, WinProspect, after_discard, prospect_of, winning_waits
from engine.game.state import HandState, Phase, replace
from engine.melds import Meld
from engine.tiles import Tile, parse_tiles
from engine.view import (
    PlayerView,
    SeatKnowledge,
    SeatView,
    TableView,
    advice_inputs,
    seat_wind,
    spectator_view,
    unseen_in_view,
    view,
    views,
    visible_deciding,
)
from tests.game.helpers import QUIET, start


def _start(rules: str, hands: dict[int, str], back: str = "",
           options: dict[str, str] | None = None) -> HandState:
    state, _ = start(rules, hands, back=back, options=options)
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
    # Nine kinds, and the 财神 itself, which completes anything: each a self-draw only
    # (no 放铳 at a streak of 1), 1m and 9m as four pungs ... worth ×1 like the rest.
    assert [w.tile for w in drop_east.waits] == parse_tiles("123456789m5z")
    assert {(w.self_draw, w.discard) for w in drop_east.waits} == {(1, None)}
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


def test_a_burned_tile_of_the_turned_kind_stays_unseen() -> None:
    # Hangzhou burns a tile face down after each kong's replacement (`kong_burns`): the
    # turned 财神 tile is seen by everyone, a burned copy of its kind by no one.
    state = _start("hangzhou", {0: QUIET[0] + "9s", 1: QUIET[1], 2: QUIET[2],
                                3: QUIET[3]}, back="5p", options={"caishen": "flip"})
    assert state.flipped is Tile.P5
    burned = replace(state, set_aside=(*state.set_aside, Tile.P5))
    for seat in range(4):
        assert unseen_counts(state, seat)[Tile.P5] == 3 - (seat == 0)  # seat 0 holds one
        assert unseen_counts(burned, seat)[Tile.P5] == unseen_counts(state, seat)[Tile.P5]


def _seeded_states(rules_name: str, options: dict[str, str], seed: int, hands: int
                   ) -> Iterator[HandState]:
    """Every state of ``hands`` seeded hands played by computer players."""
    rng = random.Random(seed)
    ruleset = rules.get(rules_name)
    for _ in range(hands):
        wall = ruleset.tile_set()
        rng.shuffle(wall)
        state, _ = new_hand(rules_name, options, tuple(wall), rng.randrange(4), (3, 4))
        yield state
        while state.phase is not Phase.ENDED:
            state, _ = apply(state, choose_action(state, deciding_seats(state)[0], rng))
            yield state


def _eager_advice(state: HandState, seat: int) -> tuple[Any, ...]:
    """The advice as `view` worked it out before it was worked out when read: from the
    state's records of the seat (its hand in the state's order, `unseen_counts`)."""
    s = state.seats[seat]
    judge = remembered_judge(state)
    offered = legal_actions(state, seat)
    discards = [a.tile for a in offered if a.kind is ActionKind.DISCARD and a.tile is not None]
    after = discard_waits(s.hand, s.melds, state.wildcards, state.ruleset.shapes) \
        if discards else {}
    prospect = prospect_of(state, seat)
    move_waits = tuple(_judged(prospect and after_discard(prospect, a.tile, state.wildcards),
                               s.without(a.tile), s.melds, state,
                               after.get(a.tile, frozenset()))
                       if a.kind is ActionKind.DISCARD and a.tile is not None else ()
                       for a in offered)
    suggested = choose_discard(judge, s.hand, s.melds, unseen_counts(state, seat),
                               random.Random(0), discards) if discards else None
    analysis = HandAnalysis(s.hand, s.melds, state.wildcards, state.ruleset.shapes)
    waits = _judged(prospect, s.hand, s.melds, state, analysis.waits())
    return (move_waits, suggested, waits, judge.shanten(s.hand, s.melds))


def _judged(prospect: WinProspect | None, hand: tuple[Tile, ...], melds: tuple[Meld, ...],
            state: HandState, shape: frozenset[Tile]) -> tuple[Wait, ...]:
    """The shape's waits the rule set accepts (`winning_waits`), from the state's records."""
    if prospect is None or not shape:
        return ()
    return winning_waits(prospect, hand, melds, state.wildcards, shape)


@pytest.mark.parametrize(("rules_name", "options", "seed"), [
    ("shanghai", {}, 41), ("hangzhou", {}, 42), ("hangzhou", {"caishen": "flip"}, 43)])
def test_advice_worked_out_when_read_is_the_advice_worked_out_at_once(
        rules_name: str, options: dict[str, str], seed: int) -> None:
    # Every state of 30 seeded hands, every seat (about 9,000 views a rule set): the
    # advice from the view alone is what the state's records gave, and the unseen tiles
    # counted from the view are the computer player's.
    for state in _seeded_states(rules_name, options, seed, 30):
        for seat in range(4):
            mine = view(state, seat)
            assert unseen_in_view(mine) == tuple(unseen_counts(state, seat))
            move_waits, suggested, waits, shanten = _eager_advice(state, seat)
            assert tuple(m.waits for m in mine.moves) == move_waits
            assert tuple(m.action for m in mine.moves) == legal_actions(state, seat)
            assert (mine.suggested, mine.waits, mine.shanten) == (suggested, waits, shanten)


def test_a_view_is_equal_hashable_and_pickles_with_its_advice() -> None:
    state = _start("hangzhou", {0: "1112345678999m1z", 1: QUIET[1], 2: QUIET[2],
                                3: QUIET[3]})
    first, second = view(state, 0), view(state, 0)
    assert advice_inputs(first) is not None and "suggested" not in first.__dict__
    assert first == second and hash(first) == hash(second)
    copy = pickle.loads(pickle.dumps(second))  # the picture process gets views so
    assert copy == first and copy.suggested is Tile.EAST and copy.moves == first.moves
    given = PlayerView(first.table, 0, first.concealed, first.drawn, first.moves,
                       first.waits, first.shanten, first.suggested)
    assert advice_inputs(given) is None and given == first and hash(given) == hash(first)
    bare = PlayerView(first.table, 0, first.concealed, first.drawn)
    assert (bare.moves, bare.waits, bare.shanten, bare.suggested) == ((), (), 8, None)
    with pytest.raises(FrozenInstanceError):
        first.suggested = Tile.S9  # type: ignore[misc]  # frozen: the test is that it raises


@pytest.mark.parametrize(("rules_name", "options", "seed"), [
    ("shanghai", {}, 51), ("hangzhou", {"caishen": "flip"}, 52)])
def test_views_made_from_shared_parts_are_the_views_made_afresh(
        rules_name: str, options: dict[str, str], seed: int) -> None:
    # A state's views reuse what each unchanged seat showed in the state before; a
    # pickled copy (new records, nothing remembered or memoised for them) is viewed
    # from scratch. Every state of 20 seeded hands, every seat: the same views.
    for state in _seeded_states(rules_name, options, seed, 20):
        afresh = pickle.loads(pickle.dumps(state))
        assert spectator_view(state) == spectator_view(afresh)
        assert spectator_view(state).deciding == visible_deciding(state, None)
        for seat in range(4):
            mine, theirs = view(state, seat), view(afresh, seat)
            assert (mine.table, mine.seat, mine.concealed, mine.drawn) == \
                (theirs.table, theirs.seat, theirs.concealed, theirs.drawn)
            assert advice_inputs(mine) == advice_inputs(theirs)
            assert unseen_in_view(mine) == unseen_in_view(theirs)


def test_a_view_made_whole_is_the_view_its_constructor_makes() -> None:
    state = _start("hangzhou", {0: "1112345678999m1z", 1: QUIET[1], 2: QUIET[2],
                                3: QUIET[3]})
    mine = view(state, 0)
    known = advice_inputs(mine)
    assert known is not None
    built = PlayerView(mine.table, 0, mine.concealed, mine.drawn,
                       knowledge=SeatKnowledge(known.judge, known.melds, known.offered,
                                               known.win_value, known.prospect))
    assert built.__dict__ == mine.__dict__ and built == mine
    table = mine.table
    assert TableView(**table.__dict__).__dict__ == table.__dict__
    for seat in table.seats:
        # Besides its fields, a seat's view may keep what `unseen_in_view` counted of it.
        fields = {name: value for name, value in seat.__dict__.items()
                  if not name.startswith("_seen_by_")}
        assert SeatView(**fields).__dict__ == fields


def test_a_seat_that_is_no_seat_has_no_view() -> None:
    state = _start("shanghai", {0: QUIET[0] + "9p", 1: QUIET[1], 2: QUIET[2],
                                3: QUIET[3]})
    for seat in (-1, 4):
        with pytest.raises(IndexError, match=f"no seat {seat}"):
            view(state, seat)


@pytest.mark.parametrize(("rules_name", "options", "seed"), [
    ("shanghai", {}, 61), ("hangzhou", {"caishen": "flip"}, 62)])
def test_one_seats_view_alone_is_that_seats_view_of_the_four(
        rules_name: str, options: dict[str, str], seed: int) -> None:
    # The table service asks for one seat's view: only that one is made, and it is the
    # view the four made together give (made on a pickled copy, nothing shared), and
    # the one kept when the four are made after it. Every state of 20 seeded hands.
    for number, state in enumerate(_seeded_states(rules_name, options, seed, 20)):
        seat = number % 4
        alone = view(state, seat)
        assert state.remembered_answer(("views made alone", 1)) == {seat: alone}
        together = views(pickle.loads(pickle.dumps(state)))
        assert alone == together[seat] and advice_inputs(alone) == \
            advice_inputs(together[seat])
        assert unseen_in_view(alone) == unseen_in_view(together[seat])
        assert views(state)[seat] is alone and view(state, seat) is alone


def test_a_hand_has_one_judge_and_idle_seats_share_its_record() -> None:
    hands: list[list[HandState]] = []
    for state in _seeded_states("hangzhou", {}, 63, 2):
        if state.seq == 0:  # dealt: a new hand
            hands.append([])
        hands[-1].append(state)
    assert len(hands) == 2
    for hand in hands:
        assert len({id(remembered_judge(s)) for s in hand}) == 1
    first, second = hands[0][5], hands[0][6]
    idle = [seat for seat in range(4) if seat not in deciding_seats(first)
            and seat not in deciding_seats(second)
            and first.seats[seat].melds is second.seats[seat].melds]
    assert idle
    for seat in idle:
        # The same judge and melds records; the prospect its waits are judged on is
        # each state's own (whose turn it is, the wall left).
        before, after = advice_inputs(view(first, seat)), advice_inputs(view(second, seat))
        assert before is not None and after is not None
        assert before.judge is after.judge and before.melds is after.melds
        assert before.prospect is prospect_of(first, seat)
        assert after.prospect is prospect_of(second, seat)
    # A new hand's judge is its own (its own wildcards), even when equal.
    other = hands[1][0]
    assert remembered_judge(other) is not remembered_judge(first)
    known = advice_inputs(views(other)[idle[0]])
    first_known = advice_inputs(view(first, idle[0]))
    assert known is not None and first_known is not None and known.judge is not first_known.judge


@pytest.mark.parametrize(("rules_name", "options", "seed"), [
    ("shanghai", {}, 71), ("hangzhou", {"caishen": "flip"}, 72), ("hangzhou", {}, 73)])
def test_a_turns_views_made_together_are_each_seats_view_made_on_its_own(
        rules_name: str, options: dict[str, str], seed: int) -> None:
    # `views` makes the idle seats' views of a turn in one loop, without `_view_of`:
    # every state of 30 seeded hands (thousands), every seat, the four made together
    # are the very records one seat's view alone is made of, the same knowledge record
    # (idle seats share theirs) and the same unseen count.
    states = 0
    for state in _seeded_states(rules_name, options, seed, 30):
        together = views(state)
        public, shown = spectator_view(state), view_module._seats_shown(state)
        for seat in range(4):
            alone = view_module._view_of(state, seat, public, shown[seat],
                                         deciding_seats(state))
            mine = together[seat]
            assert mine.__dict__ == alone.__dict__ and mine == alone
            assert type(mine) is PlayerView and mine.table.__dict__ == alone.table.__dict__
            if seat not in deciding_seats(state):
                assert advice_inputs(mine) is advice_inputs(alone)
            assert unseen_in_view(mine) == unseen_in_view(alone)
        states += 1
    assert states > 1000
