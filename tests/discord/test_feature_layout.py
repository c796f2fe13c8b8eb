"""The Discord adapter is grouped by feature (issue 29): each feature module owns its
components — the ids it makes and the ids it parses are in one place — and the shared
mechanism (`bot/discord/core`) knows no feature."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import discord

from tests.conftest import ROOT

ADAPTER = ROOT / "bot" / "discord"
CORE = "bot.discord.core"
PREFIX = re.compile(r"""(?<![\w:])["']?(mj:[a-z]+):""")
"""A custom_id's kind, as a template or an id's text starts: ``mj:mv:``."""


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _sources() -> dict[str, str]:
    return {_module(p): p.read_text("utf-8") for p in sorted(ADAPTER.rglob("*.py"))}


def _registered() -> list[type[discord.ui.DynamicItem[Any]]]:
    import bot.discord.client  # noqa: F401  (what the client registers, it imports)
    from bot.discord.core.items import DYNAMIC_ITEMS

    return list(DYNAMIC_ITEMS)


def _kind(cls: type[discord.ui.DynamicItem[Any]]) -> str:
    template = cls.__discord_ui_compiled_template__.pattern
    match = re.match(r"(mj:[a-z]+):", template)
    assert match is not None, (cls, template)
    return match[1]


def test_each_kind_of_id_is_made_and_parsed_in_the_one_feature_that_owns_it() -> None:
    """A component's template (what parses its ids) and the text of the ids it makes
    are in its feature's module, and no other module of the adapter spells its kind."""
    items = _registered()
    assert len(items) >= 6
    owners = {_kind(cls): cls.__module__ for cls in items}
    assert len(owners) == len(items), "one class per kind"
    sources = _sources()
    for kind, owner in owners.items():
        assert not owner.startswith(CORE + "."), f"{kind} belongs to a feature, not {owner}"
        spelled = {name for name, text in sources.items()
                   if kind in {m[1] for m in PREFIX.finditer(text)}}
        assert spelled == {owner}, f"{kind}: made or parsed outside {owner}: {spelled}"


def test_every_component_class_of_the_adapter_is_registered_by_the_client() -> None:
    """Registered means imported by the client (`persistent` runs at import): asked of a
    fresh interpreter, so that no other test's imports can stand in for the client's."""
    script = "import sys, bot.discord.client; print(*sorted(sys.modules))"
    loaded = set(subprocess.run([sys.executable, "-c", script], cwd=ROOT, check=True,
                                capture_output=True, text=True).stdout.split())
    from bot.discord.core.items import OutOfRange

    defining: set[str] = set()
    for name in _sources():
        module = importlib.import_module(name)
        for value in vars(module).values():
            if inspect.isclass(value) and issubclass(value, discord.ui.DynamicItem) and \
                    value.__module__ == name and value is not OutOfRange:
                defining.add(name)
    assert len(defining) >= 4
    assert defining <= loaded, defining - loaded


def test_the_shared_mechanism_imports_no_feature() -> None:
    """core/ is what every feature uses (strings, answering, ids' rules, pictures): it
    imports none of them at its top, so a feature can be read, moved or removed alone.
    (The picture worker imports the DM words it draws with, by name, when it starts.)"""
    for name, text in _sources().items():
        if not name.startswith(CORE + "."):
            continue
        for node in ast.parse(text).body:
            if isinstance(node, ast.ImportFrom) and node.module is not None:
                module = node.module
            elif isinstance(node, ast.Import):
                module = node.names[0].name
            else:
                continue
            if module.startswith("bot.discord."):
                assert module.startswith(CORE), f"{name} imports {module}"


def test_slash_commands_keep_their_signatures_for_mypy() -> None:
    """``@command`` is typed: mypy checks each subcommand's own arguments."""
    from bot.discord.commands import command, table_param

    for decorator in (command, table_param):
        hints = inspect.get_annotations(decorator)
        assert "Any" not in str(hints["return"]), decorator


def _texts(source: str) -> tuple[set[str], set[str]]:
    """The string constants of a module's code (not its docstrings) and the constant
    heads of its f-strings (``f"btn.{kind}"`` → ``btn.``)."""
    tree = ast.parse(source)
    docs = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    whole: set[str] = set()
    heads: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and node.values:
            first = node.values[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                heads.add(first.value)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docs:
            whole.add(node.value)
    return whole, heads


def _feature(module: str) -> str:
    """The feature a module of the adapter belongs to: its package under bot.discord,
    or the module itself (``bot.discord.calculator``); a strings module, its feature's."""
    parts = module.removesuffix("_strings").split(".")
    return ".".join(parts[:3])


def test_each_feature_s_texts_are_defined_in_that_feature() -> None:
    """Every key a feature uses is in its own strings module or among core's shared
    ones, never in another feature's; core uses only its own; and each key of a
    feature's strings module is used by that feature (said whole, or by an f-string's
    head as ``f"btn.{kind}"``)."""
    from bot.discord.core import i18n

    keys = set(i18n.STRINGS["en"])
    owners = {key: _feature(module) for key, module in i18n.OWNED.items()}
    assert {_feature(m) for m in i18n.FEATURES} == set(owners.values())
    assert len(owners) > 150 and len(keys) - len(owners) > 150
    used: dict[str, set[str]] = {}
    for name, text in _sources().items():
        if name in i18n.FEATURES or name == f"{CORE}.i18n":
            continue
        feature = _feature(name)
        whole, heads = _texts(text)
        for key in whole & keys:
            owner = owners.get(key)
            assert owner is None or owner == feature, f"{name} says {key}, {owner}'s text"
        mine = used.setdefault(feature, set())
        mine |= {key for key in whole if key in keys}
        mine |= {key for key in keys if any(key.startswith(h) for h in heads if "." in h)}
    for key, owner in owners.items():
        assert key in used.get(owner, set()), f"{owner} defines {key} and does not use it"
