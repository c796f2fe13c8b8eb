"""`less_useful`: which of a few tiles the computer's own advice keeps less, at a seat's
turn — the next discard chosen in advance, "9p, or my draw if it helps less" (issue 30,
amendment A) — and `kong_needs_caishen`, the kongs that do not stop a pre-move (D)."""

from __future__ import annotations

import random

from engine import ai
from engine.ai import kong_needs_caishen, less_useful
from engine.game import Action, ActionKind, HandState, legal_actions
from engine.game.deal import new_hand, stack_wall
from engine.tiles import tile_from_notation

T = tile_from_notation

# Seat 0 deals: a flush of characters but for 5p and 1p (Shanghai wins only with a
# pattern: a flush first), the others hold what is left.
FLUSH = {0: "111234567899m1p5p", 1: "2233445566778p", 2: "1122334455667s",
         3: "1234567z123s889p"}
# The same flush with 1p and 9p off it.
EDGES = {0: "111234567899m1p9p", 1: "2233445566778p", 2: "1122334455667s",
         3: "1234567z123s885p"}
# Hangzhou, White Dragons (5z) are 财神: seat 0 holds one, and two runs, a pair, and
# loose tiles; 9p is the loneliest.
WILD = {0: "123m456m77p2s9p5z19s2z", 1: "2233445566778s", 2: "1122334455667p",
        3: "12346z3456789m8p"}


def dealt(rules: str, hands: dict[int, str]) -> HandState:
    state, _ = new_hand(rules, {}, stack_wall(rules, hands, dealer=0), 0, (3, 5))
    return state


def test_the_tile_off_the_flush_is_the_one_kept_less_whatever_the_order() -> None:
    state = dealt("shanghai", FLUSH)
    assert less_useful(state, 0, (T("1m"), T("5p"))) == T("5p")
    assert less_useful(state, 0, (T("5p"), T("1m"))) == T("5p")
    assert less_useful(state, 0, (T("9m"), T("1p"))) == T("1p")


def test_equals_go_to_the_first_named() -> None:
    # 1p and 9p, both off the flush and alone at an edge: the advice cannot tell them
    # apart (the computer would draw lots), so the first named is played
    state = dealt("shanghai", EDGES)
    assert less_useful(state, 0, (T("1p"), T("9p"))) == T("1p")
    assert less_useful(state, 0, (T("9p"), T("1p"))) == T("9p")
    assert less_useful(state, 0, (T("1m"), T("9p"))) == T("9p")
    # the same kind twice, or one tile alone: that tile
    assert less_useful(state, 0, (T("9p"), T("9p"))) == T("9p")
    assert less_useful(state, 0, (T("1m"),)) == T("1m")


def test_the_same_answer_every_time() -> None:
    state = dealt("shanghai", FLUSH)
    answers = {less_useful(state, 0, (T("1p"), T("5p"))) for _ in range(20)}
    assert len(answers) == 1


def test_only_a_tile_the_rules_let_it_discard_now() -> None:
    state = dealt("shanghai", FLUSH)
    assert less_useful(state, 0, (T("7z"), T("1m"))) == T("1m")  # 7z not held
    assert less_useful(state, 0, (T("7z"), T("9s"))) is None
    assert less_useful(state, 0, ()) is None
    assert less_useful(state, 1, (T("2p"), T("8p"))) is None  # not seat 1's turn


def test_a_caishen_is_kept_over_any_tile() -> None:
    state = dealt("hangzhou", WILD)
    assert state.wildcards.is_joker(T("5z"))
    assert less_useful(state, 0, (T("5z"), T("1m"))) == T("1m")
    assert less_useful(state, 0, (T("5z"), T("9p"))) == T("9p")
    assert less_useful(state, 0, (T("5z"),)) == T("5z")


def test_it_is_the_computers_choice_among_those_tiles() -> None:
    """On random hands, the answer is one of the discards `choose_discard` draws from,
    restricted to the same two tiles (and it is the computer's throw when one of the
    two is)."""
    rng = random.Random(30)
    for rules in ("shanghai", "hangzhou"):
        for _ in range(40):
            wall = list(dealt(rules, FLUSH if rules == "shanghai" else WILD).wall)
            rng.shuffle(wall)
            state, _ = new_hand(rules, {}, wall, 0, (3, 5))
            hand = state.seats[0].hand
            pair = tuple(rng.sample(sorted(set(hand)), 2))
            picked = less_useful(state, 0, pair)
            judge = ai.remembered_judge(state)
            unseen = ai.remembered_unseen(state, 0)
            draws = {ai.choose_discard(judge, hand, state.seats[0].melds, unseen,
                                       random.Random(n), allowed=pair) for n in range(8)}
            assert picked in draws
            if len(draws) > 1:  # equals: the first named
                assert picked == pair[0]


def test_kongs_made_with_a_caishen() -> None:
    state = dealt("hangzhou", WILD)
    wild = state.wildcards
    kong = ActionKind.CONCEALED_KONG
    assert not kong_needs_caishen(wild, Action(kong, 0, tiles=tuple(T("7p") for _ in range(4))))
    assert kong_needs_caishen(wild, Action(kong, 0, tiles=(T("7p"),) * 3 + (T("5z"),)))
    assert kong_needs_caishen(wild, Action(kong, 0, tiles=(T("5z"),) * 4))
    assert kong_needs_caishen(wild, Action(ActionKind.ADDED_KONG, 0, T("5z")))
    assert not kong_needs_caishen(wild, Action(ActionKind.ADDED_KONG, 0, T("7p")))
    # Shanghai has no 财神: no kong needs one
    plain = dealt("shanghai", FLUSH).wildcards
    assert not kong_needs_caishen(plain, Action(kong, 0, tiles=(T("5z"),) * 4))
    assert all(a.kind is not kong for a in legal_actions(state, 0))

