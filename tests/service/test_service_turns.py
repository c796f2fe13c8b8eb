"""`/mahjong turns`: what waits for the person asking, at every table of every server
they sit at, and nothing of anyone else (a claim decision is its seat's secret)."""

from __future__ import annotations

import pytest

from bot.service import TableRef, WaitingMove
from tests.service.helpers import (
    ANN,
    BOB,
    CHANNEL,
    CID,
    EVE,
    GUILD,
    SCENE_PONG,
    D,
    P,
    World,
    by,
    refused,
    stacked,
)

pytestmark = pytest.mark.usefixtures("dealer_zero")

OTHER_GUILD, OTHER_CHANNEL = 8, 80
TURN, CLAIM = 12 * 3600, 2 * 3600


async def _two_servers(world: World) -> tuple[int, int]:
    """Table ``here`` (server 7): Ann deals, her turn. Table ``there`` (server 8): Bob
    deals and discards 9m, which only the third seat, Ann, may claim (a pong)."""
    svc = world.service
    svc.deal = stacked(SCENE_PONG)
    here = await world.table((ANN,), computers=3)
    info = await svc.create_table(by(BOB), guild_id=OTHER_GUILD, channel_id=OTHER_CHANNEL,
                                  rules="shanghai", options={"hands": 4})
    there = info.ref.table_id
    await svc.join(by(CID), there)
    await svc.join(by(ANN), there)
    await svc.add_computer(by(BOB), there)
    await svc.start(by(BOB), there)
    world.clock.advance(60)
    await svc.act(by(BOB), there, D(0, "9m"), step=1, hand_number=1)
    await world.settle()
    return here, there


async def test_every_decision_waiting_for_a_person_in_every_server(world: World) -> None:
    here, there = await _two_servers(world)
    now = world.clock.now()
    started = now - 60
    mine = await world.service.turns(by(ANN, locale="zh-CN"))
    # the claim is due first (2 h from the discard), then the turn (12 h from the start)
    assert mine == (
        WaitingMove(TableRef(there, OTHER_GUILD, OTHER_CHANNEL, BOB), "shanghai", 1, 4,
                    "claim", now + CLAIM),
        WaitingMove(TableRef(here, GUILD, CHANNEL, ANN), "shanghai", 1, 8, "turn",
                    started + TURN))
    # the command remembers the language it was asked in, as any
    assert await world.store.lobby.user_locales([ANN]) == {ANN: "zh-CN"}


async def test_nobody_learns_anything_of_another_seat(world: World) -> None:
    """Cid sits there too and is not asked: he cannot tell that Ann is; Bob, whose
    discard it is, neither; a stranger sits nowhere. Each sees only their own."""
    await _two_servers(world)
    assert await world.service.turns(by(CID)) == ()
    assert await world.service.turns(by(BOB)) == ()
    assert await world.service.turns(by(EVE)) == ()


async def test_an_answer_leaves_the_list_and_the_next_decision_joins_it(world: World) -> None:
    here, there = await _two_servers(world)
    await world.service.act(by(ANN), there, P(2), step=2, hand_number=1)
    await world.settle()  # the window closes: Cid's turn there
    assert [(w.ref.table_id, w.move) for w in await world.service.turns(by(ANN))] == \
        [(here, "turn")]
    assert [(w.ref.table_id, w.move) for w in await world.service.turns(by(CID))] == \
        [(there, "turn")]


async def test_a_seat_the_computer_took_over_waits_for_nobody(world: World) -> None:
    here, there = await _two_servers(world)
    asked = await refused("confirm_leave", world.service.leave(by(ANN), here))
    await world.service.leave(by(ANN), here, agreed=asked.params["penalty"])
    await world.settle()
    assert [(w.ref.table_id, w.move) for w in await world.service.turns(by(ANN))] == \
        [(there, "claim")]
