"""Matches played by people through the real table service, for the stats bench and the
stats tests: every person's move is the computer player's choice, made by the person
(`TableService.act`), after a think of their own on the fake clock; now and then a
person lets their timer run out (a timeout; three in a row and the computer plays for
them, away) or leaves the match (the computer takes the seat over, a departure kept).
Deterministic for a seed (the walls are the service's own shuffle, seeded here).

    ids = await play_matches(service, clock, rng, people=(1, 2, 3, 4), guild_id=7,
                             channel_id=70, rules="hangzhou", hands=2)
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

from bot.service import Cause, FakeClock, Place, TableService
from bot.service.fairness import Deal, deal_of
from engine import rules as rulesets
from engine.ai import choose_action
from engine.game import deciding_seats


def seeded_deals(service: TableService, rng: random.Random) -> None:
    """Walls shuffled from ``rng`` instead of `secrets` (a bench and a test repeat)."""
    def deal(rules: str, dealer: int) -> Deal:
        wall = rulesets.get(rules).tile_set()
        rng.shuffle(wall)
        return deal_of(tuple(wall))
    service.deal = deal


async def play_matches(service: TableService, clock: FakeClock, rng: random.Random, *,
                       people: Sequence[int], guild_id: int, channel_id: int, rules: str,
                       hands: int = 2, computers: int = 0, timeouts: float = 0.0,
                       leaves: float = 0.0, think: tuple[float, float] = (5.0, 4 * 3600.0),
                       asleep: Collection[int] = ()) -> int:
    """One match at a new table of ``people`` (and ``computers``) in the channel, played
    to its end; its table id. ``timeouts``: the chance a person lets a decision time
    out; ``leaves``: the chance, at each of their turns, that a person leaves the match
    (at most one a match); ``asleep``: people who never answer (their timers play for
    them until the computer takes their seat over, away)."""
    place = Place(guild_id, channel_id)

    def cause(user: int) -> Cause:
        return Cause(user, f"P{user}", place=place)

    info = await service.create_table(cause(people[0]), guild_id=guild_id,
                                      channel_id=channel_id, rules=rules,
                                      options={"hands": hands})
    table_id = info.ref.table_id
    for user in people[1:]:
        await service.join(cause(user), table_id)
    for _ in range(computers):
        await service.add_computer(cause(people[0]), table_id)
    await service.start(cause(people[0]), table_id)
    left = False
    for _ in range(100_000):
        await _settle(service)
        info = await service.table_info(table_id)
        if info.status != "playing":
            return table_id
        live = service.tables.loaded.get(table_id)
        if live is None or live.hand is None:
            clock.advance(60.0)
            continue
        state = live.hand.state
        moved = False
        for seat in deciding_seats(state):
            row = live.seats[seat]
            if row is None or row.user_id is None or row.away:
                continue
            if not left and leaves and rng.random() < leaves:
                left = True
                await _leave(service, cause(row.user_id), table_id)
                moved = True
                break
            if row.user_id in asleep or (timeouts and rng.random() < timeouts):
                continue  # this person lets it run out
            clock.advance(rng.uniform(*think))
            action = choose_action(state, seat, rng)
            await service.act(cause(row.user_id), table_id, action)
            moved = True
            break  # the state moved on: look again
        if not moved:
            clock.advance(13 * 3600.0)  # past any timer: the timeouts fire
    raise AssertionError(f"table {table_id} never finished")


async def _settle(service: TableService) -> None:
    for _ in range(10_000):
        if not await service.run_due():
            return
    raise AssertionError("the scheduler never settled")


async def _leave(service: TableService, cause: Cause, table_id: int) -> None:
    """Leave mid-match, agreeing to what it costs."""
    from bot.service import Refused

    try:
        await service.leave(cause, table_id)
    except Refused as asked:
        await service.leave(cause, table_id, agreed=asked.params["penalty"])
