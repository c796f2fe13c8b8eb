"""A hand's log as the facts read it: `fact_sources`' text form (``WIDTH`` characters
an action: seat, source, move-time bucket, kind's letter, last digit of seq; built by
SQL for hands whose rows stayed, or from an ended hand's compact log by `compact_log`)
and what is read from it without replaying the hand (`read_log`: each seat's counted
actions, the hand's end, the claims that took their tile). Pure text, no SQL."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from bot.store.compact import ALPHABET, KINDS, TILES, WHO
from bot.store.rows import SeatActs, TailAction, TakenClaim

SEATS = 4

KIND_LETTERS = {"discard": "d", "chi": "c", "pong": "p", "kong": "k", "added_kong": "a",
          "concealed_kong": "n", "win": "w", "pass": "s"}
"""Each action kind's letter in a hand's log (`_log_sql`)."""
KIND_OF = {letter: kind for kind, letter in KIND_LETTERS.items()}
WIDTH = 5
"""Characters an action takes in a hand's log."""
_CLAIM = re.compile("[cpk]")
_ANSWERS = frozenset("cpks")
"""What a claim window's answers are (a claim or a pass); anything else follows it."""
_DIGITS = "0123456789" * 2


def in_order(log: str, first: int, last: int, count: int) -> bool:
    """The log's actions are seqs ``first``, ``first + 1``, … ``last`` in that order."""
    start = first % 10
    return last - first + 1 == count and len(log) == WIDTH * count and (
        log[WIDTH - 1::WIDTH] == _DIGITS[start:start + count] if count <= 10
        else log[WIDTH - 1::WIDTH] == (_DIGITS[start:start + 10] * (count // 10 + 1))[:count])


def _counted(log: str, seat: int, buckets: int, present: Sequence[int]) -> SeatActs:
    """One seat's counted actions in (a prefix of) a hand's log: each a count of a
    three-character key (seat, source, bucket), which only an action's first three
    characters can spell (a source is upper case; what precedes and follows it not)."""
    keys = _KEYS[seat]
    hist = [0] * buckets
    for bucket in present:
        hist[bucket] = log.count(keys[bucket])
    return SeatActs(seat, sum(hist), tuple(hist), log.count(_TIMEOUT[seat]),
                    _COMPUTER[seat] in log)


_KEYS = tuple(tuple(f"{seat}P{bucket:x}" for bucket in range(16)) for seat in range(SEATS))
_TIMEOUT = tuple(f"{seat}T0" for seat in range(SEATS))
_COMPUTER = tuple(f"{seat}C0" for seat in range(SEATS))


def read_log(log: str, seqs: Sequence[int], left: Sequence[int | None], buckets: int
              ) -> tuple[tuple[SeatActs, ...], tuple[TailAction, ...], tuple[TakenClaim, ...]]:
    """A hand's log (`_log_sql`, in seq order; ``seqs`` its actions' seqs) read: each
    seat's counted actions (up to its departure's seq when ``left`` has one), the end
    (from the last turn action on, passes left out) and the claims that took their
    tile. A claim took it when the next turn (or win) is its own seat's: the window's
    other answers come between; it was on the last discard before it. A kong the log
    ends with took it too (the hand was drawn on its replacement draw)."""
    present = [int(bucket, 16) for bucket in set(log[2::WIDTH])]
    acts = tuple(_counted(log if limit is None  # else its actions up to its departure
                          else log[:WIDTH * bisect.bisect_right(seqs, limit)],
                          seat, buckets, present)
                 for seat, limit in enumerate(left))
    kinds, seats = log[3::WIDTH], log[0::WIDTH]
    claims = []
    end = len(kinds)
    for found in _CLAIM.finditer(kinds):
        at = found.start()
        discard = kinds.rfind("d", 0, at)
        if discard < 0:
            continue
        after = at + 1  # the window's other answers (claims, passes) are few
        while after < end and kinds[after] in _ANSWERS:
            after += 1
        # at the log's end only a kong took its tile: its replacement draw found the
        # wall empty (a chi or pong is always followed by its seat's discard)
        if (seats[after] == seats[at]) if after < end else kinds[at] == "k":
            claims.append(TakenClaim(seqs[at], int(seats[at]), int(seats[discard])))
    last_turn = max(kinds.rfind("d"), kinds.rfind("a"), kinds.rfind("n"), 0)
    tail = tuple(TailAction(seqs[i], int(seats[i]), KIND_OF.get(kinds[i], kinds[i]))
                 for i in range(last_turn, len(kinds)) if kinds[i] != "s")
    return acts, tail, tuple(claims)


def _pieces() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """Each compact token's first two characters (who: seat and source; the kind's
    letter) as the action's text in `_log_sql`'s form (its seq's digit left 0: a compact
    log's seqs are 1, 2, … by position): whole for a timeout's or the computer's, by
    bucket for a person's own move."""
    others, own = {}, {}
    for i, who in enumerate(WHO):
        seat, source = i % SEATS, "PTC"[i // SEATS]
        for letter in KINDS.values():
            if source == "P":
                own[who + letter] = tuple(f"{seat}P{bucket:x}{letter}0" for bucket in range(16))
            else:
                mark = "X" if source == "C" and letter in "sw" else source
                others[who + letter] = f"{seat}{mark}0{letter}0"
    return others, own


_OTHERS, _OWN = _pieces()
_TILE_DIGITS = {KINDS[kind]: count for kind, count in TILES.items()}
_TOOK_AT = {letter: 2 if count == 0 else 4 for letter, count in _TILE_DIGITS.items()
            if count <= 1}
"""Where a token's took starts after a payload of at most one tile (a digit and its
suit); kinds with more tiles are counted digit by digit."""
_VALUE = {c: i for i, c in enumerate(ALPHABET)}


def compact_log(text: str, highs: Sequence[float]) -> tuple[str, range]:
    """A hand's compact log (`bot.store.compact`: an ended hand's, seqs 1, 2, …) as
    `_log_sql`'s text, read token by token without decoding it: who and kind by table;
    a person's own move's bucket from its ``took`` (milliseconds from the action before,
    after the payload's tiles; ``highs``: each bucket's upper bound in milliseconds,
    the last open)."""
    parts = []
    # a time of two digits is under 64² ms: in the first bucket when it goes that far
    short = 2 if highs and highs[0] >= 64 * 64 else 0
    others, own, took_at, values = _OTHERS, _OWN, _TOOK_AT, _VALUE
    tokens = text.split(",")
    for token in tokens:
        pair = token[:2]
        piece = others.get(pair)
        if piece is not None:
            parts.append(piece)
            continue
        end = took_at.get(token[1])
        if end is None:  # two tiles or more
            wanted, end = _TILE_DIGITS[token[1]], 2
            while wanted:
                if token[end].isdigit():
                    wanted -= 1
                end += 1
            end += 1  # the last group's suit
        took = token[end:]
        if "~" in took:
            took = took[:took.index("~")]
        bucket = 0
        if len(took) > short and took[0] != "-":  # else in the first bucket
            value = 0
            for c in took:
                value = value * 64 + values[c]
            bucket = bisect.bisect_left(highs, value)
        parts.append(own[pair][bucket])
    return "".join(parts), range(1, len(tokens) + 1)
