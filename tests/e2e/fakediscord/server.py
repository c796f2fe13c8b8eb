"""``FakeDiscord``: start the fake on 127.0.0.1, set up its world, act as players, read
what the bot did.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any

from aiohttp import web

from . import components as comp
from .faults import Faults
from .gateway import Gateway, shard_of
from .models import (
    DEFAULT_PERMISSIONS,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeRole,
    FakeUser,
    InteractionRecord,
    InteractionResponse,
    JsonDict,
    RecordedRequest,
    snowflake,
)
from .payloads import command_data, interaction_payload
from .rest import API, RestApi
from .state import FakeState

DEFAULT_APPLICATION_ID = 1_200_000_000_000_000_001
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5

UserLike = FakeUser | int
GuildLike = FakeGuild | int
ChannelLike = FakeChannel | int
MessageLike = FakeMessage | int


def guild_id_on(shard_id: int, count: int) -> int:
    """A fresh snowflake whose guild would live on shard ``shard_id`` of ``count``."""
    while shard_of(guild_id := snowflake(), count) != shard_id:
        pass
    return guild_id


def _id(thing: Any) -> int:
    return thing if isinstance(thing, int) else thing.id


class InteractionHandle:
    """One interaction the fake sent; await :meth:`response` for the bot's answer."""

    def __init__(self, fake: FakeDiscord, record: InteractionRecord) -> None:
        self.fake = fake
        self.record = record

    @property
    def id(self) -> int:
        """The interaction id."""
        return self.record.id

    @property
    def token(self) -> str:
        """The interaction token."""
        return self.record.token

    async def response(self, timeout: float = 5.0) -> InteractionResponse:
        """Wait until the bot posted the interaction callback, and return it."""
        await self.fake.wait_for(lambda: self.record.responses, timeout, f"a response to {self}")
        return self.record.responses[0]

    @property
    def responded(self) -> bool:
        """Whether the bot answered the callback yet."""
        return bool(self.record.responses)

    @property
    def original(self) -> FakeMessage | None:
        """The original response message in its latest state (after edits)."""
        return self.fake.state.messages.get(self.record.original_id or 0)

    @property
    def followups(self) -> list[FakeMessage]:
        """Followup messages, in order."""
        return [self.fake.state.messages[i] for i in self.record.followup_ids]

    async def wait(
        self, predicate: Callable[[InteractionHandle], Any], timeout: float = 5.0
    ) -> Any:
        """Wait until ``predicate(self)`` is truthy (e.g. an edit or a followup)."""
        return await self.fake.wait_for(lambda: predicate(self), timeout, f"{self} condition")

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[FakeMessage]:
        """Wait until at least ``count`` followups were sent."""
        await self.wait(lambda h: len(h.record.followup_ids) >= count, timeout)
        return self.followups

    def __repr__(self) -> str:
        return f"<InteractionHandle id={self.id} type={self.record.type}>"


class FakeDiscord:
    """A fake Discord (REST + gateway) for one test, served on 127.0.0.1."""

    def __init__(
        self, application_id: int = DEFAULT_APPLICATION_ID, bot_name: str = "MahjongBot"
    ) -> None:
        self.state = FakeState(application_id, bot_name)
        self.faults = Faults(self.state)
        """Discord's own failures on demand: outages, random 5xx/429/timeouts, rate
        limits, slowness (see ``faults.py``)."""
        self.rest = RestApi(self.state, self.faults)
        self.gateway = Gateway(self.state)
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.strict_routes = True  # the ``bots`` fixture fails a test that hit unknown routes

    # -- lifecycle ---------------------------------------------------------------

    async def start(self) -> None:
        """Serve on a free port of 127.0.0.1."""
        app = web.Application()
        self.rest.install(app)
        self.gateway.install(app)
        self._runner = web.AppRunner(
            app, handle_signals=False, shutdown_timeout=1.0, access_log=None
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self.state.base_url = f"http://127.0.0.1:{self.port}"

    async def stop(self) -> None:
        """Close every websocket and stop serving."""
        for session in self.gateway.sessions:
            if not session.ws.closed:
                await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def api_url(self) -> str:
        """What ``discord.http.Route.BASE`` must be."""
        return self.state.base_url + API

    @property
    def gateway_url(self) -> str:
        """What ``DiscordWebSocket.DEFAULT_GATEWAY`` must be."""
        return self.gateway.url

    @property
    def application_id(self) -> int:
        """The bot's application id (also the bot user's id)."""
        return self.state.application_id

    @property
    def bot_user(self) -> FakeUser:
        """The bot's own user."""
        return self.state.bot

    # -- the world ---------------------------------------------------------------

    def add_user(self, id: int, name: str, locale: str = "en-US") -> FakeUser:
        """A user who can join guilds, receive DMs and interact."""
        user = FakeUser(id, name, locale)
        self.state.users[id] = user
        return user

    def add_guild(
        self,
        id: int | None = None,
        name: str = "Test Guild",
        *,
        owner: UserLike | None = None,
        locale: str = "en-US",
        channels: Iterable[str] = ("general",),
        members: Iterable[UserLike] = (),
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """A guild with an ``@everyone`` role, text channels and members (the bot joins);
        with ``shard`` = (id, count) and no ``id``, its id is one that shard owns.

        Add guilds before the bot connects; they arrive as GUILD_CREATE after READY.
        """
        guild_id = id or (snowflake() if shard is None else guild_id_on(*shard))
        owner_id = _id(owner) if owner is not None else self.state.bot.id
        guild = FakeGuild(guild_id, name, owner_id, locale)
        guild.roles.append(FakeRole(guild_id, "@everyone", DEFAULT_PERMISSIONS))
        self.state.guilds[guild_id] = guild
        guild.members[self.state.bot.id] = []
        for member in members:
            self.add_member(guild, member)
        for channel_name in channels:
            self.add_channel(guild, channel_name)
        return guild

    def add_channel(self, guild: GuildLike, name: str, id: int | None = None) -> FakeChannel:
        """A text channel in a guild."""
        fake_guild = self.state.guilds[_id(guild)]
        position = len(fake_guild.channel_ids)
        channel = FakeChannel(id or snowflake(), name, 0, fake_guild.id, position=position)
        self.state.channels[channel.id] = channel
        fake_guild.channel_ids.append(channel.id)
        return channel

    def add_member(self, guild: GuildLike, user: UserLike, roles: Iterable[FakeRole] = ()) -> None:
        """Make a user a member of a guild, with extra roles."""
        self.state.guilds[_id(guild)].members[_id(user)] = [r.id for r in roles]

    def add_role(
        self, guild: GuildLike, name: str, permissions: int = DEFAULT_PERMISSIONS
    ) -> FakeRole:
        """A role in a guild."""
        fake_guild = self.state.guilds[_id(guild)]
        role = FakeRole(snowflake(), name, permissions, len(fake_guild.roles))
        fake_guild.roles.append(role)
        return role

    def channel(self, guild: GuildLike, name: str) -> FakeChannel:
        """A guild channel by name."""
        for channel_id in self.state.guilds[_id(guild)].channel_ids:
            if self.state.channels[channel_id].name == name:
                return self.state.channels[channel_id]
        raise KeyError(name)

    def expire_token(self, handle: InteractionHandle) -> None:
        """Let the interaction's token run out now (Discord's last 15 minutes): the
        bot's webhook calls on it are refused from now on (401, code 50027)."""
        handle.record.created -= self.state.token_lifetime + 1

    def close_dms(self, user: UserLike, closed: bool = True) -> None:
        """Make DMs to the user fail with 403, code 50007."""
        self.state.users[_id(user)].dms_closed = closed

    def deny_send(self, channel: ChannelLike, denied: bool = True) -> None:
        """Make sends in the channel fail with 403, code 50013."""
        self.state.channels[_id(channel)].deny_send = denied

    # -- waiting -----------------------------------------------------------------

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 5.0, what: str = "condition"
    ) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked on every request/event)."""
        return await self.state.wait_for(predicate, timeout, what)

    async def wait_connected(self, timeout: float = 5.0) -> None:
        """Wait until a bot has identified on the gateway."""
        await self.wait_for(self.gateway.current, timeout, "a gateway IDENTIFY")

    async def settle(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Wait until no request is in flight and none came for ``quiet`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            remaining = max(deadline - loop.time(), 0.001)
            await self.wait_for(lambda: self.state.in_flight == 0, remaining, "requests to end")
            last = max((r.finished or r.time for r in self.state.requests[-8:]), default=0.0)
            idle = time.time() - last
            if idle >= quiet:
                return
            if loop.time() + quiet - idle > deadline:
                raise TimeoutError(f"fake discord: bot kept busy for {timeout}s")
            await asyncio.sleep(quiet - idle)

    # -- acting as Discord and its users -----------------------------------------

    async def dispatch(self, event: str, data: JsonDict) -> None:
        """Send any gateway dispatch to the connected bot."""
        await self.gateway.dispatch(event, data)

    async def reconnect(self) -> None:
        """Send op 7 RECONNECT; the bot should come back and RESUME."""
        await self.gateway.reconnect()

    async def drop_gateway(self, resume: bool = True) -> None:
        """Close every open gateway connection as a network failure would (code 4000):
        the bot reconnects and RESUMEs, and gets the events sent meanwhile. Without
        ``resume`` the sessions are forgotten: the RESUME is refused (INVALID_SESSION)
        and the bot IDENTIFYs anew (READY, GUILD_CREATE). ``await fake.wait_connected()``
        waits until it is back."""
        await self.gateway.drop(resume=resume)

    async def slash(
        self,
        user: UserLike,
        guild: GuildLike | None,
        channel: ChannelLike | None,
        *path: str,
        options: dict[str, Any] | None = None,
        locale: str | None = None,
    ) -> InteractionHandle:
        """Run ``/path[0] path[1] ...`` as ``user``; ``guild=None`` means in the bot's DM.

        Options are typed from the synced command; names may be localized.
        """
        fake_user = self.state.users[_id(user)]
        fake_channel = self._where(fake_user, guild, channel)
        data = command_data(self.state, fake_channel.guild_id, path, options or {})
        return await self._interact(APPLICATION_COMMAND, fake_user, fake_channel, data, locale)

    async def autocomplete(
        self,
        user: UserLike,
        guild: GuildLike | None,
        channel: ChannelLike | None,
        *path: str,
        focused: str,
        options: dict[str, Any],
        locale: str | None = None,
    ) -> InteractionHandle:
        """Type into option ``focused`` of ``/path...``; the bot answers with type 8,
        ``response.data["choices"]``."""
        fake_user = self.state.users[_id(user)]
        fake_channel = self._where(fake_user, guild, channel)
        data = command_data(self.state, fake_channel.guild_id, path, options, focused)
        return await self._interact(AUTOCOMPLETE, fake_user, fake_channel, data, locale)

    def _where(
        self, user: FakeUser, guild: GuildLike | None, channel: ChannelLike | None
    ) -> FakeChannel:
        """The channel a command is used in: the bot's DM when ``guild`` is None."""
        if guild is None:
            return self.state.dm_channel(user.id)
        guild_id = _id(guild)
        self.state.guilds[guild_id].members.setdefault(user.id, [])
        fake_channel = self.state.channels[_id(channel)] if channel else None
        if fake_channel is None or fake_channel.guild_id != guild_id:
            raise ValueError("a command in a guild needs one of that guild's channels")
        return fake_channel

    async def announce_guild(self, guild: GuildLike) -> None:
        """Send GUILD_CREATE for a guild added after the bot connected."""
        payload = self.gateway.guild_create(self.state.guilds[_id(guild)])
        await self.gateway.dispatch("GUILD_CREATE", payload, guild_id=_id(guild), routed=True)

    async def click(
        self,
        user: UserLike,
        message: MessageLike,
        custom_id: str,
        *,
        locale: str | None = None,
        force: bool = False,
    ) -> InteractionHandle:
        """Press the button ``custom_id`` on ``message`` (a channel or DM message).

        Refuses buttons that are absent or disabled unless ``force``.
        """
        return await self._component(user, message, custom_id, None, locale, force)

    async def select(
        self,
        user: UserLike,
        message: MessageLike,
        custom_id: str,
        values: list[str],
        *,
        locale: str | None = None,
        force: bool = False,
    ) -> InteractionHandle:
        """Choose ``values`` in the select menu ``custom_id`` on ``message``."""
        return await self._component(user, message, custom_id, list(values), locale, force)

    async def _component(
        self,
        user: UserLike,
        message: MessageLike,
        custom_id: str,
        values: list[str] | None,
        locale: str | None,
        force: bool,
    ) -> InteractionHandle:
        fake_user = self.state.users[_id(user)]
        fake_message = self.state.messages[_id(message)]
        channel = self.state.channels[fake_message.channel_id]
        self._check_can_use(fake_user, fake_message, channel)
        component = comp.find(fake_message.components, custom_id)
        _check_component(component, custom_id, values, force)
        assert component is not None
        data: JsonDict = {"custom_id": custom_id, "component_type": component["type"]}
        if values is not None:
            data["values"] = values
        return await self._interact(
            MESSAGE_COMPONENT, fake_user, channel, data, locale, source=fake_message
        )

    async def submit_modal(
        self,
        opened: InteractionHandle,
        values: dict[str, str | list[str]],
        *,
        locale: str | None = None,
    ) -> InteractionHandle:
        """Fill in and submit the modal the bot opened (type 9) in answer to ``opened``.

        ``values`` maps text inputs' custom_ids to text, selects' to lists of values.
        """
        modal = next((r for r in opened.record.responses if r.type == 9), None)
        if modal is None:
            raise ValueError(f"the bot opened no modal in answer to {opened}")
        answers = comp.modal_answers(modal.components, values)
        data: JsonDict = {"custom_id": modal.data["custom_id"], "components": answers}
        record = opened.record
        user = self.state.users[record.user_id]
        channel = self.state.channels[record.channel_id]
        source = self.state.messages.get(record.source_message_id or 0)
        return await self._interact(MODAL_SUBMIT, user, channel, data, locale, source=source)

    def _check_can_use(self, user: FakeUser, message: FakeMessage, channel: FakeChannel) -> None:
        if message.deleted:
            raise ValueError(f"message {message.id} was deleted")
        if channel.is_dm and channel.recipient_id != user.id:
            raise ValueError(f"{user.name} cannot see a DM sent to user {channel.recipient_id}")
        if message.ephemeral and message.interaction_id is not None:
            owner = self.state.interactions[message.interaction_id].user_id
            if owner != user.id:
                raise ValueError(f"{user.name} cannot see an ephemeral message of user {owner}")

    async def _interact(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: JsonDict,
        locale: str | None,
        source: FakeMessage | None = None,
    ) -> InteractionHandle:
        interaction_id, token = snowflake(), f"fake-token-{secrets.token_hex(12)}"
        payload = interaction_payload(
            self.state, interaction_id=interaction_id, token=token, kind=kind, user=user,
            channel=channel, data=data, locale=locale or user.locale,
        )
        if source is not None:
            payload["message"] = source.payload(self.state.base_url)
        record = InteractionRecord(
            interaction_id, token, kind, user.id, channel.id, channel.guild_id, payload,
            source_message_id=source.id if source else None,
        )
        self.state.interactions[interaction_id] = record
        self.state.interactions_by_token[token] = record
        # Discord's routing: the guild's shard, and shard 0 for DMs
        await self.gateway.dispatch("INTERACTION_CREATE", payload, guild_id=channel.guild_id,
                                    routed=True)
        return InteractionHandle(self, record)

    # -- reading what the bot did --------------------------------------------------

    def requests(self, method: str | None = None, path: str | None = None) -> list[RecordedRequest]:
        """Recorded requests, filtered by method and a substring of the path."""
        return [
            r for r in self.state.requests
            if (method is None or r.method == method) and (path is None or path in r.path)
        ]

    def failures(self, code: int | None = None) -> list[RecordedRequest]:
        """Requests the fake refused (status >= 400) or faulted (``r.fault``: a
        timeout, reset or lost answer too), optionally with one error code."""
        result = [r for r in self.state.requests if r.status >= 400 or r.fault is not None]
        if code is not None:
            result = [r for r in result if isinstance(r.response, dict)
                      and r.response.get("code") == code]
        return result

    def unhandled(self) -> list[RecordedRequest]:
        """Requests to routes the fake does not implement (answered 404)."""
        return self.state.unhandled()

    def crashed(self) -> list[RecordedRequest]:
        """Requests the fake itself failed on (answered 400; see ``error``)."""
        return self.state.crashed()

    def commands(self, guild: GuildLike | None = None) -> list[JsonDict]:
        """The synced commands: global, or one guild's."""
        if guild is None:
            return self.state.global_commands
        return self.state.guild_commands.get(_id(guild), [])

    def message(self, message: MessageLike) -> FakeMessage:
        """A message by id, in its latest state."""
        return self.state.messages[_id(message)]

    def messages(
        self, channel: ChannelLike, *, ephemeral: bool = False, deleted: bool = False
    ) -> list[FakeMessage]:
        """Messages in a channel, oldest first, in their final state.

        Ephemeral and deleted messages are left out unless asked for.
        """
        channel_id = _id(channel)
        return [
            m for m in self.state.messages.values()
            if m.channel_id == channel_id
            and (ephemeral or not m.ephemeral)
            and (deleted or not m.deleted)
        ]

    def dm_channel_id(self, user: UserLike) -> int | None:
        """The id of the bot's DM channel with a user, if it was opened."""
        return self.state.dm_channels.get(_id(user))

    def dms(self, user: UserLike, *, deleted: bool = False) -> list[FakeMessage]:
        """Messages the bot sent to a user by DM (ephemeral ones included)."""
        channel_id = self.dm_channel_id(user)
        if channel_id is None:
            return []
        return self.messages(channel_id, ephemeral=True, deleted=deleted)

    def files(
        self, target: MessageLike | FakeChannel | Iterable[FakeMessage]
    ) -> list[FakeAttachment]:
        """Files on a message, or on every (visible) message of a channel or list."""
        if isinstance(target, FakeChannel):
            found = self.messages(target)
        elif isinstance(target, FakeMessage | int):
            found = [self.message(target)]
        else:
            found = list(target)
        return [a for m in found for a in m.attachments]

    def pngs(self, target: MessageLike | FakeChannel | Iterable[FakeMessage]) -> list[bytes]:
        """The bytes of every PNG file on the target."""
        return [a.data for a in self.files(target) if a.is_png]

    def components(self, message: MessageLike) -> list[comp.ComponentInfo]:
        """Buttons and selects on a message, flattened, in display order."""
        return comp.flatten(self.message(message).components)

    def custom_ids(self, message: MessageLike) -> list[str]:
        """The custom_ids of a message's buttons and selects."""
        return [c.custom_id for c in self.components(message) if c.custom_id]

    def duplicates(self, within: float = 900.0, *, deleted: bool = False,
                   interactions: bool = False) -> list[FakeMessage]:
        """Messages that look doubled: each one that repeats an earlier message of the
        same channel and author (same content, embeds, components and attachments'
        names, as created) made at most ``within`` seconds before it. Deleted messages
        count only with ``deleted``; interaction replies and followups only with
        ``interactions`` (a user who asks twice gets two answers)."""
        seen: dict[tuple[Any, ...], list[FakeMessage]] = {}
        doubled: list[FakeMessage] = []
        for message in sorted(self.state.messages.values(), key=lambda m: m.id):
            if (message.deleted and not deleted) or (
                    message.interaction_id is not None and not interactions):
                continue
            created = message.versions[0] if message.versions else message.snapshot()
            key = (message.channel_id, message.author.id, created["content"],
                   repr(created["embeds"]), repr(created["components"]),
                   tuple(created["attachments"]))
            earlier = seen.setdefault(key, [])
            if any(message.created_ms - m.created_ms <= within * 1000 for m in earlier):
                doubled.append(message)
            earlier.append(message)
        return doubled

    def interaction_responses(self) -> list[InteractionResponse]:
        """Every interaction callback the bot posted, in order."""
        return [r for i in self.state.interactions.values() for r in i.responses]


def _check_component(
    component: JsonDict | None, custom_id: str, values: list[str] | None, force: bool
) -> None:
    if component is None:
        raise ValueError(f"no component {custom_id!r} on that message")
    if force:
        return
    if component.get("disabled"):
        raise ValueError(f"component {custom_id!r} is disabled")
    is_button = component["type"] == comp.BUTTON
    if is_button != (values is None):
        raise ValueError(f"{custom_id!r} is a {'button' if is_button else 'select'}")
    if component["type"] == comp.STRING_SELECT and values is not None:
        allowed = {o["value"] for o in component.get("options") or []}
        if not set(values) <= allowed:
            raise ValueError(f"values {values} not among options {sorted(allowed)}")
