"""Logs at DEBUG never hold a wall, a salt or a concealed tile (bot/logs.py): a match
played through the service with every record captured as the bot configures logging."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.discord.core.words import tiles_text
from engine.tiles import format_tiles
from tests.logcapture import debug_logs, leaks
from tests.service.helpers import ANN, EVE, World, by


async def test_a_match_logged_at_debug_holds_no_wall_salt_or_concealed_tile(
        make_world: Callable[..., Awaitable[World]]) -> None:
    with debug_logs() as out:
        world = await make_world(notify_computer_hands=True)
        table = await world.table((ANN,), computers=3, options={"hands": 2}, start=False)
        await world.service.leave(by(ANN), table)
        await world.service.add_computer(by(EVE, manager=True), table)
        await world.service.start(by(ANN), table)
        await world.advance(1)
        logging.getLogger("bot.test").debug("the bot's own DEBUG records come through")
    text = out.getvalue()
    assert "the bot's own DEBUG records come through" in text
    reveals = world.notes.of("reveal")
    assert len(reveals) == 2
    secrets = {r.wall for r in reveals} | {r.salt for r in reveals}
    for notice in world.notes.of("private_hand"):
        concealed = notice.view().concealed
        if len(concealed) >= 4:
            secrets |= {format_tiles(sorted(concealed)), tiles_text(concealed, "en"),
                        tiles_text(concealed, "zh-CN"),
                        " ".join(x.notation for x in sorted(concealed))}
    assert len(secrets) > 10
    assert leaks(text, secrets) == []


def test_library_debug_stays_out_even_if_a_logger_is_lowered_again() -> None:
    with debug_logs() as out:
        lowered = logging.getLogger("discord.http")
        before = lowered.level
        lowered.setLevel(logging.DEBUG)  # e.g. a library's own logging set-up
        try:
            lowered.debug("POST /channels with {'content': 'Your hand: 1m 2m 3m 4m'}")
            logging.getLogger("aiosqlite").debug("executing INSERT wall 1m2m3m")
            logging.getLogger("discord.gateway").info("Shard ID None has connected")
            logging.getLogger("bot.service").debug("table 1: a move")
        finally:
            lowered.setLevel(before)
    text = out.getvalue()
    assert "Your hand" not in text and "wall" not in text
    assert "has connected" in text and "table 1: a move" in text


def test_configuring_again_replaces_the_bots_handler() -> None:
    """``main()`` run twice in one process (tests do) must not write each line twice,
    nor to the stream the first run was given and which may be closed since."""
    import io

    from bot.logs import BotHandler, configure_logging

    root = logging.getLogger()
    before, level = list(root.handlers), root.level
    first, second = io.StringIO(), io.StringIO()
    try:
        configure_logging(logging.INFO, first)
        configure_logging(logging.INFO, second)
        first.close()
        logging.getLogger("bot.service").warning("table 1: one line")
        assert second.getvalue().count("table 1: one line") == 1
        assert sum(isinstance(h, BotHandler) for h in root.handlers) == 1
    finally:
        root.handlers[:] = before
        root.setLevel(level)
