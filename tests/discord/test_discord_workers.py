"""The picture processes' pool (`bot.discord.core.workers`): jobs answered in turn by
processes served from the event loop; a job's error is its caller's, a dead worker
fails what it had and `Pictures` draws in threads from then on."""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import os
import signal
from typing import Any

import pytest

from bot.discord.core import workers
from bot.discord.core.pictures import Pictures
from bot.discord.core.workers import BrokenWorkers, WorkerPool


def _square(n: int) -> int:
    return n * n


def _fail() -> None:
    raise ValueError("no such tile")


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


async def test_jobs_are_answered_each_with_its_own_result() -> None:
    pool = WorkerPool(2)
    try:
        pids = await pool.start()
        assert sorted(pids) == sorted(pool.pids()) and os.getpid() not in pids
        results = await asyncio.gather(*(pool.run(_Job(n)) for n in range(30)))
        assert results == [n * n for n in range(30)]
    finally:
        pool.close()


class _Job:
    """A picklable call (a lambda is not)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __call__(self) -> int:
        return _square(self.n)


async def test_a_jobs_error_is_raised_to_its_caller_and_the_worker_goes_on() -> None:
    pool = WorkerPool(1)
    try:
        with pytest.raises(ValueError, match="no such tile"):
            await pool.run(_fail)
        assert await pool.run(_Job(7)) == 49
    finally:
        pool.close()


async def test_a_dead_worker_fails_its_job_and_the_pool_takes_no_more() -> None:
    pool = WorkerPool(1)
    try:
        await pool.start()
        dying = asyncio.ensure_future(pool.run(_die))
        queued = asyncio.ensure_future(pool.run(_Job(3)))  # waits behind it
        for job in (dying, queued):
            with pytest.raises(BrokenWorkers):
                await job
        with pytest.raises(BrokenWorkers):
            await pool.run(_Job(2))
    finally:
        pool.close()


async def test_pictures_draw_in_threads_once_a_process_died() -> None:
    pictures = Pictures(1)
    try:
        await pictures.start()
        assert await pictures.draw_hand(os.getpid) != os.getpid()
        with pytest.raises(ProcessLookupError):  # the dying job ran in a thread instead
            await pictures.draw_hand(_kill_worker, pictures.pids())
        assert pictures.processes == 0 and pictures.pids() == []
        assert await pictures.draw_hand(os.getpid) == os.getpid()
    finally:
        pictures.close()


def _kill_worker(pids: list[int]) -> None:
    """Kills the process it runs in if that is a picture worker; in the bot's own
    process (a thread: the pool died) it fails instead, killing nobody."""
    if os.getpid() in pids:
        os.kill(os.getpid(), signal.SIGKILL)
    raise ProcessLookupError("run in the bot's process")


async def test_closing_from_another_thread_stops_the_workers() -> None:
    pool = WorkerPool(2)
    await pool.start()
    pids = pool.pids()
    await asyncio.to_thread(pool.close)
    await asyncio.sleep(0)
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
    with pytest.raises(BrokenWorkers):
        await pool.run(_Job(1))


class _Echo:
    """A job of ``size`` bytes whose result is as big: more than a pipe holds at once."""

    def __init__(self, size: int) -> None:
        self.data = os.urandom(size)

    def __call__(self) -> bytes:
        return self.data[::-1]


async def test_jobs_and_results_bigger_than_the_pipe_arrive_whole() -> None:
    pool = WorkerPool(1)
    try:
        jobs = [_Echo(3 << 20), _Echo(10), _Echo(1 << 20)]
        results = await asyncio.gather(*(pool.run(job) for job in jobs))
        assert results == [job.data[::-1] for job in jobs]
    finally:
        pool.close()


async def test_closing_fails_the_jobs_not_done_and_logs_no_error() -> None:
    """A clean stop (SIGTERM) closes the pool with jobs queued and workers starting: each
    waiting caller is told (`BrokenWorkers`, not left waiting for ever), and no future
    failed by the close is reported by asyncio as an error nobody read."""
    loop = asyncio.get_running_loop()
    reported: list[dict[str, object]] = []
    loop.set_exception_handler(lambda _, context: reported.append(context))
    try:
        pool = WorkerPool(2)
        jobs = [asyncio.ensure_future(pool.run(_Job(n))) for n in range(3)]
        await asyncio.sleep(0)  # sent, or queued behind the workers' start
        pool.close()
        for job in jobs:
            with pytest.raises(BrokenWorkers):
                await asyncio.wait_for(job, 5)
        del pool, jobs
        gc.collect()
        await asyncio.sleep(0)
        assert [c["message"] for c in reported] == []
    finally:
        loop.set_exception_handler(None)


async def test_a_clean_stop_signalled_to_the_whole_group_is_no_death(
        caplog: pytest.LogCaptureFixture) -> None:
    """A service manager's stop (or Ctrl-C) signals every process of the bot's group,
    its picture processes too: they wait for the bot to close them (it is stopping
    cleanly, drawing what it still has to), and the log says no "picture process N
    died" warning."""
    pool = WorkerPool(1)
    try:
        (pid,) = await pool.start()
        with caplog.at_level("WARNING", logger="bot.discord.core.workers"):
            for sig in (signal.SIGTERM, signal.SIGINT):
                os.kill(pid, sig)
            await asyncio.sleep(0.3)
            assert await pool.run(_Job(5)) == 25  # still drawing until closed
        assert not [r for r in caplog.records if "died" in r.getMessage()]
    finally:
        pool.close()
    assert not pool.pids()


def _slow_start() -> None:
    import time
    time.sleep(0.5)


def test_a_worker_whose_bot_is_gone_as_it_starts_leaves_quietly(
        capfd: pytest.CaptureFixture[str]) -> None:
    """A bot that stops (or dies) while a picture process still starts closes its end of
    the pipe: the worker's "ready" then meets a closed pipe, and it leaves as it does
    when a job's read finds the pipe closed, with no traceback on the shared stderr
    (seen at the end of test runs and of a stop during start-up)."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe(duplex=True)
    process = context.Process(target=workers._serve, args=(theirs, _slow_start))
    process.start()
    theirs.close()
    ours.close()  # the bot is gone before the worker is ready
    process.join(20)
    assert process.exitcode == 0
    assert "Traceback" not in capfd.readouterr().err


async def test_a_function_named_runs_in_a_worker_with_its_arguments() -> None:
    """`run_named`: only the function's name and its plain arguments travel."""
    pool = WorkerPool(1)
    try:
        assert await pool.run_named(divmod, (17, 5)) == (3, 2)
        assert await pool.run_named(_square, (9,)) == 81
        with pytest.raises(ZeroDivisionError):
            await pool.run_named(divmod, (1, 0))
        assert await pool.run_named(os.getpid, ()) in pool.pids()
    finally:
        pool.close()


async def test_a_job_that_fits_the_pipe_adds_no_watch_for_room(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Nearly every job is written at once: the loop neither watches its pipe for room
    nor stops watching it (only a job bigger than the pipe does, until it is sent)."""
    loop = asyncio.get_running_loop()
    watched: list[str] = []
    add, remove = loop.add_writer, loop.remove_writer

    def add_writer(*args: Any) -> None:
        watched.append("add")
        add(*args)

    def remove_writer(fd: int) -> bool:
        watched.append("remove")
        return remove(fd)

    monkeypatch.setattr(loop, "add_writer", add_writer)
    monkeypatch.setattr(loop, "remove_writer", remove_writer)
    pool = WorkerPool(1)
    try:
        await pool.start()
        assert [await pool.run(_Job(n)) for n in range(5)] == [n * n for n in range(5)]
        assert watched == []
        big = _Echo(3 << 20)
        assert await pool.run(big) == big.data[::-1]
        assert watched == ["add", "remove"]
    finally:
        pool.close()


def test_a_read_of_one_whole_message_is_taken_without_a_copy() -> None:
    """A result read whole at once is handed on as it was read; one arriving in parts
    (or with the next behind it) is put together first."""
    ours, theirs = multiprocessing.Pipe(duplex=True)
    worker = workers._Worker.__new__(workers._Worker)
    worker.conn, worker.fd, worker._received = ours, ours.fileno(), bytearray()
    os.set_blocking(worker.fd, False)
    try:
        assert worker.readable() == []  # nothing yet
        os.write(theirs.fileno(), workers._frame(b"one"))
        (message,) = worker.readable()
        assert isinstance(message, memoryview) and bytes(message) == b"one"
        frame = workers._frame(b"two") + workers._frame(b"three")
        os.write(theirs.fileno(), frame[:5])
        assert worker.readable() == []
        os.write(theirs.fileno(), frame[5:])
        assert [bytes(m) for m in worker.readable()] == [b"two", b"three"]
        theirs.close()
        with pytest.raises(EOFError):
            worker.readable()
    finally:
        ours.close()
