"""Seasons (issue 31): a server manager closes the server's season, which archives
every channel's boards (all time stays), once; boards of a past season and of all time;
a season of another server is never shown."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from fractions import Fraction

import pytest

from bot.service import (
    FakeClock,
    Place,
    RecordingNotifier,
    Refused,
    Standings,
    TableService,
)
from bot.service import errors as E
from bot.service.fairness import Deal
from bot.service.results import SeasonClosed
from bot.store import Store
from tests.service.helpers import (
    ANN,
    BOB,
    CHANNEL,
    GUILD,
    HERE,
    QUIET,
    W,
    World,
    by,
    refused,
    stacked,
)

pytestmark = pytest.mark.usefixtures("dealer_zero")

HEAVENLY = {0: "123m456m789m123p55p", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
OTHER_GUILD, OTHER_CHANNEL = 8, 80
THERE = Place(OTHER_GUILD, OTHER_CHANNEL)


def _heavenly(rules: str, dealer: int) -> Deal:
    return stacked(HEAVENLY, rules)(rules, dealer)


async def _ann_wins(world: World, channel: int = CHANNEL) -> Fraction:
    """A table in ``channel`` where Ann wins the first hand (then cancelled): her win."""
    table = await world.table(channel=channel)
    await world.service.act(by(ANN), table, W(0), step=1)
    await world.service.cancel(by(ANN), table)
    won: Fraction = world.notes.of("settlement")[-1].totals[0]
    return won


def _points(board: Standings) -> dict[str, Fraction]:
    return {r.player_key: r.points for r in board.rows}


async def test_a_manager_closes_the_season_every_channel_archived_all_time_kept(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=_heavenly)
    svc = world.service
    first = await _ann_wins(world)
    await _ann_wins(world, CHANNEL + 1)  # another channel of the same server
    manager = by(BOB, manager=True, place=HERE)
    assert await svc.season_now(manager) == 1
    done = await svc.close_season(manager, 1)
    assert (done.closed, done.begun, done.archived) == (1, 2, 8)  # four people, two channels
    assert done.board.season == 1 and _points(done.board)[f"user:{ANN}"] == first
    assert await svc.season_now(manager) == 2
    now = await svc.leaderboard(CHANNEL, guild_id=GUILD)
    assert (now.season, now.current, now.rows) == (2, 2, ())
    assert (await svc.leaderboard(CHANNEL + 1, guild_id=GUILD)).rows == ()
    second = await _ann_wins(world)
    past = await svc.leaderboard(CHANNEL, guild_id=GUILD, season=1)
    assert past.season == 1 and _points(past)[f"user:{ANN}"] == first
    ever = await svc.leaderboard(CHANNEL, guild_id=GUILD, season="all")
    assert ever.season is None and ever.current == 2
    live = await svc.leaderboard(CHANNEL, guild_id=GUILD)
    for key, points in _points(ever).items():  # the archive and the live board, summed
        assert points == _points(past).get(key, 0) + _points(live).get(key, 0)
    assert _points(ever)[f"user:{ANN}"] == first + second


async def test_closing_twice_closes_once_and_only_a_manager_closes(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=_heavenly)
    svc = world.service
    await _ann_wins(world)
    await refused(E.NOT_MANAGER, svc.season_now(by(ANN, place=HERE)))
    await refused(E.NOT_MANAGER, svc.close_season(by(ANN, place=HERE), 1))
    assert (await svc.leaderboard(CHANNEL, guild_id=GUILD)).rows  # nothing changed
    manager = by(BOB, manager=True, place=HERE)
    await svc.close_season(manager, 1)
    said = await refused(E.SEASON_CLOSED, svc.close_season(manager, 1))  # the double click
    assert said.params["season"] == 1
    assert await svc.season_now(manager) == 2
    assert len((await svc.leaderboard(CHANNEL, guild_id=GUILD, season=1)).rows) == 4
    await refused(E.NO_TABLE, svc.close_season(by(BOB, manager=True,
                                                  place=Place(None, 5)), 2))  # a DM


async def test_a_season_of_another_server_is_never_shown(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=_heavenly)
    svc = world.service
    await _ann_wins(world)
    await svc.close_season(by(BOB, manager=True, place=HERE), 1)
    # another server: still in its season 1; a manager there closes nothing here
    there = by(BOB, manager=True, place=THERE)
    assert await svc.season_now(there) == 1
    said = await refused(E.NO_SEASON, svc.leaderboard(OTHER_CHANNEL, guild_id=OTHER_GUILD,
                                                      season=2))
    assert dict(said.params) == {"season": 2, "current": 1}
    assert (await svc.leaderboard(CHANNEL, guild_id=OTHER_GUILD, season=1)).rows == ()
    # our channel asked as if of the other server: nothing of ours
    assert (await svc.leaderboard(CHANNEL, guild_id=OTHER_GUILD, season="all")).rows == ()
    await svc.close_season(there, 1)
    assert len((await svc.leaderboard(CHANNEL, guild_id=GUILD, season=1)).rows) == 4
    assert await svc.season_now(by(BOB, manager=True, place=HERE)) == 2
    await refused(E.NO_SEASON, svc.leaderboard(CHANNEL, guild_id=GUILD, season=3))
    await refused(E.NO_SEASON, svc.leaderboard(CHANNEL, guild_id=GUILD, season=0))


async def test_computers_never_rank_in_any_season(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=_heavenly)
    svc = world.service
    table = await world.table((ANN, BOB), computers=2)
    await svc.act(by(ANN), table, W(0), step=1)
    await svc.cancel(by(ANN), table)
    boards = [await svc.leaderboard(CHANNEL, guild_id=GUILD)]
    await svc.close_season(by(BOB, manager=True, place=HERE), 1)
    boards += [await svc.leaderboard(CHANNEL, guild_id=GUILD, season=1),
               await svc.leaderboard(CHANNEL, guild_id=GUILD, season="all")]
    for board in boards:
        assert set(_points(board)) == {f"user:{ANN}", f"user:{BOB}"}


async def test_two_processes_close_a_season_once(pg_url: str) -> None:
    """Shared mode on PostgreSQL: the same confirmation pressed twice, each press served
    by another process at the same moment: one closes, the other is told it is closed."""
    stores = [await Store.open(pg_url) for _ in range(2)]
    try:
        clock, notes = FakeClock(), RecordingNotifier()
        services = [TableService(s, notes, clock=clock, shared=True, computer_pause=0.0,
                                 deal=_heavenly) for s in stores]
        world = World(stores[0], clock, notes, services[0])
        await _ann_wins(world)
        manager = by(BOB, manager=True, place=HERE)
        done = await asyncio.gather(*(s.close_season(manager, 1) for s in services),
                                    return_exceptions=True)
        closed = [d for d in done if isinstance(d, SeasonClosed)]
        told = [d for d in done if isinstance(d, Refused)]
        assert len(closed) == 1 and len(told) == 1 and told[0].code == E.SEASON_CLOSED
        assert closed[0].archived == 4
        for service in services:
            assert await service.season_of(GUILD) == 2
        assert len((await services[1].leaderboard(CHANNEL, guild_id=GUILD, season=1)).rows) \
            == 4
    finally:
        for store in stores:
            await store.close()
