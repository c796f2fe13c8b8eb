"""One bot process per database file.

Two bots on one file would each keep their own tables in memory and answer the same
clicks twice. So a bot holds an exclusive advisory lock (``flock``) on a file beside the
database, ``<database>.lock``, for its whole life. The kernel releases it when the
process ends, however it ends (a SIGKILL included), so a crash never leaves a stale
lock behind; the file itself stays, holding the last holder's process id, and is best
left alone. Where ``flock`` does not exist (Windows) no lock is taken.
"""

from __future__ import annotations

import errno
import logging
import os
from pathlib import Path

from bot.store.db import make_folder
from bot.store.errors import DatabaseInUse, DatabaseUnusable

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]  # no locking where fcntl is missing

log = logging.getLogger(__name__)


def lock_path(database: str | Path) -> Path:
    """The lock file of a database: ``<database>.lock`` beside it."""
    return Path(f"{database}.lock")


class ProcessLock:
    """The held lock of one database; `release` (or the process's end) frees it."""

    def __init__(self, path: Path, fd: int | None) -> None:
        self.path = path
        self._fd = fd

    @classmethod
    def acquire(cls, database: str | Path) -> ProcessLock:
        """Take the database's lock, or raise `DatabaseInUse` (another process holds
        it) or `DatabaseUnusable` (its folder is missing or read-only); never waits."""
        path = lock_path(database)
        if fcntl is None:  # pragma: no cover - Windows
            log.warning("no flock on this system: a second bot on %s is not refused",
                        database)
            return cls(path, None)
        make_folder(database)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise DatabaseUnusable(database, _cannot_lock(database, path, exc)) from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = _holder(fd)
            os.close(fd)
            if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise DatabaseUnusable(database, _cannot_lock(database, path, exc)) from exc
            who = f" (process {holder})" if holder else ""
            raise DatabaseInUse(database, f"another mahjong-bot{who} is already running on "
                                          f"the database {database}: stop it first, or "
                                          "give this one its own DATABASE_PATH (a SQLite "
                                          "database serves one process; several bot "
                                          "processes share a PostgreSQL one: "
                                          "DATABASE_URL)") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        return cls(path, fd)

    def release(self) -> None:
        """Let another process have the database (idempotent)."""
        if self._fd is not None and fcntl is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
        self._fd = None

    def __enter__(self) -> ProcessLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


PROC_LOCKS = Path("/proc/locks")


def holder(database: str | Path) -> str | None:
    """Who holds the database's lock: None when no process does (or no lock can be
    read: no file, no ``flock``), else the holder's process id as it wrote it ("" if
    unreadable). For `mahjong-bot status`. Read from Linux's table of locks when there
    is one, taking nothing (a bot starting at that moment is never refused); else by
    taking a shared lock for an instant."""
    path = lock_path(database)
    if fcntl is None or not path.is_file():  # pragma: no cover - Windows
        return None
    listed = _listed_holder(path)
    if listed is not None:
        return listed or None
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:  # a shared lock: refused while a bot holds its exclusive one
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return _holder(fd)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def _listed_holder(path: Path) -> str | None:
    """The holder's process id from ``/proc/locks`` ("" when nobody holds ``path``),
    or None where that table cannot be read."""
    try:
        st = path.stat()
        table = PROC_LOCKS.read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    for line in table.splitlines():
        fields = line.split()
        # "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; a waiter's line has "->"
        if len(fields) < 6 or fields[1] != "FLOCK" or "->" in fields:
            continue
        major, minor, inode = [*fields[5].split(":"), "", "", ""][:3]
        try:
            same = (int(major, 16), int(minor, 16), int(inode)) == (
                os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
        except ValueError:
            continue
        if same and fields[3] == "WRITE":
            return fields[4]
    return ""


def _holder(fd: int) -> str:
    """The process id the holder wrote in the lock file ("" if unknown)."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return text if text.isdigit() else ""


def _cannot_lock(database: str | Path, path: Path, exc: OSError) -> str:
    return (f"the lock file {path} of the database {database} cannot be written "
            f"({exc.strerror}): give the bot's user write access to the folder "
            f"{path.parent}")
