"""Every figure of ``/mahjong stats`` against a recount from the logs by another path.

People play matches of both rule sets through the service (with computers, timeouts,
away takeovers and a person leaving mid-match, in two channels of one server and in a
foreign server); then each person's figures, read from the facts the settlements wrote,
are compared with a recount that replays every stored hand with the engine (its wins,
deal-ins, claims, drawn hands and values) and reads the stored settlements, matches,
actions and departures directly — for each person, rule set and scope, and for each
pair of people head to head."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pytest

from bench.stats_play import play_matches, seeded_deals
from bot.service import Place
from bot.service.fairness import parse_wall
from bot.service.stats import MOVE_BUCKETS, PlayerStats, median_of
from bot.store import Store
from engine.game import Action, apply, new_hand
from engine.game.events import MeldDeclared
from engine.melds import MeldKind
from engine.rules import get as get_rules
from tests.service.helpers import World, by

GUILD, CHANNEL, OTHER_CHANNEL, FOREIGN_GUILD, FOREIGN_CHANNEL = 7, 70, 71, 8, 80
PEOPLE = (1, 2, 3, 4, 5)
CLAIMS = (MeldKind.CHI, MeldKind.PONG, MeldKind.KONG)


@dataclass
class Seat:
    """One person's seat in one hand, recounted."""

    hand_id: int
    match_id: int
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


@dataclass
class Hand:
    hand_id: int
    match_id: int
    rules: str
    guild_id: int
    channel_id: int
    people: dict[int, int]
    """seat → the person credited with it."""
    seats: dict[int, Seat]


async def _rows(store: Store, sql: str, *params: Any) -> list[Any]:
    return list(await store._db.all(sql, params))


async def recount(store: Store) -> tuple[list[Hand], list[tuple[Any, ...]]]:
    """Every settled hand replayed with the engine, and every finished match's
    placements: (match_id, rules, guild, channel, {seat: person}, {seat: placement})."""
    hands: list[Hand] = []
    for h in await _rows(store, "SELECT h.*, m.table_id, t.rules, t.options, t.guild_id,"
                         " t.channel_id FROM hands h JOIN matches m ON m.id = h.match_id"
                         " JOIN game_tables t ON t.id = m.table_id WHERE h.status = 'ended'"
                         " ORDER BY h.id"):
        settled = {r["seat"]: Fraction(r["amount"]) for r in await _rows(
            store, "SELECT seat, amount FROM settlements WHERE hand_id = ?", h["id"])}
        if not settled:
            continue
        people = await _people(store, h["table_id"], h["match_id"], h["number"])
        left_at = {r["seat"]: r["seq"] for r in await _rows(
            store, "SELECT seat, seq FROM departures WHERE hand_id = ?", h["id"])}
        actions = await _rows(store, "SELECT * FROM actions WHERE hand_id = ? ORDER BY seq",
                              h["id"])
        state, _ = new_hand(h["rules"], json.loads(h["options"]), parse_wall(h["wall"]),
                            h["dealer"], (int(h["dice"][0]), int(h["dice"][2])),
                            streak=h["streak"], huangfan=h["huangfan"] > 0)
        seats = {s: Seat(h["id"], h["match_id"], s, settled.get(s, Fraction(0)))
                 for s in people}
        before = h["started_at"]
        for a in actions:
            state, events = apply(state, Action.from_json(json.loads(a["payload"])))
            seat = seats.get(a["seat"])
            theirs = seat is not None and a["seq"] <= left_at.get(a["seat"], 10**9)
            if seat is not None and theirs:
                if a["source"] == "player":
                    seat.moves += 1
                    took = a["at"] - before
                    seat.hist[next(i for i, b in enumerate(MOVE_BUCKETS) if took <= b)] += 1
                elif a["source"] == "timeout":
                    seat.timeouts += 1
                elif a["source"] == "computer":
                    seat.taken_over = True
            before = a["at"]
            for e in events:
                if isinstance(e, MeldDeclared) and e.meld.kind in CLAIMS \
                        and e.meld.from_seat is not None and e.seat in seats \
                        and a["seq"] <= left_at.get(e.seat, 10**9):
                    seats[e.seat].claims += 1
        result = state.result
        assert result is not None
        for seat in seats.values():
            seat.drawn = result.drawn
        for win in result.wins:
            if win.winner in seats:
                w = seats[win.winner]
                w.won, w.self_draw = True, win.from_seat is None
                w.won_from, w.value = win.from_seat, win.settlement.value
                w.patterns = win.settlement.patterns
            if win.from_seat is not None and win.from_seat in seats:
                loser = seats[win.from_seat]
                loser.dealt_in = True
                loser.deal_in_cost += -win.settlement.payments[win.from_seat]
        hands.append(Hand(h["id"], h["match_id"], h["rules"], h["guild_id"],
                          h["channel_id"], people, seats))
    matches = []
    for m in await _rows(store, "SELECT m.*, t.rules, t.guild_id, t.channel_id FROM matches m"
                         " JOIN game_tables t ON t.id = m.table_id"
                         " WHERE m.status = 'finished'"):
        totals = {int(s): Fraction(v) for s, v in json.loads(m["totals"]).items()}
        placed = {s: 1 + sum(1 for o in totals.values() if o > v) for s, v in totals.items()}
        people = await _people(store, m["table_id"], m["id"], 0)
        matches.append((m["id"], m["rules"], m["guild_id"], m["channel_id"], people, placed))
    return hands, matches


async def _people(store: Store, table_id: int, match_id: int, number: int) -> dict[int, int]:
    """Who is credited with each seat in hand ``number`` of the match (0: the match's
    placement: the person who sat first, whoever plays it out)."""
    people = {r["seat"]: r["user_id"] for r in await _rows(
        store, "SELECT seat, user_id FROM seats WHERE table_id = ?", table_id)
        if r["user_id"] is not None}
    for d in await _rows(store, "SELECT d.seat, d.user_id, h.number FROM departures d"
                         " JOIN hands h ON h.id = d.hand_id WHERE h.match_id = ?", match_id):
        if number == 0 or d["number"] >= number:
            people[d["seat"]] = d["user_id"]
        else:
            people.pop(d["seat"], None)  # left before this hand: the computer's
    return people


def _in(scope: str, guild: int, channel: int, where: Place) -> bool:
    return scope == "all" or (guild == where.guild_id and (
        scope == "server" or channel == where.channel_id))


def expected(user: int, rules: str, scope: str, where: Place, hands: list[Hand],
             matches: list[tuple[Any, ...]], versus: int | None) -> dict[str, Any]:
    mine = [(h, h.seats[s]) for h in hands for s, p in h.people.items()
            if p == user and h.rules == rules and _in(scope, h.guild_id, h.channel_id, where)]
    seats = [s for _, s in mine]
    n = len(seats)
    wins = [s for s in seats if s.won]
    deals = [s for s in seats if s.dealt_in]
    hist = [sum(s.hist[i] for s in seats) for i in range(len(MOVE_BUCKETS))]
    placed = [(m, m[5][s]) for m in matches for s, p in m[4].items()
              if p == user and m[1] == rules and _in(scope, m[2], m[3], where)]
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
        "matches": len(placed),
        "average_placement": sum(p for _, p in placed) / len(placed) if placed else None,
        "first_rate": sum(p == 1 for _, p in placed) / len(placed) if placed else None,
        "last_rate": sum(p == max(m[5].values()) for m, p in placed) / len(placed)
        if placed else None,
    }
    if versus is not None:
        together = [(h, h.seats[s], h.seats[o]) for h, s_ in mine for s in [s_.seat]
                    for o, p in h.people.items() if p == versus and o != s]
        games = [(m, p, m[5][o]) for m, p in placed for s, q in m[4].items() if q == user
                 for o, r in m[4].items() if r == versus and o != s]
        out["versus"] = (
            len(games), sum(p < q for _, p, q in games), sum(q < p for _, p, q in games),
            len(together), sum(a.won and a.won_from == b.seat for _, a, b in together),
            sum(b.won and b.won_from == a.seat for _, a, b in together),
            sum((a.points for _, a, _ in together), Fraction(0)),
            sum((b.points for _, _, b in together), Fraction(0)))
    return out


def shown(stats: PlayerStats) -> dict[str, Any]:
    out = {name: getattr(stats, name) for name in (
        "hands", "wins", "deal_ins", "win_rate", "self_draw_share", "deal_in_rate",
        "average_deal_in_cost", "average_win_value", "claims", "claim_rate", "drawn_rate",
        "moves", "median_move_s", "timeouts", "taken_over", "matches", "average_placement",
        "first_rate", "last_rate")}
    big = stats.biggest
    out["biggest"] = None if big is None else (big.value, Counter(big.patterns))
    v = stats.versus
    if v is not None:
        out["versus"] = (v.matches, v.ahead, v.behind, v.hands, v.won_off, v.lost_to,
                         v.points, v.their_points)
    return out


@pytest.fixture
async def played(world: World) -> World:
    rng = random.Random(31)
    seeded_deals(world.service, rng)
    svc, clock = world.service, world.clock
    games = [
        ((1, 2, 3, 4), GUILD, CHANNEL, "shanghai", 0, 0.0),
        ((1, 2, 3), GUILD, CHANNEL, "hangzhou", 1, 0.08),
        ((2, 3, 4, 5), GUILD, OTHER_CHANNEL, "shanghai", 0, 0.05),
        ((1, 5), GUILD, OTHER_CHANNEL, "hangzhou", 2, 0.0),
        ((1, 2, 3, 4), FOREIGN_GUILD, FOREIGN_CHANNEL, "shanghai", 0, 0.1),
        ((1, 3, 4, 5), GUILD, CHANNEL, "hangzhou", 0, 0.04),
    ]
    for i, (people, guild, channel, rules, computers, timeouts) in enumerate(games):
        await play_matches(svc, clock, rng, people=people, guild_id=guild,
                           channel_id=channel, rules=rules, hands=3, computers=computers,
                           timeouts=timeouts, leaves=0.02 if i in (2, 5) else 0.0)
    return world


async def test_every_figure_equals_a_recount_from_the_logs(played: World) -> None:
    store, svc = played.store, played.service
    hands, matches = await recount(store)
    assert any(s.taken_over for h in hands for s in h.seats.values())
    assert any(s.timeouts for h in hands for s in h.seats.values())
    assert any(s.claims for h in hands for s in h.seats.values())
    assert await _rows(store, "SELECT 1 FROM departures")
    checked = 0
    for where in (Place(GUILD, CHANNEL), Place(FOREIGN_GUILD, FOREIGN_CHANNEL)):
        for user in PEOPLE:
            for rules in ("shanghai", "hangzhou"):
                for scope in ("channel", "server", "all"):
                    versus = PEOPLE[(user % len(PEOPLE))]
                    got = await svc.player_stats(by(user, place=where), None, rules, scope,
                                                 versus)
                    want = expected(user, rules, scope, where, hands, matches, versus)
                    assert shown(got) == want, (user, rules, scope, where)
                    checked += got.hands
    assert checked > 100


async def test_the_default_rule_set_is_the_one_played_most(played: World) -> None:
    hands, _ = await recount(played.store)
    for user in PEOPLE:
        got = await played.service.player_stats(by(user, place=Place(GUILD, CHANNEL)),
                                                scope="server")
        counts = Counter(h.rules for h in hands for p in h.people.values()
                         if p == user and h.guild_id == GUILD)
        top = max(counts.values())
        assert counts[got.rules] == top and got.rules == min(
            r for r, c in counts.items() if c == top)
        assert set(got.other_rules) == set(counts) - {got.rules}
        assert get_rules(got.rules).name == got.rules
