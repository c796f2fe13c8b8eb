"""Leaving a running match and cancelling a table, at the service (issue 28, points 4
and 5): leaving mid-match is refused `confirm_leave` with what it costs until the
person agrees to that cost; the leaver's standings carry the hand they left and the
penalty, no computer ranks; the history tells each move by who made it; a cancelled
table's buttons are refused `cancelled`, and its lobby notice says who cancelled it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from fractions import Fraction

import pytest

from bot.service.fairness import Deal, deal_of
from engine.game import stack_wall
from tests.engine.helpers import fractions
from tests.narrowing import known
from tests.service.helpers import ANN, BOB, CHANNEL, CID, DEE, QUIET, World, by, refused

pytestmark = pytest.mark.usefixtures("dealer_zero")
TIMERS = {"turn_timer": 60, "claim_timer": 20, "hands": 1}
# Hands that can claim nothing, draws holding no 财神: no claim or 抓打 window opens.
HANDS = {0: QUIET[0] + "7z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}


def quiet_deal(rules: str, _dealer: int) -> Deal:
    return deal_of(stack_wall(rules, HANDS, 0, draws="1p4s7p" + "7m"))


async def test_leaving_a_running_hangzhou_match_is_confirmed_charged_and_kept_with_the_person(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=quiet_deal)
    svc = world.service
    table = await world.table(rules="hangzhou", options=TIMERS)
    await world.advance(61)  # Ann (the dealer) times out: the default discard is hers
    asked = await refused("confirm_leave", svc.leave(by(DEE), table))
    assert dict(asked.params) == {"penalty": Fraction(8), "receiver": None,
                                  "rules": "hangzhou", "table": table}
    await refused("confirm_leave", svc.leave(by(DEE), table, agreed=Fraction(0)))
    info = await svc.table_info(table)
    assert not known(info.seats[3]).is_computer and info.totals == fractions(0, 0, 0, 0)
    assert world.notes.of("away") == []

    info = await svc.leave(by(DEE), table, agreed=Fraction(8))
    assert known(info.seats[3]).is_computer and known(info.totals)[3] == -8
    (told,) = world.notes.of("away")
    assert (told.name, told.by_choice, told.removed, told.penalty, told.receiver,
            told.rules) == ("Dee", True, True, Fraction(8), None, "hangzhou")
    hand = await world.store.hands.live(table)
    assert hand is not None
    left_at = len(await world.store.log.actions(hand.id))

    await world.until("settlement", step=30)
    paid = {s.seat: s.amount for s in await world.store.endings.settlements(hand.id)}
    rows = {r.display_name: r for r in (await svc.leaderboard(CHANNEL)).rows}
    assert set(rows) == {"Ann", "Bob", "Cid", "Dee"}  # the computer does not rank
    assert (rows["Dee"].points, rows["Dee"].hands_played, rows["Dee"].hands_won) == (
        paid[3] - 8, 1, 0)

    history = await svc.hand_history(table)
    assert history is not None
    actions = await world.store.log.actions(hand.id)
    first, *rest = history.parts
    assert first.names[3] == "Dee" and rest and rest[-1].names[3] == known(info.seats[3]).name
    assert history.names[3] == known(info.seats[3]).name
    told_first = sum(1 for e in first.events if getattr(e, "seat", None) == 3
                     and type(e).__name__ == "TileDiscarded")
    assert told_first == sum(1 for a in actions if a.seat == 3 and a.kind == "discard"
                             and a.seq <= left_at)


async def test_leaving_a_lobby_needs_no_confirmation(world: World) -> None:
    table = await world.table((ANN, BOB), start=False)
    info = await world.service.leave(by(BOB), table)
    assert info.seats[1] is None


async def test_a_computer_never_ranks(make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=quiet_deal)
    table = await world.table((ANN,), computers=3, options=TIMERS)
    await world.until("settlement", step=30)
    rows = (await world.service.leaderboard(CHANNEL)).rows
    assert [r.display_name for r in rows] == ["Ann"] and rows[0].hands_played == 1
    assert (await world.service.table_info(table)).status == "finished"


async def test_a_cancelled_tables_buttons_say_it_was_cancelled(world: World) -> None:
    table = await world.table((ANN, BOB, CID, DEE))
    info = await world.service.cancel(by(BOB, manager=True), table)
    assert info.status == "cancelled"
    (lobby,) = [n for n in world.notes.of("lobby") if n.what == "cancelled"]
    assert lobby.by == "Bob"
    await refused("cancelled", world.service.act(by(ANN), table, {"kind": "pass", "seat": 0},
                                                 step=1, hand_number=1))
    await refused("cancelled", world.service.hand(by(ANN), table))
