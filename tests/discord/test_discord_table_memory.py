"""What the presenter keeps of each table is bounded by the tables in use (issue 32): a
table the service let go idle (`DiscordNotifier.unloaded`) leaves every map of the
presenter once nothing of it is being delivered, and comes back as it left: the echo of
a move is not DMed, a DM answered elsewhere loses its buttons, a closed-DMs turn already
mentioned is not mentioned again at its reminder, a claim answered does not redraw the
picture (the residue the memory keeps, 0034; shared mode too). A table still
delivering or following a `/mahjong hand` reply stays until it is done."""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

import pytest

from bot.discord.delivery.memory import InMemory
from bot.discord.hand.replies import LiveReplies
from bot.discord.play.move_dms import KnownHere
from bot.discord.table.notifier import DiscordNotifier
from bot.service import Cause, TableRef
from bot.service.live import step_of
from bot.service.notices import PrivateNotice, TableNotice
from bot.store import TableMemory
from tests.discord.presenter_kit import (
    CHANNEL,
    GUILD,
    REF,
    TABLE,
    USERS,
    FakeClient,
    dealt,
    discarded,
    move,
    presenter,
    private,
    settle,
    table,
)


def held(notifier: DiscordNotifier) -> dict[str, int]:
    """How much each of the presenter's maps keyed by a table (or a table's seat) holds."""
    dms = notifier.dms
    replies = notifier.replies
    assert isinstance(replies, LiveReplies)
    sizes = {
        "tables": len(notifier.tables),
        "dms pending": len(dms._pending),
        "dms unsure": len(dms._unsure),
        "cancelled": len(dms._cancelled),
        "clicked off": len(dms.move_dms.clicked_off),
        "replies": len(replies._replies) + len(replies._by_message),
        "replies seen": len(replies._seen),
        "replies pending": len(replies._pending),
        "reported": len(notifier.post._reported),
        "outbox": len(notifier.outbox.busy_keys()),
    }
    if isinstance(dms.move_dms, KnownHere):
        sizes["move dms"] = len(dms.move_dms.move_dms)
    return sizes


AnyNotice = TypeVar("AnyNotice", TableNotice, PrivateNotice)


def _at(table_id: int, notice: AnyNotice) -> AnyNotice:
    ref = TableRef(table_id, GUILD, CHANNEL, creator_id=USERS[0])
    return replace(notice, ref=ref)


async def _play(notifier: DiscordNotifier, table_ids: range) -> None:
    """Each table dealt: its picture, each seat's DM, the dealer's DM clicked."""
    state = dealt()
    after, events = discarded(state)
    for table_id in table_ids:
        await notifier.publish(_at(table_id, table(state)))
        for seat in range(4):
            await notifier.publish(_at(table_id, private(state, seat)))
    await settle(notifier)
    for table_id in table_ids:
        notifier.clicked(table_id, 0, 1)
        await notifier.publish(_at(table_id, table(after, events=events)))
        for seat in range(4):
            await notifier.publish(_at(table_id, private(
                after, seat, cause=Cause(USERS[0], message_id=1))))
    await settle(notifier)


async def test_tables_let_go_idle_leave_every_map_of_the_presenter() -> None:
    for shared in (False, True):
        memory = InMemory()
        notifier = presenter(FakeClient(), memory, shared=shared)
        await _play(notifier, range(1, 41))
        assert held(notifier)["tables"] == 40
        notifier.unloaded(range(1, 41))
        await notifier.tables.drain()
        assert set(held(notifier).values()) == {0}, (shared, held(notifier))
        # what only it knew is with the memory until read back
        kept = sorted(t for t, m in memory.tables.items() if m.residue is not None)
        assert kept == list(range(1, 41))


async def test_a_table_still_delivering_leaves_once_its_deliveries_are_done() -> None:
    notifier = presenter(FakeClient())
    await notifier.publish(private(dealt(), 0))  # queued, not sent yet
    notifier.unloaded([TABLE])
    assert TABLE in notifier.tables
    await settle(notifier)
    notifier.unloaded(())  # the next look for idle tables
    assert TABLE not in notifier.tables


async def test_a_table_in_use_again_is_not_let_go_by_an_earlier_look() -> None:
    notifier = presenter(FakeClient())
    await notifier.publish(private(dealt(), 0))
    notifier.unloaded([TABLE])  # busy: left for the next look
    await notifier.publish(private(dealt(), 1))  # loaded again by the service
    await settle(notifier)
    notifier.unloaded(())
    assert TABLE in notifier.tables


async def test_a_claim_answered_on_a_table_back_from_idle_does_not_redraw_its_picture(
        ) -> None:
    """Whether an answer changed anything public is told from the picture shown (an edit
    would let the channel count the answers): it is known after idle too (its digest)."""
    client = FakeClient()
    notifier = presenter(client)
    window, events = discarded(dealt(0), claimable=True)  # seed 0: a claimable discard
    await notifier.publish(table(window, events=events))
    await settle(notifier)
    [picture] = client.in_channel()
    await _idle(notifier)
    await notifier.publish(table(window))  # a claim answered, the window still open
    await settle(notifier)
    assert client.in_channel() == [picture] and picture.edits == []
    await notifier.publish(table(dealt(0)))  # something public changed: drawn
    await settle(notifier)
    assert len(picture.edits) == 1


async def _dealer_dm(client: FakeClient, notifier: DiscordNotifier) -> int:
    await notifier.publish(private(dealt(), 0))
    await notifier.publish(private(dealt(), 1))
    await settle(notifier)
    [dm] = client.dms(USERS[0])
    return dm.id


async def _idle(notifier: DiscordNotifier) -> None:
    notifier.unloaded([TABLE])
    await notifier.tables.drain()
    assert TABLE not in notifier.tables


@pytest.mark.parametrize("shared", [False, True])
async def test_the_echo_of_a_move_on_a_table_back_from_idle_is_not_dmed(shared: bool
                                                                       ) -> None:
    """The DM clicked shows the move (the click's answer edits it): no new DM, and no
    edit of it from the presenter, as on a table that stayed."""
    client = FakeClient()
    memory = InMemory()
    notifier = presenter(client, memory, shared=shared)
    dm = await _dealer_dm(client, notifier)
    await _idle(notifier)
    after = discarded(dealt())[0]
    notifier.clicked(TABLE, 0, dm)
    await notifier.publish(private(after, 0, cause=Cause(USERS[0], message_id=dm)))
    await notifier.publish(private(after, 1, cause=Cause(USERS[0], message_id=dm)))
    await settle(notifier)
    [only] = client.dms(USERS[0])
    assert only.edits == []
    assert len(client.dms(USERS[1])) == 2  # someone else's move: news to them
    assert memory.tables[TABLE].residue is None  # read once


async def test_a_dm_answered_elsewhere_after_idle_loses_its_buttons() -> None:
    client = FakeClient()
    notifier = presenter(client)
    dm = await _dealer_dm(client, notifier)
    await _idle(notifier)
    after = discarded(dealt())[0]
    await notifier.publish(private(after, 0, cause=Cause(USERS[0], message_id=12345)))
    await settle(notifier)
    [only] = client.dms(USERS[0])
    assert only.id == dm and only.edits == [{"view": None}]


async def test_the_newer_dm_after_idle_takes_the_older_ones_buttons_off_once() -> None:
    """A DM sent after the table came back takes the buttons off the one before, which
    this process knew; one whose buttons went before it left is not edited again."""
    client = FakeClient()
    notifier = presenter(client)
    dm = await _dealer_dm(client, notifier)
    after = discarded(dealt())[0]
    await notifier.publish(private(after, 0, cause=Cause(USERS[0], message_id=12345)))
    await settle(notifier)  # answered elsewhere: its buttons went
    assert client.dms(USERS[0])[0].edits == [{"view": None}]
    await _idle(notifier)
    await notifier.publish(private(dealt(), 0, hand=2))  # a new decision, a new DM
    await settle(notifier)
    first, second = client.dms(USERS[0])
    assert first.id == dm and first.edits == [{"view": None}]  # not edited again
    assert second.edits == []


async def test_a_closed_seats_turn_is_not_mentioned_again_at_its_reminder_after_idle(
        ) -> None:
    client = FakeClient()
    memory = InMemory({TABLE: TableMemory(dm_closed=frozenset({0}))})
    notifier = presenter(client, memory)
    state = dealt()
    step = step_of(state, 0)
    assert step is not None
    await notifier.publish(private(state, 0))
    await notifier.publish(move(0, step))
    await settle(notifier)
    [ping] = client.in_channel()
    assert f"<@{USERS[0]}>" in (ping.content or "")
    await _idle(notifier)
    await notifier.publish(private(state, 0, reminder=True))
    await notifier.publish(move(0, step, reminder=True))
    await settle(notifier)
    assert client.in_channel() == [ping]  # mentioned once for this decision
    assert client.dms(USERS[0]) == []  # closed as of this hand: not tried again
    assert REF.table_id == TABLE


async def test_what_an_idle_table_left_comes_back_after_a_restart_too() -> None:
    """Killed after the table left (its residue written), the next process shows it as
    it left: the echo of the click on its DM is not DMed; once read the residue is gone,
    so a later restart does not bring back what has passed since."""
    client = FakeClient()
    memory = InMemory()
    notifier = presenter(client, memory)
    dm = await _dealer_dm(client, notifier)
    await _idle(notifier)
    restarted = presenter(client, memory)  # a new process on the same memory
    after = discarded(dealt())[0]
    restarted.clicked(TABLE, 0, dm)
    await restarted.publish(private(after, 0, cause=Cause(USERS[0], message_id=dm)))
    await settle(restarted)
    assert [m.id for m in client.dms(USERS[0])] == [dm]
    assert memory.tables[TABLE].residue is None


async def test_a_click_read_before_its_dms_send_is_not_taken_off_again() -> None:
    """The click comes through the gateway, the DM's id in the reply to its send: a
    player quick enough (the benches' players, or a slow reply) clicks a DM before this
    process has read that reply. The DM then known is not one showing buttons (its
    click's answer took them off): the next DM edits nothing."""
    client = FakeClient()
    notifier = presenter(client)
    first = await _dealer_dm(client, notifier)
    known = notifier.dms.move_dms
    assert isinstance(known, KnownHere)
    key = (TABLE, 0)
    known.clicked(key, first)  # answered on it: its buttons went with the click
    known.clicked(key, 999)  # the next DM, clicked before its send's reply was read
    assert await known.replace(key, 999, order=1, shows=1) == []
    assert await known.replace(key, 1000, order=2, shows=2) == []  # 999: nothing to take off
    known.clicked(key, 2000)  # clicked before its send, while 1000 shows buttons
    assert await known.replace(key, 2000, order=3, shows=3) == [1000]
    assert await known.replace(key, 3000, order=4, shows=4) == []
    assert held(notifier)["clicked off"] == 0
