"""The store stays split by aggregate (issue 29): each repository a small module with
its own SQL, and `Store` only the composition root (no query of its own)."""

from __future__ import annotations

import inspect
from pathlib import Path

import bot.store
from bot.store import Store
from bot.store.repository import Repository

STORE = Path(bot.store.__file__).parent
MOST_LINES = 400
REPOSITORIES = ("lobby", "matches", "hands", "log", "endings", "rebuilds", "deadlines",
                "outbox", "processes", "leaderboard", "presenter", "people",
                "digests", "claim_answers", "premoves", "facts", "ratings",
                "seasons", "recaps", "stats", "maintenance")
ROOT = {"open", "close", "dialect", "pragma"}
"""What `Store` itself does: open, migrate and close the database, say its dialect and
(SQLite) a pragma."""


def test_no_store_module_is_over_four_hundred_lines() -> None:
    for path in sorted(STORE.glob("*.py")):
        if path.name == "rows.py":  # the rows' dataclasses, no SQL
            continue
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= MOST_LINES, f"{path.name} has {lines} lines: split it"


def test_no_store_module_holds_ambient_state() -> None:
    """Shared mode's table bump is handed to each write that carries it (``fence=``):
    no context variable arms writes behind their callers' backs."""
    for path in sorted(STORE.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "contextvars" not in text and "ContextVar" not in text, path.name


def test_the_store_only_composes_its_repositories() -> None:
    own = {name for name, value in vars(Store).items() if not name.startswith("_")
           and (callable(getattr(value, "__func__", value)) or isinstance(value, property))}
    assert own <= ROOT, f"Store carries {sorted(own - ROOT)}: put them in a repository"


async def test_each_aggregate_is_a_repository_of_its_own_module(store: Store) -> None:
    modules = set()
    for name in REPOSITORIES:
        repository = getattr(store, name)
        assert isinstance(repository, Repository), name
        modules.add(inspect.getmodule(type(repository)))
    assert len(modules) == len(REPOSITORIES)
    attributes = {name for name, value in vars(store).items()
                  if isinstance(value, Repository)}
    assert attributes == set(REPOSITORIES)
