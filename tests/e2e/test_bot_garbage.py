"""A click leaves nothing for the garbage collector: what discord.py makes of it (the
interaction, its response, the message it carries, the view rebuilt from it) and the
pictures sent for it are freed as soon as they are done with, not gathered into
collections that stop the event loop (`bench/discord.py`: ~90 such objects a click made
a young collection every few dozen clicks, and the ones still in flight then were carried
into the middle generation's one long pause of the run)."""

from __future__ import annotations

import gc
import io
from collections import Counter
from pathlib import Path

import pytest
from botkit import Driver, make_bot, make_world, open_table, quiet
from fakediscord import BotLauncher, FakeDiscord
from test_bot_click_answer import _click_one

from bot.discord.core import answering

WATCHED = ("Interaction", "InteractionResponse", "InteractionMessage", "View",
           "MoveButton", "DiscardSelect", "Picture")


def _kind(thing: object) -> str | None:
    """The watched kind of a piece of garbage: one of discord.py's interaction and view
    objects, or a picture's buffer (a `BytesIO` with its own ``close`` put back by
    `discord.File.close`)."""
    name = type(thing).__name__
    if name in WATCHED and type(thing).__module__.startswith(("discord.", "bot.")):
        return name
    if isinstance(thing, io.BytesIO) and "close" in getattr(thing, "__dict__", {}):
        return "Picture"
    return None


async def _garbage_of_clicks(fake: FakeDiscord, bots: BotLauncher, driver: Driver,
                             clicks: int) -> Counter[str]:
    gc.collect()
    gc.disable()
    try:
        for _ in range(clicks):
            handle, _message = await _click_one(fake, bots, driver)
            await handle.response()
            await quiet(bots)
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        return Counter(k for k in map(_kind, gc.garbage) if k is not None)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


@pytest.mark.parametrize("wait", [5.0, 0.0], ids=["answered_with_move", "acknowledged"])
async def test_clicks_leave_no_cycles_for_the_collector(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, wait: float) -> None:
    monkeypatch.setattr(answering, "MOVE_ANSWER_WAIT", wait)
    world = make_world(fake)
    bot = make_bot(tmp_path / "db.sqlite3")
    await bots.start(bot)
    # the steady state: until the picture workers are up, pictures are drawn in threads
    await bot.pictures.start()
    await open_table(world)
    await quiet(bots)
    assert await _garbage_of_clicks(fake, bots, Driver(world), 6) == Counter()
