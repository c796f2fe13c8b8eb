"""The bot's configuration, read once at start-up from the environment and ``.env``.

Values already in the environment win over ``.env`` (so a deployment can override a
developer's file). Bad values fail at start-up with a message naming the variable,
rather than as a confusing error the first time a table is created. A message repeats
at most the start of a bad value (`shown`), and nothing of a DATABASE_URL: it may hold
a password.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

DEFAULT_DATABASE_PATH = Path("mahjong.sqlite3")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


MAX_SHOWN = 24
"""What a message repeats of a bad value, at most."""


class ConfigError(ValueError):
    """A configuration value is missing or malformed; the message says which and why."""


def shown(raw: str) -> str:
    """A bad value as a message repeats it: quoted, clipped to `MAX_SHOWN`."""
    return repr(raw if len(raw) <= MAX_SHOWN else raw[:MAX_SHOWN - 1] + "…")


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
    log_format: str = "text"
    """``LOG_FORMAT``: "text" (a line of words per event) or "json" (a JSON object per
    line)."""
    metrics_port: int | None = None
    """``METRICS_PORT``: serve Prometheus's metrics there (bot/metrics.py); None: off."""
    metrics_host: str = "127.0.0.1"
    """``METRICS_HOST``: the address the metrics endpoint listens on."""
    idle_after: int = 600
    """``IDLE_AFTER``: seconds a table nobody uses stays in memory (then it is loaded
    again from the database on its next click, command or deadline)."""

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
        return logging.getLevelNamesMapping()[self.log_level]

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
                   shard_count=shard_count, shard_ids=shard_ids,
                   log_format=_log_format(values), metrics_port=_metrics_port(values),
                   metrics_host=_text(values, "METRICS_HOST") or "127.0.0.1",
                   idle_after=_idle_after(values))


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
        raise ConfigError(f"DATABASE_PATH must name a file, but {shown(raw)} is a directory "
                          "(try adding /mahjong.sqlite3)")
    return path


def _database_url(values: Mapping[str, str]) -> str | Path | None:
    """DATABASE_URL: a PostgreSQL URL (kept as text), a ``sqlite:///path`` (as the path),
    or None when unset."""
    raw = _text(values, "DATABASE_URL")
    if raw is None:
        return None
    if raw.startswith(("postgresql://", "postgres://")):
        _check_hosts(raw)
        return raw
    if raw.startswith("sqlite:///"):
        path = raw.removeprefix("sqlite:///")
        if not path.strip():
            raise ConfigError("DATABASE_URL=sqlite:/// names no file: write the file's path "
                              "after it (sqlite:///data/mahjong.sqlite3), or leave "
                              "DATABASE_URL empty to use SQLite at DATABASE_PATH")
        return _database_path({"DATABASE_PATH": path})
    # never repeated: a password pasted alone would be printed; a scheme (mysql://) is
    scheme = re.match(r"([a-z][a-z0-9+.-]{0,19})://", raw)
    said = f", not {scheme[1]}://" if scheme else ""
    raise ConfigError(f"DATABASE_URL must start with postgresql:// or sqlite:///{said}; "
                      "leave it empty to use SQLite at DATABASE_PATH")


def _check_hosts(url: str) -> None:
    """Refuse a PostgreSQL URL whose hosts and ports cannot be read (the driver would
    fail with a traceback, or read the user as the host), saying why without repeating
    any of it. Several hosts (``h1:5432,h2:5433``) and a host given in the query
    (``postgresql:///db?host=/run/postgresql``) are PostgreSQL's own forms, accepted."""
    netloc = re.split(r"[/?#]", url.split("://", 1)[1], maxsplit=1)[0]
    encode = ("; a user name or password holding / ? # @ : [ ] must be percent-encoded "
              "(/ is %2F)")
    hosts = netloc.rpartition("@")[2]
    for host in hosts.split(",") if hosts else ():
        if host.startswith("["):
            address, bracket, port = host[1:].partition("]")
            if not bracket:
                raise ConfigError("DATABASE_URL has an IPv6 host without its closing ] "
                                  "(write postgresql://user:password@[::1]:5432/db)" + encode)
            if port and not port.startswith(":"):
                raise ConfigError("DATABASE_URL has text after an IPv6 host's ]: only "
                                  ":port may follow it" + encode)
            port = port[1:]
        else:
            address, _, port = host.partition(":")
            if "[" in host or "]" in host:
                raise ConfigError("DATABASE_URL has a [ or ] outside an IPv6 host "
                                  "([::1])" + encode)
        if port and not (port.isascii() and port.isdigit() and len(port) <= 5
                         and 1 <= int(port) <= 65535):
            raise ConfigError("DATABASE_URL's port must be a number from 1 to 65535 (as in "
                              "postgresql://user:password@host:5432/db)" + encode)
        if not address and port:
            raise ConfigError("DATABASE_URL has a port without a host" + encode)


def _guild_id(values: Mapping[str, str]) -> int | None:
    raw = _text(values, "DEV_GUILD_ID")
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= MAX_SNOWFLAKE_DIGITS) or \
            not 0 < int(raw) < 2**64:
        raise ConfigError(f"DEV_GUILD_ID must be a server id (a positive whole number such as "
                          f"123456789012345678), not {shown(raw)}; leave it empty for global "
                          "sync")
    return int(raw)


MAX_SNOWFLAKE_DIGITS = 20
"""Discord's ids are 64-bit numbers: 20 digits at most."""


def _log_level(values: Mapping[str, str]) -> str:
    raw = _text(values, "LOG_LEVEL")
    if raw is None:
        return "INFO"
    level = raw.upper()
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {shown(raw)}")
    return level


LOG_FORMATS = ("text", "json")


def _choice(values: Mapping[str, str], name: str, choices: tuple[str, ...]) -> str:
    """A setting that is one of ``choices`` (any case; unset: the first)."""
    raw = _text(values, name)
    if raw is None:
        return choices[0]
    if raw.lower() not in choices:
        named = ", ".join(choices[:-1]) + " or " + choices[-1]
        raise ConfigError(f"{name} must be {named}, not {shown(raw)}")
    return raw.lower()


def _log_format(values: Mapping[str, str]) -> str:
    return _choice(values, "LOG_FORMAT", LOG_FORMATS)


def _metrics_port(values: Mapping[str, str]) -> int | None:
    raw = _text(values, "METRICS_PORT")
    return None if raw is None else _whole("METRICS_PORT", raw, 1, 65535)


def _idle_after(values: Mapping[str, str]) -> int:
    raw = _text(values, "IDLE_AFTER")
    return 600 if raw is None else _whole("IDLE_AFTER", raw, 1, 7 * 24 * 3600)


SYNC_CHOICES = ("changed", "always", "never")


def _sync_commands(values: Mapping[str, str]) -> str:
    return _choice(values, "SYNC_COMMANDS", SYNC_CHOICES)


MAX_SHARDS = 4096
"""Far beyond any bot this serves; a typo such as 20000 is caught at start-up."""


def _whole(name: str, raw: str, low: int, high: int) -> int:
    if not (raw.isascii() and raw.isdigit() and len(raw) <= len(str(high))) or \
            not low <= int(raw) <= high:
        raise ConfigError(f"{name} must be a whole number from {low} to {high}, not "
                          f"{shown(raw)}")
    return int(raw)


def _shards(values: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` (the bot's shards in all) and ``SHARD_IDS`` (this process's, comma
    separated, each below the count); ids without a count mean nothing, so they are refused."""
    raw_count, raw_ids = _text(values, "SHARD_COUNT"), _text(values, "SHARD_IDS")
    if raw_count is None:
        if raw_ids is not None:
            raise ConfigError(f"SHARD_IDS={shown(raw_ids)} needs SHARD_COUNT (how many shards the "
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
                              f"(such as 0,1), not {shown(raw_ids)}")
        if len(part) > len(str(count)) or int(part) >= count:
            number = str(int(part)) if len(part) <= MAX_SHOWN else part[:MAX_SHOWN - 1] + "…"
            raise ConfigError(f"SHARD_IDS names shard {number}, but SHARD_COUNT={count} "
                              f"numbers the shards 0 to {count - 1}")
        if int(part) in ids:
            raise ConfigError(f"SHARD_IDS names shard {int(part)} twice")
        ids.append(int(part))
    return count, tuple(sorted(ids))
