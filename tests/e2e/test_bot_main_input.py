"""``mahjong-bot`` and ``mahjong-bot demo`` started with settings built to break them
(issue 28, point 8): each is one line on standard error and exit code 2, before
anything connects or is written; never a traceback, and never the text of a
DATABASE_URL (a pasted password would be printed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

LONG = "1" * 4301
"""Python refuses to read a whole number this long (ValueError)."""
SECRET = "hunter2-Secret"


def _run(tmp_path: Path, args: list[str], env: dict[str, str]
         ) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` in an empty folder (no .env), with only ``env`` set."""
    base = {k: v for k, v in os.environ.items()
            if k not in ("DISCORD_TOKEN", "DATABASE_URL", "DATABASE_PATH", "DEV_GUILD_ID",
                         "SHARD_COUNT", "SHARD_IDS", "LOG_LEVEL", "SYNC_COMMANDS")}
    base["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=tmp_path,
                          env={**base, "DISCORD_TOKEN": "not-a-real-token", **env},
                          capture_output=True, text=True, timeout=60, check=False)


BAD_SETTINGS: dict[str, tuple[dict[str, str], str]] = {
    "shard_count_4301_digits": ({"SHARD_COUNT": LONG}, "from 1 to 4096"),
    "shard_ids_4301_digits": ({"SHARD_COUNT": "2", "SHARD_IDS": LONG}, "names shard"),
    "dev_guild_id_4301_digits": ({"DEV_GUILD_ID": LONG}, "server id"),
    "dev_guild_id_past_64_bits": ({"DEV_GUILD_ID": str(2**64)}, "server id"),
    "ipv6_without_bracket": ({"DATABASE_URL": f"postgresql://u:{SECRET}@[::1/db"}, "]"),
    "port_not_a_number": ({"DATABASE_URL": f"postgresql://u:{SECRET}@localhost:abc/db"},
                          "port"),
    "port_out_of_range": ({"DATABASE_URL": f"postgresql://u:{SECRET}@localhost:99999/db"},
                          "port"),
    "password_with_a_slash": ({"DATABASE_URL": f"postgresql://u:{SECRET}/x@localhost/db"},
                              "percent-encoded"),
    "sqlite_without_a_path": ({"DATABASE_URL": "sqlite:///"}, "no file"),
    "no_scheme": ({"DATABASE_URL": SECRET}, "postgresql://"),
    "a_user_and_a_colon": ({"DATABASE_URL": f"u:{SECRET}"}, "postgresql://"),
}


@pytest.mark.parametrize("given", list(BAD_SETTINGS), ids=list(BAD_SETTINGS))
def test_a_bad_setting_is_one_line_and_exit_code_2(tmp_path: Path, given: str) -> None:
    env, says = BAD_SETTINGS[given]
    done = _run(tmp_path, [], env)
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    line = done.stderr
    assert line.startswith("mahjong-bot: ") and len(line) < 400, line
    assert says in line, line
    assert list(env)[-1] in line, line  # names the setting
    if "DATABASE_URL" in env:  # nothing of the URL is repeated: not its user, nor a host
        assert SECRET not in line and "'u" not in line and " u:" not in line, line
    assert list(tmp_path.iterdir()) == []  # nothing written: no ./mahjong.sqlite3


def test_demo_on_a_folder_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    for _ in range(3):  # the thread's traceback came on some runs only
        done = _run(tmp_path, ["demo", "--db", str(folder)], {})
        assert done.returncode == 2, done
        assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1, \
            done.stderr
        assert "is a folder" in done.stderr, done.stderr
    assert list(folder.iterdir()) == []
