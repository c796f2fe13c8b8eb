"""The projection of settled hands and finished matches (``hand_facts``,
``match_facts``): what stats, ratings, boards and recaps read instead of the logs.

Every row is derived from stored rows (`bot.store.fact_sources` reads them in SQL:
the hand, its settlements, its seats and departures, its actions counted by window
functions) by the pure functions here — never by replaying a hand, so a rebuild of
100,000 hands takes seconds. The same derivation runs at each settlement (in its
transaction: `FACTS`, handed to `Endings`) and in a rebuild (`rebuild_facts`), which
start-up runs once whenever the stored ``STATS_FORMULA`` differs from this one.

Who is credited: the person seated (``user_id``; None is a computer). A person who
left mid-match is credited with the hand they left — its points, and what their seat
did up to ``departures.seq`` (their moves, timeouts, claims, a win or a deal-in made
before they left) — and with the match's placement; the hands after are the
computer's.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import math
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from bot.store import HandFact, MatchFact, Store
from bot.store.rows import HandSource, MatchSource, TailAction
from engine import rules as rulesets
from engine.rules.common import SEATS, OptionError, TableOptions
from engine.rules.ruleset import StatHand

log = logging.getLogger(__name__)

STATS_FORMULA = "facts-3"
"""The derivation's version: kept in bot_settings with the projection; a different
stored value makes start-up rebuild every row (once, even with several processes).
Change it with any change to what a row holds (facts-3: a kong the log ends with, its
replacement draw finding the wall empty, counts as a claim)."""

MOVE_BUCKETS: tuple[float, ...] = (60, 300, 900, 1800, 3600, 7200, 14400, 28800, 57600,
                                   86400, math.inf)
"""A move's time (its action's ``at`` minus the previous action's, or the hand's start
for the first) is counted in the first bucket whose upper bound (seconds) it does not
pass; the last is open. ``move_hist`` holds one count per bucket."""

_TURN = ("discard", "added_kong", "concealed_kong")
_DEALT_IN = ("discard", "added_kong")
"""What a win on another's tile is made on: a discard, or an added kong robbed."""


def median(hist: Sequence[int], buckets: Sequence[float] = MOVE_BUCKETS) -> float | None:
    """The median move time (seconds) of a histogram counted in ``buckets``: the bucket
    holding the middle move, linearly interpolated inside it (the open last bucket
    gives its lower bound). None without a move."""
    total = sum(hist)
    if total <= 0:
        return None
    middle = total / 2
    below = 0
    low = 0.0
    for count, high in zip(hist, buckets, strict=False):
        if count and below + count >= middle:
            if math.isinf(high):
                return low
            return low + (float(high) - low) * (middle - below) / count
        below += count
        low = float(high)
    return low


def add_hists(hists: Sequence[Sequence[int]]) -> list[int]:
    """Histograms summed bucket by bucket (a person's moves over many hands)."""
    out = [0] * len(MOVE_BUCKETS)
    for hist in hists:
        for i, count in enumerate(hist):
            out[i] += count
    return out


@lru_cache(maxsize=256)
def _options(rules: str, text: str) -> TableOptions:
    """A table's options as its rule set reads them (defaults if they no longer parse)."""
    ruleset = rulesets.get(rules)
    try:
        return ruleset.options(json.loads(text))
    except (OptionError, ValueError, TypeError):
        return ruleset.options_type()


_last_options: list[tuple[str, Mapping[str, object], TableOptions]] = []


def _table_options(source: HandSource) -> TableOptions:
    """The hand's table's options; the last one's again when the hand holds the very same
    mapping (a rebuild's batch gives each table's hands one: `fact_sources._parsed`),
    without writing them out to look them up."""
    if _last_options and _last_options[0][1] is source.options \
            and _last_options[0][0] == source.rules:
        return _last_options[0][2]
    options = _options(source.rules, json.dumps(dict(source.options), sort_keys=True))
    _last_options[:] = [(source.rules, source.options, options)]
    return options


@dataclass(frozen=True)
class _End:
    """How a hand ended, read from its tail: each winner's win (the seq of its win
    action, or None: 八花 without one) and the seat dealt in (None: self-drawn)."""

    wins: Mapping[int, int | None]
    from_seat: int | None
    from_seq: int | None


def _end(source: HandSource, winners: Sequence[int]) -> _End:
    tail = source.tail
    turn: TailAction | None = tail[0] if tail and tail[0].kind in _TURN else None
    settled = {s.seat: s for s in source.settlements}
    paid = [s.seat for s in source.settlements if s.amount < 0]
    wins: dict[int, int | None] = {}
    from_seat = from_seq = None
    for w in winners:
        mine = [a for a in tail if a.seat == w]
        action = next((a for a in reversed(mine) if a.kind == "win"), None)
        wins[w] = None if action is None else action.seq
        if settled[w].win is not None:  # kept with the settlement (0029)
            if settled[w].from_seat is not None:
                from_seat = settled[w].from_seat
                from_seq = turn.seq if turn is not None and turn.seat == from_seat else None
            continue
        # settled before 0029: read from the log — on another's discard (or robbed
        # kong) only if the winner did nothing between (a kong it claimed there makes
        # its win a self-draw, 杠开) ...
        if action is None or turn is None or turn.kind not in _DEALT_IN or turn.seat == w \
                or any(a.seq != action.seq for a in mine if a.seq > turn.seq):
            continue
        # ... and the next seat may have drawn and won after the window closed (a draw
        # is not an action): a discard win when the discarder paid and not all three
        if w == (turn.seat + 1) % SEATS and (turn.seat not in paid or len(paid) >= 3):
            continue
        from_seat, from_seq = turn.seat, turn.seq
    return _End(wins, from_seat, from_seq)


def hand_facts(source: HandSource) -> list[HandFact]:
    """Each seat's row of a settled hand (`HandFact`), from its sources alone."""
    ruleset = rulesets.get(source.rules)
    options = _table_options(source)
    settled = {s.seat: s for s in source.settlements}
    values = tuple(settled[s].value if s in settled else 0 for s in range(SEATS))
    patterns = tuple(tuple(map(str, settled[s].patterns)) if s in settled else ()
                     for s in range(SEATS))
    winners = [s for s in range(SEATS) if values[s] > 0]
    # the 财神 each winner held, kept with the settlement (0030; None before it)
    held = tuple(settled[s].caishen if s in settled else None for s in range(SEATS))
    end = _end(source, winners)

    def theirs(seat: int, seq: int | None) -> bool:
        """An action of ``seat`` (None: at the hand's end) was its credited one's."""
        left = source.left[seat]
        return left is None or (seq is not None and seq <= left)

    claims = [[0] * SEATS for _ in range(SEATS)]
    credited = [[0] * SEATS for _ in range(SEATS)]
    for c in source.claims:
        claims[c.seat][c.from_seat] += 1
        if theirs(c.seat, c.seq):
            credited[c.seat][c.from_seat] += 1
    won = {w for w in winners if theirs(w, end.wins[w])}
    hand = StatHand(values, patterns, end.from_seat, tuple(map(tuple, claims)),
                    source.huangfan, options, held)
    marks = ruleset.stat_marks(hand)
    if any(left is not None for left in source.left):  # a person left during it
        mine = StatHand(tuple(v if s in won or s not in winners else 0
                              for s, v in enumerate(values)),
                        patterns, end.from_seat, tuple(map(tuple, credited)),
                        source.huangfan, options, held)
        theirs_marks = ruleset.stat_marks(mine)
        marks = tuple(theirs_marks[s] if source.left[s] is not None else marks[s]
                      for s in range(SEATS))
    out = []
    for seat in range(SEATS):
        s = settled.get(seat)
        amount = s.amount if s is not None else Fraction(0)
        is_winner = seat in won
        dealt_in = end.from_seat == seat and theirs(seat, end.from_seq)
        acts = source.acts[seat]
        out.append(HandFact(
            source.hand_id, seat, source.match_id, source.table_id, source.guild_id,
            source.channel_id, source.rules, source.number, source.users[seat],
            source.ended_at, amount, won=is_winner,
            self_draw=is_winner and end.from_seat is None,
            won_from=end.from_seat if is_winner else None, dealt_in=dealt_in,
            deal_in_cost=-amount if dealt_in and amount < 0 else Fraction(0),
            win_value=values[seat] if is_winner else None,
            patterns=patterns[seat] if is_winner else (),
            claims=sum(credited[seat]), drawn=not winners,
            marks={k: v for k, v in marks[seat].items() if v},
            moves=acts.moves, move_hist=_hist(acts.move_hist), timeouts=acts.timeouts,
            taken_over=acts.taken_over and source.users[seat] is not None,
            dealer=seat == source.dealer))
    return out


def _hist(hist: Sequence[int]) -> tuple[int, ...]:
    """A full-length histogram (a seat without actions has none counted)."""
    return tuple(hist) if len(hist) == len(MOVE_BUCKETS) else (0,) * len(MOVE_BUCKETS)


def placements(totals: Mapping[int, Fraction]) -> dict[int, int]:
    """Each seat's place by final total, ties sharing the better place (1, 2, 2, 4)."""
    return {seat: 1 + sum(1 for other in totals.values() if other > total)
            for seat, total in totals.items()}


def match_facts(source: MatchSource) -> list[MatchFact]:
    """Each seat's row of a finished match (`MatchFact`)."""
    totals = {seat: source.totals.get(seat, Fraction(0)) for seat in range(SEATS)}
    places = placements(totals)
    computers = sum(1 for user in source.users if user is None)
    return [MatchFact(source.match_id, seat, source.table_id, source.guild_id,
                      source.channel_id, source.rules, source.users[seat],
                      source.finished_at, places[seat], totals[seat], source.hands[seat],
                      computers)
            for seat in range(SEATS)]


class _Facts:
    """The derivation as the store takes it (`bot.store.fact_sources.Derive`)."""

    buckets: Sequence[float] = MOVE_BUCKETS

    def hands(self, sources: Sequence[HandSource]) -> list[HandFact]:
        return [f for source in sources for f in hand_facts(source)]

    def matches(self, sources: Sequence[MatchSource]) -> list[MatchFact]:
        return [f for source in sources for f in match_facts(source)]


FACTS = _Facts()
"""What `Endings` derives a settlement's facts with, and the rebuild too."""


_paused = 0
_was_enabled = False


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off during one batch of a rebuild (back on as
    it was after it, whatever other batches overlap): a batch makes hundreds of
    thousands of short-lived objects, each few hundred of which started a collection,
    and the oldest generation's walked the whole process's heap again and again — a
    running bot's every table (a rebuild in a process holding 580,000 objects spent 7.5
    of its 22 s in the collector). The batch's own objects are freed by their counts;
    none of its work makes cycles."""
    global _paused, _was_enabled
    if _paused == 0:
        _was_enabled = gc.isenabled()
        gc.disable()
    _paused += 1
    try:
        yield
    finally:
        _paused -= 1
        if _paused == 0 and _was_enabled:
            gc.enable()


@dataclass(frozen=True)
class FactsRebuilt:
    """A rebuild's outcome: the settled hands derived and how
    long it took; ``done`` False when another process holds it (it finishes it)."""

    hands: int
    seconds: float
    done: bool


async def rebuild_facts(store: Store, now: Callable[[], float], *, force: bool = False,
                        size: int = 2000, hold: float = 60.0, poll: float = 2.0,
                        wait: bool = True, pause: float = 0.0) -> FactsRebuilt:
    """Rebuild the projection from the logs, all settled hands in order, batch by batch
    (each batch, its progress and the claim held on in one transaction): a process
    killed midway leaves the batches it committed, and the next to start (once its
    claim ran out, ``hold`` seconds) goes on from there. Without ``force`` nothing is
    done when the stored formula is this one. With several processes one rebuilds;
    the others wait for it (``wait``) polling every ``poll`` seconds, or return at once.
    ``pause``: seconds between two batches (moves go on between them anyway)."""
    by = secrets.token_hex(8)
    start = now()
    looked = 0
    while True:
        claim = await store.facts.claim_rebuild(STATS_FORMULA, by, at=now(), hold=hold,
                                                force=force)
        if claim is not None:
            break
        if not force and await store.facts.formula() == STATS_FORMULA:
            return FactsRebuilt(0, now() - start, True)
        if not wait:
            return FactsRebuilt(0, now() - start, False)
        await asyncio.sleep(poll)
    if claim.after == 0:
        log.info("rebuilding the stats' facts (formula %s)", STATS_FORMULA)
    else:
        log.info("rebuilding the stats' facts from hand %s on (formula %s)", claim.after,
                 STATS_FORMULA)
    while True:
        with _collector_paused():
            held, count, more = await store.facts.rebuild_batch(claim, FACTS, size=size,
                                                                at=now(), hold=hold)
        if held is None:  # taken over (this process was too slow): the other finishes
            return FactsRebuilt(looked, now() - start, False)
        claim = held
        looked += count
        if not more:
            break
        await asyncio.sleep(pause)  # moves go on between batches
    done = await store.facts.finish_rebuild(claim, at=now())
    seconds = now() - start
    log.info("rebuilt the stats' facts: %s hands in %.1f s", looked, seconds)
    return FactsRebuilt(looked, seconds, done)


def stat_keys(rules: str) -> tuple[str, ...]:
    """The rule set's own figures, in the order shown (`RuleSet.stat_keys`)."""
    return rulesets.get(rules).stat_keys


__all__ = ["FACTS", "MOVE_BUCKETS", "STATS_FORMULA", "FactsRebuilt", "add_hists",
           "hand_facts", "match_facts", "median", "placements", "rebuild_facts", "stat_keys"]
