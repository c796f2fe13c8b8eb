"""The texts of the replies of the ``/mahjong`` commands that answer in commands.py
itself, and the calculator's ``win`` choices, in English and 简体中文, by key.

A feature's strings module: what that means and what holds it, `bot.discord.core.i18n`.
"""

from __future__ import annotations

EN: dict[str, str] = {
    "reply.created": "Table #{table} is open: press Join to take a seat.",
    "reply.joined": "{name} sits down at seat {seat}.",
    "reply.left": "{name} leaves the table.",
    "reply.computer_added": "A computer player sits down at seat {seat}.",
    "reply.started": "The match at table #{table} begins: check your DMs.",
    "reply.cancelled": "Table #{table} is cancelled.",
    "reply.history.empty": "No hand has finished at this table yet.",
    "choice.win.self_draw": "Self-draw 自摸",
    "choice.win.discard": "On a discard 点炮",
    "choice.win.rob_kong": "Robbing a kong 抢杠",
    "reply.score.no_table": "Give a hand and a winning tile to score it, or use this in a "
                            "channel with a table for its match totals.",
    "reply.table.none": "No hand is being played at table #{table} right now.",
}

ZH: dict[str, str] = {
    "reply.created": "第 {table} 桌已开：按「加入」入座。",
    "reply.joined": "{name} 坐到了 {seat} 号座位。",
    "reply.left": "{name} 离开了牌桌。",
    "reply.computer_added": "一位电脑玩家坐到了 {seat} 号座位。",
    "reply.started": "第 {table} 桌开始对局：请查看私信。",
    "reply.cancelled": "第 {table} 桌已取消。",
    "reply.history.empty": "这张牌桌还没有打完的牌局。",
    "choice.win.self_draw": "自摸",
    "choice.win.discard": "点炮",
    "choice.win.rob_kong": "抢杠",
    "reply.score.no_table": "给出手牌和胡的牌即可算分；在有牌桌的频道里不填则显示本场比分。",
    "reply.table.none": "第 {table} 桌现在没有在打的牌局。",
}
