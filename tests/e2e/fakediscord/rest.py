"""The fake's REST API under ``/api/v10``: the routes discord.py calls, recorded.

Every request goes through :func:`RestApi.middleware`, which parses the body (JSON or
multipart ``payload_json`` + ``files[n]``), records it, answers unknown routes with a
JSON 404 and wakes the tests' waiters.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import BodyPartReader, web

from .faults import Fault, Faults, serve
from .models import (
    EPHEMERAL,
    LOADING,
    FakeMessage,
    InteractionRecord,
    InteractionResponse,
    JsonDict,
    RecordedRequest,
    UploadedFile,
)
from .state import FakeState

API = "/api/v10"
RECORD = web.RequestKey("record", RecordedRequest)
BODY: web.RequestKey[Any] = web.RequestKey("body", object)
FILES = web.RequestKey("files", list[UploadedFile])
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def reply(request: web.Request, data: Any, status: int = 200) -> web.Response:
    """A JSON answer with ``Content-Type: application/json`` exactly (no charset)."""
    record: RecordedRequest = request[RECORD]
    record.response = data
    body = json.dumps(data).encode()
    return web.Response(body=body, status=status, headers={"Content-Type": "application/json"})


def no_content(request: web.Request) -> web.Response:
    """A 204 answer."""
    request[RECORD].response = None
    return web.Response(status=204)


def error(request: web.Request, status: int, code: int, message: str) -> web.Response:
    """A Discord-style JSON error."""
    return reply(request, {"code": code, "message": message}, status)


async def parse_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    """The JSON body (or multipart ``payload_json``) and any uploaded files."""
    if request.content_type.startswith("multipart/"):
        return await _parse_multipart(request)
    raw = await request.read()
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except ValueError:
        return raw.decode(errors="replace"), []


async def _parse_multipart(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    reader = await request.multipart()
    body: Any = None
    files: list[UploadedFile] = []
    while (part := await reader.next()) is not None:
        assert isinstance(part, BodyPartReader), "a part in a part"  # discord.py nests none
        data = await part.read(decode=False)
        name = part.name or ""
        if name == "payload_json":
            body = json.loads(data)
        else:
            content_type = part.headers.get("Content-Type", "application/octet-stream")
            files.append(UploadedFile(name, part.filename or name, bytes(data), content_type))
    return body, files


class RestApi:
    """Route handlers over a :class:`FakeState`."""

    def __init__(self, state: FakeState, faults: Faults | None = None) -> None:
        self.state = state
        self.faults = faults if faults is not None else Faults(state)

    def install(self, app: web.Application) -> None:
        """Add the middleware and every route to ``app``."""
        app.middlewares.append(self.middleware)
        add = app.router.add_route
        for method, path, handler in self.routes():
            add(method, API + path, handler)
        add("GET", "/attachments/{attachment_id}/{filename}", self.get_attachment)

    def routes(self) -> list[tuple[str, str, Handler]]:
        """(method, path, handler) for every implemented route; specific paths first."""
        app_cmds = "/applications/{app_id}/commands"
        guild_cmds = "/applications/{app_id}/guilds/{guild_id}/commands"
        hook_msg = "/webhooks/{app_id}/{token}/messages/{message_id}"
        msg = "/channels/{channel_id}/messages/{message_id}"
        return [
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway),
            ("GET", "/users/@me", self.get_me),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/users/{user_id}", self.get_user),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("POST", "/channels/{channel_id}/messages", self.create_message),
            ("GET", "/channels/{channel_id}/messages", self.history),
            ("POST", "/channels/{channel_id}/typing", self.typing),
            ("GET", msg, self.get_message),
            ("PATCH", msg, self.edit_message),
            ("DELETE", msg, self.delete_message),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
            ("GET", app_cmds, self.get_commands),
            ("PUT", app_cmds, self.put_commands),
            ("GET", guild_cmds, self.get_commands),
            ("PUT", guild_cmds, self.put_commands),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.callback),
            ("POST", "/webhooks/{app_id}/{token}", self.create_followup),
            ("GET", hook_msg, self.get_webhook_message),
            ("PATCH", hook_msg, self.edit_webhook_message),
            ("DELETE", hook_msg, self.delete_webhook_message),
        ]

    # -- plumbing ----------------------------------------------------------------

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Parse, record, route (or 404) and notify."""
        if request.path.startswith("/gateway"):
            return await handler(request)
        self.state.in_flight += 1
        try:
            return await self._recorded(request, handler)
        finally:
            self.state.in_flight -= 1
            self.state.notify()

    async def _recorded(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        body, files = await parse_body(request)
        record = RecordedRequest(
            request.method, request.path, dict(request.query), body, files, time.time()
        )
        request[RECORD] = record
        request[BODY] = body if body is not None else {}
        request[FILES] = files
        self.state.requests.append(record)
        try:
            if request.match_info.http_exception is not None:
                record.handled = False
                response: web.StreamResponse = error(request, 404, 0, "404: Not Found")
            else:
                response = await self._faulted(request, handler, record)
        except web.HTTPException:
            raise
        except Exception as exc:  # a bug in the fake or a malformed request: never a 5xx,
            record.error = repr(exc)  # which discord.py would retry with sleeps
            response = error(request, 400, 0, f"fake discord failed: {exc!r}")
        finally:
            record.finished = time.time()
        if record.fault not in ("timeout", "reset", "lost"):
            record.status = response.status
        return response

    async def _faulted(self, request: web.Request, handler: Handler,
                       record: RecordedRequest) -> web.StreamResponse:
        """The handler's answer, or the fault ``fake.faults`` picks for this call."""
        if not request.path.startswith(API + "/"):
            return await handler(request)
        route = f"{request.method} {request.path.removeprefix(API)}"
        fault: Fault = self.faults.pick(route)
        if fault.delay:
            await asyncio.sleep(fault.delay)
        if fault.kind is None:
            return await handler(request)
        record.fault = fault.kind
        response = await serve(self.faults, request, route, fault, lambda: handler(request))
        if fault.kind in ("timeout", "reset", "lost"):
            record.status = 0  # no answer reached the bot
        return response

    def _channel_message(self, request: web.Request) -> FakeMessage | None:
        channel_id = int(request.match_info["channel_id"])
        message = self.state.messages.get(int(request.match_info["message_id"]))
        if message is None or message.deleted or message.channel_id != channel_id:
            return None
        return message

    def _note_target(self, request: web.Request, channel_id: int) -> None:
        record: RecordedRequest = request[RECORD]
        record.channel_id = channel_id
        channel = self.state.channels.get(channel_id)
        if channel is not None and channel.is_dm:
            record.user_id = channel.recipient_id

    def _message_json(self, message: FakeMessage) -> JsonDict:
        return message.payload(self.state.base_url)

    # -- users, application, gateway ---------------------------------------------

    async def get_gateway(self, request: web.Request) -> web.Response:
        """``GET /gateway`` and ``/gateway/bot``."""
        url = self.state.base_url.replace("http://", "ws://", 1) + "/gateway/"
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return reply(request, {"url": url, "shards": 1, "session_start_limit": limit})

    async def get_me(self, request: web.Request) -> web.Response:
        """``GET /users/@me``: the bot user (any token is accepted and kept)."""
        self.state.tokens.append(request.headers.get("Authorization", ""))
        return reply(request, self.state.bot.payload())

    async def get_user(self, request: web.Request) -> web.Response:
        """``GET /users/{id}``."""
        user = self.state.users.get(int(request.match_info["user_id"]))
        if user is None:
            return error(request, 404, 10013, "Unknown User")
        return reply(request, user.payload())

    async def get_application(self, request: web.Request) -> web.Response:
        """``GET /oauth2/applications/@me``."""
        state = self.state
        return reply(request, {
            "id": str(state.application_id), "name": state.bot.name, "description": "",
            "icon": None, "bot_public": True, "bot_require_code_grant": False,
            "owner": state.bot.payload(), "verify_key": "0" * 64, "flags": 0,
            "bot": state.bot.payload(),
        })

    async def create_dm(self, request: web.Request) -> web.Response:
        """``POST /users/@me/channels``: one DM channel per user."""
        user_id = int(request[BODY].get("recipient_id", 0))
        if user_id not in self.state.users:
            return error(request, 400, 50033, "Invalid Recipient(s)")
        channel = self.state.dm_channel(user_id)
        request[RECORD].user_id = user_id
        request[RECORD].channel_id = channel.id
        return reply(request, channel.payload(self.state.users))

    # -- channels and messages ---------------------------------------------------

    async def get_channel(self, request: web.Request) -> web.Response:
        """``GET /channels/{id}``."""
        channel = self.state.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            return error(request, 404, 10003, "Unknown Channel")
        return reply(request, channel.payload(self.state.users))

    async def typing(self, request: web.Request) -> web.Response:
        """``POST /channels/{id}/typing``."""
        return no_content(request)

    async def create_message(self, request: web.Request) -> web.Response:
        """``POST /channels/{id}/messages`` with the 50007 and 50013 failures."""
        channel_id = int(request.match_info["channel_id"])
        self._note_target(request, channel_id)
        channel = self.state.channels.get(channel_id)
        if channel is None:
            return error(request, 404, 10003, "Unknown Channel")
        if channel.is_dm and self.state.users[channel.recipient_id or 0].dms_closed:
            return error(request, 403, 50007, "Cannot send messages to this user")
        if channel.deny_send:
            return error(request, 403, 50013, "Missing Permissions")
        earlier = self.state.created_with_nonce(self.state.bot.id, request[BODY])
        if earlier is not None:  # enforce_nonce: the first message, no new one
            if earlier.deleted:
                return error(request, 404, 10008, "Unknown Message")
            return reply(request, self._message_json(earlier))
        message = self.state.create_message(channel_id, request[BODY], request[FILES])
        return reply(request, self._message_json(message))

    async def history(self, request: web.Request) -> web.Response:
        """``GET /channels/{id}/messages``: newest first, with before/after/limit."""
        channel_id = int(request.match_info["channel_id"])
        if channel_id not in self.state.channels:
            return error(request, 404, 10003, "Unknown Channel")
        before = int(request.query.get("before", 1 << 63))
        after = int(request.query.get("after", 0))
        limit = int(request.query.get("limit", 50))
        found = [
            m for m in self.state.messages.values()
            if m.channel_id == channel_id and not m.deleted and not m.ephemeral
            and after < m.id < before
        ]
        found.sort(key=lambda m: m.id, reverse=True)
        return reply(request, [self._message_json(m) for m in found[:limit]])

    async def get_message(self, request: web.Request) -> web.Response:
        """``GET /channels/{id}/messages/{mid}``."""
        message = self._channel_message(request)
        if message is None:
            return error(request, 404, 10008, "Unknown Message")
        return reply(request, self._message_json(message))

    async def edit_message(self, request: web.Request) -> web.Response:
        """``PATCH /channels/{id}/messages/{mid}``."""
        self._note_target(request, int(request.match_info["channel_id"]))
        message = self._channel_message(request)
        if message is None:
            return error(request, 404, 10008, "Unknown Message")
        self.state.edit_message(message, request[BODY], request[FILES])
        return reply(request, self._message_json(message))

    async def delete_message(self, request: web.Request) -> web.Response:
        """``DELETE /channels/{id}/messages/{mid}``."""
        self._note_target(request, int(request.match_info["channel_id"]))
        message = self._channel_message(request)
        if message is None:
            return error(request, 404, 10008, "Unknown Message")
        message.deleted = True
        return no_content(request)

    async def get_attachment(self, request: web.Request) -> web.Response:
        """The bytes of an uploaded file (what ``Attachment.read()`` fetches)."""
        item = self.state.attachment(int(request.match_info["attachment_id"]))
        if item is None:
            raise web.HTTPNotFound()
        return web.Response(body=item.data, headers={"Content-Type": item.content_type})

    # -- guilds ------------------------------------------------------------------

    async def get_guild(self, request: web.Request) -> web.Response:
        """``GET /guilds/{id}``."""
        guild = self.state.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            return error(request, 404, 10004, "Unknown Guild")
        return reply(request, {
            "id": str(guild.id), "name": guild.name, "icon": None, "owner_id": str(guild.owner_id),
            "roles": [r.payload() for r in guild.roles], "emojis": [], "stickers": [],
            "features": [], "preferred_locale": guild.locale,
        })

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        """``GET /guilds/{id}/channels``."""
        guild = self.state.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            return error(request, 404, 10004, "Unknown Guild")
        channels = [self.state.channels[c].payload() for c in guild.channel_ids]
        return reply(request, channels)

    async def get_member(self, request: web.Request) -> web.Response:
        """``GET /guilds/{id}/members/{uid}``."""
        guild = self.state.guilds.get(int(request.match_info["guild_id"]))
        user_id = int(request.match_info["user_id"])
        if guild is None:
            return error(request, 404, 10004, "Unknown Guild")
        if user_id not in guild.members:
            return error(request, 404, 10007, "Unknown Member")
        return reply(request, guild.member_payload(self.state.users[user_id]))

    # -- application commands ----------------------------------------------------

    def _command_scope(self, request: web.Request) -> int | None:
        guild_id = request.match_info.get("guild_id")
        return int(guild_id) if guild_id is not None else None

    async def get_commands(self, request: web.Request) -> web.Response:
        """``GET`` global or guild commands."""
        guild_id = self._command_scope(request)
        if guild_id is None:
            return reply(request, self.state.global_commands)
        return reply(request, self.state.guild_commands.get(guild_id, []))

    async def put_commands(self, request: web.Request) -> web.Response:
        """``PUT`` (bulk overwrite) global or guild commands; echoed back with ids."""
        if int(request.match_info["app_id"]) != self.state.application_id:
            return error(request, 403, 50001, "Missing Access")
        stored = self.state.store_commands(self._command_scope(request), request[BODY] or [])
        return reply(request, stored)

    # -- interactions ------------------------------------------------------------

    async def callback(self, request: web.Request) -> web.Response:
        """``POST /interactions/{id}/{token}/callback[?with_response=1]``."""
        record = self.state.interactions.get(int(request.match_info["interaction_id"]))
        if record is None or record.token != request.match_info["token"]:
            return error(request, 404, 10062, "Unknown interaction")
        self._note_target(request, record.channel_id)
        if record.responses:
            return error(request, 400, 40060, "Interaction has already been acknowledged.")
        body: JsonDict = request[BODY]
        response = InteractionResponse(int(body["type"]), body.get("data") or {}, request[FILES])
        response.message = self._respond(record, response)
        record.responses.append(response)
        if request.query.get("with_response") not in ("1", "true", "True"):
            return no_content(request)
        return reply(request, self._callback_json(record, response))

    def _respond(
        self, record: InteractionRecord, response: InteractionResponse
    ) -> FakeMessage | None:
        data, files = response.data, response.files
        if response.type in (4, 5):
            body = dict(data)
            if response.type == 5:
                body["flags"] = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            message = self.state.create_message(record.channel_id, body, files, interaction=record)
            record.original_id = message.id
            return message
        source = self.state.messages.get(record.source_message_id or 0)
        if response.type in (6, 7) and source is not None:
            if response.type == 7:
                self.state.edit_message(source, data, files)
            record.original_id = source.id
            return source
        return None

    def _callback_json(self, record: InteractionRecord, response: InteractionResponse) -> JsonDict:
        message = response.message
        interaction: JsonDict = {"id": str(record.id), "type": record.type}
        result: JsonDict = {"interaction": interaction}
        if message is not None and response.type in (4, 5, 7):
            interaction["response_message_id"] = str(message.id)
            interaction["response_message_loading"] = response.type == 5
            interaction["response_message_ephemeral"] = message.ephemeral
            result["resource"] = {"type": response.type, "message": self._message_json(message)}
        else:
            result["resource"] = {"type": response.type}
        return result

    def _interaction_for(self, request: web.Request) -> InteractionRecord | None:
        if int(request.match_info["app_id"]) != self.state.application_id:
            return None
        record = self.state.interactions_by_token.get(request.match_info["token"])
        if record is not None:
            self._note_target(request, record.channel_id)
        return record

    def _expired(self, request: web.Request, record: InteractionRecord | None
                 ) -> web.Response | None:
        """Discord's answer to a webhook call on an interaction whose token has run out
        (`FakeState.token_lifetime`), or None."""
        if record is None or time.monotonic() - record.created <= self.state.token_lifetime:
            return None
        return error(request, 401, 50027, "Invalid Webhook Token")

    def _webhook_message(
        self, request: web.Request, record: InteractionRecord
    ) -> FakeMessage | None:
        raw = request.match_info["message_id"]
        message_id = record.original_id if raw == "@original" else int(raw)
        known = {record.original_id, *record.followup_ids}
        message = self.state.messages.get(message_id or 0)
        if message is None or message.deleted or message_id not in known:
            return None
        return message

    async def create_followup(self, request: web.Request) -> web.Response:
        """``POST /webhooks/{app}/{token}``: a followup (the first after a defer
        replaces the "thinking" message, keeping the defer's ephemerality)."""
        record = self._interaction_for(request)
        if (expired := self._expired(request, record)) is not None:
            return expired
        if record is None:
            return error(request, 404, 10015, "Unknown Webhook")
        if not record.responses:
            return error(request, 404, 10015, "Unknown Webhook")
        original = self.state.messages.get(record.original_id or 0)
        body: JsonDict = dict(request[BODY])
        if original is not None and original.flags & LOADING and not original.deleted:
            self.state.edit_message(original, body, request[FILES])
            message = original
        else:
            message = self.state.create_message(
                record.channel_id, body, request[FILES], interaction=record
            )
        record.followup_ids.append(message.id)
        return reply(request, self._message_json(message))

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        """``GET /webhooks/{app}/{token}/messages/{id|@original}``."""
        record = self._interaction_for(request)
        if (expired := self._expired(request, record)) is not None:
            return expired
        message = self._webhook_message(request, record) if record else None
        if message is None:
            return error(request, 404, 10008, "Unknown Message")
        return reply(request, self._message_json(message))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        """``PATCH /webhooks/{app}/{token}/messages/{id|@original}``."""
        record = self._interaction_for(request)
        if (expired := self._expired(request, record)) is not None:
            return expired
        message = self._webhook_message(request, record) if record else None
        if message is None:
            return error(request, 404, 10008, "Unknown Message")
        self.state.edit_message(message, request[BODY], request[FILES])
        return reply(request, self._message_json(message))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        """``DELETE /webhooks/{app}/{token}/messages/{id|@original}``."""
        record = self._interaction_for(request)
        if (expired := self._expired(request, record)) is not None:
            return expired
        message = self._webhook_message(request, record) if record else None
        if message is None:
            return error(request, 404, 10008, "Unknown Message")
        message.deleted = True
        return no_content(request)
