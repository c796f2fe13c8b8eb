"""Playing through the service: every refusal of a move, races, what is told to whom,
and a whole match to the leaderboard."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from fractions import Fraction

import pytest

from bot.service import Notice, RecordingNotifier, Refused, TableNotice, commitment
from bot.store import Store
from tests.narrowing import known
from tests.service.helpers import (
    ANN,
    BOB,
    CHANNEL,
    CID,
    DEE,
    EVE,
    SCENE_PONG,
    D,
    P,
    World,
    by,
    refused,
    stacked,
)

pytestmark = pytest.mark.usefixtures("dealer_zero")



@pytest.fixture
async def pong(make_world: Callable[..., Awaitable[World]]) -> tuple[World, int]:
    """Four people; Ann deals and holds 9m, Cid may pong it."""
    world = await make_world(deal=stacked(SCENE_PONG))
    return world, await world.table()


async def log_of(store: Store, table: int) -> list[tuple[int, int, str]]:
    hand = await store.hands.live(table)
    assert hand is not None
    return [(a.seq, a.seat, a.kind) for a in await store.log.actions(hand.id)]


async def test_a_move_lands_and_the_claim_window_asks_only_the_claimer(
        pong: tuple[World, int]) -> None:
    world, table = pong
    result = await world.service.act(by(ANN), table, D(0, "9m"), step=1, hand_number=1)
    assert (result.seq, result.hand_ended) == (1, False)
    assert await log_of(world.store, table) == [(1, 0, "discard")]
    info = await world.service.table_info(table)
    assert info.deciding == ()  # who may claim is not public
    assert (await world.service.hand(by(CID), table)).step == 2
    pings = world.notes.of("your_move")
    assert [(p.user_id, p.move, p.step) for p in pings] == [(ANN, "turn", 1), (CID, "claim", 2)]


async def test_out_of_turn_wrong_seat_and_stranger_are_refused_without_change(
        pong: tuple[World, int]) -> None:
    world, table = pong
    svc = world.service
    exc = await refused("illegal", svc.act(by(BOB), table, D(1, "2m")))
    assert "turn" in exc.reason
    await refused("wrong_seat", svc.act(by(BOB), table, D(0, "9m")))
    # a stranger pressing a person's button is told whose it is
    exc = await refused("not_yours", svc.act(by(EVE), table, D(0, "9m")))
    assert exc.params == {"seat": 1, "name": "Ann"}
    await refused("illegal", svc.act(by(ANN), table, D(0, "5m")))   # a tile not held
    await refused("illegal", svc.act(by(ANN), table, {"kind": "discard", "seat": 0}))
    await refused("illegal", svc.act(by(ANN), table, {"kind": "dance", "seat": 0}))
    assert await log_of(world.store, table) == []
    assert (await svc.hand(by(ANN), table)).step == 1


async def test_a_stranger_pressing_a_computers_move_is_not_seated(world: World) -> None:
    table = await world.table((ANN,), computers=3)
    exc = await refused("not_seated", world.service.act(by(EVE), table, D(1, "9m")))
    assert exc.params == {}
    assert await log_of(world.store, table) == []


async def test_stale_step_and_duplicate_click_are_refused(pong: tuple[World, int]) -> None:
    world, table = pong
    svc = world.service
    await svc.act(by(ANN), table, D(0, "9m"), step=1)
    await refused("stale", svc.act(by(ANN), table, D(0, "9m"), step=1))   # duplicate click
    await refused("stale", svc.act(by(CID), table, P(2), step=1))         # an old button
    await refused("stale_hand", svc.act(by(CID), table, P(2), step=2, hand_number=2))
    await svc.act(by(CID), table, P(2), step=2)
    await refused("stale", svc.act(by(CID), table, P(2), step=2))         # answered already
    assert await log_of(world.store, table) == [(1, 0, "discard"), (2, 2, "pass")]


async def test_two_racing_clicks_for_one_step_land_exactly_once(
        pong: tuple[World, int]) -> None:
    world, table = pong
    svc = world.service
    results = await asyncio.gather(svc.act(by(ANN), table, D(0, "9m"), step=1),
                                   svc.act(by(ANN), table, D(0, "1z"), step=1),
                                   return_exceptions=True)
    landed = [r for r in results if not isinstance(r, BaseException)]
    lost = [r for r in results if isinstance(r, Refused)]
    assert len(landed) == 1 and len(lost) == 1 and lost[0].code == "stale"
    assert await log_of(world.store, table) == [(1, 0, "discard")]


async def test_hand_query_is_private_and_refuses_strangers(pong: tuple[World, int]) -> None:
    world, table = pong
    hand = await world.service.hand(by(ANN), table)
    assert hand.seat == 0 and hand.step == 1 and hand.deadline is not None
    assert len(hand.view.concealed) == 14
    await refused("not_seated", world.service.hand(by(EVE), table))


class CommitFirst(RecordingNotifier):
    """Checks, at the moment it is told, that the move is already in the database."""

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store
        self.checked = 0

    async def publish(self, notice: Notice) -> None:
        if isinstance(notice, TableNotice):
            hand = await self.store.hands.live(notice.ref.table_id)
            if hand is not None and hand.number == notice.hand_number:
                assert await self.store.log.next_seq(hand.id) == notice.seq + 1
                self.checked += 1
        await super().publish(notice)


async def test_every_move_is_committed_before_it_is_told(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world()
    notes = CommitFirst(world.store)
    world.service.notifier = notes
    await world.table((ANN,), computers=3, options={"hands": 1, "turn_timer": 10,
                                                     "claim_timer": 5})
    world.notes = notes
    await world.until("settlement")
    assert notes.checked > 10


async def test_public_notices_never_show_a_concealed_tile(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world()
    await world.table((ANN, BOB), computers=2, options={"hands": 1, "turn_timer": 10,
                                                       "claim_timer": 5})
    await world.until("settlement")
    for kind, notice in world.notes.sent:
        if kind == "table":
            table = notice.view()
            ended = table.phase == "ended"
            for seat in table.seats:
                assert not hasattr(seat, "hand")
                for meld in seat.melds:
                    if meld.kind.value == "concealed_kong" and not ended:
                        assert all(t is None for t in meld.tiles)
            assert all("drawn" not in line and "draws" not in line for line in notice.lines)
        if kind in ("private_hand", "your_move", "reminder"):
            assert notice.user_id in (ANN, BOB)
        if kind == "private_hand":
            assert notice.view().seat == notice.seat


async def test_a_match_of_computers_runs_to_the_leaderboard(world: World) -> None:
    table = await world.table((ANN,), computers=3, options={"hands": 2}, start=False)
    await world.service.leave(by(ANN), table)
    await world.service.add_computer(by(EVE, manager=True), table)
    await world.service.start(by(ANN), table)
    await world.advance(1)
    info = await world.service.table_info(table)
    assert info.status == "finished"
    settlements = world.notes.of("settlement")
    assert len(settlements) == 2
    for s in settlements:
        assert sum(s.result.payments) == 0
    for reveal in world.notes.of("reveal"):
        assert commitment(reveal.salt, reveal.wall) == reveal.commitment
    starts = world.notes.of("hand_started")
    assert [s.commitment for s in starts] == [r.commitment for r in world.notes.of("reveal")]
    (ended,) = world.notes.of("match_ended")
    assert ended.totals == tuple(sum((s.result.payments[i] for s in settlements), Fraction(0))
                                 for i in range(4))
    assert info.totals == ended.totals
    board = list((await world.service.leaderboard(CHANNEL)).rows)
    assert board == []  # computers never rank
    assert world.notes.of("leaderboard")[-1].rows == tuple(board)
    assert await world.store.deadlines.all() == []
    match = (await world.store.matches.of_table(table))[-1]
    assert match.status == "finished" and sum(known(match.totals).values()) == 0


async def test_step_of_claim_window_survives_another_seats_answer(
        make_world: Callable[..., Awaitable[World]]) -> None:
    from tests.service.helpers import SCENE_TWO, W
    world = await make_world(deal=stacked(SCENE_TWO))
    table = await world.table()
    svc = world.service
    await svc.act(by(ANN), table, D(0, "5p"), step=1)
    bob, cid = await svc.hand(by(BOB), table), await svc.hand(by(CID), table)
    assert bob.step == cid.step == 2
    await svc.act(by(CID), table, W(2), step=2)
    result = await svc.act(by(BOB), table, P(1), step=2)     # Bob's button is still good
    assert result.hand_ended
    (settled,) = world.notes.of("settlement")
    assert [w.winner for w in settled.result.settlements] == [2]
    assert world.notes.of("hand_started")[-1].hand_number == 2
    view = (await svc.table_picture(table)).view
    assert view.hand_number == 2 and view.phase == "turn" and view.deciding == (view.dealer,)
    dealer_user = (ANN, BOB, CID, DEE)[view.dealer]
    assert (await svc.hand(by(dealer_user), table)).step == 1


async def test_two_processes_racing_for_one_seq_land_exactly_once(
        make_world: Callable[..., Awaitable[World]]) -> None:
    """Two services on one database file (as two bot processes would be): the store's
    compare-and-set lets one move in; the other is refused and reloads the log."""
    first = await make_world(deal=stacked(SCENE_PONG))
    table = await first.table()
    second = await make_world(first.clock, deal=stacked(SCENE_PONG))
    # Both hold the hand in memory before the race (a lazy load could come after the
    # first commit and see the move already: that is no race of the two writes).
    await second.service.recover(eager=True)
    results = await asyncio.gather(first.service.act(by(ANN), table, D(0, "9m"), step=1),
                                   second.service.act(by(ANN), table, D(0, "1z"), step=1),
                                   return_exceptions=True)
    refusals = [r for r in results if isinstance(r, Refused)]
    assert len(refusals) == 1 and refusals[0].code == "raced", results
    assert len(await log_of(first.store, table)) == 1
    assert (await first.service.table_picture(table)).view \
        == (await second.service.table_picture(table)).view


async def test_a_concealed_kong_is_told_without_its_tiles(
        make_world: Callable[..., Awaitable[World]]) -> None:
    from engine.game import Action, ActionKind
    from engine.tiles import Tile
    from tests.service.helpers import QUIET

    scene = {0: "4444m258p369s1234z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    world = await make_world(deal=stacked(scene))
    table = await world.table()
    kong = Action(ActionKind.CONCEALED_KONG, 0, tiles=(Tile.M4,) * 4)
    world.notes.clear()
    await world.service.act(by(ANN), table, kong, step=1)
    (notice,) = world.notes.of("table")
    assert notice.lines[0] == "Ann declares a concealed kong"
    assert not any("4m" in line for line in notice.lines)   # the rest: flowers replaced
    (meld,) = notice.view().seats[0].melds
    assert meld.tiles == (None,) * 4
    bob = await world.service.hand(by(BOB), table)
    assert bob.view.table.seats[0].melds[0].tiles == (None,) * 4
    ann = await world.service.hand(by(ANN), table)
    assert ann.view.table.seats[0].melds[0].tiles == (Tile.M4,) * 4
    assert [n.user_id for n in world.notes.of("private_hand")] == [ANN]
