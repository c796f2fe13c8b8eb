"""The ratings' projection (0027) on both backends: a finished match taken once and in
order, computers never rated, a match that arrives late replayed into place, the rebuild
equal to the incremental result, the start-up's formula check done once, and another
server's ratings never read nor changed."""

from __future__ import annotations

import asyncio
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bot.service.ratings import FORMULA, PlackettLuceFormula, shown_of
from bot.store import MatchFact, Store
from bot.store import ratings as ratings_store
from bot.store.ratings import SETTING
from tests.store.helpers import CHANNEL, GUILD, Game, NewGame

TABLES = ("ratings", "rating_changes", "rated_matches", "rating_cursors")


async def dump(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row the ratings keep, in key order."""
    keys = {"ratings": "guild_id, rules, user_id", "rating_changes": "match_id, user_id",
            "rated_matches": "match_id", "rating_cursors": "guild_id, rules"}
    out = {}
    for t in TABLES:
        rows = await store._db.all(f"SELECT * FROM {t} ORDER BY {keys[t]}")
        out[t] = [tuple(r[column] for column in list(r.keys())) for r in rows]
    return out


class Matches:
    """Finished matches written as the facts projection writes them."""

    def __init__(self, store: Store, new_game: NewGame) -> None:
        self.store = store
        self.new_game = new_game
        self.made = 0

    async def finish(self, people: tuple[int | None, ...], places: tuple[int, ...], *,
                     at: float, guild_id: int = GUILD, rules: str = "shanghai",
                     computers: int | None = None) -> Game:
        """A match of these seats (None: a computer) with these placements, ended at
        ``at``; its facts written (not rated)."""
        self.made += 1
        game = await self.new_game(CHANNEL + self.made, guild_id=guild_id, rules=rules)
        never = sum(1 for p in people if p is None) if computers is None else computers
        await self.store.facts.write([], [
            MatchFact(game.match.id, seat, game.table.id, guild_id, CHANNEL + self.made,
                      rules, user, at, place, Fraction(10 - place), 8, never)
            for seat, (user, place) in enumerate(zip(people, places, strict=True))])
        return game


async def test_a_finished_match_is_rated_once_and_a_computer_never(
        store: Store, new_game: NewGame) -> None:
    matches = Matches(store, new_game)
    game = await matches.finish((1, 2, 3, None), (1, 2, 2, 4), at=500.0)
    assert await store.ratings.project(game.match.id, FORMULA) is True
    shown = await store.ratings.shown(GUILD, "shanghai", [1, 2, 3, 4, 99])
    assert sorted(shown) == [1, 2, 3]  # the computer seat has no user; nobody else played
    assert shown[1].shown > shown[2].shown == shown[3].shown
    assert all(r.matches == 1 and r.provisional for r in shown.values())
    assert shown[1].shown == shown_of(shown[1].mu, shown[1].sigma)
    changes = await store.ratings.of_match(game.match.id)
    assert [c.user_id for c in changes] == [1, 2, 3]
    assert all(c.shown_before == 1000 and c.at == 500.0 for c in changes)
    before = await dump(store)
    assert await store.ratings.project(game.match.id, FORMULA) is False  # never twice
    assert await dump(store) == before


async def test_two_computers_a_cancelled_match_and_a_departed_person(
        store: Store, new_game: NewGame) -> None:
    matches = Matches(store, new_game)
    two = await matches.finish((1, 2, None, None), (1, 2, 3, 4), at=500.0)
    assert await store.ratings.project(two.match.id, FORMULA) is True  # taken, not rated
    assert await store.ratings.shown(GUILD, "shanghai", [1, 2]) == {}
    assert (await dump(store))["rated_matches"][0][-1] == 0
    # a match with no facts (abandoned, or not over) is not taken at all
    abandoned = await new_game(CHANNEL + 50)
    assert await store.ratings.project(abandoned.match.id, FORMULA) is False
    assert len((await dump(store))["rated_matches"]) == 1
    # a person who left: the facts credit the seat to them (never a computer seat)
    left = await matches.finish((1, 2, 3, None), (4, 1, 2, 3), at=600.0)
    await store.ratings.project(left.match.id, FORMULA)
    assert (await store.ratings.shown(GUILD, "shanghai", [1]))[1].shown < 1000


async def test_provisional_until_ten_matches(store: Store, new_game: NewGame) -> None:
    matches = Matches(store, new_game)
    for n in range(10):
        game = await matches.finish((1, 2, 3, 4), (1, 2, 3, 4), at=100.0 + n)
        await store.ratings.project(game.match.id, FORMULA)
        rating = (await store.ratings.shown(GUILD, "shanghai", [1]))[1]
        assert rating.matches == n + 1 and rating.provisional == (n < 9)


async def test_a_match_arriving_after_a_later_one_is_replayed_into_place(
        store: Store, new_game: NewGame) -> None:
    matches = Matches(store, new_game)
    early = await matches.finish((1, 2, 3, None), (1, 2, 3, 4), at=100.0)
    late = await matches.finish((1, 2, 3, None), (3, 2, 1, 4), at=200.0)
    await store.ratings.project(late.match.id, FORMULA)
    await store.ratings.project(early.match.id, FORMULA)  # committed late by its process
    arrived = await dump(store)
    rebuilt = await store.ratings.rebuild(FORMULA)
    assert rebuilt.matches == 2 and rebuilt.rated == 2 and rebuilt.moved == ()
    assert await dump(store) == arrived
    assert [c.match_id for c in await store.ratings.changes_between(GUILD, 0.0, 1e9)] == [
        early.match.id] * 3 + [late.match.id] * 3


@pytest.mark.parametrize("copy_from", [200, 1])
async def test_the_rebuild_equals_the_incremental_result(
        store: Store, new_game: NewGame, monkeypatch: pytest.MonkeyPatch,
        copy_from: int) -> None:
    """Also with every insert of the replay by COPY (PostgreSQL; a rebuild's many rows)."""
    monkeypatch.setattr(ratings_store, "_COPY_FROM", copy_from)
    matches = Matches(store, new_game)
    seatings = [((1, 2, 3, None), (1, 2, 3, 4)), ((4, 2, 1, 3), (2, 2, 1, 4)),
                ((1, None, None, 2), (1, 2, 3, 4)), ((3, 1, 4, 2), (4, 3, 2, 1)),
                ((2, 3, 4, None), (1, 1, 3, 4))]
    games = []
    for n, (people, places) in enumerate(seatings * 3):
        # same-time ends: match ids decide; one rule set beside the other
        games.append(await matches.finish(people, places, at=100.0 + n // 2,
                                          rules="hangzhou" if n % 4 == 3 else "shanghai"))
    for game in games:
        await store.ratings.project(game.match.id, FORMULA)
    incremental = await dump(store)
    rebuilt = await store.ratings.rebuild(FORMULA, GUILD)
    assert rebuilt.moved == () and rebuilt.matches == len(games)
    assert rebuilt.rated == len(games) - 3  # the ones with two computers
    assert await dump(store) == incremental


async def test_another_servers_ratings_are_never_read_nor_changed(
        store: Store, new_game: NewGame) -> None:
    matches = Matches(store, new_game)
    mine = await matches.finish((1, 2, 3, None), (1, 2, 3, 4), at=100.0)
    theirs = await matches.finish((1, 2, 3, None), (4, 3, 2, 1), at=150.0,
                                  guild_id=GUILD + 1)
    for game in (mine, theirs):
        await store.ratings.project(game.match.id, FORMULA)
    assert (await store.ratings.shown(GUILD, "shanghai", [1]))[1].shown > 1000
    assert (await store.ratings.shown(GUILD + 1, "shanghai", [1]))[1].shown < 1000
    assert {c.match_id for c in await store.ratings.changes_between(GUILD, 0, 1e9)} == {
        mine.match.id}
    theirs_before = [r for r in (await dump(store))["ratings"] if r[0] == GUILD + 1]
    # a rebuild of one server under another formula moves its ratings alone
    other = PlackettLuceFormula(name="test-2", start=FORMULA.start.__class__(30.0, 5.0))
    rebuilt = await store.ratings.rebuild(other, GUILD)
    assert {m.guild_id for m in rebuilt.moved} == {GUILD} and len(rebuilt.moved) == 3
    assert [r for r in (await dump(store))["ratings"] if r[0] == GUILD + 1] == theirs_before


async def test_changes_between_is_half_open_and_per_server(store: Store,
                                                          new_game: NewGame) -> None:
    matches = Matches(store, new_game)
    games = [await matches.finish((1, 2, 3, None), (1, 2, 3, 4), at=at)
             for at in (100.0, 200.0, 300.0)]
    for game in games:
        await store.ratings.project(game.match.id, FORMULA)
    got = await store.ratings.changes_between(GUILD, 200.0, 300.0)
    assert {c.match_id for c in got} == {games[1].match.id} and len(got) == 3
    assert await store.ratings.changes_between(GUILD + 1, 0.0, 1e9) == []
    first = next(c for c in got if c.user_id == 1)
    assert first.shown_before < first.shown_after


async def test_start_rebuilds_once_for_a_new_formula_and_catches_up(
        store: Store, new_game: NewGame) -> None:
    matches = Matches(store, new_game)
    first = await matches.finish((1, 2, 3, None), (1, 2, 3, 4), at=100.0)
    rebuilt = await store.ratings.start(FORMULA, at=1000.0)  # never set: everything rated
    assert rebuilt is not None and rebuilt.matches == 1 and len(rebuilt.moved) == 3
    assert await store.lobby.setting(SETTING) == FORMULA.name
    assert await store.ratings.start(FORMULA, at=1001.0) is None  # once
    # a match whose rating was lost (written before the ratings, or facts rebuilt)
    second = await matches.finish((1, 2, 3, None), (2, 1, 3, 4), at=200.0)
    assert await store.ratings.start(FORMULA, at=1002.0) is None
    assert {c.match_id for c in await store.ratings.changes_between(GUILD, 0, 1e9)} == {
        first.match.id, second.match.id}
    caught_up = await dump(store)
    await store.ratings.rebuild(FORMULA)
    assert await dump(store) == caught_up
    other = PlackettLuceFormula(name="test-2")  # same numbers, another name: rebuilt
    again = await store.ratings.start(other, at=1003.0)
    assert again is not None and again.moved == () and again.matches == 2
    assert await store.lobby.setting(SETTING) == "test-2"


async def test_two_processes_rate_one_servers_matches_once_and_in_order(
        store: Store, new_game: NewGame, database: Path | str) -> None:
    """Two connections (two processes) taking the same matches at once, in opposite
    orders: every match is taken once, and the ratings are those of a replay in order."""
    matches = Matches(store, new_game)
    games = [await matches.finish((1, 2, 3, None), places, at=100.0 + n)
             for n, places in enumerate([(1, 2, 3, 4), (4, 3, 2, 1), (2, 1, 1, 4)] * 3)]
    other = await Store.open(database)
    try:
        ids = [g.match.id for g in games]
        await asyncio.gather(*(store.ratings.project(i, FORMULA) for i in ids),
                             *(other.ratings.project(i, FORMULA) for i in reversed(ids)))
        both = await dump(store)
        assert len(both["rated_matches"]) == len(ids)
        assert len(both["rating_changes"]) == 3 * len(ids)
        await store.ratings.rebuild(FORMULA)
        assert await dump(store) == both
        # two processes starting under a new formula: it is rebuilt once
        renamed = PlackettLuceFormula(name="test-3")
        started = await asyncio.gather(store.ratings.start(renamed, at=1.0),
                                       other.ratings.start(renamed, at=1.0))
        assert sorted(s is None for s in started) == [False, True]
        assert await dump(store) == both
    finally:
        await other.close()
