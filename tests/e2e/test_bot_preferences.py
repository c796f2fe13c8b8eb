"""Standing choices through the real bot: quick toggles must all count."""

from __future__ import annotations

import asyncio
from pathlib import Path

from botkit import make_bot, make_world, open_table, quiet
from fakediscord import BotLauncher, FakeDiscord

from bot.discord.play.choices import PreferenceButton
from bot.store import Store


async def test_two_quick_toggles_both_count(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    """Each toggle changes one choice of what the seat has *at that moment*: two
    pressed together (read before either was written) must not undo each other."""
    db = tmp_path / "db.sqlite3"
    world = make_world(fake)
    await bots.start(make_bot(db))
    await open_table(world)
    await quiet(bots)
    ann = world.players[0]
    dm = fake.dms(ann)[-1]
    handles = await asyncio.gather(
        fake.click(ann, dm, PreferenceButton(1, "always_win", True).custom_id),
        fake.click(ann, dm, PreferenceButton(1, "pass_claims", True).custom_id))
    for handle in handles:
        await handle.response()
    await quiet(bots)
    store = await Store.open(db)
    try:
        (seat,) = [s for s in await store.lobby.seats(1) if s.user_id == ann.id]
    finally:
        await store.close()
    assert seat.choices.always_win and seat.choices.pass_claims, seat.choices
