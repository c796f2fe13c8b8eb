"""Slash commands are synced only when the command tree changed since the last sync
(Discord limits how often an application may overwrite its commands, and a global
sync can take an hour to show)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from botkit import make_bot, make_world
from fakediscord import BotLauncher, FakeDiscord

from bot.discord.client import MahjongBot


def _bot(db: Path, **options: Any) -> MahjongBot:
    """A bot that draws nothing here: no picture processes to start and stop."""
    return make_bot(db, picture_processes=0, **options)


def _puts(fake: FakeDiscord, scope: str = "") -> int:
    return len([r for r in fake.requests("PUT", "/commands") if scope in r.path])


async def test_commands_are_synced_only_when_they_changed(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    guild = make_world(fake).guild
    running = await bots.start(_bot(db))
    assert _puts(fake) == 1 and fake.state.global_commands     # the first start syncs
    running = await bots.restart(running, _bot(db))
    assert _puts(fake) == 1                                      # nothing changed
    running = await bots.restart(running, _bot(db, dev_guild_id=guild.id))
    assert _puts(fake, f"/guilds/{guild.id}/") == 1              # another scope: synced
    running = await bots.restart(running, _bot(db, dev_guild_id=guild.id))
    assert _puts(fake) == 2
    await bots.restart(running, _bot(db, sync_commands="always"))
    assert _puts(fake) == 3                                      # SYNC_COMMANDS=always


async def test_a_changed_tree_is_synced_again(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    running = await bots.start(_bot(db))
    assert _puts(fake) == 1
    changed = _bot(db)
    changed.tree.get_command("mahjong").description = "A new description"  # type: ignore[union-attr]  # the group is always there
    await bots.restart(running, changed)
    assert _puts(fake) == 2
