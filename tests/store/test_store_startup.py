"""Start-up on a database that cannot be used: one clear line naming the path and what
to do (exit code 2, as for a missing token), quickly; and one bot process per file."""

from __future__ import annotations

import asyncio
import ctypes
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.store import DatabaseInUse, DatabaseUnusable, ProcessLock, Store

ROOT = Path(__file__).resolve().parents[2]


def start_bot(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
              cwd: Path, database: Path) -> tuple[int, str]:
    """``mahjong-bot`` with a token and DATABASE_PATH: its exit code and its stderr."""
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("DISCORD_TOKEN", "not-used: the database is refused first")
    monkeypatch.setenv("DATABASE_PATH", str(database))
    code = main([])
    return code, capsys.readouterr().err


def one_line(err: str, *words: str) -> None:
    assert err.startswith("mahjong-bot: ") and err.endswith("\n"), err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, (word, err)


async def real_database(path: Path, tables: int = 200) -> None:
    store = await Store.open(path)
    for i in range(tables):
        await store.lobby.create_table(guild_id=1, channel_id=i, creator_id=1, rules="shanghai",
                                       at=0.0, options={"hands": 4})
    await store.close()


def test_a_file_that_is_not_a_database(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    db = tmp_path / "notes.txt"
    db.write_bytes(b"these are my notes, not a database\n" * 200)
    code, err = start_bot(monkeypatch, capsys, tmp_path, db)
    assert code == 2
    one_line(err, str(db), "not a SQLite database", "backup")
    assert db.read_bytes().startswith(b"these are my notes")  # left as it was


def test_a_truncated_database(monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "cut.sqlite3"
    asyncio.run(real_database(db))
    with db.open("r+b") as f:
        f.truncate(db.stat().st_size // 2)
    code, err = start_bot(monkeypatch, capsys, tmp_path, db)
    assert code == 2
    one_line(err, str(db), "damaged", "backup")


def test_a_folder_that_cannot_be_made(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    (tmp_path / "data").write_text("a file where the folder should be")
    db = tmp_path / "data" / "games" / "mahjong.sqlite3"
    code, err = start_bot(monkeypatch, capsys, tmp_path, db)
    assert code == 2
    one_line(err, str(db), str(db.parent), "create it")


async def test_a_locked_database_fails_fast_and_says_so(tmp_path: Path) -> None:
    db = tmp_path / "locked.sqlite3"
    await real_database(db, tables=1)
    holder = sqlite3.connect(db, isolation_level=None)   # e.g. an sqlite3 shell
    try:
        holder.execute("PRAGMA locking_mode = EXCLUSIVE")
        holder.execute("BEGIN EXCLUSIVE")
        # one busy timeout (1 s), not one per retry (before: 100 tries of 1 s each);
        # the 60 s bound only stops a stalled start-up from hanging the suite
        with pytest.raises(DatabaseUnusable) as refused:
            await asyncio.wait_for(Store.open(db, busy_timeout_ms=1000), 60)
    finally:
        holder.close()
    assert str(db) in str(refused.value) and "locked by another program" in str(refused.value)
    store = await Store.open(db)      # released: it opens again
    await store.close()


def without_file_powers() -> None:
    """In the child before it runs: drop CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from
    its bounding set, so that even root obeys a file's read-only mode (as the bot's
    user would) — prctl(PR_CAPBSET_DROP, …)."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):
        if libc.prctl(24, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_database(what: str, tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "ro.sqlite3"
    asyncio.run(real_database(db, tables=1))
    if what == "file":
        ProcessLock.acquire(db).release()   # its lock file may be written: only the
        db.chmod(0o444)                     # database itself is read-only
    else:
        folder.chmod(0o555)
    try:
        done = run_bot(db, preexec_fn=without_file_powers if os.geteuid() == 0 else None)
    finally:
        folder.chmod(0o755)
        db.chmod(0o644)
    assert done.returncode == 2, done.stderr
    one_line(done.stderr, str(folder), "write access")
    if what == "file":
        one_line(done.stderr, str(db), "cannot be written")


def run_bot(db: Path, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` in a process of its own (the 120 s bound only keeps a stalled
    start-up from hanging the suite)."""
    env = {**os.environ, "DISCORD_TOKEN": "not-used", "DATABASE_PATH": str(db),
           "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "bot"], env=env, cwd=db.parent,
                          capture_output=True, text=True, timeout=120, **kwargs)


def test_a_second_bot_on_the_same_file_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "shared.sqlite3"
    with ProcessLock.acquire(db):                       # the first bot holds the file
        done = run_bot(db)
    assert done.returncode == 2
    one_line(done.stderr, str(db), "another mahjong-bot", f"process {os.getpid()}",
             "stop it first", "a SQLite database serves one process",
             "share a PostgreSQL one: DATABASE_URL")
    assert not db.exists()    # refused before the database was even opened


def test_the_lock_goes_with_the_process_that_held_it(tmp_path: Path) -> None:
    db = tmp_path / "shared.sqlite3"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom bot.store import ProcessLock\n"
         f"ProcessLock.acquire({str(db)!r}); print('held', flush=True); time.sleep(600)"],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(DatabaseInUse, match=f"process {holder.pid}"):
            ProcessLock.acquire(db)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    ProcessLock.acquire(db).release()   # the kernel let go of it with the process
