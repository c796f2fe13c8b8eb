"""Which claims took their tile, read from a hand's log (`fact_log.read_log`):
the claim whose seat plays next, and at the log's very end the kong whose replacement
draw found the wall empty (the hand is drawn with that kong on the table)."""

from __future__ import annotations

from bot.store.fact_log import read_log
from bot.store.rows import TakenClaim


def _log(*actions: tuple[int, str]) -> tuple[str, list[int]]:
    """A log of (seat, kind letter) actions as `_log_sql` spells it (a person's own
    moves, all in the first bucket), with seqs 1, 2, …"""
    seqs = list(range(1, len(actions) + 1))
    text = "".join(f"{seat}P0{kind}{seq % 10}"
                   for (seat, kind), seq in zip(actions, seqs, strict=True))
    return text, seqs


def _claims(*actions: tuple[int, str]) -> tuple[TakenClaim, ...]:
    log, seqs = _log(*actions)
    return read_log(log, seqs, (None,) * 4, 1)[2]


def test_a_claim_took_the_tile_when_its_seat_plays_next() -> None:
    assert _claims((0, "d"), (2, "s"), (1, "p"), (1, "d")) == (TakenClaim(3, 1, 0),)


def test_of_two_claims_only_the_one_whose_seat_plays_next_took_it() -> None:
    assert _claims((0, "d"), (1, "c"), (2, "p"), (2, "d")) == (TakenClaim(3, 2, 0),)


def test_a_kong_claimed_last_took_its_tile_though_the_hand_was_drawn_after_it() -> None:
    # seat 3 claims the 4th tile, its replacement draw finds the wall empty: no action
    # follows, yet the kong is laid (the engine counts it among seat 3's claims)
    assert _claims((0, "d"), (1, "d"), (3, "k")) == (TakenClaim(3, 3, 1),)
    assert _claims((0, "d"), (1, "d"), (2, "s"), (3, "k"), (0, "s")) == (TakenClaim(4, 3, 1),)


def test_a_pass_last_takes_nothing() -> None:
    assert _claims((0, "d"), (1, "d"), (2, "s")) == ()
