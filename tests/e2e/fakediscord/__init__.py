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

Discord's own failures (``faults.py``)::

    fake.faults.outage(503, seconds=60)          # every REST call but interactions fails
    fake.faults.random(0.05, seed=1)             # 5 % of calls: 5xx, 429, timeout, reset
    fake.faults.rate_limit("POST /channels/\\d+/messages", count=3, retry_after=2.0)
    fake.faults.slow(1.5, share=0.5)
    fake.faults.forbid_dms(alice.id)             # 403, code 50007
    fake.faults.restore()
    fake.faults.injected                         # [InjectedFault(time, route, kind)]
    await fake.drop_gateway(resume=True)         # the bot reconnects and RESUMEs
    fake.duplicates()                            # messages that look doubled

Message creation honours ``nonce`` + ``enforce_nonce`` as Discord does.
"""

from .components import ComponentInfo
from .faults import Faults, InjectedFault
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
    "Faults",
    "InjectedFault",
    "InteractionHandle",
    "InteractionResponse",
    "RecordedRequest",
    "RunningBot",
    "shard_of",
]
