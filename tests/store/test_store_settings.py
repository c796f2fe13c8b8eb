"""The bot's own settings (one text per key), such as the fingerprint of the slash
commands it last synced."""

from __future__ import annotations

from pathlib import Path

from bot.store import Store


async def test_a_setting_is_kept_across_a_reopen(store: Store, database: Path | str) -> None:
    assert await store.lobby.setting("commands:global") is None
    await store.lobby.set_setting("commands:global", "abc", at=1.0)
    await store.lobby.set_setting("commands:global", "def", at=2.0)   # replaced, not added
    await store.lobby.set_setting("commands:guild:7", "xyz", at=2.0)
    await store.close()
    again = await Store.open(database)
    try:
        assert await again.lobby.setting("commands:global") == "def"
        assert await again.lobby.setting("commands:guild:7") == "xyz"
        assert await again.lobby.setting("commands:guild:8") is None
    finally:
        await again.close()
