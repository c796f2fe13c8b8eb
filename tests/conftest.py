"""Shared test helpers."""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

from tests.pgcluster import ClusterUnavailable, Server

# Hypothesis keeps failing examples in a database under `.hypothesis/` in the working
# directory. The tests leave no files in the checkout, and every test using Hypothesis
# runs derandomized, so a failure replays without one.
settings.register_profile("no-files", database=None)
settings.load_profile("no-files")


WORKERS = 3
"""How many processes `python -m pytest` runs the tests in (pytest-xdist), unless the
command line says (``-n 4``, ``-n auto``; ``-n 0`` or ``-p no:xdist`` run them in
pytest's own process, for a debugger). One more than CI's two cores: the end-to-end
tests spend about half their time waiting on the fake Discord's clock (its 50 ms of
quiet after each of the bot's requests) or on the bot's other processes, which a third
worker fills (83 tests, e2e and CPU-bound mixed, on a busy 2-core machine: 207 and
219 s with three, 217 and 253 s with two)."""


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Parallel by default: `WORKERS` processes, each test sent to the first free one
    (``--dist worksteal``: the long tests do not queue behind each other). Set here
    rather than in pyproject's addopts, where an ``-n`` would be an unknown option once
    pytest-xdist is turned off (``-p no:xdist``). Nothing is changed in xdist's own
    workers, nor when the command line chose, collects only, or debugs (``--pdb``)."""
    option = config.option
    if (not config.pluginmanager.hasplugin("xdist") or hasattr(config, "workerinput")
            or option.numprocesses is not None or option.collectonly or option.usepdb
            or option.trace):
        return
    option.numprocesses = WORKERS
    if option.dist == "no" and not option.distload:
        option.dist = "worksteal"


def pytest_configure(config: pytest.Config) -> None:
    """Hypothesis also caches what it reads from the code under `.hypothesis/` (it starts
    as the test modules are collected): give it a folder of its own for the run."""
    home = Path(tempfile.mkdtemp(prefix="mahjong-tests-hypothesis-"))
    set_hypothesis_home_dir(home)
    config.add_cleanup(lambda: shutil.rmtree(home, ignore_errors=True))

ROOT = Path(__file__).resolve().parents[1]
SHARED_BESIDE = ROOT.parent / "shared" / "cases"
"""The team's scoring cases, when the shared/ folder sits beside the checkout."""
KEPT_CASES = ROOT / "tests" / "cases"
"""A copy of them kept here, so that a checkout alone (CI's clean clone) runs them too;
`tests/engine/test_shared_cases.py` holds it to the shared folder whenever both are
there."""
SHARED_CASES = SHARED_BESIDE if SHARED_BESIDE.is_dir() else KEPT_CASES


@pytest.fixture(autouse=True)
def _logging_as_it_was() -> Iterator[None]:
    """`mahjong-bot`'s main() configures logging for the process; a test that runs it
    must not leave its handler (bound to that test's captured, since closed, stdout)
    to the tests after it."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    libs = {name: logging.getLogger(name).level for name in ("aiosqlite", "discord")}
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, lib_level in libs.items():
        logging.getLogger(name).setLevel(lib_level)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    """The session's PostgreSQL server (`tests.pgcluster.Server`): the one named by
    MAHJONG_TEST_POSTGRES, else a throwaway cluster; the test is skipped, saying why,
    only when there is neither a URL nor PostgreSQL's server binaries."""
    server = Server()
    try:
        server.url  # noqa: B018  # starts the cluster now, once
    except ClusterUnavailable as exc:
        pytest.skip(str(exc))
    yield server
    server.close()


@pytest.fixture
async def pg_url(pg_server: Server) -> AsyncIterator[str]:
    """A fresh PostgreSQL database with every migration applied, dropped afterwards."""
    url = await pg_server.database()
    yield url
    await pg_server.drop(url)
