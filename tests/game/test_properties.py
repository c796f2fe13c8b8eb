"""Random play: legal actions never raise, tiles are conserved, settlements sum to zero,
and anything not offered is refused without changing the state."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engine.analysis import HandAnalysis
from engine.game import (
    Action,
    ActionKind,
    HandState,
    IllegalAction,
    Phase,
    apply,
    deciding_seats,
    legal_actions,
    new_hand,
)
from engine.game.legal import validate
from engine.rules.common import SEATS
from engine.tiles import PLAYING_TILES, full_set

HANDS = 300
_SIZES = {ActionKind.CHI: 2, ActionKind.PONG: 2, ActionKind.KONG: 3,
          ActionKind.CONCEALED_KONG: 4}

_HANGZHOU_CHOICES: dict[str, tuple[Any, ...]] = {
    "caishen": ("fixed", "flip"), "caishen_melds": (False, True),
    "liability": (False, True), "discard_win_streak": (1, 2, 3)}


def _hands(rules: str) -> Iterator[tuple[int, int, int, dict[str, Any]]]:
    """``HANDS`` fixed seeds, each with its streak, dealer and (Hangzhou) options: any
    option may be left at its default. A seed replays its hand exactly."""
    for seed in range(HANDS):
        rng = random.Random(f"{rules} setup {seed}")
        streak, dealer = rng.randint(1, 3), rng.randrange(SEATS)
        options = {} if rules == "shanghai" else {
            name: rng.choice(values) for name, values in _HANGZHOU_CHOICES.items()
            if rng.random() < 0.5}
        yield seed, streak, dealer, options


def _random_action(rng: random.Random, state: HandState) -> Action:
    """Anything shaped like an action, often built from the seat's own tiles."""
    seat = rng.randrange(SEATS)
    kind = rng.choice(list(ActionKind))
    hand = list(state.seats[seat].hand) or list(PLAYING_TILES)
    pool = hand if rng.random() < 0.8 else list(PLAYING_TILES)
    tile = rng.choice(pool) if kind in (ActionKind.DISCARD, ActionKind.ADDED_KONG) else None
    size = _SIZES.get(kind, 0)
    tiles = tuple(rng.sample(pool, size)) if size <= len(pool) else ()
    return Action(kind, seat, tile, tiles)


def _check_invariants(state: HandState) -> None:
    assert state.tile_count() == len(state.wall)
    if state.phase is Phase.ENDED:
        return
    for seat, s in enumerate(state.seats):
        holding = len(s.hand) + 3 * len(s.melds)
        mover = state.phase is Phase.TURN and seat == state.turn
        assert holding == (14 if mover else 13), (seat, holding, state.phase)


def _probe_illegal(rng: random.Random, state: HandState) -> None:
    for _ in range(3):
        action = _random_action(rng, state)
        try:
            validate_ok = action in legal_actions(state, action.seat)
        except IllegalAction:
            validate_ok = False
        before = state
        try:
            apply(state, action)
        except IllegalAction:
            assert not validate_ok, action
        else:
            assert validate_ok, f"{action} accepted but not offered"
        assert state == before


def _play(rules: str, options: dict[str, Any], seed: int, streak: int, dealer: int) -> HandState:
    rng = random.Random(seed)
    wall = full_set(rules == "shanghai")
    rng.shuffle(wall)
    state, _ = new_hand(rules, options, wall, dealer, (rng.randint(1, 6), rng.randint(1, 6)),
                        streak=streak, huangfan=rng.random() < 0.3)
    _check_invariants(state)
    steps = 0
    while state.phase is not Phase.ENDED:
        seat = rng.choice(deciding_seats(state))
        legal = legal_actions(state, seat)
        assert legal, (seat, state.phase)
        for offered in legal:  # `apply` trusts an offer: `validate` must accept each one
            validate(state, offered)
        action = _choose(rng, state, legal)
        if rng.random() < 0.1:
            _probe_illegal(rng, state)
        state, _ = apply(state, action)
        _check_invariants(state)
        steps += 1
        assert steps < 1000
    return state


def _choose(rng: random.Random, state: HandState, legal: tuple[Action, ...]) -> Action:
    """Mostly win when possible and discard towards a complete hand, so that random hands
    end in wins often enough to exercise settlements; otherwise anything legal."""
    wins = [a for a in legal if a.kind is ActionKind.WIN]
    if wins and rng.random() < 0.95:
        return wins[0]
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    if len(discards) > 1 and rng.random() < 0.8:
        return min(discards, key=lambda a: (_shanten_after(state, a), rng.random()))
    return rng.choice(legal)


def _shanten_after(state: HandState, action: Action) -> int:
    s = state.seats[action.seat]
    assert action.tile is not None
    return HandAnalysis(s.without(action.tile), s.melds, state.wildcards,
                        state.ruleset.shapes).shanten()


def _check_result(state: HandState) -> None:
    result = state.result
    assert result is not None and sum(result.payments) == 0
    for record in result.wins:
        assert record.settlement.valid, record.settlement.reason
        assert sum(record.settlement.payments) == 0
    if result.drawn and state.rules == "shanghai":
        assert state.wall_remaining == 0
    if result.drawn and state.rules == "hangzhou":
        assert state.wall_remaining <= 20


def _play_all(rules: str) -> None:
    for seed, streak, dealer, options in _hands(rules):
        try:
            _check_result(_play(rules, options, seed, streak, dealer))
        except Exception as exc:
            exc.add_note(f"{rules} hand: seed={seed} streak={streak} dealer={dealer} "
                         f"options={options}")
            raise


def test_random_shanghai_hands() -> None:
    _play_all("shanghai")


def test_random_hangzhou_hands() -> None:
    _play_all("hangzhou")
