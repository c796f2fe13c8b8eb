"""What a seat could win on (its 听 hint), judged by the rule set as the win itself is.

A hand's shape says which tiles complete it (`HandAnalysis.waits`); whether a tile
that completes it is a win the player may declare is the rule set's to say: Shanghai
refuses a plain hand, Hangzhou a win on most discards (放铳), on a discarded 财神, and
after a passed win (漏胡) or inside another seat's 抓打. A `Wait` is a tile on which the
seat could win when it next arrives, with the value of that win: by its own next draw
(自摸), or on a discard before then (放铳), each judged exactly as the win button and
the calculator judge it (`RuleSet.turn_refusal`, `RuleSet.claim_refusal`,
`RuleSet.discard_win_refusal`, and `RuleSet.win_value`: `score`'s value without the
payments), on the `WinContext` `engine.game.settle.judge` would build then.

When the tile arrives is told from the table as it is, play going round without a
claim (the "next arrival"): each seat before the discarder (and, for a self-draw, the
seat itself) draws once. That decides what lasts "until a seat's own next draw" (抓打,
漏胡), whether the first go-round (地胡, 天胡) is still on, and whether the wall still
holds those draws (Shanghai plays the wall out; Hangzhou stops after the discard made
with 20 or fewer tiles left). A seat's hint so never names a tile it could not win on.

A `WinProspect` holds only what its seat knows: its own flowers, chain and passed wins,
and public facts of the table (`TableFacts`), so a view's advice can be worked out from
it (`engine.view`; self-play checks it is `prospect_of` the state).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.analysis import Wildcards
from engine.game.actions import Action
from engine.game.kinds import CLAIM, ENDED, PASS, ROB_KONG, TURN, WIN
from engine.game.state import HandState, make
from engine.melds import Meld, MeldKind
from engine.memo import bounded
from engine.rules import RuleSet
from engine.rules import get as ruleset_of
from engine.rules.common import (
    SEATS,
    ChainStep,
    ClaimCheck,
    TableOptions,
    TurnCheck,
    WinContext,
    WinKind,
)
from engine.tiles import Tile

if TYPE_CHECKING:
    from collections.abc import Iterable


@dataclass(frozen=True, order=True)
class Wait:
    """A tile the seat could win on when it next arrives, and what the win is worth
    (H in 花, or the multiplier F) each way it may come: ``self_draw`` by the seat's
    own next draw, ``discard`` on another seat's discard before then; None where that
    way is no win. At least one of the two is set."""

    tile: Tile
    self_draw: int | None
    discard: int | None


NO_WAITS: tuple[Wait, ...] = ()
SELF_DRAW, DISCARD_WIN = WinKind.SELF_DRAW, WinKind.DISCARD
_NONE: frozenset[Tile] = frozenset()
WIN_OFFER = tuple(Action(WIN, seat) for seat in range(SEATS))


@dataclass(frozen=True)
class TableFacts:
    """What every seat may know of the table that a win's judgement reads: the rule set
    and options, dealer, streak, 荒番, the turned tile, the claims made (摊, 吃三口),
    the first go-round, 抓打, the wall left, and whose move it is (``actor``: the seat
    on turn, or whose tile is being answered; ``actor_discards``: that seat's discard
    is still to come; ``last``: the tile being answered is the hand's last window's)."""

    rules: str
    options: TableOptions
    dealer: int
    streak: int
    huangfan: bool
    flipped: Tile | None
    claims: tuple[tuple[int, ...], ...]
    first_go_round: bool
    zhua_da: int | None
    wall_left: int
    actor: int
    actor_discards: bool
    last: bool = False
    rob: bool = False
    """The actor's added kong is being answered (抢杠): its replacement draw comes first."""


@dataclass(frozen=True)
class WinProspect:
    """One seat's prospect of a win: its flowers, its Hangzhou chain as its next
    draw will find it, the wins it may not take on a discard until then (漏胡: those
    it passed, and the one it is asked now, as a pass would leave it), and the table's
    public facts."""

    seat: int
    flowers: tuple[Tile, ...]
    chain: tuple[ChainStep, ...]
    claimed_turn: bool
    """Its turn now began with a chi or pong (outside the chain: `SeatState`)."""
    passed_wins: frozenset[Tile]
    table: TableFacts


def table_facts(state: HandState) -> TableFacts:
    """The public facts of ``state`` (one record a state: `HandState.remembered`)."""
    return state.remembered(_FACTS, lambda: _table_facts(state))


_FACTS = "table facts"


def _table_facts(state: HandState) -> TableFacts:
    window = state.window
    phase = state.phase
    return make(TableFacts, {
        "rules": state.rules, "options": state.options, "dealer": state.dealer,
        "streak": state.streak, "huangfan": state.huangfan and state.ruleset.has_huangfan,
        "flipped": state.flipped, "claims": state.claims,
        "first_go_round": state.first_go_round, "zhua_da": state.zhua_da,
        "wall_left": state.wall_remaining,
        "actor": state.turn if window is None else window.from_seat,
        "actor_discards": phase is TURN or phase is ROB_KONG,
        "last": window is not None and window.last, "rob": phase is ROB_KONG})


def prospect_of(state: HandState, seat: int) -> WinProspect | None:
    """``seat``'s prospect now (None once the hand is over, or while the claim or win
    the seat chose on the tile being answered stands): one record a state and seat, so
    a view holds the very record self-play checks it against."""
    return state.remembered(_PROSPECT[seat], lambda: _prospect(state, seat))


_PROSPECT = tuple(f"prospect {seat}" for seat in range(SEATS))


def _prospect(state: HandState, seat: int) -> WinProspect | None:
    if state.phase is ENDED:
        return None
    own = state.seats[seat]
    passed = own.passed_wins
    window = state.window
    if window is not None:
        answer = window.answers[seat]
        if answer is not None and answer.kind is not PASS:
            return None  # its claim or win is chosen: its hand is not waiting any more
    # A win offered now and passed binds as `engine.game.hand` binds it (漏胡); taken,
    # the hand is over and nothing else arrives.
    if window is not None and state.phase is CLAIM and state.ruleset.passed_claims_bind \
            and window.answers[seat] is None and WIN_OFFER[seat] in window.options[seat]:
        passed = passed | {state.wildcards.plays_as(window.tile) or window.tile}
    return make(WinProspect, {
        "seat": seat, "flowers": own.flowers, "chain": own.chain,
        "claimed_turn": own.claimed_turn, "passed_wins": passed,
        "table": table_facts(state)})


def after_discard(prospect: WinProspect, tile: Tile, wildcards: Wildcards) -> WinProspect:
    """The prospect of the seat on turn once it discarded ``tile``: its chain and 抓打
    as `engine.game.hand.discard` leaves them, and its discard made."""
    table = prospect.table
    wild = wildcards.is_joker(tile)
    chain = (*prospect.chain, ChainStep.PIAO) if wild and not prospect.claimed_turn else ()
    limit = ruleset_of(table.rules).last_window_tiles
    facts = make(TableFacts, {
        **table.__dict__, "zhua_da": prospect.seat if wild else table.zhua_da,
        "actor": prospect.seat, "actor_discards": False, "rob": False,
        "last": limit is not None and table.wall_left <= limit})
    # (The hand itself, without the tile, is given to `winning_waits` apart.)
    return make(WinProspect, {
        "seat": prospect.seat, "flowers": prospect.flowers, "chain": chain,
        "claimed_turn": False, "passed_wins": prospect.passed_wins, "table": facts})


def winning_waits(prospect: WinProspect, concealed: tuple[Tile, ...],
                  melds: tuple[Meld, ...], wildcards: Wildcards,
                  candidates: Iterable[Tile]) -> tuple[Wait, ...]:
    """Of ``candidates`` (the tiles completing ``concealed`` and ``melds``: the shape's
    waits), those the seat could win on when next they arrive, with their values."""
    return _judged(prospect, tuple(sorted(concealed)), melds, wildcards,
                   frozenset(candidates))


@bounded(maxsize=4096)
def _judged(prospect: WinProspect, concealed: tuple[Tile, ...], melds: tuple[Meld, ...],
            wildcards: Wildcards, candidates: frozenset[Tile]) -> tuple[Wait, ...]:
    if not candidates:
        return NO_WAITS
    ruleset = ruleset_of(prospect.table.rules)
    timeline = _Timeline(prospect, ruleset)
    out = []
    for tile in sorted(candidates):
        drawn = timeline.self_draw(concealed, melds, wildcards, tile)
        taken = timeline.discard(concealed, melds, wildcards, tile)
        if drawn is not None or taken is not None:
            out.append(Wait(tile, drawn, taken))
    return tuple(out)


class _Timeline:
    """The next arrivals of a tile for one seat, play going round without a claim."""

    def __init__(self, prospect: WinProspect, ruleset: RuleSet) -> None:
        self.prospect = prospect
        self.ruleset = ruleset
        table = prospect.table
        seat = prospect.seat
        # The seats that draw, in order, before the seat's own next draw (itself last).
        self.drawers = tuple((table.actor + k) % SEATS for k in range(1, SEATS + 1))
        self.drawers = self.drawers[:self.drawers.index(seat) + 1]
        # Those that discard before it: the actor (when its discard is still to come),
        # then each seat that draws before the seat itself.
        first = (table.actor,) if table.actor_discards and table.actor != seat else ()
        self.discarders = (*first, *self.drawers[:-1])

    def _drawn_before(self, count: int) -> tuple[int, ...]:
        return self.drawers[:count]

    def _left(self) -> int:
        """Tiles to draw when the actor's discard is (or was) made: after an added
        kong, its replacement is drawn first."""
        table = self.prospect.table
        return table.wall_left - (1 if table.rob else 0)

    def _can_draw(self, count: int) -> bool:
        """Whether the wall still gives ``count`` more plain draws in turn (and, after
        an added kong, its replacement): each follows a discard, made with ``left - k``
        tiles to draw, that is not the hand's last (Hangzhou: the discard made with 20
        or fewer left; Shanghai plays the wall out)."""
        left = self._left()
        if left < 0:
            return False
        limit = self.ruleset.last_window_tiles
        return all(left - k >= 1 and (limit is None or left - k > limit)
                   for k in range(count))

    def _facts_after(self, drawers: tuple[int, ...]) -> tuple[bool, int | None]:
        """(first go-round, 抓打) once ``drawers`` have each drawn once."""
        table = self.prospect.table
        first = table.first_go_round and table.dealer not in drawers
        zhua_da = None if table.zhua_da in drawers else table.zhua_da
        return first, zhua_da

    def self_draw(self, concealed: tuple[Tile, ...], melds: tuple[Meld, ...],
                  wildcards: Wildcards, tile: Tile) -> int | None:
        """The value of a self-draw of ``tile`` at the seat's next draw, or None."""
        if not self._can_draw(len(self.drawers)):
            return None
        prospect, table = self.prospect, self.prospect.table
        first, zhua_da = self._facts_after(self.drawers)
        # The records made whole (`make`: a hint judges a few dozen of them a view).
        check = make(TurnCheck, {
            "kind": WIN, "seat": prospect.seat, "wildcards": wildcards, "tile": None,
            "meld_tiles": (), "drawn": tile, "after_claim": False, "zhua_da": zhua_da})
        if self.ruleset.turn_refusal(check, table.options):
            return None
        chain = self.ruleset.counts_chain
        ctx = make(WinContext, {
            "winner": prospect.seat, "dealer": table.dealer, "win": SELF_DRAW,
            "concealed": concealed, "win_tile": tile, "melds": melds, "from_seat": None,
            "flowers": prospect.flowers, "replacement": None, "first_go_round": first,
            "chain": prospect.chain if chain else (), "claimed_turn": False,
            "claims": table.claims, "streak": table.streak, "huangfan": table.huangfan,
            "flipped": table.flipped})
        return _value(self.ruleset, ctx, table.options)

    def discard(self, concealed: tuple[Tile, ...], melds: tuple[Meld, ...],
                wildcards: Wildcards, tile: Tile) -> int | None:
        """The value of a win on another seat's discard of ``tile`` before the seat's
        next draw (the best of the discarders that may give it), or None."""
        prospect, table = self.prospect, self.prospect.table
        chis = sum(1 for m in melds if m.kind is MeldKind.CHI)
        best: int | None = None
        for discarder in self.discarders:
            count = 0 if discarder == table.actor and table.actor_discards \
                else self.drawers.index(discarder) + 1
            if not self._can_draw(count):
                break
            first, zhua_da = self._facts_after(self._drawn_before(count))
            limit = self.ruleset.last_window_tiles
            left = self._left() - count
            check = make(ClaimCheck, {
                "kind": WIN, "claimer": prospect.seat, "discarder": discarder, "tile": tile,
                "dealer": table.dealer, "streak": table.streak, "claims": table.claims,
                "wildcards": wildcards, "meld_tiles": (), "chis": chis,
                "passed_wins": prospect.passed_wins, "passed_pongs": _NONE,
                "zhua_da": zhua_da, "last_window": limit is not None and left <= limit})
            if self.ruleset.claim_refusal(check, table.options):
                continue
            ctx = make(WinContext, {
                "winner": prospect.seat, "dealer": table.dealer, "win": DISCARD_WIN,
                "concealed": concealed, "win_tile": tile, "melds": melds,
                "from_seat": discarder, "flowers": prospect.flowers, "replacement": None,
                "first_go_round": first, "chain": (), "claimed_turn": False,
                "claims": table.claims, "streak": table.streak, "huangfan": table.huangfan,
                "flipped": table.flipped})
            if self.ruleset.discard_win_refusal(ctx, table.options):
                continue  # refused whatever the hand (as `score` would refuse it)
            value = _value(self.ruleset, ctx, table.options)
            if value is not None and (best is None or value > best):
                best = value
        return best


@bounded(maxsize=1 << 14)
def _value(ruleset: RuleSet, ctx: WinContext, options: TableOptions) -> int | None:
    """The value `RuleSet.score` gives the win, None when it refuses it (a seat's waits
    are judged again on every view until it draws: the same wins, valued once)."""
    return ruleset.win_value(ctx, options)
