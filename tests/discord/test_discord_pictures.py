"""Where pictures are drawn: a seat's DM (its view and hand picture) in a worker
process of its own, never in a thread of the bot's process (a drawing thread holds the
GIL the event loop and the SQLite thread need), and in threads when there are no
processes (tests, a broken pool) or while they start (a restart's deliveries do not
wait for them)."""

from __future__ import annotations

import os

from bot.discord.core.pictures import NICENESS, WORKERS, Pictures
from bot.discord.delivery.memory import InMemory
from bot.discord.table.notifier import DiscordNotifier
from tests.discord.presenter_kit import USERS, FakeClient, as_client, dealt, private, settle


async def test_a_hand_is_drawn_in_another_process_when_there_are_processes() -> None:
    pictures = Pictures(1)
    try:
        await pictures.start()
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
        await pictures.start()
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
    notifier = DiscordNotifier(as_client(client), InMemory(), table_interval=0.0, pictures=pictures)
    try:
        await pictures.start()
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


async def test_a_picture_asked_for_while_the_processes_start_is_drawn_here_at_once(
        ) -> None:
    """A worker's start-up takes seconds on a loaded machine (at its lower priority):
    a restart's owed DMs and pictures are drawn here meanwhile, and the workers are
    started by the first request if nobody started them."""
    pictures = Pictures(1)
    try:
        assert await pictures.draw_hand(os.getpid) == os.getpid()
        assert await pictures.draw(os.getpid) == os.getpid()
        assert len(pictures.pids()) == sum(WORKERS.values())
        await pictures.start()
        assert await pictures.draw_hand(os.getpid) in pictures.pids()
    finally:
        pictures.close()


def _ready() -> tuple[int, bool]:
    """Whether this worker drew before its first job: Pillow, the fonts and the glyph
    cache loaded (nothing in this function imports them)."""
    import sys
    drawn = sys.modules.get("render.draw")
    masks = getattr(drawn, "_mask", None)
    return os.getpid(), masks is not None and masks.cache_info().currsize > 0


async def test_started_picture_processes_are_warm_before_the_first_picture() -> None:
    """A worker spawned on the first player's request would make that player wait for
    its start-up (about a second, many on a busy machine at its lower priority)."""
    pictures = Pictures(1)
    try:
        await pictures.start()
        assert len(pictures.pids()) == sum(WORKERS.values())
        assert pictures.drawn == {"public": 0, "hands": 0}
        pid, warm = await pictures.draw_hand(_ready)
        assert warm and pid in pictures.pids()
        assert (await pictures.draw(_ready))[1]
    finally:
        pictures.close()


async def test_starting_without_processes_warms_this_process() -> None:
    from render import draw
    draw._mask.cache_clear()  # as a fresh process has it
    pictures = Pictures(0)
    await pictures.start()
    assert pictures.pids() == []
    assert _ready()[1]
