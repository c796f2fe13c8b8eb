"""The texts of ``/mahjong history`` (history.py), in English and 简体中文, by key.

A leaf module (it imports nothing): `bot.discord.core.i18n` lists it and puts its
tables in the one lookup, so a key is found whatever was imported first. Both tables
hold the same keys with the same fields (tests/discord/test_discord_i18n.py), and
every key this feature uses is here or among core's shared ones
(tests/discord/test_feature_layout.py).
"""

from __future__ import annotations

EN: dict[str, str] = {
    "reply.history.title": "Table #{table}: hand {hand}",
    "reply.history.attached": "The whole hand is in the attached file; its end:",
}

ZH: dict[str, str] = {
    "reply.history.title": "第 {table} 桌：第 {hand} 局",
    "reply.history.attached": "整局记录见附件；结尾如下：",
}
