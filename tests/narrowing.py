"""What a test knows is there, told to the type checker: ``known(x)`` is ``x``, asserted
not None (a row the test wrote, a reply it waited for)."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def known(value: T | None) -> T:
    """``value``, which the test knows is not None (an AssertionError if it is)."""
    assert value is not None, "expected a value, got None"
    return value
