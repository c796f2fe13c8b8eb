"""A player's language survives a restart: the store keeps it per user (seated or not),
the service reads it back into its notices, and the presenter only remembers, in
memory, the last language a notice told it of each person (for the one message no
notice carries a language for: the missing-permission DM to a table's creator)."""

from __future__ import annotations

from pathlib import Path

from bot.discord.delivery.memory import InMemory
from bot.discord.table.notifier import DiscordNotifier
from bot.service import LobbyNotice, TableInfo
from bot.store import Store
from tests.discord.presenter_kit import (
    CREATOR,
    REF,
    FakeClient,
    dealt,
    presenter,
    private,
    seats,
    settle,
)


async def test_locale_is_stored_per_user_and_read_back(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        # remembered before the person has any seat (their first /mahjong new or Join)
        assert await store.lobby.set_user_locale(10, "zh-CN", 1.0) is True
        assert await store.lobby.set_user_locale(10, "zh-CN", 2.0) is False  # nothing written
        assert await store.lobby.set_user_locale(11, "en-US", 2.0) is True
        assert await store.lobby.set_user_locale(11, "en-GB", 3.0) is True   # changed
        assert await store.lobby.user_locales([10, 11, 12]) == {10: "zh-CN", 11: "en-GB"}
    finally:
        await store.close()


async def _permission_dm(client: FakeClient, notifier: DiscordNotifier, memory: InMemory) -> str:
    client.refuse["channel"] = 50013
    info = TableInfo(REF, CREATOR, "shanghai", {}, "lobby", seats())
    await notifier.publish(LobbyNotice(info, "joined", 1))
    await settle(notifier)
    told = client.dms(CREATOR)[-1]  # after the hand DMed to them
    return told.content or ""


async def test_the_creator_is_told_in_the_language_their_notices_carried() -> None:
    client, memory = FakeClient(guild_locale="en-US"), InMemory()
    notifier = presenter(client, memory)
    await notifier.publish(private(dealt(), 0, locale="zh-CN"))  # seat 0 is the creator's
    await settle(notifier)
    assert "权限" in await _permission_dm(client, notifier, memory)


async def test_a_language_no_notice_told_falls_back_to_the_servers() -> None:
    client, memory = FakeClient(guild_locale="zh-CN"), InMemory()
    notifier = presenter(client, memory)  # as after a restart: nothing told yet
    assert "权限" in await _permission_dm(client, notifier, memory)
    client2, memory2 = FakeClient(guild_locale="en-US"), InMemory()
    assert "permission" in await _permission_dm(client2, presenter(client2, memory2), memory2)
