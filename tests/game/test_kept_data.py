"""What the move path keeps to be quick, against what it stands for, on 2,000 seeded
random hands (Shanghai, Hangzhou with fixed and with turned 财神), move by move:

- a move applied to a state whose offers were asked (`known_legal` trusts an offered
  move) makes the same state and events as on a copy nobody asked (validated in full);
- every seat's kept `HeldTiles` (its counts, each group's key and cost moved tile by
  tile by `SeatState.after`, and the shape answers and claim marks made from them)
  equals counting its tiles afresh;
- who could claim a discard (`could_claim`, told first from each seat's claim marks)
  is who could by its tiles counted afresh (`HeldTiles.may_claim`);
- a turn's offers (`_discard_offers`, `_may_kong`, the self-draw told from the shape)
  equal every candidate enumerated and checked;
- `known_legal` knows an offered move given as an equal value, as `validate` would;
- a claim window's offers, their melds kept by the tiles that could meld with the
  discard (`_MELD_CLAIMS`), are those worked out afresh (the memo emptied), in the same
  order.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine import memo, rules
from engine.game import Action, MalformedAction, apply, deciding_seats, legal_actions, new_hand
from engine.game import legal as legal_module
from engine.game.held import _MARKS, _SHAPE, HeldTiles
from engine.game.legal import claim_options, could_claim, known_legal, remembered_self_draw
from engine.game.state import HandState, Phase, replace
from engine.rules.common import SEATS, ActionKind
from engine.tiles import Tile
from tests.game.helpers import window_of

GAMES = {
    # name: (rules, options, seed, hands)
    "shanghai": ("shanghai", {}, 7, 800),
    "hangzhou_fixed": ("hangzhou", {}, 8, 800),
    "hangzhou_flip": ("hangzhou", {"caishen": "flip"}, 9, 400),
}


def _moves(rules_name: str, options: dict[str, Any], seed: int, hands: int,
           step: Any) -> Iterator[None]:
    """Random play (a win taken nine times in ten, else any offer): ``step(state,
    action)`` applies each move and returns the next state."""
    rng = random.Random(seed)
    for _ in range(hands):
        wall = list(rules.get(rules_name).tile_set())
        rng.shuffle(wall)
        state, _ = new_hand(rules_name, options, tuple(wall), rng.randrange(4),
                            (rng.randint(1, 6), rng.randint(1, 6)))
        while state.phase is not Phase.ENDED:
            seat = rng.choice(deciding_seats(state))
            offers = legal_actions(state, seat)
            wins = [a for a in offers if a.kind is ActionKind.WIN]
            action = wins[0] if wins and rng.random() < 0.9 else rng.choice(offers)
            state = step(state, action)
            yield


def _reference_turn_offers(state: HandState, seat: int,
                           monkeypatch: pytest.MonkeyPatch) -> tuple[Action, ...]:
    """The turn's offers with every candidate enumerated and checked (no shortcut)."""
    fresh = replace(state, seq=state.seq)  # nothing remembered
    with monkeypatch.context() as patch:
        patch.setattr(legal_module, "_may_kong", lambda *_: True)
        patch.setattr(legal_module, "_discard_offers",
                      memo.uncached(legal_module._discard_offers))
        patch.setattr(legal_module, "_self_draw_refusal", _self_draw_refusal_by_judging)
        return legal_module._turn_actions(fresh, seat)


def _self_draw_refusal_by_judging(state: HandState, seat: int, _held: object) -> str | None:
    """`_self_draw_refusal` judging every self-draw (not told from the tiles' shape)."""
    if state.seats[seat].drawn is None and not state.opening:
        return "no draw"
    record = remembered_self_draw(state, seat)
    return None if record is not None and record.settlement.valid else "no win"


def _could_claim_afresh(state: HandState, tile: Tile, from_seat: int) -> tuple[bool, ...]:
    wild, shapes = state.wildcards, state.ruleset.shapes
    face = wild.plays_as(tile)
    upper = (from_seat + 1) % SEATS
    return tuple(seat != from_seat and HeldTiles.of(s.hand, s.melds, wild, shapes).may_claim(
        tile, face, seat == upper) for seat, s in enumerate(state.seats))


def _held_as_counted_afresh(state: HandState) -> None:
    for s in state.seats:
        kept = s.__dict__.get("_held")
        if kept is None:
            continue
        # A seat keeps only counts of its own tiles (`replace` drops them from a copy
        # whose hand or melds change, `SeatState.after` moves them).
        assert kept.is_of(s.hand, s.melds, state.wildcards, state.ruleset.shapes)
        fresh = HeldTiles.of(s.hand, s.melds, state.wildcards, state.ruleset.shapes)
        # Every count, group key and cost, and the shape answers made from them (the
        # fresh count's worked out as they are read, the kept one's moved with it).
        assert _values(kept) == _values(fresh)
        assert kept.basis.plays == fresh.basis.plays


def _values(held: HeldTiles) -> dict[str, object]:
    # A draw's answers known before the shape (`HeldTiles.moved`), then the shape.
    early = (held.complete, held.completable) if held.answered else None
    held.worked_out()
    if early is not None:
        assert early == (held.complete, held.completable)
    held.mark_claims()  # a claim check's marks, kept until the tiles change
    return {name: getattr(held, name) for name in (*_SHAPE, *_MARKS)} | {
        "concealed": held.concealed, "melds": held.melds, "split": held.split,
        "wildcards": held.wildcards, "shapes": held.shapes}


def _value_copy(action: Action) -> Action:
    return Action(action.kind, action.seat, action.tile, action.tiles)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_kept_data_plays_every_move_as_worked_out_afresh(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    moves = {"turns": 0, "windows": 0, "melds": 0}

    def step(state: HandState, action: Action) -> HandState:
        if state.phase is Phase.TURN:
            assert legal_actions(state, action.seat) == \
                _reference_turn_offers(state, action.seat, monkeypatch)
            moves["turns"] += 1
            if action.kind is ActionKind.DISCARD:
                assert action.tile is not None
                assert could_claim(state, action.tile, action.seat, False) == \
                    _could_claim_afresh(state, action.tile, action.seat)
        assert known_legal(state, _value_copy(action))
        unasked = apply(replace(state, seq=state.seq), action)
        made = apply(state, action)
        assert made == unasked
        _held_as_counted_afresh(made[0])
        window = made[0].window
        if window is not None and window.opened_at == made[0].seq:
            moves["windows"] += 1
            moves["melds"] += any(a.tiles for offers in window.options for a in offers)
            assert window.options == _claim_options_afresh(made[0])
        # What each tile plays as, kept by the state for `could_claim`, as worked out
        # afresh from the hand's 财神 (a flip mode's stand-in included).
        assert made[0].plays == tuple(made[0].wildcards.plays_as(t) for t in Tile)
        return made[0]

    rules_name, options, seed, hands = GAMES[name]
    for _ in _moves(rules_name, options, seed, hands, step):
        pass
    assert moves["turns"] > 20 * hands
    assert moves["melds"] > hands // 2 and moves["windows"] > hands


def _claim_options_afresh(state: HandState) -> tuple[tuple[Action, ...], ...]:
    """Each seat's offers on the window just opened, with no melds kept (the memo of
    them emptied first)."""
    legal_module._MELD_CLAIMS.clear()
    return tuple(claim_options(state, seat) for seat in range(SEATS))


def test_an_equal_action_of_the_wrong_types_is_still_refused_as_malformed() -> None:
    state, _ = new_hand("shanghai", {}, tuple(rules.get("shanghai").tile_set()), 0, (1, 1))
    offered = legal_actions(state, 0)[0]
    int_tile = Action(offered.kind, 0, int(offered.tile))  # type: ignore[arg-type]  # on purpose
    assert int_tile == offered  # an IntEnum equals its int
    with pytest.raises(MalformedAction, match="Tile values"):
        known_legal(state, int_tile)


def test_a_move_refuses_a_malformed_copy_of_an_offer() -> None:
    """`apply` of an offered discard given with an int tile, or of the last pass on a
    discard given with a bool seat, is refused as malformed (and changes nothing), though
    each equals the move offered."""
    refused = {"discard": 0, "pass": 0}

    def step(state: HandState, action: Action) -> HandState:
        if state.phase is Phase.TURN and action.kind is ActionKind.DISCARD:
            legal_actions(state, action.seat)
            with pytest.raises(MalformedAction, match="Tile values"):
                apply(state, Action(ActionKind.DISCARD, action.seat,
                                    int(action.tile)))  # type: ignore[arg-type]  # on purpose
            refused["discard"] += 1
        undecided = window_of(state).undecided if state.phase is Phase.CLAIM else ()
        if len(undecided) == 1 and undecided[0] in (0, 1):
            with pytest.raises(MalformedAction, match="seat must be"):
                apply(state, Action(ActionKind.PASS, bool(undecided[0])))
            refused["pass"] += 1
        return apply(state, action)[0]

    for _ in _moves("hangzhou", {}, 5, 20, step):
        pass
    assert refused["discard"] > 100 and refused["pass"] > 10
