"""The texts of ``/mahjong hand``'s private reply (replies.py), in English and 简体中文, by
key.

A feature's strings module: what that means and what holds it, `bot.discord.core.i18n`.
"""

from __future__ import annotations

EN: dict[str, str] = {
    "reply.hand.follows": "This reply follows the game until {until}; after that, use /mahjong "
                          "hand again.",
}

ZH: dict[str, str] = {
    "reply.hand.follows": "这条回复会随牌局更新到 {until}；之后请再用 /mahjong hand。",
}
