"""The texts of ``/mahjong quiet`` and ``/mahjong vacation`` (quiet.py), and what the
table and a table's creator are told of a person's rest, in English and 简体中文, by key.

A feature's strings module: what that means and what holds it, `bot.discord.core.i18n`.
"""

from __future__ import annotations

EN: dict[str, str] = {
    "reply.quiet.set": "Your quiet hours: {start}–{end} ({zone}), at every table. Next: "
                       "<t:{begin}:f> to <t:{until}:t>. Meanwhile your timers stand still and "
                       "nothing notifies you.",
    "reply.quiet.now": "Your quiet hours: {start}–{end} ({zone}), at every table. You are quiet "
                       "now, until <t:{until}:t>: your timers stand still and nothing notifies "
                       "you.",
    "reply.quiet.off": "Quiet hours are off: your timers run at every hour.",
    "reply.vacation.set": "You are on vacation until <t:{until}:f>. Each table honours it up to "
                          "its own limit:",
    "reply.vacation.table": "table #{table}: until <t:{until}:f>",
    "reply.vacation.refused": "table #{table}: no vacation at this table",
    "reply.vacation.none": "You sit at no table now; it will count at the tables you join "
                           "meanwhile.",
    "reply.vacation.off": "Your vacation is over: your timers run again.",
    "chan.quiet": "{name}: quiet until <t:{until}:t>",
    "chan.vacation": "{name}: on vacation until <t:{until}:f>",
    "dm.leave": "{name} is on vacation until <t:{until}:f> at your table #{table} (<#{channel}>); "
                "their timers stand still until then.",
    "reply.quiet.unset": "You have no quiet hours; your time zone: {zone}.",
}

ZH: dict[str, str] = {
    "reply.quiet.set": "你的免打扰时段：{start}–{end}（{zone}），适用于所有牌桌。"
                       "下一次：<t:{begin}:f> 至 <t:{until}:t>。"
                       "期间你的计时暂停，也不会收到通知。",
    "reply.quiet.now": "你的免打扰时段：{start}–{end}（{zone}），适用于所有牌桌。"
                       "现在正处于免打扰，直到 <t:{until}:t>："
                       "你的计时暂停，也不会收到通知。",
    "reply.quiet.off": "免打扰已关闭：你的计时全天运行。",
    "reply.vacation.set": "你休假到 <t:{until}:f>。每张牌桌按各自的上限接受：",
    "reply.vacation.table": "第 {table} 桌：到 <t:{until}:f>",
    "reply.vacation.refused": "第 {table} 桌：本桌不接受休假",
    "reply.vacation.none": "你现在没有入座任何牌桌；期间加入的牌桌也会计入。",
    "reply.vacation.off": "休假结束：你的计时重新运行。",
    "chan.quiet": "{name}：免打扰至 <t:{until}:t>",
    "chan.vacation": "{name}：休假至 <t:{until}:f>",
    "dm.leave": "{name} 在你的第 {table} 桌（<#{channel}>）休假到 <t:{until}:f>；"
                "在此之前其计时暂停。",
    "reply.quiet.unset": "你没有设置免打扰时段；你的时区：{zone}。",
}
