"""A clock that fits, through the real bot on a fake Discord with a fake clock: the DM
when a quarter of a person's time is left comes once (and notifies), and the lobby says
the table's pace once its people's answer times are on record."""

from __future__ import annotations

from pathlib import Path

from botkit import PLAYER_IDS, make_bot, make_world, open_table, quiet, slash, tick
from fakediscord import BotLauncher, FakeDiscord

from bot.service import FakeClock
from bot.service.match_pace import MIN_ANSWERS
from bot.store import NewHand, Store

TURN = 12 * 3600  # the default turn timer
WARNING = "a quarter of your time"


async def test_the_warning_dm_comes_once_with_a_quarter_of_the_time_left(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    clock = FakeClock(start=1_800_000_000.0)
    world = make_world(fake)
    running = await bots.start(make_bot(tmp_path / "db.sqlite3", clock=clock,
                                        picture_processes=0))
    await open_table(world, hands=1, time_bank=3600)
    await quiet(bots)
    service = running.client.service
    (table,) = await service.tables_in_channel(world.channel.id)
    (seat,) = table.deciding
    player = world.players[seat]
    first = [m for m in fake.dms(player) if m.components][-1]
    assert "Your time bank: 1 h" in first.content
    await tick(clock, 3 * TURN / 4 - 1, service, bots)
    assert not [m for m in fake.dms(player) if WARNING in m.content]
    await tick(clock, 1, service, bots)
    (warning,) = [m for m in fake.dms(player) if WARNING in m.content]
    assert not warning.silent and not warning.components and not warning.attachments
    assert "Then your time bank runs: 1 h" in warning.content
    assert "Then the timer plays for you: 打 Discard" in warning.content
    others = [p for p in world.players if p is not player]
    assert not any(WARNING in m.content for p in others for m in fake.dms(p))
    await tick(clock, TURN / 4, service, bots)          # the timer is out: the bank runs
    assert (await service.table_info(table.ref.table_id)).deciding == (seat,)
    await tick(clock, 3600, service, bots)
    assert (await service.table_info(table.ref.table_id)).deciding != (seat,)
    assert len([m for m in fake.dms(player) if WARNING in m.content]) == 1


async def on_record(path: Path, seconds: float) -> None:
    """An earlier table where each player answered enough decisions in ``seconds``."""
    store = await Store.open(path)
    try:
        table = await store.lobby.create_table(guild_id=1, channel_id=2, creator_id=101,
                                               rules="shanghai", at=1.0)
        for seat, user in enumerate(PLAYER_IDS):
            await store.lobby.sit(table.id, seat, user_id=user, display_name=f"p{seat}",
                                  at=1.0)
        match = await store.matches.create(table.id, first_dealer=0, at=2.0)
        hand = await store.matches.deal(match.id, NewHand(
            "1m2m3m5z1f2p9s", "ab" * 16, "0123456789abcdef" * 4, dice=(3, 5), dealer=0,
            streak=0, huangfan=0), at=3.0)
        for seq in range(1, 4 * MIN_ANSWERS + 1):
            await store.log.append(hand.id, seq, seq % 4, "discard", {}, "player",
                                   10.0 * seq + seconds, asked_at=10.0 * seq)
    finally:
        await store.close()


async def test_the_lobby_tells_the_pace_once_the_answer_times_are_known(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    await on_record(db, 1800.0)
    world = make_world(fake)
    await bots.start(make_bot(db, picture_processes=0))
    known = world.players[:2]
    created = await slash(world, known[0], "new", rules="shanghai", hands=8)
    await created.response()
    lobby = await fake.wait_for(lambda: next((m for m in fake.messages(world.channel)
                                              if m.embeds), None))

    def said() -> str:
        return str(lobby.embeds[0].get("description", ""))

    # 8 hands × 79 decisions × 30 minutes: about 13 days
    await fake.wait_for(lambda: "about 13 days a match" in said())
    join = next(c for c in fake.custom_ids(lobby) if c.endswith(":join"))
    await (await fake.click(known[1], lobby, join)).response()
    await quiet(bots)
    assert "about 13 days a match" in said()
    # someone with nothing on record: nothing is said until they have played enough
    await (await fake.click(world.outsider, lobby, join)).response()
    await quiet(bots)
    assert "pace" not in said() and "Waiting for players: 1 seat(s) free." in said()
