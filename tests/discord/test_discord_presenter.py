"""The presenter alone: constructed notices in, messages to a fake client out.

Everything it shows comes from the notices (no service, no store behind it): the
echo of a player's own click is not DMed, DMs speak the notice's language, show the
notice's choices, a reminder overtaken by a newer notice is dropped, mentions follow
the seats' snapshot and the ``mentions`` option, and what it must remember goes
through its memory (a restart is a new presenter on the same memory).
"""

from __future__ import annotations

from dataclasses import replace

import discord

from bot.discord.delivery.memory import InMemory
from bot.discord.play.choices import BackButton, PreferenceButton
from bot.service import Cause, LobbyNotice, TableInfo
from bot.service.live import step_of
from bot.store import StandingChoices, TableMemory
from engine.game import ClaimWindowOpened, HandState, deciding_seats
from tests.discord.presenter_kit import (
    CREATOR,
    REF,
    TABLE,
    USERS,
    FakeClient,
    dealt,
    discarded,
    move,
    presenter,
    private,
    seats,
    settle,
    table,
)

CLAIMABLE = 0
"""A shuffle whose dealer has a discard another seat may claim."""


def _discarded() -> HandState:
    """The hand after the dealer's (seat 0's) first discard: its decision is gone."""
    return discarded(dealt())[0]


async def test_the_clicking_player_is_not_dmed_the_echo_of_their_own_move() -> None:
    client = FakeClient()
    notifier = presenter(client)
    await notifier.publish(private(dealt(), 0))  # the dealer's decision: DMed
    await notifier.publish(private(dealt(), 1))
    await settle(notifier)
    after = _discarded()
    own = Cause(USERS[0], "Ann", interaction_id=42)
    await notifier.publish(private(after, 0, cause=own))  # their move, nothing to decide
    await notifier.publish(private(after, 1, cause=own))  # someone else's move: told
    await settle(notifier)
    assert len(client.dms(USERS[0])) == 1
    assert len(client.dms(USERS[1])) == 2


async def test_a_decision_answered_elsewhere_takes_the_dms_buttons_off() -> None:
    """Answered on the DM, the click's answer takes its buttons off (no second edit);
    answered on another message (`/mahjong hand`) or by a command, the DM loses them."""
    client = FakeClient()
    notifier = presenter(client)
    after = _discarded()
    for message in ("dm", 12345, None):
        await notifier.publish(private(dealt(), 0))
        await settle(notifier)
        dm = client.dms(USERS[0])[-1]
        clicked = dm.id if isinstance(message, str) else message  # "dm": the DM itself
        await notifier.publish(private(after, 0, cause=Cause(USERS[0], message_id=clicked)))
        await settle(notifier)
        assert dm.edits == ([] if message == "dm" else [{"view": None}]), message
        assert client.dms(USERS[0])[-1] is dm  # the echo is not DMed


async def test_the_player_who_started_the_hand_is_dmed_their_dealt_hand() -> None:
    """Their own request, but no move of theirs: the new hand is news to them. Only the
    answer to a decision that was in front of them is an echo."""
    client = FakeClient()
    notifier = presenter(client)
    start = Cause(USERS[1], "Bo", interaction_id=41)
    await notifier.publish(private(dealt(), 1, cause=start))  # not the dealer: no decision
    await settle(notifier)
    assert len(client.dms(USERS[1])) == 1
    # caused by them again, but no decision of theirs ended: not an echo either
    toggled = Cause(USERS[1], "Bo", interaction_id=43)
    await notifier.publish(private(dealt(), 1, cause=toggled,
                                   choices=StandingChoices(pass_claims=True)))
    await settle(notifier)
    assert len(client.dms(USERS[1])) == 2


async def test_a_dm_reports_the_interaction_that_caused_it() -> None:
    client = FakeClient()
    notifier = presenter(client)
    caused: list[tuple[int, int, int | None]] = []
    notifier.on_dm_sent = lambda *args: caused.append(args)
    await notifier.publish(private(dealt(), 0, cause=Cause(USERS[2], interaction_id=42)))
    await notifier.publish(private(dealt(), 1))
    await settle(notifier)
    assert sorted(caused, key=lambda c: c[1]) == [(TABLE, 0, 42), (TABLE, 1, None)]


async def test_a_dm_speaks_the_notices_language_else_the_servers() -> None:
    client = FakeClient(guild_locale="en-US")
    notifier = presenter(client)
    await notifier.publish(private(dealt(), 0, locale="zh-CN"))
    await notifier.publish(private(dealt(), 1))
    await settle(notifier)
    chinese, english = client.dms(USERS[0])[0].content, client.dms(USERS[1])[0].content
    assert chinese is not None and "第" in chinese and "table" not in chinese
    assert english is not None and "table" in english.lower()


async def test_a_dm_shows_the_notices_choices_and_away_flag() -> None:
    client = FakeClient()
    notifier = presenter(client)
    await notifier.publish(private(dealt(), 1, choices=StandingChoices(always_win=True),
                                   away=True))
    await settle(notifier)
    # as Discord receives them (composed in the hands' picture process)
    items = [c for row in client.dms(USERS[1])[0].kwargs["view"].to_components()
             for c in row["components"]]
    assert any(BackButton.__discord_ui_compiled_template__.fullmatch(i["custom_id"])
               for i in items)
    toggles = {match["name"]: i["style"] for i in items
               if (match := PreferenceButton.__discord_ui_compiled_template__.fullmatch(
                   i["custom_id"])) is not None}
    assert toggles["always_win"] == discord.ButtonStyle.success.value
    assert toggles["pass_claims"] == discord.ButtonStyle.secondary.value


async def test_a_reminder_is_dmed_and_mentioned_while_its_decision_is_due() -> None:
    client = FakeClient()
    notifier = presenter(client)
    state = dealt()
    step = step_of(state, 0)
    assert step is not None
    await notifier.publish(private(state, 0))
    await settle(notifier)
    await notifier.publish(private(state, 0, reminder=True))
    await notifier.publish(move(0, step, reminder=True))
    await settle(notifier)
    first, again = client.dms(USERS[0])
    assert again.content is not None and "Reminder" in again.content
    assert "Reminder" not in (first.content or "")
    [ping] = client.in_channel()
    assert f"<@{USERS[0]}>" in (ping.content or "")


async def test_a_reminder_overtaken_by_the_move_is_neither_dmed_nor_mentioned() -> None:
    client = FakeClient()
    notifier = presenter(client)
    state = dealt()
    step = step_of(state, 0)
    assert step is not None
    await notifier.publish(private(state, 0))
    await settle(notifier)
    # the reminder's DM and mention are queued; the player moves before they go out
    await notifier.publish(private(state, 0, reminder=True))
    await notifier.publish(move(0, step, reminder=True))
    await notifier.publish(private(_discarded(), 0, cause=Cause(USERS[0])))
    await settle(notifier)
    assert len(client.dms(USERS[0])) == 1  # only the first DM
    assert client.in_channel() == []


async def test_every_turn_is_mentioned_only_when_the_table_says_so() -> None:
    client = FakeClient()
    notifier = presenter(client)
    await notifier.publish(move(0, 1))
    await settle(notifier)
    assert client.in_channel() == []  # DMs open, mentions "when_needed"
    await notifier.publish(move(1, 2, mentions="every_turn"))
    await settle(notifier)
    [ping] = client.in_channel()
    assert f"<@{USERS[1]}>" in (ping.content or "")


async def test_a_turn_nobody_is_mentioned_for_takes_no_turn_of_the_channels_queue(
) -> None:
    """Known without waiting (one process, the table loaded, the seat's DMs open):
    nothing is queued for the channel. Where it is not known (shared mode: another
    process may have seen the DMs closed) the turn is looked at in the queue as ever."""
    for shared in (False, True):
        client = FakeClient()
        notifier = presenter(client, shared=shared)
        await notifier.publish(private(dealt(), 0))
        await settle(notifier)  # the table loaded, its DM sent
        await notifier.publish(move(0, 1))
        assert notifier.outbox.busy() is shared
        await settle(notifier)
        assert client.in_channel() == []


async def test_a_closed_seats_turn_is_still_mentioned_when_known_without_waiting() -> None:
    client = FakeClient()
    memory = InMemory({TABLE: TableMemory(dm_closed=frozenset({0}))})
    notifier = presenter(client, memory)
    await notifier.publish(private(dealt(), 1))
    await settle(notifier)  # loaded: seat 0's DMs known closed
    await notifier.publish(move(0, 1))
    await settle(notifier)
    [ping] = client.in_channel()
    assert f"<@{USERS[0]}>" in (ping.content or "")


async def test_a_turn_of_a_seat_remembered_closed_is_mentioned_after_a_restart() -> None:
    client = FakeClient()
    memory = InMemory({TABLE: TableMemory(dm_closed=frozenset({2}))})
    notifier = presenter(client, memory)  # a new process: closed DMs come from memory
    await notifier.publish(move(2, 1))
    await settle(notifier)
    [ping] = client.in_channel()
    assert f"<@{USERS[2]}>" in (ping.content or "")
    assert memory.tables[TABLE].ping_message == ping.id  # deleted after a restart too


def _mentions(client: FakeClient) -> list[str]:
    """The channel's text messages (mentions), not its pictures."""
    return [m.content or "" for m in client.in_channel() if not m.filenames]


async def test_a_claim_window_mentions_every_closed_seat_but_the_discarder() -> None:
    client = FakeClient()
    memory = InMemory({TABLE: TableMemory(dm_closed=frozenset({0, 1, 2, 3}))})
    notifier = presenter(client, memory)
    window, events = discarded(dealt(CLAIMABLE), claimable=True)
    [claimant, *_] = deciding_seats(window)
    step = step_of(window, claimant)
    assert step is not None
    opened = [e for e in events if isinstance(e, ClaimWindowOpened)]
    await notifier.publish(table(window, events=tuple(opened)))
    await settle(notifier)
    assert _mentions(client) == []  # not as it opens: one opens at most discards
    # at half time, while the claimant's decision is still in front of it
    await notifier.publish(private(window, claimant, reminder=True))
    await notifier.publish(move(claimant, step, kind="claim", reminder=True, discarder=0))
    await settle(notifier)
    [reminded] = _mentions(client)
    assert all(f"<@{USERS[s]}>" in reminded for s in (1, 2, 3))  # claimant or not
    assert f"<@{USERS[0]}>" not in reminded  # the discarder


async def test_a_claim_reminder_after_the_window_closed_mentions_nobody() -> None:
    client = FakeClient()
    memory = InMemory({TABLE: TableMemory(dm_closed=frozenset({1, 2, 3}))})
    notifier = presenter(client, memory)
    window, _ = discarded(dealt(CLAIMABLE), claimable=True)
    [claimant, *_] = deciding_seats(window)
    step = step_of(window, claimant)
    assert step is not None
    await notifier.publish(private(window, claimant))
    await notifier.publish(move(claimant, step, kind="claim", reminder=True, discarder=0))
    await notifier.publish(replace(private(window, claimant), step=None))  # answered
    await settle(notifier)
    assert _mentions(client) == []


async def test_a_refused_dm_closes_the_seat_in_memory_and_is_said_once() -> None:
    client = FakeClient()
    memory = InMemory()
    notifier = presenter(client, memory)
    client.refuse[USERS[1]] = 50007
    await notifier.publish(private(dealt(), 1))
    await settle(notifier)
    await notifier.publish(private(_discarded(), 1))
    await settle(notifier)
    said = [m for m in client.in_channel() if f"<@{USERS[1]}>" in (m.content or "")]
    assert len(said) == 1
    assert memory.tables[TABLE].dm_closed == {1}
    # opened again: from the next hand the seat is written to, and the memory forgets it
    del client.refuse[USERS[1]]
    await notifier.publish(private(dealt(), 1, hand=2))
    await settle(notifier)
    assert len(client.dms(USERS[1])) == 1
    assert memory.tables[TABLE].dm_closed == set()


async def test_a_missing_permission_is_told_once_to_the_creator_in_their_language() -> None:
    client = FakeClient(guild_locale="en-US")
    memory = InMemory()
    notifier = presenter(client, memory)
    client.refuse["channel"] = 50013
    info = TableInfo(REF, CREATOR, "shanghai", {}, "lobby", seats())
    created = Cause(CREATOR, "Ann", locale="zh-CN")
    await notifier.publish(LobbyNotice(info, "created", 0, cause=created))
    await notifier.publish(LobbyNotice(info, "joined", 1, cause=Cause(USERS[1])))
    await settle(notifier)
    [told] = client.dms(CREATOR)
    assert told.content is not None and "权限" in told.content
    assert memory.tables[TABLE].permission_error_reported
    # a restart does not tell it again
    again = presenter(client, memory)
    await again.publish(LobbyNotice(info, "joined", 2, cause=Cause(USERS[2])))
    await settle(again)
    assert len(client.dms(CREATOR)) == 1


async def test_the_lobby_message_is_edited_after_a_restart_not_posted_again() -> None:
    client = FakeClient()
    memory = InMemory()
    info = TableInfo(REF, CREATOR, "shanghai", {}, "lobby", seats())
    first = presenter(client, memory)
    await first.publish(LobbyNotice(info, "created", 0))
    await settle(first)
    [lobby] = client.in_channel()
    assert memory.tables[TABLE].lobby_message == lobby.id
    second = presenter(client, memory)
    await second.publish(LobbyNotice(info, "joined", 1))
    await settle(second)
    assert client.in_channel() == [lobby] and len(lobby.edits) == 1
