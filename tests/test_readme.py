"""The README stays true (issue 34).

- Every `mahjong-bot …` line of a shell block in README.md or docs/*.md runs: the
  harmless ones for real, exactly as shown, in a temporary folder with none of the
  bot's settings (the bot without a token, the sharded bot on SQLite, the offline demo;
  the admin's `status`, `migrate`, `backup` and `restore` on a database a demo made
  there, a backup made first for a restore), every other one as
  `mahjong-bot <subcommand> --help` at least.
- Every subcommand `mahjong-bot --help` lists is shown in the README.
- Every relative link of README.md and docs/*.md names a file (and a heading) that is
  there.
- Every repository file or folder README.md and docs/*.md name in backticks is there.
- Every `python -m …` line of their shell blocks (but pip and pytest) knows its
  options (`--help`), and docs/engine.md's calculator example answers as it shows.
- The README's Quick start holds exactly the test command CI runs (`.ci/run`).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]

SHELL_BLOCK = re.compile(r"^ *```(?:sh|bash|shell|console)\n(.*?)^ *```", re.M | re.S)
ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} +(.+?) *#*$", re.M)


@dataclass(frozen=True)
class Shown:
    """One `mahjong-bot …` command as a page shows it: its settings and its arguments."""

    page: str
    line: str
    env: tuple[tuple[str, str], ...]
    argv: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.page}: {self.line}"


def shell_lines(text: str) -> list[str]:
    """The lines of a text's shell blocks, a line continued by `\\` joined to the next."""
    return [line.strip() for block in SHELL_BLOCK.findall(text)
            for line in block.replace("\\\n", " ").splitlines() if line.strip()]


def shown_commands(page: Path) -> list[Shown]:
    shown = []
    for line in shell_lines(page.read_text(encoding="utf-8")):
        for part in line.split("&&"):
            if not re.search(r"(^|\s)mahjong-bot(\s|$)", part):
                continue  # (another program's line, quoted JSON and all)
            words = shlex.split(part, comments=True)
            env = []
            while words and ASSIGNMENT.match(words[0]):
                name, _, value = words.pop(0).partition("=")
                env.append((name, value))
            if words and words[0] == "mahjong-bot":
                shown.append(Shown(page.relative_to(ROOT).as_posix(), line.strip(),
                                   tuple(env), tuple(words[1:])))
    return shown


SHOWN = [command for page in PAGES for command in shown_commands(page)]


def bot_settings() -> set[str]:
    """The names the bot reads (.env.example lists every one, commented or not)."""
    names = set(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", (ROOT / ".env.example").read_text(
        encoding="utf-8"), re.M))
    return names | {"DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL"}


def mahjong_bot() -> list[str]:
    script = Path(sys.executable).with_name("mahjong-bot")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "bot"]


def run(argv: tuple[str, ...], env: dict[str, str], cwd: Path,
        timeout: float = 300) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in bot_settings()}
    return subprocess.run([*mahjong_bot(), *argv], cwd=cwd, env={**clean, **env},
                          capture_output=True, text=True, timeout=timeout, check=False)


def test_the_readme_shows_the_bot_and_its_subcommands() -> None:
    found = {c.argv[0] if c.argv else "" for c in SHOWN if c.page == "README.md"}
    assert {"", "demo", "copy-database"} <= found, found


ON_A_DATABASE = {"status", "migrate", "backup", "restore"}
"""The admin's commands run for real on a database a demo made (they read it, or copy
it: harmless in a temporary folder)."""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with a finished match, as `mahjong-bot demo --db` leaves it."""
    folder = tmp_path_factory.mktemp("played")
    done = run(("demo", "--hands", "1", "--db", "played.sqlite3"), {}, folder)
    assert done.returncode == 0, done
    return folder / "played.sqlite3"


@pytest.mark.parametrize("command", SHOWN, ids=str)
def test_each_command_shown_runs(command: Shown, tmp_path: Path, played: Path) -> None:
    env = dict(command.env)
    if not command.argv:
        if "SHARD_IDS" in env:
            # a fake token: the sharded bot on SQLite is refused before it connects
            done = run((), {**env, "DISCORD_TOKEN": "not-a-token"}, tmp_path)
            assert done.returncode == 2, done
            assert "processes can only share a PostgreSQL database" in done.stderr
        else:
            done = run((), env, tmp_path)
            assert done.returncode == 2, done
            assert "DISCORD_TOKEN is not set" in done.stderr
            assert "discord.com/developers/applications" in done.stderr
        assert not list(tmp_path.iterdir()), "refused before making any file"
        return
    if command.argv[0] == "demo":
        done = run(command.argv, env, tmp_path)
        assert done.returncode == 0, done
        assert "match over after" in done.stdout
        if "--out" in command.argv:
            out = tmp_path / command.argv[command.argv.index("--out") + 1]
            assert any(out.glob("*.png")), "the demo saves its pictures in --out"
        return
    if command.argv[0] in ON_A_DATABASE:
        shutil.copyfile(played, tmp_path / "mahjong.sqlite3")  # the default DATABASE_PATH
        if command.argv[0] == "restore":
            source = command.argv[command.argv.index("--from") + 1]
            made = run(("backup", "--to", source), env, tmp_path, timeout=60)
            assert made.returncode == 0, made
        done = run(command.argv, env, tmp_path, timeout=60)
        assert done.returncode == 0, done
        return
    done = run((command.argv[0], "--help"), env, tmp_path, timeout=60)
    assert done.returncode == 0, done
    assert f"mahjong-bot {command.argv[0]}" in done.stdout, done.stdout
    options = {word.split("=")[0] for word in command.argv[1:] if word.startswith("--")}
    missing = [option for option in sorted(options) if option not in done.stdout]
    assert not missing, f"{command}: --help does not know {missing}"


def test_help_lists_the_subcommands_the_readme_shows(tmp_path: Path) -> None:
    done = run(("--help",), {}, tmp_path, timeout=60)
    assert done.returncode == 0, done
    listed = set(re.findall(r"^(?:usage:)? +mahjong-bot ([a-z][a-z-]*)", done.stdout, re.M))
    assert {"demo", "copy-database"} <= listed, done.stdout
    text = README.read_text(encoding="utf-8")
    unshown = sorted(name for name in listed if f"mahjong-bot {name}" not in text)
    assert not unshown, f"mahjong-bot --help lists {unshown}, which the README never shows"


def anchors(page: Path) -> set[str]:
    """GitHub's ids of a page's headings: lower case, punctuation dropped, spaces → -."""
    ids = set()
    for title in HEADING.findall(page.read_text(encoding="utf-8")):
        words = re.sub(r"[^\w\- ]", "", title.replace("`", "").lower())
        ids.add(words.replace(" ", "-"))
    return ids


def links(page: Path) -> list[str]:
    text = re.sub(r"^ *```.*?^ *```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    return [target for target in LINK.findall(text)
            if not re.match(r"^[a-z]+:", target)]  # http(s):, mailto: are not ours


def resolves(page: Path, target: str) -> bool:
    path, _, anchor = target.partition("#")
    where = (page.parent / path).resolve() if path else page
    if not where.exists():
        return False
    return not anchor or where.suffix != ".md" or anchor in anchors(where)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page: Path) -> None:
    broken = [target for target in links(page) if not resolves(page, target)]
    assert not broken, f"{page.name}: {broken}"


def test_the_docs_are_linked_from_the_readme() -> None:
    text = README.read_text(encoding="utf-8")
    unlinked = [p.name for p in PAGES[1:] if f"(docs/{p.name})" not in text]
    assert not unlinked, f"docs/ files the README does not link: {unlinked}"


def ci_test_command() -> str:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    marker = next(i for i, line in enumerate(lines) if "the test command" in line)
    return lines[marker + 1].strip()


def section(text: str, title: str) -> str:
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else None]


def test_quick_start_shows_exactly_the_test_command_ci_runs() -> None:
    command = ci_test_command()
    quick_start = section(README.read_text(encoding="utf-8"), "Quick start")
    assert command in shell_lines(quick_start), quick_start
    assert "python -m pip install -e . && mahjong-bot" in shell_lines(quick_start)


TOP_LEVEL = ("engine/", "render/", "bot/", "tests/", "bench/", "migrations/", "deploy/",
             "docs/", ".ci/")


def named_files(page: Path) -> list[str]:
    """The repository's files and folders a page names in backticks (`bot/store/`,
    `tests/pgcluster.py`, `.env.example`), leaving out patterns (`hand-<table>.png`)."""
    names = []
    for quoted in re.findall(r"`([^`\s]+)`", page.read_text(encoding="utf-8")):
        name = quoted.rstrip(".,;:")
        if (name.startswith(TOP_LEVEL) or name in (".env.example", "pyproject.toml")) \
                and not re.search(r"[<*…{]", name):
            names.append(name)
    return names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_file_named_is_there(page: Path) -> None:
    names = named_files(page)
    if page == README:
        assert ".env.example" in names
    gone = [name for name in names if not (ROOT / name).exists()]
    assert not gone, f"{page.name} names files that are not there: {gone}"


def python_modules_shown() -> list[tuple[str, tuple[str, ...]]]:
    """Every `python -m MODULE …` line of the pages' shell blocks, but pip and pytest."""
    shown = []
    for page in PAGES:
        for line in shell_lines(page.read_text(encoding="utf-8")):
            for part in line.split("&&"):
                match = re.match(r"^\s*python -m ([\w.]+)(.*)$", part)
                if match and match[1] not in ("pip", "pytest"):
                    shown.append((match[1], tuple(shlex.split(match[2], comments=True))))
    return shown


@pytest.mark.parametrize("module, argv", python_modules_shown(), ids=str)
def test_each_python_module_shown_has_its_options(module: str, argv: tuple[str, ...],
                                                  tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", module, "--help"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done
    assert "usage" in (done.stdout + done.stderr).lower(), done
    missing = [word for word in argv if word.startswith("--") and word not in done.stdout]
    assert not missing, f"python -m {module} --help does not know {missing}"


def test_the_calculator_answers_as_the_engine_page_shows() -> None:
    page = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    command = next(block for block in SHELL_BLOCK.findall(page) if "engine.score -" in block)
    command = command[command.index("echo "):]
    answer = re.search(r"^```json\n(.*?)\n```", page, re.M | re.S)
    assert answer is not None
    command = command.replace("python -m", f"{shlex.quote(sys.executable)} -m")
    done = subprocess.run(["bash", "-c", command], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done
    assert json.loads(done.stdout) == json.loads(answer[1])
