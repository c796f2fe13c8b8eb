"""deploy/: the systemd unit says what running as a service needs (its user, working
folder, settings file, restart on failure but not on a refused start, and a stop
timeout longer than the bot's drain), and the example settings, like .env.example,
name only settings the bot reads — all of them in .env.example."""

from __future__ import annotations

import re
from pathlib import Path

from bot.config import Config

ROOT = Path(__file__).resolve().parents[2]
DRAIN_S = 2 * 10.0
"""The bot's stop waits up to 10 s for the interactions in flight, then up to 10 s
for the queued deliveries (`MahjongBot.shutdown`)."""


def unit() -> dict[str, list[str]]:
    keys: dict[str, list[str]] = {}
    for line in (ROOT / "deploy" / "mahjong-bot.service").read_text().splitlines():
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            keys.setdefault(key, []).append(value)
    return keys


def settings_read() -> set[str]:
    source = (ROOT / "bot" / "config.py").read_text()
    return set(re.findall(r'values, "([A-Z_]+)"', source))


def settings_in(path: Path) -> set[str]:
    return set(re.findall(r"^#? ?([A-Z_]+)=", path.read_text(), re.M))


def test_the_unit_runs_the_bot_as_a_service() -> None:
    keys = unit()
    assert keys["User"] and keys["WorkingDirectory"] and keys["EnvironmentFile"]
    assert keys["ExecStart"][0].endswith("/mahjong-bot")
    assert keys["Restart"] == ["on-failure"]
    assert keys["RestartPreventExitStatus"] == ["2"]  # a refused start is not retried
    assert keys["KillSignal"] == ["SIGTERM"]
    assert float(keys["TimeoutStopSec"][0]) > DRAIN_S
    assert keys["WorkingDirectory"][0] in keys["ReadWritePaths"][0]


def test_every_setting_is_in_env_example_and_none_unknown() -> None:
    read = settings_read()
    assert {"DISCORD_TOKEN", "LOG_FORMAT", "METRICS_PORT", "METRICS_HOST"} <= read
    assert settings_in(ROOT / ".env.example") == read
    service_env = ROOT / "deploy" / "mahjong-bot.env.example"
    assert settings_in(service_env) <= read
    assert Config.from_env({}, env_file=service_env).database_path == Path("mahjong.sqlite3")
