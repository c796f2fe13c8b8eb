"""What a refusal carries for the adapter to say it in the player's language: one code
per sentence, and the values that sentence needs (never an English reason to show)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.service import Refused
from engine.refusals import Code, Refusal
from engine.tiles import Tile
from tests.service.helpers import ANN, BOB, CID, SCENE_PONG, D, P, World, by, stacked

pytestmark = pytest.mark.usefixtures("dealer_zero")


async def _refusal(coro: Awaitable[object]) -> Refused:
    with pytest.raises(Refused) as info:
        await coro
    return info.value


async def test_refusals_carry_their_sentences_values(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table()
    svc = world.service
    names = (await svc.table_info(table)).names
    # another seat's button: whose it is, seats numbered as players see them (1–4)
    wrong = await _refusal(svc.act(by(BOB), table, D(0, "9m"), step=1))
    assert (wrong.code, dict(wrong.params)) == ("wrong_seat", {"seat": 1, "name": names[0]})
    # the engine's refusal: its code and values, its kind and its English reason, with
    # the names of the seats
    illegal = await _refusal(svc.act(by(ANN), table, D(0, "5m"), step=1))
    assert illegal.code == "illegal" and illegal.params["why"] == "tile_not_held"
    assert illegal.params["refusal"] == Refusal.of(Code.NOT_HELD, tiles=(Tile.M5,))
    assert illegal.params["detail"] == "you do not hold 5m"
    assert tuple(illegal.params["names"]) == tuple(names)
    # a button of an earlier hand and one of a passed decision are told apart
    await svc.act(by(ANN), table, D(0, "9m"), step=1)
    assert (await _refusal(svc.act(by(CID), table, P(2), step=2, hand_number=2))).code \
        == "stale_hand"
    assert (await _refusal(svc.act(by(ANN), table, D(0, "9m"), step=1))).code == "stale"
