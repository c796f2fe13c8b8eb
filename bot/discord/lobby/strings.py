"""The texts of the lobby: its message and buttons, leaving, the options of ``/mahjong
new`` and their choices, computers' names, in English and 简体中文, by key.

A feature's strings module: what that means and what holds it, `bot.discord.core.i18n`.
"""

from __future__ import annotations

EN: dict[str, str] = {
    "choice.default": "{name} (default)",
    "dur.s": "{n} s",
    "dur.min": "{n} min",
    "dur.h": "{n} h",
    "dur.d": "{n} d",
    "val.on": "on",
    "val.off": "off",
    "val.none": "none",
    "choice.mentions.when_needed": "When needed: closed DMs or half the time gone",
    "choice.mentions.every_turn": "Every turn, on top of the DM",
    "val.mentions.when_needed": "only when needed (closed DMs, half-time reminders)",
    "val.mentions.every_turn": "every turn",
    "lobby.title": "{rules} mahjong · table #{table}",
    "lobby.seats": "Seats",
    "lobby.seat": "Seat {seat} ({wind}): {name}",
    "lobby.seat_empty": "Seat {seat} ({wind}): empty",
    "lobby.computer": "🤖 {name}",
    "name.computer": "Computer {n}",
    "name.computer_for": "Computer {n} (for {name})",
    "lobby.away": "{name} (away)",
    "lobby.options": "Options",
    "lobby.status.lobby": "Waiting for players: {free} seat(s) free.",
    "lobby.pace.days": "At this table's pace, about {days} days a match.",
    "lobby.pace.a_day": "At this table's pace, about a day a match.",
    "lobby.pace.under_a_day": "At this table's pace, under a day a match.",
    "lobby.status.playing": "Playing: hand {hand} of {hands}.",
    "lobby.status.finished": "The match is over.",
    "lobby.status.cancelled": "This table was cancelled.",
    "lobby.footer": "Buttons: join, leave, add a computer player, start when four are seated.",
    "btn.join": "Join",
    "btn.leave": "Leave",
    "btn.addbot": "Add computer",
    "btn.start": "Start",
    "leave.confirm.title": "**Leave table #{table} while its match is running?** The computer "
                           "plays your seat until the match ends.",
    "leave.confirm.free": "Under {rules} rules leaving costs no points; the hands you played "
                          "stay on your leaderboard line.",
    "leave.confirm.penalty": "Under {rules} rules leaving a running hand is 逃跑: you are "
                             "charged {points}, which nobody receives. It goes on your "
                             "leaderboard line with the hands you played.",
    "leave.confirm.penalty_to": "Under {rules} rules leaving a running hand is 逃跑: you are "
                                "charged {points}, paid to {receiver} (who discarded the 财神 "
                                "and is waiting). It goes on your leaderboard line with the "
                                "hands you played.",
    "leave.changed": "What leaving costs changed meanwhile: here it is again.",
    "leave.kept": "You keep your seat at table #{table}.",
    "leave.done": "You left table #{table}: the computer plays your seat until the match ends.",
    "leave.not_yours": "This confirmation belongs to another player.",
    "btn.leave.confirm": "Leave the match",
    "btn.leave.keep": "Keep my seat",
}

ZH: dict[str, str] = {
    "choice.default": "{name}（默认）",
    "dur.s": "{n} 秒",
    "dur.min": "{n} 分钟",
    "dur.h": "{n} 小时",
    "dur.d": "{n} 天",
    "val.on": "开",
    "val.off": "关",
    "val.none": "不封顶",
    "choice.mentions.when_needed": "需要时：私信关闭或时间过半",
    "choice.mentions.every_turn": "每次轮到都 @（另有私信）",
    "val.mentions.when_needed": "仅在需要时（私信关闭、时间过半提醒）",
    "val.mentions.every_turn": "每次轮到",
    "lobby.title": "{rules}麻将 · 第 {table} 桌",
    "lobby.seats": "座位",
    "lobby.seat": "{seat} 号位（{wind}）：{name}",
    "lobby.seat_empty": "{seat} 号位（{wind}）：空",
    "lobby.computer": "🤖 {name}",
    "name.computer": "电脑 {n}",
    "name.computer_for": "电脑 {n}（代 {name}）",
    "lobby.away": "{name}（托管中）",
    "lobby.options": "选项",
    "lobby.status.lobby": "等待玩家：还有 {free} 个空位。",
    "lobby.pace.days": "按本桌玩家的速度，一场大约 {days} 天。",
    "lobby.pace.a_day": "按本桌玩家的速度，一场大约一天。",
    "lobby.pace.under_a_day": "按本桌玩家的速度，一场不到一天。",
    "lobby.status.playing": "对局中：第 {hand} 局，共 {hands} 局。",
    "lobby.status.finished": "本场已结束。",
    "lobby.status.cancelled": "这张牌桌已取消。",
    "lobby.footer": "按钮：加入、离开、加电脑；四人坐满后开始。",
    "btn.join": "加入",
    "btn.leave": "离开",
    "btn.addbot": "加电脑",
    "btn.start": "开始",
    "leave.confirm.title": "**确定在对局进行中离开第 {table} 桌吗？** "
                           "此后由电脑代打你的座位直到本场结束。",
    "leave.confirm.free": "按{rules}规则离开不扣分；你打过的局仍记在你的排行榜上。",
    "leave.confirm.penalty": "按{rules}规则在牌局进行中离开即为逃跑：罚你 {points} "
                             "分，无人收取。罚分与你打过的局一起记在你的排行榜上。",
    "leave.confirm.penalty_to": "按{rules}规则在牌局进行中离开即为逃跑：罚你 {points} 分，付给 "
                                "{receiver}（打出财神且已听牌）。罚分与你打过的局一起记在你的排"
                                "行榜上。",
    "leave.changed": "离开的代价刚刚变了，请重新确认。",
    "leave.kept": "你保留第 {table} 桌的座位。",
    "leave.done": "你已离开第 {table} 桌：此后由电脑代打你的座位直到本场结束。",
    "leave.not_yours": "这个确认属于另一位玩家。",
    "btn.leave.confirm": "离开本场",
    "btn.leave.keep": "保留座位",
}
