"""Two processes drawing one table (shared mode): two presenters on one Discord and one
memory, each delivering the notices of the changes it made.

Whichever process posted the table picture, the lobby message, the standing mention or
a player's DM with buttons, the other acts on it as it is now: it edits the message the
first one re-posted, deletes the mention the first one left, takes the buttons off the
DM the first one sent; and two processes posting at once leave one message. The memory
is the dict twin, or the store's on SQLite and on PostgreSQL. One process alone reads
its memory once per table, as before.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

import bot.discord.hand.replies as replies
from bot.discord.delivery.memory import InMemory, PresenterMemory
from bot.discord.hand.replies import order
from bot.discord.play.move_dms import KnownHere
from bot.discord.table.notifier import DiscordNotifier
from bot.service import Cause, LobbyNotice, TableInfo
from bot.service.notices import TableStatus
from bot.store import Store, StoreMemory, TableMemory
from engine.game import HandState, apply, legal_actions
from tests.discord.presenter_kit import (
    CHANNEL,
    CREATOR,
    GUILD,
    NAMES,
    REF,
    TABLE,
    USERS,
    FakeClient,
    Sent,
    dealt,
    discarded,
    move,
    presenter,
    private,
    seats,
    settle,
    table,
)

PICTURE = f"table-{TABLE}.png"


@pytest.fixture(params=["dict", "sqlite", "postgres"])
async def memory(request: pytest.FixtureRequest, tmp_path: Path
                 ) -> AsyncIterator[PresenterMemory]:
    """The processes' one memory: the dict twin, or the store's on either backend (a
    table numbered TABLE, four people seated)."""
    if request.param == "dict":
        yield InMemory()
        return
    target: Path | str = tmp_path / "mahjong.sqlite3"
    server = None
    if request.param == "postgres":
        server = request.getfixturevalue("pg_server")  # skips without PostgreSQL
        target = await server.database()
    store = await Store.open(target)
    try:
        while (await store.lobby.create_table(guild_id=GUILD, channel_id=CHANNEL,
                                              creator_id=CREATOR, rules="shanghai",
                                              at=1.0)).id < TABLE:
            pass
        for seat, user in enumerate(USERS):
            await store.lobby.sit(TABLE, seat, user_id=user, display_name=NAMES[seat], at=2.0)
        yield StoreMemory(store)
    finally:
        await store.close()
        if server is not None:
            await server.drop(str(target))


def _discarded() -> HandState:
    """After the dealer's first discard: its decision is gone."""
    return discarded(dealt())[0]


def live(client: FakeClient, kind: str) -> list[Sent]:
    """The channel's messages still there: pictures, lobby messages or mentions."""
    def what(m: Sent) -> str:
        if PICTURE in m.filenames:
            return "picture"
        return "lobby" if "embed" in m.kwargs else "mention"
    return [m for m in client.in_channel() if not m.deleted and what(m) == kind]


async def both_sending(client: FakeClient, *notifiers: DiscordNotifier) -> None:
    """Let go of the gate once every notifier's send is in flight, then settle all."""
    async with asyncio.timeout(10):
        while client.waiting < len(notifiers):
            await asyncio.sleep(0.001)
    assert client.gate is not None
    client.gate.set()
    client.gate = None
    for notifier in notifiers:
        await settle(notifier)


async def test_a_picture_reposted_by_one_process_is_the_one_the_other_edits(
        memory: PresenterMemory) -> None:
    client = FakeClient()
    first = presenter(client, memory, shared=True)
    second = presenter(client, memory, shared=True, repost_after=0.0)  # always re-posts
    state = dealt()
    await first.publish(table(state))
    await settle(first)
    [old] = live(client, "picture")
    await second.publish(table(state))
    await settle(second)
    [new] = live(client, "picture")
    assert new.id != old.id and old.deleted
    after, events = discarded(state)
    await first.publish(table(after, events=events))  # first last saw `old`
    await settle(first)
    assert live(client, "picture") == [new] and len(new.edits) == 1
    assert (await memory.recall(TABLE)).table_message == new.id


async def test_two_processes_posting_the_first_picture_at_once_leave_one(
        memory: PresenterMemory) -> None:
    client = FakeClient()
    client.gate = asyncio.Event()
    first, second = (presenter(client, memory, shared=True) for _ in range(2))
    await first.publish(table(dealt()))
    await second.publish(table(dealt()))
    await both_sending(client, first, second)
    [kept] = live(client, "picture")
    assert len([m for m in client.in_channel() if PICTURE in m.filenames]) == 2
    assert (await memory.recall(TABLE)).table_message == kept.id


async def test_a_mention_left_by_one_process_is_deleted_by_the_other(
        memory: PresenterMemory) -> None:
    client = FakeClient()
    first, second = (presenter(client, memory, shared=True) for _ in range(2))
    await second.publish(move(3, 1))  # second knows the table before first's mention
    await settle(second)
    await first.publish(move(0, 2, mentions="every_turn"))
    await settle(first)
    [old] = live(client, "mention")
    await second.publish(move(1, 3, mentions="every_turn"))
    await settle(second)
    [new] = live(client, "mention")
    assert old.deleted and f"<@{USERS[1]}>" in (new.content or "")
    client.gate = asyncio.Event()  # both mention at once: one stays
    await first.publish(move(2, 4, mentions="every_turn"))
    await second.publish(move(3, 5, mentions="every_turn"))
    await both_sending(client, first, second)
    [kept] = live(client, "mention")
    assert (await memory.recall(TABLE)).ping_message == kept.id
    await first.publish(LobbyNotice(_info("finished"), "finished", 0))  # the end
    await settle(first)
    assert live(client, "mention") == []


def _info(status: TableStatus) -> TableInfo:
    return TableInfo(REF, CREATOR, "shanghai", {}, status, seats())


async def test_a_lobby_reposted_by_one_process_is_the_one_the_other_edits(
        memory: PresenterMemory) -> None:
    client = FakeClient()
    first, second = (presenter(client, memory, shared=True) for _ in range(2))
    await first.publish(LobbyNotice(_info("lobby"), "created", 0))
    await settle(first)
    [gone] = live(client, "lobby")
    gone.deleted = True  # someone deleted it: the next change posts it again
    await second.publish(LobbyNotice(_info("lobby"), "joined", 1))
    await settle(second)
    [lobby] = live(client, "lobby")
    await first.publish(LobbyNotice(_info("lobby"), "joined", 2))  # first last saw `gone`
    await settle(first)
    assert live(client, "lobby") == [lobby] and len(lobby.edits) == 1


async def test_two_processes_posting_the_lobby_at_once_leave_one(
        memory: PresenterMemory) -> None:
    client = FakeClient()
    client.gate = asyncio.Event()
    first, second = (presenter(client, memory, shared=True) for _ in range(2))
    await first.publish(LobbyNotice(_info("lobby"), "created", 0))
    await second.publish(LobbyNotice(_info("lobby"), "joined", 1))
    await both_sending(client, first, second)
    [lobby] = live(client, "lobby")
    assert (await memory.recall(TABLE)).lobby_message == lobby.id


async def test_an_old_dm_loses_its_buttons_whichever_process_sent_it(
        memory: PresenterMemory) -> None:
    client = FakeClient()
    first, second = (presenter(client, memory, shared=True) for _ in range(2))
    state = dealt()
    for notifier in (first, second, first):
        await notifier.publish(private(state, 0))  # the dealer's turn: move buttons
        await settle(notifier)
    one, two, three = client.dms(USERS[0])
    assert one.edits == [{"view": None}] and two.edits == [{"view": None}]
    assert three.edits == []
    assert (await memory.recall(TABLE)).dm_messages == {0: three.id}
    first.clicked(TABLE, 0, three.id)  # first served the click: the buttons are off
    await first.publish(private(state, 0))
    await settle(first)
    assert three.edits == []  # not edited again
    client.gate = asyncio.Event()  # both DM at once: one keeps its buttons
    await first.publish(private(state, 0))
    await second.publish(private(state, 0))
    await both_sending(client, first, second)
    *_, four, five, six = client.dms(USERS[0])
    assert four.edits == [{"view": None}]
    assert sorted(len(m.edits) for m in (five, six)) == [0, 1]


async def test_a_dm_of_an_older_step_sent_last_leaves_the_newer_its_buttons(
        memory: PresenterMemory) -> None:
    """One process drew the seat's DM for a step, another the next step's and sent it
    first: the older one, arriving last, must not take the newer one's buttons off (the
    player would be left with stale buttons only); it loses its own instead."""
    client = FakeClient()
    first, second = (presenter(client, memory, shared=True) for _ in range(2))
    older = private(dealt(), 0)
    assert older.step is not None
    newer = replace(older, step=older.step + 1)
    await second.publish(newer)
    await settle(second)
    await first.publish(older)
    await settle(first)
    new_dm, old_dm = client.dms(USERS[0])
    assert new_dm.edits == [] and old_dm.edits == [{"view": None}]
    assert (await memory.recall(TABLE)).dm_messages == {0: new_dm.id}


async def test_a_decision_answered_elsewhere_takes_the_buttons_off_whichever_process_dmed(
        memory: PresenterMemory) -> None:
    """The seat's person played through `/mahjong hand` on one process; the DM still
    showing the decision was sent by the other: it loses its buttons (and only it)."""
    client = FakeClient()
    first, second = (presenter(client, memory, shared=True) for _ in range(2))
    state, after = dealt(), _discarded()
    for message in ("dm", 12345):
        for notifier in (second, first):  # the second saw the decision, the first DMed
            await notifier.publish(private(state, 0))
            await settle(notifier)
        dm = client.dms(USERS[0])[-1]
        assert dm.edits == []
        clicked = dm.id if isinstance(message, str) else message  # "dm": the DM itself
        await second.publish(private(after, 0, cause=Cause(USERS[0], message_id=clicked)))
        await settle(second)
        # clicked, its answer took its buttons off; else they go now
        assert dm.edits == ([] if message == "dm" else [{"view": None}]), message
        assert client.dms(USERS[0])[-1] is dm  # the echo is not DMed
    assert (await memory.recall(TABLE)).dm_messages == {}


async def test_a_finished_table_forgets_its_seats_dms(memory: PresenterMemory) -> None:
    client = FakeClient()
    alone, shared = presenter(client, memory), presenter(client, memory, shared=True)
    for notifier in (alone, shared):
        await notifier.publish(private(dealt(), 0))
        await settle(notifier)
    assert isinstance(alone.dms.move_dms, KnownHere)
    assert (TABLE, 0) in alone.dms.move_dms.move_dms
    assert (await memory.recall(TABLE)).dm_messages != {}
    for notifier in (alone, shared):
        notifier.clicked(TABLE, 1, 1)
        await notifier.publish(LobbyNotice(_info("finished"), "finished", 0))
        await settle(notifier)
        held = notifier.dms.move_dms
        assert not [k for k in (*getattr(held, "move_dms", {}), *held.clicked_off)
                    if k[0] == TABLE]
    assert (await memory.recall(TABLE)).dm_messages == {}


async def test_a_cancel_delivered_by_one_process_voids_the_dm_the_other_sent(
        memory: PresenterMemory) -> None:
    """The open decision's DM, whichever process sent it, loses its buttons and says
    who cancelled the table, once; a DM still queued for the table is not sent."""
    client = FakeClient()
    first, second = (presenter(client, memory, shared=True) for _ in range(2))
    await first.publish(private(dealt(), 0))
    await settle(first)
    (dm,) = client.dms(USERS[0])
    cancelled = LobbyNotice(_info("cancelled"), "cancelled", by="Ann")
    await second.publish(cancelled)
    await first.publish(private(dealt(), 0))  # too late: the table is over
    await first.publish(cancelled)  # delivered twice (a takeover): edited once
    await settle(second)
    await settle(first)
    assert dm.edits == [{"content": f"**Table #{TABLE} was cancelled by Ann.** This decision "
                                    f"is void; the hand's wall is revealed in <#{CHANNEL}>.",
                         "view": None}]
    assert client.dms(USERS[0]) == [dm]
    assert (await memory.recall(TABLE)).dm_messages == {}


@dataclass
class Counting:
    """A memory that counts its reads."""

    inner: InMemory
    recalls: int = 0

    async def recall(self, table_id: int) -> TableMemory:
        self.recalls += 1
        return await self.inner.recall(table_id)

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)


async def _play(notifier: DiscordNotifier) -> None:
    state = dealt()
    after, events = discarded(state)
    for notice in (LobbyNotice(_info("playing"), "started", 0), table(state),
                   private(state, 0), move(0, 1, mentions="every_turn"),
                   table(after, events=events), private(after, 1),
                   move(1, 2, mentions="every_turn")):
        await notifier.publish(notice)
        await settle(notifier)


async def test_one_process_reads_its_memory_once_shared_mode_each_delivery() -> None:
    alone, shared = Counting(InMemory()), Counting(InMemory())
    await _play(presenter(FakeClient(), alone))  # type: ignore[arg-type]  # counted memory
    await _play(presenter(FakeClient(), shared, shared=True))  # type: ignore[arg-type]  # same
    assert alone.recalls == 1
    # the first load, then one a delivery that edits or reads closed DMs: the lobby, 2
    # pictures, 2 DMs (a mention on every turn is swapped in without a read)
    assert shared.recalls == 6


async def test_a_dm_owed_after_a_crash_is_not_sent_where_another_process_sent_it(
        memory: PresenterMemory) -> None:
    """Two survivors may both find a dead process's decision untold: the DM goes out
    once (the second finds the seat's stored DM showing the step already); a resent DM
    of a step the seat's DM does not show yet goes out."""
    client = FakeClient()
    first, second = (presenter(client, memory, shared=True) for _ in range(2))
    owed = replace(private(dealt(), 0), resent=True)
    assert owed.step is not None
    await first.publish(owed)
    await settle(first)
    await second.publish(owed)
    await settle(second)
    assert len(client.dms(USERS[0])) == 1
    await second.publish(replace(owed, step=owed.step + 1))
    await settle(second)
    assert len(client.dms(USERS[0])) == 2


async def test_one_process_keeps_the_step_each_seat_s_dm_shows() -> None:
    """Read at a restart (`Presenter.owed_dms`): a DM with a decision stores its step, one
    without keeps the step of the last one that had one."""
    client = FakeClient()
    memory = InMemory()
    notifier = presenter(client, memory)
    state = dealt()
    turn = private(state, 0)
    assert turn.step is not None
    await notifier.publish(turn)
    await settle(notifier)
    assert (await memory.recall(TABLE)).dm_orders == {0: (1 << 32) + turn.step}
    after, _ = discarded(state)
    await notifier.publish(private(after, 0))   # no decision for seat 0 now
    await settle(notifier)
    assert len(client.dms(USERS[0])) == 2
    assert (await memory.recall(TABLE)).dm_orders == {0: (1 << 32) + turn.step}


# ---------------------------------------------------------------------------
# `/mahjong hand` replies that follow the game, whichever process made them


Edits = dict[str, list[tuple[int, dict[str, Any]]]]
"""Token → the edits made through its webhook: (message, fields) each."""


class Hook:
    """A reply's webhook as any process builds it from the token: every edit made
    through it is recorded in ``edits`` (shared by token)."""

    def __init__(self, token: str, edits: Edits) -> None:
        self.token = token
        self.edits = edits

    async def edit_message(self, message_id: int, **fields: Any) -> None:
        self.edits.setdefault(self.token, []).append((message_id, fields))


def _with_hooks(*notifiers: DiscordNotifier) -> Edits:
    edits: Edits = {}
    for notifier in notifiers:
        notifier.replies.webhook_of = lambda token: Hook(  # type: ignore[assignment,return-value]  # fake
            token, edits)
    return edits


def _reply_on(notifier: DiscordNotifier, state: HandState, seat: int, token: str,
              message_id: int, edits: Edits) -> None:
    """``/mahjong hand`` answered by ``notifier``: a reply of ``state`` went out."""
    reply = notifier.replies.expect(TABLE, seat, USERS[seat], 1, state.seq, "en-US")
    assert reply is not None
    notifier.replies.sent(TABLE, seat, reply, Hook(token, edits),  # type: ignore[arg-type]  # fake
                          message_id)


def _redraws(edits: Edits, token: str) -> list[int]:
    return [m for m, fields in edits.get(token, []) if "attachments" in fields]


def _buttons_off(edits: Edits, token: str) -> list[int]:
    return [m for m, fields in edits.get(token, []) if fields == {"view": None}]


async def _a_reply_on_the_first(memory: PresenterMemory
                                ) -> tuple[DiscordNotifier, DiscordNotifier, Edits, HandState]:
    """Two processes; the first answered seat 1's `/mahjong hand` (token "t1", message
    5) on a deal whose dealer has a discard seat 1 may claim."""
    client = FakeClient()
    first, second = (presenter(client, memory, shared=True) for _ in range(2))
    edits = _with_hooks(first, second)
    start = dealt(0)
    _reply_on(first, start, 1, "t1", 5, edits)
    await settle(first)
    return first, second, edits, start


async def test_a_reply_made_on_one_process_follows_the_moves_made_on_the_other(
        memory: PresenterMemory) -> None:
    first, second, edits, start = await _a_reply_on_the_first(memory)
    kept = (await memory.recall(TABLE)).hand_replies[1]
    assert (kept.message_id, kept.token, kept.user_id) == (5, "t1", USERS[1])
    after, _ = discarded(start, claimable=True)
    await second.publish(private(after, 1))  # a move the second process made
    await settle(second)
    assert _redraws(edits, "t1") == [5]
    assert (await memory.recall(TABLE)).hand_replies[1].order == order(1, after.seq)
    await first.publish(private(after, 1))  # the same state, seen here too: not again
    await settle(first)
    assert _redraws(edits, "t1") == [5]


async def test_an_older_state_is_not_drawn_over_a_newer_one_from_another_process(
        memory: PresenterMemory) -> None:
    first, second, edits, start = await _a_reply_on_the_first(memory)
    older, _ = discarded(start, claimable=True)
    newer = apply(older, next(a for a in legal_actions(older, 1)))[0]
    await second.publish(private(newer, 1))
    await settle(second)
    await first.publish(private(older, 1))  # first's own reply, an older state: not drawn
    await settle(first)
    assert _redraws(edits, "t1") == [5]
    assert (await memory.recall(TABLE)).hand_replies[1].order == order(1, newer.seq)


async def test_a_newer_reply_takes_the_buttons_off_the_one_another_process_made(
        memory: PresenterMemory) -> None:
    first, second, edits, start = await _a_reply_on_the_first(memory)
    _reply_on(second, start, 1, "t2", 6, edits)
    await settle(second)
    assert _buttons_off(edits, "t1") == [5] and edits.get("t2") is None
    assert (await memory.recall(TABLE)).hand_replies[1].message_id == 6
    await first.publish(private(discarded(start, claimable=True)[0], 1))
    await settle(first)  # first's reply follows no more (first learns it at its delivery)
    assert _redraws(edits, "t1") == [] and _redraws(edits, "t2") == [6]


async def test_a_player_who_left_loses_the_reply_another_process_made(
        memory: PresenterMemory) -> None:
    _, second, edits, _ = await _a_reply_on_the_first(memory)
    await second.publish(LobbyNotice(_info("playing"), "replaced", 1))
    await settle(second)
    assert _buttons_off(edits, "t1") == [5]
    assert (await memory.recall(TABLE)).hand_replies == {}


async def test_a_move_played_by_dm_on_another_process_is_shown_in_the_reply(
        memory: PresenterMemory) -> None:
    """Seat 0's person played their turn by DM on the second process (the echo: no DM
    is delivered for it) while their reply, made on the first, showed the decision: the
    reply is redrawn without it, from the memory the second read at its last delivery."""
    client = FakeClient()
    first, second = (presenter(client, memory, shared=True) for _ in range(2))
    edits = _with_hooks(first, second)
    state = dealt()
    _reply_on(first, state, 0, "t1", 5, edits)
    await settle(first)
    await second.publish(private(state, 0))  # its DM: the second reads the memory
    await settle(second)
    [dm] = client.dms(USERS[0])
    after = _discarded()
    await second.publish(private(after, 0, cause=Cause(USERS[0], message_id=dm.id)))
    await settle(second)
    assert _redraws(edits, "t1") == [5]
    assert client.dms(USERS[0]) == [dm]  # the echo is not DMed


# One process restarted: its replies are kept in the memory too, and followed again.


async def _a_reply_before_a_restart(memory: PresenterMemory
                                    ) -> tuple[DiscordNotifier, Edits, HandState]:
    """One process answered seat 1's `/mahjong hand` (token "t1", message 5) and was
    restarted: the new process, on the same memory, has not shown the table yet."""
    client = FakeClient()
    before, after = presenter(client, memory), presenter(client, memory)
    edits = _with_hooks(before, after)
    start = dealt(0)
    _reply_on(before, start, 1, "t1", 5, edits)
    await settle(before)
    return after, edits, start


async def test_a_reply_made_before_a_restart_follows_the_game_after_it(
        memory: PresenterMemory) -> None:
    restarted, edits, start = await _a_reply_before_a_restart(memory)
    claim, _ = discarded(start, claimable=True)
    await restarted.publish(private(claim, 1))
    await settle(restarted)
    assert _redraws(edits, "t1") == [5]
    passed = apply(claim, next(a for a in legal_actions(claim, 1)))[0]
    await restarted.publish(private(passed, 1))  # followed on, not only redrawn once
    await settle(restarted)
    assert _redraws(edits, "t1") == [5, 5]


async def test_a_reply_past_its_time_is_not_followed_after_a_restart(
        memory: PresenterMemory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replies, "FOLLOWS_FOR", 0.05)
    restarted, edits, start = await _a_reply_before_a_restart(memory)
    await asyncio.sleep(0.1)
    await restarted.publish(private(discarded(start, claimable=True)[0], 1))
    await settle(restarted)
    assert _redraws(edits, "t1") == []


async def test_a_reply_asked_after_a_restart_takes_the_buttons_off_the_one_before(
        memory: PresenterMemory) -> None:
    restarted, edits, start = await _a_reply_before_a_restart(memory)
    _reply_on(restarted, start, 1, "t2", 6, edits)
    await settle(restarted)
    assert _buttons_off(edits, "t1") == [5]
    await restarted.publish(private(discarded(start, claimable=True)[0], 1))
    await settle(restarted)
    assert _redraws(edits, "t1") == [] and _redraws(edits, "t2") == [6]
