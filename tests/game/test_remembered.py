"""A state remembers what was asked of it (its legal moves, its self-draw) and `apply`
trusts a move it offered: the answers stay with that one state, and a move that was not
offered is still refused with its specific reason."""

from __future__ import annotations

import pickle

import pytest

from engine.game import Action, ActionKind, HandState, TileNotHeld, apply, legal_actions
from engine.game import legal as legal_module
from engine.game.legal import known_legal
from engine.game.state import replace
from tests.game.helpers import QUIET, start, tiles


def _turn() -> HandState:
    state, _ = start("shanghai", {0: "123456789m55567p", 1: QUIET[1], 2: QUIET[2],
                                  3: QUIET[3]})
    return state


def test_legal_moves_are_worked_out_once_a_state() -> None:
    state = _turn()
    first = legal_actions(state, 0)
    assert legal_actions(state, 0) is first
    assert legal_actions(state, 1) == ()


def test_the_answers_are_never_copied_pickled_or_compared() -> None:
    state = _turn()
    legal_actions(state, 0)
    question = legal_module._LEGAL[0]
    assert state.remembered_answer(question) is legal_actions(state, 0)
    assert replace(state, seq=state.seq).remembered_answer(question) is None
    again = pickle.loads(pickle.dumps(state))
    assert again.remembered_answer(question) is None
    assert again == state and legal_actions(again, 0) == legal_actions(state, 0)


def test_an_offered_move_applies_as_it_does_unasked() -> None:
    asked, unasked = _turn(), _turn()
    move = legal_actions(asked, 0)[0]
    assert known_legal(asked, move) and not known_legal(unasked, move)
    assert apply(asked, move) == apply(unasked, move)


def test_a_move_not_offered_is_refused_with_its_reason_after_the_offers() -> None:
    state = _turn()
    legal_actions(state, 0)
    stranger = Action(ActionKind.DISCARD, 0, tiles("9p")[0])
    assert not known_legal(state, stranger)
    with pytest.raises(TileNotHeld, match="you do not hold 9p"):
        apply(state, stranger)
