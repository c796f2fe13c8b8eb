"""Self-play: four computer players play matches, checking the engine as they go.

    python -m engine.selfplay --rules hangzhou --hands 200 [--seed 7] [--options '{}']

After every action: every tile is still somewhere (wall, hands, melds, rivers, flowers,
set aside), no seat's view holds another seat's concealed tile, each view's advice has
nothing to work from but what its seat knows, and the computer player about to discard
counts as unseen exactly what its view does not show. After every hand: the payments sum
to zero. The last line printed is one JSON object of totals.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from engine import rules
from engine.ai import Judge, choose_action, remembered_judge, remembered_unseen
from engine.game import apply, deciding_seats, legal_actions, new_hand
from engine.game.prospect import prospect_of
from engine.game.state import HandState, Phase, SeatState
from engine.match import HandOutcome, MatchState, finish_hand, new_match, start_hand
from engine.melds import MeldKind
from engine.memo import IdentityMemo
from engine.rules.common import ActionKind
from engine.tiles import full_set
from engine.view import (
    PlayerView,
    TableView,
    advice_inputs,
    spectator_view,
    unseen_in_view,
    views,
)


class SelfPlayError(AssertionError):
    """An invariant broke during self-play; the message says which and where."""


@dataclass
class Tally:
    hands: int = 0
    wins: int = 0
    draws: int = 0
    actions: int = 0
    patterns: Counter[str] = field(default_factory=Counter)

    def summary(self, seconds: float) -> dict[str, Any]:
        return {"hands": self.hands, "wins": self.wins, "draws": self.draws,
                "seconds": round(seconds, 3),
                "hands_per_second": round(self.hands / seconds, 2) if seconds else None,
                "actions": self.actions, "patterns": dict(sorted(self.patterns.items()))}


def play_hand(state: HandState, rng: random.Random, tally: Tally, *,
              check_views: bool = True) -> HandState:
    """Play ``state`` to its end with computer players, checking every state: the dealt
    one, each one an action leads to, and the last."""
    total = len(state.wall)
    while state.phase is not Phase.ENDED:
        seats = deciding_seats(state)
        if not seats:
            raise SelfPlayError(f"nobody to act in phase {state.phase.value}")
        action = choose_action(state, seats[0], rng)
        if check_views:
            # Checked once the computer has chosen on it: the check then compares the
            # very count of unseen tiles the computer chose by (a state remembers it).
            check_secrecy(state)
        state, _events = apply(state, action)
        tally.actions += 1
        if tiles_in_play(state) != total:
            raise SelfPlayError(f"{state.tile_count()} tiles in play, not {total}, "
                                f"after {action}")
    if check_views:
        check_secrecy(state)
    return state


def tiles_in_play(state: HandState) -> int:
    """`HandState.tile_count`, each seat's share counted once per seat record (a seat
    that did not move is the same record in the next state)."""
    counted = state.wall_remaining + len(state.set_aside)
    for s in state.seats:
        # `find`, then `keep` on a miss: no closure made for each seat of each state.
        share = _SEAT_TILES.find(s, None)
        counted += share if share is not None else _SEAT_TILES.keep(s, None, _seat_tiles(s))
    return counted


def _seat_tiles(s: SeatState) -> int:
    # The seat's share of `HandState.tile_count`: hand, flowers, melds, unclaimed discards.
    return len(s.hand) + len(s.flowers) + sum([len(m.tiles) for m in s.melds]) + \
        sum([1 for d in s.discards if d.claimed_by is None])


_SEAT_TILES: IdentityMemo[int] = IdentityMemo("engine.selfplay.seat_tiles", 64)
_SEAT_OF = attrgetter("seat")
_KIND_OF = attrgetter("kind")
# Members tested on every state, as module names (cheaper than ``Phase.TURN``'s look-up).
_TURN, _ENDED = Phase.TURN, Phase.ENDED
_CONCEALED_KONG = MeldKind.CONCEALED_KONG
_WIN = ActionKind.WIN


def check_secrecy(state: HandState) -> None:
    """No view shows a concealed tile to anyone but its owner, and no view's advice (its
    moves' waits, suggested discard, own waits and shanten: worked out only when read)
    could: `check_advice_inputs`.

    Every view of every state is checked in full each time: nothing is skipped for
    having been checked in an earlier state. Views share their parts (a seat that did
    not move shows the same `SeatView`, tiles and idle knowledge; every seat's table is
    the public one on a turn), so most comparisons end at an identity test, and the
    count of what a `SeatView` shows is kept with that frozen view (`unseen_in_view`):
    a shared part is still compared with this state's own records in every state it
    appears in, so a wrong part is refused wherever it is reused (tested)."""
    public = spectator_view(state)
    phase = state.phase
    if phase is not _ENDED:
        _check_backs(public)
    judge = remembered_judge(state)
    seat_views = views(state)
    if len(seat_views) != len(state.seats):
        raise SelfPlayError(f"{len(seat_views)} views for {len(state.seats)} seats")
    for seat, (own, mine) in enumerate(zip(state.seats, seat_views, strict=True)):
        if mine.seat != seat:
            raise SelfPlayError(f"seat {seat} is shown seat {mine.seat}'s view")
        # Its own tiles, counted with their copies: equal tuples are (the quick test, as
        # a seat's tiles are kept sorted), or the same tiles once both are sorted.
        if (mine.drawn is not None or mine.concealed != own.hand) and \
                sorted(mine.hand) != sorted(own.hand):
            raise SelfPlayError(f"seat {seat}'s view does not show exactly its own hand")
        if mine.table is not public:
            _check_others_public(public, mine)
        _check_knowledge(state, mine, judge)
    if phase is _TURN:
        _check_unseen(state, seat_views[state.turn])


def _check_backs(public: TableView) -> None:
    for seat_view in public.seats:
        for meld in seat_view.melds:
            if meld.kind is _CONCEALED_KONG and meld.tiles.count(None) != len(meld.tiles):
                raise SelfPlayError("a concealed kong shows its faces to spectators")


def _check_others_public(public: TableView, mine: PlayerView) -> None:
    # Others' seats must look exactly as a spectator sees them; only one's own differs.
    # The seat views are shared, so this is mostly identity (tuple comparison tests it
    # first).
    seat, theirs, spectators = mine.seat, mine.table.seats, public.seats
    if len(theirs) != len(spectators) or theirs[:seat] != spectators[:seat] or \
            theirs[seat + 1:] != spectators[seat + 1:]:
        raise SelfPlayError(f"seat {seat} sees more of another seat than the public")


def check_advice_inputs(state: HandState, mine: PlayerView) -> None:
    """A view's advice is worked out from the view and its `SeatKnowledge` alone: check
    that the knowledge is the seat's own — the hand's judge (its rule set and 财神, both
    public), the seat's own melds and legal moves, a win value only with a win offered —
    and that the computer player about to discard counts as unseen exactly what its
    view does not show (`unseen_in_view`; its choice is the view's suggestion)."""
    _check_knowledge(state, mine, remembered_judge(state))
    if state.phase is Phase.TURN and mine.seat == state.turn:
        _check_unseen(state, mine)


def _check_knowledge(state: HandState, mine: PlayerView, judge: Judge) -> None:
    seat = mine.seat
    known = advice_inputs(mine)
    if known is None:
        raise SelfPlayError(f"seat {seat}'s view was built without its advice inputs")
    # The very records of this state and seat (identity: a cheap test).
    if known.judge is not judge or judge.wildcards.joker != mine.table.caishen:
        raise SelfPlayError(f"seat {seat}'s advice judges by another rule set or 财神")
    if known.melds is not state.seats[seat].melds:
        raise SelfPlayError(f"seat {seat}'s advice reads melds that are not its own")
    offered = legal_actions(state, seat)
    if (known.offered is not offered and known.offered != offered) or \
            (offered and set(map(_SEAT_OF, offered)) != {seat}):
        raise SelfPlayError(f"seat {seat}'s advice reads moves that are not its own")
    if known.win_value is not None and _WIN not in map(_KIND_OF, known.offered):
        raise SelfPlayError(f"seat {seat}'s advice values a win it is not offered")
    # Its waits are judged from its own record and the table's public facts alone.
    if known.prospect is not prospect_of(state, seat):
        raise SelfPlayError(f"seat {seat}'s waits are judged on what it does not know")


def _check_unseen(state: HandState, mine: PlayerView) -> None:
    # The seat on turn is the one whose computer player is about to discard.
    if unseen_in_view(mine) != remembered_unseen(state, mine.seat):
        raise SelfPlayError(f"seat {mine.seat}'s computer player counts tiles it cannot see")


def play_match(rules_name: str, options: Any, rng: random.Random, tally: Tally,
               hands_left: int, check_views: bool) -> MatchState:
    match = new_match(rules_name, options, first_dealer=rng.randrange(4),
                      computer=(True,) * 4)
    with_flowers = rules.get(rules_name).has_flowers
    while not match.finished and hands_left > 0:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        match, setup = start_hand(match, dice)
        wall = full_set(with_flowers)
        rng.shuffle(wall)
        state, _ = new_hand(rules_name, options, tuple(wall), setup.dealer, dice,
                            streak=setup.streak, huangfan=setup.huangfan)
        state = play_hand(state, rng, tally, check_views=check_views)
        match = finish_hand(match, _outcome(state, tally))
        hands_left -= 1
    return match


def _outcome(state: HandState, tally: Tally) -> HandOutcome:
    result = state.result
    if result is None:
        raise SelfPlayError("a hand ended without a result")
    if sum(result.payments) != 0:
        raise SelfPlayError(f"payments {result.payments} do not sum to zero")
    tally.hands += 1
    if result.drawn:
        tally.draws += 1
    else:
        tally.wins += 1
    for record in result.wins:
        tally.patterns.update(record.settlement.patterns)
    discarder = result.wins[0].from_seat if result.wins else None
    return HandOutcome(tuple(r.winner for r in result.wins), discarder, result.payments)


def selfplay(rules_name: str, hands: int, seed: int | None = None,
             options: Mapping[str, Any] | None = None, check_views: bool = True
             ) -> dict[str, Any]:
    ruleset = rules.get(rules_name)
    opts = ruleset.options(options)
    rng = random.Random(seed)
    tally = Tally()
    started = time.perf_counter()
    while tally.hands < hands:
        play_match(rules_name, opts, rng, tally, hands - tally.hands, check_views)
    return tally.summary(time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.selfplay",
                                     description="Four computer players play N hands.")
    parser.add_argument("--rules", choices=sorted(rules.RULESETS), required=True)
    parser.add_argument("--hands", type=int, required=True)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--options", default="{}", help="table options as JSON")
    parser.add_argument("--no-view-checks", action="store_true",
                        help="skip the per-action secrecy check (faster)")
    args = parser.parse_args(argv)
    try:
        options = json.loads(args.options)
        summary = selfplay(args.rules, args.hands, args.seed, options,
                           check_views=not args.no_view_checks)
    except (ValueError, SelfPlayError) as exc:
        print(f"selfplay failed: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(summary, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
