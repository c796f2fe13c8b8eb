"""A fingerprint of seeded self-play: every legal-action list, every computer move, every
event, the final state and its settlement, and (for some hands) every view, folded into
one SHA-256. A faster engine must reproduce the fingerprint recorded before it.

    python -m tests.play.sameness     # prints the fingerprints of the recorded runs

The encoding is canonical (sets sorted, enums by name, dataclasses field by field), so
it does not depend on the process's hash seed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from enum import Enum
from fractions import Fraction
from typing import Any

from engine import rules
from engine.ai import choose_action
from engine.game import apply, deciding_seats, legal_actions, new_hand
from engine.game.state import HandState, Phase
from engine.view import spectator_view, view

RUNS: dict[str, tuple[str, dict[str, Any], int, int, int]] = {
    # name: (rules, options, seed, hands, every how many hands the views are included)
    "shanghai": ("shanghai", {}, 101, 1000, 40),
    "hangzhou_fixed": ("hangzhou", {}, 202, 1000, 40),
    "hangzhou_flip": ("hangzhou", {"caishen": "flip"}, 303, 400, 40),
}


def canon(value: Any) -> Any:
    """A value with the same content in a form whose repr is stable."""
    kind = _KINDS.get(type(value))
    if kind is None:
        kind = _kind(type(value))
    if kind is _PLAIN:
        return value
    if kind is _TUPLE:
        return tuple([canon(v) for v in value])
    if type(kind) is dict:  # an enum: its members' names, as they are met
        name = kind.get(value)
        if name is None:
            name = kind[value] = f"{type(value).__name__}.{value.name}"
        return name
    if kind is _FRACTION:
        return f"{value.numerator}/{value.denominator}"
    if kind is _SET:
        return ("set", tuple(sorted([repr(canon(v)) for v in value])))
    if kind is _DICT:
        return ("dict", tuple(sorted([(repr(canon(k)), canon(v)) for k, v in value.items()])))
    return (type(value).__name__, tuple([(name, canon(getattr(value, name))) for name in kind]))


_PLAIN, _TUPLE, _FRACTION, _SET, _DICT = ("plain",), ("tuple",), ("fraction",), ("set",), \
    ("dict",)
_WORDS = frozenset({"value_zh"})
"""Fields that are words for a reader, not play, left out of the fold: a pattern's
Chinese value words (issue 29: a rule set brings its own, `Pattern.value_zh`, where the
adapter used to make them by word replacement) were added after the fingerprints were
recorded, and the runs fold into the recorded fingerprints without them."""
_CLOCK = frozenset({"vacation_days", "time_bank", "time_bank_add"})
"""Table options that are the service's clock, not play (issue 30: how many days of
leave a table honours, each seat's time bank), added after the fingerprints were
recorded: a state's options fold into the recorded fingerprints without them."""
_KINDS: dict[type, Any] = {}
"""How `canon` treats each type it met (the fingerprints fold millions of values, so it
is worked out once a type): one of the markers above, a dataclass's field names, or for
an enum a dict of its members' names."""


def _kind(cls: type) -> Any:
    """What `canon` does with a value of ``cls``, tried in this order: an enum (an
    IntEnum too) by its name, a fraction as text, a dataclass field by field, sets and
    dicts sorted, lists and tuples item by item, anything else as it is (a class too)."""
    kind: Any
    if issubclass(cls, Enum):
        kind = {}
    elif issubclass(cls, Fraction):
        kind = _FRACTION
    elif dataclasses.is_dataclass(cls) and not issubclass(cls, type):
        kind = tuple(f.name for f in dataclasses.fields(cls)
                     if f.name not in _WORDS and f.name not in _CLOCK)
    elif issubclass(cls, (set, frozenset)):
        kind = _SET
    elif issubclass(cls, dict):
        kind = _DICT
    elif issubclass(cls, (list, tuple)):
        kind = _TUPLE
    else:
        kind = _PLAIN
    _KINDS[cls] = kind
    return kind


def fingerprint(rules_name: str, options: dict[str, Any], seed: int, hands: int,
                view_every: int) -> str:
    digest = hashlib.sha256()

    def feed(value: Any) -> None:
        digest.update(repr(canon(value)).encode())

    rng = random.Random(seed)
    ruleset = rules.get(rules_name)
    for number in range(hands):
        wall = ruleset.tile_set()
        rng.shuffle(wall)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        state, events = new_hand(rules_name, options, tuple(wall), rng.randrange(4), dice,
                                 streak=1 + number % 3, huangfan=number % 5 == 0)
        feed(events)
        with_views = number % view_every == 0
        while state.phase is not Phase.ENDED:
            if with_views:
                _feed_views(feed, state)
            seat = deciding_seats(state)[0]
            feed(legal_actions(state, seat))
            action = choose_action(state, seat, rng)
            feed(action)
            state, events = apply(state, action)
            feed(events)
        if with_views:
            _feed_views(feed, state)
        feed(state)
    return digest.hexdigest()


def _feed_views(feed: Any, state: HandState) -> None:
    feed(spectator_view(state))
    for seat in range(len(state.seats)):
        feed(view(state, seat))


if __name__ == "__main__":
    for name, run in RUNS.items():
        print(f"{name} {fingerprint(*run)}")
