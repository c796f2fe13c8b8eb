"""The texts of ``/mahjong replay`` (replay.py): its caption, buttons and menu, in
English and 简体中文, by key.

A feature's strings module: what that means and what holds it, `bot.discord.core.i18n`.
"""

from __future__ import annotations

EN: dict[str, str] = {
    "replay.title": "Replay of table #{table}, hand {hand}: step {step} of {last}",
    "replay.open": "Every hand open.",
    "replay.as_seat": "As {name} saw it: their hand, the others' hidden.",
    "replay.deal": "The deal.",
    "replay.end": "The settlement.",
    "replay.nothing": "No move to see at this step.",
    "replay.drew": "{name} drew {tile}.",
    "replay.back": "◀ Back",
    "replay.forward": "Forward ▶",
    "replay.jump": "⏭ Next claim or win",
    "replay.record": "Download the record",
    "replay.view.placeholder": "Whose view",
    "replay.view.all": "Everything open",
    "replay.view.seat": "{name}'s view",
    "replay.record.text": "Hand {hand} of table #{table} as a record: the wall in dealing "
                          "order, its salt and commitment (SHA-256 of salt + wall), every "
                          "action and the settlement.",
}

ZH: dict[str, str] = {
    "replay.title": "第 {table} 桌第 {hand} 局回放：第 {step} 步 / 共 {last} 步",
    "replay.open": "所有手牌公开。",
    "replay.as_seat": "{name} 的视角：只见其手牌，其他人的手牌隐藏。",
    "replay.deal": "发牌。",
    "replay.end": "结算。",
    "replay.nothing": "这一步没有可看的操作。",
    "replay.drew": "{name} 摸到 {tile}。",
    "replay.back": "◀ 上一步",
    "replay.forward": "下一步 ▶",
    "replay.jump": "⏭ 下一次吃碰杠或胡",
    "replay.record": "下载牌谱",
    "replay.view.placeholder": "选择视角",
    "replay.view.all": "全部公开",
    "replay.view.seat": "{name} 的视角",
    "replay.record.text": "第 {table} 桌第 {hand} 局的牌谱：按发牌顺序的牌墙、盐值与承诺"
                          "（盐值 + 牌墙的 SHA-256）、每一步操作和结算。",
}
