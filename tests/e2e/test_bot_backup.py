"""``mahjong-bot backup`` during play, ``restore``, and the restored bot carries on every
table from the backup's moment (issue 34): the decisions then waiting get fresh DMs
whose buttons play, a deadline left alone fires, and what the outbox owed then (a
table's cancellation told in its channel) is delivered. The moves made after the
backup are what the restore undoes; the buttons players held for them are never the
ones they are offered."""

from __future__ import annotations

import asyncio
from pathlib import Path

from botkit import Driver, World, channel_files, make_bot, make_world, open_table, quiet, tick
from fakediscord import BotLauncher, FakeDiscord

from bot.discord.client import MahjongBot
from bot.ops.backup import backup, restore, restore_main
from bot.service import Cause, FakeClock
from bot.store import ProcessLock, Store

TURN = 12 * 3600  # the default turn timer


def second_world(fake: FakeDiscord) -> World:
    players = [fake.add_user(3001 + i, f"q{i + 1}") for i in range(4)]
    outsider = fake.add_user(3999, "passer-by")
    guild = fake.add_guild(901, "Other club", members=[*players, outsider])
    return World(fake, guild, fake.channel(guild, "general"), players, outsider)


async def pending_of(db: Path) -> dict[int, tuple[int, int, set[tuple[int, int]]]]:
    """Each live table's hand: (number, actions, {(seat, step) of a person's decision})."""
    async with await Store.open(db) as store:
        found = {}
        for table_id in (1, 2):
            hand = await store.hands.live(table_id)
            assert hand is not None
            seq = await store.log.next_seq(hand.id) - 1
            people = {(d.seat, d.seq) for d in await store.deadlines.all(hand.id)
                      if d.kind != "computer"}
            found[table_id] = (hand.number, seq, people)
        return found


async def test_a_backup_during_play_restores_and_every_table_carries_on(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    clock = FakeClock(start=1_800_000_000.0)
    db, copy = tmp_path / "db.sqlite3", tmp_path / "backups" / "at-noon.sqlite3"
    copy.parent.mkdir()
    one, two = make_world(fake), second_world(fake)
    spare = fake.add_channel(one.guild, "spare")

    def bot() -> MahjongBot:
        return make_bot(db, clock=clock, picture_processes=0)

    running = await bots.start(bot())
    await open_table(one, hands=2)
    await open_table(two, hands=2)
    first, second = Driver(one), Driver(two)
    await first.play_until(lambda: first.clicks >= 6, idle=lambda: quiet(bots))
    await second.play_until(lambda: second.clicks >= 3, idle=lambda: quiet(bots))
    created = await fake.slash(one.players[0], one.guild, spare, "mahjong", "new",
                               options={"rules": "shanghai"})
    await created.response()
    await quiet(bots)
    service = running.client.service
    (lobby,) = await service.tables_in_channel(spare.id)
    spare_id = lobby.ref.table_id

    # the backup, taken in its own thread while the bot runs with work owed: a table's
    # cancellation not yet told in its channel (the deliveries held a moment)
    running.client.notifier.outbox.hold()
    await service.cancel(Cause(one.players[0].id, "p1"), spare_id)
    await asyncio.to_thread(backup, db, copy)
    running.client.notifier.outbox.release()
    at_backup = await pending_of(copy)
    async with await Store.open(copy) as store:
        owed = [a for a in await store.outbox.undelivered(spare_id)]
    assert owed, "the cancellation was delivered before the backup"

    # play goes on after the backup: moves the restore will undo
    await first.play_until(lambda: first.clicks >= 12, idle=lambda: quiet(bots))
    await second.play_until(lambda: second.clicks >= 6, idle=lambda: quiet(bots))
    await quiet(bots)
    assert await pending_of(db) != at_backup

    # refused while a bot holds the database (as `mahjong-bot` does, by its lock)
    with ProcessLock.acquire(db):
        assert await asyncio.to_thread(restore_main, ["--from", str(copy), "--db", str(db)]) \
            == 2
    await bots.stop_all()
    await asyncio.to_thread(restore, copy, db)
    assert await pending_of(db) == at_backup
    before = max(m.id for w in (one, two) for p in w.players for m in fake.dms(p))

    running = await bots.start(bot())
    await quiet(bots)
    service = running.client.service

    # buttons: every decision waiting at the backup has a fresh DM carrying it
    for world, table_id in ((one, 1), (two, 2)):
        number, _, people = at_backup[table_id]
        assert people
        for seat, _step in people:
            player = world.players[seat]
            offered = {tuple(c.split(":")[2:4]) for m in fake.dms(player) if m.id > before
                       for c in fake.custom_ids(m) if c.startswith(("mj:mv:", "mj:dc:"))}
            assert (str(table_id), str(number)) in offered, (table_id, seat)
    # the outbox: the cancellation owed at the backup is delivered now
    async with await Store.open(db) as store:  # a reader beside the bot (WAL)
        assert await store.outbox.undelivered(spare_id) == []

    # the players of the first table go on with the buttons they are offered now (the
    # ones they held were for moves the restore undid): no refusal, to the settlement
    for driver in (first, second):
        driver.clicked |= {m.id for p in driver.world.players for m in fake.dms(p)
                           if m.id <= before}
    settled = len(channel_files(fake, one.channel, "settlement-1-"))
    await first.play_until(
        lambda: len(channel_files(fake, one.channel, "settlement-1-")) > settled,
        idle=lambda: quiet(bots))
    assert first.refusals == []

    # deadlines: the second table, left alone, is played on by its timer
    assert (await pending_of(db))[2] == at_backup[2]  # nobody moved there yet
    await tick(clock, TURN + 60, service, bots)
    _, seq, _ = (await pending_of(db))[2]
    assert seq > at_backup[2][1]
