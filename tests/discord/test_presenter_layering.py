"""The presenter reads its notices and its memory, nothing else: no store, no table
service to call back, no ambient context carried through the service. The memory's
plain values (`TableMemory`, `HandReplyRow`) are the one thing of bot/store it names:
one type for the store and the adapter, kept where the store can reach it."""

from __future__ import annotations

import ast

from tests.conftest import ROOT

PRESENTER = ("table/notifier.py", "play/dms.py", "delivery/posting.py", "delivery/table_state.py",
             "delivery/memory.py")


MEMORY_VALUES = {"bot.store.presenter_memory", "bot.store.presenter_memory.TableMemory",
                 "bot.store.presenter_memory.HandReplyRow"}
"""What the adapter may import of the store besides the client's wiring: the memory's
values, no repository, no SQL."""


def _store_imports(imported: set[str]) -> set[str]:
    return {m for m in imported if m.startswith("bot.store")} - MEMORY_VALUES


def _imports(name: str) -> set[str]:
    tree = ast.parse((ROOT / "bot" / "discord" / name).read_text("utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            found |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return found


def test_the_presenter_imports_no_store_no_service_and_no_context_variable() -> None:
    for name in PRESENTER:
        imported = _imports(name)
        assert not _store_imports(imported), name
        assert "bot.service.TableService" not in imported, name
        assert "contextvars" not in imported, name


def test_only_the_client_wiring_imports_the_store() -> None:
    """The adapter talks to the service (and the presenter to its memory): only the
    client, which opens the store and builds the memory over it, may import it."""
    adapter = ROOT / "bot" / "discord"
    for path in sorted(adapter.rglob("*.py")):
        name = path.relative_to(adapter).as_posix()
        if name == "client.py":
            continue
        assert not _store_imports(_imports(name)), name
