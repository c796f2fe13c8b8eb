"""The texts of ``/mahjong turns`` and of the digest DM after a person's quiet hours
(turns.py), in English and 简体中文, by key.

A feature's strings module: what that means and what holds it, `bot.discord.core.i18n`.
"""

from __future__ import annotations

EN: dict[str, str] = {
    "reply.turns.title": "**Waiting for you** ({n}), the soonest first:",
    "reply.turns.none": "Nothing waits for you right now: no table has a decision of yours "
                        "open.",
    "turns.digest.title": "**Your quiet hours are over.** Waiting for you ({n}), the soonest "
                          "first:",
    "turns.line": "{n}. {rules} · table #{table} · hand {hand} of {hands}: {what}; decide "
                  "{when} ({at}) · {link}",
    "turns.turn": "your turn",
    "turns.claim": "a discard you may claim",
    "turns.more": "… and {n} more: see `/mahjong turns`.",
}

ZH: dict[str, str] = {
    "reply.turns.title": "**等你决定的牌局**（{n}），最急的在前：",
    "reply.turns.none": "现在没有等你决定的牌局。",
    "turns.digest.title": "**你的免打扰时段结束了。** 等你决定的牌局（{n}），最急的在前：",
    "turns.line": "{n}. {rules} · 第 {table} 桌 · 第 {hand}/{hands} 局：{what}；请在 {when}"
                  "（{at}）前决定 · {link}",
    "turns.turn": "轮到你出牌",
    "turns.claim": "有一张打出的牌等你决定吃碰杠胡或过",
    "turns.more": "……还有 {n} 张牌桌：请用 `/麻将 轮到我` 查看。",
}
