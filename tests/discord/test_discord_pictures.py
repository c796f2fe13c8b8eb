"""Where pictures are drawn: a seat's DM (its view and hand picture) in a worker
process of its own, never in a thread of the bot's process (a drawing thread holds the
GIL the event loop and the SQLite thread need), and in threads when there are no
processes (tests, a broken pool) or while they start (a restart's deliveries do not
wait for them)."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable

import pytest

from bot.discord.core import pictures as pictures_module
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


def _one_at_a_time(log: list[tuple[str, int]], busy: list[int]) -> Callable[[], int]:
    """A drawing that notes its thread and how many drawings ran beside it."""
    def draw() -> int:
        busy.append(1)
        log.append((threading.current_thread().name, len(busy)))
        time.sleep(0.05)
        busy.pop()
        return os.getpid()
    return draw


async def test_pictures_drawn_here_while_the_processes_start_go_one_at_a_time_a_pool(
        ) -> None:
    """Drawn in the default executor, up to six at once, each thread's drawing took a
    malloc arena of its own and held the GIL beside the others (issue 32: the bot's
    process went from 83 to 268 MiB with its first clicks): one thread a pool instead,
    a DM never behind a table picture."""
    pictures = Pictures(1)
    try:
        public: list[tuple[str, int]] = []
        hands: list[tuple[str, int]] = []
        busy: list[int] = []
        drawn = await asyncio.gather(
            *(pictures.draw(_one_at_a_time(public, busy)) for _ in range(3)),
            *(pictures.draw_hand(_one_at_a_time(hands, [])) for _ in range(3)))
        assert set(drawn) == {os.getpid()}  # here: the workers were starting
        assert len({name for name, _ in public}) == 1
        assert len({name for name, _ in hands}) == 1
        assert public[0][0] != hands[0][0]
        assert max(n for _, n in public) == 1
    finally:
        pictures.close()


async def _let_go_done(pictures: Pictures) -> None:
    """The drawing threads were sent away (`_Interim.settle`); once what they kept is
    let go (it may be done already: the task runs while a worker draws)."""
    assert not pictures._interim
    if pictures._interim.settling is not None:
        await pictures._interim.settling


async def test_what_drawing_here_kept_is_let_go_once_every_worker_is_ready(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The renderer's caches and kept pieces (up to 96 MiB), and the C heap's free
    pages: the workers draw from now on, the bot's process keeps none of it."""
    from render import draw, samples, tiles
    from render.hand import hand_image
    from render.table import PIECES, table_image

    trimmed: list[bool] = []
    monkeypatch.setattr(pictures_module, "_trim", lambda: trimmed.append(True))
    pictures = Pictures(1)
    try:
        assert (await pictures.draw(table_image, samples.table_late(), samples.NAMES)
                ).startswith(b"\x89PNG")
        assert (await pictures.draw_hand(hand_image, samples.hand_ready())
                ).startswith(b"\x89PNG")
        assert PIECES.kept_bytes > 0 and draw._mask.cache_info().currsize > 0
        await pictures.start()
        await _let_go_done(pictures)
        assert PIECES.kept_bytes == 0
        assert draw._mask.cache_info().currsize == 0
        assert tiles.tile_image.cache_info().currsize == 0
        assert trimmed == [True]
        for _ in range(100):  # the drawing threads end once idle
            if not any(t.name.startswith("mahjong-draw") for t in threading.enumerate()):
                break
            await asyncio.sleep(0.02)
        assert not any(t.name.startswith("mahjong-draw") for t in threading.enumerate())
        assert await pictures.draw_hand(os.getpid) in pictures.pids()
        assert pictures._interim.settling is None and not pictures._interim
    finally:
        pictures.close()


async def test_a_picture_asked_for_once_the_workers_are_ready_lets_go_of_what_was_drawn(
        ) -> None:
    """Without `start` (a caller that never started the workers): the first picture
    drawn by a worker sends the drawing threads away too."""
    from render import samples
    from render.table import PIECES, table_image

    pictures = Pictures(1)
    try:
        await pictures.draw(table_image, samples.table_start(), samples.NAMES)
        assert pictures._interim
        while not pictures._ready():
            await asyncio.sleep(0.05)
        assert await pictures.draw(os.getpid) in pictures.pids()
        await _let_go_done(pictures)
        assert PIECES.kept_bytes == 0 and not pictures._interim
    finally:
        pictures.close()
