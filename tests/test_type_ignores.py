"""Every `type: ignore` in the shipped code names its error code and says why."""

from __future__ import annotations

import re

from tests.conftest import ROOT

_IGNORE = re.compile(r"#\s*type:\s*ignore")
_EXPLAINED = re.compile(r"#\s*type:\s*ignore\[[a-z-]+(, *[a-z-]+)*\]\s+#\s*\S")


def test_every_type_ignore_in_engine_and_bot_names_its_code_and_reason() -> None:
    unexplained = [f"{path.relative_to(ROOT)}:{number}"
                   for folder in ("engine", "bot", "render")
                   for path in sorted((ROOT / folder).rglob("*.py"))
                   for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
                   if _IGNORE.search(line) and not _EXPLAINED.search(line)]
    assert unexplained == []
