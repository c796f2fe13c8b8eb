"""Named claims answered in advance (issue 30, amendments E and G): "chi 9m with 7m8m"
played at once like "pong 9m"; named answers come first, then "win only" passes every
other offer that is no win and "never chi" every other chi (the whole table of
combinations below); a chi or pong may name its discard ("pong 9m, then 1z"), played at
once after that claim when still held and legal, told to the seat in one silent DM;
bad answers refused with their own codes, nothing changed; kept across a restart and
honoured by another process (tests/service/test_service_shared.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.service import ClaimAnswer, FakeClock, PrivateNotice
from bot.service.live import AnswersGiven, advance_answer, auto_reason, played_ahead
from bot.service.notices import NextDiscard
from bot.store import SeatRow, StandingChoices
from engine.game import Action, ActionKind
from engine.tiles import Tile, format_tiles, tile_from_notation
from tests.game.helpers import PONG as game_PONG
from tests.game.helpers import D as game_D
from tests.game.helpers import play as game_play
from tests.game.helpers import start as game_start
from tests.narrowing import known
from tests.service.helpers import (
    ANN,
    BOB,
    CID,
    EVE,
    QUIET,
    SCENE_PONG,
    SCENE_TWO,
    D,
    World,
    by,
    refused,
    stacked,
)

pytestmark = pytest.mark.usefixtures("dealer_zero")
TIMERS = {"turn_timer": 60, "claim_timer": 20, "away_after": 3}
# The dealer discards 9m; only Bob (the next seat) may claim it: a chi with 7m 8m.
SCENE_CHI = {0: QUIET[0] + "9m", 1: "278m369p147s1234z", 2: QUIET[2], 3: QUIET[3]}
# Bob may chi the dealer's 9m (7m 8m) or pong it (9m 9m).
SCENE_BOTH = {0: QUIET[0] + "9m", 1: "7899m369p147s123z", 2: QUIET[2], 3: QUIET[3]}
# Cid holds three 9m: the dealer's 9m may be ponged or konged by him.
SCENE_KONG = {0: QUIET[0] + "9m", 1: QUIET[1], 2: "999m369p147s1234z", 3: QUIET[3]}


def tile(text: str) -> Tile:
    return tile_from_notation(text)


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(sorted(tile(text[i:i + 2]) for i in range(0, len(text), 2)))


def chi(with_: str, then: str | None = None) -> ClaimAnswer:
    return ClaimAnswer(ActionKind.CHI, tiles(with_), tile(then) if then else None)


def pong(then: str | None = None) -> ClaimAnswer:
    return ClaimAnswer(ActionKind.PONG, (), tile(then) if then else None)


KONG = ClaimAnswer(ActionKind.KONG)


def decisions(world: World, user: int) -> list[PrivateNotice]:
    return [n for n in world.notes.of("private_hand")
            if n.user_id == user and n.step is not None]


def privates(world: World, user: int) -> list[PrivateNotice]:
    return [n for n in world.notes.of("private_hand") if n.user_id == user]


async def sources(world: World, table: int) -> list[tuple[int, str, str]]:
    hand = known(await world.store.hands.live(table))
    return [(a.seat, a.kind, a.source) for a in await world.store.log.actions(hand.id)]


# ---------------------------------------------------------------------------
# E: the whole table of combinations, on real windows


def _person(seat: int, choices: StandingChoices) -> SeatRow:
    return SeatRow(1, seat, 100 + seat, False, f"P{seat}", False, 0, choices, False, 0.0)


STANDING = {"none": StandingChoices(), "win only": StandingChoices(pass_claims=True),
            "never chi": StandingChoices(never_chi=True),
            "both": StandingChoices(pass_claims=True, never_chi=True)}
WINDOWS = {"chi": (SCENE_CHI, 1, "9m"), "pong": (SCENE_PONG, 2, "9m"),
           "pong+chi": (SCENE_BOTH, 1, "9m"), "kong+pong": (SCENE_KONG, 2, "9m"),
           "win": (SCENE_TWO, 1, "5p")}
ANSWERS: dict[str, ClaimAnswer | None] = {
    "-": None, "pong": pong(), "kong": KONG, "chi 78m": chi("7m8m"),
    "chi with others": chi("8m1p"),
    "pong, then 1z": pong("1z"), "chi 78m, then 1z": chi("7m8m", "1z"),
    "chi 34p": chi("3p4p")}
ASK, PASS = "ask", "pass"
# (window, answer) → what each standing choice ("none", "win only", "never chi", both)
# makes of it: the claim the answer names when the window offers exactly it, else
# "win only" passes, "never chi" passes a window offering chis alone, else ask.
TABLE: dict[tuple[str, str], tuple[str, str, str, str]] = {
    ("chi", "-"): (ASK, PASS, PASS, PASS),
    ("chi", "pong"): (ASK, PASS, PASS, PASS),
    ("chi", "kong"): (ASK, PASS, PASS, PASS),
    ("chi", "chi 78m"): ("chi 78m",) * 4,
    ("chi", "chi 78m, then 1z"): ("chi 78m",) * 4,
    ("chi", "chi with others"): (ASK, PASS, PASS, PASS),
    ("pong", "-"): (ASK, PASS, ASK, PASS),
    ("pong", "pong"): ("pong 99m",) * 4,
    ("pong", "pong, then 1z"): ("pong 99m",) * 4,
    ("pong", "kong"): (ASK, PASS, ASK, PASS),
    ("pong", "chi 78m"): (ASK, PASS, ASK, PASS),
    ("pong+chi", "-"): (ASK, PASS, ASK, PASS),
    ("pong+chi", "pong"): ("pong 99m",) * 4,
    ("pong+chi", "chi 78m"): ("chi 78m",) * 4,
    ("pong+chi", "kong"): (ASK, PASS, ASK, PASS),
    ("kong+pong", "-"): (ASK, PASS, ASK, PASS),
    ("kong+pong", "pong"): ("pong 99m",) * 4,
    ("kong+pong", "kong"): ("kong 999m",) * 4,
    ("kong+pong", "chi 78m"): (ASK, PASS, ASK, PASS),
    ("win", "-"): (ASK,) * 4,
    ("win", "pong"): (ASK,) * 4,
    ("win", "chi 78m"): (ASK,) * 4,
    ("win", "chi 34p"): (ASK,) * 4,   # offered, beside a win: nothing but "always win"
}


def _outcome(window: str, answer: str, standing: str) -> str:
    scene, seat, discard = WINDOWS[window]
    state = game_play(game_start("shanghai", scene)[0], game_D(0, discard))
    given = ANSWERS[answer]
    answers: AnswersGiven = {} if given is None else {tile(discard): given}
    choices = STANDING[standing]
    reason = auto_reason(_person(seat, choices), state, seat, answers)
    if reason is None:
        return ASK
    if reason == "pass_claims":
        return PASS
    assert reason == "claim_answer", reason
    action = known(advance_answer(state, seat, choices, answers))
    assert action in state.window.options[seat] or action.kind is ActionKind.PASS  # type: ignore[union-attr]  # a window is open
    if action.kind is ActionKind.PASS:
        return PASS
    return f"{action.kind.value} {format_tiles(action.tiles)}"


@pytest.mark.parametrize(("window", "answer"), sorted(TABLE))
def test_named_answers_come_first_then_win_only_and_never_chi(window: str, answer: str
                                                             ) -> None:
    got = tuple(_outcome(window, answer, standing) for standing in STANDING)
    assert got == TABLE[window, answer]


def test_the_windows_of_the_table_offer_what_they_say() -> None:
    offered = {}
    for name, (scene, seat, discard) in WINDOWS.items():
        state = game_play(game_start("shanghai", scene)[0], game_D(0, discard))
        window = known(state.window)
        offered[name] = sorted(f"{a.kind.value} {format_tiles(a.tiles)}".strip()
                               for a in window.options[seat])
    assert offered == {"chi": ["chi 78m"], "pong": ["pong 99m"],
                       "pong+chi": ["chi 78m", "pong 99m"],
                       "kong+pong": ["kong 999m", "pong 99m"],
                       "win": ["chi 34p", "chi 46p", "chi 67p", "win"]}


def test_the_discard_named_after_a_claim_is_played_only_when_held_and_legal() -> None:
    """After Cid's pong of 9m: "then 1z" plays 1z; "then 5m" (not held) asks; an answer
    for the pong's tile that names another claim, or after another claim, asks."""
    state = game_play(game_start("shanghai", SCENE_PONG)[0], game_D(0, "9m"),
                      game_PONG(2, "99m"))
    row = _person(2, StandingChoices())
    assert played_ahead(row, state, 2, None, {tile("9m"): pong("1z")}) == \
        ("claim_discard", Action(ActionKind.DISCARD, 2, tile("1z")))
    assert auto_reason(row, state, 2, {tile("9m"): pong("1z")}) == "claim_discard"
    assert played_ahead(row, state, 2, None, {tile("9m"): pong("5m")}) is None
    assert played_ahead(row, state, 2, None, {tile("9m"): pong()}) is None
    assert played_ahead(row, state, 2, None, {tile("9m"): chi("7m8m", "1z")}) is None
    assert played_ahead(row, state, 2, None, {tile("5m"): pong("1z")}) is None
    # a next discard chosen in advance does not play after one's own claim
    assert played_ahead(row, state, 2, NextDiscard(tile("1z"))) is None


# ---------------------------------------------------------------------------
# The service: played at once, told silently, refused when wrong


async def test_a_named_chi_closes_the_window_without_asking(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_CHI))
    table = await world.table(options=TIMERS)
    await world.service.set_choice(by(BOB), table, "pass_claims", True)  # win only, too
    now = await world.service.set_claim_answers(by(BOB), table, {tile("9m"): chi("8m7m")})
    assert now == {tile("9m"): chi("7m8m")}
    before = len(privates(world, BOB))
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    assert await sources(world, table) == [(0, "discard", "player"), (1, "chi", "player")]
    (after,) = privates(world, BOB)[before:]  # no claim DM: his discard is asked
    assert after.step is not None and after.view().moves
    assert [m.move for m in world.notes.of("your_move") if m.user_id == BOB] == ["turn"]


async def test_a_pong_then_its_discard_are_played_and_told_in_one_silent_dm(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)
    await world.service.set_claim_answers(by(CID), table, {tile("9m"): pong("1z")})
    before = len(privates(world, CID))
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    assert await sources(world, table) == [(0, "discard", "player"), (2, "pong", "player"),
                                           (2, "discard", "player")]
    (told,) = privates(world, CID)[before:]
    assert told.step is None and told.silent
    played = known(told.played)
    assert played.reason == "claim_discard" and played.discarded == tile("1z")
    assert played.claim == (tile("9m"), pong("1z")) and played.drawn is None
    assert not [m for m in world.notes.of("your_move") if m.user_id == CID]
    assert (await world.service.table_info(table)).deciding == (3,)


async def test_a_named_chi_then_its_discard(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_CHI))
    table = await world.table(options=TIMERS)
    await world.service.set_claim_answers(by(BOB), table, {tile("9m"): chi("7m8m")})
    # named afterwards, from the follow-up menu; a menu save keeps it
    await world.service.set_claim_discard(by(BOB), table, tile("9m"), tile("1z"))
    now = await world.service.set_claim_answers(by(BOB), table, {tile("9m"): chi("7m8m")})
    assert now == {tile("9m"): chi("7m8m", "1z")}
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    assert [(s, k) for s, k, _ in await sources(world, table)] == [
        (0, "discard"), (1, "chi"), (1, "discard")]
    hand = known(await world.store.hands.live(table))
    assert (await world.store.log.actions(hand.id))[-1].payload["tile"] == "1z"


async def test_bad_named_claims_are_refused_with_their_own_codes(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_CHI))
    table = await world.table(options=TIMERS)
    svc = world.service
    good = {tile("9m"): chi("7m8m", "1z")}
    await svc.set_claim_answers(by(BOB), table, good)
    for bad in ({tile("9m"): chi("7m2m")},            # no run
                {tile("9m"): chi("7m9m")},            # 9m not held (nor a run)
                {tile("9p"): chi("7m8m")},            # of another suit
                {tile("1z"): chi("2z3z")}):           # honours make no chi
        err = await refused("bad_chi_answer", svc.set_claim_answers(by(BOB), table, bad))
        (claimed,) = bad
        assert err.params["tile"] == claimed
    # Cid holds no 7m 8m: a chi is judged on the asker's own hand
    await refused("bad_chi_answer", svc.set_claim_answers(
        by(CID), table, {tile("9m"): chi("7m8m")}))
    for then in ("5m", "7m"):                        # not held, or used by the chi
        await refused("bad_then_discard", svc.set_claim_answers(
            by(BOB), table, {tile("9m"): chi("7m8m", then)}))
        await refused("bad_then_discard", svc.set_claim_discard(
            by(BOB), table, tile("9m"), tile(then)))
    await refused("bad_then_discard", svc.set_claim_discard(     # no answer for 5m
        by(BOB), table, tile("5m"), tile("1z")))
    await refused("not_seated", svc.set_claim_discard(by(EVE), table, tile("9m"), None))
    await refused("not_seated", svc.set_claim_answers(by(EVE), table, good))
    await refused("stale_hand", svc.set_claim_discard(by(BOB), table, tile("9m"), None,
                                                      hand_number=2))
    hand = known(await world.store.hands.live(table))
    rows = await world.store.claim_answers.of_hand(hand.id)
    assert [(r.seat, r.tile, r.kind, r.with_tiles, r.then_discard) for r in rows] == [
        (1, "9m", "chi", "7m8m", "1z")]                             # nothing changed


async def test_a_kong_names_no_discard(make_world: Callable[..., Awaitable[World]]) -> None:
    """A kong draws its replacement: the turn after it is a drawn turn (the next
    discard chosen in advance is for that)."""
    world = await make_world(deal=stacked(SCENE_KONG))
    table = await world.table(options=TIMERS)
    await refused("bad_then_discard", world.service.set_claim_answers(
        by(CID), table, {tile("9m"): ClaimAnswer(ActionKind.KONG, then=tile("1z"))}))
    await world.service.set_claim_answers(by(CID), table, {tile("9m"): KONG})
    await refused("bad_then_discard", world.service.set_claim_discard(
        by(CID), table, tile("9m"), tile("1z")))


async def test_named_claims_survive_a_restart(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)
    await world.service.set_claim_answers(by(CID), table, {tile("9m"): pong("1z")})
    await world.store.close()
    world = await make_world(FakeClock(world.clock.now() + 60), deal=stacked(SCENE_PONG))
    await world.service.recover()
    assert (await world.service.hand(by(CID), table)).answers == ((tile("9m"), pong("1z")),)
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.settle()
    assert [k for _, k, _ in await sources(world, table)] == ["discard", "pong", "discard"]


async def test_a_menu_save_drops_a_named_discard_no_longer_held(
        make_world: Callable[..., Awaitable[World]]) -> None:
    """"Pong 9m, then 7z"; Cid discards his 7z; saving the menu again keeps the pong
    (the menu carries no discards) and drops the 7z instead of refusing the save."""
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options=TIMERS)
    svc = world.service
    await svc.set_claim_answers(by(CID), table, {tile("9m"): pong("7z")})
    for who, action in ((ANN, D(0, "1z")), (BOB, D(1, "2z")), (CID, D(2, "7z"))):
        await svc.act(by(who), table, action)
        await world.settle()
    assert await svc.set_claim_answers(by(CID), table, {tile("9m"): pong()}) == {
        tile("9m"): pong()}


def test_a_named_chi_never_uses_a_caishen_nor_a_stand_in() -> None:
    """Hangzhou ``flip`` with 5m turned: the other 5m are 财神 and 白 plays as 5m. A named
    chi is of natural tiles only (a chi with a 财神 stays the person's call, asked)."""
    from bot.service.live import natural_chi
    from engine.analysis import Wildcards

    state = game_start("shanghai", SCENE_CHI)[0].wildcards
    assert natural_chi(state, tile("9m"), tiles("7m8m"))
    assert natural_chi(state, tile("6m"), tiles("4m5m"))
    flip = Wildcards.flip(tile("5m"))
    assert not natural_chi(flip, tile("6m"), tiles("4m5m"))      # 5m is a 财神 now
    assert not natural_chi(flip, tile("5m"), tiles("3m4m"))      # nor claimed as one
    assert not natural_chi(flip, tile("6m"), tiles("4m5z"))      # 白 plays as 5m
    assert natural_chi(flip, tile("9m"), tiles("7m8m"))
    assert not natural_chi(state, tile("9m"), tiles("7m"))       # two tiles, no fewer
