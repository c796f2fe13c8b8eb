"""Lobby commands and every refusal: create, join, leave, computers, start, cancel."""

from __future__ import annotations

import pytest

from bot.service import Refused
from engine import rules as rulesets
from tests.service.helpers import ANN, BOB, CHANNEL, CID, DEE, EVE, GUILD, World


async def refused(code: str, coro: object) -> Refused:
    with pytest.raises(Refused) as info:
        await coro  # type: ignore[misc]
    assert info.value.code == code, info.value
    return info.value


async def test_create_seats_the_creator_and_announces_the_lobby(world: World) -> None:
    info = await world.service.create_table(guild_id=GUILD, channel_id=CHANNEL,
                                            creator_id=ANN, creator_name="Ann",
                                            rules="hangzhou", options={"base": 2})
    assert info.status == "lobby" and info.rules == "hangzhou"
    assert info.seats[0] is not None and info.seats[0].user_id == ANN
    assert info.empty_seats == (1, 2, 3) and info.options == {"base": 2}
    (notice,) = world.notes.of("lobby")
    assert notice.what == "created" and notice.table == info


@pytest.mark.parametrize(("rules", "options", "words"), [
    ("mahjong", {}, "unknown rules"),
    ("shanghai", {"colour": 1}, "unknown option"),
    ("shanghai", {"turn_timer": 1}, "between"),
    ("hangzhou", {"caishen": "sometimes"}, "must be one of"),
])
async def test_create_refuses_bad_rules_and_options_and_writes_nothing(
        world: World, rules: str, options: dict[str, object], words: str) -> None:
    exc = await refused("bad_options", world.service.create_table(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=ANN, creator_name="Ann",
        rules=rules, options=options))
    assert words in exc.reason
    assert await world.store.tables_in_channel(CHANNEL) == []


class _Renamed:
    """A rule set under another name (whatever shape the rule set objects have)."""

    def __init__(self, name: str, ruleset: object) -> None:
        self.name, self._ruleset = name, ruleset

    def __getattr__(self, attr: str) -> object:
        return getattr(self._ruleset, attr)


async def test_create_refuses_rules_the_tables_cannot_hold_yet(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule set added to the engine before a migration lets a table row hold it."""
    monkeypatch.setitem(rulesets.RULESETS, "riichi", _Renamed("riichi", rulesets.SHANGHAI))
    exc = await refused("bad_options", world.service.create_table(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=ANN, creator_name="Ann",
        rules="riichi"))
    assert "riichi" in exc.reason
    assert await world.store.tables_in_channel(CHANNEL) == []


async def test_one_live_table_per_channel(world: World) -> None:
    await world.table(start=False)
    await refused("channel_busy", world.service.create_table(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=EVE, creator_name="Eve",
        rules="shanghai"))
    other = await world.service.create_table(guild_id=GUILD, channel_id=CHANNEL + 1,
                                             creator_id=EVE, creator_name="Eve",
                                             rules="shanghai")
    assert other.status == "lobby"


async def test_join_fills_seats_in_order_and_refuses_full_seated_and_taken(
        world: World) -> None:
    table = await world.table((ANN,), start=False)
    svc = world.service
    info = await svc.join(table, BOB, "Bob")
    assert info.seats[1] is not None and info.seats[1].user_id == BOB
    await refused("already_seated", svc.join(table, BOB, "Bob"))
    await refused("seat_taken", svc.join(table, CID, "Cid", seat=0))
    await refused("no_such_seat", svc.join(table, CID, "Cid", seat=4))
    await svc.join(table, CID, "Cid", seat=3)
    info = await svc.join(table, DEE, "Dee")
    assert [s.user_id for s in info.seats if s] == [ANN, BOB, DEE, CID]
    await refused("table_full", svc.join(table, EVE, "Eve"))
    assert len(await world.store.seats(table)) == 4


async def test_leave_in_the_lobby_empties_the_seat(world: World) -> None:
    table = await world.table((ANN, BOB), start=False)
    info = await world.service.leave(table, BOB)
    assert info.seats[1] is None
    await refused("not_seated", world.service.leave(table, BOB))
    assert world.notes.of("lobby")[-1].what == "left"


async def test_computers_are_added_and_removed_by_members_only(world: World) -> None:
    table = await world.table((ANN, BOB), start=False)
    svc = world.service
    await refused("not_member", svc.add_computer(table, EVE))
    info = await svc.add_computer(table, BOB)
    assert info.seats[2] is not None and info.seats[2].is_computer
    info = await svc.add_computer(table, EVE, is_manager=True)
    assert info.empty_seats == ()
    await refused("table_full", svc.add_computer(table, ANN))
    await refused("not_a_computer", svc.remove_computer(table, ANN, 1))
    await refused("not_member", svc.remove_computer(table, EVE, 2))
    info = await svc.remove_computer(table, ANN, 2)
    assert info.seats[2] is None


async def test_start_refuses_non_creator_and_empty_seats(world: World) -> None:
    table = await world.table((ANN, BOB), start=False)
    svc = world.service
    await refused("not_allowed", svc.start(table, BOB))
    exc = await refused("empty_seats", svc.start(table, ANN))
    assert "add computer players" in exc.reason and "3, 4" in exc.reason
    await svc.add_computer(table, ANN)
    await svc.add_computer(table, ANN)
    info = await svc.start(table, ANN)
    assert info.status == "playing" and info.hand_number == 1
    await refused("not_in_lobby", svc.start(table, ANN))
    await refused("not_in_lobby", svc.join(table, EVE, "Eve"))
    await refused("not_in_lobby", svc.add_computer(table, ANN))


async def test_a_manager_may_start_someone_elses_table(world: World) -> None:
    table = await world.table((ANN,), computers=3, start=False)
    info = await world.service.start(table, EVE, is_manager=True)
    assert info.status == "playing"


async def test_cancel_by_creator_or_manager_only(world: World) -> None:
    table = await world.table((ANN, BOB), start=False)
    svc = world.service
    await refused("not_allowed", svc.cancel(table, BOB))
    await refused("not_allowed", svc.cancel(table, EVE))
    info = await svc.cancel(table, EVE, is_manager=True)
    assert info.status == "cancelled"
    await refused("not_playing", svc.cancel(table, ANN))
    await refused("not_playing", svc.join(table, EVE, "Eve"))
    assert (await world.store.get_table(table)).status == "cancelled"


async def test_cancel_during_play_voids_the_hand_and_reveals_the_wall(world: World) -> None:
    table = await world.table()
    hand = await world.store.live_hand(table)
    assert hand is not None
    info = await world.service.cancel(table, ANN)
    assert info.status == "cancelled"
    (reveal,) = world.notes.of("reveal")
    assert reveal.wall == hand.wall and reveal.commitment == hand.commitment
    assert (await world.store.get_hand(hand.id)).status == "ended"
    assert await world.store.settlements(hand.id) == []
    assert (await world.store.matches(table))[-1].status == "abandoned"
    assert await world.store.deadlines() == []
    ended = world.notes.of("match_ended")
    assert ended and ended[-1].cancelled
    # a new table may now be opened in the channel
    await world.table(start=False)


async def test_unknown_table_is_refused(world: World) -> None:
    await refused("no_table", world.service.join(12345, ANN, "Ann"))
    await refused("no_table", world.service.act(12345, ANN, {"kind": "pass", "seat": 0}))


async def test_choices_back_and_queries_refuse_outside_their_place(world: World) -> None:
    from bot.store import StandingChoices

    table = await world.table((ANN, BOB), start=False)
    svc = world.service
    await refused("not_seated", svc.set_choices(table, EVE, StandingChoices(True)))
    info = await svc.set_choices(table, BOB, StandingChoices(pass_claims=True))
    assert info.seats[1].choices.pass_claims
    await refused("not_seated", svc.back(table, EVE))
    await refused("not_playing", svc.hand(table, ANN))
    await refused("not_playing", svc.table_view(table))
    await refused("not_playing", svc.act(table, ANN, {"kind": "pass", "seat": 0}))
    assert [t.ref.table_id for t in await svc.tables_in_channel(CHANNEL)] == [table]
    assert await svc.leaderboard(CHANNEL) == []


async def test_one_standing_choice_at_a_time_keeps_the_others(world: World) -> None:
    import asyncio

    table = await world.table((ANN, BOB), start=False)
    svc = world.service
    await asyncio.gather(svc.set_choice(table, BOB, "always_win", True),
                         svc.set_choice(table, BOB, "pass_claims", True))
    info = await svc.set_choice(table, BOB, "discard_drawn_when_away", True)
    choices = info.seats[1].choices
    assert choices.always_win and choices.pass_claims and choices.discard_drawn_when_away
    info = await svc.set_choice(table, BOB, "always_win", False)
    assert not info.seats[1].choices.always_win and info.seats[1].choices.pass_claims
    await refused("not_seated", svc.set_choice(table, EVE, "always_win", True))
    with pytest.raises(ValueError, match="no standing choice 'win_always'"):
        await svc.set_choice(table, BOB, "win_always", True)
    (bob,) = [s for s in await world.store.seats(table) if s.user_id == BOB]
    assert bob.choices == info.seats[1].choices      # the store holds what was said
