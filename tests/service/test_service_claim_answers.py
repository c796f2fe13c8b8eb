"""Claim offers and answers given in advance (issue 30): a claim DM with no win on offer
is marked silent (for everybody, always); a seat whose answers ("pong 9m", "never chi",
"win only") decide its claim window is answered at once and never asked (no DM, no
ping, nothing of its own answer echoed), an uncovered one is asked as before, an answer
never plays what the window does not offer; answers are the seat's own, this hand's,
and kept across a restart. Nothing public tells a covered seat from one asked that
answered at once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.service import ClaimAnswer, FakeClock, PrivateNotice, RecordingNotifier, TableService
from bot.service.fairness import Deal, deal_of
from bot.service.live import advance_answer, auto_reason
from bot.store import SeatRow, StandingChoices, Store
from engine.game import Action, ActionKind, stack_wall
from engine.tiles import Tile, tile_from_notation
from tests.game.helpers import PONG as game_PONG
from tests.game.helpers import D as game_D
from tests.game.helpers import play as game_play
from tests.game.helpers import start as game_start
from tests.game.test_hangzhou_play import SCENE_NEAR
from tests.narrowing import known
from tests.service.helpers import (
    ANN,
    BOB,
    CID,
    DEE,
    EVE,
    QUIET,
    SCENE_PONG,
    SCENE_TWO,
    D,
    P,
    World,
    by,
    refused,
    stacked,
)

pytestmark = pytest.mark.usefixtures("dealer_zero")
TIMERS = {"turn_timer": 60, "claim_timer": 20, "away_after": 3}
# The dealer discards 9m; only Bob (the next seat) may claim it: a chi with 7m 8m.
SCENE_CHI = {0: QUIET[0] + "9m", 1: "278m369p147s1234z", 2: QUIET[2], 3: QUIET[3]}
# Cid holds 7m 8m 9m 9m; the turns below make him discard a 9m before Bob gives the
# other: his "pong 9m" is then no claim the window offers (a chi is).
SCENE_GONE = {0: "147m258p369s12345z", 1: "369m147p258s1236z", 2: "7899m369p147s567z",
              3: "147m369p258s1234z"}
GONE_DRAWS = "7z1m7z7z4s"


def tile(text: str) -> Tile:
    return tile_from_notation(text)


PONG_9M: Mapping[Tile, ActionKind] = {tile("9m"): ActionKind.PONG}


def decisions(world: World, user: int) -> list[PrivateNotice]:
    return [n for n in world.notes.of("private_hand")
            if n.user_id == user and n.step is not None]


def privates(world: World, user: int) -> list[PrivateNotice]:
    return [n for n in world.notes.of("private_hand") if n.user_id == user]


async def sources(world: World, table: int) -> list[tuple[int, str, str]]:
    hand = known(await world.store.hands.live(table))
    return [(a.seat, a.kind, a.source) for a in await world.store.log.actions(hand.id)]


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


async def test_a_pong_answered_in_advance_is_played_at_once_without_asking(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)
    assert await world.service.set_claim_answers(by(CID), table, PONG_9M) == {
        tile("9m"): ClaimAnswer(ActionKind.PONG)}
    before = len(privates(world, CID))
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    # the person's own move (it counts as theirs), played without a timer running
    assert await sources(world, table) == [(0, "discard", "player"), (2, "pong", "player")]
    (after,) = privates(world, CID)[before:]  # no claim DM: straight to the discard
    assert after.step is not None and after.view().moves
    assert all(m.move == "turn" for m in world.notes.of("your_move") if m.user_id == CID)
    info = await world.service.table_info(table)
    assert info.deciding == (2,)


@pytest.mark.parametrize("choice", ["pass_claims", "never_chi"])
async def test_a_standing_pass_closes_the_window_without_a_dm(
        make_world: Callable[..., Awaitable[World]], choice: str) -> None:
    """ "win only" passes Cid's pong; "never chi" Bob's chi: neither hears of it."""
    scene, seat, user = (SCENE_PONG, 2, CID) if choice == "pass_claims" else (SCENE_CHI, 1, BOB)
    world = await make_world(deal=stacked(scene))
    table = await world.table(options=TIMERS)
    await world.service.set_choice(by(user), table, choice, True)
    before = len(privates(world, user))
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    assert (await sources(world, table))[1][:2] == (seat, "pass")
    told = privates(world, user)[before:]
    assert all(n.step is not None for n in told)  # only Bob's own turn, if his
    assert all(m.move == "turn" for m in world.notes.of("your_move") if m.user_id == user)
    assert (await world.service.table_info(table)).deciding == (1,)


async def test_never_chi_leaves_a_pong_offer_to_be_asked(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)
    await world.service.set_choice(by(CID), table, "never_chi", True)
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    assert await sources(world, table) == [(0, "discard", "player")]
    (offer,) = decisions(world, CID)
    assert offer.deadline == world.clock.now() + TIMERS["claim_timer"]
    assert [m.move for m in world.notes.of("your_move") if m.user_id == CID] == ["claim"]


async def test_an_answer_decides_no_win(
        make_world: Callable[..., Awaitable[World]]) -> None:
    """Cid may win on the 5p: "win only" and a pong answered do not decide a win."""
    world = await make_world(deal=stacked(SCENE_TWO))
    table = await world.table(options=TIMERS)
    await world.service.set_choice(by(CID), table, "pass_claims", True)
    await world.service.act(by(ANN), table, D(0, "5p"))
    await world.settle()
    assert await sources(world, table) == [(0, "discard", "player")]
    assert len(decisions(world, CID)) == 1


def gone_deal(_rules: str, dealer: int) -> Deal:
    return deal_of(stack_wall("shanghai", SCENE_GONE, dealer, draws=GONE_DRAWS))


async def test_an_answer_the_window_no_longer_offers_is_not_played(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=gone_deal)
    table = await world.table(options=TIMERS)
    await world.service.set_claim_answers(by(CID), table, PONG_9M)
    for action in (D(0, "5z"), D(1, "7z"), D(2, "9m"), D(3, "7z"), D(0, "7z"), D(1, "9m")):
        await world.service.act(by((ANN, BOB, CID, DEE)[action.seat]), table, action)
        await world.settle()
    # Cid holds one 9m now: a chi of it is offered, his pong is not: he is asked
    assert [a[1] for a in await sources(world, table)] == ["discard"] * 6
    offer = decisions(world, CID)[-1]
    assert {m.action.kind for m in offer.view().moves} == {ActionKind.CHI, ActionKind.PASS}
    assert offer.deadline is not None
    hand = await world.service.hand(by(CID), table)
    assert hand.step is not None


async def test_answers_are_the_seats_own_and_bad_ones_change_nothing(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)
    svc = world.service
    await refused("not_seated", svc.set_claim_answers(by(EVE), table, PONG_9M))
    await svc.set_claim_answers(by(CID), table, PONG_9M)
    # Bob holds no pair of 9m: his own answers are judged on his own hand
    bad = await refused("bad_claim_answer", svc.set_claim_answers(by(BOB), table, PONG_9M))
    assert bad.params["tile"] == tile("9m") and bad.params["kind"] == "pong"
    await refused("bad_claim_answer", svc.set_claim_answers(
        by(CID), table, {tile("9m"): ActionKind.KONG}))      # two, not three
    await refused("bad_chi_answer", svc.set_claim_answers(            # no tiles named
        by(CID), table, {tile("9m"): ActionKind.CHI}))
    await refused("stale_hand", svc.set_claim_answers(by(CID), table, {}, hand_number=2))
    hand = known(await world.store.hands.live(table))
    rows = await world.store.claim_answers.of_hand(hand.id)
    assert [(r.seat, r.tile, r.kind) for r in rows] == [(2, "9m", "pong")]
    await svc.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    assert (await sources(world, table))[1] == (2, "pong", "player")


async def test_answers_survive_a_restart_and_go_with_the_hand(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)
    await world.service.set_claim_answers(by(CID), table, PONG_9M)
    await world.store.close()
    world = await make_world(FakeClock(world.clock.now() + 60), deal=stacked(SCENE_PONG))
    await world.service.recover()
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    assert await sources(world, table) == [(0, "discard", "player"), (2, "pong", "player")]
    hand = known(await world.store.hands.live(table))
    await world.service.cancel(by(ANN), table)
    assert await world.store.claim_answers.of_hand(hand.id) == []


# ---------------------------------------------------------------------------
# Secrecy: covered or asked-and-answered-at-once, the same to everyone else


async def _world(folder: Path, scene: Mapping[int, str]) -> World:
    store = await Store.open(folder / "db.sqlite3")
    notes = RecordingNotifier()
    clock = FakeClock(start=1_800_000_000.0)
    service = TableService(store, notes, clock=clock, computer_pause=0.0,
                           deal=stacked(scene))
    return World(store, clock, notes, service)


def _seen_by_others(world: World, secret: int) -> list[tuple[Any, ...]]:
    """What every notice but the secret seat's own says: the channel's (table, pings,
    lobby) and the other seats' DMs, as the adapter would show them."""
    out: list[tuple[Any, ...]] = []
    for kind, n in world.notes.sent:
        if getattr(n, "user_id", None) == secret and kind in ("private_hand", "your_move",
                                                              "reminder"):
            continue
        if kind == "table":
            out.append((kind, n.hand_number, n.seq, n.lines, n.events, n.deciding,
                        n.view()))
        elif kind == "private_hand":
            out.append((kind, n.seat, n.step, n.public_step, n.deadline, n.news, n.silent,
                        n.reminder, n.view()))
        elif kind in ("your_move", "reminder"):
            out.append((kind, n.seat, n.step, n.move, n.deadline, n.discarder, n.silent))
        else:
            out.append((kind, n))
    return out


SEVEN_EIGHT = (tile("7m"), tile("8m"))


@pytest.mark.parametrize("answer", ["pong", "pass", "chi", "pong, then 1z"])
async def test_nobody_else_can_tell_a_covered_seat_from_a_quick_answer(
        tmp_path: Path, answer: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.service.fairness.roll_dice", lambda: (3, 4))  # same deals
    scene, secret, seat = (SCENE_CHI, BOB, 1) if answer == "chi" else (SCENE_PONG, CID, 2)
    given: dict[str, Mapping[Tile, ClaimAnswer | ActionKind]] = {
        "pong": PONG_9M, "chi": {tile("9m"): ClaimAnswer(ActionKind.CHI, SEVEN_EIGHT)},
        "pong, then 1z": {tile("9m"): ClaimAnswer(ActionKind.PONG, then=tile("1z"))}}
    claims = {"pong": Action(ActionKind.PONG, 2, tiles=(tile("9m"), tile("9m"))),
              "pass": P(2), "chi": Action(ActionKind.CHI, 1, tiles=SEVEN_EIGHT),
              "pong, then 1z": Action(ActionKind.PONG, 2, tiles=(tile("9m"), tile("9m")))}
    seen = []
    for covered in (True, False):
        folder = tmp_path / f"{answer}-{covered}"
        folder.mkdir()
        world = await _world(folder, scene)
        try:
            table = await world.table(options=TIMERS)
            if covered and answer in given:
                await world.service.set_claim_answers(by(secret), table, given[answer])
            world.notes.clear()
            await world.service.act(by(ANN), table, D(0, "9m"))
            if covered and answer == "pass":
                # set while the window is open: the same moment, then answered at once
                await world.service.set_claim_answers(by(CID), table, {})
                await world.service.set_choice(by(CID), table, "pass_claims", True)
            elif not covered:
                await world.service.act(by(secret), table, claims[answer])
                if answer == "pong, then 1z":
                    await world.service.act(by(CID), table, D(2, "1z"))
            await world.settle()
            seen.append(_seen_by_others(world, secret))
            if answer == "pass":
                await world.service.act(by(BOB), table, D(1, "1z"))
            elif answer == "pong, then 1z":
                await world.service.act(by(DEE), table, D(3, "2z"))
            else:
                await world.service.act(by(secret), table, D(seat, "1z"))
            await world.settle()
            seen.append(_seen_by_others(world, secret))
        finally:
            await world.store.close()
    covered_run, asked_run = seen[:2], seen[2:]
    assert covered_run == asked_run
    assert any(k[0] == "table" for k in covered_run[0])


async def test_the_covered_seat_gets_no_dm_of_the_window_nor_its_answer(
        tmp_path: Path) -> None:
    world = await _world(tmp_path, SCENE_PONG)
    try:
        table = await world.table(options=TIMERS)
        await world.service.set_choice(by(CID), table, "pass_claims", True)
        world.notes.clear()
        await world.service.act(by(ANN), table, D(0, "9m"))
        await world.settle()
        assert [n for k, n in world.notes.sent if getattr(n, "user_id", None) == CID] == []
        assert (await world.service.table_info(table)).deciding == (1,)
        assert StandingChoices(pass_claims=True) == (await world.service.hand(
            by(CID), table)).choices
    finally:
        await world.store.close()


# ---------------------------------------------------------------------------
# What an answer plays: only an option the window offers, never a win


def _person(seat: int, choices: StandingChoices | None = None) -> SeatRow:
    return SeatRow(1, seat, 100 + seat, False, f"P{seat}", False, 0,
                   choices or StandingChoices(), False, 0.0)


def test_a_pong_answered_is_the_natural_pong_offered_never_one_with_caishen() -> None:
    """Hangzhou, 白 the 财神: seat 2 may pong 3m only with a 财神 (one 3m held), seat 3
    with its own two 3m. "pong 3m" covers seat 3 alone."""
    state = game_play(game_start("hangzhou", SCENE_NEAR)[0], game_D(0, "3m"))
    answer = {tile("3m"): ActionKind.PONG}
    assert advance_answer(state, 2, StandingChoices(), answer) is None
    assert auto_reason(_person(2), state, 2, answer) is None        # asked
    assert advance_answer(state, 3, StandingChoices(), answer) == game_PONG(3, "33m")
    assert auto_reason(_person(3), state, 3, answer) == "claim_answer"
    # a kong answered is no pong: seat 3 holds two 3m, the window offers no kong
    kong = {tile("3m"): ActionKind.KONG}
    assert auto_reason(_person(3), state, 3, kong) is None
    # "win only" passes the pong; an answer given for this tile comes first
    win_only = _person(3, StandingChoices(pass_claims=True))
    assert auto_reason(win_only, state, 3) == "pass_claims"
    assert auto_reason(win_only, state, 3, answer) == "claim_answer"


def test_never_chi_passes_a_chi_alone_and_nothing_decides_a_win() -> None:
    chi = game_play(game_start("shanghai", SCENE_CHI)[0], game_D(0, "9m"))
    never = StandingChoices(never_chi=True)
    assert advance_answer(chi, 1, never) == Action(ActionKind.PASS, 1)
    assert advance_answer(chi, 1, StandingChoices()) is None
    win = game_play(game_start("shanghai", SCENE_TWO)[0], game_D(0, "5p"))
    everything = StandingChoices(pass_claims=True, never_chi=True)
    assert advance_answer(win, 2, everything, {tile("5p"): ActionKind.PONG}) is None
    assert auto_reason(_person(2, everything), win, 2) is None
    assert auto_reason(_person(2, StandingChoices(always_win=True)), win, 2) == "always_win"
