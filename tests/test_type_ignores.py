"""Every `type: ignore` names its error code and says why: in the shipped code, the
benches and the tests mypy checks."""

from __future__ import annotations

import re

from tests.conftest import ROOT

_IGNORE = re.compile(r"#\s*type:\s*ignore")
_EXPLAINED = re.compile(r"#\s*type:\s*ignore\[[a-z-]+(, *[a-z-]+)*\]\s+#\s*\S")


FOLDERS = ("engine", "bot", "render", "bench", "tests")


def test_every_type_ignore_names_its_code_and_reason() -> None:
    unexplained = [f"{path.relative_to(ROOT)}:{number}"
                   for folder in FOLDERS
                   for path in sorted((ROOT / folder).rglob("*.py"))
                   for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
                   if _IGNORE.search(line) and not _EXPLAINED.search(line)]
    assert unexplained == []
