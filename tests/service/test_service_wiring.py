"""How the service is put together stays so (issue 29, points 2 and 3).

Each part is handed, where `TableService` wires them, the parts and settings it uses:
none reaches another through a locator, none is made with a lambda that names a part
not made yet. Shared mode (several processes on one database) is chosen there once, as
a process model (process.py): no other module of the service tests a ``shared`` flag.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import bot.service
from bot.service import TableService
from bot.service.alarms import Alarms
from bot.service.announcements import Announcer
from bot.service.commands import Commands
from bot.service.digests import Digests
from bot.service.moves import Moves
from bot.service.process import OneProcess, SharedProcess
from bot.service.queries import Queries
from bot.service.recaps import Recaps
from bot.service.recovery import Recovery
from bot.service.seasons import Seasons
from bot.service.tables import LiveTables
from bot.service.timers import Timers
from bot.store import Store

SERVICE = Path(bot.service.__file__).parent
PARTS = (Alarms, Announcer, Commands, Digests, LiveTables, Moves, Queries, Recaps, Recovery,
         Seasons, Timers)


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _names_shared(node: ast.AST) -> bool:
    """Whether ``node`` is code (not prose) naming a ``shared`` flag."""
    return (isinstance(node, ast.Name) and node.id == "shared") or \
        (isinstance(node, ast.Attribute) and node.attr == "shared") or \
        (isinstance(node, ast.keyword) and node.arg == "shared") or \
        (isinstance(node, ast.arg) and node.arg == "shared")


def test_only_the_wiring_chooses_the_process_model() -> None:
    """``shared`` is a word of `TableService`'s signature alone: every other module of
    the service asks the process model, never a flag."""
    naming = sorted(path.name for path in SERVICE.glob("*.py")
                    if any(_names_shared(n) for n in ast.walk(_tree(path))))
    assert naming == ["service.py"]


def test_only_the_adapter_s_wiring_chooses_where_the_presenter_s_memory_lives() -> None:
    """The adapter too: the notifier chooses, once, each part that differs in shared
    mode (the channel's messages, each seat's DM with buttons, the `/mahjong hand`
    replies, the tables' memory read before each delivery), from the flag the client
    hands it; no other module of the adapter tests it."""
    adapter = SERVICE.parent / "discord"
    naming = sorted(str(path.relative_to(adapter)) for path in adapter.rglob("*.py")
                    if any(_names_shared(n) for n in ast.walk(_tree(path))))
    assert naming == ["client.py", "table/notifier.py"]


def test_no_part_is_a_service_locator() -> None:
    """No part takes the whole service, nor reaches another through it."""
    assert not (SERVICE / "part.py").exists()
    for part in PARTS:
        params = inspect.signature(part.__init__).parameters
        assert "service" not in params, part
        source = inspect.getsource(part)
        assert "self.service" not in source and "TableService" not in source, part


def test_parts_are_made_with_what_they_use_and_no_lambda() -> None:
    """The wiring makes each part from parts already made: no lambda (one that would
    name a part made later), and each part's constructor names its dependencies."""
    init = next(n for n in ast.walk(_tree(SERVICE / "service.py"))
                if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    assert not any(isinstance(n, ast.Lambda) for n in ast.walk(init))
    made: list[str] = []
    for statement in init.body:
        for node in ast.walk(statement):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id == "self" and isinstance(node.ctx, ast.Load):
                assert node.attr in made or node.attr in ("store", "clock"), \
                    f"self.{node.attr} used before it is made"
        if isinstance(statement, (ast.Assign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) \
                else [statement.target]
            for target in targets:
                for node in ast.walk(target):
                    if isinstance(node, ast.Attribute):
                        made.append(node.attr)


async def test_the_process_model_is_chosen_once(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        one = TableService(store, bot.service.NullNotifier())
        shared = TableService(store, bot.service.NullNotifier(), shared=True)
        assert isinstance(one.process, OneProcess) and isinstance(shared.process, SharedProcess)
    finally:
        await store.close()
