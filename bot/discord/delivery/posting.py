"""`Poster`: the presenter's hands on Discord, with every failure handled here.

A channel message, an edit, a deletion or a DM either goes through or its failure is
dealt with where it happens: every call goes through the `Gate` (retry.py), which waits
out Discord's passing failures (5xx, 429, timeouts, reset connections) and lets a
refusal through at once; a missing channel permission (50013/50001) is told once, by
DM, to the table's creator; a vanished channel or message is logged. Nothing here
raises into a delivery queue except a refused DM (the caller decides what a closed DM
means) and `Superseded` (the caller's ``wanted`` said a newer delivery replaces it).
Every message is created with a ``nonce`` (discord.py adds ``enforce_nonce``): a call
tried again after a timeout or a lost answer gets the first message back.
Announcements go through `once`: sent so that they appear exactly once, crash or not
(see `Receipt`).
"""

from __future__ import annotations

import io
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import aiohttp
import discord
from discord.http import Route, handle_message_parameters

from bot import metrics
from bot.discord.core.i18n import LocaleLike, t
from bot.discord.delivery.memory import PresenterMemory
from bot.discord.delivery.retry import Gate, always, nonce_of
from bot.service import Receipt, TableRef

log = logging.getLogger(__name__)

NO_PERMISSION = (50013, 50001)
RECENT = 100
PEOPLE = 10_000
"""People whose language and DM channel are kept at most (the most recent ones): these
maps must not grow with everyone the bot ever wrote to."""
"""How many of a channel's newest messages are searched for an announcement that a
crash left unsure (one history request)."""


class MemoryFile(discord.File):
    """A `discord.File` of bytes in memory that leaves no reference cycle once sent.

    While a request may read the buffer again, discord.py stubs the buffer's ``close``;
    its `discord.File.close` then puts the buffer's own bound ``close`` back on the
    buffer itself: buffer → its ``__dict__`` → bound method → buffer, a cycle only the
    garbage collector frees (every DM's picture was one). Here the stub is taken off
    instead, which gives the buffer back its class's ``close``; nothing is owned to
    close (`tests/e2e/test_bot_garbage.py`)."""

    def close(self) -> None:
        vars(self.fp).pop("close", None)


async def one_body(fields: list[dict[str, Any]]) -> aiohttp.Payload:
    """A multipart upload (the fields `handle_message_parameters` made: the JSON, then
    each file) as one body of bytes, the same parts as discord.py would send (through
    aiohttp's form: each part's type and disposition, unquoted names, utf-8). Given the
    fields, discord.py has aiohttp write each part's boundary, headers, bytes and line
    end apart: eight writes to the socket for a DM with its picture, each a system call
    that wakes the receiver; one body is one write, with the request's headers. Joined
    here, not by aiohttp's form and writer: their objects and headers a part cost about
    a fifth of a millisecond of the event loop a DM (`bench/discord.py --profile`)."""
    boundary = secrets.token_hex(16).encode()
    chunks = []
    for field in fields:
        data, kind = _part_bytes(field)
        disposition = f'form-data; name="{_unquoted(field["name"])}"'
        if field.get("filename") is not None:
            disposition += f'; filename="{_unquoted(field["filename"])}"'
        chunks += [b"--", boundary, b"\r\nContent-Type: ", kind.encode(),
                   b"\r\nContent-Disposition: ", disposition.encode(), b"\r\n\r\n", data,
                   b"\r\n"]
    chunks += [b"--", boundary, b"--\r\n"]
    return aiohttp.BytesPayload(b"".join(chunks),
                                content_type=f"multipart/form-data; boundary={boundary.decode()}")


def with_components(payload_json: str, components: str) -> str:
    """A request's JSON (an object without components) with ``components`` (a JSON
    array's text) added as its "components"."""
    if not (payload_json.startswith("{") and payload_json.endswith("}")
            and components.startswith("[") and components.endswith("]")):
        raise ValueError("not a JSON object and a JSON array")
    body = payload_json[1:-1]
    return "{" + body + ("," if body else "") + '"components":' + components + "}"


def _part_bytes(field: dict[str, Any]) -> tuple[bytes, str]:
    """A field's bytes and content type (aiohttp's default for text and for bytes)."""
    value = field["value"]
    if isinstance(value, str):
        return value.encode(), field.get("content_type") or "text/plain; charset=utf-8"
    if isinstance(value, io.BytesIO):
        value = value.getvalue()
    elif not isinstance(value, (bytes, bytearray)):
        value = value.read()  # a file
    return bytes(value), field.get("content_type") or "application/octet-stream"


def _unquoted(value: str) -> str:
    """A disposition parameter as aiohttp's form writes it unquoted (``quote_fields``
    False, as discord.py's form: names and file names in utf-8)."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def silent_flags() -> discord.MessageFlags:
    """The flags of a message that does not notify (SUPPRESS_NOTIFICATIONS, 1 << 12;
    what discord.py's ``send(silent=True)`` sets)."""
    return discord.MessageFlags(suppress_notifications=True)


def memory_file(data: bytes, filename: str) -> discord.File:
    """``data`` (a picture, a text) as a file to send."""
    return MemoryFile(io.BytesIO(data), filename=filename)


class Poster:
    def __init__(self, client: discord.Client, memory: PresenterMemory) -> None:
        self.client = client
        self.memory = memory
        self.languages: OrderedDict[int, str] = OrderedDict()
        """The language each person last used, as far as the notices told: the
        creator's permission DM speaks it (their game DMs carry their own); the
        `PEOPLE` most recent."""
        self._reported: set[int] = set()
        self._dm_channels: OrderedDict[int, discord.abc.Messageable] = OrderedDict()
        """Each person's DM channel, opened once (the `PEOPLE` most recent)."""
        self.gate = Gate(global_over=lambda: _global_over(client))
        """Every call to Discord goes through it (retry.py)."""

    def channel_locale(self, ref: TableRef) -> LocaleLike:
        guild = self.client.get_guild(ref.guild_id)
        return guild.preferred_locale if guild is not None else None

    def user_locale(self, user_id: int | None, ref: TableRef) -> LocaleLike:
        return self.languages.get(user_id or 0) or self.channel_locale(ref)

    def learn(self, user_id: int | None, locale: str | None) -> None:
        if user_id is not None and locale:
            _keep(self.languages, user_id, locale)

    async def channel(self, ref: TableRef) -> discord.abc.Messageable | None:
        channel = self.client.get_channel(ref.channel_id)
        if channel is None:
            try:
                channel = await self.gate.call(
                    lambda: self.client.fetch_channel(ref.channel_id), what="a channel")
            except discord.HTTPException:
                log.warning("table %s: channel %s is gone", ref.table_id, ref.channel_id)
                return None
        return channel  # type: ignore[return-value]  # a table's channel takes messages

    async def send(self, ref: TableRef, *, wanted: Callable[[], bool] = always,
                   nonce: str | None = None, **kwargs: Any) -> discord.Message | None:
        """A channel message; a missing permission is reported, never raised. Tried
        until Discord answers or ``wanted()`` says False (`Superseded`); ``nonce``: the
        delivery's (`nonce_of`; by default one for this call, its tries alike)."""
        channel = await self.channel(ref)
        if channel is None:
            return None
        kwargs["nonce"] = nonce or nonce_of("send", secrets.token_hex(8))
        file: discord.File | None = kwargs.get("file")

        def make() -> Awaitable[discord.Message]:
            if file is not None:
                file.reset()  # a try read it to its end
            return channel.send(**kwargs)

        try:
            return await self.gate.call(make, wanted=wanted, what="a channel message")
        except discord.Forbidden as exc:
            metrics.delivery_failed("channel", str(exc.code or exc.status))
            await self.permission_error(ref, exc)
        except discord.HTTPException as exc:
            metrics.delivery_failed("channel", str(exc.code or exc.status))
            log.warning("table %s: channel send failed: %s %s", ref.table_id, exc.status,
                        exc.code)
        return None

    async def edit(self, ref: TableRef, message_id: int, *,
                   wanted: Callable[[], bool] = always, **kwargs: Any) -> bool:
        """Edit a channel message; False when it is gone (post a new one instead)."""
        channel = await self.channel(ref)
        if channel is None or not hasattr(channel, "get_partial_message"):
            return False
        message = channel.get_partial_message(message_id)
        return await self._edited(ref, lambda: message.edit(**kwargs), wanted)

    async def edit_picture(self, ref: TableRef, message_id: int, *, content: str,
                           picture: discord.File, wanted: Callable[[], bool] = always
                           ) -> bool:
        """`edit` of a channel message to ``content`` and ``picture`` (the table's, every
        few clicks), the same request discord.py's edit makes, but its body in one write
        (`one_body`: a multipart body left in eight writes, each waking the receiver)
        and Discord's answer not made into a `discord.Message` (never read). The same
        failures as `edit`: False when the message is gone."""
        channel = await self.channel(ref)
        if channel is None or not hasattr(channel, "get_partial_message"):
            return False
        return await self._edited(
            ref, lambda: self._patch_picture(ref, message_id, content, picture), wanted)

    async def _patch_picture(self, ref: TableRef, message_id: int, content: str,
                             picture: discord.File) -> None:
        picture.reset()  # a try read it to its end
        with handle_message_parameters(
                content=content, attachments=[picture],
                previous_allowed_mentions=self.client.allowed_mentions) as params:
            body = await one_body(params.multipart or [])
            route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                          channel_id=ref.channel_id, message_id=message_id)
            await self.client.http.request(route, data=body)

    async def _edited(self, ref: TableRef, request: Callable[[], Awaitable[object]],
                      wanted: Callable[[], bool]) -> bool:
        """Make an edit's request until Discord answers it: False when the message is
        gone. A missing permission goes to `permission_error`, any other refusal to the
        log; both give True, the message being still there (so no new one is posted)."""
        try:
            await self.gate.call(request, wanted=wanted, what="an edit")
            return True
        except discord.NotFound:
            return False
        except discord.Forbidden as exc:
            await self.permission_error(ref, exc)
            return True
        except discord.HTTPException as exc:
            log.warning("table %s: edit failed: %s %s", ref.table_id, exc.status, exc.code)
            return True

    async def delete(self, ref: TableRef, message_id: int) -> None:
        channel = await self.channel(ref)
        if channel is None or not hasattr(channel, "get_partial_message"):
            return
        message = channel.get_partial_message(message_id)
        try:
            await self.gate.call(message.delete, what="a deletion")
        except discord.HTTPException as exc:
            log.info("table %s: old message not deleted (%s)", ref.table_id, exc.status)

    def forget(self, table_id: int) -> None:
        """The table is over: its permission report is not needed any more."""
        self._reported.discard(table_id)

    async def dm(self, user_id: int, *, wanted: Callable[[], bool] = always,
                 nonce: str | None = None, **kwargs: Any) -> discord.Message:
        """Send a DM (the DM channel is opened once per user), tried until Discord
        answers; raises on a refusal (and `Superseded`)."""
        channel = await self.dm_channel(user_id)
        kwargs["nonce"] = nonce or nonce_of("dm", secrets.token_hex(8))
        return await self.gate.call(lambda: channel.send(**kwargs), wanted=wanted,
                                    what="a DM")

    async def edit_dm(self, user_id: int, message_id: int, **kwargs: Any) -> None:
        """Edit a DM (its buttons taken off), tried until Discord answers; raises on a
        refusal."""
        message = (await self.dm_channel(user_id)).get_partial_message(message_id)
        await self.gate.call(lambda: message.edit(**kwargs), what="a DM's edit")

    async def dm_channel(self, user_id: int) -> discord.DMChannel:
        """The user's DM channel, opened once."""
        channel = self._dm_channels.get(user_id)
        if channel is None:
            channel = await self.gate.call(
                lambda: self.client.create_dm(discord.Object(user_id)), what="a DM channel")
        _keep(self._dm_channels, user_id, channel)
        return channel  # type: ignore[return-value]  # create_dm's

    async def dm_id(self, user_id: int, *, content: str, file: discord.File,
                    components: str, silent: bool = False,
                    wanted: Callable[[], bool] = always, nonce: str | None = None) -> int:
        """Send a DM as `dm` does (the same request), and return only its id: the hand
        DMs' answer is never read, and discord.py's `Message` made of it (its
        components parsed back, the client's cache) was a tenth of the bot's time per
        click. Its body leaves in one write (`one_body`). Raises on failure, as `dm`.
        ``components``: the DM's components as JSON text, composed with it in the
        picture process (`bot.discord.play.dms.compose_dm`), joined to the request's
        JSON as they are (`with_components`).
        ``silent``: sent with the suppress-notifications flag (as discord.py's
        ``silent=True``): it arrives without notifying. Tried until Discord answers or
        ``wanted()`` says False (`Superseded`), with ``nonce`` (the delivery's,
        `nonce_of`) every time: Discord makes one message of them."""
        channel = await self.dm_channel(user_id)
        extra: dict[str, Any] = {"flags": silent_flags()} if silent else {}
        sent_as = nonce or nonce_of("dm", secrets.token_hex(8))

        async def make() -> Any:
            file.reset()  # a try read it to its end
            with handle_message_parameters(
                    content=content, file=file, nonce=sent_as,
                    previous_allowed_mentions=self.client.allowed_mentions,
                    **extra) as params:
                fields = params.multipart or []
                fields[0]["value"] = with_components(fields[0]["value"], components)
                body = await one_body(fields)
                route = Route("POST", "/channels/{channel_id}/messages",
                              channel_id=channel.id)
                return await self.client.http.request(route, data=body)

        data = await self.gate.call(make, wanted=wanted, what="a DM")
        return int(data["id"])

    async def permission_error(self, ref: TableRef, exc: discord.Forbidden) -> None:
        """Say it once to whoever opened the table (by DM), then stay quiet."""
        if exc.code not in NO_PERMISSION:
            log.warning("table %s: forbidden %s", ref.table_id, exc.code)
            return
        if ref.table_id in self._reported:
            return
        self._reported.add(ref.table_id)
        if (await self.memory.recall(ref.table_id)).permission_error_reported:
            return  # told before a restart
        await self.memory.set_permission_error_reported(ref.table_id)
        log.warning("table %s: missing permission in channel %s (%s)", ref.table_id,
                    ref.channel_id, exc.code)
        if ref.creator_id is None:
            return
        what = "Send Messages / Attach Files" if exc.code == 50013 else "View Channel"
        text = t("perm.missing", self.user_locale(ref.creator_id, ref), table=ref.table_id,
                 channel=ref.channel_id, what=what)
        try:
            await self.dm(ref.creator_id, content=text)
        except discord.HTTPException as exc:
            log.warning("table %s: the creator could not be told (%s)", ref.table_id,
                        exc.code)

    # ------------------------------------------------------------------ exactly once

    async def once(self, ref: TableRef, receipt: Receipt | None,
                   mark: Callable[[discord.Message], bool],
                   send: Callable[[str | None], Awaitable[discord.Message | None]]) -> None:
        """Send an announcement so that it appears once, crash or not.

        The receipt is marked ``sending`` before the send and ``delivered`` after
        Discord accepted it; ``send`` is given the announcement's nonce (its key's:
        a send tried again, by any process, makes no second message while Discord
        remembers the nonce). One a crash left ``sending`` (``unsure``) may be in the
        channel already: it is looked for there (``mark``) before it is sent again.
        A send Discord refused stays ``sending``, tried again at the next start."""
        if receipt is None:
            await send(None)
            return
        if receipt.unsure and await self._posted(ref, mark):
            await receipt.delivered()
            return
        await receipt.sending()
        if await send(nonce_of("announcement", receipt.key)) is not None:
            await receipt.delivered()

    async def _posted(self, ref: TableRef, mark: Callable[[discord.Message], bool]) -> bool:
        """Whether one of the channel's newest messages is the bot's and ``mark``s."""
        channel = await self.channel(ref)
        me = self.client.user
        if channel is None or me is None or not hasattr(channel, "history"):
            return False
        async def read() -> list[discord.Message]:
            return [m async for m in channel.history(limit=RECENT)]

        try:
            recent = await self.gate.call(read, what="recent messages")
        except discord.HTTPException as exc:  # e.g. no Read Message History: send again
            log.warning("table %s: recent messages unreadable (%s %s)", ref.table_id,
                        exc.status, exc.code)
            return False
        return any(m.author.id == me.id and mark(m) for m in recent)


K = TypeVar("K")
V = TypeVar("V")


def _keep(recent: OrderedDict[K, V], key: K, value: V) -> None:
    """``key`` is the most recent of ``recent``, which keeps the `PEOPLE` most recent."""
    recent[key] = value
    recent.move_to_end(key)
    if len(recent) > PEOPLE:
        recent.popitem(last=False)


def _global_over(client: discord.Client) -> bool:
    """Whether discord.py is not sleeping out a global rate limit (its event, set while
    requests may go)."""
    event = getattr(client.http, "_global_over", None)
    return event is None or event.is_set()


def has_file(name: str) -> Callable[[discord.Message], bool]:
    return lambda message: any(a.filename == name for a in message.attachments)


def same_text(text: str) -> Callable[[discord.Message], bool]:
    return lambda message: message.content.strip() == text.strip()
