"""A person's ``/mahjong stats`` figures recounted from the logs alone, without the facts
projection: the old way, and the other path the tests compare the projection with.

Each stored hand is replayed with the engine from its deal (`engine.game.apply` over
its actions): its wins, deal-ins, claims (the chi, pong and exposed kong melds laid
down) and whether it was drawn are the engine's; the points are the stored
settlements'; the moves, timeouts and away takeovers are the actions' sources; who is
credited with a seat is read from the seats and the departures. Finished matches are
placed from their stored totals (ties share the better place).

    hands = await replay_hands(store, await hand_ids(store, user, "shanghai", scope))
    matches = await finished_matches(store)
    want = figures(user, "shanghai", scope, hands, matches, versus=None)
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bot.service.facts import MOVE_BUCKETS
from bot.service.facts import median as median_of
from bot.service.fairness import parse_wall
from bot.store import Store
from bot.store.stats import Scope
from engine.game import Action, HandState, WinRecord, apply, new_hand
from engine.game.events import MeldDeclared
from engine.melds import MeldKind
from engine.rules import get as get_rules
from engine.rules.common import SEATS
from engine.rules.ruleset import StatHand

CLAIMS = (MeldKind.CHI, MeldKind.PONG, MeldKind.KONG)
BATCH = 500
NEVER = 10**9


@dataclass
class SeatCount:
    """One person's seat in one hand, recounted."""

    hand_id: int
    seat: int
    points: Fraction
    won: bool = False
    self_draw: bool = False
    won_from: int | None = None
    dealt_in: bool = False
    deal_in_cost: Fraction = Fraction(0)
    value: int = 0
    patterns: tuple[str, ...] = ()
    claims: int = 0
    drawn: bool = False
    moves: int = 0
    hist: list[int] = field(default_factory=lambda: [0] * len(MOVE_BUCKETS))
    timeouts: int = 0
    taken_over: bool = False
    marks: dict[str, int] = field(default_factory=dict)
    """The rule set's own figures (`RuleSet.stat_marks` of the replayed hand)."""


@dataclass
class HandCount:
    hand_id: int
    match_id: int
    rules: str
    guild_id: int
    channel_id: int
    people: dict[int, int]
    """seat → the person credited with it (computers left out)."""
    seats: dict[int, SeatCount]


@dataclass(frozen=True)
class MatchCount:
    match_id: int
    rules: str
    guild_id: int
    channel_id: int
    people: dict[int, int]
    """seat → the person the seat's placement is credited to."""
    placed: dict[int, int]
    """seat → placement (ties share the better place)."""


async def _all(store: Store, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    return list(await store._db.all(sql, tuple(params)))


async def hand_ids(store: Store, user: int, rules: str, scope: Scope) -> list[int]:
    """The ended hands of ``rules`` in ``scope`` where ``user`` sat (or left)."""
    cond, values = scope.where("t")
    rows = await _all(
        store, "SELECT h.id FROM hands h JOIN matches m ON m.id = h.match_id"
        " JOIN game_tables t ON t.id = m.table_id"
        f" WHERE h.status = 'ended' AND t.rules = ?{cond} AND (EXISTS (SELECT 1 FROM seats s"
        " WHERE s.table_id = t.id AND s.user_id = ?) OR EXISTS (SELECT 1 FROM departures d"
        " JOIN hands dh ON dh.id = d.hand_id WHERE dh.match_id = m.id AND d.user_id = ?))",
        (rules, *values, user, user))
    return [int(r["id"]) for r in rows]


def _marks(ids: Sequence[int]) -> str:
    return ", ".join("?" * len(ids))


async def replay_hands(store: Store, ids: Sequence[int] | None = None) -> list[HandCount]:
    """The hands ``ids`` (None: every ended hand), each replayed with the engine."""
    if ids is None:
        ids = [int(r["id"]) for r in await _all(
            store, "SELECT id FROM hands WHERE status = 'ended' ORDER BY id")]
    out: list[HandCount] = []
    for start in range(0, len(ids), BATCH):
        out += await _replay_batch(store, ids[start:start + BATCH])
    return out


async def _replay_batch(store: Store, ids: Sequence[int]) -> list[HandCount]:
    if not ids:
        return []
    marks = _marks(ids)
    hands = await _all(store, "SELECT h.*, m.table_id, t.rules, t.options, t.guild_id,"
                       " t.channel_id FROM hands h JOIN matches m ON m.id = h.match_id"
                       f" JOIN game_tables t ON t.id = m.table_id WHERE h.id IN ({marks})"
                       " ORDER BY h.id", ids)
    # each hand's log as the store reads it back (an ended hand's compact row decoded)
    actions: dict[int, list[Any]] = {
        hand_id: [{"seq": a.seq, "seat": a.seat, "payload": a.payload, "source": a.source,
                   "at": a.at} for a in log]
        for hand_id, log in (await store.log.logs(ids)).items()}
    settled: dict[int, dict[int, Fraction]] = {}
    for r in await _all(store, "SELECT hand_id, seat, amount FROM settlements"
                        f" WHERE hand_id IN ({marks})", ids):
        settled.setdefault(int(r["hand_id"]), {})[int(r["seat"])] = Fraction(r["amount"])
    tables = sorted({int(h["table_id"]) for h in hands})
    seated: dict[int, dict[int, int]] = {}
    for r in await _all(store, f"SELECT table_id, seat, user_id FROM seats WHERE table_id IN"
                        f" ({_marks(tables)}) AND user_id IS NOT NULL", tables):
        seated.setdefault(int(r["table_id"]), {})[int(r["seat"])] = int(r["user_id"])
    matches = sorted({int(h["match_id"]) for h in hands})
    left: dict[int, list[Any]] = {}
    for r in await _all(store, "SELECT d.hand_id, d.seat, d.seq, d.user_id, h.number,"
                        " h.match_id FROM departures d JOIN hands h ON h.id = d.hand_id"
                        f" WHERE h.match_id IN ({_marks(matches)})", matches):
        left.setdefault(int(r["match_id"]), []).append(r)
    out = []
    for h in hands:
        hid = int(h["id"])
        if hid not in settled:
            continue  # voided by a cancel: no settlement
        people = dict(seated.get(int(h["table_id"]), {}))
        left_at: dict[int, int] = {}
        for d in left.get(int(h["match_id"]), []):
            if d["number"] >= h["number"]:
                people[d["seat"]] = int(d["user_id"])
                if d["hand_id"] == hid:
                    left_at[d["seat"]] = int(d["seq"])
            else:
                people.pop(d["seat"], None)  # left before this hand: the computer's
        out.append(_replay(h, actions.get(hid, []), settled[hid], people, left_at))
    return out


def caishen_held(state: HandState, win: WinRecord) -> int | None:
    """The 财神 the winner holds in the replay's final state: concealed (a self-drawn
    tile among them), the tile won on another's discard or kong, and in its melds —
    counted from the state, not from the win's record as the settlement does (a
    recount's other path; the facts tests use it too); None without 财神."""
    wild = state.wildcards
    if wild.joker is None:
        return None
    seat = state.seats[win.winner]
    tiles = [*seat.hand, *(t for m in seat.melds for t in m.tiles)]
    if win.from_seat is not None and win.win_tile is not None:
        tiles.append(win.win_tile)
    return tiles.count(wild.joker)


def _replay(h: Any, actions: list[Any], settled: dict[int, Fraction], people: dict[int, int],
            left_at: dict[int, int]) -> HandCount:
    options = json.loads(h["options"]) if isinstance(h["options"], str) else h["options"]
    state, _ = new_hand(h["rules"], options, parse_wall(h["wall"]), h["dealer"],
                        (int(h["dice"][0]), int(h["dice"][2])), streak=h["streak"],
                        huangfan=h["huangfan"] > 0)
    seats = {s: SeatCount(int(h["id"]), s, settled.get(s, Fraction(0))) for s in people}
    claimed = [[0] * SEATS for _ in range(SEATS)]  # claimed[a][b]: a's claims on b's discards
    credited = [[0] * SEATS for _ in range(SEATS)]  # those made while the seat was its person's
    answered: dict[int, int] = {}  # seat → the seq of its last chi/pong/kong answer
    won_at: dict[int, int] = {}  # seat → the seq of its win
    offered_at: dict[int, int] = {}  # seat → the seq of its last discard or added kong

    def theirs(seat: int, seq: int) -> bool:
        return seq <= left_at.get(seat, NEVER)

    before = float(h["started_at"])
    for a in actions:
        payload = a["payload"]
        action = Action.from_json(json.loads(payload) if isinstance(payload, str) else payload)
        state, events = apply(state, action)
        seq, who = int(a["seq"]), int(a["seat"])
        kind = action.kind.value
        if kind in ("chi", "pong", "kong"):
            answered[who] = seq
        elif kind == "win":
            won_at[who] = seq
        elif kind in ("discard", "added_kong"):
            offered_at[who] = seq
        seat = seats.get(who)
        if seat is not None and theirs(who, seq):
            if a["source"] == "player":
                seat.moves += 1
                took = float(a["at"]) - before
                seat.hist[next(i for i, b in enumerate(MOVE_BUCKETS) if took <= b)] += 1
            elif a["source"] == "timeout":
                seat.timeouts += 1
            elif a["source"] == "computer":
                seat.taken_over = True
        before = float(a["at"])
        for e in events:
            if isinstance(e, MeldDeclared) and e.meld.kind in CLAIMS \
                    and e.meld.from_seat is not None:
                claimed[e.seat][e.meld.from_seat] += 1
                if theirs(e.seat, answered.get(e.seat, seq)):
                    credited[e.seat][e.meld.from_seat] += 1
    result = state.result
    assert result is not None, f"hand {h['id']} did not end in its replay"
    for seat in seats.values():
        seat.drawn = result.drawn
        seat.claims = sum(credited[seat.seat])
    values = [0] * SEATS
    patterns: list[tuple[str, ...]] = [()] * SEATS
    mine = [0] * SEATS  # the values of the wins made while the seat was its person's
    for win in result.wins:
        values[win.winner] = win.settlement.value
        patterns[win.winner] = win.settlement.patterns
        if theirs(win.winner, won_at.get(win.winner, NEVER)):
            mine[win.winner] = win.settlement.value
            if win.winner in seats:
                w = seats[win.winner]
                w.won, w.self_draw = True, win.from_seat is None
                w.won_from, w.value = win.from_seat, win.settlement.value
                w.patterns = win.settlement.patterns
        loser = None if win.from_seat is None else seats.get(win.from_seat)
        if loser is not None and theirs(loser.seat, offered_at.get(loser.seat, NEVER)):
            loser.dealt_in = True
            loser.deal_in_cost += -win.settlement.payments[loser.seat]
    from_seat = next((w.from_seat for w in result.wins if w.from_seat is not None), None)
    wins = {w.winner: w for w in result.wins}
    ruleset = get_rules(h["rules"])
    table_options = ruleset.options(options)
    held = tuple(caishen_held(state, wins[s]) if s in wins else None for s in range(SEATS))
    marks = ruleset.stat_marks(StatHand(
        tuple(values), tuple(patterns), from_seat, tuple(tuple(row) for row in claimed),
        int(h["huangfan"]), table_options, held))
    if left_at:  # a person left during it: their figures of their own part
        own = ruleset.stat_marks(StatHand(
            tuple(mine), tuple(patterns), from_seat,
            tuple(tuple(row) for row in credited), int(h["huangfan"]), table_options,
            held))
        marks = tuple(own[s] if s in left_at else marks[s] for s in range(SEATS))
    for seat in seats.values():
        seat.marks = dict(marks[seat.seat])
    return HandCount(int(h["id"]), int(h["match_id"]), h["rules"], int(h["guild_id"]),
                     int(h["channel_id"]), people, seats)


async def finished_matches(store: Store, user: int | None = None) -> list[MatchCount]:
    """Every finished match (only ``user``'s), placed from its stored totals."""
    mine = "" if user is None else (
        " AND (EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.user_id = ?)"
        " OR EXISTS (SELECT 1 FROM departures d JOIN hands dh ON dh.id = d.hand_id"
        " WHERE dh.match_id = m.id AND d.user_id = ?))")
    rows = await _all(store, "SELECT m.id, m.table_id, m.totals, t.rules, t.guild_id,"
                      " t.channel_id FROM matches m JOIN game_tables t ON t.id = m.table_id"
                      f" WHERE m.status = 'finished'{mine}",
                      () if user is None else (user, user))
    out = []
    for m in rows:
        totals = {int(s): Fraction(v) for s, v in json.loads(m["totals"]).items()}
        placed = {s: 1 + sum(1 for o in totals.values() if o > v) for s, v in totals.items()}
        people = {int(r["seat"]): int(r["user_id"]) for r in await _all(
            store, "SELECT seat, user_id FROM seats WHERE table_id = ? AND user_id IS NOT NULL",
            (m["table_id"],))}
        for d in await _all(store, "SELECT d.seat, d.user_id FROM departures d JOIN hands h"
                            " ON h.id = d.hand_id WHERE h.match_id = ?", (m["id"],)):
            people[int(d["seat"])] = int(d["user_id"])
        out.append(MatchCount(int(m["id"]), m["rules"], int(m["guild_id"]),
                              int(m["channel_id"]), people, placed))
    return out


def _in(scope: Scope, guild: int, channel: int) -> bool:
    return scope.kind == "all" or (guild == scope.guild_id and (
        scope.kind == "server" or channel == scope.channel_id))


def figures(user: int, rules: str, scope: Scope, hands: Sequence[HandCount],
            matches: Sequence[MatchCount], versus: int | None = None) -> dict[str, Any]:
    """The person's figures, as `PlayerStats` names them (the biggest hand as its value
    and its patterns counted; the head-to-head as a tuple in `HeadToHead`'s order)."""
    mine = [(h, h.seats[s]) for h in hands for s, p in h.people.items()
            if p == user and h.rules == rules and _in(scope, h.guild_id, h.channel_id)]
    seats = [s for _, s in mine]
    n = len(seats)
    wins = [s for s in seats if s.won]
    deals = [s for s in seats if s.dealt_in]
    hist = [sum(s.hist[i] for s in seats) for i in range(len(MOVE_BUCKETS))]
    placed = [(m, m.placed[s]) for m in matches for s, p in m.people.items()
              if p == user and m.rules == rules and _in(scope, m.guild_id, m.channel_id)]
    big = max(wins, key=lambda s: (s.value, -s.hand_id), default=None)
    out: dict[str, Any] = {
        "hands": n, "wins": len(wins), "deal_ins": len(deals),
        "win_rate": len(wins) / n if n else None,
        "self_draw_share": sum(s.self_draw for s in wins) / len(wins) if wins else None,
        "deal_in_rate": len(deals) / n if n else None,
        "average_deal_in_cost": sum((s.deal_in_cost for s in deals), Fraction(0)) / len(deals)
        if deals else None,
        "average_win_value": Fraction(sum(s.value for s in wins), len(wins)) if wins else None,
        "claims": sum(s.claims for s in seats),
        "claim_rate": sum(1 for s in seats if s.claims) / n if n else None,
        "drawn_rate": sum(s.drawn for s in seats) / n if n else None,
        "moves": sum(s.moves for s in seats), "median_move_s": median_of(hist),
        "timeouts": sum(s.timeouts for s in seats),
        "taken_over": sum(s.taken_over for s in seats),
        "biggest": None if big is None else (big.value, Counter(big.patterns)),
        "marks": {k: v for k, v in sum((Counter(s.marks) for s in seats), Counter()).items()
                  if v},
        "matches": len(placed),
        "average_placement": sum(p for _, p in placed) / len(placed) if placed else None,
        "first_rate": sum(p == 1 for _, p in placed) / len(placed) if placed else None,
        "last_rate": sum(p == max(m.placed.values()) for m, p in placed) / len(placed)
        if placed else None,
    }
    if versus is not None:
        together = [(a, h.seats[o]) for h, a in mine
                    for o, p in h.people.items() if p == versus and o != a.seat]
        games = [(p, m.placed[o]) for m, p in placed
                 for o, q in m.people.items() if q == versus]
        out["versus"] = (
            len(games), sum(p < q for p, q in games), sum(q < p for p, q in games),
            len(together), sum(a.won and a.won_from == b.seat for a, b in together),
            sum(b.won and b.won_from == a.seat for a, b in together),
            sum((a.points for a, _ in together), Fraction(0)),
            sum((b.points for _, b in together), Fraction(0)))
    return out


async def recount(store: Store, user: int, rules: str, scope: Scope,
                  versus: int | None = None) -> dict[str, Any]:
    """The person's figures the old way: their hands read and replayed, their matches
    placed."""
    hands = await replay_hands(store, await hand_ids(store, user, rules, scope))
    return figures(user, rules, scope, hands, await finished_matches(store, user), versus)
