"""The next discard chosen in advance, through the real bot and a fake Discord (issue
30): chosen from the DM while another seat plays, it is played at the seat's turn
without a prompt, and the DM then shows the draw and the move; its menu's clicks are
judged in their own place (a stranger, another seat, a foreign table, an earlier hand,
a tile not held: each refused, nothing changed); nothing of it reaches anyone else."""

from __future__ import annotations

from pathlib import Path

import pytest
from botkit import assert_secrecy, latest_bot, make_bot, make_world, open_table, press, quiet
from fakediscord import SUPPRESS_NOTIFICATIONS, BotLauncher, FakeDiscord, FakeMessage, FakeUser

from bot.service.fairness import deal_of
from engine.game import stack_wall
from tests.service.helpers import QUIET

HANDS = {0: QUIET[0] + "9m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
"""The dealer (seat 0) discards 9m, which nobody may claim; seat 1 then draws 9s."""
DRAWS = "9s5z5z5z"
MENU = "mj:nx:1:1:s1"


def latest_dm(fake: FakeDiscord, user: FakeUser) -> FakeMessage:
    return fake.dms(user)[-1]


async def chosen(bots: BotLauncher) -> dict[int, str]:
    store = latest_bot(bots).store
    assert store is not None
    hand = await store.hands.live(1)
    assert hand is not None
    return await store.premoves.of_hand(hand.id)


async def test_a_next_discard_chosen_in_the_dm_plays_at_the_turn_without_a_prompt(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0, service_options={
        "deal": lambda rules, dealer: deal_of(stack_wall(rules, HANDS, dealer, draws=DRAWS))}))
    await open_table(world)
    await quiet(bots)
    ann, bob, cid, _ = world.players
    dm = latest_dm(fake, bob)
    assert MENU in fake.custom_ids(dm)  # not deciding: "Next discard…"
    assert not any(c.startswith("mj:nxc:") for c in fake.custom_ids(dm))
    response = await (await fake.select(bob, dm, MENU, ["1z"])).response()
    assert not (response.ephemeral and response.content), response.content
    await quiet(bots)
    shown = fake.message(dm)
    assert "⏭ Next discard: East" in shown.content
    assert "mj:nxc:1:1:s1" in fake.custom_ids(shown)
    assert await chosen(bots) == {1: "1z"}
    bobs_dms = len(fake.dms(bob))
    posted = max(m.id for m in fake.messages(world.channel))
    # the dealer discards; Bob's turn is played at once, as he chose
    ann_dm = latest_dm(fake, ann)
    menu = next(c for c in fake.custom_ids(ann_dm) if c.startswith("mj:dc:"))
    await (await fake.select(ann, ann_dm, menu, ["9m"])).response()
    await quiet(bots)
    # the message Ann clicked offers her next discard at once, from the tiles she kept
    assert fake.custom_ids(fake.message(ann_dm)) == ["mj:nx:1:1:s0"]
    new = fake.dms(bob)[bobs_dms:]
    assert len(new) == 1, [m.content for m in new]  # one DM: no prompt before it
    told = new[0]
    assert "⚡ You drew Nine of Bamboo; your chosen next discard East Wind was played." in \
        told.content, told.content
    assert told.silent and told.flags & SUPPRESS_NOTIFICATIONS  # it asks nothing
    assert not any(c.startswith(("mj:dc:", "mj:mv:")) for c in fake.custom_ids(told))
    assert any(c.startswith("mj:nx:1:1:s1") for c in fake.custom_ids(told))  # again
    assert "⏭" not in told.content
    assert await chosen(bots) == {}
    assert any(c.startswith("mj:dc:") for c in fake.custom_ids(latest_dm(fake, cid)))
    # nobody else saw any of it: channel messages, other seats' DMs, no ping for Bob
    for m in fake.messages(world.channel):
        for text in [m.content, *(str(v) for v in m.versions)]:
            assert "⏭" not in text and "⚡" not in text and "Next discard" not in text
        if m.id > posted:
            assert f"<@{bob.id}>" not in m.content, m.content
    for player in (ann, cid, world.players[3]):
        for m in fake.dms(player):
            assert "⏭" not in m.content and "⚡" not in m.content
            assert not any(c.startswith("mj:nx") and c.endswith(":s1")
                           for c in fake.custom_ids(m))
    # pictures: each hand picture went to its own seat alone; the table's picture is the
    # public one (it shows Bob's discard as any other)
    assert assert_secrecy(fake, world) > 0


async def test_the_menus_clicks_are_judged_in_their_own_place(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0, service_options={
        "deal": lambda rules, dealer: deal_of(stack_wall(rules, HANDS, dealer, draws=DRAWS))}))
    await open_table(world)
    await quiet(bots)
    ann, bob, cid, _ = world.players
    dm, cids = latest_dm(fake, bob), latest_dm(fake, cid)
    table_message = fake.messages(world.channel)[-1]
    said = {
        "stranger": await press(fake, world.outsider, table_message, MENU, ["1z"], "en-US"),
        "other seat": await press(fake, cid, cids, MENU, ["1z"], "en-US"),
        "foreign table": await press(fake, bob, dm, "mj:nx:7:1:s1", ["1z"], "en-US"),
        "earlier hand": await press(fake, bob, dm, "mj:nx:1:0:s1", ["1z"], "en-US"),
        "not held": await press(fake, bob, dm, MENU, ["9m"], "en-US"),
        "own turn": await press(fake, ann, latest_dm(fake, ann), "mj:nx:1:1:s0", ["1z"],
                                "en-US"),
        "cancel, stranger": await press(fake, world.outsider, table_message,
                                        "mj:nxc:1:1:s1", None, "en-US"),
        "or draw, none chosen": await press(fake, bob, dm, "mj:nxd:1:1:s1:off", None,
                                            "en-US"),
    }
    assert said == {
        "stranger": "That button is for p2; you don't sit at this table.",
        "other seat": "That button is for p2, not for you.",
        "foreign table": "There is no table here; open one with /mahjong new.",
        "earlier hand": "That button is from an earlier hand.",
        "not held": "You don't hold Nine of Characters; choose a tile from your hand.",
        "own turn": "It is your turn now: play it from your move menu; the next discard "
                    "is chosen while others play.",
        "cancel, stranger": "That button is for p2; you don't sit at this table.",
        "or draw, none chosen": "You have no next discard chosen now (it was played or "
                                "cancelled): choose one first.",
    }
    assert await chosen(bots) == {}
    assert "⏭" not in fake.message(dm).content


async def test_or_my_draw_plays_the_draw_when_it_helps_less_and_is_switched_in_the_dm(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Bob chooses 2m: "or my draw" is on, the DM says so and offers to switch it off
    (and on again); he draws 7z, which helps less than 2m: 7z is played, his DM says
    why, silently, and 2m stays chosen; at his next turn he draws 6z: played at once
    again, from the same choice. The toggle's presses are judged in their own place."""
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0, service_options={
        "deal": lambda rules, dealer: deal_of(stack_wall(rules, HANDS, dealer,
                                                         draws="7z5z5z5z6z"))}))
    await open_table(world)
    await quiet(bots)
    ann, bob, cid, _ = world.players
    dm = latest_dm(fake, bob)
    await (await fake.select(bob, dm, MENU, ["2m"])).response()
    await quiet(bots)
    shown = fake.message(dm)
    assert "⏭ Next discard: Two of Characters, or your draw if it helps less" in \
        shown.content, shown.content
    assert "mj:nxd:1:1:s1:off" in fake.custom_ids(shown)  # pressing it switches it off
    table_message = fake.messages(world.channel)[-1]
    said = {
        "stranger": await press(fake, world.outsider, table_message, "mj:nxd:1:1:s1:off",
                                None, "en-US"),
        "other seat": await press(fake, cid, latest_dm(fake, cid), "mj:nxd:1:1:s1:off",
                                  None, "en-US"),
        "foreign table": await press(fake, bob, dm, "mj:nxd:7:1:s1:off", None, "en-US"),
        "earlier hand": await press(fake, bob, dm, "mj:nxd:1:0:s1:off", None, "en-US"),
    }
    assert said == {
        "stranger": "That button is for p2; you don't sit at this table.",
        "other seat": "That button is for p2, not for you.",
        "foreign table": "There is no table here; open one with /mahjong new.",
        "earlier hand": "That button is from an earlier hand.",
    }
    store = latest_bot(bots).store
    assert store is not None
    hand = await store.hands.live(1)
    assert hand is not None
    assert await store.premoves.or_draw_of_hand(hand.id) == {1: ("2m", True)}
    await (await fake.click(bob, dm, "mj:nxd:1:1:s1:off")).response()
    await quiet(bots)
    shown = fake.message(dm)
    assert "⏭ Next discard: exactly Two of Characters, never your draw instead" in \
        shown.content, shown.content
    assert "mj:nxd:1:1:s1:on" in fake.custom_ids(shown)
    assert await store.premoves.or_draw_of_hand(hand.id) == {1: ("2m", False)}
    await (await fake.click(bob, dm, "mj:nxd:1:1:s1:on")).response()
    await quiet(bots)
    assert "or your draw if it helps less" in fake.message(dm).content
    assert await store.premoves.or_draw_of_hand(hand.id) == {1: ("2m", True)}
    bobs_dms = len(fake.dms(bob))
    ann_dm = latest_dm(fake, ann)
    menu = next(c for c in fake.custom_ids(ann_dm) if c.startswith("mj:dc:"))
    await (await fake.select(ann, ann_dm, menu, ["9m"])).response()
    await quiet(bots)
    (told,) = fake.dms(bob)[bobs_dms:]
    assert "⚡ You drew Red Dragon and played it: it helps less than Two of Characters" in \
        told.content, told.content
    assert told.silent and told.flags & SUPPRESS_NOTIFICATIONS
    # 2m is still held and still his plan: it stays chosen, and his DM keeps saying so
    assert await chosen(bots) == {1: "2m"}
    assert "⏭ Next discard: Two of Characters" in told.content, told.content
    assert "mj:nxc:1:1:s1" in fake.custom_ids(told)
    dee = world.players[3]
    for player in (cid, dee, ann):  # each discards the 5z drawn (nobody claims it)
        mine = latest_dm(fake, player)
        menu = next(c for c in fake.custom_ids(mine) if c.startswith("mj:dc:"))
        await (await fake.select(player, mine, menu, ["5z"])).response()
        await quiet(bots)
    (again,) = fake.dms(bob)[bobs_dms + 1:]  # his second turn, played from one choice
    assert "⚡ You drew Green Dragon and played it: it helps less than Two of Characters" \
        in again.content, again.content
    assert again.silent and not any(c.startswith(("mj:dc:", "mj:mv:"))
                                    for c in fake.custom_ids(again))
    assert await chosen(bots) == {1: "2m"}
    for player in (ann, cid, dee):
        for m in fake.dms(player):
            assert "⏭" not in m.content and "⚡" not in m.content
            assert not any(c.startswith("mj:nxd") for c in fake.custom_ids(m))
