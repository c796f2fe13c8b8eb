"""Discord's own failures, on demand: ``fake.faults``.

Every REST call of the bot passes through :meth:`Faults.pick` before the fake routes
it; a fault it picks is served instead of (or, for ``"lost"``, after) the real answer
and listed in :attr:`Faults.injected`. Kinds of fault:

``"500"``, ``"502"``, ``"503"``, ``"504"`` (any 5xx as ``"5xx"`` or an int)
    that status with a JSON body (discord.py retries 500, 502, 504 and 524 up to five
    times, sleeping 1, 3, 5, 7 s…; it never retries 503).
``"429"``
    a rate limit as Discord sends it: ``Retry-After``, the ``X-RateLimit-*`` headers
    (bucket, or ``X-RateLimit-Global`` and scope ``global``), ``Via`` (without which
    discord.py takes a 429 for a Cloudflare ban), body ``{"message", "retry_after",
    "global", "code"}``. discord.py sleeps ``retry_after`` and tries again.
``"timeout"``
    no answer: the request hangs :attr:`Faults.hang_seconds` (by default past the
    300 s total that aiohttp gives discord.py's session, its only timeout) or until
    :meth:`Faults.restore`, then the connection is cut. A hanging request counts as in
    flight (``fake.settle`` and ``bots.idle`` wait for it).
``"reset"``
    the connection is reset (TCP RST) before anything is done.
``"lost"``
    the call is carried out (a message is created, an edit applied) and then the
    connection is reset: the bot cannot know it succeeded (what ``nonce`` +
    ``enforce_nonce`` make safe to retry).

Outages and random failures spare interaction callbacks and the webhooks of
interactions (``/interactions/…`` and ``/webhooks/{application}/{token}…``) unless
``interactions=True``: in Discord's incidents they keep working while the bot's own
calls fail. A ``routes`` filter is a regex searched in ``"METHOD /path"`` (the path
without ``/api/v10``, e.g. ``"POST /channels/1/messages"``) or a predicate on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import random as random_module
import re
import socket
import struct
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .state import FakeState

RouteFilter = str | re.Pattern[str] | Callable[[str], bool] | None
Status = int | str

KINDS = ("500", "502", "503", "504", "429", "timeout", "reset")
"""The kinds :meth:`Faults.random` picks from by default."""
HANG_SECONDS = 310.0
"""How long a ``"timeout"`` hangs by default: past aiohttp's default total timeout
(300 s), the only one discord.py's HTTP session has."""
RATE_LIMIT_RETRY_AFTER = 0.5
"""``retry_after`` of a 429 picked by :meth:`Faults.random` or an outage of 429s."""
INTERACTION_ROUTE = re.compile(r"^\w+ /(interactions/\d+/[^/]+/callback|webhooks/\d+/[^/]+)")


@dataclass(frozen=True)
class InjectedFault:
    """One fault the fake served: when (``time.time()``), on what, and which kind."""

    time: float
    route: str
    """``"METHOD /path"``, the path without ``/api/v10``."""
    kind: str


@dataclass
class _Rule:
    """One active fault rule."""

    routes: RouteFilter
    interactions: bool
    until: float | None = None
    """``time.monotonic()`` when it ends by itself (None: until restored)."""

    def matches(self, route: str) -> bool:
        if not self.interactions and INTERACTION_ROUTE.match(route):
            return False
        return route_matches(self.routes, route)

    def expired(self, now: float) -> bool:
        return self.until is not None and now >= self.until


@dataclass
class _Outage(_Rule):
    kind: str = "503"


@dataclass
class _Random(_Rule):
    share: float = 0.0
    kinds: tuple[str, ...] = KINDS
    rng: random_module.Random = field(default_factory=random_module.Random)


@dataclass
class _RateLimit(_Rule):
    count: int = 0
    retry_after: float = 1.0
    global_: bool = False


@dataclass
class _Slow(_Rule):
    seconds: float = 0.0
    share: float = 1.0
    rng: random_module.Random = field(default_factory=random_module.Random)


@dataclass(frozen=True)
class Fault:
    """What :meth:`Faults.pick` decided for one call."""

    kind: str | None = None
    """The failure to serve, or None to answer normally."""
    delay: float = 0.0
    """Seconds to wait first (``slow``)."""
    retry_after: float = RATE_LIMIT_RETRY_AFTER
    global_: bool = False


def route_matches(routes: RouteFilter, route: str) -> bool:
    """Whether ``route`` ("METHOD /path") passes the filter (None passes everything)."""
    if routes is None:
        return True
    if isinstance(routes, str):
        return re.search(routes, route) is not None
    if isinstance(routes, re.Pattern):
        return routes.search(route) is not None
    return bool(routes(route))


def kind_of(status: Status) -> str:
    """The fault kind for an outage's ``status``: ``503`` -> ``"503"``, ``"timeout"``…"""
    kind = str(status)
    if kind in ("429", "timeout", "reset", "lost"):
        return kind
    if kind.isdigit() and 500 <= int(kind) <= 599:
        return kind
    raise ValueError(f"not a fault the fake can serve: {status!r} "
                     "(a 5xx status, 429, 'timeout', 'reset' or 'lost')")


class Faults:
    """The fault injection of one fake Discord (``fake.faults``)."""

    def __init__(self, state: FakeState) -> None:
        self.state = state
        self.injected: list[InjectedFault] = []
        """Every fault served, in order."""
        self.hang_seconds = HANG_SECONDS
        """How long a ``"timeout"`` hangs before the connection is cut."""
        self.returned_at: float | None = None
        """``time.time()`` when the last outage ended (restored or its seconds passed):
        "Discord's return", from which delivery delays are measured."""
        self._outage: _Outage | None = None
        self._outage_started = 0.0
        self._random: list[_Random] = []
        self._rate_limits: list[_RateLimit] = []
        self._slow: list[_Slow] = []
        self._released = asyncio.Event()
        """Set by :meth:`restore`: the requests hanging (``"timeout"``) are cut."""

    # -- arming ------------------------------------------------------------------

    def outage(self, status: Status = 503, *, routes: RouteFilter = None,
               seconds: float | None = None, interactions: bool = False) -> None:
        """From now every matching REST call fails with ``status`` (a 5xx, 429,
        ``"timeout"``, ``"reset"`` or ``"lost"``) until :meth:`restore` or ``seconds``
        pass. Interaction callbacks and webhooks are spared unless ``interactions``.
        A new outage replaces the current one."""
        until = None if seconds is None else time.monotonic() + seconds
        self._end_outage()
        self._outage = _Outage(routes, interactions, until, kind_of(status))
        self._outage_started = time.time()
        self.returned_at = None

    def random(self, share: float, *, kinds: Iterable[Status] = KINDS, seed: int = 0,
               routes: RouteFilter = None, interactions: bool = False) -> None:
        """From now ``share`` (0…1) of matching calls fail, each with one of ``kinds``
        drawn at random (seeded: the same calls fail in the same way each run)."""
        if not 0.0 <= share <= 1.0:
            raise ValueError(f"share must be within 0…1, not {share}")
        picked = tuple(kind_of(k) for k in kinds)
        if not picked:
            raise ValueError("random faults need at least one kind")
        self._random.append(_Random(routes, interactions, None, share, picked,
                                    random_module.Random(seed)))

    def rate_limit(self, route: RouteFilter, *, count: int, retry_after: float,
                   global_: bool = False) -> None:
        """The next ``count`` calls matching ``route`` answer 429 with ``retry_after``
        seconds, on the route's bucket or (``global_``) the global limit."""
        self._rate_limits.append(_RateLimit(route, True, None, count, retry_after, global_))

    def slow(self, seconds: float, *, share: float = 1.0, routes: RouteFilter = None,
             seed: int = 0, interactions: bool = False) -> None:
        """From now ``share`` of matching calls are answered ``seconds`` late."""
        self._slow.append(_Slow(routes, interactions, None, seconds, share,
                                random_module.Random(seed)))

    def forbid_dms(self, user_id: int, forbidden: bool = True) -> None:
        """DMs to that user answer 403, code 50007 (the user closed their DMs)."""
        self.state.users[user_id].dms_closed = forbidden

    def restore(self, *, cut: bool = True) -> None:
        """End every fault: the outage, random failures, pending rate limits, slowness
        (DMs forbidden stay forbidden). Requests hanging (``"timeout"``) are cut now,
        unless ``cut`` is False: then they hang on until their time, as calls caught
        in a real incident do until the bot's own timeout ends them."""
        self._end_outage()
        self._random.clear()
        self._rate_limits.clear()
        self._slow.clear()
        if cut:
            self._released.set()
            self._released = asyncio.Event()

    def _end_outage(self, at: float | None = None) -> None:
        if self._outage is not None:
            self.returned_at = at if at is not None else time.time()
            self._outage = None

    # -- reading -----------------------------------------------------------------

    @property
    def in_outage(self) -> bool:
        """Whether an outage is going on now."""
        self._expire(time.monotonic())
        return self._outage is not None

    def served(self, kind: str | None = None, routes: RouteFilter = None
               ) -> list[InjectedFault]:
        """The faults served, of one kind and on matching routes."""
        return [f for f in self.injected
                if (kind is None or f.kind == kind) and route_matches(routes, f.route)]

    # -- serving -----------------------------------------------------------------

    def _expire(self, now: float) -> None:
        outage = self._outage
        if outage is not None and outage.until is not None and outage.expired(now):
            self._end_outage(at=time.time() - (now - outage.until))

    def pick(self, route: str) -> Fault:
        """What to do with one call on ``route``; counts it against rate limits."""
        now = time.monotonic()
        self._expire(now)
        delay = 0.0
        for slow in self._slow:
            if slow.matches(route) and slow.rng.random() < slow.share:
                delay = max(delay, slow.seconds)
        for limit in self._rate_limits:
            if limit.count > 0 and limit.matches(route):
                limit.count -= 1
                return Fault("429", delay, limit.retry_after, limit.global_)
        self._rate_limits = [r for r in self._rate_limits if r.count > 0]
        if self._outage is not None and self._outage.matches(route):
            return Fault(self._outage.kind, delay)
        for rule in self._random:
            if rule.matches(route) and rule.rng.random() < rule.share:
                return Fault(rule.rng.choice(rule.kinds), delay)
        return Fault(None, delay)

    def released(self) -> asyncio.Event:
        """What a hanging request waits for besides its time: the next restore."""
        return self._released

    def note(self, route: str, kind: str) -> None:
        """Record a fault served."""
        self.injected.append(InjectedFault(time.time(), route, kind))


async def serve(faults: Faults, request: web.Request, route: str, fault: Fault,
                answer: Callable[[], Any]) -> web.StreamResponse:
    """Serve ``fault`` (its kind is not None) for one request; ``answer`` carries the
    call out (used by ``"lost"``)."""
    kind = fault.kind
    assert kind is not None
    faults.note(route, kind)
    if kind == "429":
        return rate_limited(fault.retry_after, fault.global_, route)
    if kind == "timeout":
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(faults.released().wait(), faults.hang_seconds)
        cut(request)
        return web.Response(status=504)
    if kind == "lost":
        await answer()
        cut(request)
        return web.Response(status=502)
    if kind == "reset":
        cut(request)
        return web.Response(status=502)
    status = int(kind)
    return _json({"message": f"{status}: Discord is having trouble", "code": 0}, status)


def rate_limited(retry_after: float, global_: bool, route: str) -> web.Response:
    """A 429 with the headers and body Discord sends."""
    headers = {
        "Retry-After": str(max(1, round(retry_after + 0.4999))),
        "Via": "1.1 google",
        "X-RateLimit-Scope": "global" if global_ else "user",
    }
    if global_:
        headers["X-RateLimit-Global"] = "true"
    else:
        bucket = hashlib.sha1((route.split(" ")[0] + _major(route)).encode()).hexdigest()[:16]
        headers.update({
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{retry_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        })
    body = {"message": "You are being rate limited.", "retry_after": retry_after,
            "global": global_, "code": 0}
    return _json(body, 429, headers)


def _json(data: Any, status: int, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with ``Content-Type: application/json`` exactly, which discord.py wants
    before it parses a body (a 429 it cannot parse it takes for a Cloudflare ban)."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={**(headers or {}), "Content-Type": "application/json"})


def _major(route: str) -> str:
    match = re.search(r"/(channels|guilds|webhooks)/(\d+)", route)
    return match.group(0) if match else route


def cut(request: web.Request) -> None:
    """Reset the request's connection (TCP RST: SO_LINGER with a zero timeout)."""
    transport = request.transport
    if transport is None:
        return
    sock = transport.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()
