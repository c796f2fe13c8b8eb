"""Lobby commands and every refusal: create, join, leave, computers, start, cancel."""

from __future__ import annotations

import pytest

from engine import rules as rulesets
from tests.narrowing import known
from tests.service.helpers import ANN, BOB, CHANNEL, CID, DEE, EVE, GUILD, World, by, refused


async def test_create_seats_the_creator_and_announces_the_lobby(world: World) -> None:
    info = await world.service.create_table(by(ANN, "Ann"), guild_id=GUILD, channel_id=CHANNEL,
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
    exc = await refused("bad_options", world.service.create_table(by(ANN, "Ann"), guild_id=GUILD,
                                                                  channel_id=CHANNEL, rules=rules,
                                                                  options=options))
    assert words in exc.reason
    assert await world.store.lobby.tables_in_channel(CHANNEL) == []


class _Renamed:
    """A rule set under another name (whatever shape the rule set objects have)."""

    def __init__(self, name: str, ruleset: object) -> None:
        self.name, self._ruleset = name, ruleset

    def __getattr__(self, attr: str) -> object:
        return getattr(self._ruleset, attr)


async def test_a_rule_set_added_to_the_engine_needs_no_migration(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables keep a rule set's name as text (0017): one the engine's registry knows
    is held at once (one it does not know is refused: the test above)."""
    monkeypatch.setitem(rulesets.RULESETS, "riichi", _Renamed("riichi", rulesets.SHANGHAI))
    info = await world.service.create_table(by(ANN, "Ann"), guild_id=GUILD, channel_id=CHANNEL,
                                            rules="riichi")
    assert info.rules == "riichi"
    (row,) = await world.store.lobby.tables_in_channel(CHANNEL)
    assert row.rules == "riichi"


async def test_one_live_table_per_channel(world: World) -> None:
    await world.table(start=False)
    await refused("channel_busy", world.service.create_table(by(EVE, "Eve"), guild_id=GUILD,
                                                             channel_id=CHANNEL, rules="shanghai"))
    other = await world.service.create_table(by(EVE, "Eve"), guild_id=GUILD, channel_id=CHANNEL + 1,
                                             rules="shanghai")
    assert other.status == "lobby"


async def test_join_fills_seats_in_order_and_refuses_full_seated_and_taken(
        world: World) -> None:
    table = await world.table((ANN,), start=False)
    svc = world.service
    seated = await svc.join(by(BOB, "Bob"), table)
    assert seated.seat == 1
    assert seated.table.seats[1] is not None and seated.table.seats[1].user_id == BOB
    await refused("already_seated", svc.join(by(BOB, "Bob"), table))
    await refused("seat_taken", svc.join(by(CID, "Cid"), table, 0))
    await refused("no_such_seat", svc.join(by(CID, "Cid"), table, 4))
    assert (await svc.join(by(CID, "Cid"), table, 3)).seat == 3
    seated = await svc.join(by(DEE, "Dee"), table)
    assert seated.seat == 2
    assert [s.user_id for s in seated.table.seats if s] == [ANN, BOB, DEE, CID]
    await refused("table_full", svc.join(by(EVE, "Eve"), table))
    assert len(await world.store.lobby.seats(table)) == 4


async def test_leave_in_the_lobby_empties_the_seat(world: World) -> None:
    table = await world.table((ANN, BOB), start=False)
    info = await world.service.leave(by(BOB), table)
    assert info.seats[1] is None
    await refused("not_seated", world.service.leave(by(BOB), table))
    assert world.notes.of("lobby")[-1].what == "left"


async def test_computers_are_added_and_removed_by_members_only(world: World) -> None:
    table = await world.table((ANN, BOB), start=False)
    svc = world.service
    await refused("not_member", svc.add_computer(by(EVE), table))
    seated = await svc.add_computer(by(BOB), table)
    assert seated.seat == 2
    assert seated.table.seats[2] is not None and seated.table.seats[2].is_computer
    seated = await svc.add_computer(by(EVE, manager=True), table)
    assert seated.seat == 3 and seated.table.empty_seats == ()
    await refused("table_full", svc.add_computer(by(ANN), table))
    await refused("not_a_computer", svc.remove_computer(by(ANN), table, 1))
    await refused("not_member", svc.remove_computer(by(EVE), table, 2))
    info = await svc.remove_computer(by(ANN), table, 2)
    assert info.seats[2] is None


async def test_start_refuses_non_creator_and_empty_seats(world: World) -> None:
    table = await world.table((ANN, BOB), start=False)
    svc = world.service
    await refused("not_allowed", svc.start(by(BOB), table))
    exc = await refused("empty_seats", svc.start(by(ANN), table))
    assert "add computer players" in exc.reason and "3, 4" in exc.reason
    await svc.add_computer(by(ANN), table)
    await svc.add_computer(by(ANN), table)
    info = await svc.start(by(ANN), table)
    assert info.status == "playing" and info.hand_number == 1
    await refused("not_in_lobby", svc.start(by(ANN), table))
    await refused("not_in_lobby", svc.join(by(EVE, "Eve"), table))
    await refused("not_in_lobby", svc.add_computer(by(ANN), table))


async def test_a_manager_may_start_someone_elses_table(world: World) -> None:
    table = await world.table((ANN,), computers=3, start=False)
    info = await world.service.start(by(EVE, manager=True), table)
    assert info.status == "playing"


async def test_cancel_by_creator_or_manager_only(world: World) -> None:
    table = await world.table((ANN, BOB), start=False)
    svc = world.service
    await refused("not_allowed", svc.cancel(by(BOB), table))
    await refused("not_allowed", svc.cancel(by(EVE), table))
    info = await svc.cancel(by(EVE, manager=True), table)
    assert info.status == "cancelled"
    await refused("cancelled", svc.cancel(by(ANN), table))
    await refused("cancelled", svc.join(by(EVE, "Eve"), table))
    assert known(await world.store.lobby.get_table(table)).status == "cancelled"


async def test_cancel_during_play_voids_the_hand_and_reveals_the_wall(world: World) -> None:
    table = await world.table()
    hand = await world.store.hands.live(table)
    assert hand is not None
    info = await world.service.cancel(by(ANN), table)
    assert info.status == "cancelled"
    (reveal,) = world.notes.of("reveal")
    assert reveal.wall == hand.wall and reveal.commitment == hand.commitment
    assert known(await world.store.hands.get(hand.id)).status == "ended"
    assert await world.store.endings.settlements(hand.id) == []
    assert (await world.store.matches.of_table(table))[-1].status == "abandoned"
    assert await world.store.deadlines.all() == []
    ended = world.notes.of("match_ended")
    assert ended and ended[-1].cancelled
    # a new table may now be opened in the channel
    await world.table(start=False)


async def test_unknown_table_is_refused(world: World) -> None:
    await refused("no_table", world.service.join(by(ANN, "Ann"), 12345))
    await refused("no_table", world.service.act(by(ANN), 12345, {"kind": "pass", "seat": 0}))


async def test_choices_back_and_queries_refuse_outside_their_place(world: World) -> None:
    from bot.store import StandingChoices

    table = await world.table((ANN, BOB), start=False)
    svc = world.service
    await refused("not_seated", svc.set_choices(by(EVE), table, StandingChoices(True)))
    choices = await svc.set_choices(by(BOB), table, StandingChoices(pass_claims=True))
    assert choices == StandingChoices(pass_claims=True)
    assert known((await svc.table_info(table)).seats[1]).choices == choices
    await refused("not_seated", svc.back(by(EVE), table))
    await refused("not_playing", svc.hand(by(ANN), table))
    await refused("not_playing", svc.table_picture(table))
    await refused("not_playing", svc.act(by(ANN), table, {"kind": "pass", "seat": 0}))
    assert [t.ref.table_id for t in await svc.tables_in_channel(CHANNEL)] == [table]
    assert (await svc.leaderboard(CHANNEL)).rows == ()


async def test_one_standing_choice_at_a_time_keeps_the_others(world: World) -> None:
    import asyncio

    table = await world.table((ANN, BOB), start=False)
    svc = world.service
    await asyncio.gather(svc.set_choice(by(BOB), table, "always_win", True),
                         svc.set_choice(by(BOB), table, "pass_claims", True))
    choices = await svc.set_choice(by(BOB), table, "discard_drawn_when_away", True)
    assert choices.always_win and choices.pass_claims and choices.discard_drawn_when_away
    choices = await svc.set_choice(by(BOB), table, "always_win", False)
    assert not choices.always_win and choices.pass_claims
    await refused("not_seated", svc.set_choice(by(EVE), table, "always_win", True))
    with pytest.raises(ValueError, match="no standing choice 'win_always'"):
        await svc.set_choice(by(BOB), table, "win_always", True)
    (bob,) = [s for s in await world.store.lobby.seats(table) if s.user_id == BOB]
    assert bob.choices == choices      # the store holds what was said
