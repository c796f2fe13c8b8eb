"""Bounded memo caches for the engine's pure functions, and their figures.

Every memo in the engine is bounded: a `functools.lru_cache` with a ``maxsize`` made
through `bounded`, an `IdentityMemo`, or a `PlainMemo`. No cache grows without limit in a
long-running bot, and `stats` reports each one's size and hit rate (bench/engine.py
and bench/game.py print them).
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from itertools import islice
from typing import Any, Generic, Protocol, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
V = TypeVar("V")


@dataclass(frozen=True)
class CacheStats:
    name: str
    size: int
    maxsize: int
    hits: int | None
    """None for a `PlainMemo`, which does not count its hits."""
    misses: int

    @property
    def hit_rate(self) -> float | None:
        if self.hits is None:
            return None
        calls = self.hits + self.misses
        return self.hits / calls if calls else 0.0


class _Memo(Protocol):
    def stats(self, name: str) -> CacheStats: ...
    def clear(self) -> None: ...


_CACHES: dict[str, _Memo] = {}


class _LruMemo:
    def __init__(self, cached: Any) -> None:
        self._cached = cached

    def stats(self, name: str) -> CacheStats:
        info = self._cached.cache_info()
        return CacheStats(name, info.currsize, info.maxsize, info.hits, info.misses)

    def clear(self) -> None:
        self._cached.cache_clear()


def bounded(maxsize: int) -> Callable[[F], F]:
    """`functools.lru_cache(maxsize)`, registered under the function's qualified name."""
    def wrap(fn: F) -> F:
        cached = functools.lru_cache(maxsize=maxsize)(fn)
        _CACHES[f"{fn.__module__}.{fn.__qualname__}"] = _LruMemo(cached)
        return cached  # type: ignore[return-value]  # lru_cache keeps the call signature
    return wrap


def uncached(fn: F) -> F:
    """The function a `bounded` memo wraps, to call past the memo (benches, tests)."""
    inner: F = inspect.unwrap(fn)
    return inner


class IdentityMemo(Generic[V]):
    """A bounded memo keyed by *which* object (plus a hashable detail), for values
    derived from immutable records that are costly to hash and are shared from one
    state to the next (a seat that did not move is the same `SeatState` object).
    Each entry keeps its object alive, so an ``id`` is never mistaken for another
    object's; the oldest entries go first when the memo is full. Safe to share between
    threads (the hit and miss counts are then approximate)."""

    def __init__(self, name: str, maxsize: int) -> None:
        self.maxsize = maxsize
        self.hits = self.misses = 0
        self._entries: dict[tuple[int, Hashable], tuple[object, V]] = {}
        self._lock = threading.Lock()
        _CACHES[name] = self

    def get(self, obj: object, detail: Hashable, make: Callable[[], V]) -> V:
        key = (id(obj), detail)
        entry = self._entries.get(key)
        if entry is not None and entry[0] is obj:
            self.hits += 1
            return entry[1]
        return self.keep(obj, detail, make())

    def find(self, obj: object, detail: Hashable) -> V | None:
        """The value kept for ``obj`` and ``detail``, or None (then `keep` one): `get`
        without a ``make`` closure to allocate on every hit, for the hottest callers."""
        entry = self._entries.get((id(obj), detail))
        if entry is not None and entry[0] is obj:
            self.hits += 1
            return entry[1]
        return None

    def keep(self, obj: object, detail: Hashable, value: V) -> V:
        """Keep ``value`` for ``obj`` and ``detail`` (after `find` found none)."""
        self.misses += 1
        with self._lock:
            if len(self._entries) >= self.maxsize:
                # The oldest quarter goes at once: taking the first entry one at a time
                # scans the slots a dict keeps for the entries already taken, which cost
                # a full memo a few µs a miss.
                oldest = max(1, self.maxsize // 4)
                self._entries = dict(islice(self._entries.items(), oldest, None))
            self._entries[(id(obj), detail)] = (obj, value)
        return value

    def stats(self, name: str) -> CacheStats:
        return CacheStats(name, len(self._entries), self.maxsize, self.hits, self.misses)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
        self.hits = self.misses = 0


K = TypeVar("K", bound=Hashable)


class PlainMemo(dict[K, V]):
    """A memo read as a plain dict (``memo.get(key)``: the dict's own C method, as the
    computer player's innermost loops need), kept by `keep`, which counts the misses and
    empties the whole memo at its bound; its hits are not counted. Registered like the
    others, so `stats` shows its size against its bound and `clear` empties it."""

    # No instance dict: the interpreter then reads ``get`` as quickly as a plain dict's.
    __slots__ = ("maxsize", "misses")

    def __init__(self, name: str, maxsize: int) -> None:
        super().__init__()
        self.maxsize = maxsize
        self.misses = 0
        _CACHES[name] = self

    def keep(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key`` (after ``get`` found none)."""
        self.misses += 1
        if len(self) >= self.maxsize:
            dict.clear(self)
        self[key] = value
        return value

    def stats(self, name: str) -> CacheStats:
        return CacheStats(name, len(self), self.maxsize, None, self.misses)

    def clear(self) -> None:
        dict.clear(self)
        self.misses = 0


def stats() -> list[CacheStats]:
    """Size and hits of every engine memo, by name."""
    return [memo.stats(name) for name, memo in sorted(_CACHES.items())]


def clear() -> None:
    """Empty every engine memo (benchmarks measure a cold start with this)."""
    for memo in _CACHES.values():
        memo.clear()
