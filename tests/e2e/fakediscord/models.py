"""Plain records the fake Discord keeps, and the JSON payloads built from them.

Everything here is synchronous and free of I/O: the REST and gateway layers mutate
these records, tests read them.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
"""A message sent silently (discord.py's ``silent=True``): it notifies nobody."""
ALL_PERMISSIONS = 0x1F_7FFF_FFFF_FFFF
# add reactions, view channel, send, embed links, attach files, read history,
# external emojis, use application commands, send in threads
DEFAULT_PERMISSIONS = sum(1 << bit for bit in (6, 10, 11, 14, 15, 16, 18, 31, 38))

JsonDict = dict[str, Any]

_counter = itertools.count(1)


def snowflake() -> int:
    """A fresh, strictly increasing snowflake whose timestamp is now."""
    millis = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (millis << 22) | (next(_counter) % (1 << 22))


def iso_now() -> str:
    """The current time as Discord writes timestamps."""
    return datetime.now(UTC).isoformat()


@dataclass
class FakeUser:
    """A Discord user; ``dms_closed`` makes DMs to them fail with 50007."""

    id: int
    name: str
    locale: str = "en-US"
    bot: bool = False
    dms_closed: bool = False

    def payload(self) -> JsonDict:
        """The user object as Discord sends it."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class FakeRole:
    """A guild role (the ``@everyone`` role has the guild's id)."""

    id: int
    name: str
    permissions: int = DEFAULT_PERMISSIONS
    position: int = 0

    def payload(self) -> JsonDict:
        """The role object as Discord sends it."""
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
            "icon": None,
            "unicode_emoji": None,
        }


@dataclass
class FakeChannel:
    """A guild text channel (type 0) or a DM channel (type 1).

    ``deny_send`` makes every message send there fail with 403 code 50013.
    """

    id: int
    name: str
    type: int = 0
    guild_id: int | None = None
    recipient_id: int | None = None
    position: int = 0
    deny_send: bool = False

    @property
    def is_dm(self) -> bool:
        """Whether this is a direct-message channel."""
        return self.type == 1

    def payload(self, users: dict[int, FakeUser] | None = None) -> JsonDict:
        """The channel object as Discord sends it."""
        if self.is_dm:
            recipients = []
            if users and self.recipient_id in users:
                recipients = [users[self.recipient_id].payload()]
            return {"id": str(self.id), "type": 1, "recipients": recipients,
                    "last_message_id": None, "flags": 0}
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }


@dataclass
class FakeGuild:
    """A guild with its channels, roles and members (user id -> role ids)."""

    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    channel_ids: list[int] = field(default_factory=list)
    roles: list[FakeRole] = field(default_factory=list)
    members: dict[int, list[int]] = field(default_factory=dict)
    joined_at: str = field(default_factory=iso_now)

    def member_payload(self, user: FakeUser, *, permissions: bool = False) -> JsonDict:
        """The guild member object; with ``permissions`` as in interactions."""
        data: JsonDict = {
            "user": user.payload(),
            "roles": [str(r) for r in self.members.get(user.id, [])],
            "joined_at": self.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
        }
        if permissions:
            data["permissions"] = str(self.permissions_of(user.id))
        return data

    def permissions_of(self, user_id: int) -> int:
        """The union of the member's role permissions (owner has all)."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        role_ids = {self.id, *self.members.get(user_id, [])}
        value = 0
        for role in self.roles:
            if role.id in role_ids:
                value |= role.permissions
        return value


@dataclass
class FakeAttachment:
    """A file uploaded with a message."""

    id: int
    filename: str
    data: bytes
    content_type: str = "application/octet-stream"
    description: str | None = None

    @property
    def is_png(self) -> bool:
        """Whether the bytes start with the PNG signature."""
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")

    def payload(self, base_url: str) -> JsonDict:
        """The attachment object, with a URL the fake serves."""
        url = f"{base_url}/attachments/{self.id}/{self.filename}"
        data: JsonDict = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        return data


@dataclass
class FakeMessage:
    """A message in its latest state; ``versions`` keeps every earlier state."""

    id: int
    channel_id: int
    author: FakeUser
    content: str = ""
    embeds: list[JsonDict] = field(default_factory=list)
    components: list[JsonDict] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    guild_id: int | None = None
    interaction_id: int | None = None
    webhook_id: int | None = None
    deleted: bool = False
    created_at: str = field(default_factory=iso_now)
    edited_at: str | None = None
    versions: list[JsonDict] = field(default_factory=list)
    interaction_metadata: JsonDict | None = None
    nonce: str | None = None
    """The ``nonce`` it was created with (Discord echoes it back)."""

    @property
    def created_ms(self) -> int:
        """When it was created, in Unix milliseconds (from its snowflake)."""
        return (self.id >> 22) + DISCORD_EPOCH_MS

    @property
    def ephemeral(self) -> bool:
        """Whether only the interaction's user can see this message."""
        return bool(self.flags & EPHEMERAL)

    @property
    def silent(self) -> bool:
        """Whether the message was sent without notifying (SUPPRESS_NOTIFICATIONS)."""
        return bool(self.flags & SUPPRESS_NOTIFICATIONS)

    @property
    def edits(self) -> int:
        """How many times the message was edited."""
        return len(self.versions)

    def snapshot(self) -> JsonDict:
        """The editable fields, for the edit history."""
        return {
            "content": self.content,
            "embeds": list(self.embeds),
            "components": list(self.components),
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
        }

    def payload(self, base_url: str) -> JsonDict:
        """The message object as Discord sends it."""
        data: JsonDict = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": 0 if self.interaction_id is None else 20,
            "author": self.author.payload(),
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": [a.payload(base_url) for a in self.attachments],
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
            "flags": self.flags,
            "timestamp": self.created_at,
            "edited_timestamp": self.edited_at,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.nonce is not None:
            data["nonce"] = self.nonce
        return data


@dataclass
class UploadedFile:
    """One ``files[n]`` part of a multipart request."""

    field: str
    filename: str
    data: bytes
    content_type: str


@dataclass
class RecordedRequest:
    """One REST request the bot made, as the fake saw and answered it."""

    method: str
    path: str
    query: dict[str, str]
    body: Any
    files: list[UploadedFile]
    time: float
    status: int = 0
    response: Any = None
    channel_id: int | None = None
    user_id: int | None = None
    handled: bool = True
    finished: float = 0.0
    error: str | None = None
    fault: str | None = None
    """The fault ``fake.faults`` served instead of (``"lost"``: after) the answer."""


@dataclass
class InteractionResponse:
    """The bot's answer on ``POST /interactions/{id}/{token}/callback``.

    ``type`` is the callback type: 4 message, 5 deferred message, 6 deferred
    update, 7 update message, 8 autocomplete, 9 modal.
    """

    type: int
    data: JsonDict
    files: list[UploadedFile]
    message: FakeMessage | None = None

    @property
    def flags(self) -> int:
        """The message flags the bot asked for."""
        return int(self.data.get("flags", 0) or 0)

    @property
    def ephemeral(self) -> bool:
        """Whether the response was ephemeral (flag 64)."""
        return bool(self.flags & EPHEMERAL)

    @property
    def content(self) -> str | None:
        """The response's text, if any."""
        return self.data.get("content")

    @property
    def embeds(self) -> list[JsonDict]:
        """The response's embeds."""
        return list(self.data.get("embeds") or [])

    @property
    def components(self) -> list[JsonDict]:
        """The response's raw component tree."""
        return list(self.data.get("components") or [])


@dataclass
class InteractionRecord:
    """An interaction the fake sent, and everything the bot did with it."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    payload: JsonDict
    source_message_id: int | None = None
    responses: list[InteractionResponse] = field(default_factory=list)
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    created: float = field(default_factory=time.monotonic)
    """When it was sent: its token lasts `FakeState.token_lifetime` from then."""
