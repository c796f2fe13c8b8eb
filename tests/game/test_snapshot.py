"""Snapshots of a hand in play (engine/game/snapshot.py): a restored state is the
replayed one, on thousands of seeded positions; anything else is refused."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from engine import rules as rulesets
from engine.game import Action, HandState, Phase, apply, deciding_seats, legal_actions, new_hand
from engine.game.snapshot import (
    SNAPSHOT_FORMAT,
    TILE_LETTERS,
    SnapshotError,
    covered_fields,
    decode,
    encode,
)
from engine.tiles import Tile, tile_from_notation

SETUPS = [("shanghai", {}), ("hangzhou", {}), ("hangzhou", {"caishen": "flip"})]


def seeded_hand(seed: int, rules: str, options: dict[str, object]
                ) -> Iterator[tuple[HandState, tuple[Tile, ...], list[Action]]]:
    """Every position of one hand played with seeded random legal moves (chi, pong,
    kongs and passes as often as discards), with the wall and the actions so far."""
    rng = random.Random(seed)
    wall = list(rulesets.get(rules).tile_set())
    rng.shuffle(wall)
    dealer, dice = rng.randrange(4), (rng.randint(1, 6), rng.randint(1, 6))
    state, _ = new_hand(rules, options, wall, dealer, dice, streak=1 + seed % 3,
                        huangfan=seed % 2 == 0)
    actions: list[Action] = []
    while state.phase is not Phase.ENDED:
        yield state, tuple(wall), actions
        seat = rng.choice(deciding_seats(state))
        action = rng.choice(legal_actions(state, seat))
        actions.append(action)
        state, _ = apply(state, action)


def restored(text: str, state: HandState) -> HandState:
    return decode(text, state.rules, state.options, state.wall, state.dealer, state.dice,
                  state.streak, state.huangfan)


@pytest.mark.parametrize(("rules", "options"), SETUPS)
def test_a_restored_state_is_the_replayed_one_on_thousands_of_seeded_positions(
        rules: str, options: dict[str, object]) -> None:
    positions = windows = melds = 0
    for seed in range(60):
        last = None
        for state, _wall, _actions in seeded_hand(seed, rules, options):
            again = restored(encode(state), state)
            assert again == state, (seed, state.seq)
            assert encode(again) == encode(state)
            positions += 1
            windows += state.window is not None
            melds += any(s.melds for s in state.seats)
            last = state
        assert last is not None
    # the seeded play reaches the interesting states, not only discards
    assert positions > 2000 and windows > 300 and melds > 300


@pytest.mark.parametrize(("rules", "options"), SETUPS)
def test_play_goes_on_from_a_restored_state_exactly_as_from_the_replayed_one(
        rules: str, options: dict[str, object]) -> None:
    for seed in range(100, 130):
        positions = list(seeded_hand(seed, rules, options))
        middle, _wall, _ = positions[len(positions) // 2]
        _, _, actions = positions[-1]
        state = restored(encode(middle), middle)
        direct = middle
        for action in actions[middle.seq:]:
            state, events = apply(state, action)
            direct, direct_events = apply(direct, action)
            assert (state, events) == (direct, direct_events)
        assert state.seq == len(actions)


def test_the_encoding_covers_every_field_of_the_records_it_encodes() -> None:
    for record, (names, covered) in covered_fields().items():
        assert names == covered, record


def first_position_with(pred: Callable[[HandState], object]) -> HandState:
    for seed in range(50):
        for state, _, _ in seeded_hand(seed, "shanghai", {}):
            if pred(state):
                return state
    raise AssertionError("no such position")


class Fields:
    """A snapshot's text taken apart for a test to change: the top fields, each seat's
    fields and the window's (see engine/game/snapshot.py)."""

    def __init__(self, text: str) -> None:
        top = text.split("|")
        self.top = top[:13]
        self.seats = [seat.split(",") for seat in top[13:]]
        self.window = top[12].split(",") if top[12] else []

    def text(self) -> str:
        top = [*self.top[:12], ",".join(self.window), *self.top[13:]]
        return "|".join([*top, *(",".join(seat) for seat in self.seats)])


def tamper(text: str, change: Callable[[Fields], object]) -> str:
    data = Fields(text)
    change(data)
    return data.text()


def letter(notation: str) -> str:
    return TILE_LETTERS[tile_from_notation(notation)]


def never_drawn(d: Fields) -> None:
    hand = d.seats[0][0]
    extra = letter("1m") if hand[0] != letter("1m") else letter("2m")
    d.seats[0][0] = "".join(sorted(hand[1:] + extra))  # in order: the tiles are wrong


def top(index: int, value: str) -> Callable[[Fields], object]:
    return lambda d: d.top.__setitem__(index, value)


TAMPERING: dict[str, Callable[[Fields], object]] = {
    "format": top(0, str(SNAPSHOT_FORMAT + 1)),
    "a tile that was never drawn": never_drawn,
    "a tile lost": lambda d: d.seats[1].__setitem__(0, d.seats[1][0][1:]),
    "front moved": lambda d: d.top.__setitem__(2, str(int(d.top[2]) + 1)),
    "a seat missing": lambda d: d.seats.pop(),
    "a seat field missing": lambda d: d.seats[3].pop(),
    "a bad tile": lambda d: d.seats[2].__setitem__(4, "z"),
    "a bad phase": top(6, "s"),
    "ended": top(6, "e"),
    "a seat out of range": top(7, "4"),
    "a signed number": top(2, "+5"),
    "a number with a leading zero": lambda d: d.top.__setitem__(1, "0" + d.top[1]),
    "a number in other digits": top(3, "\u0661"),
    "a bad flag": top(9, "2"),
    "three claim rows": lambda d: d.top.__setitem__(11, ".".join(["0"] * 12)),
    "a bad action": lambda d: d.window.__setitem__(5, d.window[5] + ":f1-"),
    "a discard without its tile": lambda d: d.window.__setitem__(5, "d1-"),
    "a window field missing": lambda d: d.window.pop(),
    "a claimed discard out of range": lambda d: d.seats[0].__setitem__(3, "99:1"),
    "a short meld": lambda d: d.seats[0].__setitem__(1, "p1A"),
    "a drawn tile not held": lambda d: d.seats[int(d.top[7])].__setitem__(5, letter("7z")),
}


@pytest.mark.parametrize("what", sorted(TAMPERING))
def test_a_tampered_snapshot_is_refused(what: str) -> None:
    state = first_position_with(lambda s: s.window is not None and s.seq > 8)
    if what == "a drawn tile not held":
        state = first_position_with(lambda s: s.phase is Phase.TURN and s.seq > 8
                                    and Tile.RED not in s.seats[s.turn].hand)
    text = tamper(encode(state), TAMPERING[what])
    assert text != encode(state)
    with pytest.raises(SnapshotError):
        restored(text, state)


def test_the_tampering_helper_changes_nothing_by_itself() -> None:
    state = first_position_with(lambda s: s.window is not None and s.seq > 8)
    assert tamper(encode(state), lambda d: None) == encode(state)
    assert restored(tamper(encode(state), lambda d: None), state) == state


FORMAT_1 = ('{"format":1,"seq":1,"front":53,"back":0,"flipped":null,"set_aside":"",'
            '"phase":"turn","turn":1,"window":null,"replacement":null,'
            '"first_go_round":true,"claims":[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],'
            '"zhua_da":null,"seats":[]}')
"""The start of a format 1 text (JSON, sessions 5-8): what a store may still hold."""


def test_a_format_1_snapshot_is_refused_as_such() -> None:
    state = first_position_with(lambda s: s.seq > 3)
    with pytest.raises(SnapshotError, match="format 1"):
        restored(FORMAT_1, state)


@pytest.mark.parametrize("text", ["", "nonsense", "[]", "null", '{"format": 1}', "{}", "2",
                                  "2|" * 16 + "2", "2|" * 20])
def test_text_that_is_no_snapshot_is_refused(text: str) -> None:
    state = first_position_with(lambda s: s.seq > 3)
    with pytest.raises(SnapshotError):
        restored(text, state)


def test_a_snapshot_of_another_hand_is_refused() -> None:
    state = first_position_with(lambda s: s.seq > 10)
    other = first_position_with(lambda s: s.seq > 10 and s.wall != state.wall)
    with pytest.raises(SnapshotError):
        restored(encode(state), other)


def test_an_ended_hand_is_not_snapshotted() -> None:
    *_, (last, _, actions) = seeded_hand(7, "shanghai", {})
    for action in legal_actions(last, deciding_seats(last)[0]):
        after, _ = apply(last, action)
        if after.phase is Phase.ENDED:
            with pytest.raises(SnapshotError):
                encode(after)
            return
    raise AssertionError(f"the last position did not end the hand ({len(actions)} actions)")


def test_a_hand_out_of_tile_order_is_refused_with_what_is_wrong() -> None:
    # The engine keeps a hand sorted (`SeatState.with_tile` inserts a drawn tile in
    # order): a stored text with the same tiles in another order would decode to a
    # state that plays wrongly (a claim or a kong read off the wrong tiles), so it is
    # refused with the reason; the same tiles in order decode.
    state = first_position_with(lambda s: s.phase is Phase.TURN and s.seq > 8)
    text = encode(state)
    seat = (state.turn + 1) % 4
    hand = state.seats[seat].hand
    assert len(set(hand)) > 1

    def reversed_hand(d: Fields) -> None:
        d.seats[seat][0] = d.seats[seat][0][::-1]

    with pytest.raises(SnapshotError, match="not in tile order"):
        restored(tamper(text, reversed_hand), state)
    assert restored(text, state) == state


def test_a_states_text_is_spelled_once_and_is_that_of_an_equal_state() -> None:
    """`encode` remembers its text with the state (the bot writes it with the move and
    sends it again with each seat's DM): asked again, the same text without spelling
    it; an equal state read back from it spells the very same text anew."""
    from engine.game import snapshot

    for state, wall, _ in list(seeded_hand(7, "shanghai", {}))[::5]:
        text = encode(state)
        assert encode(state) is text
        again = decode(text, state.rules, state.options, wall, state.dealer, state.dice,
                       state.streak, state.huangfan)
        assert again is not state and again.remembered_answer(snapshot._ENCODED) is None
        assert encode(again) == text == snapshot._encode(state)
