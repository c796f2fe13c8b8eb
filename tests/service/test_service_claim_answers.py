"""Claim offers and answers given in advance: a claim DM with no win on offer is marked
silent (for everybody, always); a win's offer and a turn notify."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.service import PrivateNotice
from tests.service.helpers import ANN, BOB, CID, SCENE_PONG, SCENE_TWO, D, World, by, stacked

pytestmark = pytest.mark.usefixtures("dealer_zero")


def decisions(world: World, user: int) -> list[PrivateNotice]:
    return [n for n in world.notes.of("private_hand")
            if n.user_id == user and n.step is not None]


async def test_a_claim_offer_without_a_win_is_silent_a_turn_is_not(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table()
    (turn,) = decisions(world, ANN)
    assert not turn.silent
    await world.service.act(by(ANN), table, D(0, "9m"))
    (offer,) = decisions(world, CID)  # a pong of 9m, nothing else
    assert offer.silent
    assert not any(m.silent for m in world.notes.of("your_move"))


async def test_an_offer_holding_a_win_notifies(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_TWO))
    table = await world.table()
    await world.service.act(by(ANN), table, D(0, "5p"))
    offers = decisions(world, BOB) + decisions(world, CID)
    assert len(offers) == 2 and not any(n.silent for n in offers)
