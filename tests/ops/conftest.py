"""The admin commands' tests use the store tests' databases: ``database`` (a SQLite file
and a fresh PostgreSQL database), ``store`` on it, ``new_game`` (a table in play)."""

from tests.store.conftest import database, db_path, new_game, store

__all__ = ["database", "db_path", "new_game", "store"]
