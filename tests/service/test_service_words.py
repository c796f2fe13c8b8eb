"""What the service gives the adapter to put in words: the last hand's public history,
and the names of computer seats (chosen by the adapter's namer when they sit down)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from fractions import Fraction

from bot.service import TableRef
from engine.game.events import HandEnded, HandStarted, TileDiscarded, TileDrawn, TilesDealt
from tests.service.helpers import ANN, BOB, EVE, World, by


async def test_the_history_of_a_hand_holds_only_public_events(world: World) -> None:
    table = await world.table((ANN,), computers=3, options={"hands": 1, "turn_timer": 10,
                                                              "claim_timer": 5})
    await world.until("settlement")
    history = await world.service.hand_history(table)
    assert history is not None and history.number == 1
    assert history.names == (await world.service.table_info(table)).names
    assert all(e.private_to is None for e in history.events)
    assert not any(isinstance(e, (TileDrawn, TilesDealt)) for e in history.events)
    assert isinstance(history.events[0], HandStarted)
    assert isinstance(history.events[-1], HandEnded)
    match = (await world.store.matches.of_table(table))[-1]
    hand = (await world.store.hands.of_match(match.id))[-1]
    discards = [a for a in await world.store.log.actions(hand.id) if a.kind == "discard"]
    assert len(discards) == sum(isinstance(e, TileDiscarded) for e in history.events)
    assert (history.wall, history.salt) == (hand.wall, hand.salt)


async def test_no_history_before_a_hand_has_ended(world: World) -> None:
    table = await world.table((ANN, BOB), computers=2, start=False)
    assert await world.service.hand_history(table) is None


async def test_computer_seats_are_named_by_the_namer_when_they_sit_down(
        make_world: Callable[..., Awaitable[World]]) -> None:
    asked: list[tuple[int, int, str | None]] = []

    def namer(ref: TableRef, seat: int, replaces: str | None) -> str:
        asked.append((ref.table_id, seat, replaces))
        return f"Robot {seat + 1}" + (f" for {replaces}" if replaces else "")

    world = await make_world(computer_name=namer)
    table = await world.table((ANN, BOB), computers=2)
    await world.service.leave(by(BOB), table, agreed=Fraction(0))
    names = (await world.service.table_info(table)).names
    assert names == ("Ann", "Robot 2 for Bob", "Robot 3", "Robot 4")
    assert asked == [(table, 2, None), (table, 3, None), (table, 1, "Bob")]
    default = await make_world()
    other = await default.table((EVE,), computers=1, start=False, channel=71)
    assert (await default.service.table_info(other)).names[1] == "电脑 Bot 2"
