"""The texts of ``/mahjong leaderboard``: its card and text (leaderboard.py), in English
and 简体中文, by key.

A feature's strings module: what that means and what holds it, `bot.discord.core.i18n`.
"""

from __future__ import annotations

EN: dict[str, str] = {
    "reply.leaderboard.title": "Leaderboard of this channel",
    "reply.leaderboard.row": "{rank}. {name}: {points} · {rating} (won {won} of {hands} "
                             "hands)",
    "reply.leaderboard.row.one": "{rank}. {name}: {points} · {rating} (won {won} of {hands} "
                                 "hand)",
    "reply.leaderboard.empty": "No hand has been settled in this channel yet.",
    "reply.leaderboard.rules_empty": "No {rules} hand has been settled in this channel yet.",
    "reply.leaderboard.others": "This channel keeps a {boards} board too: `/mahjong "
                                "leaderboard` with its rules.",
    "board.title": "{rules} leaderboard of this channel",
    "board.name": "Name",
    "board.points": "Points",
    "board.won": "Won",
    "board.matches": "Matches",
    "board.best": "Best hand",
    "best.hand": "{patterns} · {value}",
    "best.plain": "平胡 Plain win",
    "best.repeat": "{name} ×{count}",
    "board.rating": "Rating",
    "board.rating.value": "rating {value}",
    "board.rating.provisional": "rating {value} (provisional)",
    "board.rating.none": "rating —",
    "board.season": "season {n}",
    "board.all_time": "all time",
}

ZH: dict[str, str] = {
    "reply.leaderboard.title": "本频道排行榜",
    "reply.leaderboard.row": "{rank}. {name}：{points} · {rating}（{hands} 局胡 {won} 局）",
    "reply.leaderboard.row.one": "{rank}. {name}：{points} · {rating}（{hands} 局胡 {won} 局）",
    "reply.leaderboard.empty": "本频道还没有结算过的牌局。",
    "reply.leaderboard.rules_empty": "本频道还没有结算过的{rules}牌局。",
    "reply.leaderboard.others": "本频道另有{boards}排行榜：在 `/麻将 排行榜` 中选规则查看。",
    "board.title": "本频道{rules}排行榜",
    "board.name": "玩家",
    "board.points": "积分",
    "board.won": "胡牌",
    "board.matches": "场次",
    "board.best": "最佳牌型",
    "best.hand": "{patterns} · {value}",
    "best.plain": "平胡",
    "best.repeat": "{name} ×{count}",
    "board.rating": "等级分",
    "board.rating.value": "等级分 {value}",
    "board.rating.provisional": "等级分 {value}（定级中）",
    "board.rating.none": "等级分 —",
    "board.season": "第 {n} 赛季",
    "board.all_time": "历届总榜",
}
