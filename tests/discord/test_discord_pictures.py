"""Where pictures are drawn: a seat's DM (its view and hand picture) in a worker
process of its own, never in a thread of the bot's process (a drawing thread holds the
GIL the event loop and the SQLite thread need), and in threads when there are no
processes (tests, a broken pool)."""

from __future__ import annotations

import os

from bot.discord.memory import InMemory
from bot.discord.notifier import DiscordNotifier
from bot.discord.pictures import NICENESS, Pictures
from tests.discord.presenter_kit import USERS, FakeClient, dealt, private, settle


async def test_a_hand_is_drawn_in_another_process_when_there_are_processes() -> None:
    pictures = Pictures(1)
    try:
        assert await pictures.draw_hand(os.getpid) != os.getpid()
        assert pictures.pids()
        assert await pictures.draw(os.getpid) not in (os.getpid(),
                                                      await pictures.draw_hand(os.getpid))
    finally:
        pictures.close()


def _niceness() -> int:
    return os.nice(0)


async def test_the_picture_processes_run_at_a_lower_priority_than_the_bot() -> None:
    """A click's answer must not wait for the CPU behind a drawing."""
    pictures = Pictures(1)
    try:
        mine = _niceness()
        assert await pictures.draw_hand(_niceness) == min(19, mine + NICENESS)
        assert await pictures.draw(_niceness) == min(19, mine + NICENESS)
        assert _niceness() == mine
    finally:
        pictures.close()


async def test_without_processes_a_hand_is_drawn_in_this_process() -> None:
    pictures = Pictures(0)
    assert await pictures.draw_hand(os.getpid) == os.getpid()
    assert pictures.pids() == []


async def test_a_dm_drawn_in_the_hands_process_shows_the_seats_hand() -> None:
    client = FakeClient()
    pictures = Pictures(1)
    notifier = DiscordNotifier(client, InMemory(), table_interval=0.0, pictures=pictures)
    try:
        await notifier.publish(private(dealt(), 0))
        await settle(notifier)
        assert pictures.pids(), "the DM was not drawn in a worker process"
        assert pictures.drawn == {"public": 0, "hands": 1}
    finally:
        pictures.close()
    (dm,) = client.dms(USERS[0])
    assert dm.filenames == ["hand-7-0.png"]
    assert dm.kwargs["file"].fp.getvalue().startswith(b"\x89PNG")
    assert "Your hand:" in (dm.content or "")
