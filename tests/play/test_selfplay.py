"""Self-play: computer players finish hundreds of hands with every invariant checked."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engine import memo
from engine import selfplay as selfplay_module
from engine import view as view_module
from engine.ai import Judge, choose_action, unseen_counts
from engine.game import apply, deciding_seats, legal_actions, new_hand
from engine.game.state import HandState, Phase, replace
from engine.melds import MeldKind
from engine.rules.common import make_meld
from engine.selfplay import SelfPlayError, check_secrecy, selfplay, tiles_in_play
from engine.tiles import Tile, full_set, parse_tiles
from engine.view import MeldView, PlayerView, TableView, advice_inputs, spectator_view, views
from tests.conftest import ROOT
from tests.game.helpers import QUIET, start


@pytest.mark.parametrize("rules_name", ["shanghai", "hangzhou"])
def test_two_hundred_hands_without_a_broken_invariant(rules_name: str) -> None:
    summary = selfplay(rules_name, 200, seed=11, check_views=False)
    assert summary["hands"] == 200
    assert summary["wins"] + summary["draws"] == 200
    assert summary["wins"] > 100, "computer players should win most hands"


@pytest.mark.parametrize("rules_name", ["shanghai", "hangzhou"])
def test_views_never_leak_during_play(rules_name: str) -> None:
    summary = selfplay(rules_name, 12, seed=5, check_views=True)
    assert summary["hands"] == 12


@pytest.mark.parametrize("options", [{"caishen": "flip"}, {"caishen_melds": False},
                                     {"liability": False, "discard_win_streak": 1}])
def test_hangzhou_options_play_through(options: dict[str, Any]) -> None:
    assert selfplay("hangzhou", 30, seed=3, options=options, check_views=False)["hands"] == 30


def test_computer_moves_are_always_legal_and_deterministic() -> None:
    def run(seed: int) -> list[str]:
        rng = random.Random(seed)
        wall = full_set(True)
        rng.shuffle(wall)
        state, _ = new_hand("shanghai", {}, tuple(wall), 1, (2, 5))
        moves = []
        while state.phase is not Phase.ENDED:
            seat = deciding_seats(state)[0]
            action = choose_action(state, seat, rng)
            assert action in legal_actions(state, seat)
            moves.append(str(action))
            state, _ = apply(state, action)
        return moves
    assert run(4) == run(4)


def test_command_line_prints_a_json_summary_last() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "engine.selfplay", "--rules", "hangzhou", "--hands", "3",
         "--seed", "1"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    summary = json.loads(out.strip().splitlines()[-1])
    assert {"hands", "wins", "draws", "seconds", "hands_per_second", "actions",
            "patterns"} <= set(summary)
    bad = subprocess.run(
        [sys.executable, "-m", "engine.selfplay", "--rules", "hangzhou", "--hands", "1",
         "--options", '{"caishen": "gold"}'], cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 1 and "caishen" in bad.stderr


def _hangzhou_flip_turn() -> HandState:
    state, _ = start("hangzhou", {0: QUIET[0] + "9s", 1: QUIET[1], 2: QUIET[2],
                                  3: QUIET[3]}, back="5p", options={"caishen": "flip"})
    return state


def _views_changed(monkeypatch: pytest.MonkeyPatch,
                   change: Callable[[HandState, PlayerView], PlayerView]) -> None:
    """Make the check read each seat's view through ``change`` (a leak injected)."""
    def changed(state: HandState, hand_number: int = 1) -> tuple[PlayerView, ...]:
        return tuple(change(state, mine) for mine in views(state, hand_number))
    monkeypatch.setattr(selfplay_module, "views", changed)


def test_the_check_passes_an_honest_state() -> None:
    check_secrecy(_hangzhou_flip_turn())


def test_the_check_refuses_advice_worked_out_from_another_seats_melds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = _hangzhou_flip_turn()
    others = (make_meld(MeldKind.PONG, tuple(parse_tiles("999p")), 2, state.wildcards),)

    def leaky(state: HandState, honest: PlayerView) -> PlayerView:
        known = advice_inputs(honest)
        assert known is not None
        return PlayerView(honest.table, honest.seat, honest.concealed, honest.drawn,
                          knowledge=dataclasses.replace(known, melds=others))

    _views_changed(monkeypatch, leaky)
    with pytest.raises(SelfPlayError, match="melds that are not its own"):
        check_secrecy(state)


def test_the_check_refuses_a_view_given_its_advice_ready_made(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def ready_made(state: HandState, honest: PlayerView) -> PlayerView:
        return PlayerView(honest.table, honest.seat, honest.concealed, honest.drawn,
                          honest.moves, honest.waits, honest.shanten, honest.suggested)

    _views_changed(monkeypatch, ready_made)
    with pytest.raises(SelfPlayError, match="without its advice inputs"):
        check_secrecy(_hangzhou_flip_turn())


def test_the_check_refuses_a_computer_player_counting_a_burned_tile_as_seen(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # unseen_counts once counted every set-aside tile of the turned kind as seen: a kong's
    # burned tile, face down, too. The check compares with what the view shows.
    state = _hangzhou_flip_turn()
    burned = replace(state, set_aside=(*state.set_aside, Tile.P5))
    check_secrecy(burned)

    def counts_the_burned_tile(state: HandState, seat: int) -> tuple[int, ...]:
        unseen = list(unseen_counts(state, seat))
        unseen[Tile.P5] -= sum(1 for t in state.set_aside[1:] if t is Tile.P5)
        return tuple(unseen)

    monkeypatch.setattr(selfplay_module, "remembered_unseen", counts_the_burned_tile)
    check_secrecy(state)  # nothing burned: the same count
    with pytest.raises(SelfPlayError, match="counts tiles it cannot see"):
        check_secrecy(burned)


def _checked_hand(rules_name: str, seed: int, actions: int) -> HandState:
    """A hand ``actions`` moves in, every state on the way checked (the views' memos
    and the seats' parts warm, as in self-play)."""
    rng = random.Random(seed)
    wall = full_set(rules_name == "shanghai")
    rng.shuffle(wall)
    state, _ = new_hand(rules_name, {}, tuple(wall), 0, (3, 4))
    for _ in range(actions):
        check_secrecy(state)
        state, _ = apply(state, choose_action(state, deciding_seats(state)[0], rng))
    check_secrecy(state)
    return state


def test_a_view_showing_another_seats_hand_is_caught_after_its_parts_were_checked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The parts a view is made of are shared between states and were checked before:
    # a view made with the wrong part (here a neighbour's tiles) is still caught.
    state = _checked_hand("shanghai", 7, 30)
    every_seat = view_module._all_seats_shown

    def shown_of_the_next_seat(state: HandState) -> Any:
        shown = every_seat(state)
        return (*shown[:2], shown[3], shown[3])

    monkeypatch.setattr(view_module, "_all_seats_shown", shown_of_the_next_seat)
    with pytest.raises(SelfPlayError, match="seat 2's view does not show exactly its own"):
        check_secrecy(replace(state))  # a copy: nothing remembered of it


def test_a_view_with_another_seats_face_up_kong_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = _checked_hand("hangzhou", 8, 20)
    kong = MeldView(MeldKind.CONCEALED_KONG, tuple(parse_tiles("5555m")))

    def peeking(state: HandState, honest: PlayerView) -> PlayerView:
        if honest.seat != 1:
            return honest
        seats = list(honest.table.seats)
        seats[3] = dataclasses.replace(seats[3], melds=(*seats[3].melds, kong))
        table = dataclasses.replace(honest.table, seats=tuple(seats))
        return PlayerView(table, 1, honest.concealed, honest.drawn,
                          knowledge=advice_inputs(honest))

    _views_changed(monkeypatch, peeking)
    with pytest.raises(SelfPlayError, match="seat 1 sees more of another seat"):
        check_secrecy(state)


def test_a_spectator_table_with_a_face_up_concealed_kong_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = _checked_hand("hangzhou", 9, 20)
    kong = MeldView(MeldKind.CONCEALED_KONG, (None, None, Tile.M5, None))

    def showing(state: HandState, hand_number: int = 1) -> TableView:
        table = spectator_view(state, hand_number)
        seats = (dataclasses.replace(table.seats[0], melds=(kong,)), *table.seats[1:])
        return dataclasses.replace(table, seats=seats)

    monkeypatch.setattr(selfplay_module, "spectator_view", showing)
    with pytest.raises(SelfPlayError, match="shows its faces to spectators"):
        check_secrecy(state)


def test_advice_reading_another_seats_moves_is_caught(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    state = _checked_hand("shanghai", 10, 12)
    turn = state.turn
    theirs = legal_actions(state, turn)
    assert state.phase is Phase.TURN and theirs

    def borrowed_moves(state: HandState, honest: PlayerView) -> PlayerView:
        known = advice_inputs(honest)
        assert known is not None
        if honest.seat == turn:
            return honest
        return PlayerView(honest.table, honest.seat, honest.concealed, honest.drawn,
                          knowledge=dataclasses.replace(known, offered=theirs))

    _views_changed(monkeypatch, borrowed_moves)
    with pytest.raises(SelfPlayError, match="moves that are not its own"):
        check_secrecy(state)


@pytest.mark.parametrize("rules_name", ["shanghai", "hangzhou"])
def test_tiles_in_play_counts_what_the_state_counts(rules_name: str) -> None:
    rng = random.Random(12)
    for _ in range(10):
        wall = full_set(rules_name == "shanghai")
        rng.shuffle(wall)
        state, _ = new_hand(rules_name, {}, tuple(wall), rng.randrange(4), (2, 6))
        while state.phase is not Phase.ENDED:
            assert tiles_in_play(state) == state.tile_count() == len(wall)
            state, _ = apply(state, choose_action(state, deciding_seats(state)[0], rng))
        assert tiles_in_play(state) == state.tile_count()
        broken = replace(state, set_aside=(*state.set_aside, Tile.M1))
        assert tiles_in_play(broken) == len(wall) + 1


def test_a_seat_shown_another_seats_view_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _checked_hand("shanghai", 13, 10)
    _views_changed(monkeypatch, lambda state, honest: views(state)[(honest.seat + 1) % 4])
    with pytest.raises(SelfPlayError, match="seat 0 is shown seat 1's view"):
        check_secrecy(state)


def test_knowledge_kept_from_another_hand_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # Idle seats' knowledge is shared between states of a hand: knowledge of the same
    # rule set and melds (none) but of an earlier hand's judge must not pass.
    earlier = _checked_hand("hangzhou", 14, 6)
    state = _checked_hand("hangzhou", 15, 6)
    idle = next(seat for seat in range(4) if seat not in deciding_seats(state)
                and not state.seats[seat].melds and not earlier.seats[seat].melds)
    stale = advice_inputs(views(earlier)[idle])
    assert stale is not None and stale == advice_inputs(views(state)[idle])  # equal values

    def kept(state: HandState, honest: PlayerView) -> PlayerView:
        if honest.seat != idle:
            return honest
        return PlayerView(honest.table, idle, honest.concealed, honest.drawn, knowledge=stale)

    _views_changed(monkeypatch, kept)
    with pytest.raises(SelfPlayError, match=f"seat {idle}'s advice judges by another"):
        check_secrecy(state)


def test_knowledge_kept_from_before_a_meld_is_caught(monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    # An idle seat's knowledge is shared while its melds are the same record: knowledge
    # from before it melded must not pass for the seat's knowledge after.
    rng = random.Random(16)
    wall = full_set(True)
    rng.shuffle(wall)
    state, _ = new_hand("shanghai", {}, tuple(wall), 0, (3, 4))
    before: dict[int, Any] = {}
    while state.phase is not Phase.ENDED:
        check_secrecy(state)
        for seat in range(4):
            if not state.seats[seat].melds:
                before[seat] = advice_inputs(views(state)[seat])
        state, _ = apply(state, choose_action(state, deciding_seats(state)[0], rng))
        melded = [seat for seat in range(4) if state.seats[seat].melds
                  and seat not in deciding_seats(state) and seat in before]
        if melded:
            break
    assert melded, "no seat melded in this hand"
    seat = melded[0]

    def from_before(state: HandState, honest: PlayerView) -> PlayerView:
        if honest.seat != seat:
            return honest
        return PlayerView(honest.table, seat, honest.concealed, honest.drawn,
                          knowledge=before[seat])

    check_secrecy(state)
    _views_changed(monkeypatch, from_before)
    with pytest.raises(SelfPlayError, match=f"seat {seat}'s advice reads melds"):
        check_secrecy(state)



def _chosen_states(rules_name: str, seed: int) -> Iterator[HandState]:
    """Every state of one seeded hand, yielded once the computer has chosen on it (as
    self-play checks it)."""
    rng = random.Random(seed)
    wall = full_set(rules_name == "shanghai")
    rng.shuffle(wall)
    state, _ = new_hand(rules_name, {}, tuple(wall), 0, (3, 4))
    while state.phase is not Phase.ENDED:
        action = choose_action(state, deciding_seats(state)[0], rng)
        yield state
        state, _ = apply(state, action)


def test_a_leak_in_a_shared_seat_part_is_caught_in_every_state_that_reuses_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # What a seat shows and knows is built once and shared by the next states while the
    # seat does not move: the check keeps no "already checked" and refuses the wrong
    # part (here seat 2's idle knowledge, by a judge equal to the hand's but another)
    # in each state it is reused in.
    honest_part = view_module._seat_shown

    def own_judge(*args: Any) -> Any:
        part = honest_part(*args)
        if args[1] != 2:
            return part
        judge = part.idle.judge
        other = Judge(judge.rules, judge.wildcards, judge.shapes)
        return part._replace(idle=dataclasses.replace(part.idle, judge=other))

    states = _chosen_states("shanghai", 21)
    for state in itertools.islice(states, 8):
        check_secrecy(state)  # honest, and its parts shared
    monkeypatch.setattr(view_module, "_seat_shown", own_judge)
    memo.clear()  # every part is built again, seat 2's the wrong way
    reused = caught = 0
    previous: HandState | None = None
    for state in itertools.islice(states, 40):
        if 2 in deciding_seats(state):
            continue  # the deciding seat's knowledge is made afresh each state
        reused += previous is not None and previous.seats[2] is state.seats[2]
        with pytest.raises(SelfPlayError, match="seat 2's advice judges by another"):
            check_secrecy(state)
        caught += 1
        previous = state
    assert caught > 10 and reused > 5


def test_a_wrong_unseen_count_kept_with_a_shared_seat_view_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # What a seat's river and melds show is counted once a `SeatView` and kept with it
    # (`unseen_in_view`): a count that is not what the view shows (here one tile of
    # seat 0's hidden hand counted as seen by the others) is refused in every state
    # whose seat on turn reads that very seat view.
    states = _chosen_states("hangzhou", 22)
    for state in itertools.islice(states, 6):
        check_secrecy(state)
    poisoned = set()
    caught = 0
    for state in itertools.islice(states, 40):
        seat_view = spectator_view(state).seats[0]
        if state.phase is not Phase.TURN or state.turn == 0:
            check_secrecy(state)
            continue
        if id(seat_view) not in poisoned:
            counted = view_module._seen_in_seat(seat_view, False)
            hidden = state.seats[0].hand[0]
            seat_view.__dict__["_seen_by_others"] = counted + view_module._SEEN_ONE[hidden]
            poisoned.add(id(seat_view))
        with pytest.raises(SelfPlayError, match="counts tiles it cannot see"):
            check_secrecy(state)
        caught += 1
    assert caught > 10 and caught > len(poisoned)
