"""The bot's metrics: one small facade any part may call, a no-op unless enabled.

    from bot import metrics
    metrics.move("player")                       # a move committed
    metrics.interaction("component", "ok", 0.012)  # an interaction's first response
    metrics.delivery_failed("dm", "503")         # a delivery Discord refused
    metrics.discord_error(503)                   # a failed call to Discord

With ``METRICS_PORT`` set, `serve` starts Prometheus's text endpoint (the optional
``prometheus-client`` package: ``pip install "mahjong-bot[metrics]"``) on
``METRICS_HOST`` (default 127.0.0.1) and every call counts; without it each call is
one attribute look-up and an empty function, and ``prometheus-client`` is never
imported. Labels take only a few values each (kinds, outcomes, statuses, sources): no
ids, names or tiles, so the series stay few and a scrape shows nothing secret.

Exported (all prefixed ``mahjong_``): ``interactions_total{kind,outcome}`` and
``interaction_seconds{kind}`` (arrival to first response), ``moves_total{source}``,
``deliveries_owed`` (what waits to be delivered now) and ``deliveries_failed_total
{kind,reason}``, ``discord_errors_total{status}`` (the deliveries' calls, each failed
try: bot/discord/delivery/retry.py), ``tables{state}``
(``live``: in lobby or play; ``idle``: of those, not held in memory); and the
process's own (``process_resident_memory_bytes``, CPU, open files) from
prometheus-client.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from prometheus_client import CollectorRegistry

log = logging.getLogger(__name__)

PREFIX = "mahjong"
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
"""Seconds: Discord wants a first response within 3 s."""

MISSING = ("the metrics endpoint needs the prometheus-client package: "
           'pip install "mahjong-bot[metrics]" (or leave METRICS_PORT empty)')


class MetricsUnavailable(RuntimeError):
    """METRICS_PORT is set but prometheus-client is not installed."""


class _Off:
    """Disabled: every call does nothing."""

    def interaction(self, kind: str, outcome: str, seconds: float) -> None:
        pass

    def move(self, source: str) -> None:
        pass

    def deliveries_owed(self, count: int) -> None:
        pass

    def delivery_failed(self, kind: str, reason: str) -> None:
        pass

    def discord_error(self, status: int | str) -> None:
        pass

    def tables(self, live: int, idle: int) -> None:
        pass


class _Prometheus(_Off):
    """Enabled: each call counts in ``registry``."""

    def __init__(self, registry: CollectorRegistry) -> None:
        from prometheus_client import Counter, Gauge, Histogram

        self.registry = registry
        on: dict[str, Any] = {"registry": registry, "namespace": PREFIX}
        self._interactions = Counter("interactions", "Interactions answered, by kind "
                                     "(application_command, component, …) and outcome "
                                     "(ok, refused, error)", ["kind", "outcome"], **on)
        self._latency = Histogram("interaction_seconds", "Seconds from an interaction's "
                                  "arrival to its first response", ["kind"],
                                  buckets=LATENCY_BUCKETS, **on)
        self._moves = Counter("moves", "Moves committed, by source (player, timeout, "
                              "computer)", ["source"], **on)
        self._owed = Gauge("deliveries_owed", "Deliveries waiting to be made (DMs, table "
                           "pictures, announcements)", **on)
        self._failed = Counter("deliveries_failed", "Delivery attempts that failed, by kind "
                               "and reason (an HTTP status, timeout, reset)",
                               ["kind", "reason"], **on)
        self._errors = Counter("discord_errors", "Failed calls to Discord, by HTTP status "
                               "(or timeout, reset)", ["status"], **on)
        self._tables = Gauge("tables", "Tables in lobby or play (live), and of those the "
                             "ones not held in memory (idle)", ["state"], **on)

    def interaction(self, kind: str, outcome: str, seconds: float) -> None:
        self._interactions.labels(kind, outcome).inc()
        self._latency.labels(kind).observe(seconds)

    def move(self, source: str) -> None:
        self._moves.labels(source).inc()

    def deliveries_owed(self, count: int) -> None:
        self._owed.set(count)

    def delivery_failed(self, kind: str, reason: str) -> None:
        self._failed.labels(kind, reason).inc()

    def discord_error(self, status: int | str) -> None:
        self._errors.labels(str(status)).inc()

    def tables(self, live: int, idle: int) -> None:
        self._tables.labels("live").set(live)
        self._tables.labels("idle").set(idle)


_sink: _Off = _Off()
_server: Any = None
_lock = threading.Lock()


def enabled() -> bool:
    """Whether the calls count (`enable` or `serve` ran)."""
    return isinstance(_sink, _Prometheus)


def enable(registry: CollectorRegistry | None = None) -> CollectorRegistry:
    """Count from now on, in ``registry`` (a new one by default, holding the process's
    own metrics too); returns it. `MetricsUnavailable` without prometheus-client."""
    global _sink
    try:
        from prometheus_client import CollectorRegistry, ProcessCollector
    except ImportError as exc:
        raise MetricsUnavailable(MISSING) from exc
    with _lock:
        if registry is None:
            registry = CollectorRegistry()
            ProcessCollector(registry=registry)  # memory, CPU, open files (Linux)
        _sink = _Prometheus(registry)
        return registry


def serve(port: int, host: str = "127.0.0.1",
          registry: CollectorRegistry | None = None) -> int:
    """Enable and serve the metrics over HTTP at ``http://host:port/metrics`` (a thread
    of prometheus-client's); returns the port (``port`` 0: a free one, for tests)."""
    global _server
    from prometheus_client import start_http_server

    registry = enable(registry)
    stop()
    server, _thread = start_http_server(port, addr=host, registry=registry)
    _server = server
    bound: int = server.server_port
    log.info("metrics served at http://%s:%s/metrics", host, bound)
    return bound


def stop() -> None:
    """Stop serving (the counts stay enabled); idempotent."""
    global _server
    server, _server = _server, None
    if server is not None:
        server.shutdown()
        server.server_close()


def disable() -> None:
    """Stop serving and counting (tests)."""
    global _sink
    stop()
    _sink = _Off()


# ---- what the parts call ---------------------------------------------------------


def interaction(kind: str, outcome: str, seconds: float) -> None:
    """An interaction answered: its kind (``interaction.type.name``), how it ended (ok,
    refused, error) and the seconds from its arrival to its first response."""
    _sink.interaction(kind, outcome, seconds)


def move(source: str) -> None:
    """A move committed; ``source``: player, timeout or computer."""
    _sink.move(source)


def deliveries_owed(count: int) -> None:
    """How many deliveries wait to be made now."""
    _sink.deliveries_owed(count)


def delivery_failed(kind: str, reason: str) -> None:
    """One delivery attempt failed: what it was (dm, picture, announcement, …) and why
    (an HTTP status, timeout, reset)."""
    _sink.delivery_failed(kind, reason)


def discord_error(status: int | str) -> None:
    """A call to Discord failed with an HTTP ``status`` (or "timeout", "reset")."""
    _sink.discord_error(status)


def tables(live: int, idle: int) -> None:
    """Tables in lobby or play, and of those the ones not held in memory."""
    _sink.tables(live, idle)
