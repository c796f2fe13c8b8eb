"""The notices carry the whole snapshot a presenter needs (CONTRACT.md, "Notices out"):
it never calls back into the service to show one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.service import (
    LobbyNotice,
    MoveNotice,
    PrivateNotice,
    TableNotice,
)
from bot.service.notices import public_events
from engine.game import ClaimWindowOpened, TileDiscarded
from tests.service.helpers import (
    ANN,
    BOB,
    CID,
    DEE,
    SCENE_PONG,
    D,
    World,
    by,
    stacked,
)

pytestmark = pytest.mark.usefixtures("dealer_zero")

TIMERS = {"turn_timer": 60, "claim_timer": 20, "away_after": 2}


@pytest.fixture
async def pong(make_world: Callable[..., Awaitable[World]]) -> tuple[World, int]:
    """Four people; Ann deals and holds 9m, Cid may pong it."""
    world = await make_world(deal=stacked(SCENE_PONG))
    return world, await world.table(options=TIMERS)


def after(world: World, count: int) -> list[object]:
    """The notices sent after the first ``count``."""
    return [n for _, n in world.notes.sent[count:]]


async def test_every_notice_names_the_tables_creator(pong: tuple[World, int]) -> None:
    world, table = pong
    await world.service.act(by(ANN), table, D(0, "9m"), step=1)
    await world.service.cancel(by(ANN), table)
    refs = [n.table.ref if isinstance(n, LobbyNotice) else n.ref
            for _, n in world.notes.sent]
    assert refs and {r.creator_id for r in refs} == {ANN}


async def test_a_click_carries_its_cause_a_timer_none(pong: tuple[World, int]) -> None:
    world, table = pong
    ann = by(ANN, locale="en-US")
    seen = len(world.notes.sent)
    await world.service.act(ann, table, D(0, "9m"), step=1)
    clicked = after(world, seen)
    tables = [n for n in clicked if isinstance(n, TableNotice)]
    privates = [n for n in clicked if isinstance(n, PrivateNotice)]
    assert tables and privates
    assert {n.cause for n in tables + privates} == {ann}
    seen = len(world.notes.sent)
    await world.advance(20)                     # Cid's claim times out
    timed = [n for n in after(world, seen) if isinstance(n, TableNotice | PrivateNotice)]
    assert timed and {n.cause for n in timed} == {None}


async def test_the_table_notice_carries_the_seats(pong: tuple[World, int]) -> None:
    world, _ = pong
    (first,) = world.notes.of("table")
    assert [s.name for s in first.seats if s] == ["Ann", "Bob", "Cid", "Dee"]
    assert [s.user_id for s in first.seats if s] == [ANN, BOB, CID, DEE]
    assert not any(s.away for s in first.seats if s)


async def test_a_private_notice_carries_choices_away_and_the_changes_news(
        pong: tuple[World, int]) -> None:
    world, table = pong
    await world.service.set_choice(by(CID), table, "always_win", True)
    seen = len(world.notes.sent)
    await world.service.act(by(ANN), table, D(0, "9m"), step=1)
    (table_notice,) = [n for n in after(world, seen) if isinstance(n, TableNotice)]
    cid = [n for n in after(world, seen) if isinstance(n, PrivateNotice) and n.seat == 2]
    assert cid and cid[-1].choices.always_win and cid[-1].away is False
    assert cid[-1].news == table_notice.events
    assert any(isinstance(e, TileDiscarded) for e in cid[-1].news)
    window = [e for e in cid[-1].news if isinstance(e, ClaimWindowOpened)]
    assert window and window[0].asked == ()     # who may claim stays secret in the news
    assert cid[-1].news == public_events(cid[-1].news)


async def test_the_away_flag_is_on_the_private_notice(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG), computer_pause=5.0)
    await world.table((ANN,), computers=3, options=TIMERS)
    await world.until("away", step=5)
    await world.until("private_hand", len(world.notes.of("private_hand")) + 1, step=5)
    assert world.notes.of("private_hand")[-1].away is True


async def test_a_private_notice_speaks_the_language_last_used_even_after_a_restart(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)
    await world.service.seen(by(CID, locale="zh-CN"))
    await world.service.act(by(ANN, locale="en-US"), table, D(0, "9m"), step=1)
    mine = {n.seat: n.locale for n in world.notes.of("private_hand")[-4:]}
    assert mine[2] == "zh-CN" and mine[0] == "en-US"
    unknown = [n for n in world.notes.of("private_hand") if n.seat == 1]
    assert unknown and unknown[-1].locale is None    # Bob never said
    again = await make_world(deal=stacked(SCENE_PONG))   # a restart
    await again.service.recover(eager=True)
    await again.advance(120)           # Cid's claim times out (deferred by the restart)
    told = {n.seat: n.locale for n in again.notes.of("private_hand")}
    assert told[2] == "zh-CN" and told[1] is None


async def test_the_half_time_reminder_is_the_dm_again_then_the_ping(
        pong: tuple[World, int]) -> None:
    world, _ = pong
    seen = len(world.notes.sent)
    await world.advance(30)
    private, move = after(world, seen)
    assert isinstance(private, PrivateNotice) and isinstance(move, MoveNotice)
    assert private.reminder and move.reminder and move.kind == "reminder"
    assert (private.seat, private.user_id, private.step) == (0, ANN, 1)
    assert private.deadline == move.deadline and private.view().seat == 0
    assert len(private.view().concealed) + (private.view().drawn is not None) == 14
    assert private.news == ()


async def test_a_claims_ping_names_the_discarder_and_the_mentions_option(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options={**TIMERS, "mentions": "every_turn"})
    (turn,) = world.notes.of("your_move")
    assert (turn.move, turn.discarder, turn.mentions) == ("turn", None, "every_turn")
    await world.service.act(by(ANN), table, D(0, "9m"), step=1)
    claim = world.notes.of("your_move")[-1]
    assert (claim.seat, claim.move, claim.discarder) == (2, "claim", 0)
    assert [s.user_id for s in claim.seats if s] == [ANN, BOB, CID, DEE]
    await world.advance(10)
    (reminder,) = world.notes.of("reminder")
    assert (reminder.seat, reminder.discarder, reminder.mentions) == (2, 0, "every_turn")


async def test_lobby_notices_carry_their_cause(world: World) -> None:
    table = await world.table((ANN,), start=False)
    bob = by(BOB, locale="en-GB")
    await world.service.join(bob, table)
    assert world.notes.of("lobby")[-1].cause == bob
    await world.service.cancel(by(ANN), table)
    cancelled = world.notes.of("lobby")[-1]
    assert cancelled.what == "cancelled" and cancelled.cause == by(ANN)
