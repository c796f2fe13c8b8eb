"""The bot's configuration, read once at start-up from the environment and ``.env``.

Values already in the environment win over ``.env`` (so a deployment can override a
developer's file). Bad values fail at start-up with a message naming the variable,
rather than as a confusing error the first time a table is created.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

DEFAULT_DATABASE_PATH = Path("mahjong.sqlite3")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(ValueError):
    """A configuration value is missing or malformed; the message says which and why."""


@dataclass(frozen=True)
class Config:
    """Settings of one bot process. ``repr`` never shows the token."""

    discord_token: str | None = field(default=None, repr=False)
    database_path: Path = DEFAULT_DATABASE_PATH
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    sync_commands: str = "changed"
    """When a start syncs the slash commands: "changed" (the tree differs from the last
    sync to that scope), "always", or "never"."""
    database_url: str | None = field(default=None, repr=False)
    """A PostgreSQL URL (``postgresql://…``), or None for SQLite at ``database_path``;
    never in ``repr``: it may hold a password."""

    shard_count: int | None = None
    """Discord shards of the whole bot (``SHARD_COUNT``); None: one unsharded client."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (``SHARD_IDS``); None with a count: all of them."""

    @property
    def database(self) -> Path | str:
        """What `Store.open` takes: the PostgreSQL URL if set, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def shared_database(self) -> bool:
        """Whether other bot processes may use the database too (PostgreSQL)."""
        return self.database_url is not None

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def own_shards(self) -> tuple[int, ...]:
        """The shards this process connects (all of them unless ``SHARD_IDS`` says)."""
        if self.shard_count is None:
            return ()
        return self.shard_ids if self.shard_ids is not None else tuple(range(self.shard_count))

    @property
    def shares_shards(self) -> bool:
        """Whether other processes run the bot's other shards (so they share a database)."""
        return self.shard_count is not None and len(self.own_shards) < self.shard_count

    @property
    def log_level_number(self) -> int:
        """The level for `logging.basicConfig` and friends."""
        return logging.getLevelName(self.log_level)

    def require_token(self) -> str:
        """The token, for the command that actually connects to Discord."""
        if not self.discord_token:
            raise ConfigError("DISCORD_TOKEN is not set: put the bot token from the Discord "
                              "developer portal in the environment or in .env")
        return self.discord_token

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, *,
                 env_file: str | Path | None = ".env") -> Config:
        """Read the settings from ``environ`` (default ``os.environ``) over ``env_file``."""
        values = _merged(os.environ if environ is None else environ, env_file)
        shard_count, shard_ids = _shards(values)
        url = _database_url(values)
        return cls(discord_token=_text(values, "DISCORD_TOKEN"),
                   database_path=url if isinstance(url, Path) else _database_path(values),
                   database_url=url if isinstance(url, str) else None,
                   dev_guild_id=_guild_id(values),
                   log_level=_log_level(values),
                   sync_commands=_sync_commands(values),
                   shard_count=shard_count, shard_ids=shard_ids)


def _merged(environ: Mapping[str, str], env_file: str | Path | None) -> dict[str, str]:
    values: dict[str, str] = {}
    if env_file is not None and Path(env_file).is_file():
        values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    values.update(environ)
    return values


def _text(values: Mapping[str, str], name: str) -> str | None:
    """The trimmed value, or None when unset or blank (blank lines in .env.example)."""
    value = values.get(name, "").strip()
    return value or None


def _database_path(values: Mapping[str, str]) -> Path:
    raw = _text(values, "DATABASE_PATH")
    if raw is None:
        return DEFAULT_DATABASE_PATH
    path = Path(raw).expanduser()
    if path.is_dir():
        raise ConfigError(f"DATABASE_PATH must name a file, but {raw!r} is a directory "
                          "(try adding /mahjong.sqlite3)")
    return path


def _database_url(values: Mapping[str, str]) -> str | Path | None:
    """DATABASE_URL: a PostgreSQL URL (kept as text), a ``sqlite:///path`` (as the path),
    or None when unset."""
    raw = _text(values, "DATABASE_URL")
    if raw is None:
        return None
    if raw.startswith(("postgresql://", "postgres://")):
        return raw
    if raw.startswith("sqlite:///"):
        return _database_path({"DATABASE_PATH": raw.removeprefix("sqlite:///")})
    scheme = raw.split(":", 1)[0] if ":" in raw else raw[:20]
    raise ConfigError(f"DATABASE_URL must start with postgresql:// or sqlite:///, not "
                      f"{scheme!r}; leave it empty to use SQLite at DATABASE_PATH")


def _guild_id(values: Mapping[str, str]) -> int | None:
    raw = _text(values, "DEV_GUILD_ID")
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit()) or int(raw) <= 0:
        raise ConfigError(f"DEV_GUILD_ID must be a server id (a positive whole number such as "
                          f"123456789012345678), not {raw!r}; leave it empty for global sync")
    return int(raw)


def _log_level(values: Mapping[str, str]) -> str:
    raw = _text(values, "LOG_LEVEL")
    if raw is None:
        return "INFO"
    level = raw.upper()
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {raw!r}")
    return level


SYNC_CHOICES = ("changed", "always", "never")


def _sync_commands(values: Mapping[str, str]) -> str:
    raw = _text(values, "SYNC_COMMANDS")
    if raw is None:
        return "changed"
    if raw.lower() not in SYNC_CHOICES:
        raise ConfigError(f"SYNC_COMMANDS must be changed, always or never, not {raw!r}")
    return raw.lower()


MAX_SHARDS = 4096
"""Far beyond any bot this serves; a typo such as 20000 is caught at start-up."""


def _whole(name: str, raw: str, low: int, high: int) -> int:
    if not (raw.isascii() and raw.isdigit()) or not low <= int(raw) <= high:
        raise ConfigError(f"{name} must be a whole number from {low} to {high}, not {raw!r}")
    return int(raw)


def _shards(values: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` (the bot's shards in all) and ``SHARD_IDS`` (this process's, comma
    separated, each below the count); ids without a count mean nothing, so they are refused."""
    raw_count, raw_ids = _text(values, "SHARD_COUNT"), _text(values, "SHARD_IDS")
    if raw_count is None:
        if raw_ids is not None:
            raise ConfigError(f"SHARD_IDS={raw_ids!r} needs SHARD_COUNT (how many shards the "
                              "whole bot has, across all its processes)")
        return None, None
    count = _whole("SHARD_COUNT", raw_count, 1, MAX_SHARDS)
    if raw_ids is None:
        return count, None
    ids: list[int] = []
    for part in raw_ids.split(","):
        part = part.strip()
        if not (part.isascii() and part.isdigit()):
            raise ConfigError(f"SHARD_IDS must be shard numbers separated by commas "
                              f"(such as 0,1), not {raw_ids!r}")
        if int(part) >= count:
            raise ConfigError(f"SHARD_IDS names shard {int(part)}, but SHARD_COUNT={count} "
                              f"numbers the shards 0 to {count - 1}")
        if int(part) in ids:
            raise ConfigError(f"SHARD_IDS names shard {int(part)} twice")
        ids.append(int(part))
    return count, tuple(sorted(ids))
