"""Self-played matches through the service for the projection's tests, and a recount of
every fact by another path: the engine replaying each stored hand (`engine.game.replay`)
and the actions read one by one in Python, never the SQL the projection uses."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bench.stats_recount import caishen_held
from bot.service import Refused
from bot.service import errors as E
from bot.service.facts import MOVE_BUCKETS
from bot.service.live import step_of
from bot.store import ActionRow, HandFact, MatchFact, Store
from engine import rules as rulesets
from engine.ai import choose_action
from engine.game import (
    Action,
    ActionKind,
    HandState,
    Phase,
    apply,
    deciding_seats,
    legal_actions,
    new_hand,
)
from engine.game.replay import replay
from engine.rules.common import FactorKind, WinKind
from engine.rules.ruleset import StatHand
from engine.tiles import tile_from_notation
from tests.service.helpers import World, by


@dataclass
class Plan:
    """How the people of a self-played match behave: ``lazy`` never move (their timers
    play, then they are away and the computer plays for them); ``leaves``: a person and
    the move count of the match after which they leave."""

    lazy: frozenset[int] = frozenset()
    leaves: Mapping[int, int] = field(default_factory=dict)
    aimless: frozenset[int] = frozenset()
    """People who never win nor claim: they throw what they drew (hands end drawn)."""


async def play_match(world: World, rules: str, users: tuple[int, ...], *, computers: int,
                     rng: random.Random, plan: Plan | None = None,
                     options: Mapping[str, Any] | None = None,
                     channel: int | None = None) -> int:
    """A whole match at a new table, people moving with the computer player's choices
    (source 'player') unless lazy, some leaving; the table's id."""
    plan = plan or Plan()
    kwargs: dict[str, Any] = {} if channel is None else {"channel": channel}
    table = await world.table(users, rules=rules, computers=computers,
                              options={"hands": 2, "turn_timer": 600, "claim_timer": 300,
                                       **(options or {})}, **kwargs)
    svc = world.service
    moves = 0
    gone: set[int] = set()
    for _ in range(20_000):
        await world.settle()
        info = await svc.table_info(table)
        if info.status != "playing":
            return table
        live = svc._tables.get(table)
        if live is None or live.hand is None:
            await world.advance(5.0)
            continue
        state: HandState = live.hand.state
        acted = False
        for user, after in plan.leaves.items():
            if user not in gone and moves >= after:
                gone.add(user)
                try:
                    await svc.leave(by(user), table)
                except Refused as refused:
                    assert refused.code == E.CONFIRM_LEAVE
                    await svc.leave(by(user), table, agreed=refused.params["penalty"])
                acted = True
        if acted:
            continue
        for seat in deciding_seats(state):
            row = live.seats[seat]
            if row is None or row.user_id is None or row.away or row.user_id in plan.lazy:
                continue
            action = aimless(state, seat) if row.user_id in plan.aimless \
                else choose_action(state, seat, rng)
            world.clock.advance(rng.choice((1.0, 45.0, 200.0, 1000.0, 5000.0)))
            try:
                await svc.act(by(row.user_id), table, action, step=step_of(state, seat))
            except Refused as refused:  # an answer given in advance played it first
                assert refused.code in (E.RACED, E.ILLEGAL, E.STALE, E.STALE_HAND), refused
            moves += 1
            acted = True
            break
        if not acted:
            await world.advance(30.0)
    raise AssertionError("the match never finished")


def aimless(state: HandState, seat: int) -> Action:
    """Pass every claim; on a turn, throw the tile drawn (else the first one allowed)."""
    legal = legal_actions(state, seat)
    if state.phase is not Phase.TURN:
        return Action(ActionKind.PASS, seat)
    drawn = state.seats[seat].drawn
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    return next((a for a in discards if a.tile == drawn), discards[0])


# ---- the recount -----------------------------------------------------------------------


def _acts(actions: Sequence[ActionRow], started: float, seat: int, left: int | None
          ) -> tuple[int, tuple[int, ...], int, bool]:
    """The seat's moves, their times' histogram, timeouts and takeover, one by one."""
    hist = [0] * len(MOVE_BUCKETS)
    moves = timeouts = 0
    taken = False
    before = started
    for a in actions:
        took, before = a.at - before, a.at
        if a.seat != seat or (left is not None and a.seq > left):
            continue
        if a.source == "player":
            moves += 1
            hist[next(i for i, high in enumerate(MOVE_BUCKETS) if took <= high)] += 1
        elif a.source == "timeout":
            timeouts += 1
        elif a.kind not in ("pass", "win"):
            taken = True
    return moves, tuple(hist), timeouts, taken


async def recount(store: Store, table_id: int, seated: Mapping[int, int | None]
                  ) -> tuple[list[HandFact], list[MatchFact]]:
    """Every fact of a table's settled hands and finished match, recounted: each hand
    replayed by the engine from its wall and actions, the actions read in Python.
    ``seated``: who sat in each seat at the start (None: a computer)."""
    table = await store.lobby.get_table(table_id)
    assert table is not None
    ruleset = rulesets.get(table.rules)
    options = ruleset.options(table.options)
    hands_out: list[HandFact] = []
    matches_out: list[MatchFact] = []
    for match in await store.matches.of_table(table_id):
        departures = {d.seat: d for d in await store.matches.departures(match.id)}
        played = [0] * 4
        for hand in await store.hands.of_match(match.id):
            settled = await store.endings.settlements(hand.id)
            if not settled:
                continue  # a voided hand
            actions = await store.log.actions(hand.id)
            wall = [tile_from_notation(t) for t in hand.wall_tiles]
            state, _ = new_hand(table.rules, options, wall, hand.dealer, hand.dice,
                                streak=hand.streak, huangfan=hand.huangfan > 0)
            claimed_at: list[tuple[int, int, int]] = []  # (claimer, discarder, its answer's seq)
            for a in actions:
                before = state.claims
                state, _ = apply(state, Action.from_json(a.payload))
                for c in range(4):
                    for giver in range(4):
                        for _ in range(state.claims[c][giver] - before[c][giver]):
                            answer = max(b.seq for b in actions if b.seat == c
                                         and b.seq <= a.seq and b.kind in ("chi", "pong",
                                                                           "kong"))
                            claimed_at.append((c, giver, answer))
            # the same end as replaying it whole
            assert state == replay(table.rules, options, wall, hand.dice, hand.dealer,
                                   [Action.from_json(a.payload) for a in actions],
                                   streak=hand.streak, huangfan=hand.huangfan > 0)
            result = state.result
            assert result is not None, hand
            wins = {w.winner: w for w in result.wins}
            from_seat = next((w.from_seat for w in result.wins if w.win is not
                              WinKind.SELF_DRAW), None)
            claims = tuple(tuple(r) for r in state.claims)
            values = tuple(wins[s].settlement.value if s in wins else 0 for s in range(4))
            patterns = tuple(tuple(wins[s].settlement.patterns) if s in wins else ()
                             for s in range(4))
            held = tuple(caishen_held(state, wins[s]) if s in wins else None
                         for s in range(4))
            marks = ruleset.stat_marks(StatHand(values, patterns, from_seat, claims,
                                                hand.huangfan, options, held))
            # 承包 against the engine's own charges, not the 摊 counts
            for w in result.wins:
                liable = {c.payer for c in w.settlement.charges if any(
                    f.kind in (FactorKind.LIABILITY, FactorKind.REVERSE_LIABILITY)
                    for f in f_of(c))}
                for seat in range(4):
                    assert (marks[seat].get("cheng_bao_paid", 0) == 1) == (seat in liable)
            lefts = {s: d.seq for s, d in departures.items() if d.hand_id == hand.id}
            if lefts:  # a person left during it: theirs is what they did until then
                theirs = [[0] * 4 for _ in range(4)]
                for c, giver, seq in claimed_at:
                    if c not in lefts or seq <= lefts[c]:
                        theirs[c][giver] += 1
                credited = StatHand(tuple(0 if s in lefts else v for s, v in enumerate(values)),
                                    patterns, from_seat, tuple(map(tuple, theirs)),
                                    hand.huangfan, options, held)
                mine = ruleset.stat_marks(credited)
                marks = tuple(mine[s] if s in lefts else marks[s] for s in range(4))
            dealt_seq = None if from_seat is None else max(
                a.seq for a in actions if a.seat == from_seat
                and a.kind in ("discard", "added_kong"))
            for seat in range(4):
                d = departures.get(seat)
                user = seated[seat] if d is None else (
                    d.user_id if d.hand_number >= hand.number else None)
                left = lefts.get(seat)
                if user is not None:
                    played[seat] += 1
                melds = state.seats[seat].melds
                claimed = sum(1 for m in melds if m.from_seat is not None)
                assert claimed == sum(claims[seat]), (claimed, claims[seat])
                if left is not None:
                    claimed = sum(1 for c, _, seq in claimed_at if c == seat and seq <= left)
                won = seat in wins and left is None
                dealt = from_seat == seat and (left is None or (dealt_seq or 0) <= left)
                moves, hist, timeouts, taken = _acts(actions, hand.started_at, seat, left)
                payment = result.payments[seat]
                hands_out.append(HandFact(
                    hand.id, seat, match.id, table_id, table.guild_id, table.channel_id,
                    table.rules, hand.number, user, hand.ended_at or 0.0, payment,
                    won=won, self_draw=won and wins[seat].win is WinKind.SELF_DRAW,
                    won_from=wins[seat].from_seat if won else None,
                    dealt_in=dealt,
                    deal_in_cost=-payment if dealt and payment < 0 else Fraction(0),
                    win_value=values[seat] if won else None,
                    patterns=patterns[seat] if won else (), claims=claimed, drawn=not result.wins,
                    marks={k: v for k, v in marks[seat].items() if v}, moves=moves,
                    move_hist=hist, timeouts=timeouts, taken_over=taken and user is not None,
                    dealer=seat == hand.dealer))
        if match.status != "finished":
            continue
        assert match.totals is not None and match.finished_at is not None
        ranked = sorted(match.totals.values(), reverse=True)
        users = [seated[s] if s not in departures else departures[s].user_id
                 for s in range(4)]
        for seat in range(4):
            matches_out.append(MatchFact(
                match.id, seat, table_id, table.guild_id, table.channel_id, table.rules,
                users[seat], match.finished_at, ranked.index(match.totals[seat]) + 1,
                match.totals[seat], played[seat], sum(1 for u in users if u is None)))
    return hands_out, matches_out


def f_of(charge: Any) -> Sequence[Any]:
    return tuple(charge.factors)


def differences(stored: Sequence[Any], expected: Sequence[Any]) -> list[str]:
    """The fields that differ, row by row (a readable failure)."""
    out = [f"{len(stored)} rows stored, {len(expected)} recounted"] \
        if len(stored) != len(expected) else []
    for a, b in zip(stored, expected, strict=False):
        for name in a.__dataclass_fields__:
            if getattr(a, name) != getattr(b, name):
                out.append(f"hand/match {getattr(a, 'hand_id', getattr(a, 'match_id', '?'))}"
                           f" seat {a.seat} {name}: {getattr(a, name)!r} !="
                           f" {getattr(b, name)!r}")
    return out
