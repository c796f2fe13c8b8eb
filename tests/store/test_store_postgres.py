"""PostgreSQL's own side: choosing it by URL, and a server that cannot be used told in
one line that never shows the URL's password."""

from __future__ import annotations

import asyncio
import traceback
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.store import DatabaseUnusable, SchemaTooNew, Store, load_migrations
from bot.store.postgres import masked
from bot.store.sqlite import sqlite_path
from tests.pgcluster import Server, free_port, with_database

SECRET = "s3cr3t-Pa55"


def with_password(url: str, password: str) -> str:
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:{password}@{host}"))


def test_the_password_is_masked() -> None:
    assert masked(f"postgresql://bot:{SECRET}@db.example:5432/mahjong") == \
        "postgresql://bot:***@db.example:5432/mahjong"
    assert masked("postgres://db.example/mahjong") == "postgres://db.example/mahjong"


def test_sqlite_urls_read_as_paths() -> None:
    assert sqlite_path("sqlite:///data/x.sqlite3") == "data/x.sqlite3"
    assert sqlite_path("sqlite:////srv/x.sqlite3") == "/srv/x.sqlite3"
    assert sqlite_path(Path("x.sqlite3")) == Path("x.sqlite3")


async def test_an_unreachable_server_is_told_without_the_password() -> None:
    url = f"postgresql://bot:{SECRET}@127.0.0.1:{free_port()}/mahjong"
    with pytest.raises(DatabaseUnusable) as caught:
        await Store.open(url)
    told = str(caught.value)
    assert "cannot be reached" in told and "DATABASE_URL" in told and "\n" not in told
    assert SECRET not in told and SECRET not in str(caught.value.path)
    printed = "".join(traceback.format_exception(caught.value))  # as a log would show it
    assert SECRET not in printed and "cannot be reached" in printed


async def test_a_wrong_password_is_told_without_either_password(pg_server: Server) -> None:
    url = with_password(pg_server.url, SECRET)
    with pytest.raises(DatabaseUnusable, match="refused the user 'postgres'") as caught:
        await Store.open(url)
    real = urlsplit(pg_server.url).password
    assert real and real not in str(caught.value) and SECRET not in str(caught.value)


async def test_a_missing_database_says_how_to_create_it(pg_server: Server) -> None:
    url = with_database(pg_server.url, "no_such_mahjong_db")
    with pytest.raises(DatabaseUnusable, match="createdb no_such_mahjong_db"):
        await Store.open(url)


async def test_two_bots_starting_at_once_on_an_empty_database(pg_server: Server) -> None:
    url = await pg_server.database(migrated=False)
    try:
        first, second = await asyncio.gather(Store.open(url), Store.open(url))
        rows = await first._db.all("SELECT version, name FROM schema_version ORDER BY 1")
        assert [(r[0], r[1]) for r in rows] == [
            (m.version, m.name) for m in load_migrations(dialect="postgres")]
        await first.close()
        await second.close()
    finally:
        await pg_server.drop(url)


async def test_a_newer_database_is_refused(pg_url: str) -> None:
    store = await Store.open(pg_url)
    await store._db.execute("INSERT INTO schema_version VALUES (999, '0999_future', 0)")
    await store.close()
    with pytest.raises(SchemaTooNew):
        await Store.open(pg_url)
