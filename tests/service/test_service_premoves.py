"""Pre-moves (issue 30): the next discard chosen in advance ("next: 9p") and "discard my
draw unless it wins or kongs" for a ready hand — played at once at the seat's turn when
the draw offers no win and no kong, asked otherwise; judged in their own place; kept
across a restart; never shown to anyone else."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path

import pytest

from bot.service import PrivateNotice
from bot.service.fairness import Deal, deal_of
from bot.service.live import asks_in_person
from bot.service.notices import NextDiscard, PlayedAhead
from bot.store import StandingChoices, Store
from engine.game import Action, ActionKind, legal_actions, stack_wall
from engine.game.deal import new_hand
from engine.game.hand import apply
from engine.tiles import tile_from_notation
from tests.service.helpers import (
    ANN,
    BOB,
    CID,
    EVE,
    QUIET,
    SCENE_PONG,
    D,
    World,
    by,
    refused,
)

pytestmark = pytest.mark.usefixtures("dealer_zero")
TIMERS = {"turn_timer": 600, "claim_timer": 60}
T = tile_from_notation

NINE_GATES = "1112345678999p"  # Bob ready: any 1p–9p wins
KONGABLE = "258m369p777s1234z"  # Bob: a fourth 7s is a concealed kong


def dealing(hands: Mapping[int, str], draws: str) -> Callable[[str, int], Deal]:
    """Seat 0 deals ``hands``; then the front of the wall gives ``draws`` in order."""
    def deal(rules: str, dealer: int) -> Deal:
        return deal_of(stack_wall(rules, hands, dealer, draws=draws))
    return deal


def quiet(bob: str = QUIET[1]) -> dict[int, str]:
    """Nobody can claim the dealer's 9m; Bob holds ``bob`` (Cid and Dee hold no 1p or
    9p when he holds the nine gates)."""
    if bob == NINE_GATES:
        return {0: QUIET[0] + "9m", 1: bob, 2: "369m258p258s1467z", 3: "258m147s369s2347z"}
    return {0: QUIET[0] + "9m", 1: bob, 2: QUIET[2], 3: QUIET[3]}


async def log_of(store: Store, table: int) -> list[tuple[int, str, str, str]]:
    hand = await store.hands.live(table)
    assert hand is not None
    return [(a.seat, a.kind, a.payload.get("tile", ""), a.source)
            for a in await store.log.actions(hand.id)]


async def chosen(store: Store, table: int) -> dict[int, str]:
    hand = await store.hands.live(table)
    assert hand is not None
    return await store.premoves.of_hand(hand.id)


def dms(world: World, seat: int) -> list[PrivateNotice]:
    return [n for n in world.notes.of("private_hand") if n.seat == seat]


async def test_the_next_discard_plays_at_the_turn_without_asking(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=dealing(quiet(), "9s"))
    table = await world.table(options=TIMERS)
    world.notes.clear()
    assert await world.service.set_next_discard(by(BOB), table, T("1z"), hand_number=1,
                                                seat=1) == T("1z")
    assert world.notes.sent == []  # private: nothing is published
    assert await chosen(world.store, table) == {1: "1z"}
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    assert await log_of(world.store, table) == [(0, "discard", "9m", "player"),
                                                (1, "discard", "1z", "player")]
    assert await chosen(world.store, table) == {}  # spent with the move that played it
    # Bob was never asked: no DM with a decision, no ping; his DM tells draw and move
    mine = dms(world, 1)
    assert [n.step for n in mine] == [None]
    # the draw, 9s, helped more than 1z: 1z was played
    assert mine[0].played == PlayedAhead("premove", T("9s"), T("1z"), T("1z"))
    assert mine[0].next_discard is None
    assert mine[0].news  # Ann's discard, held back from the skipped DM
    assert [m.seat for m in world.notes.of("your_move")] == [2]  # Cid's turn, not Bob's


async def test_changing_and_cancelling_it(make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=dealing(quiet(), "9s"))
    table = await world.table(options=TIMERS)
    await world.service.set_next_discard(by(BOB), table, T("1z"))
    await world.service.set_next_discard(by(BOB), table, T("2z"))
    assert await chosen(world.store, table) == {1: "2z"}
    assert await world.service.set_next_discard(by(BOB), table, None) is None
    assert await chosen(world.store, table) == {}
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    assert await log_of(world.store, table) == [(0, "discard", "9m", "player")]
    assert dms(world, 1)[-1].step is not None  # asked as today


@pytest.mark.parametrize(("bob", "draw"), [(NINE_GATES, "5p"), (KONGABLE, "7s")])
async def test_a_draw_offering_a_win_or_a_kong_asks_and_drops_it(
        make_world: Callable[..., Awaitable[World]], bob: str, draw: str) -> None:
    world = await make_world(deal=dealing(quiet(bob), draw))
    table = await world.table(options=TIMERS)
    await world.service.set_next_discard(by(BOB), table, T("2m" if bob == KONGABLE else "9p"))
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    assert await log_of(world.store, table) == [(0, "discard", "9m", "player")]
    assert await chosen(world.store, table) == {}  # dropped: it was for this turn
    assert dms(world, 1)[-1].step is not None and dms(world, 1)[-1].next_discard is None
    assert [m.seat for m in world.notes.of("your_move")][-1] == 1


async def test_a_tile_no_longer_held_asks_and_a_restart_keeps_the_choice(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=dealing(quiet(), "9s"))
    table = await world.table(options=TIMERS)
    hand = await world.store.hands.live(table)
    assert hand is not None
    # written behind the service's back: a choice the hand no longer allows (Bob never
    # held 5z), read back by a restarted service
    await world.store.premoves.set(hand.id, 1, "5z", at=1.0)
    again = await make_world(deal=dealing(quiet(), "9s"))
    await again.service.recover(eager=True)
    await again.service.act(by(ANN), table, D(0, "9m"))
    await again.settle()
    assert await log_of(again.store, table) == [(0, "discard", "9m", "player")]
    assert await chosen(again.store, table) == {}
    # a real choice survives a restart and plays
    third = await make_world(deal=dealing(quiet(), "9s"))
    await third.service.recover(eager=True)
    await third.service.act(by(BOB), table, D(1, "9s"))
    await third.settle()
    await third.service.set_next_discard(by(BOB), table, T("4z"))
    fourth = await make_world(deal=dealing(quiet(), "9s"))
    await fourth.service.recover(eager=True)
    for seat, user in ((2, CID), (3, 4), (0, ANN)):  # Cid, Dee and Ann discard their draws
        live = await fourth.service.tables.get(table)
        assert live.hand is not None
        drawn = live.hand.state.seats[seat].drawn
        assert drawn is not None and live.hand.state.turn == seat
        await fourth.service.act(by(user), table, D(seat, drawn.notation))
        await fourth.settle()
    assert (await log_of(fourth.store, table))[-1][:3] == (1, "discard", "4z")


async def test_after_its_own_claim_the_seat_is_asked(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=dealing(SCENE_PONG, ""))
    table = await world.table(options=TIMERS)
    await world.service.set_next_discard(by(CID), table, T("1z"))
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    live = await world.service.tables.get(table)
    assert live.hand is not None
    window = live.hand.state.window
    assert window is not None
    (pong,) = [a for a in window.options[2] if a.kind.value == "pong"]
    await world.service.act(by(CID), table, pong)
    await world.settle()
    assert await chosen(world.store, table) == {}  # spent by Cid's own claim
    assert [(s, k) for s, k, _, _ in await log_of(world.store, table)] == \
        [(0, "discard"), (2, "pong")]
    assert dms(world, 2)[-1].step is not None


async def test_discard_my_draw_when_ready(make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=dealing(quiet(NINE_GATES), "6z"))
    table = await world.table(options=TIMERS)
    await world.service.set_choice(by(BOB), table, "discard_drawn_when_ready", True)
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    assert await log_of(world.store, table) == [(0, "discard", "9m", "player"),
                                                (1, "discard", "6z", "player")]
    assert dms(world, 1)[-1].played == PlayedAhead("discard_drawn", T("6z"), T("6z"))


async def test_discard_my_draw_asks_a_hand_that_is_not_ready_and_yields_to_the_premove(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=dealing(quiet(), "9s"))
    table = await world.table(options=TIMERS)
    await world.service.set_choice(by(BOB), table, "discard_drawn_when_ready", True)
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    assert len(await log_of(world.store, table)) == 1  # not ready: asked
    other = await make_world(deal=dealing(quiet(NINE_GATES), "6z"))
    second = await other.table(options=TIMERS, channel=71)
    await other.service.set_choice(by(BOB, place=None), second, "discard_drawn_when_ready", True)
    await other.service.set_next_discard(by(BOB), second, T("1p"))
    # exactly 1p ("or my draw" on would throw the 6z drawn: it helps less)
    await other.service.set_next_or_draw(by(BOB), second, False)
    await other.service.act(by(ANN), second, D(0, "9m"))
    await other.settle()
    assert (await log_of(other.store, second))[-1] == (1, "discard", "1p", "player")


async def test_each_request_is_judged_in_its_own_place(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=dealing(quiet(), "9s"))
    table = await world.table(options=TIMERS)
    svc = world.service
    await refused("not_yours", svc.set_next_discard(by(EVE), table, T("1z"), seat=1))
    await refused("not_seated", svc.set_next_discard(by(EVE), table, T("1z")))
    await refused("wrong_seat", svc.set_next_discard(by(CID), table, T("1z"), seat=1))
    await refused("stale_hand", svc.set_next_discard(by(BOB), table, T("1z"), hand_number=0,
                                                     seat=1))
    exc = await refused("not_held", svc.set_next_discard(by(BOB), table, T("9m"), seat=1))
    assert exc.params["tile"] == T("9m")
    await refused("your_turn", svc.set_next_discard(by(ANN), table, T("1z"), seat=0))
    await refused("your_turn", svc.set_next_discard(by(ANN), table, None, seat=0))
    other = await world.table(options=TIMERS, channel=71, users=(EVE, 5, 6, 8))
    await refused("not_yours", svc.set_next_discard(by(BOB), other, T("1z"), seat=1))
    assert await chosen(world.store, table) == {} and await chosen(world.store, other) == {}


async def test_nothing_of_it_reaches_anyone_else(
        make_world: Callable[..., Awaitable[World]], caplog: pytest.LogCaptureFixture) -> None:
    world = await make_world(deal=dealing(quiet(), "9s"))
    table = await world.table(options=TIMERS)
    caplog.set_level(logging.DEBUG, logger="bot")
    await world.service.set_next_discard(by(BOB), table, T("1z"))
    await world.service.set_choice(by(CID), table, "discard_drawn_when_ready", True)
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    for kind, notice in world.notes.sent:
        if kind == "private_hand" and notice.seat == 1:
            continue
        assert getattr(notice, "next_discard", None) is None, kind
        assert getattr(notice, "played", None) is None, kind
        assert "premove" not in repr(notice) and "PlayedAhead" not in repr(notice), kind
    said = [r.getMessage() for r in caplog.records if r.name.startswith("bot")]
    assert not [line for line in said if "premove" in line or "1z" in line]
    info = await world.service.table_info(table)
    assert "premove" not in repr(info)
    # "discard my draw" is offered only while ready: the table never tells it was chosen
    assert not any(s is not None and s.choices.discard_drawn_when_ready for s in info.seats)
    assert not any(s is not None and s.choices.discard_drawn_when_ready
                   for _, n in world.notes.sent for s in getattr(n, "seats", ()) or ()
                   if hasattr(s, "choices"))
    # the stored move is the person's own, as a click is
    assert (await log_of(world.store, table))[-1][3] == "player"


async def test_standing_choices_keep_discard_drawn_when_ready(world: World) -> None:
    table = await world.table(start=False)
    choices = await world.service.set_choices(by(ANN), table,
                                              StandingChoices(discard_drawn_when_ready=True))
    assert choices.discard_drawn_when_ready
    assert (await world.store.lobby.seats(table))[0].choices.discard_drawn_when_ready


async def test_a_sigkill_keeps_the_choice(make_world: Callable[..., Awaitable[World]],
                                          db_path: Path) -> None:
    """Chosen in a process then killed (SIGKILL) before anything else: the next process
    plays it at Bob's turn."""
    child = Path(__file__).with_name("premove_child.py")
    proc = subprocess.Popen([sys.executable, str(child), str(db_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # printed once the choice's write returned
        assert line.startswith("SET "), proc.stderr.read() if proc.stderr else line
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)
    table = int(line.split()[1])
    world = await make_world(deal=dealing(quiet(), "9s"))
    await world.service.recover(eager=True)
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    assert (await log_of(world.store, table))[-1] == (1, "discard", "1z", "player")


async def test_a_turn_held_back_and_then_asked_after_all_gets_its_dm(
        make_world: Callable[..., Awaitable[World]]) -> None:
    """"Discard my draw" turned off in the instant between the turn and its move: the
    turn is put to Bob after all, with the DM that was held back."""
    world = await make_world(deal=dealing(quiet(NINE_GATES), "6z"))
    table = await world.table(options=TIMERS)
    await world.service.set_choice(by(BOB), table, "discard_drawn_when_ready", True)
    await world.service.act(by(ANN), table, D(0, "9m"))   # Bob's turn: to be played at once
    assert [n.step for n in dms(world, 1)] == [None]       # the deal's DM only
    await world.service.set_choice(by(BOB), table, "discard_drawn_when_ready", False)
    await world.settle()
    assert await log_of(world.store, table) == [(0, "discard", "9m", "player")]
    last = dms(world, 1)[-1]
    assert last.step is not None and last.news  # asked, told Ann's discard
    assert [m.seat for m in world.notes.of("your_move")][-1] == 1


# "9p, or my draw if it helps less" (amendment A): Bob holds QUIET[1]; of 2m and a
# drawn 7z the engine keeps 2m, of 2m and a drawn 9s it keeps 9s.
async def test_the_draw_is_played_when_it_helps_less_than_the_chosen_tile(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=dealing(quiet(), "7z"))
    table = await world.table(options=TIMERS)
    await world.service.set_next_discard(by(BOB), table, T("2m"))
    assert (await world.service.hand(by(BOB), table)).next_discard == NextDiscard(T("2m"))
    world.notes.clear()
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    assert await log_of(world.store, table) == [(0, "discard", "9m", "player"),
                                                (1, "discard", "7z", "player")]
    # kept: 2m is still held and still Bob's plan (spent only by playing 2m itself)
    assert await chosen(world.store, table) == {1: "2m"}
    (told,) = dms(world, 1)
    assert told.step is None and told.played == PlayedAhead("premove", T("7z"), T("7z"),
                                                            T("2m"))
    assert told.next_discard == NextDiscard(T("2m"))  # its "next:" line stays
    assert told.silent  # it asks nothing: sent without notifying
    assert T("2m") in (await world.service.hand(by(BOB), table)).view.hand  # kept


async def test_a_choice_kept_by_thrown_draws_plays_turn_after_turn_until_its_tile_goes(
        make_world: Callable[..., Awaitable[World]]) -> None:
    # Bob draws 7z, then 6z (each helps less than 2m: thrown), then 9s (2m is thrown);
    # the others discard the honours they draw, which nobody can claim
    draws = "7z5z5z5z6z6z6z2z9s"
    world = await make_world(deal=dealing(quiet(), draws))
    table = await world.table(options=TIMERS)
    await world.service.set_next_discard(by(BOB), table, T("2m"))
    world.notes.clear()
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()

    async def others_discard_their_draws(w: World) -> None:
        for seat, user in ((2, CID), (3, 4), (0, ANN)):
            live = await w.service.tables.get(table)
            assert live.hand is not None
            drawn = live.hand.state.seats[seat].drawn
            assert drawn is not None and live.hand.state.turn == seat
            await w.service.act(by(user), table, D(seat, drawn.notation))
            await w.settle()

    await others_discard_their_draws(world)
    # a restart keeps the choice the thrown draw left
    again = await make_world(deal=dealing(quiet(), draws))
    await again.service.recover(eager=True)
    assert (await again.service.hand(by(BOB), table)).next_discard == NextDiscard(T("2m"))
    assert await chosen(again.store, table) == {1: "2m"}  # 6z thrown at the second turn
    await others_discard_their_draws(again)
    bob = [(k, tile, source) for seat, k, tile, source in await log_of(again.store, table)
           if seat == 1]
    assert bob == [("discard", "7z", "player"), ("discard", "6z", "player"),
                   ("discard", "2m", "player")]  # three turns, none asked
    assert await chosen(again.store, table) == {}  # spent: 2m itself was played
    assert [n.played for n in dms(again, 1) if n.played is not None] == [
        PlayedAhead("premove", T("9s"), T("2m"), T("2m"))]
    assert [n.step for n in dms(world, 1) + dms(again, 1)] == [None] * (
        len(dms(world, 1)) + len(dms(again, 1)))  # Bob was never asked
    assert dms(again, 1)[-1].next_discard is None
    assert 1 not in [m.seat for m in world.notes.of("your_move") + again.notes.of("your_move")]


async def test_the_chosen_tile_is_played_when_the_draw_helps_more(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=dealing(quiet(), "9s"))
    table = await world.table(options=TIMERS)
    await world.service.set_next_discard(by(BOB), table, T("2m"))
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    assert (await log_of(world.store, table))[-1] == (1, "discard", "2m", "player")
    assert dms(world, 1)[-1].played == PlayedAhead("premove", T("9s"), T("2m"), T("2m"))


async def test_or_my_draw_off_plays_exactly_the_chosen_tile_and_survives_a_restart(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=dealing(quiet(), "7z"))
    table = await world.table(options=TIMERS)
    await world.service.set_next_discard(by(BOB), table, T("2m"))
    world.notes.clear()
    assert await world.service.set_next_or_draw(by(BOB), table, False, hand_number=1,
                                                seat=1) == NextDiscard(T("2m"), False)
    assert world.notes.sent == []  # private: nothing is published
    # changing the tile keeps it off
    await world.service.set_next_discard(by(BOB), table, T("5m"))
    await world.service.set_next_discard(by(BOB), table, T("2m"))
    assert (await world.service.hand(by(BOB), table)).next_discard == \
        NextDiscard(T("2m"), False)
    again = await make_world(deal=dealing(quiet(), "7z"))
    await again.service.recover(eager=True)
    assert (await again.service.hand(by(BOB), table)).next_discard == \
        NextDiscard(T("2m"), False)
    await again.service.act(by(ANN), table, D(0, "9m"))
    await again.settle()
    assert (await log_of(again.store, table))[-1] == (1, "discard", "2m", "player")
    assert dms(again, 1)[-1].played == PlayedAhead("premove", T("7z"), T("2m"), T("2m"))


async def test_switching_or_my_draw_is_judged_in_its_own_place(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=dealing(quiet(), "7z"))
    table = await world.table(options=TIMERS)
    svc = world.service
    await refused("no_next_discard", svc.set_next_or_draw(by(BOB), table, False, seat=1))
    await svc.set_next_discard(by(BOB), table, T("2m"))
    await refused("not_yours", svc.set_next_or_draw(by(EVE), table, False, seat=1))
    await refused("not_seated", svc.set_next_or_draw(by(EVE), table, False))
    await refused("wrong_seat", svc.set_next_or_draw(by(CID), table, False, seat=1))
    await refused("stale_hand", svc.set_next_or_draw(by(BOB), table, False, hand_number=0,
                                                     seat=1))
    await refused("your_turn", svc.set_next_or_draw(by(ANN), table, False, seat=0))
    other = await world.table(options=TIMERS, channel=71, users=(EVE, 5, 6, 8))
    await refused("not_yours", svc.set_next_or_draw(by(BOB), other, False, seat=1))
    hand = await world.store.hands.live(table)
    assert hand is not None
    assert await world.store.premoves.or_draw_of_hand(hand.id) == {1: ("2m", True)}
    # turned on when on: nothing changes, nothing refused
    assert await svc.set_next_or_draw(by(BOB), table, True, seat=1) == NextDiscard(T("2m"))


# A kong that needs a 财神 does not stop a pre-move (amendment D); a kong of one's own
# natural tiles does. Hangzhou, White Dragons (5z) are 财神: Bob holds three 7s.
SEVENS = "258m369p777s1234z"


@pytest.mark.parametrize(("draw", "played"), [("5z", True), ("7s", False)])
async def test_only_a_kong_of_natural_tiles_stops_the_next_discard(
        make_world: Callable[..., Awaitable[World]], draw: str, played: bool) -> None:
    world = await make_world(deal=dealing(quiet(SEVENS), draw))
    table = await world.table(rules="hangzhou", options=TIMERS)
    await world.service.set_next_discard(by(BOB), table, T("1z"))
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    log = await log_of(world.store, table)
    if played:  # 777s + a 财神 was on offer: 1z played (the 财神 drawn is kept)
        assert log[-1] == (1, "discard", "1z", "player")
        assert dms(world, 1)[-1].played == PlayedAhead("premove", T("5z"), T("1z"), T("1z"))
    else:  # four 7s: asked, the pre-move dropped
        assert log == [(0, "discard", "9m", "player")]
        assert dms(world, 1)[-1].step is not None
        assert await chosen(world.store, table) == {}


def test_a_kong_with_a_caishen_does_not_ask_in_person() -> None:
    """`asks_in_person`, which "discard my draw" obeys too: a win, or a kong of natural
    tiles."""
    rules = "hangzhou"
    hands = {0: QUIET[0] + "9m", 1: SEVENS, 2: QUIET[2], 3: QUIET[3]}
    for draw, asks in (("5z", False), ("7s", True), ("6z", False)):
        state, _ = new_hand(rules, {}, stack_wall(rules, hands, 0, draws=draw), 0, (3, 5))
        state, _ = apply(state, Action(ActionKind.DISCARD, 0, T("9m")))
        assert state.turn == 1 and state.seats[1].drawn == T(draw)
        assert asks_in_person(state, legal_actions(state, 1)) is asks, draw


async def test_a_dm_that_asks_nothing_mid_hand_is_silent(
        make_world: Callable[..., Awaitable[World]]) -> None:
    """Every decision notifies; what only tells news (a new hand's deal to a seat with
    nothing to decide; in the middle of a hand a turn played for the person as they
    chose, or by their timer, a claim question withdrawn, their discard claimed) comes
    silently, for their next look. The dealer's deal DM asks its first move: it
    notifies."""
    world = await make_world(deal=dealing(SCENE_PONG, "9s"))
    table = await world.table(options=TIMERS)
    dealt = [n for n in world.notes.of("private_hand")]
    assert [(n.seat, n.step is not None, n.silent) for n in sorted(
        dealt, key=lambda n: n.seat)] == [(0, True, False), (1, False, True),
                                          (2, False, True), (3, False, True)]
    world.notes.clear()
    await world.service.act(by(ANN), table, D(0, "9m"))  # Cid may pong: asked, silently
    await world.settle()
    (offer,) = dms(world, 2)
    assert offer.step is not None and offer.silent  # a claim offer without a win
    await world.advance(60)  # Cid's claim timer passes for him: the question withdrawn
    reminded, withdrawn = dms(world, 2)[1:]
    assert reminded.reminder and reminded.silent  # the offer again, at half time
    assert withdrawn.step is None and withdrawn.silent
    (turn,) = dms(world, 1)
    assert turn.step is not None and not turn.silent  # Bob's turn notifies
    await world.advance(600)  # Bob's turn timer plays his draw
    reminded, timed = dms(world, 1)[1:]
    assert reminded.reminder and not reminded.silent  # a reminder notifies
    assert timed.step is None and timed.silent
    assert (await log_of(world.store, table))[-1] == (1, "discard", "9s", "timeout")


async def test_a_chosen_caishen_is_thrown_as_chosen(
        make_world: Callable[..., Awaitable[World]]) -> None:
    """The engine's advice always keeps a 财神, so "or my draw" would never let the one
    Bob chose go: a 财神 chosen is a float meant, thrown whatever he draws."""
    world = await make_world(deal=dealing(quiet("147s258p369p5z123z"), "6z"))
    table = await world.table(rules="hangzhou", options=TIMERS)
    await world.service.set_next_discard(by(BOB), table, T("5z"))
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    assert (await log_of(world.store, table))[-1] == (1, "discard", "5z", "player")
    assert dms(world, 1)[-1].played == PlayedAhead("premove", T("6z"), T("5z"), T("5z"))
