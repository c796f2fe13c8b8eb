"""What the bot does while Discord fails: every call the presenter makes goes through
one `Gate`, which tells a passing failure (5xx, 429, a timeout, a reset connection)
from a refusal (401, 403, 404 and the other 4xx) and waits out the first.

- A refusal is raised at once, never tried again: Discord bans an IP that makes
  10,000 invalid requests in 10 minutes. The caller does what the game does today (a
  closed DM: the channel's mention and ``/mahjong hand``).
- A passing failure closes the gate. While it is closed one call at a time (the
  *probe*) tries Discord, after a backoff that grows to `BACKOFF_CAP` (a 429: after its
  ``retry_after``); every other call waits for the gate instead of adding failed
  requests. The probe's success opens it and every waiting call goes: what was owed
  goes out within a few seconds of Discord's return, however long it was away.
- A call may be given up while it waits (``wanted``): a DM a newer one replaces, a
  picture a newer state replaces, a mention whose decision was taken meanwhile. It
  raises `Superseded`, so only the newest form of a delivery is ever sent late.
- A call that hangs is given up after `CALL_TIMEOUT` (`PROBE_TIMEOUT` for the probe)
  and tried again: a message is created with a ``nonce`` and ``enforce_nonce`` (the
  same for each try, `nonce_of`), so Discord hands back the first message rather than
  make a second.

What is owed is also in the database, for a crash during an outage: the decisions
whose DM never went out (`Presenter.owed_dms`) and the announcements (the outbox),
sent by the next start or, in shared mode, by the process that takes a dead one over.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import aiohttp
import discord

from bot import metrics
from bot.discord.delivery.lapses import Lapses

log = logging.getLogger(__name__)

T = TypeVar("T")

CALL_TIMEOUT = 6.0
"""Seconds a call to Discord may take while it answers; past them it is tried again
(discord.py's own limit is aiohttp's 300 s): a hung call must not hold a decision's DM
past the 10 s the issue allows, and Discord answers a DM with its picture in well under
a second."""
PROBE_TIMEOUT = 3.0
"""Seconds the probe may take while Discord fails (discord.py sleeps between its own
tries of a 500, 502 or 504: a probe in those sleeps would hear Discord's return late)."""
BACKOFF_FIRST = 0.25
BACKOFF_CAP = 2.0
"""Seconds between two probes at most: what was owed goes out at most this long (and a
probe's time) after Discord's return."""
WAIT_CHECK = 1.0
"""Seconds a call waiting for the gate sleeps between two looks at whether it is still
wanted."""
NONCE_LENGTH = 25
"""Discord's longest nonce."""


class Superseded(Exception):
    """The delivery is no longer wanted (a newer one replaces it): not sent."""


def always() -> bool:
    return True


RESTORED = "restored_at"
"""The setting `mahjong-bot restore` writes (bot/ops/backup.py): when the database was
put back from a backup. Read at start-up into `nonce_salt`."""
nonce_salt = ""
"""Mixed into every nonce once the database was restored from a backup: the restored
bot sends again what the backup's moment owed (a decision's DM, its buttons live), and
Discord must not hand back the message the lost timeline sent for the same delivery
within its nonce window (its buttons since taken off by moves the restore undid)."""


def nonce_of(*parts: object) -> str:
    """The nonce of the message that delivers ``parts``: the same delivery tried again
    carries the same nonce, and Discord gives the first message back instead of making
    another. An announcement's is made of its key, so a process sending it after a
    crash gets the first one back too; a view's (a DM, the picture, a mention) is made
    once per send (`Poster`), tried again as is: the same words may be a new message
    (after a restore, the DM of a decision whose first DM lost its buttons)."""
    salted = (*parts, nonce_salt) if nonce_salt else parts
    text = "\x1f".join(str(p) for p in salted)
    return hashlib.sha256(text.encode()).hexdigest()[:NONCE_LENGTH]


def passing(exc: BaseException) -> float | None:
    """How long to wait before trying ``exc``'s call again (0: at once), or None when
    it is a refusal (or not Discord's failure at all): never tried again."""
    if isinstance(exc, discord.HTTPException):
        if exc.status == 429:
            return _retry_after(exc)
        return 0.0 if exc.status >= 500 else None
    if isinstance(exc, (TimeoutError, aiohttp.ClientError, ConnectionError)):
        return 0.0
    if isinstance(exc, OSError):  # a reset connection, a refused one
        return 0.0
    return None


def _retry_after(exc: discord.HTTPException) -> float:
    response: Any = getattr(exc, "response", None)
    headers = getattr(response, "headers", None) or {}
    try:
        return max(0.0, float(headers.get("Retry-After", 1.0)))
    except (TypeError, ValueError):
        return 1.0


class Gate:
    """Discord's health as the bot last saw it, and every call through it."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic,
                 global_over: Callable[[], bool] = always,
                 on_error: Callable[[str], None] | None = None) -> None:
        """``global_over``: whether discord.py is not sleeping out a global 429 (a call
        is never cut then: discord.py would stay locked); ``on_error``: told each
        failure's kind (a status, ``timeout``, ``connection``; the metrics count them
        too: `bot.metrics.discord_error`)."""
        self._clock = clock
        self._global_over = global_over
        self.on_error = on_error
        self._open = asyncio.Event()
        self._open.set()
        self._probing = False
        self._backoff = BACKOFF_FIRST
        self._not_before = 0.0
        self._calls = Lapses()
        self._probes = Lapses()
        self.down_since: float | None = None
        """When the gate closed (None: open)."""
        self.failures = 0
        """Passing failures seen, all calls together."""
        self.owed = 0
        """Calls waiting for Discord now (each failed once at least): the metrics'
        ``deliveries_owed``."""

    @property
    def is_open(self) -> bool:
        return self._open.is_set()

    async def call(self, make: Callable[[], Awaitable[T]], *,
                   wanted: Callable[[], bool] = always, what: str = "") -> T:
        """``make()``'s result, tried until Discord answers (a refusal raises at once);
        `Superseded` once ``wanted()`` says False before a try."""
        failed = False
        try:
            while True:
                try:
                    return await self._round(make, wanted, what)
                except _Passing:
                    if not failed:
                        failed = True
                        self._owe(1)
        finally:
            if failed:
                self._owe(-1)

    def _owe(self, change: int) -> None:
        self.owed += change
        metrics.deliveries_owed(self.owed)

    async def _round(self, make: Callable[[], Awaitable[T]], wanted: Callable[[], bool],
                     what: str) -> T:
        """One try (or one wait for the gate: `_Passing` then too)."""
        if not wanted():
            raise Superseded(what)
        if not self._open.is_set():
            if self._probing or self._clock() < self._not_before:
                await self._wait()
                raise _Passing  # waiting for Discord: owed
            self._probing = True
            try:
                result = await self._try(make, PROBE_TIMEOUT, what, probe=True)
            finally:
                self._probing = False
            self._opened()
            return result
        return await self._try(make, CALL_TIMEOUT, what)

    async def _wait(self) -> None:
        """Until the gate opens, it is this call's turn to probe, or a look at whether
        the call is still wanted is due."""
        pause = min(WAIT_CHECK, max(0.01, self._not_before - self._clock()))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._open.wait(), pause)

    async def _try(self, make: Callable[[], Awaitable[T]], timeout: float, what: str, *,
                   probe: bool = False) -> T:
        # awaited in the caller's task, cut by a shared timer: a task, an asyncio.wait
        # and a timer per call were a click's dearest extras on the loop after the SQL
        lapses = self._probes if probe else self._calls
        cut = lapses.cut(timeout, unless=self._locked)
        try:
            with cut:
                return await make()
        except Exception as exc:
            if cut.expired and isinstance(exc, TimeoutError):
                self._failed("timeout", 0.0, what, probe)
                raise _Passing from exc
            wait = passing(exc)
            if wait is None:
                if isinstance(exc, discord.HTTPException):
                    metrics.discord_error(exc.status)  # a refusal: never tried again
                raise
            kind = str(exc.status) if isinstance(exc, discord.HTTPException) \
                else "connection"
            self._failed(kind, wait, what, probe)
            raise _Passing from exc

    def _locked(self) -> bool:
        """Whether discord.py sleeps out a global 429: a call is not cut then, it
        would stay locked."""
        return not self._global_over()

    def _failed(self, kind: str, wait: float, what: str, probe: bool) -> None:
        """The gate closes (or stays closed, the next probe later: only a probe's
        failure makes the backoff grow, not the calls that were in flight)."""
        self.failures += 1
        metrics.discord_error(kind)
        if self.on_error is not None:
            self.on_error(kind)
        now = self._clock()
        if self._open.is_set():
            self._open.clear()
            self.down_since = now
            self._backoff = BACKOFF_FIRST
            log.warning("Discord failed (%s on %s): deliveries wait for it", kind, what)
        elif probe:
            self._backoff = min(BACKOFF_CAP, self._backoff * 2)
        self._not_before = max(self._not_before, now + max(wait, self._backoff))

    def _opened(self) -> None:
        if self.down_since is not None:
            log.warning("Discord answers again after %.1f s: deliveries resume",
                        self._clock() - self.down_since)
        self.down_since = None
        self._backoff = BACKOFF_FIRST
        self._not_before = 0.0
        self._open.set()


class _Passing(Exception):
    """A passing failure, recorded: the call goes round again."""
