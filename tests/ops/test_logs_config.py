"""One line per event (LOG_FORMAT=text, a traceback folded in) or one JSON object per
line (LOG_FORMAT=json); the new settings parsed, a bad value refused naming it."""

from __future__ import annotations

import io
import json
import logging

import pytest

from bot.config import Config, ConfigError
from bot.logs import configure_logging


def logged(json_lines: bool) -> list[str]:
    out = io.StringIO()
    configure_logging(logging.INFO, out, json_lines=json_lines)
    log = logging.getLogger("bot.test")
    log.info("table %s: hand %s dealt", 7, 2)
    try:
        raise ValueError("boom\nsecond line")
    except ValueError:
        log.exception("a delivery failed")
    log.debug("not at INFO")
    return out.getvalue().splitlines()


def test_text_is_one_line_per_event() -> None:
    first, second = logged(json_lines=False)
    assert first.endswith("INFO bot.test: table 7: hand 2 dealt")
    assert "ERROR bot.test: a delivery failed | Traceback (most recent call last):" in second
    assert second.endswith("ValueError: boom | second line")


def test_json_lines() -> None:
    first, second = (json.loads(line) for line in logged(json_lines=True))
    assert {k: first[k] for k in ("level", "logger", "message")} == {
        "level": "INFO", "logger": "bot.test", "message": "table 7: hand 2 dealt"}
    assert first["time"].endswith("Z") and "T" in first["time"]
    assert second["message"] == "a delivery failed"
    assert "ValueError: boom\nsecond line" in second["exception"]


def test_the_new_settings() -> None:
    config = Config.from_env({"LOG_FORMAT": "JSON", "METRICS_PORT": "9108",
                              "METRICS_HOST": "0.0.0.0"}, env_file=None)
    assert (config.log_format, config.metrics_port, config.metrics_host) == (
        "json", 9108, "0.0.0.0")
    default = Config.from_env({}, env_file=None)
    assert (default.log_format, default.metrics_port, default.metrics_host) == (
        "text", None, "127.0.0.1")
    with pytest.raises(ConfigError, match="LOG_FORMAT must be text or json"):
        Config.from_env({"LOG_FORMAT": "xml"}, env_file=None)
    with pytest.raises(ConfigError, match="METRICS_PORT must be a whole number from 1"):
        Config.from_env({"METRICS_PORT": "99999"}, env_file=None)
