"""custom_ids: each dynamic item makes its ids, reads them back (the formats of the
messages already in Discord, older ids without the seat included), stays under 100
characters, refuses anything else; its callback calls the table service."""

from __future__ import annotations

import asyncio
import re
import time
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.discord.client import MahjongBot
from bot.discord.core import answering
from bot.discord.core.items import (
    DYNAMIC_ITEMS,
    MAX_CUSTOM_ID,
    BadCustomId,
    answer_unshown,
    numbers_fit,
)
from bot.discord.lobby.leave import LeaveButton
from bot.discord.lobby.message import LOBBY_ACTIONS, LobbyButton
from bot.discord.play.choices import (
    PREFERENCES,
    BackButton,
    ClaimAnswersSelect,
    ClaimThenSelect,
    PreferenceButton,
    parse_answers,
)
from bot.discord.play.moves import DiscardSelect, MoveButton, MoveCode, parse_discard_value
from bot.discord.play.premoves import NextDiscardCancel, NextDiscardSelect, NextOrDrawButton
from bot.discord.replay import ReplayRecord, ReplayStep, ReplayViewMenu
from bot.discord.seasons import SeasonCloseButton
from bot.service import ActResult, Cause, ClaimAnswer, Place, Refused
from bot.service import errors as E
from bot.store import StandingChoices
from engine.game.actions import Action
from engine.rules.common import ActionKind
from engine.tiles import Tile, parse_tiles
from tests.discord.fakes import FakeInteraction, FakeService, as_interaction, interaction

BIG = 10**18  # the largest ids the scheme must carry (SQLite row ids, snowflakes)


def _tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tiles(text, max_copies=False))


ACTIONS = [
    Action(ActionKind.WIN, 2), Action(ActionKind.PASS, 1),
    Action(ActionKind.CHI, 1, tiles=_tiles("46m")),
    Action(ActionKind.CHI, 1, tiles=_tiles("4m5z")),
    Action(ActionKind.PONG, 3, tiles=_tiles("99s")),
    Action(ActionKind.KONG, 0, tiles=_tiles("777z")),
    Action(ActionKind.ADDED_KONG, 0, Tile.M5),
    Action(ActionKind.CONCEALED_KONG, 2, tiles=_tiles("5555z")),
    Action(ActionKind.DISCARD, 1, Tile.P9),
]



ITEMS = (MoveButton, DiscardSelect, LobbyButton, PreferenceButton, BackButton, LeaveButton,
         NextDiscardSelect, NextDiscardCancel, ClaimAnswersSelect, NextOrDrawButton,
         ClaimThenSelect, ReplayStep, ReplayViewMenu, ReplayRecord, SeasonCloseButton)


def template(cls: Any) -> re.Pattern[str]:
    pattern: re.Pattern[str] = cls.__discord_ui_compiled_template__
    return pattern


async def read(cls: Any, custom_id: str, inter: Any = None) -> Any:
    """The item a click on ``custom_id`` rebuilds, as discord.py does; BadCustomId when
    the id does not fit (discord.py would not route it) or says no move."""
    match = template(cls).fullmatch(custom_id)
    if match is None:
        raise BadCustomId(custom_id)
    item = await cls.from_custom_id(inter or interaction(), None, match)
    if getattr(item, "move", True) is None:
        raise BadCustomId(custom_id)
    return item


def move_id(table: int, hand: int, step: int, action: Action, seat: int | None = None) -> str:
    return MoveButton(table, hand, step, MoveCode.of(action), seat=seat).custom_id


@pytest.mark.parametrize("action", ACTIONS, ids=str)
async def test_move_ids_round_trip_to_the_same_action(action: Action) -> None:
    for table, hand, step in ((1, 1, 0), (BIG, 999, 99999)):
        custom_id = move_id(table, hand, step, action)
        assert len(custom_id) <= MAX_CUSTOM_ID
        parsed = await read(MoveButton, custom_id)
        assert (parsed.table, parsed.hand, parsed.step, parsed.seq) == (table, hand, step,
                                                                         None)
        assert parsed.move.action(action.seat) == action


def test_move_codes_are_short_and_readable() -> None:
    assert move_id(12, 3, 45, ACTIONS[2]) == "mj:mv:12:3:p45:c46m"
    assert move_id(12, 3, 45, ACTIONS[0]) == "mj:mv:12:3:p45:w"
    assert move_id(12, 3, 45, ACTIONS[7]) == "mj:mv:12:3:p45:g5555z"


async def test_discard_and_lobby_ids_round_trip() -> None:
    custom_id = DiscardSelect(BIG, 8, 101).custom_id
    assert custom_id == f"mj:dc:{BIG}:8:p101" and len(custom_id) <= MAX_CUSTOM_ID
    assert (await read(DiscardSelect, custom_id)).step == 101
    for what in LOBBY_ACTIONS:
        custom_id = LobbyButton(7, what).custom_id
        assert (await read(LobbyButton, custom_id)).what == what
    assert LobbyButton(7, "addbot").custom_id == "mj:lobby:7:addbot"


@pytest.mark.parametrize("bad", [
    "", "mj:mv:1:1:1", "mj:mv:1:1:1:", "mj:mv:01:1:1:w", "mj:mv:1:1:-1:w", "mj:mv:1:1:1:q5m",
    "mj:mv:1:1:1:p5m", "mj:mv:1:1:1:p555m", "mj:mv:1:1:1:d8z", "mj:mv:1:1:1:w5m",
    "mj:mv:1:1:1:c1f2f", "mj:mv:1:1:1:d0m", "mj:mv:1:1:1:w ", "xmj:mv:1:1:1:w",
    "mj:mv:1:1:1:w:extra", "mj:mv:1:1:1:x" + "1" * 100 + "m", "mj:mv:1:1:p:w",
    "mj:mv:1:1:pp1:w", "mj:mv:1:1:p01:w", "mj:mv:1:1:1p:w",
])
async def test_malformed_move_ids_are_refused(bad: str) -> None:
    with pytest.raises(BadCustomId):
        await read(MoveButton, bad)


@pytest.mark.parametrize("bad", ["mj:dc:1:1", "mj:dc:1:1:1:2", "mj:dc:a:1:1",
                                 "mj:lobby:1:kick", "mj:lobby:1:join:2", "mj:lobby::join"])
async def test_malformed_discard_and_lobby_ids_are_refused(bad: str) -> None:
    with pytest.raises(BadCustomId):
        await read(DiscardSelect if bad.startswith("mj:dc") else LobbyButton, bad)


def test_making_an_id_refuses_values_outside_the_scheme() -> None:
    for args in ((-1, 1, 1), (1, True, 1), (10**19 * 10, 1, 1)):
        with pytest.raises(BadCustomId):
            DiscardSelect(*args)
    with pytest.raises(BadCustomId):
        LobbyButton(1, "kick")  # type: ignore[arg-type]  # on purpose
    with pytest.raises(BadCustomId):
        PreferenceButton(1, "sometimes", True)  # type: ignore[arg-type]  # on purpose
    with pytest.raises(BadCustomId):
        MoveButton(1, 1, 1, None)


def test_discard_values_are_tiles_but_never_flowers() -> None:
    assert parse_discard_value("5m") is Tile.M5
    for bad in ("1f", "8z", "55m", "", "x"):
        with pytest.raises(BadCustomId):
            parse_discard_value(bad)


def test_templates_do_not_overlap_and_every_item_is_registered() -> None:
    ids = [move_id(1, 1, 1, ACTIONS[0]), "mj:dc:1:1:1", "mj:lobby:1:join",
           "mj:pref:1:always_win:on", "mj:back:1", "mj:quit:1:2:8:yes", "mj:nx:1:1:s2",
           "mj:nxc:1:1:s2", "mj:ca:1:2", "mj:nxd:1:1:s2:off",
           "mj:cat:1:2:9m", "mj:rp:1:2:3:a:f", "mj:rpv:1:2:3", "mj:rpf:1:2",
           "mj:sc:1:2:yes"]
    for i, custom_id in enumerate(ids):
        matching = [j for j, cls in enumerate(ITEMS) if template(cls).fullmatch(custom_id)]
        assert matching == [i]
    assert set(DYNAMIC_ITEMS) == set(ITEMS) and len(DYNAMIC_ITEMS) == len(ITEMS)


async def test_preference_and_back_ids_round_trip() -> None:
    for name in PREFERENCES:
        for on in (True, False):
            parsed = await read(PreferenceButton, PreferenceButton(BIG, name, on).custom_id)
            assert (parsed.table, parsed.name, parsed.on) == (BIG, name, on)
    assert PreferenceButton(3, "pass_claims", True).custom_id == "mj:pref:3:pass_claims:on"
    assert BackButton(3).custom_id == "mj:back:3"
    assert (await read(BackButton, "mj:back:3")).table == 3
    for bad in ("mj:pref:3:pass_claims:maybe", "mj:pref:3:pass:on", "mj:back:x"):
        with pytest.raises(BadCustomId):
            await read(BackButton if "back" in bad else PreferenceButton, bad)


async def test_the_or_my_draw_id_says_the_value_it_sets() -> None:
    for on in (True, False):
        made = NextOrDrawButton(BIG, 2, 3, on).custom_id
        parsed = await read(NextOrDrawButton, made)
        assert (parsed.table, parsed.hand, parsed.seat, parsed.on) == (BIG, 2, 3, on)
    assert NextOrDrawButton(3, 1, 0, False).custom_id == "mj:nxd:3:1:s0:off"
    for bad in ("mj:nxd:3:1:s0:maybe", "mj:nxd:3:1:s4:on", "mj:nxd:3:1:0:on"):
        with pytest.raises(BadCustomId):
            await read(NextOrDrawButton, bad)


async def test_move_and_discard_ids_carry_the_seat_they_were_made_for() -> None:
    pong = ACTIONS[4]
    assert move_id(12, 3, 45, pong, 3) == "mj:mv:12:3:p45:p99s:s3"
    assert (await read(MoveButton, "mj:mv:12:3:p45:p99s:s3")).seat == 3
    assert DiscardSelect(12, 3, 45, seat=0).custom_id == "mj:dc:12:3:p45:s0"
    assert (await read(DiscardSelect, "mj:dc:12:3:p45:s0")).seat == 0
    # ids sent before the seat was carried still read: the presser's seat is implied
    assert (await read(MoveButton, "mj:mv:12:3:45:p99s")).seat is None
    assert (await read(DiscardSelect, "mj:dc:12:3:45")).seat is None
    for bad in ("mj:mv:12:3:45:p99s:s4", "mj:mv:12:3:45:p99s:3", "mj:dc:1:1:1:s"):
        with pytest.raises(BadCustomId):
            await read(MoveButton if ":mv:" in bad else DiscardSelect, bad)


# ---------------------------------------------------------------------------
# The callbacks call the service


def seated(*user_ids: int | None) -> Any:
    """A TableInfo-like table with people (or computers, None) in seats 0…"""
    seats = tuple(SimpleNamespace(seat=i, user_id=u, is_computer=u is None, name=f"p{i + 1}")
                  for i, u in enumerate(user_ids))
    return SimpleNamespace(seats=seats)


def clicked_message() -> Any:
    return SimpleNamespace(id=777, content="Your turn.")


async def test_a_move_button_plays_for_its_seat_and_takes_the_buttons_off() -> None:
    service = FakeService({"act": ActResult(5, 2, 1, False, False, seat=2)})
    inter = interaction(service, message=clicked_message(), manager=True,
                        locale=discord.Locale.chinese)
    pong = ACTIONS[4]
    button = await read(MoveButton, move_id(5, 2, 17, pong, 2), inter)
    await button.callback(inter)
    assert service.names() == ["act"]
    cause = Cause(101, "Ann", "zh-CN", True, 555, message_id=777,  # the message clicked
                  place=Place(900, 42))
    assert (await service.settled(inter)).seen_causes() == [cause]
    assert service.last("act") == ((cause, 5, Action(ActionKind.PONG, 2, tiles=pong.tiles)),
                                   {"public_step": 17, "step": None, "hand_number": 2})
    assert inter.client.notifier.clicks == [(5, 2, 777)]
    ((text, _, extras),) = inter.said
    assert text == "Your turn.\n✓ 已执行：碰 九条×2。" and extras["view"] is None
    assert inter.events == ["update"]  # alone: answered with its move, in one response


async def test_a_click_whose_move_is_slow_is_acknowledged_before_the_move_ends(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A click alone waits for its move at most `MOVE_ANSWER_WAIT`: a slower move gets
    a deferred update first, then the message is edited."""
    monkeypatch.setattr(answering, "MOVE_ANSWER_WAIT", 0.01)
    service = FakeService({"act": ActResult(5, 2, 1, False, False, seat=2)})
    inter = interaction(service, message=clicked_message())
    act = service.act
    answered_during: list[list[str]] = []

    async def slow_act(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.05)
        answered_during.append(list(inter.events))
        return await act(*args, **kwargs)

    service.act = slow_act
    button = await read(MoveButton, move_id(5, 2, 17, ACTIONS[4], 2), inter)
    await button.callback(inter)
    assert answered_during == [["defer ephemeral=False"]]
    assert inter.events == ["defer ephemeral=False", "edit"]


async def test_a_click_s_move_runs_in_its_own_task_and_a_known_language_costs_no_task(
        ) -> None:
    """No task beside the click's own (session 22: a task, a shield and a timer less a
    click): the move is awaited in it, held for shutdown while it runs, and `seen` is
    not called for a person whose language the service knows already."""
    service = FakeService({"act": ActResult(5, 2, 1, False, False, seat=2)})
    service.new_language = lambda cause: False  # type: ignore[method-assign]  # known
    inter = interaction(service, message=clicked_message())
    in_flight = inter.client.in_flight
    act = service.act
    ran_in: list[tuple[asyncio.Task[Any] | None, bool]] = []

    async def watched_act(*args: Any, **kwargs: Any) -> Any:
        task = asyncio.current_task()
        ran_in.append((task, task in in_flight.tasks))
        return await act(*args, **kwargs)

    service.act = watched_act
    button = await read(MoveButton, move_id(5, 2, 17, ACTIONS[4], 2), inter)
    clicking = asyncio.create_task(button.callback(inter))
    await clicking
    assert ran_in == [(clicking, True)]
    assert not in_flight.tasks  # let go once the move is done
    assert service.seen_causes() == [] and inter.events == ["update"]


async def test_a_move_that_keeps_the_loop_busy_past_the_wait_is_still_acknowledged_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A move's SQL runs on the loop's thread: a move longer than `MOVE_ANSWER_WAIT`
    that never lets the loop run its timer is answered as one that did (acknowledged,
    then edited)."""
    monkeypatch.setattr(answering, "MOVE_ANSWER_WAIT", 0.01)
    service = FakeService({"act": ActResult(5, 2, 1, False, False, seat=2)})
    inter = interaction(service, message=clicked_message())
    act = service.act

    async def busy_act(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.03)  # the loop's thread busy: no timer runs meanwhile
        return await act(*args, **kwargs)

    service.act = busy_act
    button = await read(MoveButton, move_id(5, 2, 17, ACTIONS[4], 2), inter)
    await button.callback(inter)
    assert inter.events == ["defer ephemeral=False", "edit"]


async def test_a_move_done_while_its_acknowledgment_is_on_its_way_waits_for_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The edit follows the deferral the timer started, never races it (a second first
    response would be refused by Discord)."""
    monkeypatch.setattr(answering, "MOVE_ANSWER_WAIT", 0.01)
    service = FakeService({"act": ActResult(5, 2, 1, False, False, seat=2)})
    inter = interaction(service, message=clicked_message())
    act = service.act

    async def slow_act(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.03)
        return await act(*args, **kwargs)

    service.act = slow_act
    _defers_slowly(inter)
    button = await read(MoveButton, move_id(5, 2, 17, ACTIONS[4], 2), inter)
    await button.callback(inter)
    assert inter.events == ["acknowledged", "edit"]


def _defers_slowly(inter: Any) -> None:
    """The click's deferral takes 0.1 s (a slow request): the move is done meanwhile."""
    async def slow_defer(**kwargs: Any) -> None:
        await asyncio.sleep(0.1)
        inter.response.done = True
        inter.events.append("acknowledged")

    inter.response.defer = slow_defer


async def test_a_refused_move_done_while_its_acknowledgment_is_on_its_way_follows_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(answering, "MOVE_ANSWER_WAIT", 0.01)
    service = FakeService()

    async def refused_act(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.03)
        raise Refused(E.STALE, "that decision has passed")

    inter = interaction(service, message=clicked_message())
    service.act = refused_act
    _defers_slowly(inter)
    button = await read(MoveButton, move_id(5, 2, 17, ACTIONS[4], 2), inter)
    await button.callback(inter)
    assert inter.events == ["acknowledged", "followup"]
    ((text, ephemeral, _),) = inter.said
    assert ephemeral and "passed" in text


async def test_shutdown_waits_for_a_click_s_move_in_flight(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The move is awaited in the click's own task: shutdown (`InFlight.close`) waits
    for that task, the move and its answer."""
    monkeypatch.setattr(answering, "MOVE_ANSWER_WAIT", 0.01)
    service = FakeService({"act": ActResult(5, 2, 1, False, False, seat=2)})
    inter = interaction(service, message=clicked_message())
    act = service.act
    started, release = asyncio.Event(), asyncio.Event()

    async def slow_act(*args: Any, **kwargs: Any) -> Any:
        started.set()
        await release.wait()
        return await act(*args, **kwargs)

    service.act = slow_act
    button = await read(MoveButton, move_id(5, 2, 17, ACTIONS[4], 2), inter)
    clicking = asyncio.create_task(button.callback(inter))
    await started.wait()
    closing = asyncio.create_task(inter.client.in_flight.close(timeout=60))
    await asyncio.sleep(0.05)
    assert not closing.done()
    assert inter.events == ["defer ephemeral=False"]  # acknowledged in time meanwhile
    release.set()
    await closing
    assert clicking.done()
    assert inter.events == ["defer ephemeral=False", "edit"]


def others_waiting(in_flight: answering.InFlight, count: int) -> None:
    """``count`` other interactions arrived and are not answered yet."""
    for _ in range(count):
        in_flight.begin()


async def test_a_click_while_a_few_others_wait_is_still_answered_with_its_move() -> None:
    """Up to `ANSWERED_TOGETHER` clicks waiting for their first response (itself
    included), a click is answered with its move, in one response: a deferral then an
    edit would be two requests for the same answer."""
    service = FakeService({"act": ActResult(5, 2, 1, False, False, seat=2)})
    inter = interaction(service, message=clicked_message())
    others_waiting(inter.client.in_flight, answering.ANSWERED_TOGETHER - 1)
    button = await read(MoveButton, move_id(5, 2, 17, ACTIONS[4], 2), inter)
    await button.callback(inter)
    assert inter.events == ["update"]


async def test_a_click_while_many_others_wait_for_their_answer_is_acknowledged_first(
        ) -> None:
    """The answer waits for nothing when more than `ANSWERED_TOGETHER` interactions are
    unanswered (itself included): a deferred update before the service is asked, so the
    click's answer never queues behind the move, its commit or other clicks."""
    service = FakeService({"act": ActResult(5, 2, 1, False, False, seat=2)})
    inter = interaction(service, message=clicked_message())
    others_waiting(inter.client.in_flight, answering.ANSWERED_TOGETHER)  # not answered yet
    answered_before: list[list[str]] = []
    act = service.act

    async def watched_act(*args: Any, **kwargs: Any) -> Any:
        answered_before.append(list(inter.events))
        return await act(*args, **kwargs)

    service.act = watched_act
    button = await read(MoveButton, move_id(5, 2, 17, ACTIONS[4], 2), inter)
    await button.callback(inter)
    assert answered_before == [["defer ephemeral=False"]]
    assert inter.events == ["defer ephemeral=False", "edit"]


async def test_clicks_arriving_together_are_all_acknowledged_before_any_move() -> None:
    """Many clicks at once (every table's dealer at the start): the ones that arrive
    while more than `ANSWERED_TOGETHER` are unanswered (here those before them, whose
    moves are being played, `in_flight`) are acknowledged first, and each one's move
    waits until the others got their first response, so none is answered behind the
    moves."""
    timeline: list[str] = []
    service = FakeService({"act": ActResult(5, 2, 1, False, False, seat=2)})
    first = interaction(service, message=clicked_message(), interaction_id=1)
    second = FakeInteraction(first.client, message=clicked_message(), interaction_id=2)
    in_flight = first.client.in_flight
    # the clicks before them, answered with their moves in a moment
    others_waiting(in_flight, answering.ANSWERED_TOGETHER)
    act = service.act

    async def watched_act(cause: Any, *args: Any, **kwargs: Any) -> Any:
        timeline.append(f"act {cause.interaction_id}")
        return await act(cause, *args, **kwargs)

    for inter in (first, second):
        def deferring(inter: FakeInteraction = inter) -> Any:
            async def defer(**kwargs: Any) -> None:
                for _ in range(inter.id * 5):  # a request to Discord, the second slower:
                    await asyncio.sleep(0)  # other tasks run meanwhile
                inter.response.done = True
                timeline.append(f"acknowledged {inter.id}")
            return defer
        inter.response.defer = deferring()  # type: ignore[method-assign]  # a slow defer
    service.act = watched_act
    buttons = [await read(MoveButton, move_id(5, 2, 17, ACTIONS[4], 2), i)
               for i in (first, second)]
    def before_answered() -> None:
        for _ in range(answering.ANSWERED_TOGETHER):
            in_flight.first_response()

    answered = asyncio.get_running_loop().call_later(0.02, before_answered)
    await asyncio.gather(buttons[0].callback(first), buttons[1].callback(second))
    assert timeline[:2] == ["acknowledged 1", "acknowledged 2"]
    assert sorted(timeline[2:]) == ["act 1", "act 2"]
    assert answered.when() <= asyncio.get_running_loop().time()
    assert in_flight.acknowledged.is_set()


async def test_a_refused_click_alone_is_told_privately_in_its_one_response() -> None:
    service = FakeService({"act": Refused(E.STALE, "that decision has passed")})
    inter = interaction(service, message=clicked_message())
    button = await read(MoveButton, move_id(5, 2, 17, ACTIONS[4], 2), inter)
    await button.callback(inter)
    assert inter.events == ["reply"]
    ((text, ephemeral, _),) = inter.said
    assert ephemeral and "passed" in text
    assert inter.client.notifier.clicks == []  # the buttons stay: nothing was played


async def test_a_refused_click_acknowledged_first_is_told_privately_after() -> None:
    service = FakeService({"act": Refused(E.STALE, "that decision has passed")})
    inter = interaction(service, message=clicked_message())
    others_waiting(inter.client.in_flight, answering.ANSWERED_TOGETHER)  # not answered yet
    button = await read(MoveButton, move_id(5, 2, 17, ACTIONS[4], 2), inter)
    await button.callback(inter)
    assert inter.events == ["defer ephemeral=False", "followup"]
    ((text, ephemeral, _),) = inter.said
    assert ephemeral and "passed" in text
    assert inter.client.notifier.clicks == []


async def test_the_discard_menu_discards_the_chosen_tile() -> None:
    service = FakeService({"act": ActResult(5, 2, 1, False, False, seat=1)})
    inter = interaction(service, message=clicked_message())
    select = await read(DiscardSelect, "mj:dc:5:2:p18:s1", inter)
    inter.data = {"custom_id": select.custom_id, "values": ["9p"]}
    await select.callback(inter)
    args, kwargs = service.last("act")
    assert args[1:] == (5, Action(ActionKind.DISCARD, 1, Tile.P9))
    assert kwargs == {"public_step": 18, "step": None, "hand_number": 2}
    assert "Done: 打 Discard Nine of Dots." in inter.said[0][0]


def _message(*custom_ids: str) -> Any:
    """A clicked message showing components with ``custom_ids`` in one row."""
    row = SimpleNamespace(children=[SimpleNamespace(custom_id=c) for c in custom_ids])
    return SimpleNamespace(id=777, content="Your turn.", components=[row] if custom_ids else [])


async def test_a_press_on_a_component_the_message_no_longer_shows_is_answered() -> None:
    """discord.py drops it (it rebuilds items from the message); the id says all."""
    menu, button = "mj:dc:5:2:18:s1", "mj:mv:5:2:18:x:s1"
    service = FakeService({"act": ActResult(5, 2, 1, False, False, seat=1)})
    shown = interaction(service, message=_message(menu, button),
                        data={"custom_id": menu, "component_type": 3, "values": ["9p"]})
    await answer_unshown(as_interaction(shown))  # shown: discord.py answers it, not this
    assert service.names() == [] and shown.said == []
    for data in ({"custom_id": menu, "component_type": 3, "values": ["9p"]},
                 {"custom_id": button, "component_type": 2}):
        gone = interaction(service, message=_message(), data=data)
        await answer_unshown(as_interaction(gone))
        assert len(gone.said) == 1
    acts = [args[2] for name, args, _ in service.calls if name == "act"]
    assert acts == [Action(ActionKind.DISCARD, 1, Tile.P9), Action(ActionKind.PASS, 1)]
    other = interaction(service, message=_message(), data={"custom_id": "poll:1",
                                                           "component_type": 2})
    await answer_unshown(as_interaction(other))  # not the bot's: nothing to say
    assert other.said == [] and service.names() == ["act", "act"]


async def test_an_old_id_plays_for_the_pressers_own_seat() -> None:
    service = FakeService({"table_info": seated(None, 303, 101, 404),
                           "act": SimpleNamespace(seat=2)})
    inter = interaction(service, message=clicked_message())
    button = await read(MoveButton, "mj:mv:5:2:17:x", inter)
    await button.callback(inter)
    assert service.last("act")[0][2] == Action(ActionKind.PASS, 2)
    stranger = interaction(FakeService({"table_info": seated(None, 303, 404, 505)}),
                           locale=discord.Locale.chinese)
    await (await read(MoveButton, "mj:mv:5:2:17:x", stranger)).callback(stranger)
    assert "act" not in stranger.client.service.names()
    ((text, private, _),) = stranger.said
    assert private and text == "你不在这张牌桌上。"


async def test_a_refused_move_is_said_privately_in_the_readers_language() -> None:
    refusal = Refused(E.NOT_YOURS, "not yours", seat=3, name="Bo")
    service = FakeService({"act": refusal})
    inter = interaction(service, message=clicked_message(), locale=discord.Locale.chinese)
    await (await read(MoveButton, "mj:mv:5:2:17:x:s2", inter)).callback(inter)
    ((text, private, _),) = inter.said
    assert private and text == "这个按钮是给 Bo 的；你不在这张牌桌上。"
    assert inter.client.notifier.clicks == []


async def test_a_bad_move_or_tile_is_out_of_date_and_never_played() -> None:
    service = FakeService()
    inter = interaction(service, locale=discord.Locale.chinese)
    # Fits the template, fails notation (a pong of three): refused, not dropped.
    match = template(MoveButton).fullmatch("mj:mv:5:2:17:p555m")
    assert match is not None
    button = await MoveButton.from_custom_id(as_interaction(inter), discord.ui.Button(), match)
    await button.callback(as_interaction(inter))
    select = await read(DiscardSelect, "mj:dc:5:2:18", inter)
    inter.data = {"custom_id": select.custom_id, "values": ["1f"]}
    await select.callback(inter)
    assert "act" not in service.names()
    assert [private for _, private, _ in inter.said] == [True, True]
    assert all("过时" in text for text, _, _ in inter.said)


@pytest.mark.parametrize("what", LOBBY_ACTIONS)
async def test_a_lobby_button_calls_the_service_and_only_acknowledges(what: str) -> None:
    service = FakeService()
    inter = interaction(service)
    await (await read(LobbyButton, f"mj:lobby:5:{what}", inter)).callback(inter)
    called = {"join": "join", "leave": "leave", "addbot": "add_computer", "start": "start"}
    assert service.names() == [called[what]]
    ann = Cause(101, "Ann", "en-US", False, 555, place=Place(900, 42))
    assert service.last(called[what]) == ((ann, 5),
                                          {"agreed": None} if what == "leave" else {})
    assert inter.events == ["defer ephemeral=False"] and inter.said == []


async def test_a_standing_choice_is_set_to_the_value_its_id_says() -> None:
    service = FakeService({"set_choice": StandingChoices(always_win=True)})
    inter = interaction(service)
    await (await read(PreferenceButton, "mj:pref:5:always_win:on", inter)).callback(inter)
    assert service.last("set_choice")[0][1:] == (5, "always_win", True)
    assert inter.said == [("Saved: ✓ Always win when allowed.", True, {})]


async def test_claims_answered_in_advance_are_the_menus_whole_choice() -> None:
    assert ClaimAnswersSelect(BIG, 3).custom_id == f"mj:ca:{BIG}:3"
    assert parse_answers(["p9m", "k5p", "p5p", "c3s1s2s"]) == {
        Tile.M9: ClaimAnswer(ActionKind.PONG), Tile.P5: ClaimAnswer(ActionKind.KONG),
        Tile.S3: ClaimAnswer(ActionKind.CHI, (Tile.S1, Tile.S2))}
    # one answer a tile: a pong of it over a chi of it, whatever the order
    assert parse_answers(["c3s1s2s", "p3s"]) == {Tile.S3: ClaimAnswer(ActionKind.PONG)}
    assert parse_answers([]) == {}
    for bad in (["c9m"], ["p9"], ["p1f2"], "p9m", [9], ["x"] * 26, ["p9m7m8m"],
                ["c9m7m8x"]):
        with pytest.raises(ValueError):
            parse_answers(bad)
    service = FakeService({"set_claim_answers": {Tile.M9: ClaimAnswer(ActionKind.PONG)},
                           "hand": SimpleNamespace(view=SimpleNamespace(hand=(Tile.M9,) * 3))})
    inter = interaction(service, data={"custom_id": "mj:ca:5:2", "values": ["p9m"]})
    await (await read(ClaimAnswersSelect, "mj:ca:5:2", inter)).callback(inter)
    (args, kwargs) = service.last("set_claim_answers")
    assert args[1:] == (5, {Tile.M9: ClaimAnswer(ActionKind.PONG)}) \
        and kwargs == {"hand_number": 2}
    assert inter.said[0][1] is True and "Nine of Characters" in inter.said[0][0]
    cleared = FakeService({"set_claim_answers": {}})
    inter = interaction(cleared, locale=discord.Locale.chinese,
                        data={"custom_id": "mj:ca:5:2", "values": []})
    await (await read(ClaimAnswersSelect, "mj:ca:5:2", inter)).callback(inter)
    assert cleared.last("set_claim_answers")[0][2] == {}
    assert inter.said == [("已清除：本局的吃碰杠都会问你。", True, {})]
    forged = FakeService()
    inter = interaction(forged, data={"custom_id": "mj:ca:5:2", "values": ["p9x"]})
    await (await read(ClaimAnswersSelect, "mj:ca:5:2", inter)).callback(inter)
    assert forged.names() == [] and inter.said[0][1] is True


async def test_the_discard_after_a_claim_answered_in_advance_is_named_or_cleared() -> None:
    assert ClaimThenSelect(BIG, 3, Tile.M9).custom_id == f"mj:cat:{BIG}:3:9m"
    (EAST,) = parse_tiles("1z")
    named = {Tile.M9: ClaimAnswer(ActionKind.PONG, then=EAST)}
    service = FakeService({"set_claim_discard": named})
    inter = interaction(service, data={"custom_id": "mj:cat:5:2:9m", "values": ["1z"]})
    await (await read(ClaimThenSelect, "mj:cat:5:2:9m", inter)).callback(inter)
    (args, kwargs) = service.last("set_claim_discard")
    assert args[1:] == (5, Tile.M9, EAST) and kwargs == {"hand_number": 2}
    assert inter.said[0][0] == "After 碰 Pong Nine of Characters: East Wind."
    asked = FakeService({"set_claim_discard": {Tile.M9: ClaimAnswer(ActionKind.PONG)}})
    inter = interaction(asked, locale=discord.Locale.chinese,
                        data={"custom_id": "mj:cat:5:2:9m", "values": ["-"]})
    await (await read(ClaimThenSelect, "mj:cat:5:2:9m", inter)).callback(inter)
    assert asked.last("set_claim_discard")[0][1:] == (5, Tile.M9, None)
    assert "到时问你" in inter.said[0][0]
    for forged in (["9x"], ["1z", "2z"], [], "1z"):
        nobody = FakeService()
        inter = interaction(nobody, data={"custom_id": "mj:cat:5:2:9m", "values": forged})
        await (await read(ClaimThenSelect, "mj:cat:5:2:9m", inter)).callback(inter)
        assert nobody.names() == [] and inter.said[0][1] is True


async def test_back_gives_the_seat_back() -> None:
    service = FakeService()
    inter = interaction(service, locale=discord.Locale.chinese)
    await (await read(BackButton, "mj:back:5", inter)).callback(inter)
    assert service.last("back")[0][1:] == (5,)
    assert inter.said[0][1] is True


async def test_before_the_service_is_there_a_click_gets_a_private_apology() -> None:
    inter = interaction(None)
    await (await read(LobbyButton, "mj:lobby:5:join", inter)).callback(inter)
    ((text, private, _),) = inter.said
    assert private and text == "Something went wrong on my side; please try again."


async def test_a_new_button_is_one_class_calling_the_service(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The recipe: template, __init__, from_custom_id, callback, @persistent — nothing
    else to register (the view builder places it, i18n words it)."""
    from bot.discord.core import items as ids
    from bot.discord.core.answering import answering

    monkeypatch.setattr(ids, "DYNAMIC_ITEMS", [])

    @ids.persistent
    class RulesButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=rf"mj:rules:(?P<table>{ids.NUM})"):
        def __init__(self, table: int) -> None:
            super().__init__(discord.ui.Button(
                custom_id=ids.own_id(RulesButton, f"mj:rules:{table}")))
            self.table = table

        @classmethod
        async def from_custom_id(cls, interaction: discord.Interaction,
                                 item: discord.ui.Item[Any], match: re.Match[str], /
                                 ) -> RulesButton:
            return cls(int(match["table"]))

        async def callback(self, interaction: discord.Interaction) -> None:
            async with answering(interaction) as answer:
                info = await answer.service.table_info(self.table)
                await answer.say(info.rules)

    assert len(ids.DYNAMIC_ITEMS) == 1 and ids.DYNAMIC_ITEMS[0] is RulesButton
    service = FakeService({"table_info": SimpleNamespace(rules="shanghai")})
    inter = interaction(service)
    await (await read(RulesButton, RulesButton(8).custom_id, inter)).callback(inter)
    assert service.last("table_info") == ((8,), {})
    assert inter.said == [("shanghai", True, {})]


async def test_an_id_made_before_steps_were_public_is_judged_by_its_seq() -> None:
    """A DM sent before an upgrade carries the hand's seq (a bare number) where ids now
    carry the public step (``p`` and a number): it still plays, judged as it was."""
    service = FakeService({"act": ActResult(5, 2, 1, False, False, seat=1)})
    inter = interaction(service, message=clicked_message())
    select = await read(DiscardSelect, "mj:dc:5:2:18:s1", inter)
    assert (select.step, select.seq, select.custom_id) == (None, 18, "mj:dc:5:2:18:s1")
    inter.data = {"custom_id": select.custom_id, "values": ["9p"]}
    await select.callback(inter)
    assert service.last("act")[1] == {"public_step": None, "step": 18, "hand_number": 2}
    button = await read(MoveButton, "mj:mv:5:2:17:x:s1")
    assert (button.step, button.seq, button.custom_id) == (None, 17, "mj:mv:5:2:17:x:s1")


async def test_replay_ids_round_trip_and_refuse_what_they_do_not_carry() -> None:
    for viewer in (None, 0, 3):
        made = ReplayStep(BIG, 7, 120, viewer, "j").custom_id
        parsed = await read(ReplayStep, made)
        assert (parsed.table, parsed.hand, parsed.step, parsed.viewer) == (BIG, 7, 120, viewer)
    assert ReplayStep(3, 1, 0, None, "b").custom_id == "mj:rp:3:1:0:a:b"
    assert ReplayViewMenu(3, 1, 9).custom_id == "mj:rpv:3:1:9"
    assert (await read(ReplayRecord, "mj:rpf:3:2")).hand == 2
    for bad in ("mj:rp:3:1:0:4:b", "mj:rp:3:1:0:a:x", "mj:rp:3:1:-1:a:f", "mj:rpf:3"):
        with pytest.raises(BadCustomId):
            await read(ReplayRecord if bad.startswith("mj:rpf") else ReplayStep, bad)


async def test_the_client_answers_an_unshown_press_and_makes_no_task_for_the_others(
        ) -> None:
    """The bot looks at each interaction as discord.py dispatches it (no
    ``on_interaction`` listener: discord.py would make a task per interaction); only a
    press on a component its message no longer shows gets a task, and its answer."""
    bot = MahjongBot(sync_commands=False)
    menu = "mj:dc:5:2:18:s1"
    service = FakeService({"act": ActResult(5, 2, 1, False, False, seat=1)})
    shown = interaction(service, message=_message(menu),
                        data={"custom_id": menu, "component_type": 3, "values": ["9p"]})
    command = interaction(service, data={"name": "mahjong"})
    command.type = discord.InteractionType.application_command
    before = asyncio.all_tasks()
    for quiet in (shown, command):
        bot.dispatch("interaction", as_interaction(quiet))
    assert asyncio.all_tasks() == before
    gone = interaction(service, message=_message(),
                       data={"custom_id": menu, "component_type": 3, "values": ["9p"]})
    bot.dispatch("interaction", as_interaction(gone))
    await asyncio.gather(*(asyncio.all_tasks() - before))
    assert len(gone.said) == 1 and shown.said == [] and command.said == []
    acts = [args[2] for name, args, _ in service.calls if name == "act"]
    assert acts == [Action(ActionKind.DISCARD, 1, Tile.P9)]


@pytest.mark.parametrize(("number", "fits"), [
    ("0", True), ("7", True), ("9" * 18, True), (str(2**63 - 1), True), (str(2**63), False),
    ("9" * 19, False), ("1" + "0" * 19, False), ("9" * 40, False)])
def test_numbers_fit_at_the_store_s_largest_integer(number: str, fits: bool) -> None:
    """Only an all-digit field is a number; one of up to 18 digits always fits, one of
    19 is compared with 2**63 - 1, a longer one never fits."""
    pattern = re.compile(r"(?P<table>[0-9]+):(?P<step>p?[0-9]+):(?P<none>x)?")
    match = pattern.fullmatch(f"{number}:p{'9' * 30}:")
    assert match is not None and numbers_fit(match) is fits
