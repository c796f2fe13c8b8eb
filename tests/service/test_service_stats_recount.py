"""Every figure of ``/mahjong stats`` against a recount from the logs by another path.

People play matches of both rule sets through the service (with computers, timeouts,
away takeovers and a person leaving mid-match, in two channels of one server and in a
foreign server); then each person's figures, read from the facts the settlements wrote,
are compared with a recount that replays every stored hand with the engine (its wins,
deal-ins, claims, drawn hands and values) and reads the stored settlements, matches,
actions and departures directly (`bench.stats_recount`) — for each person, rule set and
scope, and each pair of people head to head."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from bench.stats_play import play_matches, seeded_deals
from bench.stats_recount import figures, finished_matches, replay_hands
from bot.service import Place
from bot.service.stats import PlayerStats
from bot.store.stats import Scope
from tests.service.helpers import World, by

GUILD, CHANNEL, OTHER_CHANNEL, FOREIGN_GUILD, FOREIGN_CHANNEL = 7, 70, 71, 8, 80
PEOPLE = (1, 2, 3, 4, 5)


def shown(stats: PlayerStats) -> dict[str, Any]:
    """The card's figures, as the recount names them."""
    out = {name: getattr(stats, name) for name in (
        "hands", "wins", "deal_ins", "win_rate", "self_draw_share", "deal_in_rate",
        "average_deal_in_cost", "average_win_value", "claims", "claim_rate", "drawn_rate",
        "moves", "median_move_s", "timeouts", "taken_over", "matches", "average_placement",
        "first_rate", "last_rate")}
    big = stats.biggest
    out["biggest"] = None if big is None else (big.value, Counter(big.patterns))
    out["marks"] = {k: v for k, v in stats.marks if v}
    v = stats.versus
    if v is not None:
        out["versus"] = (v.matches, v.ahead, v.behind, v.hands, v.won_off, v.lost_to,
                         v.points, v.their_points)
    return out


@pytest.fixture(params=[31, 4])
async def played(world: World, request: pytest.FixtureRequest,
                 monkeypatch: pytest.MonkeyPatch) -> World:
    rng = random.Random(request.param)
    seeded_deals(world.service, rng)
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: rng.randrange(4))
    games = [
        ((1, 2, 3, 4), GUILD, CHANNEL, "shanghai", 0, 0.0),
        ((1, 2, 3), GUILD, CHANNEL, "hangzhou", 1, 0.4),
        ((2, 3, 4, 5), GUILD, OTHER_CHANNEL, "shanghai", 0, 0.05),
        ((1, 5), GUILD, OTHER_CHANNEL, "hangzhou", 2, 0.0),
        ((1, 2, 3, 4), FOREIGN_GUILD, FOREIGN_CHANNEL, "shanghai", 0, 0.1),
        ((1, 3, 4, 5), GUILD, CHANNEL, "hangzhou", 0, 0.04),
    ]
    for i, (people, guild, channel, rules, computers, timeouts) in enumerate(games):
        await play_matches(world.service, world.clock, rng, people=people, guild_id=guild,
                           channel_id=channel, rules=rules, hands=3, computers=computers,
                           timeouts=timeouts, leaves=0.05 if i in (1, 2, 5) else 0.0,
                           asleep=(3,) if i == 1 else ())
    return world


async def test_every_figure_equals_a_recount_from_the_logs(played: World) -> None:
    store, svc = played.store, played.service
    hands = await replay_hands(store)
    matches = await finished_matches(store)
    seats = [s for h in hands for s in h.seats.values()]
    assert any(s.timeouts for s in seats), "a timeout"
    assert any(s.taken_over for s in seats), "away: the computer played for a person"
    assert any(s.claims for s in seats) and any(s.dealt_in for s in seats)
    assert any(s.marks for s in seats), "a rule set's own figure"
    assert await store._db.all("SELECT 1 FROM departures")
    checked = 0
    for where in (Place(GUILD, CHANNEL), Place(FOREIGN_GUILD, FOREIGN_CHANNEL)):
        assert where.guild_id is not None
        for user in PEOPLE:
            versus = PEOPLE[user % len(PEOPLE)]
            for rules in ("shanghai", "hangzhou"):
                for kind, scope in (("channel", Scope("channel", where.guild_id,
                                                      where.channel_id)),
                                    ("server", Scope("server", where.guild_id)),
                                    ("all", Scope("all"))):
                    got = await svc.player_stats(by(user, place=where), None, rules, kind,
                                                 versus)
                    want = figures(user, rules, scope, hands, matches, versus)
                    assert shown(got) == want, (user, rules, kind, where)
                    checked += got.hands
    assert checked > 100
    # the rating of the server asked in (a match without computers is rated)
    rated = await svc.player_stats(by(1, place=Place(GUILD, CHANNEL)), None, "shanghai")
    assert rated.rating is not None and rated.rating.provisional
    assert rated.rating == (await store.ratings.shown(GUILD, "shanghai", [1]))[1]


async def test_the_default_rule_set_is_the_one_played_most(played: World) -> None:
    hands = await replay_hands(played.store)
    for user in PEOPLE:
        got = await played.service.player_stats(by(user, place=Place(GUILD, CHANNEL)),
                                                scope="server")
        counts = Counter(h.rules for h in hands for p in h.people.values()
                         if p == user and h.guild_id == GUILD)
        top = max(counts.values())
        assert got.rules == min(r for r, c in counts.items() if c == top)
        assert set(got.other_rules) == set(counts) - {got.rules}
