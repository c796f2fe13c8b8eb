"""Rule knowledge lives in engine/rules/ only: everywhere else asks the rule set's object.

A source scan (by syntax tree, so comments and strings in docs do not count) of every
module outside engine/rules/ for the ways a rule set's name used to leak: comparing with
a rule set's name (``rules == "hangzhou"``, ``in ("shanghai", "hangzhou")``,
``case "shanghai":``), comparing with a rule set's object (``ruleset is rules.SHANGHAI``),
a table keyed by rule set names (a second registry), picking a name by a condition,
importing a rule module's insides (``from engine.rules.hangzhou import MAX_STREAK``),
and a word kept under a key named after a rule set (``"rules.about.hangzhou"``: what
players read of a rule set is its object's, `engine.rules.ruleset.Words`).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.rules import RULESETS

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("engine", "bot", "render", "bench")
RULES_PACKAGE = ROOT / "engine" / "rules"
NAMES = frozenset(RULESETS)
OBJECT_NAMES = frozenset(name.upper() for name in RULESETS)
RULE_MODULES = frozenset(f"engine.rules.{name}" for name in RULESETS)


def _is_name(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in NAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_is_name(e) for e in node.elts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id in ("frozenset", "set", "tuple"):
        return any(_is_name(a) for a in node.args)
    return False


def _is_rule_object(node: ast.AST) -> bool:
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
    return name in OBJECT_NAMES


def leaks(source: str) -> list[str]:
    """Each place in ``source`` that knows a rule set by name: "line: what"."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_name(s) for s in sides):
                found.append(f"{line}: compares with a rule set's name")
            if any(_is_rule_object(s) for s in sides):
                found.append(f"{line}: compares with a rule set's object")
        elif isinstance(node, ast.IfExp) and _is_name(node.body) and _is_name(node.orelse):
            found.append(f"{line}: picks a rule set's name by a condition")
        elif isinstance(node, ast.match_case) and _is_name(getattr(node.pattern, "value", None)
                                                          or ast.Constant(None)):
            found.append(f"{node.pattern.lineno}: matches a rule set's name")
        elif isinstance(node, ast.Dict) and any(k is not None and _is_name(k)
                                                for k in node.keys):
            found.append(f"{line}: a table keyed by rule set names")
        elif isinstance(node, ast.Assign) and isinstance(node.value, (ast.Set, ast.Call)) \
                and _is_name(node.value):
            found.append(f"{line}: a set of rule set names")
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            imported = {module} | {f"{module}.{a.name}" for a in node.names}
            if imported & RULE_MODULES:
                found.append(f"{line}: imports a rule module")
        elif isinstance(node, ast.Import) and {a.name for a in node.names} & RULE_MODULES:
            found.append(f"{line}: imports a rule module")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and "." in node.value and NAMES & set(node.value.split(".")):
            found.append(f"{line}: a key named after a rule set")
    return found


def _modules_outside_rules() -> list[Path]:
    files = [p for d in SCANNED for p in sorted((ROOT / d).rglob("*.py"))]
    return [p for p in files if RULES_PACKAGE not in p.parents and ".venv" not in p.parts]


def test_no_module_outside_engine_rules_knows_a_rule_set_by_name() -> None:
    modules = _modules_outside_rules()
    assert len(modules) > 40  # the scan sees the code base
    found = {str(p.relative_to(ROOT)): leaks(p.read_text(encoding="utf-8"))
             for p in modules}
    assert {path: where for path, where in found.items() if where} == {}


@pytest.mark.parametrize("source", [
    'if rules == "hangzhou":\n    pass',
    'x = state.ruleset.name != "shanghai"',
    'ok = rules in ("shanghai", "hangzhou")',
    'unit = "花" if rules == "shanghai" else "×"',
    'rules = "shanghai" if unit == "花" else "hangzhou"',
    'if ruleset is rules.SHANGHAI:\n    pass',
    'if r == HANGZHOU:\n    pass',
    'match rules:\n    case "hangzhou":\n        pass',
    'NAMES = {"shanghai": "上海 Shanghai"}',
    'ONLY = frozenset(("hangzhou",))',
    'from engine.rules.hangzhou import MAX_STREAK',
    'from engine.rules import shanghai',
    'import engine.rules.hangzhou',
    'WORDS = {"board.unit.hangzhou": "points"}',
    'text = t("rules.about.shanghai", locale)',
])
def test_the_scan_finds_each_kind_of_leak(source: str) -> None:
    assert leaks(source), source


@pytest.mark.parametrize("source", [
    'value = ruleset.value_unit',
    'if state.ruleset.counts_chain:\n    pass',
    'from engine.rules import RULESETS, get',
    'new_hand("shanghai", {}, wall, 0, (3, 5))',  # naming a rule set to use it is fine
    'key = f"rules.{rules}"',
])
def test_the_scan_lets_asking_the_rule_set_through(source: str) -> None:
    assert leaks(source) == []
