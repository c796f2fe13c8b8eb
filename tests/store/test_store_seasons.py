"""Seasons (0027): closing a server's season archives every channel board of that
server and clears it, once; past seasons and all time read back exactly, never a
computer, never another server's."""

from __future__ import annotations

import asyncio
from fractions import Fraction
from pathlib import Path

from bot.store import LeaderboardDelta, Store
from bot.store.rows import HandFact
from bot.store.seasons import SeasonClose
from tests.store.helpers import CHANNEL, GUILD, Game, NewGame

SH, HZ = "shanghai", "hangzhou"
G, OTHER = 1, 2


def d(key: str, name: str, points: Fraction, won: int = 0, played: int = 1,
      value: int | None = None) -> LeaderboardDelta:
    return LeaderboardDelta(key, name, points, won, played, 0, value,
                            None if value is None else f"best {value}")


async def test_a_server_starts_in_season_1_and_closing_archives_every_channel(
        store: Store) -> None:
    assert await store.seasons.current(G) == 1
    await store.leaderboard.apply(G, 10, SH, [d("user:1", "Ann", Fraction(1, 3), 1, 2, 8),
                                              d("computer:2", "Bot", Fraction(5))])
    await store.leaderboard.apply(G, 11, HZ, [d("user:2", "Bo", Fraction(-2))])
    await store.leaderboard.apply(OTHER, 20, SH, [d("user:1", "Ann", Fraction(7))])
    done = await store.seasons.close(G, 1, by=99, at=500.0)
    assert done == SeasonClose(1, 2, 3)
    assert await store.seasons.current(G) == 2 and await store.seasons.current(OTHER) == 1
    assert await store.leaderboard.top(10, SH) == [] and await store.leaderboard.top(11, HZ) == []
    assert [r.points for r in await store.leaderboard.top(20, SH)] == [7]  # another server's
    [ann] = await store.seasons.archived_top(G, 10, 1, SH)
    assert (ann.display_name, ann.points, ann.hands_won, ann.hands_played,
            ann.best_hand_value) == ("Ann", Fraction(1, 3), 1, 2, 8)  # no computer
    assert [r.display_name for r in await store.seasons.archived_top(G, 11, 1, HZ)] == ["Bo"]
    assert await store.seasons.archived_top(OTHER, 10, 1, SH) == []  # judged in place
    assert await store.seasons.archived_rules(G, 10, 1) == [SH]
    [closed] = await store.seasons.closed(G)
    assert (closed.number, closed.started_at, closed.closed_at, closed.closed_by) == (
        1, None, 500.0, 99)
    second = await store.seasons.get(G, 2)
    assert second is not None and second.started_at == 500.0 and second.closed_at is None


async def test_closing_twice_closes_once(store: Store) -> None:
    await store.leaderboard.apply(G, 10, SH, [d("user:1", "Ann", Fraction(1))])
    assert await store.seasons.close(G, 1, by=9, at=1.0) is not None
    await store.leaderboard.apply(G, 10, SH, [d("user:1", "Ann", Fraction(2))])
    assert await store.seasons.close(G, 1, by=9, at=2.0) is None  # the second press
    assert [r.points for r in await store.leaderboard.top(10, SH)] == [2]
    assert await store.seasons.current(G) == 2
    assert await store.seasons.close(G, 3, by=9, at=3.0) is None  # no such open season
    assert await store.seasons.current(G) == 2


async def test_two_closes_at_once_close_once(store: Store, database: Path | str) -> None:
    await store.leaderboard.apply(G, 10, SH, [d("user:1", "Ann", Fraction(1))])
    other = await Store.open(database)
    try:
        results = await asyncio.gather(store.seasons.close(G, 1, by=1, at=1.0),
                                       other.seasons.close(G, 1, by=2, at=1.0))
    finally:
        await other.close()
    assert sorted(r is None for r in results) == [False, True]
    assert await store.seasons.current(G) == 2
    assert len(await store.seasons.archived_top(G, 10, 1, SH)) == 1


async def test_all_time_sums_the_archive_and_the_live_board_exactly(store: Store) -> None:
    await store.leaderboard.apply(G, 10, SH, [d("user:1", "Ann", Fraction(1, 3), 1, 1, 8),
                                              d("user:2", "Bo", Fraction(1))])
    await store.seasons.close(G, 1, by=9, at=1.0)
    await store.leaderboard.apply(G, 10, SH, [d("user:1", "Ann B", Fraction(1, 6), 2, 3, 5),
                                              d("computer:1", "Bot", Fraction(100))])
    await store.seasons.close(G, 2, by=9, at=2.0)
    await store.leaderboard.apply(G, 10, SH, [d("user:1", "Ann C", Fraction(1, 7), 0, 1, 12),
                                              d("user:3", "Cy", Fraction(-1))])
    await store.leaderboard.apply(OTHER, 30, SH, [d("user:1", "Ann", Fraction(50))])
    rows = await store.seasons.all_time(G, 10, SH)
    assert [r.display_name for r in rows] == ["Bo", "Ann C", "Cy"]  # no computer
    ann = rows[1]
    assert ann.points == Fraction(1, 3) + Fraction(1, 6) + Fraction(1, 7)
    assert (ann.hands_won, ann.hands_played, ann.best_hand_value, ann.best_hand_desc) == (
        3, 5, 12, "best 12")
    # every season's lines and the live line add up to the all-time line
    seasons = [await store.seasons.archived_top(G, 10, n, SH) for n in (1, 2)]
    live = await store.leaderboard.top(10, SH)
    for person in rows:
        parts = [r.points for board in [*seasons, live] for r in board
                 if r.player_key == person.player_key]
        assert sum(parts, Fraction(0)) == person.points


# ---- the weekly recap's store (recaps, recaps_posted, the week's figures) -------------

WEEK_START, WEEK_END = 1_000_000.0, 1_000_000.0 + 7 * 86400


def fact(game: Game, seat: int, user: int | None, *, at: float, won: bool = False,
         value: int | None = None, patterns: tuple[str, ...] = (), rules: str = SH,
         hand_id: int | None = None) -> HandFact:
    return HandFact(hand_id or game.hand.id, seat, game.match.id, game.table.id,
                    game.table.guild_id, game.table.channel_id, rules, 1, user, at,
                    Fraction(0), won=won, win_value=value, patterns=patterns)


async def test_a_recap_is_set_per_channel_and_a_week_is_decided_once(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    assert await store.recaps.get(CHANNEL) is None
    row = await store.recaps.set(CHANNEL, GUILD, True, at=5.0)
    assert (row.enabled, row.since) == (True, 5.0)
    assert (await store.recaps.set(CHANNEL, GUILD, True, at=9.0)).since == 5.0  # still on
    assert [r.channel_id for r in await store.recaps.due("1970-W02")] == [CHANNEL]
    facts = {"week": "1970-W02", "hands": 1}
    assert await store.recaps.post(CHANNEL, "1970-W02", at=10.0, table_id=game.table.id,
                                   number=197002, facts=facts)
    assert not await store.recaps.post(CHANNEL, "1970-W02", at=11.0, table_id=game.table.id,
                                       number=197002, facts=facts)  # once
    [told] = [a for a in await store.outbox.of_table(game.table.id) if a.kind == "recap"]
    assert (told.facts, told.key, told.hand_id) == (facts, f"recap-{game.table.id}-197002",
                                                    None)
    assert await store.recaps.due("1970-W02") == []
    # a quiet week: decided, nothing told
    assert await store.recaps.post(CHANNEL, "1970-W03", at=12.0, table_id=None, number=197003,
                                   facts=None)
    assert await store.recaps.posted(CHANNEL) == ["1970-W02", "1970-W03"]
    assert len([a for a in await store.outbox.of_table(game.table.id)
                if a.kind == "recap"]) == 1
    off = await store.recaps.set(CHANNEL, GUILD, False, at=20.0)
    assert not off.enabled and await store.recaps.due("1970-W09") == []


async def test_two_writers_decide_a_week_once(store: Store, database: Path | str,
                                              new_game: NewGame) -> None:
    game = await new_game()
    other = await Store.open(database)
    try:
        done = await asyncio.gather(*(s.recaps.post(CHANNEL, "1970-W02", at=1.0,
                                                    table_id=game.table.id, number=197002,
                                                    facts={"n": i})
                                      for i, s in enumerate((store, other))))
    finally:
        await other.close()
    assert sorted(done) == [False, True]
    assert len([a for a in await store.outbox.of_table(game.table.id)
                if a.kind == "recap"]) == 1


async def test_the_week_s_figures_are_the_channel_s_people_s(
        store: Store, new_game: NewGame) -> None:
    a = await new_game(users=(1, 2, 3))
    b = await new_game(users=(1, 2, 3))
    elsewhere = await new_game(CHANNEL + 1, users=(1, 2, 3))
    at = WEEK_START + 100
    await store.facts.write([
        fact(a, 0, 1, at=at, won=True, value=40, patterns=("qing_yi_se",)),
        fact(a, 1, 2, at=at), fact(a, 2, 3, at=at), fact(a, 3, None, at=at),
        fact(b, 0, 1, at=at + 50), fact(b, 1, 2, at=at + 50),
        fact(b, 2, 3, at=at + 50, won=True, value=40),  # as big, later: Ann's stands
        fact(b, 3, None, at=at + 50, won=True, value=99),  # a computer's: never named
        fact(elsewhere, 1, 2, at=at, won=True, value=500),  # another channel
    ])
    # a hand of the week before, and one of the next
    c = await new_game(users=(1, 2, 3))
    await store.facts.write([fact(c, 1, 2, at=WEEK_START - 1, won=True, value=900),
                             fact(c, 2, 3, at=WEEK_END, won=True, value=900)])
    week = await store.recaps.week(CHANNEL, WEEK_START, WEEK_END)
    assert week.hands == 2
    [big] = week.biggest
    assert (big.user_id, big.value, big.patterns, big.rules) == (1, 40, ("qing_yi_se",), SH)
    assert week.most_hands == (1, 2)  # three people played 2, Ann first
    assert week.names == {1: "P1"}
    assert week.table_id == b.table.id
    assert {a.match.id, b.match.id, c.match.id} <= week.matches
    assert elsewhere.match.id not in week.matches
    empty = await store.recaps.week(CHANNEL, WEEK_END + 86400, WEEK_END + 2 * 86400)
    assert (empty.hands, empty.biggest, empty.most_hands, empty.table_id) == (0, (), None,
                                                                             None)
