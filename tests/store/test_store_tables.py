"""Tables and seats: create, list, status compare-and-set, seat rules, seat flags."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.store import (
    AlreadySeated,
    ConstraintError,
    NotFound,
    SeatTaken,
    StaleStatus,
    StandingChoices,
    Store,
    TableRow,
)


async def make_table(store: Store, channel_id: int = 10, *, rules: str = "shanghai",
                     options: dict[str, Any] | None = None) -> TableRow:
    return await store.lobby.create_table(guild_id=1, channel_id=channel_id, creator_id=5,
                                          rules=rules, at=50.0, options=options)


async def test_create_and_get_table(store: Store) -> None:
    table = await make_table(store, options={"flowers": True, "cap": 300})
    assert table.id >= 1 and table.status == "lobby" and table.is_live
    assert table.options == {"flowers": True, "cap": 300}
    assert (table.guild_id, table.channel_id, table.creator_id, table.rules) == (1, 10, 5,
                                                                                "shanghai")
    assert table.lobby_message_id is None and not table.permission_error_reported
    assert await store.lobby.get_table(table.id) == table
    assert await store.lobby.get_table(9999) is None


async def test_bad_rules_are_refused_and_nothing_written(store: Store) -> None:
    with pytest.raises(ConstraintError, match=r"(?i)check"):
        await make_table(store, rules="")
    assert await store.lobby.live_tables() == []


async def test_lists_by_channel_and_live(store: Store) -> None:
    a = await make_table(store, 10)
    b = await make_table(store, 10)
    c = await make_table(store, 20)
    await store.lobby.set_status(b.id, "cancelled")
    assert [t.id for t in await store.lobby.tables_in_channel(10)] == [a.id, b.id]
    assert [t.id for t in await store.lobby.tables_in_channel(10, live_only=True)] == [a.id]
    assert [t.id for t in await store.lobby.live_tables()] == [a.id, c.id]


async def test_a_table_is_found_only_in_its_own_server_and_channel(store: Store) -> None:
    table = await make_table(store, channel_id=10)  # guild 1
    assert await store.lobby.table_at(table.id, guild_id=1, channel_id=10) == table
    assert await store.lobby.table_at(table.id, guild_id=2, channel_id=10) is None
    assert await store.lobby.table_at(table.id, guild_id=1, channel_id=11) is None
    assert await store.lobby.table_at(table.id + 1, guild_id=1, channel_id=10) is None


async def test_status_compare_and_set(store: Store) -> None:
    table = await make_table(store)
    playing = await store.lobby.set_status(table.id, "playing", expected="lobby")
    assert playing.status == "playing"
    with pytest.raises(StaleStatus, match="is playing, not lobby"):
        await store.lobby.set_status(table.id, "playing", expected="lobby")
    done = await store.lobby.set_status(table.id, "finished", expected=("lobby", "playing"))
    assert done.status == "finished" and not done.is_live
    with pytest.raises(ConstraintError):
        await store.lobby.set_status(table.id, "paused")  # type: ignore[arg-type]  # on purpose
    with pytest.raises(NotFound):
        await store.lobby.set_status(9999, "playing")


async def test_two_start_clicks_only_one_wins(store: Store) -> None:
    table = await make_table(store)
    results = await asyncio.gather(
        *(store.lobby.set_status(table.id, "playing", expected="lobby") for _ in range(2)),
        return_exceptions=True)
    assert sum(isinstance(r, StaleStatus) for r in results) == 1


async def test_options_messages_and_flags(store: Store) -> None:
    table = await make_table(store)
    t = await store.lobby.set_options(table.id, {"rounds": 2})
    assert t.options == {"rounds": 2}
    t = await store.lobby.set_lobby_message(table.id, 9001)
    assert t.lobby_message_id == 9001
    t = await store.lobby.set_table_message(table.id, 9002, 77.5)
    assert (t.table_message_id, t.table_message_posted_at) == (9002, 77.5)
    t = await store.lobby.set_permission_error_reported(table.id, True)
    assert t.permission_error_reported
    assert await store.lobby.get_table(table.id) == t
    with pytest.raises(NotFound):
        await store.lobby.set_lobby_message(9999, 1)


async def test_sitting_rules(store: Store) -> None:
    table = await make_table(store)
    seat = await store.lobby.sit(table.id, 0, user_id=42, display_name="Ann", at=51.0)
    assert (seat.user_id, seat.is_computer, seat.display_name) == (42, False, "Ann")
    assert seat.choices == StandingChoices() and seat.consecutive_timeouts == 0
    with pytest.raises(SeatTaken):
        await store.lobby.sit(table.id, 0, user_id=43, display_name="Bob", at=51.0)
    with pytest.raises(AlreadySeated):
        await store.lobby.sit(table.id, 1, user_id=42, display_name="Ann", at=51.0)
    c1 = await store.lobby.sit_computer(table.id, 1, display_name="Bot 1", at=52.0)
    c2 = await store.lobby.sit_computer(table.id, 2, display_name="Bot 2", at=52.0)
    assert c1.is_computer and c1.user_id is None and c2.is_computer
    with pytest.raises(ConstraintError):
        await store.lobby.sit(table.id, 4, user_id=44, display_name="Out", at=52.0)
    with pytest.raises(NotFound):
        await store.lobby.sit(9999, 0, user_id=44, display_name="Nowhere", at=52.0)
    assert [s.seat for s in await store.lobby.seats(table.id)] == [0, 1, 2]
    assert await store.lobby.seat_of(table.id, 42) == seat
    assert await store.lobby.seat_of(table.id, 43) is None


async def test_leave_and_hand_over_to_computer(store: Store) -> None:
    table = await make_table(store)
    await store.lobby.sit(table.id, 0, user_id=42, display_name="Ann", at=51.0)
    await store.lobby.sit(table.id, 1, user_id=43, display_name="Bob", at=51.0)
    await store.lobby.leave(table.id, 1)
    with pytest.raises(NotFound):
        await store.lobby.leave(table.id, 1)
    await store.lobby.set_away(table.id, 0, True)
    await store.lobby.add_timeout(table.id, 0)
    bot = await store.lobby.make_computer(table.id, 0, display_name="Bot (Ann)")
    assert bot.is_computer and bot.user_id is None and not bot.away
    assert bot.consecutive_timeouts == 0 and bot.display_name == "Bot (Ann)"
    # Ann may sit again elsewhere at the table once her seat is a computer's.
    await store.lobby.sit(table.id, 1, user_id=42, display_name="Ann", at=60.0)


async def test_seat_flags(store: Store) -> None:
    table = await make_table(store)
    await store.lobby.sit(table.id, 2, user_id=42, display_name="Ann", at=51.0)
    assert (await store.lobby.set_away(table.id, 2, True)).away
    assert not (await store.lobby.set_away(table.id, 2, False)).away
    assert (await store.lobby.add_timeout(table.id, 2)).consecutive_timeouts == 1
    assert (await store.lobby.add_timeout(table.id, 2)).consecutive_timeouts == 2
    assert (await store.lobby.reset_timeouts(table.id, 2)).consecutive_timeouts == 0
    choices = StandingChoices(always_win=True, pass_claims=False, discard_drawn_when_away=True)
    assert (await store.lobby.set_choices(table.id, 2, choices)).choices == choices
    assert (await store.lobby.set_dm_closed(table.id, 2, True)).dm_closed
    lobby = store.lobby
    for update in (lobby.set_away(table.id, 3, True), lobby.add_timeout(table.id, 3),
                   lobby.reset_timeouts(table.id, 3), lobby.set_dm_closed(table.id, 3, True),
                   lobby.set_choices(table.id, 3, choices)):
        with pytest.raises(NotFound, match="seat 3"):
            await update


async def test_seats_of_user(store: Store) -> None:
    live = await make_table(store, 10)
    over = await make_table(store, 20)
    await store.lobby.sit(live.id, 0, user_id=42, display_name="Ann", at=51.0)
    await store.lobby.sit(over.id, 3, user_id=42, display_name="Ann", at=51.0)
    await store.lobby.set_status(over.id, "finished")
    assert [(s.table_id, s.seat) for s in await store.lobby.seats_of_user(42)] == [(live.id, 0)]
    everywhere = await store.lobby.seats_of_user(42, live_only=False)
    assert [(s.table_id, s.seat) for s in everywhere] == [(live.id, 0), (over.id, 3)]


async def test_a_table_row_holds_any_rule_set_name_as_text(store: Store) -> None:
    """Which rule sets exist is the engine's registry's to say (the service checks the
    name): the store keeps any non-empty name (0017 dropped the CHECK on the names)."""
    table = await make_table(store, rules="riichi_2")
    assert (await store.lobby.get_table(table.id)) == table and table.rules == "riichi_2"
