"""The pace model judges each decision as the service would: a turn it plays at once
is one `played_ahead` plays (with the next discard the model's person chose, or
"discard my draw" while ready), and a claim window's seat it counts as covered is one
whose answers in advance (as the model's person set them from the tiles they hold)
`auto_reason` and `advance_answer` play as the computer answers. Where the model asks
although the service would play, it is on the slow side by design (a pre-move the
computer would not throw; the turn after one's own kong; a claim "win only" passes
before any visit, or one the tiles at the last visit would not have named).
A next discard the model keeps for the next turn (its "or my draw" threw the draw
instead) is one the service keeps (`premoves_spent`) and plays as the model does.
The model's person: "or my draw" on, "discard my draw" and "always win" and "win only"
on, a claim named for each tile the computer would claim, each with its discard
(`pace.named`, `Turn.then`)."""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace
from typing import cast

import pytest

from bench import pace
from bot.service.live import LiveTable, advance_answer, auto_reason, played_ahead
from bot.service.moves import premoves_spent
from bot.service.notices import ClaimAnswer, NextDiscard
from bot.store.rows import SeatRow, StandingChoices
from engine.game import Action, ActionKind, HandState, apply
from engine.melds import MeldKind
from engine.tiles import Tile


def person(seat: int, choices: StandingChoices) -> SeatRow:
    return SeatRow(1, seat, 100 + seat, False, f"p{seat}", False, 0, choices, False, 0.0)


def service_turn(state: HandState, d: pace.Turn, pre: Tile | None) -> Action | None:
    """What the service plays at once on this turn, with the model person's choices:
    their next discard with "or my draw" on, "discard my draw", and after their own
    chi or pong the discard they named with it in advance ("pong 5m, then 9p")."""
    row = person(d.seat, StandingChoices(always_win=True, pass_claims=True,
                                         discard_drawn_when_ready=True))
    answers: dict[Tile, ClaimAnswer] = {}
    mine = state.seats[d.seat]
    if d.after_claim and d.then is not None:
        meld = mine.melds[-1]
        assert meld.claimed is not None
        uses = list(meld.tiles)
        uses.remove(meld.claimed)
        kind = ActionKind.CHI if meld.kind is MeldKind.CHI else ActionKind.PONG
        answers[meld.claimed] = ClaimAnswer(kind, tuple(sorted(uses)) if
                                            kind is ActionKind.CHI else (), d.then)
    ahead = played_ahead(row, state, d.seat, None if pre is None else NextDiscard(pre),
                         answers)
    return None if ahead is None else ahead[1]


def service_claim(state: HandState, w: pace.Window, seat: int, stored: pace.Stored | None
                  ) -> Action | None:
    """What the service plays at once for ``seat`` on the window, with the answers the
    model's person set from the tiles they held at their last visit (``stored``; None:
    none yet this hand): "always win", "win only", and the claim of the window's tile
    they named (`pace.named`)."""
    tile = w.window.tile
    answers: dict[Tile, ClaimAnswer] = {}
    claim = None if stored is None else pace.named(stored, tile)
    if claim is not None:
        answers[tile] = ClaimAnswer(claim.kind, claim.tiles if claim.kind is ActionKind.CHI
                                    else ())
    choices = StandingChoices(always_win=True, pass_claims=True)
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
    earlier: dict[int, pace.Stored] = {}

    def observe(state: HandState, d: pace.Decision, pre: Tile | None) -> None:
        if isinstance(d, pace.Turn):
            played = service_turn(state, d, pre)
            if d.after_claim:
                model = d.then_plays
                seen["after a claim, its named discard played" if model else
                     "after a claim, asked"] += 1
            else:
                model = not d.blocked and (d.plays_drawn or d.plays_pre)
            for old, again in () if d.blocked else d.carried:
                # a next discard still chosen from an earlier turn that threw its draw
                # instead: the service plays the same, and keeps it exactly when the
                # draw is thrown again
                assert service_turn(state, d, old) == d.move
                after, _ = apply(state, d.move)
                live = cast(LiveTable, SimpleNamespace(premoves={d.seat: NextDiscard(old)}))
                assert (d.seat not in premoves_spent(live, d.move, after, set())) == again
                seen["turn played by a next discard kept" + (", kept again" if again
                                                            else "")] += 1
            if d.kept:  # the service keeps the chosen tile, which is still held
                assert pre is not None and d.move.tile != pre and \
                    pre in state.seats[d.seat].hand
                after, _ = apply(state, d.move)
                live = cast(LiveTable, SimpleNamespace(premoves={d.seat: NextDiscard(pre)}))
                assert d.seat not in premoves_spent(live, d.move, after, set())
            if model:
                assert played == d.move
                seen["turn played by both"] += 1
            elif played == d.move:
                # the service plays it, the model asks: only after the seat's own kong
                # (its replacement draw), the slow side
                assert d.why.startswith("turn: the dealer's first, or after")
                seen["turn the model asks, the service plays"] += 1
            else:
                seen["turn asked"] += 1
            return
        for seat in d.window.asked:
            choice = d.choices[seat]
            # a visit with the tiles held now, one with those of the seat's last window
            # (stale: it has moved since), and none yet this hand
            for stored in (pace.Stored(d.judge, d.hands[seat], seat), earlier.get(seat),
                           None):
                played = service_claim(state, d, seat, stored)
                covered = pace.covered(stored, d, seat)
                assert covered == (played == choice), (seat, choice, played)
                seen["claim covered" if covered else "claim asked"] += 1
            earlier[seat] = pace.Stored(d.judge, d.hands[seat], seat)

    rng = random.Random(f"check:{rules_name}")
    for _ in range(6):
        pace.record_hand(rules_name, rng, observe)
    assert seen["turn played by both"] and seen["turn asked"]
    assert seen["claim covered"] and seen["claim asked"]
    assert seen["after a claim, its named discard played"]
    assert seen["turn played by a next discard kept, kept again"]
    assert seen["turn played by a next discard kept"]
