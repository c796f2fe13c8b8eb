"""The real bot over the fake Discord with ``LOG_LEVEL=DEBUG`` (bot/logs.py): no log
record holds the wall, the salt, or a player's hand as their DMs write it (discord.py
logs request and response bodies at DEBUG, and a DM's text carries the hand)."""

from __future__ import annotations

from pathlib import Path

from botkit import Driver, concealed_lines, make_bot, make_world, open_table, quiet
from fakediscord import BotLauncher, FakeDiscord

from tests.logcapture import debug_logs, leaks


async def test_a_hand_played_over_discord_logs_no_secret_at_debug(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    with debug_logs() as out:
        world = make_world(fake)
        running = await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
        await open_table(world)
        driver = Driver(world)

        def hands_dealt() -> set[str]:
            return {line for p in world.players for line in concealed_lines(fake, p)
                    if len(line) >= 11}  # four tiles or more: "1m 4m 7m 2p"

        # played until eight hands were written to DMs, not for a number of clicks: a DM
        # superseded before it was sent is never sent (the outbox keeps the newest)
        await driver.play_until(lambda: driver.clicks >= 10 and len(hands_dealt()) >= 8,
                                idle=lambda: quiet(bots))
        await quiet(bots)
        (table,) = await running.client.service.tables_in_channel(world.channel.id)
        hand = await running.client.store.hands.live(table.ref.table_id)
    assert hand is not None
    hands = hands_dealt()
    assert len(hands) >= 8
    text = out.getvalue()
    assert "discord" in text  # the library's INFO records still come through
    assert leaks(text, hands | {hand.wall, hand.salt}) == []
