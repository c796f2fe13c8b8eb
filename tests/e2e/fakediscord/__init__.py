"""A small fake Discord (REST + gateway on 127.0.0.1) for end-to-end tests of the bot.

See DESIGN.md, "Testing the Discord layer without Discord". Typical use, with the
``fake`` and ``bots`` fixtures of ``tests/e2e/conftest.py``::

    alice = fake.add_user(101, "alice", locale="zh-CN")
    guild = fake.add_guild(900, "Club", members=[alice])        # before the bot starts
    running = await bots.start(make_bot())                      # READY + GUILD_CREATE
    await running.client.tree.sync()                            # PUT .../commands
    handle = await fake.slash(alice, guild, fake.channel(guild, "general"),
                              "mahjong", "new", options={"rules": "shanghai"})
    response = await handle.response()                          # type, ephemeral, content
    hand = (await fake.wait_for(lambda: fake.dms(alice)))[-1]   # what alice got by DM
    fake.pngs(hand), fake.custom_ids(hand)                      # pictures and buttons
    hand.flags, hand.silent                                     # sent silently or not
    await (await fake.click(alice, hand, "discard:3")).response()
    running = await bots.restart(running, make_bot())           # new client, same world
"""

from .components import ComponentInfo
from .gateway import shard_of
from .models import (
    EPHEMERAL,
    SUPPRESS_NOTIFICATIONS,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeRole,
    FakeUser,
    InteractionResponse,
    RecordedRequest,
)
from .payloads import CommandLookupError
from .runner import BotLauncher, ErrorLog, RunningBot
from .server import FakeDiscord, InteractionHandle

__all__ = [
    "EPHEMERAL",
    "SUPPRESS_NOTIFICATIONS",
    "BotLauncher",
    "CommandLookupError",
    "ComponentInfo",
    "ErrorLog",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "InteractionHandle",
    "InteractionResponse",
    "RecordedRequest",
    "RunningBot",
    "shard_of",
]
