"""The fake Discord's world: users, guilds, channels, messages, commands, interactions.

Shared by the REST routes, the gateway and the test-facing ``FakeDiscord``. Every
change calls :meth:`FakeState.notify` so tests can wait on a predicate.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import time
from collections.abc import Callable
from typing import Any

from .models import (
    EPHEMERAL,
    LOADING,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeUser,
    InteractionRecord,
    JsonDict,
    RecordedRequest,
    UploadedFile,
    iso_now,
    snowflake,
)

EDITABLE = ("content", "embeds", "components", "flags")
POLL = 0.02


class FakeState:
    """Everything the fake knows; mutated by REST and gateway, read by tests."""

    def __init__(self, application_id: int, bot_name: str = "TestBot") -> None:
        self.application_id = application_id
        self.bot = FakeUser(application_id, bot_name, bot=True)
        self.base_url = ""
        self.users: dict[int, FakeUser] = {application_id: self.bot}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.dm_channels: dict[int, int] = {}
        self.global_commands: list[JsonDict] = []
        self.guild_commands: dict[int, list[JsonDict]] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.requests: list[RecordedRequest] = []
        self.tokens: list[str] = []
        self.token_lifetime = 15 * 60.0
        """Seconds an interaction's token lets the bot follow up and edit its reply
        (Discord: 15 minutes); a webhook call after that is refused with 401, 50027."""
        self.nonce_window = 300.0
        """Seconds a message's ``nonce`` is remembered for ``enforce_nonce`` (Discord:
        "the past few minutes")."""
        self.nonces: dict[tuple[int, str], tuple[int, float]] = {}
        """(author id, nonce) -> (message id, ``time.monotonic()`` of its creation)."""
        self.in_flight = 0
        self._changed = asyncio.Event()

    # -- waiting -----------------------------------------------------------------

    def notify(self) -> None:
        """Wake every waiter so it re-checks its predicate."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float, what: str = "condition"
    ) -> Any:
        """Wait until ``predicate()`` is truthy and return its value.

        Re-checked on every change the fake sees, and every ``POLL`` seconds for
        predicates about the bot's own state.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            changed = self._changed
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"fake discord: timed out waiting for {what}\n{self.diagnose()}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(remaining, POLL))

    def diagnose(self, last: int = 8) -> str:
        """A short account of recent requests, for timeout messages."""
        lines = [f"  {r.method} {r.path} -> {r.status}" for r in self.requests[-last:]]
        missing = [f"  {r.method} {r.path}" for r in self.unhandled()]
        crashed = [f"  {r.method} {r.path}: {r.error}" for r in self.crashed()]
        text = "recent requests:\n" + ("\n".join(lines) or "  (none)")
        if missing:
            text += "\nunhandled routes:\n" + "\n".join(missing)
        if crashed:
            text += "\nthe fake failed on:\n" + "\n".join(crashed)
        return text

    def unhandled(self) -> list[RecordedRequest]:
        """Requests to routes the fake does not implement."""
        return [r for r in self.requests if not r.handled]

    def crashed(self) -> list[RecordedRequest]:
        """Requests the fake failed on (answered 400 with the exception)."""
        return [r for r in self.requests if r.error is not None]

    # -- world -------------------------------------------------------------------

    def user(self, user_id: int) -> FakeUser:
        """The user with that id (KeyError if unknown)."""
        return self.users[user_id]

    def dm_channel(self, user_id: int) -> FakeChannel:
        """The bot's DM channel with a user, created on first use."""
        channel_id = self.dm_channels.get(user_id)
        if channel_id is None:
            channel = FakeChannel(snowflake(), f"dm-{user_id}", type=1, recipient_id=user_id)
            self.channels[channel.id] = channel
            self.dm_channels[user_id] = channel.id
            return channel
        return self.channels[channel_id]

    def commands_for(self, guild_id: int | None) -> list[JsonDict]:
        """Guild commands (if any) followed by global commands."""
        guild = self.guild_commands.get(guild_id, []) if guild_id is not None else []
        return [*guild, *self.global_commands]

    def store_commands(self, guild_id: int | None, payload: list[JsonDict]) -> list[JsonDict]:
        """Replace a command set (bulk overwrite) and return it with ids."""
        old = {c["name"]: c for c in self.commands_for(guild_id)}
        stored = []
        for command in payload:
            item = copy.deepcopy(command)
            previous = old.get(item["name"])
            item["id"] = previous["id"] if previous else str(snowflake())
            item["application_id"] = str(self.application_id)
            item["version"] = str(snowflake())
            item.setdefault("type", 1)
            item.setdefault("options", [])
            if guild_id is not None:
                item["guild_id"] = str(guild_id)
            stored.append(item)
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        return stored

    # -- messages ----------------------------------------------------------------

    def created_with_nonce(self, author_id: int, body: JsonDict) -> FakeMessage | None:
        """The message this author already created with the body's ``nonce`` within
        `nonce_window`, when the body sets ``enforce_nonce`` (else None)."""
        nonce = body.get("nonce")
        if nonce is None or not body.get("enforce_nonce"):
            return None
        known = self.nonces.get((author_id, str(nonce)))
        if known is None or time.monotonic() - known[1] > self.nonce_window:
            return None
        return self.messages.get(known[0])

    def create_message(
        self,
        channel_id: int,
        body: JsonDict,
        files: list[UploadedFile],
        *,
        interaction: InteractionRecord | None = None,
    ) -> FakeMessage:
        """A new message from the bot, built from a create-message body."""
        channel = self.channels.get(channel_id)
        message = FakeMessage(
            id=snowflake(),
            channel_id=channel_id,
            author=self.bot,
            guild_id=channel.guild_id if channel else None,
        )
        if interaction is not None:
            message.interaction_id = interaction.id
            message.webhook_id = self.application_id
            message.interaction_metadata = self._interaction_metadata(interaction)
        self._apply(message, body, files, creating=True)
        if body.get("nonce") is not None:
            message.nonce = str(body["nonce"])
            if body.get("enforce_nonce"):
                self.nonces[(self.bot.id, message.nonce)] = (message.id, time.monotonic())
        self.messages[message.id] = message
        return message

    def edit_message(self, message: FakeMessage, body: JsonDict, files: list[UploadedFile]) -> None:
        """Apply an edit body (only the keys present) to a message."""
        message.versions.append(message.snapshot())
        message.edited_at = iso_now()
        self._apply(message, body, files, creating=False)

    def _apply(
        self, message: FakeMessage, body: JsonDict, files: list[UploadedFile], *, creating: bool
    ) -> None:
        old_flags = message.flags
        for key in EDITABLE:
            if key in body and body[key] is not None:
                setattr(message, key, copy.deepcopy(body[key]))
        if not creating:  # an edit ends "thinking" and cannot change ephemerality
            message.flags = (message.flags & ~(EPHEMERAL | LOADING)) | (old_flags & EPHEMERAL)
        message.embeds = [{"type": "rich", **e} for e in message.embeds]
        message.attachments = self._attachments(message, body, files)

    def _attachments(
        self, message: FakeMessage, body: JsonDict, files: list[UploadedFile]
    ) -> list[FakeAttachment]:
        uploads = {f.field: f for f in files}
        if "attachments" not in body or body["attachments"] is None:
            kept = list(message.attachments)
            return kept + [self._new_attachment(f, None) for f in files]
        existing = {a.id: a for a in message.attachments}
        result: list[FakeAttachment] = []
        for item in body["attachments"]:
            upload = uploads.get(f"files[{item.get('id')}]")
            if upload is not None:
                result.append(self._new_attachment(upload, item))
            elif int(item["id"]) in existing:
                result.append(existing[int(item["id"])])
        return result

    @staticmethod
    def _new_attachment(upload: UploadedFile, item: JsonDict | None) -> FakeAttachment:
        filename = (item or {}).get("filename") or upload.filename
        content_type = upload.content_type
        if filename.lower().endswith(".png") or upload.data.startswith(b"\x89PNG"):
            content_type = "image/png"
        description = (item or {}).get("description")
        return FakeAttachment(snowflake(), filename, upload.data, content_type, description)

    def _interaction_metadata(self, interaction: InteractionRecord) -> JsonDict:
        data: JsonDict = {
            "id": str(interaction.id),
            "type": interaction.type,
            "user": self.users[interaction.user_id].payload(),
            "authorizing_integration_owners": interaction.payload.get(
                "authorizing_integration_owners", {}
            ),
        }
        if interaction.source_message_id is not None:
            data["interacted_message_id"] = str(interaction.source_message_id)
        return data

    def attachment(self, attachment_id: int) -> FakeAttachment | None:
        """Find an uploaded file by its attachment id."""
        for message in self.messages.values():
            for item in message.attachments:
                if item.id == attachment_id:
                    return item
        return None
