"""The hooks each rule set answers (engine/rules/ruleset.py), asked directly."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import rules
from engine.game import new_hand
from engine.game.deal import stack_wall
from engine.game.state import HandState
from engine.rules import DEFAULT, HANGZHOU, RULESETS, SHANGHAI, RuleSet
from engine.rules.common import ActionKind, TurnCheck, WinContext, WinKind
from engine.tiles import Tile, parse_tiles
from tests.engine.helpers import fractions


def test_one_registry_of_rule_set_objects_each_of_its_own_class() -> None:
    assert list(RULESETS) == ["shanghai", "hangzhou"]
    assert all(isinstance(r, RuleSet) and rules.get(n) is r for n, r in RULESETS.items())
    assert type(SHANGHAI) is not type(HANGZHOU)
    assert DEFAULT is SHANGHAI
    assert rules.label("hangzhou") == "杭州 Hangzhou"
    assert rules.label("mystery") == "mystery"
    with pytest.raises(AttributeError):  # shared by every table: nobody may change one
        HANGZHOU.kong_burns = 0  # type: ignore[misc]  # the write is what is tested


def test_what_each_rule_set_has() -> None:
    assert (len(SHANGHAI.tile_set()), len(HANGZHOU.tile_set())) == (144, 136)
    assert (SHANGHAI.value_unit, HANGZHOU.value_unit) == ("花", "×")
    assert SHANGHAI.has_huangfan and not HANGZHOU.has_huangfan
    assert HANGZHOU.counts_chain and HANGZHOU.counts_streak
    assert not SHANGHAI.counts_chain and not SHANGHAI.counts_streak
    assert SHANGHAI.needs_qualifying_pattern and not HANGZHOU.needs_qualifying_pattern
    assert (SHANGHAI.kong_burns, HANGZHOU.kong_burns) == (0, 1)
    assert (SHANGHAI.last_window_tiles, HANGZHOU.last_window_tiles) == (None, 20)
    assert SHANGHAI.multiple_winners and not HANGZHOU.multiple_winners
    assert SHANGHAI.rob_added_kong and not HANGZHOU.rob_added_kong
    assert HANGZHOU.passed_claims_bind and not SHANGHAI.passed_claims_bind


def test_only_hangzhou_flip_mode_turns_a_wildcard_at_the_deal() -> None:
    assert HANGZHOU.turns_wildcard(HANGZHOU.options({"caishen": "flip"}))
    assert not HANGZHOU.turns_wildcard(HANGZHOU.options())
    assert not SHANGHAI.turns_wildcard(SHANGHAI.options())


def test_the_huangfan_counter_moves_only_in_shanghai() -> None:
    assert SHANGHAI.huangfan_after_dice(1, (4, 4)) == 3
    assert SHANGHAI.huangfan_after_dice(0, (2, 3)) == 0
    assert SHANGHAI.huangfan_after_hand(2, drawn=True) == 3
    assert SHANGHAI.huangfan_after_hand(2, drawn=False) == 1
    assert SHANGHAI.huangfan_after_hand(0, drawn=False) == 0
    assert HANGZHOU.huangfan_after_dice(0, (4, 4)) == 0
    assert HANGZHOU.huangfan_after_hand(0, drawn=True) == 0


@pytest.mark.parametrize(("ruleset", "winners", "discarder", "dealt"), [
    (SHANGHAI, (), None, (1, 1)),          # a draw: the dealer again
    (SHANGHAI, (3,), None, (3, 1)),        # the winner deals
    (SHANGHAI, (0, 3), 2, (3, 1)),         # several winners: the nearest after the discarder
    (SHANGHAI, (1, 3), 2, (3, 1)),
    (HANGZHOU, (), None, (1, 3)),          # a draw: the dealer again, one streak higher
    (HANGZHOU, (1,), 0, (1, 3)),           # the dealer wins: the same
    (HANGZHOU, (2,), None, (2, 1)),        # another wins: the winner at streak 1
])
def test_who_deals_next(ruleset: RuleSet, winners: tuple[int, ...], discarder: int | None,
                        dealt: tuple[int, int]) -> None:
    assert ruleset.next_dealer(1, 2, winners, discarder) == dealt


def test_the_hangzhou_streak_stops_at_three() -> None:
    assert HANGZHOU.next_dealer(0, 3, (), None) == (0, 3)
    assert HANGZHOU.max_streak == 3


# Seat 2 waits on 5s (tanki); seat 3 waits on nothing.
HANDS = {0: "11122233344455m", 1: "1112223334445s", 2: "123456789p111z5s",
         3: "147m147p147s1234z"}


def _hangzhou_hand() -> HandState:
    wall = stack_wall("hangzhou", HANDS, dealer=0)
    state, _ = new_hand("hangzhou", {"base": 2}, wall, 0, (3, 5))
    return state


def test_leaving_a_hangzhou_hand_costs_by_the_zhua_da_window() -> None:
    state = _hangzhou_hand()
    assert HANGZHOU.abandon_penalty(state, 1) == fractions(0, -16, 0, 0)
    in_window = replace(state, zhua_da=2)
    assert HANGZHOU.abandon_penalty(in_window, 1) == fractions(0, -64, 64, 0)  # 2 waits: paid to 2
    assert HANGZHOU.abandon_penalty(in_window, 2) == fractions(0, 0, -16, 0)  # the discarder leaves
    not_waiting = replace(state, zhua_da=3)
    assert HANGZHOU.abandon_penalty(not_waiting, 1) == fractions(0, -64, 0, 0)


def test_leaving_a_shanghai_hand_costs_nothing() -> None:
    wall = SHANGHAI.tile_set()
    state, _ = new_hand("shanghai", {}, wall, 0, (3, 5))
    assert SHANGHAI.abandon_penalty(state, 1) is None


def test_each_rule_set_refuses_the_other_ones_calculator_fields() -> None:
    base = WinContext(winner=0, dealer=0, win=WinKind.SELF_DRAW,
                      concealed=tuple(parse_tiles("123m456m789m123p5p")), win_tile=Tile.P5)
    assert SHANGHAI.foreign_fields(base) is None
    assert HANGZHOU.foreign_fields(base) is None
    assert "Hangzhou" in str(SHANGHAI.foreign_fields(replace(base, streak=2)) or "")
    assert "Shanghai" in str(HANGZHOU.foreign_fields(replace(base, huangfan=True)) or "")


def _situations() -> list[TurnCheck]:
    """Every turn situation that decides a discard's fate, for one 财神 setup."""
    wild = HANGZHOU.wildcards(HANGZHOU.options(), None)
    return [TurnCheck(ActionKind.DISCARD, seat, wild, drawn=drawn, after_claim=after,
                      zhua_da=zhua_da)
            for seat in range(4) for zhua_da in (None, 0, 1, 2, 3)
            for drawn in (None, Tile.M5, Tile.WHITE) for after in (False, True)]


@pytest.mark.parametrize("ruleset", list(RULESETS.values()), ids=list(RULESETS))
def test_a_rule_set_that_says_no_discard_is_refused_refuses_none(ruleset: RuleSet) -> None:
    options = ruleset.options()
    for situation in _situations():
        if ruleset.restricts_discards(situation, options):
            continue
        for tile in (Tile.M1, Tile.M5, Tile.P9, Tile.EAST, Tile.WHITE):
            check = replace(situation, tile=tile, meld_tiles=(tile,))
            assert ruleset.turn_refusal(check, options) is None, (situation, tile)


def test_hangzhou_zhua_da_restricts_discards_and_refuses_one() -> None:
    options = HANGZHOU.options()
    situation = next(s for s in _situations() if s.zhua_da == 1 and s.seat == 2
                     and s.drawn is Tile.M5)
    assert HANGZHOU.restricts_discards(situation, options)
    check = replace(situation, tile=Tile.P9, meld_tiles=(Tile.P9,))
    assert "抓打" in str(HANGZHOU.turn_refusal(check, options) or "")
    assert not SHANGHAI.restricts_discards(situation, SHANGHAI.options())
