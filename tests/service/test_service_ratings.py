"""``/mahjong ratings rebuild`` in the service: a server manager rebuilds the ratings of
the server they asked in, and only those; anyone else, or a private message, is refused
with its own sentence and nothing changes. The start-up rebuilds under a new formula,
once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from fractions import Fraction

import pytest

from bot.service import Place
from bot.service import errors as E
from bot.service.fairness import Deal
from bot.service.ratings import FORMULA, PlackettLuceFormula
from bot.store import MatchFact, Placed, Skill
from bot.store.ratings import SETTING
from tests.service.helpers import (
    ANN,
    BOB,
    CHANNEL,
    CID,
    DEE,
    GUILD,
    HERE,
    QUIET,
    W,
    World,
    by,
    refused,
    stacked,
)

ELSEWHERE = Place(GUILD + 1, 71)


async def finished(world: World, guild: int, at: float,
                   people: tuple[int | None, ...] = (ANN, BOB, CID, None)) -> int:
    """A match of ``guild`` finished at ``at`` as the facts record it (not rated yet):
    its match id. Its table is a lobby's, never started: the facts are what is rated."""
    info = await world.service.create_table(by(ANN), guild_id=guild, channel_id=guild * 10,
                                            rules="shanghai")
    table = info.ref.table_id
    match = await world.store.matches.create(table, first_dealer=0, at=at - 1)
    await world.store.facts.write([], [
        MatchFact(match.id, seat, table, guild, guild * 10, "shanghai", user, at, seat + 1,
                  Fraction(3 - seat), 1, sum(p is None for p in people))
        for seat, user in enumerate(people)])
    await world.service.cancel(by(ANN), table)  # the lobby goes; the facts stay
    return match.id


async def test_only_a_manager_of_the_server_rebuilds_it(world: World) -> None:
    mine = await finished(world, GUILD, 100.0)
    theirs = await finished(world, GUILD + 1, 100.0, (ANN, DEE, None, BOB))
    for match in (mine, theirs):
        await world.store.ratings.project(match, FORMULA)
    before = await world.store.ratings.shown(GUILD, "shanghai", [ANN, BOB, CID])
    theirs_before = await world.store.ratings.shown(GUILD + 1, "shanghai", [ANN, BOB, DEE])
    svc = world.service
    await refused(E.RATINGS_NOT_MANAGER, svc.rebuild_ratings(by(BOB, place=HERE)))
    await refused(E.RATINGS_NOT_MANAGER,
                  svc.rebuild_ratings(by(BOB, manager=True, place=Place(None, 5))))
    await refused(E.RATINGS_NOT_MANAGER, svc.rebuild_ratings(by(BOB, manager=True)))
    rebuilt = await svc.rebuild_ratings(by(BOB, manager=True, place=HERE))
    assert (rebuilt.matches, rebuilt.rated, rebuilt.people, rebuilt.moved) == (1, 1, 3, ())
    assert await world.store.ratings.shown(GUILD, "shanghai", [ANN, BOB, CID]) == before
    # a manager of the other server rebuilds theirs alone, under a changed formula too
    await world.store.ratings.rebuild(PlackettLuceFormula(name="x", start=Skill(40.0, 3.0)),
                                      GUILD)
    moved = await svc.rebuild_ratings(by(DEE, manager=True, place=ELSEWHERE))
    assert moved.matches == 1 and moved.moved == ()
    assert await world.store.ratings.shown(GUILD + 1, "shanghai", [ANN, BOB, DEE]) == \
        theirs_before
    assert await world.store.ratings.shown(GUILD, "shanghai", [ANN]) != before
    back = await svc.rebuild_ratings(by(ANN, manager=True, place=HERE))
    assert {m.user_id for m in back.moved} == {ANN, BOB, CID}
    assert await world.store.ratings.shown(GUILD, "shanghai", [ANN, BOB, CID]) == before


async def test_the_start_up_rates_what_was_missed_and_rebuilds_a_new_formula_once(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world()
    first = await finished(world, GUILD, 100.0)
    rebuilt = await world.service.start_ratings()  # never rated yet: rebuilt
    assert rebuilt is not None and rebuilt.matches == 1
    assert await world.store.lobby.setting(SETTING) == FORMULA.name
    second = await finished(world, GUILD, 200.0)  # finished before the ratings knew it
    restarted = await make_world()
    assert await restarted.service.start_ratings() is None  # same formula: caught up
    changes = await restarted.store.ratings.changes_between(GUILD, 0.0, 1e9)
    assert [c.match_id for c in changes] == [first] * 3 + [second] * 3
    await restarted.store.lobby.set_setting(SETTING, "plackett-luce-0", at=1.0)
    again = await (await make_world()).service.start_ratings()
    assert again is not None and again.matches == 2 and again.moved == ()
    assert await restarted.service.start_ratings() is None


# ---- whole matches played through the service ----------------------------------------

HEAVENLY = {0: "123m456m789m123p55p", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
"""Seat 0 (Ann) is dealt a complete hand whenever she deals: 天胡 at the first step."""


def heavenly(rules: str, dealer: int) -> Deal:
    return stacked(HEAVENLY, rules)(rules, dealer)


async def win_at_once(world: World, table: int) -> None:
    await world.service.act(by(ANN), table, W(0), step=1)


@pytest.mark.usefixtures("dealer_zero")
async def test_a_finished_match_rates_its_people_and_never_a_computer(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=heavenly)
    table = await world.table((ANN, BOB, CID), computers=1, options={"hands": 1})
    await win_at_once(world, table)
    rated = await world.store.ratings.shown(GUILD, "shanghai", [ANN, BOB, CID, DEE])
    assert sorted(rated) == [ANN, BOB, CID]
    # everyone else paid the dealer alike: second place shared, the computer's too
    assert rated[ANN].shown > 1000 > rated[BOB].shown == rated[CID].shown
    assert all(r.matches == 1 and r.provisional for r in rated.values())
    (fact,) = {f.finished_at for f in await world.store.facts.all_matches()}
    changes = await world.store.ratings.changes_between(GUILD, 0.0, 1e12)
    assert len(changes) == 3 and {c.at for c in changes} == {fact}
    # a restart whose store never heard of the formula rebuilds: nothing moves
    again = await (await make_world(deal=heavenly)).service.start_ratings()
    assert again is not None and (again.matches, again.rated, again.moved) == (1, 1, ())


@pytest.mark.usefixtures("dealer_zero")
async def test_two_computers_or_a_cancel_leave_the_ratings_alone(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=heavenly)
    two = await world.table((ANN, BOB), computers=2, options={"hands": 1})
    await win_at_once(world, two)
    assert len(await world.store.facts.all_matches()) == 4  # finished, not rated
    assert await world.store.ratings.shown(GUILD, "shanghai", [ANN, BOB]) == {}
    cancelled = await world.table(options={"hands": 2}, channel=CHANNEL + 1)
    await win_at_once(world, cancelled)  # the first hand settled, then the table cancelled
    await world.service.cancel(by(ANN), cancelled)
    assert await world.store.ratings.shown(GUILD, "shanghai", [ANN, BOB, CID, DEE]) == {}
    assert await world.store.ratings.changes_between(GUILD, 0.0, 1e12) == []


@pytest.mark.usefixtures("dealer_zero")
async def test_a_person_who_left_is_rated_for_the_seat(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=heavenly)
    svc = world.service
    table = await world.table(options={"hands": 2})
    await win_at_once(world, table)
    asked = await refused(E.CONFIRM_LEAVE, svc.leave(by(BOB), table))
    await svc.leave(by(BOB), table, agreed=asked.params["penalty"])
    await win_at_once(world, table)  # Ann deals again (she won): the match ends
    rated = await world.store.ratings.shown(GUILD, "shanghai", [ANN, BOB, CID, DEE])
    assert sorted(rated) == [ANN, BOB, CID, DEE]  # Bob's seat is his: no computer seat
    assert rated[BOB].shown <= rated[CID].shown < rated[ANN].shown


class Broken(PlackettLuceFormula):
    """A formula that fails: the process dies, as it were, in the middle of rating."""

    def rate(self, seats: Sequence[Placed], computers: int,
             skills: Mapping[int, Skill]) -> dict[int, Skill] | None:
        raise RuntimeError("killed while rating")


@pytest.mark.usefixtures("dealer_zero")
async def test_a_match_never_ends_unrated_nor_is_rated_twice(
        make_world: Callable[..., Awaitable[World]], monkeypatch: pytest.MonkeyPatch) -> None:
    """The rating is written in the transaction that finishes the match: when it fails,
    the match has not finished either (no facts, no totals), and after a restart the
    last move is played again and the match rated once."""
    world = await make_world(deal=heavenly)
    table = await world.table((ANN, BOB, CID), computers=1, options={"hands": 1})
    monkeypatch.setattr("bot.service.moves.FORMULA", Broken())
    with pytest.raises(RuntimeError):
        await win_at_once(world, table)
    row = await world.store.lobby.get_table(table)
    assert row is not None and row.status == "playing"
    assert await world.store.facts.all_matches() == []
    monkeypatch.undo()
    restarted = await make_world(deal=heavenly)
    await restarted.service.recover()
    assert await restarted.service.start_ratings() is not None  # first start: nothing yet
    await win_at_once(restarted, table)
    assert len(await restarted.store.ratings.changes_between(GUILD, 0.0, 1e12)) == 3
    assert await restarted.service.start_ratings() is None
    assert len(await restarted.store.ratings.changes_between(GUILD, 0.0, 1e12)) == 3
