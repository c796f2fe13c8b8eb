"""The pace model judges each decision as the service would: a turn it plays at once
is one `played_ahead` plays (with the next discard the model's person chose, or
"discard my draw" while ready), and a claim window's seat it counts as covered is one
whose answers in advance (as the model's person set them from the tiles they hold)
`auto_reason` and `advance_answer` play as the computer answers. Where the model asks
although the service would play, it is on the slow side by design (a pre-move the
computer would not throw; the turn after one's own kong)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bench import pace
from bot.service.live import advance_answer, auto_reason, played_ahead
from bot.service.notices import NextDiscard
from bot.store.rows import SeatRow, StandingChoices
from engine.game import Action, ActionKind, HandState
from engine.tiles import Tile


def person(seat: int, choices: StandingChoices) -> SeatRow:
    return SeatRow(1, seat, 100 + seat, False, f"p{seat}", False, 0, choices, False, 0.0)


def service_turn(state: HandState, d: pace.Turn, pre: Tile | None) -> Action | None:
    """What the service plays at once on this turn, with the model person's choices."""
    row = person(d.seat, StandingChoices(always_win=True, discard_drawn_when_ready=True))
    # the model's pre-move is exactly its tile ("or my draw" off) until the bench
    # models amendment A
    ahead = played_ahead(row, state, d.seat, None if pre is None else NextDiscard(pre, False))
    return None if ahead is None else ahead[1]


def service_claim(state: HandState, w: pace.Window, seat: int) -> Action | None:
    """What the service plays at once for ``seat`` on the window, with the answers the
    model's person set from the tiles they hold now."""
    stored = pace.Stored(w.judge, w.hands[seat], seat)
    tile = w.window.tile
    answers: dict[Tile, ActionKind] = {}
    for kind, size in ((ActionKind.KONG, 3), (ActionKind.PONG, 2)):
        option = Action(kind, seat, tiles=(tile,) * size)
        if tile not in answers and sum(1 for t in stored.hand[0] if t == tile) >= size \
                and pace.claims_option(stored, option, tile, w.window.from_seat):
            answers[tile] = kind
    win_only, never_chi = pace.standing(stored)
    choices = StandingChoices(always_win=True, pass_claims=win_only, never_chi=never_chi)
    reason = auto_reason(person(seat, choices), state, seat, answers)
    if reason == "always_win":
        return Action(ActionKind.WIN, seat)
    if reason == "pass_claims":
        return Action(ActionKind.PASS, seat)
    if reason == "claim_answer":
        return advance_answer(state, seat, choices, answers)
    return None


@pytest.mark.parametrize("rules_name", list(pace.RULESETS))
def test_the_model_plays_at_once_exactly_where_the_service_would(rules_name: str) -> None:
    seen: Counter[str] = Counter()

    def observe(state: HandState, d: pace.Decision, pre: Tile | None) -> None:
        if isinstance(d, pace.Turn):
            played = service_turn(state, d, pre)
            model = not d.blocked and (d.plays_drawn or d.plays_pre)
            if model:
                assert played == d.move
                seen["turn played by both"] += 1
            elif played == d.move:
                # the service plays it, the model asks: only after the seat's own kong
                # (its replacement draw), or through a kong that needs a 财神 (amendment
                # D, which the model's "all" does not have yet): the slow side
                assert d.why.startswith("turn: the hand's first, or after") \
                    or d.blocked == "wild kong"
                seen["turn the model asks, the service plays"] += 1
            else:
                seen["turn asked"] += 1
            return
        for seat in d.window.asked:
            choice = d.choices[seat]
            played = service_claim(state, d, seat)
            covered = pace.covered(pace.Stored(d.judge, d.hands[seat], seat), d, seat)
            assert covered == (played == choice), (seat, choice, played)
            seen["claim covered" if covered else "claim asked"] += 1

    rng = random.Random(f"check:{rules_name}")
    for _ in range(6):
        pace.record_hand(rules_name, rng, observe)
    assert seen["turn played by both"] and seen["turn asked"]
    assert seen["claim covered"] and seen["claim asked"]
