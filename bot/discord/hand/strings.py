"""The texts of ``/mahjong hand``'s private reply (replies.py), in English and 简体中文, by
key.

A leaf module (it imports nothing): `bot.discord.core.i18n` lists it and puts its
tables in the one lookup, so a key is found whatever was imported first. Both tables
hold the same keys with the same fields (tests/discord/test_discord_i18n.py), and
every key this feature uses is here or among core's shared ones
(tests/discord/test_feature_layout.py).
"""

from __future__ import annotations

EN: dict[str, str] = {
    "reply.hand.follows": "This reply follows the game until {until}; after that, use /mahjong "
                          "hand again.",
}

ZH: dict[str, str] = {
    "reply.hand.follows": "这条回复会随牌局更新到 {until}；之后请再用 /mahjong hand。",
}
