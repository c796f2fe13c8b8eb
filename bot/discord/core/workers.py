"""`WorkerPool`: worker processes served straight from the event loop, no thread between.

`concurrent.futures.ProcessPoolExecutor` hands each job to two threads of the bot's
process (its manager, and its call queue's feeder, which pickles the job) and each
result back through a third hand-off (`call_soon_threadsafe`): every picture woke them
and took the GIL turn by turn with the event loop. On a busy machine each of those
wake-ups cost the loop about a millisecond (`bench/discord.py --profile`: the pool's
`submit` was a third of the bot's time spent outside its own code). Here a job is
pickled by the loop and written to an idle worker's pipe, and its result read when the
pipe is readable (`loop.add_reader`): one process per worker, one job in flight each,
the others queued here. The loop's end of each pipe never blocks: a result is read as
it comes, and taken once whole (a worker runs at a lower priority, and may be stopped
halfway through writing one), and a job too big for the pipe is written as it drains.

A worker that dies fails its job and every queued one with `BrokenWorkers`; the pool
then takes no more jobs (`Pictures` draws in threads from then on).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import multiprocessing
import os
import pickle
import signal
import struct
import sys
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")
STOP = b""
"""Told to a worker instead of a job: it leaves its loop."""
HEADER = struct.Struct("!Q")
"""A message's length, before its bytes (both ways)."""
READ_SIZE = 1 << 16
"""Bytes read from a worker's pipe at a time."""
JOIN_TIMEOUT = 5.0
"""Seconds `WorkerPool.close` waits for a worker to leave before it is killed."""


class BrokenWorkers(RuntimeError):
    """A worker process died (or could not start): the pool takes no more jobs."""


def _serve(conn: Connection, initializer: Callable[[], object] | None) -> None:
    """A worker's life: its initializer, then "ready" (its pid), then one job after the
    other until `STOP`, each answered with (True, result) or (False, exception).

    A stop signalled to the bot's whole process group (a service manager's SIGTERM, a
    terminal's Ctrl-C) is the bot's to act on: the worker ignores it and is closed by
    the bot (`WorkerPool.close`), or leaves when the bot's end of its pipe closes (found
    by a read or, quietly too, by a write)."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer()
    fd = conn.fileno()
    with contextlib.suppress(BrokenPipeError):  # the bot is gone: nobody to answer
        _write_all(fd, _frame(pickle.dumps((True, os.getpid()))))
        while (data := _next_frame(fd)) != STOP:
            try:
                answer: tuple[bool, object] = (True, _call(pickle.loads(data)))
                out = pickle.dumps(answer)
            except BaseException as exc:  # told to the caller, never ends the worker
                out = _failure(exc)
            _write_all(fd, _frame(out))
    # Gone at once: the interpreter's teardown (freeing the renderer's and the engine's
    # objects, 0.15 s of CPU, seconds at the worker's lower priority on a busy machine)
    # serves nobody and held up every stop of the bot (`WorkerPool.close` waits).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _call(job: Any) -> object:
    """A job's result: a pickled call (`WorkerPool.run`), or a function's name and its
    arguments (`WorkerPool.run_named`)."""
    if type(job) is tuple:
        name, args = job
        return found(name)(*args)
    return job()


def name_of(function: Callable[..., object]) -> str:
    """How a module's function travels to a worker (`run_named`): its module and name."""
    name = _NAMES.get(function)
    if name is None:
        name = f"{function.__module__}:{function.__qualname__}"
        try:
            same = found(name) is function
        except (ImportError, AttributeError):
            same = False
        if not same:
            raise ValueError(f"{name} is not found by its name")
        _NAMES[function] = name
    return name


def found(name: str) -> Any:
    """The function ``name`` (`name_of`) names, imported once."""
    function = _FOUND.get(name)
    if function is None:
        module, _, qualname = name.partition(":")
        function = importlib.import_module(module)
        for part in qualname.split("."):
            function = getattr(function, part)
        _FOUND[name] = function
    return function


_NAMES: dict[Callable[..., object], str] = {}
_FOUND: dict[str, Any] = {}


def _next_frame(fd: int) -> bytes:
    """The next job, or `STOP` once the bot's end is closed (the bot is gone)."""
    try:
        return _read_frame(fd)
    except EOFError:
        return STOP


def _frame(data: bytes) -> bytes:
    """A message as it travels: its length (`HEADER`), then its bytes, in one write, so
    the loop's end never finds half of one (and never waits for the rest: it reads
    without blocking, `_Worker.readable`)."""
    return HEADER.pack(len(data)) + data


def _read_frame(fd: int) -> bytes:
    (size,) = HEADER.unpack(_read_exactly(fd, HEADER.size))
    return _read_exactly(fd, size)


def _read_exactly(fd: int, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = os.read(fd, left)
        if not chunk:
            raise EOFError("the bot closed its end")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _failure(exc: BaseException) -> bytes:
    try:
        return pickle.dumps((False, exc))
    except Exception:  # an exception that does not pickle is told by its text
        return pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}")))


class _Worker:
    """One process and the loop's end of its pipe (not blocking: the loop never waits on
    a worker, however slowly it runs at its lower priority); ``job`` is the future of
    the job in flight (at first, of its start: its pid)."""

    def __init__(self, context: Any, initializer: Callable[[], object] | None,
                 loop: asyncio.AbstractEventLoop) -> None:
        ours, theirs = context.Pipe(duplex=True)
        self.process = context.Process(target=_serve, args=(theirs, initializer),
                                       daemon=True)
        self.process.start()
        theirs.close()
        self.conn: Connection = ours
        self.fd = ours.fileno()
        os.set_blocking(self.fd, False)
        self.job: asyncio.Future[Any] | None = loop.create_future()
        self.started: asyncio.Future[Any] = self.job
        self._received = bytearray()
        self._unsent = b""
        self._writing = False
        """Whether the loop watches the pipe for room (`writable`)."""

    def readable(self) -> list[bytes | memoryview]:
        """The whole messages that arrived (none while one is still coming in); raises
        EOFError when the worker is gone. One read a call: what is left (a result bigger
        than `READ_SIZE`, the end of the pipe) keeps the pipe readable and comes at the
        next. A read that holds exactly one message, as nearly every result does, is
        taken as it is, not copied (reading again until the pipe was empty, and copying
        each message in and out of a buffer, cost the loop a system call, an exception
        and two copies a picture)."""
        try:
            chunk = os.read(self.fd, READ_SIZE)
        except BlockingIOError:
            return []
        if not chunk:
            raise EOFError("the worker closed its end")
        if not self._received and len(chunk) >= HEADER.size \
                and HEADER.unpack_from(chunk)[0] == len(chunk) - HEADER.size:
            return [memoryview(chunk)[HEADER.size:]]
        self._received += chunk
        messages: list[bytes | memoryview] = []
        while len(self._received) >= HEADER.size:
            (size,) = HEADER.unpack_from(self._received)
            end = HEADER.size + size
            if len(self._received) < end:
                break
            messages.append(bytes(self._received[HEADER.size:end]))
            del self._received[:end]
        return messages

    def send(self, data: bytes, loop: asyncio.AbstractEventLoop) -> None:
        """One message to the worker; what its pipe cannot take now (a job bigger than
        the pipe's buffer) follows when it can."""
        self._unsent += _frame(data)
        self.writable(loop)

    def writable(self, loop: asyncio.AbstractEventLoop) -> None:
        """Write what the pipe takes; the loop watches the pipe for room only while some
        is left (nearly every job fits at once: no watch to add or remove)."""
        try:
            sent = os.write(self.fd, self._unsent)
        except BlockingIOError:
            sent = 0
        self._unsent = self._unsent[sent:]
        if self._unsent:
            if not self._writing:
                loop.add_writer(self.fd, self.writable, loop)
                self._writing = True
        elif self._writing:
            loop.remove_writer(self.fd)
            self._writing = False


class WorkerPool:
    """``size`` worker processes (spawned, each running ``initializer`` first); a job
    is pickled by ``dumps`` (the workers read any pickle)."""

    def __init__(self, size: int, initializer: Callable[[], object] | None = None,
                 dumps: Callable[[object], bytes] = pickle.dumps) -> None:
        self.size = size
        self.initializer = initializer
        self.dumps = dumps
        self.broken = False
        self._workers: list[_Worker] = []
        self._queue: deque[tuple[bytes, asyncio.Future[Any]]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None

    def _spawn(self) -> None:
        """One more worker (spawned, not forked: the bot has threads, SQLite's, that a
        fork would copy)."""
        loop = self._loop = asyncio.get_running_loop()
        worker = _Worker(multiprocessing.get_context("spawn"), self.initializer, loop)
        self._workers.append(worker)
        loop.add_reader(worker.fd, self._readable, worker)

    def launch(self) -> None:
        """Start every worker not started yet, without waiting for any (`ready`)."""
        if self.broken:
            raise BrokenWorkers("a worker process died")
        while len(self._workers) < self.size:
            self._spawn()

    async def start(self) -> list[int]:
        """Start every worker and wait until each is ready; their pids."""
        self.launch()
        return [await asyncio.shield(w.started) for w in self._workers]

    def ready(self) -> bool:
        """Whether a worker has finished starting (or failed to: `run` then says so); a
        job run before waits for the first worker's whole start-up."""
        return any(w.started.done() for w in self._workers)

    async def run(self, call: Callable[[], T]) -> T:
        """``call()`` in a worker: pickled here (``dumps``), its result unpickled here. Without an
        idle worker, one more is started (up to ``size``) unless `start` started all."""
        if self.broken:
            raise BrokenWorkers("a worker process died")
        result: T = await self._run(self.dumps(call))
        return result

    async def run_named(self, function: Callable[..., T], args: tuple[Any, ...]) -> T:
        """``function(*args)`` in a worker, as `run`; only the function's name travels
        (`name_of`) and ``args`` are pickled as they are: a job made of plain values
        (numbers, text, tuples, dicts) is pickled by pickle's C code alone, with no
        global looked up and no Python called back (`Pictures.draw_hand_job`)."""
        if self.broken:
            raise BrokenWorkers("a worker process died")
        result: T = await self._run(pickle.dumps((name_of(function), args),
                                                 pickle.HIGHEST_PROTOCOL))
        return result

    async def _run(self, payload: bytes) -> Any:
        if len(self._workers) < self.size and all(w.job is not None for w in self._workers):
            self._spawn()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.append((payload, future))
        self._dispatch()
        return await future

    def _dispatch(self) -> None:
        for worker in self._workers:
            if not self._queue:
                return
            if worker.job is None:
                payload, future = self._queue.popleft()
                if future.done():  # its caller gave up (cancelled) before it was sent
                    continue
                worker.job = future
                self._send(worker, payload)

    def _send(self, worker: _Worker, payload: bytes) -> None:
        assert self._loop is not None
        try:
            worker.send(payload, self._loop)
        except OSError:
            self._break(worker)

    def _readable(self, worker: _Worker) -> None:
        if worker not in self._workers:  # closed: it left as told
            assert self._loop is not None
            _forget(self._loop, worker)
            return
        try:
            messages = worker.readable()
        except (EOFError, OSError):
            self._break(worker)
            return
        for message in messages:  # one at most: one job in flight
            ok, value = pickle.loads(message)
            job, worker.job = worker.job, None
            if job is not None and not job.done():
                if ok:
                    job.set_result(value)
                else:
                    job.set_exception(value)
        if messages:
            self._dispatch()

    def _break(self, dead: _Worker) -> None:
        """A worker died: its job and every queued one fail, and no new one is taken."""
        log.warning("picture process %s died", dead.process.pid)
        self.broken = True
        failed = [w.job for w in self._workers if w.job is not None]
        failed += [future for _, future in self._queue]
        self._queue.clear()
        for worker in self._workers:
            worker.job = None
        for future in failed:
            _fail(future, "a picture process died")
        self._unwatch()

    def _unwatch(self) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        for worker in self._workers:
            with contextlib.suppress(ValueError, OSError):
                loop.remove_reader(worker.fd)
                loop.remove_writer(worker.fd)

    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    def close(self) -> None:
        """Stop the workers (each ends its job first, up to `JOIN_TIMEOUT`; one still
        starting is killed). From any thread: the loop's watch of their pipes is
        ended on the loop."""
        workers, self._workers = self._workers, []
        self.broken = True
        for worker in workers:
            with contextlib.suppress(OSError):  # not blocking: tried once, else killed
                os.write(worker.fd, _frame(STOP))
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop is gone: nothing to end
                loop.call_soon_threadsafe(self._fail_queued)
                for worker in workers:
                    loop.call_soon_threadsafe(_forget, loop, worker)
        for worker in workers:
            if worker.started.done():  # still warming up: nothing of value to finish
                worker.process.join(JOIN_TIMEOUT)
            if worker.process.is_alive():  # killed: it ignores SIGTERM (`_serve`)
                worker.process.kill()
                worker.process.join()

    def _fail_queued(self) -> None:
        """On the loop, once closed: the jobs still waiting for a worker fail (their
        callers would otherwise wait for ever)."""
        queued, self._queue = self._queue, deque()
        for _, future in queued:
            _fail(future, "the picture processes were closed")


def _fail(future: asyncio.Future[Any], why: str) -> None:
    """``future`` fails with `BrokenWorkers` (unless done), read here as well: at a stop
    or a death nobody may wait for it any more (a worker's start, a caller cancelled
    meanwhile), and asyncio would report its exception as an error nobody read. A
    caller awaiting it still gets the exception."""
    if not future.done():
        future.set_exception(BrokenWorkers(why))
        future.exception()


def _forget(loop: asyncio.AbstractEventLoop, worker: _Worker) -> None:
    """The loop stops watching a closed pool's worker (once)."""
    if worker.conn.closed:
        return
    with contextlib.suppress(ValueError, OSError):
        loop.remove_reader(worker.fd)
        loop.remove_writer(worker.fd)
    worker.conn.close()
    if worker.job is not None:
        _fail(worker.job, "the picture processes were closed")
