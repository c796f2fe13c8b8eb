"""A throwaway PostgreSQL server for tests, benches and CI: ``initdb`` into a temporary
folder, ``pg_ctl start`` on a free port of 127.0.0.1, ``pg_ctl stop -m immediate`` and
delete at the end. Nothing here is kept: fsync is off.

PostgreSQL refuses to run as root, so as root the server runs as the ``postgres`` user
(``runuser``) and the folder is given to it. The superuser gets a random password and
the server asks for it over TCP (scram-sha-256), as a real one would.

From Python::

    with Cluster.start() as cluster:       # or server_url() in tests: the env's or ours
        url = cluster.url                  # postgresql://postgres:…@127.0.0.1:port/postgres

From a shell (``.ci/run``): ``python -m tests.pgcluster start FOLDER`` prints the URL
(run it as root or not); ``python -m tests.pgcluster stop FOLDER`` stops and deletes.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ENV_URL = "MAHJONG_TEST_POSTGRES"
"""A server where tests may create databases; when set, no cluster is started."""

RUN_AS = "postgres"
_BIN_DIRS = ("/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin",
             "/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/14/bin")
_SETTINGS = ("max_connections=200", "unix_socket_directories=")
_THROWAWAY = ("fsync=off", "full_page_writes=off", "synchronous_commit=off")
"""Nothing a test writes is worth an fsync; a bench's cluster (``durable``) keeps them."""


class ClusterUnavailable(RuntimeError):
    """No PostgreSQL server binaries here (the tests that need one are skipped)."""


def pg_bin(tool: str) -> str:
    """The path of ``initdb`` or ``pg_ctl``: on PATH, else Debian's versioned folders."""
    found = shutil.which(tool)
    if found:
        return found
    for folder in _BIN_DIRS:
        candidate = Path(folder) / tool
        if candidate.is_file():
            return str(candidate)
    raise ClusterUnavailable(f"no PostgreSQL server binaries ({tool} is neither on PATH nor "
                             f"in /usr/lib/postgresql/*/bin): install PostgreSQL, or set "
                             f"{ENV_URL} to a server where the tests may create databases")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_owner(argv: list[str]) -> list[str]:
    """``argv`` as the server's user: itself when not root, else through runuser."""
    if os.geteuid() != 0:
        return argv
    return ["runuser", "-u", RUN_AS, "--", *argv]


@dataclass
class Cluster:
    folder: Path
    url: str

    @classmethod
    def start(cls, folder: Path | None = None, *, durable: bool = False) -> Cluster:
        """initdb + start in ``folder`` (a new temporary one by default); ``durable``
        keeps PostgreSQL's default fsync at every commit (for benches)."""
        initdb, pg_ctl = pg_bin("initdb"), pg_bin("pg_ctl")
        folder = Path(folder or tempfile.mkdtemp(prefix="mahjong-pg-"))
        folder.mkdir(parents=True, exist_ok=True)
        password = secrets.token_hex(12)
        _private(folder / "pw", password)
        if os.geteuid() == 0:
            user = pwd.getpwnam(RUN_AS)
            os.chown(folder, user.pw_uid, user.pw_gid)
            os.chown(folder / "pw", user.pw_uid, user.pw_gid)
        data = folder / "data"
        _run(_as_owner([initdb, "-D", str(data), "-U", "postgres", "--pwfile",
                        str(folder / "pw"), "--auth-local=trust",
                        "--auth-host=scram-sha-256", "-E", "UTF8", "--no-instructions"]))
        port = free_port()
        settings = _SETTINGS if durable else _SETTINGS + _THROWAWAY
        options = " ".join(f"-c {s}" for s in settings)
        _run(_as_owner([pg_ctl, "-D", str(data), "-l", str(folder / "log"), "-w", "-o",
                        f"-p {port} -c listen_addresses=127.0.0.1 {options}", "start"]))
        url = f"postgresql://postgres:{password}@127.0.0.1:{port}/postgres"
        _private(folder / "url", url)
        return cls(folder, url)

    def stop(self) -> None:
        """Stop at once (nothing is worth keeping) and delete the folder."""
        stop(self.folder)

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def stop(folder: Path) -> None:
    data = folder / "data"
    if (data / "postmaster.pid").exists():
        subprocess.run(_as_owner([pg_bin("pg_ctl"), "-D", str(data), "-m", "immediate",
                                  "-w", "stop"]), capture_output=True, check=False)
    shutil.rmtree(folder, ignore_errors=True)


def _private(path: Path, text: str) -> None:
    """Write a file only its owner may read (it holds the password)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(text + "\n")


def _run(argv: list[str]) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:4])}… failed ({done.returncode}): "
                           f"{(done.stderr or done.stdout).strip()[-800:]}")


def with_database(url: str, name: str) -> str:
    """The same server's URL for database ``name``."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def fresh_name(prefix: str = "t") -> str:
    return f"{prefix}_{uuid.uuid4().hex[:16]}"


async def create_database(url: str, name: str, template: str | None = None) -> str:
    """CREATE DATABASE ``name`` (as a copy of ``template``); returns its URL."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        copy = f' TEMPLATE "{template}" STRATEGY FILE_COPY' if template else ""
        await conn.execute(f'CREATE DATABASE "{name}"{copy}')
    finally:
        await conn.close()
    return with_database(url, name)


async def drop_database(url: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


class Server:
    """The PostgreSQL server of a test session: ``MAHJONG_TEST_POSTGRES`` when set, else
    a cluster of our own, started on first use and stopped by `close`. Databases are
    made from a template migrated once, so each test's is fresh and quick to make."""

    def __init__(self) -> None:
        self._cluster: Cluster | None = None
        self._url = os.environ.get(ENV_URL) or None
        self._template: str | None = None

    @property
    def url(self) -> str:
        """The server's maintenance URL (raises `ClusterUnavailable` without binaries)."""
        if self._url is None:
            self._cluster = Cluster.start()
            self._url = self._cluster.url
        return self._url

    async def template(self) -> str:
        """The name of a database with every migration applied (made once)."""
        if self._template is None:
            from bot.store import Store

            name = fresh_name("template")
            url = await create_database(self.url, name)
            await (await Store.open(url)).close()
            self._template = name
        return self._template

    async def database(self, *, migrated: bool = True) -> str:
        """A new database (migrated, or empty); its URL."""
        template = await self.template() if migrated else None
        return await create_database(self.url, fresh_name(), template)

    async def drop(self, url: str) -> None:
        await drop_database(self.url, urlsplit(url).path.lstrip("/"))

    def close(self) -> None:
        if self._cluster is not None:
            self._cluster.stop()
        elif self._template is not None and self._url is not None:
            import asyncio

            asyncio.run(drop_database(self._url, self._template))


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("start", "stop"):
        sys.stderr.write("usage: python -m tests.pgcluster start|stop FOLDER\n")
        return 2
    folder = Path(argv[1])
    if argv[0] == "stop":
        stop(folder)
        return 0
    try:
        print(Cluster.start(folder).url)
    except ClusterUnavailable as exc:
        sys.stderr.write(f"{exc}\n")
        return 3
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
