"""Leaving a running match and cancelling a table, through the real bot (issue 28,
points 4 and 5).

Leaving mid-match is asked first, privately, with what it costs under the table's rules
(Hangzhou: 逃跑 base × 8), and honoured only for that person; the channel is told who
left and what it cost; the leaderboard keeps the person's hands and penalty on their
own line (no computer ranks), and `/mahjong history` tells each move by who made it.
A cancelled table's open decision DMs (and a following `/mahjong hand` reply) lose
their buttons and say who cancelled it and where its wall is; an old button answers
that the table was cancelled."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from botkit import (
    Driver,
    Snapshot,
    answer,
    channel_files,
    discard_decision,
    make_bot,
    make_world,
    open_table,
    press,
    quiet,
    slash,
)
from fakediscord import BotLauncher, FakeDiscord, FakeMessage

from bot.discord.core.i18n import t
from tests.narrowing import known


def _prefix(key: str, locale: str, **fields: Any) -> str:
    """The start of a sentence up to its ``tile`` (tiles may be worded otherwise)."""
    return t(key, locale, tile="\0", **fields).split("\0")[0]


def _buttons(fake: FakeDiscord, message: FakeMessage) -> list[str]:
    return [c for c in fake.custom_ids(message) if c.startswith("mj:")]


async def test_leaving_a_running_hangzhou_match_is_confirmed_told_and_kept_with_the_person(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake)
    running = await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    service, store = running.client.service, running.client.store
    await open_table(world, rules="hangzhou", hands=1)
    p1, p4 = world.players[0], world.players[3]
    driver = Driver(world, win=False)

    async def p4_discarded() -> bool:
        hand = await store.hands.live(1)
        assert hand is not None
        return any(a.kind == "discard" and a.seat == 3 for a in await store.log.actions(hand.id))

    for _ in range(400):  # p4 plays a few moves of their own first
        if await p4_discarded():
            break
        if not await driver.step():
            await quiet(bots)
    await quiet(bots)
    lobby = next(m for m in fake.messages(world.channel)
                 if any(":lobby:" in c for c in fake.custom_ids(m)))
    leave_id = next(c for c in fake.custom_ids(lobby) if c.endswith(":leave"))

    # the public Leave button asks p4 privately; nothing changes yet
    asked = await (await fake.click(p4, lobby, leave_id)).response()
    question = asked.message
    assert question is not None and question.ephemeral
    yes, no = _buttons(fake, question)
    cost = Fraction(yes.split(":")[4])
    assert yes == f"mj:quit:1:{p4.id}:{cost}:yes" and no == f"mj:quit:1:{p4.id}:{cost}:no"
    assert cost in (8, 32)  # base 1 × 8, or × 32 inside a 抓打 window
    text = question.content or ""
    assert text.startswith("**Leave table #1 while its match is running?** The computer "
                           "plays your seat until the match ends.")
    assert f"Under Hangzhou rules leaving a running hand is 逃跑: you are charged {cost}" \
        in text
    assert not known((await service.table_info(1)).seats[3]).is_computer

    # the confirmation is p4's alone, and "Keep my seat" keeps it
    for other in (world.outsider, p1):
        told = await press(fake, other, Snapshot.of(fake, question), yes, None, "en-US")
        assert told == "This confirmation belongs to another player."
    kept = await (await fake.click(p4, question, no)).response()
    assert kept.type == 7
    assert fake.message(question).content == "You keep your seat at table #1."
    assert not _buttons(fake, fake.message(question))
    assert not known((await service.table_info(1)).seats[3]).is_computer

    # /mahjong leave asks too; confirmed, the computer takes the seat
    asked_again = await answer(await slash(world, p4, "leave"))
    assert asked_again.ephemeral and _buttons(fake, asked_again)[0] == yes
    hand = await store.hands.live(1)
    assert hand is not None
    done = await (await fake.click(p4, asked_again, yes)).response()
    assert done.type == 7
    assert fake.message(asked_again).content == (
        "You left table #1: the computer plays your seat until the match ends.")
    await quiet(bots)
    info = await service.table_info(1)
    assert known(info.seats[3]).is_computer and info.totals is not None and info.totals[3] == -cost
    assert not any(c.startswith(("mj:mv:", "mj:dc:")) for m in fake.dms(p4)
                   for c in fake.custom_ids(m))  # no decision of the seat is p4's now
    said = [m.content for m in fake.messages(world.channel)
            if m.content and m.content.startswith("p4 left the match")]
    if cost == 8:
        assert said == ["p4 left the match at table #1: the computer plays the seat until "
                        "the match ends. 逃跑 penalty: 8, which nobody receives."]
    else:
        assert len(said) == 1 and "逃跑 penalty: 32" in said[0]
    left_at = len(await store.log.actions(hand.id))

    # the hand is played out; p4's line carries the hand and the penalty
    await Driver(world).play_until(
        lambda: bool(channel_files(fake, world.channel, "leaderboard-")),
        idle=lambda: quiet(bots))
    await quiet(bots)
    paid = {s.seat: s.amount for s in await store.endings.settlements(hand.id)}
    rows = {r.display_name: r for r in (await service.leaderboard(world.channel.id)).rows}
    assert set(rows) == {"p1", "p2", "p3", "p4"}  # no computer ranks
    assert rows["p4"].points == paid[3] - cost and rows["p4"].hands_played == 1
    assert rows["p4"].hands_won == 0
    board = channel_files(fake, world.channel, "leaderboard-")[-1].content or ""
    assert "Computer" not in board and "p4" in board

    # /mahjong history: p4's own discards are p4's, the computer's after are its own
    actions = await store.log.actions(hand.id)
    mine = sum(1 for a in actions if a.kind == "discard" and a.seat == 3 and a.seq <= left_at)
    theirs = sum(1 for a in actions if a.kind == "discard" and a.seat == 3 and a.seq > left_at)
    assert mine >= 1
    history = await answer(await slash(world, p1, "history"))
    whole = next((a.data.decode() for a in history.attachments
                  if a.filename.endswith(".txt")), history.content or "")
    lines = whole.splitlines()
    assert known(info.seats[3]).name == "Computer 4 (for p4)"
    person = _prefix("ev.discard", "en", name="p4")
    computer = _prefix("ev.discard", "en", name="Computer 4 (for p4)")
    assert sum(1 for line in lines if line.startswith(person)) == mine
    assert sum(1 for line in lines if line.startswith(computer)) == theirs


async def test_leaving_a_shanghai_match_says_it_costs_nothing_in_chinese(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake, locales=["en-US", "en-US", "en-US", "zh-CN"])
    running = await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await open_table(world, rules="shanghai", hands=1)
    await quiet(bots)
    p4 = world.players[3]
    asked = await answer(await slash(world, p4, "leave"))
    yes, _ = _buttons(fake, asked)
    assert yes == f"mj:quit:1:{p4.id}:0:yes"
    assert (asked.content or "").splitlines() == [
        "**确定在对局进行中离开第 1 桌吗？** 此后由电脑代打你的座位直到本场结束。",
        "按上海规则离开不扣分；你打过的局仍记在你的排行榜上。"]
    await (await fake.click(p4, asked, yes, locale="zh-CN")).response()
    await quiet(bots)
    assert known((await running.client.service.table_info(1)).seats[3]).is_computer
    said = [m.content for m in fake.messages(world.channel)
            if m.content and "left the match" in m.content]
    assert said == ["p4 left the match at table #1: the computer plays the seat until the "
                    "match ends. No penalty under Shanghai rules."]


async def test_leaving_a_lobby_is_one_click(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake, count=2)
    running = await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await answer(await slash(world, world.players[0], "new", rules="hangzhou"))
    await answer(await slash(world, world.players[1], "join"))
    left = await answer(await slash(world, world.players[1], "leave"))
    assert left.content == "p2 leaves the table." and not _buttons(fake, left)
    assert (await running.client.service.table_info(1)).seats[1] is None


async def test_cancelling_takes_the_buttons_off_every_open_decision_and_says_so(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake, locales=["en-US", "zh-CN", "zh-CN", "zh-CN"])
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await open_table(world)
    driver = Driver(world)
    user, dm, menu, value = await discard_decision(driver, bots)
    await quiet(bots)
    reply = await answer(await slash(world, user, "hand"))
    assert menu in _buttons(fake, reply)
    before = Snapshot.of(fake, dm)
    open_dms = {p.id: m for p in world.players
                if (m := driver.pending(p)) is not None}
    assert user.id in open_dms

    cancelled = await answer(await slash(world, world.players[0], "cancel"))
    assert cancelled.content == "Table #1 is cancelled."
    await quiet(bots)
    channel = world.channel.id
    for player in world.players:
        message = open_dms.get(player.id)
        if message is None:
            continue
        shown = fake.message(message)
        assert not _buttons(fake, shown), player.name
        if player is world.players[0]:
            assert shown.content == ("**Table #1 was cancelled by p1.** This decision is void; "
                                     f"the hand's wall is revealed in <#{channel}>.")
        else:
            assert shown.content == ("**第 1 桌已被 p1 取消。** "
                                     f"这个决定作废；本局牌墙在 <#{channel}> 公开。")
    await fake.wait_for(lambda: not _buttons(fake, fake.message(reply)),
                        what="the reply's buttons taken off")
    assert "p1" in (fake.message(reply).content or "")

    # an old button (a client not shown the edit) is told the table was cancelled
    locale = "en-US" if user is world.players[0] else "zh-CN"
    told = await press(fake, user, before, menu, value, locale)
    assert told == t("refused.cancelled", locale)
    # and nothing more is DMed about the table
    count = {p.id: len(fake.dms(p)) for p in world.players}
    await quiet(bots)
    assert {p.id: len(fake.dms(p)) for p in world.players} == count


async def test_a_cancel_after_a_restart_voids_the_decisions_dmed_before_it(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    world = make_world(fake)
    running = await bots.start(make_bot(db, picture_processes=0))
    await open_table(world)
    driver = Driver(world)
    user, dm, menu, value = await discard_decision(driver, bots)
    await quiet(bots)
    before = Snapshot.of(fake, dm)
    await bots.restart(running, make_bot(db, picture_processes=0))
    await answer(await slash(world, world.players[0], "cancel"))
    await quiet(bots)
    shown = fake.message(dm)
    assert not _buttons(fake, shown)
    assert shown.content.startswith("**Table #1 was cancelled by p1.**")
    told = await press(fake, user, before, menu, value, "en-US")
    assert told == "This table was cancelled."
