"""A player's language survives a restart: it is kept per user in the store (seated or
not) and read back by the notifier before it writes to them."""

from __future__ import annotations

from pathlib import Path

from bot.discord.notifier import DiscordNotifier
from bot.service.notices import TableRef
from bot.store import Store


async def test_locale_is_stored_per_user_and_read_back(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        # remembered before the person has any seat (their first /mahjong new or Join)
        assert await store.set_user_locale(10, "zh-CN", 1.0) is True
        assert await store.set_user_locale(10, "zh-CN", 2.0) is False  # nothing written
        assert await store.set_user_locale(11, "en-US", 2.0) is True
        assert await store.set_user_locale(11, "en-GB", 3.0) is True   # changed
        table = await store.create_table(guild_id=1, channel_id=2, creator_id=10,
                                         rules="hangzhou", at=0.0)
        await store.sit(table.id, 0, user_id=10, display_name="小明", at=0.0)
        await store.sit(table.id, 1, user_id=12, display_name="Bo", at=0.0)
        assert await store.user_locales([10, 11, 12]) == {10: "zh-CN", 11: "en-GB"}
        # a new notifier (as after a restart) learns the seated people's languages
        notifier = DiscordNotifier(client=None, store=store)  # type: ignore[arg-type]
        await notifier._load(TableRef(table.id, 1, 2))
        assert notifier.locales == {10: "zh-CN"}
    finally:
        await store.close()
