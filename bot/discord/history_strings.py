"""The texts of ``/mahjong history`` (history.py), in English and 简体中文, by key.

A feature's strings module: what that means and what holds it, `bot.discord.core.i18n`.
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
