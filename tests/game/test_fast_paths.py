"""The move path's shortcuts against the general path they replace, on 2,000 seeded
random hands (Shanghai, Hangzhou with fixed and with turned 财神), move by move:

- a discard nobody may claim, and an answer that closes a window unclaimed, are made in
  one copy of the state with the next draw (`draw`'s ``before``): the same state and
  events as making the discard's state first and drawing from it; the plain discard and
  its draw in one step (`hand._plain_discard`, for an offered discard), and the last pass
  on a discard and its draw (`hand._plain_pass`), the same as both made the general way
  (with both steps turned off);
- the copies that skip `replace`'s checks (`renewed`, `SeatState.after`) keep no stale
  derived value: every seat's kept `HeldTiles` (its counts, each group's key and cost
  moved tile by tile, and the shape answers made from them) equals counting its tiles
  afresh;
- a turn's offers (`_discard_offers`, `_may_kong`, the self-draw told from the draw)
  equal every candidate enumerated and checked as before;
- `known_legal` knows an offered move given as an equal value, as `validate` would;
- a claim window's melds on tiles that all play as themselves (`_natural_claims`) are
  those every candidate multiset enumerated and checked finds (`_meld_claims`), in the
  same order.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine import rules
from engine.game import Action, MalformedAction, apply, deciding_seats, legal_actions, new_hand
from engine.game import hand as hand_module
from engine.game import legal as legal_module
from engine.game.events import Event
from engine.game.held import _MARKS, _SHAPE, HeldTiles
from engine.game.legal import known_legal, remembered_self_draw
from engine.game.state import HandState, Phase, replace
from engine.rules.common import ActionKind
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


def _general_draw(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Patch `draw` so that, while the returned flag is set, the changes made before a
    draw go into a state of their own first (the general path, two copies)."""
    general = [False]
    one_copy = hand_module.draw

    def draw(state: HandState, seat: int, ev: list[Event], *, replacement: Any = None,
             before: dict[str, object] | None = None) -> HandState:
        if general[0] and before is not None:
            return one_copy(replace(state, **before), seat, ev, replacement=replacement)
        return one_copy(state, seat, ev, replacement=replacement, before=before)

    monkeypatch.setattr(hand_module, "draw", draw)
    return general


def _reference_turn_offers(state: HandState, seat: int,
                           monkeypatch: pytest.MonkeyPatch) -> tuple[Action, ...]:
    """The turn's offers with every candidate enumerated and checked (no shortcut)."""
    fresh = replace(state, seq=state.seq)  # nothing remembered
    with monkeypatch.context() as patch:
        patch.setattr(legal_module, "_may_kong", lambda *_: True)
        patch.setattr(legal_module, "_discard_offers",
                      legal_module._discard_offers.__wrapped__)  # type: ignore[attr-defined]
        patch.setattr(legal_module, "_may_self_draw", _may_self_draw_by_judging)
        return legal_module._turn_actions(fresh, seat)


def _may_self_draw_by_judging(state: HandState, seat: int, _held: object) -> bool:
    if state.seats[seat].drawn is None and not state.opening:
        return False
    record = remembered_self_draw(state, seat)
    return record is not None and record.settlement.valid


def _held_as_counted_afresh(state: HandState) -> None:
    for s in state.seats:
        kept = s.__dict__.get("_held")
        if kept is None:
            continue
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


def _counted(step: Any, name: str, moves: dict[str, int], general: list[bool]) -> Any:
    """``step`` (`hand._plain_discard` or `_plain_pass`), counting the moves it made;
    while ``general`` is set, it makes none (the general path makes them all)."""
    def counted(state: HandState, action: Action) -> object:
        if general[0]:
            return None
        made = step(state, action)
        moves[name] += made is not None
        return made
    return counted


def _value_copy(action: Action) -> Action:
    return Action(action.kind, action.seat, action.tile, action.tiles)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_shortcuts_play_every_move_as_the_general_path(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    general = _general_draw(monkeypatch)
    moves = {"one_copy_draws": 0, "turns": 0, "_plain_discard": 0, "_plain_pass": 0,
             "natural_claims": 0}
    for one_step in ("_plain_discard", "_plain_pass"):
        monkeypatch.setattr(hand_module, one_step, _counted(
            getattr(hand_module, one_step), one_step, moves, general))
    monkeypatch.setattr(legal_module, "_natural_claims", _as_enumerated(moves))

    def step(state: HandState, action: Action) -> HandState:
        if state.phase is Phase.TURN:
            assert legal_actions(state, action.seat) == \
                _reference_turn_offers(state, action.seat, monkeypatch)
            moves["turns"] += 1
        assert known_legal(state, _value_copy(action))
        general[0] = True
        slow: tuple[HandState, tuple[Event, ...]] = apply(replace(state, seq=state.seq),
                                                          action)
        general[0] = False
        fast = apply(state, action)
        assert fast == slow
        if fast[0].seats != state.seats and fast[0].phase is Phase.TURN:
            moves["one_copy_draws"] += 1
        _held_as_counted_afresh(fast[0])
        return fast[0]

    rules_name, options, seed, hands = GAMES[name]
    for _ in _moves(rules_name, options, seed, hands, step):
        pass
    assert moves["turns"] > 20 * hands and moves["one_copy_draws"] > 10 * hands
    # The plain discard-and-draw step (`hand._plain_discard`) made most of those draws;
    # the general path (`general`, the answers dropped) made each of them too.
    assert moves["_plain_discard"] > 10 * hands and moves["_plain_pass"] > hands
    # Fixed 财神 and no 财神: most windows' melds were told at once (a turned 财神 has
    # a stand-in, so its windows always enumerate).
    assert moves["natural_claims"] > (hands if name != "hangzhou_flip" else -1)


def _as_enumerated(moves: dict[str, int]) -> Any:
    """`_natural_claims`, each call's claims compared with `_meld_claims`' (values and
    order) and counted."""
    natural = legal_module._natural_claims

    def compared(*args: Any) -> Iterator[Action]:
        told = list(natural(*args))
        assert told == list(legal_module._meld_claims(*args))
        moves["natural_claims"] += 1
        return iter(told)
    return compared


def test_an_equal_action_of_the_wrong_types_is_still_refused_as_malformed() -> None:
    state, _ = new_hand("shanghai", {}, tuple(rules.get("shanghai").tile_set()), 0, (1, 1))
    offered = legal_actions(state, 0)[0]
    int_tile = Action(offered.kind, 0, int(offered.tile))  # type: ignore[arg-type]
    assert int_tile == offered  # an IntEnum equals its int
    with pytest.raises(MalformedAction, match="Tile values"):
        known_legal(state, int_tile)


def test_the_one_step_moves_refuse_a_malformed_copy_of_an_offer() -> None:
    """`apply` of an offered discard given with an int tile, or of the last pass on a
    discard given with a bool seat, is refused as malformed (and changes nothing), as
    the general path refuses it, though each equals what the one-step move makes."""
    refused = {"discard": 0, "pass": 0}

    def step(state: HandState, action: Action) -> HandState:
        if state.phase is Phase.TURN and action.kind is ActionKind.DISCARD:
            legal_actions(state, action.seat)
            with pytest.raises(MalformedAction, match="Tile values"):
                apply(state, Action(ActionKind.DISCARD, action.seat,
                                    int(action.tile)))  # type: ignore[arg-type]
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
