"""The texts of ``/mahjong ratings rebuild`` (ratings.py) and of a rating as players read
it, in English and 简体中文, by key.

A feature's strings module: what that means and what holds it, `bot.discord.core.i18n`.
"""

from __future__ import annotations

EN: dict[str, str] = {
    "rating.value": "{shown}",
    "rating.provisional": "{shown}?",
    "reply.ratings.rebuilt": "**Ratings rebuilt** for this server: {matches} finished "
                             "match(es) replayed in order, {rated} of them rated (matches with "
                             "two or more computers are not); {people} player(s) rated.",
    "reply.ratings.unchanged": "No rating moved: they were already what the matches give.",
    "reply.ratings.moved": "Moved ({n}):",
    "reply.ratings.line": "{who} · {rules}: {before} → {after}",
    "reply.ratings.none": "none",
    "reply.ratings.more": "… and {n} more.",
}

ZH: dict[str, str] = {
    "rating.value": "{shown}",
    "rating.provisional": "{shown}（定级中）",
    "reply.ratings.rebuilt": "**本服务器的等级分已重建**：按顺序重放了 {matches} 场"
                             "已结束的对局，其中 {rated} 场计分（有两个或更多电脑玩家的"
                             "对局不计）；共 {people} 名玩家有等级分。",
    "reply.ratings.unchanged": "没有等级分变动：原来的就与对局结果一致。",
    "reply.ratings.moved": "变动（{n}）：",
    "reply.ratings.line": "{who} · {rules}：{before} → {after}",
    "reply.ratings.none": "无",
    "reply.ratings.more": "……还有 {n} 项。",
}
