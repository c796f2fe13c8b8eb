"""The texts of seasons (``/mahjong season close``, the ``season`` of ``/mahjong
leaderboard``) and of the weekly recap (``/mahjong recap``, its post): seasons.py, in
English and 简体中文, by key.

A feature's strings module: what that means and what holds it, `bot.discord.core.i18n`.
"""

from __future__ import annotations

EN: dict[str, str] = {
    "season.confirm": "Close season {season} of this server? Every channel's leaderboard "
                      "is archived (its past seasons and all time stay readable: "
                      "`/mahjong leaderboard` with a season) and season {next} starts "
                      "empty.",
    "btn.season.close": "Close season {season}",
    "btn.season.keep": "Keep season {season}",
    "season.kept": "Season {season} goes on; nothing changed.",
    "season.done": "Season {season} is closed: {lines} board lines archived, season {next} "
                   "has begun.",
    "season.not_yours": "That button is for the manager who asked to close the season.",
    "chan.season_closed": "**Season {season} of this server is closed: season {next} has "
                          "begun.** Every channel's leaderboard starts again; "
                          "`/mahjong leaderboard` shows past seasons and all time.",
    "chan.season_top": "Top of this channel in season {season}:",
    "chan.season_none": "Nobody ranked in this channel in season {season}.",
    "season.choice.current": "this season ({n})",
    "season.choice.past": "season {n}",
    "season.choice.all": "all time",
    "recap.on": "The weekly recap of this channel is on: every Monday at 09:00 UTC it "
                "sums up the week before here (nothing for a week without hands).",
    "recap.off": "The weekly recap of this channel is off.",
    "recap.title": "**This channel's week {week}:** {hands} hands played.",
    "recap.title.one": "**This channel's week {week}:** 1 hand played.",
    "recap.biggest": "Biggest hand ({rules}): {name}, {hand}",
    "recap.improved": "Most improved rating ({rules}): {name}, +{gain} to {shown}",
    "recap.most_hands": "Most hands played: {name}, {hands}",
    "recap.provisional": "{value} (provisional)",
}

ZH: dict[str, str] = {
    "season.confirm": "结束本服务器的第 {season} 赛季？所有频道的排行榜将存档（往届赛季与历届总榜"
                      "仍可用 `/麻将 排行榜` 选择赛季查看），第 {next} 赛季从零开始。",
    "btn.season.close": "结束第 {season} 赛季",
    "btn.season.keep": "继续第 {season} 赛季",
    "season.kept": "第 {season} 赛季继续，未作改动。",
    "season.done": "第 {season} 赛季已结束：存档 {lines} 条排行记录，第 {next} 赛季开始。",
    "season.not_yours": "这个按钮属于要求结束赛季的那位管理员。",
    "chan.season_closed": "**本服务器第 {season} 赛季结束，第 {next} 赛季开始。**各频道排行榜重新"
                          "计分；`/麻将 排行榜` 可查看往届赛季与历届总榜。",
    "chan.season_top": "本频道第 {season} 赛季前列：",
    "chan.season_none": "本频道第 {season} 赛季无人上榜。",
    "season.choice.current": "本赛季（第 {n} 赛季）",
    "season.choice.past": "第 {n} 赛季",
    "season.choice.all": "历届总榜",
    "recap.on": "本频道的每周回顾已开启：每周一 09:00（UTC）总结上一周（没有牌局的一周不发）。",
    "recap.off": "本频道的每周回顾已关闭。",
    "recap.title": "**本频道第 {week} 周：**共打 {hands} 局。",
    "recap.title.one": "**本频道第 {week} 周：**共打 1 局。",
    "recap.biggest": "最大的一手（{rules}）：{name}，{hand}",
    "recap.improved": "等级分进步最多（{rules}）：{name}，+{gain}，现为 {shown}",
    "recap.most_hands": "打牌最多：{name}，{hands} 局",
    "recap.provisional": "{value}（定级中）",
}
