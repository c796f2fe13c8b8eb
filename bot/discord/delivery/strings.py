"""The texts of delivery: the missing permission told to a table's creator (posting.py),
in English and 简体中文, by key.

A feature's strings module: what that means and what holds it, `bot.discord.core.i18n`.
"""

from __future__ import annotations

EN: dict[str, str] = {
    "perm.missing": "I can't post at table #{table} in <#{channel}>: a permission is missing "
                    "({what}). Please give me View Channel, Send Messages, Embed Links, Attach "
                    "Files and Read Message History there; the game itself goes on.",
}

ZH: dict[str, str] = {
    "perm.missing": "我无法在 <#{channel}> 的第 {table} "
                    "桌发消息：缺少权限（{what}）。请在该频道给我查看频道、发送消息、嵌入链接、"
                    "附加文件和读取消息历史的权限；对局照常进行。",
}
