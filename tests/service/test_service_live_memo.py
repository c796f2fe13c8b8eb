"""What `LiveTable` and `options_of` remember between calls is exactly what working it
out again gives: the seats as notices show them follow every seat change, and a
table's options are its own."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from bot.service.live import LiveTable, empty_seats, options_of, step_of, steps_of
from bot.service.notices import SeatInfo, names_of
from bot.store import SeatRow, StandingChoices, TableRow
from engine import rules as rulesets
from engine.game import Phase, apply, deciding_seats, legal_actions, new_hand
from engine.rules.common import OptionError


def _table(rules: str = "shanghai", options: Mapping[str, object] | None = None) -> TableRow:
    return TableRow(1, 2, 3, 4, rules, dict(options or {}), "lobby", 0.0, None, None, None,
                    False)


def _seat(seat: int, name: str, **changes: Any) -> SeatRow:
    row = SeatRow(1, seat, 100 + seat, False, name, False, 0, StandingChoices(), False, 0.0)
    return replace(row, **changes)


def _worked_out(live: LiveTable) -> tuple[SeatInfo | None, ...]:
    return tuple(None if s is None else SeatInfo(
        s.seat, s.user_id, s.display_name, s.is_computer, s.away, s.consecutive_timeouts,
        s.choices) for s in live.seats)


def test_seat_infos_follow_every_change_of_a_seat() -> None:
    live = LiveTable(_table(), empty_seats())
    steps: list[Callable[[], object]] = [
        lambda: live.set_seat(_seat(0, "Ann")),
        lambda: live.set_seat(_seat(2, "Bo")),
        lambda: live.set_seat(_seat(2, "Bo", away=True)),
        lambda: live.set_seat(_seat(2, "Bo", consecutive_timeouts=2)),
        lambda: live.seats.__setitem__(0, None),  # as `leave` does in the lobby
        lambda: live.set_seat(_seat(1, "电脑 2", is_computer=True, user_id=None)),
        lambda: live.reset(_table(), [_seat(s, f"P{s}") for s in range(4)]),
        lambda: live.set_seat(_seat(3, "P3", choices=StandingChoices(always_win=True))),
    ]
    for step in steps:
        before = live.seat_infos
        assert live.seat_infos is before  # asked again, nothing changed: the same
        step()
        assert live.seat_infos == _worked_out(live)
        assert live.names == names_of(_worked_out(live))


def test_options_are_each_tables_own() -> None:
    for rules in rulesets.RULESETS:
        for data in ({}, {"hands": 4}, {"hands": 8, "turn_timer": 60}):
            got = options_of(_table(rules, data))
            assert got == rulesets.get(rules).options(data)
            assert options_of(_table(rules, data)) == got


def test_a_bad_stored_option_is_refused_every_time() -> None:
    good = options_of(_table("shanghai", {"hands": 4}))
    assert good.hands == 4
    for bad in ({"hands": "4"}, {"no_such_option": 1}, {"hands": [4]}):
        for _ in range(2):
            with pytest.raises(OptionError):
                options_of(_table("shanghai", bad))


def test_steps_of_every_seat_are_each_seats_step() -> None:
    """`steps_of` (a move's notices) against `step_of` seat by seat, on every state of
    300 seeded hands of random legal moves (claim windows, claims, kongs, the
    end)."""
    seen = 0
    for rules in rulesets.RULESETS:
        rng = random.Random(f"steps-{rules}")
        for _ in range(150):
            wall = rulesets.get(rules).tile_set()
            rng.shuffle(wall)
            state, _ = new_hand(rules, {}, wall, rng.randrange(4), (3, 4))
            while True:
                assert steps_of(state) == tuple(step_of(state, s) for s in range(4))
                seen += 1
                if state.phase is Phase.ENDED:
                    break
                seat = deciding_seats(state)[0]
                state, _ = apply(state, rng.choice(legal_actions(state, seat)))
    assert seen > 5_000


def test_the_ref_follows_the_row() -> None:
    live = LiveTable(_table(), empty_seats())
    ref = live.ref
    assert live.ref is ref and (ref.table_id, ref.guild_id, ref.channel_id) == (1, 2, 3)
    live.row = replace(live.row, creator_id=9)
    assert live.ref.creator_id == 9
