"""What goes wrong, handled: closed DMs, strangers, stale buttons, missing permissions."""

from __future__ import annotations

from pathlib import Path

from botkit import (
    Driver,
    World,
    answer,
    assert_secrecy,
    channel_files,
    latest_bot,
    make_bot,
    make_world,
    moves_shown,
    open_table,
    private_answer,
    quiet,
    slash,
)
from fakediscord import BotLauncher, FakeDiscord, FakeMessage, FakeUser, InteractionHandle

from tests.narrowing import known

COMPONENT = 3


async def forged_click(fake: FakeDiscord, user: FakeUser, message: FakeMessage,
                       custom_id: str, values: list[str] | None = None) -> InteractionHandle:
    """A click by ``user`` on a component of a message they cannot see (as a modified
    client could send): the fake's own click refuses to do it."""
    channel = fake.state.channels[message.channel_id]
    data: dict[str, object] = {"custom_id": custom_id, "component_type": 2}
    if values is not None:
        data.update(component_type=3, values=values)
    return await fake._interact(COMPONENT, fake.state.users[user.id], channel, data, None,
                                source=message)


async def _pending(fake: FakeDiscord, driver: Driver, bots: BotLauncher
                   ) -> tuple[FakeUser, FakeMessage]:
    for _ in range(200):
        for user in driver.world.players:
            message = driver.pending(user)
            if message is not None:
                return user, message
        await quiet(bots)
    raise AssertionError("nobody has a decision")


async def test_closed_dms_play_through_the_hand_command(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake)
    closed = world.players[2]
    fake.close_dms(closed)
    await bots.start(make_bot(tmp_path / "db.sqlite3"))
    await open_table(world)
    driver = Driver(world, closed={closed.id})
    await driver.play_until(lambda: bool(channel_files(fake, world.channel, "settlement-")),
                            idle=lambda: quiet(bots))
    await quiet(bots)
    notices = [m for m in fake.messages(world.channel) if "can't send you direct" in m.content]
    assert len(notices) == 1 and f"<@{closed.id}>" in notices[0].content
    assert fake.dms(closed) == []
    assert len(fake.failures(50007)) == 1  # said once: the seat is marked dm_closed
    seats = await latest_bot(bots).store.lobby.seats(1)
    assert [s.dm_closed for s in seats] == [False, False, True, False]
    assert assert_secrecy(fake, world) > 0
    # the hand command answered privately with the picture of the seat's own hand
    # (deferred privately first; the picture came in the followup)
    private = [m for m in fake.state.messages.values()
               if any(a.filename == "hand-1-2.png" for a in m.attachments)]
    assert private and all(m.ephemeral and m.interaction_id for m in private)
    shown = {m.id for m in private}
    asked = [r.responses[0] for r in fake.state.interactions.values()
             if r.type == 2 and r.original_id in shown]  # 2: the slash command
    assert asked and all(r.type == 5 and r.ephemeral for r in asked)


async def test_strangers_and_stale_buttons_are_refused_privately(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3"))
    await open_table(world)
    driver = Driver(world)
    user, message = await _pending(fake, driver, bots)
    select = next(c for c in fake.components(message) if known(c.custom_id).startswith("mj:dc:"))
    menu = known(select.custom_id)
    # a stranger's click on a seated player's button (forged: they never see it), in the
    # table's channel; in their own DMs a table they do not sit at is no table at all
    in_channel = fake.messages(world.channel)[-1]
    handle = await forged_click(fake, world.outsider, in_channel, menu,
                                [select.options[0]])
    refused = await private_answer(handle)
    assert "don't sit" in (refused.content or "")
    handle = await forged_click(fake, world.outsider, message, menu,
                                [select.options[0]])
    assert "no table here" in ((await private_answer(handle)).content or "")
    # another player at the table pressing it (the move is not theirs)
    other = next(p for p in world.players if p.id != user.id)
    handle = await forged_click(fake, other, message, menu, [select.options[0]])
    assert "not for you" in ((await private_answer(handle)).content or "")
    # the owner plays the same decision through /mahjong hand, then the DM is stale
    hand = await slash(world, user, "hand")
    assert (await answer(hand)).ephemeral
    assert hand.original is not None
    played = await fake.select(user, hand.original, menu, [select.options[0]])
    # answered with the move (7: the message edited in the click's response), or, when
    # the move took longer than `MOVE_ANSWER_WAIT`, acknowledged before it (6)…
    assert (await played.response()).type in (6, 7)
    original = hand.original
    await fake.wait_for(lambda: not moves_shown(fake, original))  # …edited either way
    stale = await fake.select(user, message, menu, [select.options[0]])
    assert "passed" in ((await private_answer(stale)).content or "")
    # the lobby's Start is the creator's: a stranger is refused privately
    lobby = next(m for m in fake.messages(world.channel) if m.embeds)
    assert lobby.components == [] or all(
        not known(c.custom_id).endswith(":start") for c in fake.components(lobby))


async def test_a_missing_channel_permission_is_told_to_the_creator_once(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world: World = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3"))
    fake.deny_send(world.channel)
    creator = world.players[0]
    created = await slash(world, creator, "new", rules="shanghai")
    assert (await created.response()).ephemeral
    for player in world.players[1:]:
        await (await slash(world, player, "join")).response()
    await quiet(bots)
    assert len(fake.failures(50013)) >= 2
    told = [m for m in fake.dms(creator) if "permission" in m.content]
    assert len(told) == 1
    assert all(fake.dms(p) == [] for p in world.players[1:])


async def test_reopened_dms_are_written_to_again_from_the_next_hand(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake)
    closed = world.players[1]
    fake.close_dms(closed)
    await bots.start(make_bot(tmp_path / "db.sqlite3"))
    await open_table(world, hands=2)
    driver = Driver(world, closed={closed.id})
    await driver.play_until(lambda: bool(fake.failures(50007)), idle=lambda: quiet(bots))
    fake.close_dms(closed, closed=False)  # the player opens their DMs again, mid-hand
    await driver.play_until(lambda: bool(channel_files(fake, world.channel, "settlement-")),
                            idle=lambda: quiet(bots))
    # Not tried again within the first hand: whatever came came for the second.
    assert all("hand 2" in (m.content or "") for m in fake.dms(closed))
    driver.closed.clear()
    await driver.play_until(lambda: any(f.filename == "hand-1-1.png"
                                        for f in fake.files(fake.dms(closed))),
                            idle=lambda: quiet(bots))
    seats = await latest_bot(bots).store.lobby.seats(1)
    assert not seats[1].dm_closed
    assert assert_secrecy(fake, world) > 0
