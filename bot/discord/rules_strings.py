"""The texts of ``/mahjong rules``: the summary, a table's option lines, the hand
picture's legend (rules.py), in English and 简体中文, by key.

A feature's strings module: what that means and what holds it, `bot.discord.core.i18n`.
"""

from __future__ import annotations

EN: dict[str, str] = {
    "legend.title": "Your hand picture: {parts}.",
    "legend.suggested": "the tile outlined in blue is the suggested discard (⭐)",
    "legend.drawn": "the tile set apart on the right is the one you just drew",
    "rules.title": "{rules} rules",
    "rules.options": "Options of this table:",
    "rules.defaults": "Default options (set them with /mahjong new):",
    "rules.patterns": "Patterns: {patterns}",
    "opt.hands": "局数 hands in the match: {value}",
    "opt.turn_timer": "Turn timer: {value}",
    "opt.claim_timer": "Claim timer: {value}",
    "opt.away_after": "Computer takes over after {value} timeouts in a row",
    "opt.away_leaves": "Those timeouts count as leaving the match (逃跑): {value}",
    "opt.mentions": "Channel mentions: {value}",
    "opt.vacation_days": "Days of leave (/mahjong vacation) honoured: {value}",
    "opt.time_bank": "Time bank, each seat per hand: {value}",
    "opt.time_bank_add": "Given back to the time bank after each own move: {value}",
}

ZH: dict[str, str] = {
    "legend.title": "手牌图中：{parts}。",
    "legend.suggested": "蓝框的牌是推荐打出的牌（⭐）",
    "legend.drawn": "单独放在右边的是刚摸到的牌",
    "rules.title": "{rules}规则",
    "rules.options": "本桌选项：",
    "rules.defaults": "默认选项（开桌时可用 /mahjong new 设置）：",
    "rules.patterns": "牌型：{patterns}",
    "opt.hands": "局数：{value}",
    "opt.turn_timer": "出牌时限：{value}",
    "opt.claim_timer": "吃碰时限：{value}",
    "opt.away_after": "连续超时 {value} 次后由电脑托管",
    "opt.away_leaves": "连续超时视为逃跑（离开本场）：{value}",
    "opt.mentions": "频道 @ 提醒：{value}",
    "opt.vacation_days": "接受休假（/mahjong 休假）天数：{value}",
    "opt.time_bank": "每人每局备用时间：{value}",
    "opt.time_bank_add": "每走一步补回备用时间：{value}",
}
