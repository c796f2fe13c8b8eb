"""The door's shape (CONTRACT.md): commands take a Cause and return what the caller
needs; `find_table` picks the table a command means; `seen` keeps the language."""

from __future__ import annotations

import pytest

from bot.service import Place, Seated, TablePicture
from bot.store import StandingChoices, Store
from engine.game import ActionKind
from tests.service.helpers import (
    ANN,
    BOB,
    CHANNEL,
    CID,
    DEE,
    EVE,
    GUILD,
    HERE,
    World,
    by,
    refused,
)

pytestmark = pytest.mark.usefixtures("dealer_zero")



def count_locale_writes(store: Store) -> list[tuple[int, str]]:
    """Every `Lobby.set_user_locale` call the service makes, in order."""
    calls: list[tuple[int, str]] = []
    real = store.lobby.set_user_locale

    async def spy(user_id: int, locale: str, at: float) -> bool:
        calls.append((user_id, locale))
        return await real(user_id, locale, at)

    store.lobby.set_user_locale = spy  # type: ignore[method-assign]  # a spy on one instance
    return calls


async def test_find_table_given_live_own_or_last(world: World) -> None:
    svc = world.service
    exc = await refused("no_table", svc.find_table(by(ANN, place=HERE)))
    assert exc.reason == "there is no table in this channel; open one with /mahjong new"
    await refused("no_table", svc.find_table(by(ANN, place=HERE), 12345))  # nobody's
    first = await world.table((ANN, BOB), start=False)
    assert await svc.find_table(by(EVE, place=HERE)) == first
    assert await svc.find_table(by(EVE, place=HERE), first) == first  # given: this channel's
    # a second live table in the channel (written past the service's one-table check)
    row = await world.store.lobby.create_table(guild_id=GUILD, channel_id=CHANNEL, creator_id=CID,
                                               rules="shanghai", at=0.0)
    await world.store.lobby.sit(row.id, 0, user_id=CID, display_name="Cid", at=0.0)
    assert await svc.find_table(by(BOB, place=HERE)) == first        # their own
    assert await svc.find_table(by(EVE, place=HERE)) == row.id       # else the newest
    await svc.cancel(by(ANN), first)
    await svc.cancel(by(CID), row.id)
    assert await svc.find_table(by(ANN, place=HERE)) == row.id       # no live one: the last


async def test_a_table_is_found_only_where_it_is(world: World) -> None:
    """Another channel's or server's table is `no_table`, in the same words as a table
    that does not exist; a decision's buttons also in the DMs of someone seated."""
    svc = world.service
    table = await world.table((ANN, BOB, CID, DEE))
    nowhere = await refused("no_table", svc.find_table(by(EVE, place=HERE), 999))
    elsewhere = (Place(GUILD, CHANNEL + 1), Place(GUILD + 1, CHANNEL), Place(None, 5))
    for place in elsewhere:
        for asked in (by(EVE, place=place), by(ANN, place=place, manager=True)):
            for decision in (False, True):
                if place.private and asked.user_id == ANN and decision:
                    continue  # Ann sits at the table: her DMs are its place
                exc = await refused("no_table", svc.find_table(asked, table,
                                                               decision=decision))
                assert (exc.reason, exc.params) == (nowhere.reason, nowhere.params)
    assert await svc.find_table(by(ANN, place=Place(None, 5)), table, decision=True) == table
    # the table is gone from memory (another process's, a restart): the store decides
    svc._tables.pop(table)
    await refused("no_table", svc.find_table(by(EVE, place=Place(GUILD + 1, CHANNEL)), table))
    await refused("no_table", svc.find_table(by(EVE, place=Place(None, 5)), table,
                                             decision=True))
    assert await svc.find_table(by(EVE, place=HERE), table) == table
    assert await svc.find_table(by(BOB, place=Place(None, 6)), table, decision=True) == table
    with pytest.raises(ValueError):
        await svc.find_table(by(ANN), table)  # nowhere: no place to judge it in


async def test_a_manager_manages_only_the_server_they_asked_in(world: World) -> None:
    table = await world.table((ANN, BOB), start=False)
    await world.service.add_computer(by(ANN), table)
    await world.service.add_computer(by(ANN), table)
    foreign = by(EVE, manager=True, place=Place(GUILD + 1, CHANNEL))
    await refused("not_allowed", world.service.start(foreign, table))
    await refused("not_allowed", world.service.cancel(foreign, table))
    await refused("not_member", world.service.add_computer(foreign, table))
    info = await world.service.start(by(EVE, manager=True, place=HERE), table)
    assert info.status == "playing"


async def test_join_and_add_computer_say_the_seat_taken(world: World) -> None:
    table = await world.table((ANN,), start=False)
    seated = await world.service.join(by(BOB, "Robert"), table, 2)
    assert isinstance(seated, Seated) and seated.seat == 2
    assert seated.table.seats[2] is not None and seated.table.seats[2].name == "Robert"
    seated = await world.service.add_computer(by(ANN), table)
    assert seated.seat == 1 and seated.table.seats[1] is not None
    assert seated.table.seats[1].is_computer


async def test_act_says_the_seat_that_moved(world: World) -> None:
    table = await world.table((ANN, BOB, CID, DEE))
    info = await world.service.hand(by(ANN), table)
    discard = next(m.action for m in info.view.moves if m.action.kind is ActionKind.DISCARD)
    result = await world.service.act(by(ANN), table, discard, step=info.step)
    assert result.seat == 0 and result.seq == 1 and not result.hand_ended


async def test_hand_carries_names_choices_and_away(world: World) -> None:
    table = await world.table((ANN, BOB, CID, DEE))
    await world.service.set_choice(by(BOB), table, "pass_claims", True)
    info = await world.service.hand(by(BOB), table)
    assert info.seat == 1 and info.names == ("Ann", "Bob", "Cid", "Dee")
    assert info.choices == StandingChoices(pass_claims=True) and info.away is False
    # away: see test_away_after_n_timeouts_then_the_computer_plays_until_back


async def test_table_picture_is_the_table_and_its_public_view(world: World) -> None:
    table = await world.table((ANN, BOB, CID, DEE))
    picture = await world.service.table_picture(table)
    assert isinstance(picture, TablePicture)
    assert picture.info.ref.table_id == table and picture.info.hand_number == 1
    assert picture.view.hand_number == 1
    assert picture.info.names == ("Ann", "Bob", "Cid", "Dee")


async def test_seen_remembers_the_language_writing_only_changes(world: World) -> None:
    writes = count_locale_writes(world.store)
    await world.service.seen(by(EVE, locale="zh-CN"))
    await world.service.seen(by(EVE, locale="zh-CN"))
    await world.service.seen(by(EVE))                       # no language: nothing said
    await world.service.seen(by(EVE, locale="en-US"))
    assert writes == [(EVE, "zh-CN"), (EVE, "en-US")]
    assert await world.store.lobby.user_locales([EVE]) == {EVE: "en-US"}


async def test_new_language_says_whether_seen_has_anything_to_remember(world: World) -> None:
    """Asked synchronously before `seen` (the adapter's every interaction): a task only
    for a language not known yet for the person."""
    zh = by(EVE, locale="zh-CN")
    assert world.service.new_language(zh)
    await world.service.seen(zh)
    assert not world.service.new_language(zh)
    assert not world.service.new_language(by(EVE))  # no language: nothing to remember
    assert world.service.new_language(by(EVE, locale="en-US"))  # changed
    assert world.service.new_language(by(ANN, locale="zh-CN"))  # somebody else's


async def test_every_command_remembers_the_language_even_when_refused(world: World) -> None:
    table = await world.table((ANN, BOB), start=False)
    await refused("not_seated", world.service.leave(by(EVE, locale="zh-CN"), table))
    await world.service.join(by(CID, locale="en-GB"), table)
    assert await world.store.lobby.user_locales([EVE, CID]) == {EVE: "zh-CN", CID: "en-GB"}


async def test_a_locale_the_store_cannot_write_fails_nothing(world: World) -> None:
    from bot.store import StoreError

    async def broken(user_id: int, locale: str, at: float) -> bool:
        raise StoreError("disk full")

    world.store.lobby.set_user_locale = broken  # type: ignore[method-assign]  # a failing store
    table = await world.table((ANN,), start=False)
    seated = await world.service.join(by(BOB, locale="zh-CN"), table)
    assert seated.seat == 1
