"""A move's click is answered once: the clicked DM edited in the click's own response
(callback type 7) when the move is committed in time, without a deferral before it or
an edit of the original response after it."""

from __future__ import annotations

from pathlib import Path

import pytest
from botkit import Driver, choose, make_bot, make_world, moves_shown, open_table, quiet
from fakediscord import BotLauncher, FakeDiscord, FakeMessage, InteractionHandle

from bot.discord.core import answering

UPDATE_MESSAGE = 7
DEFERRED_UPDATE = 6


async def _click_one(fake: FakeDiscord, bots: BotLauncher, driver: Driver
                     ) -> tuple[InteractionHandle, FakeMessage]:
    for _ in range(200):
        for user in driver.world.players:
            message = driver.pending(user)
            if message is None:
                continue
            move = choose(fake, message)
            assert move is not None
            custom_id, values = move
            driver.clicked.add(message.id)
            if values is None:
                handle = await fake.click(user, message, custom_id)
            else:
                handle = await fake.select(user, message, custom_id, values)
            return handle, message
        await quiet(bots)
    raise AssertionError("nobody has a decision")


async def test_a_click_alone_is_answered_with_its_move_in_one_response(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(answering, "MOVE_ANSWER_WAIT", 5.0)  # however loaded the machine
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3"))
    await open_table(world)
    await quiet(bots)
    handle, message = await _click_one(fake, bots, Driver(world))
    response = await handle.response()
    assert response.type == UPDATE_MESSAGE
    assert "✓" in message.content and not moves_shown(fake, message)
    await quiet(bots)
    assert [r.type for r in handle.record.responses] == [UPDATE_MESSAGE]
    assert not fake.requests("PATCH", "/messages/@original")


async def test_a_slow_move_is_acknowledged_first_then_edited(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(answering, "MOVE_ANSWER_WAIT", 0.0)  # every move "too slow"
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3"))
    await open_table(world)
    await quiet(bots)
    handle, message = await _click_one(fake, bots, Driver(world))
    assert (await handle.response()).type == DEFERRED_UPDATE
    await fake.wait_for(lambda: not moves_shown(fake, message))
    assert "✓" in message.content
    assert fake.requests("PATCH", "/messages/@original")
