"""What the engine benches (game, choice, secrecy) share to measure another revision's
engine beside this one: the same bench script, run once per engine in a child process
(so neither run inherits the other's warm memos), its ``NAME VALUE UNIT`` lines read
back. Imported before `engine`, which `use_engine_root` decides."""

from __future__ import annotations

import argparse
import importlib.abc
import importlib.machinery
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib.machinery import ModuleSpec
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ENGINE_ROOT_FLAG = "--engine-root"
"""The hidden option a child run is told the engine's checkout by."""

Figures = dict[str, tuple[str, str]]
"""Figure name → (value, unit), as a bench printed them."""


def engine_root() -> Path:
    """The checkout whose engine is measured: ``--engine-root`` (a baseline) or this one."""
    if ENGINE_ROOT_FLAG in sys.argv:
        return Path(sys.argv[sys.argv.index(ENGINE_ROOT_FLAG) + 1])
    return ROOT


class OnlyFrom(importlib.abc.MetaPathFinder):
    """``packages`` and their modules from one checkout alone. The project's editable
    install puts a finder after the path's that maps them to this checkout: a module an
    older revision did not have would silently come from this one, a mix of two
    revisions (or an ImportError deep inside it). Here such a module is missing."""

    def __init__(self, root: Path, packages: tuple[str, ...]) -> None:
        self.root, self.packages = root, packages

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> ModuleSpec | None:
        if fullname.split(".")[0] not in self.packages:
            return None
        spec = importlib.machinery.PathFinder.find_spec(
            fullname, [str(self.root)] if path is None else path)
        if spec is None:
            raise ModuleNotFoundError(
                f"{fullname} is not in the revision measured ({self.root}): it predates"
                " what this bench measures", name=fullname)
        return spec

    @classmethod
    def install(cls, root: Path, packages: tuple[str, ...]) -> None:
        """Put ``root``'s checkout first on the path and keep ``packages`` to it."""
        sys.path.insert(0, str(root))
        sys.meta_path.insert(0, cls(root, packages))


def use_engine_root() -> None:
    """Make `import engine` take `engine_root`'s engine, and only it (call before
    importing it)."""
    root = engine_root()
    if root != ROOT:
        OnlyFrom.install(root, ("engine",))
    else:
        sys.path.insert(0, str(root))


def use_bot_checkout(code: Path) -> None:
    """For a child measuring ``code``'s whole bot (bench/discord.py, bench/scale.py): the
    tests' e2e kit importable, and ``bot``, ``engine`` and ``render`` from ``code``
    alone (this checkout's only when it is ``code``). The caller put this checkout on
    the path to import this module; it comes off first."""
    sys.path.remove(str(ROOT))
    sys.path.insert(0, str(ROOT / "tests" / "e2e"))
    if code == ROOT:
        sys.path.insert(0, str(ROOT))
    else:  # never this checkout's modules filling gaps in an older bot's
        OnlyFrom.install(code, ("bot", "engine", "render"))


@contextmanager
def exported(rev: str) -> Iterator[str]:
    """Git revision ``rev`` exported to a temporary folder (no worktree left behind)."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        yield tmp


def run_figures(script: str, args: list[str], engine: str | None = None) -> Figures:
    """``script`` run with ``args`` (on ``engine``'s checkout when given), its figures."""
    where = [ENGINE_ROOT_FLAG, engine] if engine else []
    done = subprocess.run([sys.executable, script, *where, *args], capture_output=True,
                          text=True)
    if done.returncode:
        raise SystemExit(f"{Path(script).name} failed on {engine or 'this checkout'}:\n"
                         + done.stderr[-3000:])
    out = done.stdout
    figures = {}
    for line in out.splitlines():
        name, value, unit = line.split()
        figures[name] = (value, unit)
    return figures


def alternated(script: str, rev: str, args: list[str], rounds: int) -> None:
    """``script`` on ``rev``'s engine, then on this one, ``rounds`` times in turn; each
    round's figures printed side by side (``round<N> NAME BEFORE NOW UNIT``)."""
    with exported(rev) as tmp:
        for number in range(1, rounds + 1):
            before = run_figures(script, args, engine=tmp)
            now = run_figures(script, args)
            for name, (value, unit) in now.items():
                old = before.get(name, ("-", unit))[0]
                print(f"round{number} {name:44} {old:>10} {value:>10} {unit}", flush=True)


def hands_and_rounds_main(script: str, measure: Callable[[int], None],
                          default_hands: int) -> None:
    """The command line of a bench that plays ``--hands`` and may alternate with a
    ``--baseline`` revision for ``--rounds``."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=default_hands)
    parser.add_argument("--baseline", help="a git revision measured in turn with this one")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(ENGINE_ROOT_FLAG, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.baseline:
        alternated(script, args.baseline, ["--hands", str(args.hands)], args.rounds)
    else:
        measure(args.hands)
