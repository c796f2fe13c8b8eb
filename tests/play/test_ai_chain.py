"""The computer player's 暴头 judgement follows the chain rule: a 财神 floated in a turn
that began with a chi or pong does not count (hangzhou.md, decision), so it is no reason
to give up a win."""

from __future__ import annotations

import random

from engine.ai import choose_action
from tests.game.helpers import CK, PONG, QUIET, WIN, D, offered, play, start


def test_the_computer_wins_instead_of_floating_in_a_pong_turn() -> None:
    # The dealer pongs 9m, kongs 4444m and draws a 财神: 123p 456p 5z5z wins 暴头 now
    # (×2). Floating a 财神 would leave 暴头 again, but that 飘 would not count: ×2 too.
    hands = {0: "4444m123p456p5z9m9m1z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands, draws="1m2m9m", back="5z")
    state = play(state, D(0, "1z"), D(1, "1m"), D(2, "2m"), D(3, "9m"), PONG(0, "99m"),
                 CK(0, "4444m"))
    assert state.seats[0].claimed_turn and offered(state, WIN(0))
    assert choose_action(state, 0, random.Random(1)) == WIN(0)


def test_the_computer_still_floats_when_the_piao_counts() -> None:
    # The dealer's opening 14 win 暴头 (×2); floating a 财神 keeps 暴头 and makes the
    # next win 财飘 (×4), so the computer floats.
    hands = {0: "123p456p789s999m5z5z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    state, _ = start("hangzhou", hands)
    assert offered(state, WIN(0))
    assert choose_action(state, 0, random.Random(1)) == D(0, "5z")
