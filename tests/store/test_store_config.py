"""bot.config: environment over .env, defaults, and clear errors for bad values."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pytest

from bot.config import Config, ConfigError


def test_defaults_with_nothing_set(tmp_path: Path) -> None:
    config = Config.from_env({}, env_file=tmp_path / "missing.env")
    assert config == Config(None, Path("mahjong.sqlite3"), None, "INFO")
    assert config.log_level_number == logging.INFO
    with pytest.raises(ConfigError, match="DISCORD_TOKEN is not set"):
        config.require_token()


def test_values_are_parsed() -> None:
    config = Config.from_env({"DISCORD_TOKEN": " abc.def ", "DATABASE_PATH": "/tmp/x/m.db",
                              "DEV_GUILD_ID": "123456789012345678", "LOG_LEVEL": "debug"},
                             env_file=None)
    assert config.require_token() == "abc.def"
    assert config.database_path == Path("/tmp/x/m.db")
    assert config.dev_guild_id == 123456789012345678
    assert (config.log_level, config.log_level_number) == ("DEBUG", logging.DEBUG)


def test_sync_commands_says_when_slash_commands_are_synced() -> None:
    assert Config.from_env({}, env_file=None).sync_commands == "changed"
    for value in ("changed", "ALWAYS", " never "):
        config = Config.from_env({"SYNC_COMMANDS": value}, env_file=None)
        assert config.sync_commands == value.strip().lower()


def test_blank_values_mean_unset() -> None:
    """.env.example ships with blank DISCORD_TOKEN= and DEV_GUILD_ID= lines."""
    config = Config.from_env({"DISCORD_TOKEN": "", "DEV_GUILD_ID": " ", "DATABASE_PATH": "",
                              "LOG_LEVEL": "", "SYNC_COMMANDS": ""}, env_file=None)
    assert config == Config()


def test_env_file_is_read_and_environment_wins(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=from-file\nLOG_LEVEL=WARNING\nDEV_GUILD_ID=42\n",
                   encoding="utf-8")
    config = Config.from_env({"LOG_LEVEL": "ERROR"}, env_file=env)
    assert (config.discord_token, config.log_level, config.dev_guild_id) == (
        "from-file", "ERROR", 42)


def test_example_env_file_is_valid() -> None:
    example = Path(__file__).resolve().parents[2] / ".env.example"
    config = Config.from_env({}, env_file=example)
    assert config.database_path == Path("mahjong.sqlite3") and config.discord_token is None


@pytest.mark.parametrize(("name", "value", "message"), [
    ("DEV_GUILD_ID", "abc", "DEV_GUILD_ID must be a server id"),
    ("DEV_GUILD_ID", "-5", "DEV_GUILD_ID must be a server id"),
    ("DEV_GUILD_ID", "0", "DEV_GUILD_ID must be a server id"),
    ("LOG_LEVEL", "LOUD", "LOG_LEVEL must be one of DEBUG, INFO"),
    ("SYNC_COMMANDS", "sometimes", "SYNC_COMMANDS must be changed, always or never"),
])
def test_bad_values_are_named(name: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as info:
        Config.from_env({name: value}, env_file=None)
    assert repr(value) in str(info.value)


def test_database_path_must_not_be_a_directory(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a directory"):
        Config.from_env({"DATABASE_PATH": str(tmp_path)}, env_file=None)


def test_token_stays_out_of_repr_and_config_is_frozen() -> None:
    config = Config.from_env({"DISCORD_TOKEN": "very-secret"}, env_file=None)
    assert "very-secret" not in repr(config)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.log_level = "DEBUG"  # type: ignore[misc]  # frozen: the test is that it raises


def test_reads_os_environ_by_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LOG_LEVEL", "warning")
    monkeypatch.chdir(tmp_path)  # no .env here
    assert Config.from_env().log_level == "WARNING"


def test_shards_unset_mean_one_unsharded_client() -> None:
    config = Config.from_env({}, env_file=None)
    assert (config.shard_count, config.shard_ids, config.sharded) == (None, None, False)
    assert config.own_shards == () and not config.shares_shards


def test_shard_count_alone_runs_every_shard_in_this_process() -> None:
    config = Config.from_env({"SHARD_COUNT": "3"}, env_file=None)
    assert (config.shard_count, config.shard_ids) == (3, None)
    assert config.own_shards == (0, 1, 2) and not config.shares_shards


def test_shard_ids_name_this_process_s_part() -> None:
    config = Config.from_env({"SHARD_COUNT": "4", "SHARD_IDS": " 3, 1 "}, env_file=None)
    assert config.shard_ids == (1, 3) and config.own_shards == (1, 3)
    assert config.shares_shards


@pytest.mark.parametrize(("values", "message"), [
    ({"SHARD_IDS": "0"}, "SHARD_IDS='0' needs SHARD_COUNT"),
    ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number from 1 to 4096, not '0'"),
    ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "names shard 2, but SHARD_COUNT=2 numbers the "
                                             "shards 0 to 1"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "0;1"}, "separated by commas"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "-1"}, "separated by commas"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "names shard 1 twice"),
])
def test_bad_shard_settings_are_refused_clearly(values: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        Config.from_env(values, env_file=None)
def test_database_url_picks_postgres_and_never_shows_its_password() -> None:
    url = "postgresql://bot:hunter2@db.example:5432/mahjong"
    config = Config.from_env({"DATABASE_URL": url}, env_file=None)
    assert config.database == url and config.database_url == url
    assert "hunter2" not in repr(config)


def test_database_url_may_name_a_sqlite_file(tmp_path: Path) -> None:
    config = Config.from_env({"DATABASE_URL": f"sqlite:///{tmp_path}/m.sqlite3"},
                             env_file=None)
    assert config.database == tmp_path / "m.sqlite3" and config.database_url is None
    assert Config.from_env({}, env_file=None).database == Path("mahjong.sqlite3")


def test_an_unknown_database_url_is_refused() -> None:
    with pytest.raises(ConfigError, match="DATABASE_URL must start with postgresql://"):
        Config.from_env({"DATABASE_URL": "mysql://bot:pw@db/mahjong"}, env_file=None)


def test_idle_after_is_ten_minutes_unless_set_and_refused_clearly_when_wrong() -> None:
    assert Config.from_env({}, env_file=None).idle_after == 600
    assert Config.from_env({"IDLE_AFTER": "30"}, env_file=None).idle_after == 30
    for bad in ("0", "-5", "ten", "1.5"):
        with pytest.raises(ConfigError, match="IDLE_AFTER must be a whole number from 1"):
            Config.from_env({"IDLE_AFTER": bad}, env_file=None)
