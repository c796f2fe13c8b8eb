"""A picture process slow to start, as a loaded machine makes one (the workers run at a
lower priority, `bot.discord.core.pictures.NICENESS`, and their start-up imports Pillow,
the engine and the fonts): the worker's initializer waits `DELAY` seconds before the
real one. Imported by name in the spawned worker, so it lives in its own module."""

from __future__ import annotations

import time

from bot.discord.core.pictures import _prepare_worker
from engine.rules import RuleSet

DELAY = 8.0
"""Seconds a worker takes to start: far beyond the 2 s a delivery may wait."""


def slow_start(known: tuple[RuleSet, ...] = ()) -> None:
    """`_prepare_worker`, late (it takes the rule sets `Pictures` passes it: without
    them the worker died at once, and a test meaning a slow start saw a broken pool)."""
    time.sleep(DELAY)
    _prepare_worker(known)
