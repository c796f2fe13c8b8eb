"""A player's language survives a restart: it is kept on their seats in the store and
read back by the notifier before it writes to them."""

from __future__ import annotations

from pathlib import Path

from bot.discord.notifier import DiscordNotifier
from bot.service.notices import TableRef
from bot.store import Store


async def test_locale_is_stored_on_every_seat_and_read_back(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        table = await store.create_table(guild_id=1, channel_id=2, creator_id=10,
                                         rules="hangzhou", at=0.0)
        await store.sit(table.id, 0, user_id=10, display_name="小明", at=0.0)
        await store.sit(table.id, 1, user_id=11, display_name="Bo", at=0.0)
        assert await store.set_locale(10, "zh-CN") == 1
        assert await store.set_locale(10, "zh-CN") == 0  # already known: nothing written
        assert [s.locale for s in await store.seats(table.id)] == ["zh-CN", None]
        # a new notifier (as after a restart) learns it from the seats
        notifier = DiscordNotifier(client=None, store=store)  # type: ignore[arg-type]
        await notifier._load(TableRef(table.id, 1, 2))
        assert notifier.locales == {10: "zh-CN"}
    finally:
        await store.close()
