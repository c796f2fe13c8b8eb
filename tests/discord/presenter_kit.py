"""A small fake discord.py client for the presenter's unit tests, and constructed notices.

Only what `DiscordNotifier` touches: a guild (its locale), one text channel, DM
channels that can refuse (50007), messages that can be edited and deleted. Every send
is recorded in order. The end-to-end tests run the real client against the fake Discord
(tests/e2e); these read the presenter alone, on notices built by hand.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import random
from dataclasses import dataclass, field
from email.message import Message
from email.parser import BytesParser
from email.policy import HTTP
from types import SimpleNamespace
from typing import Any, cast

import discord
from discord.http import Route

from bot.discord.delivery.memory import InMemory, PresenterMemory
from bot.discord.table.notifier import DiscordNotifier
from bot.service import Cause, MoveNotice, PrivateNotice, SeatInfo, TableNotice, TableRef
from bot.service.live import step_of
from bot.service.notices import Mentions, MoveKind
from bot.store import StandingChoices
from engine import rules
from engine.game import Event, HandState, apply, legal_actions, new_hand
from engine.game.state import Phase
from engine.rules.common import ActionKind
from engine.tiles import full_set

GUILD, CHANNEL, TABLE = 900, 901, 7
CREATOR = 100
USERS = (100, 101, 102, 103)
NAMES = ("Ann", "Bo", "Cid", "Dee")
REF = TableRef(TABLE, GUILD, CHANNEL, creator_id=CREATOR)
_ids = itertools.count(5000)


def forbidden(code: int) -> discord.Forbidden:
    response = SimpleNamespace(status=403, reason="Forbidden")
    return discord.Forbidden(response, {"code": code, "message": "refused"})


def not_found() -> discord.NotFound:
    response = SimpleNamespace(status=404, reason="Not Found")
    return discord.NotFound(response, {"code": 10008, "message": "Unknown Message"})


@dataclass
class Sent:
    """One message as the fake received it (``where``: "channel" or the DMed user)."""

    where: str | int
    id: int
    content: str | None
    kwargs: dict[str, Any]
    deleted: bool = False
    edits: list[dict[str, Any]] = field(default_factory=list)

    @property
    def filenames(self) -> list[str]:
        files = [self.kwargs.get("file"), *(self.kwargs.get("attachments") or [])]
        return [f.filename for f in files if f is not None]


class FakeChannel:
    def __init__(self, client: FakeClient, where: str | int) -> None:
        self.client = client
        self.where = where
        self.id = CHANNEL if where == "channel" else where

    async def send(self, **kwargs: Any) -> Any:
        refusal = self.client.refuse.get(self.where)
        if refusal is not None:
            raise forbidden(refusal)
        gate = self.client.gate
        if gate is not None:  # held, as a slow Discord would, till the test lets go
            self.client.waiting += 1
            await gate.wait()
        sent = Sent(self.where, next(_ids), kwargs.get("content"), kwargs)
        self.client.sent.append(sent)
        return SimpleNamespace(id=sent.id, channel=self)

    def get_partial_message(self, message_id: int) -> Any:
        sent = next(s for s in self.client.sent if s.id == message_id)

        async def edit(**kwargs: Any) -> None:
            if sent.deleted:
                raise not_found()
            sent.edits.append(kwargs)

        async def delete() -> None:
            sent.deleted = True

        return SimpleNamespace(edit=edit, delete=delete)


class SentComponents:
    """The components of a message sent as a request's payload (`FakeHttp`), read back
    as a view's (``to_components``)."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        self.components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self.components


class FakeHttp:
    """discord.py's HTTP client, as far as the presenter calls it (a hand DM is sent as
    one request of one multipart body, its answer's id alone read): recorded like a
    channel's ``send``, the body read back into its parts."""

    def __init__(self, client: FakeClient) -> None:
        self.client = client

    async def request(self, route: Route, *, data: Any) -> dict[str, Any]:
        channel_id = route.channel_id
        head = f"Content-Type: {data.content_type}\r\n\r\n".encode()
        body = BytesParser(policy=HTTP).parsebytes(head + await data.as_bytes())
        parts = {p.get_param("name", header="content-disposition"): p
                 for p in body.iter_parts()}
        payload = json.loads(_body(parts["payload_json"]))
        picture = parts.get("files[0]")
        file = None if picture is None else discord.File(
            io.BytesIO(_body(picture)), filename=picture.get_filename())
        if route.method == "PATCH":  # a channel message's picture edited (edit_picture)
            assert route.path == "/channels/{channel_id}/messages/{message_id}"
            message_id = int(route.url.rsplit("/", 1)[1])
            message = FakeChannel(self.client, "channel").get_partial_message(message_id)
            await message.edit(content=payload.get("content"), attachments=[file])
            return {"id": str(message_id), "channel_id": str(channel_id)}
        assert route.method == "POST" and route.path == "/channels/{channel_id}/messages"
        assert channel_id is not None
        sent = await FakeChannel(self.client, channel_id).send(
            content=payload.get("content"), file=file,
            view=SentComponents(payload.get("components", [])))
        return {"id": str(sent.id), "channel_id": str(channel_id)}


class FakeClient:
    def __init__(self, guild_locale: str = "en-US") -> None:
        self.http = FakeHttp(self)
        self.allowed_mentions: discord.AllowedMentions | None = None
        self.gate: asyncio.Event | None = None
        """When set, every send waits for it (two processes' sends in flight at once)."""
        self.waiting = 0
        """How many sends reached the gate."""
        self.sent: list[Sent] = []
        self.refuse: dict[str | int, int] = {}
        """Where a send is refused, with the error code (50007 for a user's DMs)."""
        self.guild = SimpleNamespace(preferred_locale=discord.Locale(guild_locale))
        self.channel = FakeChannel(self, "channel")
        self.user = SimpleNamespace(id=1)

    def get_guild(self, guild_id: int) -> Any:
        return self.guild if guild_id == GUILD else None

    def get_channel(self, channel_id: int) -> Any:
        return self.channel if channel_id == CHANNEL else None

    async def create_dm(self, user: discord.abc.Snowflake) -> FakeChannel:
        return FakeChannel(self, user.id)

    def dms(self, user: int) -> list[Sent]:
        return [s for s in self.sent if s.where == user]

    def in_channel(self) -> list[Sent]:
        return [s for s in self.sent if s.where == "channel"]


def as_client(client: FakeClient) -> discord.Client:
    """The fake client, standing in for discord.py's (it has what the presenter uses)."""
    return cast(discord.Client, client)


def _body(part: Message[Any, Any]) -> bytes:
    body = part.get_payload(decode=True)
    assert isinstance(body, bytes), "a part's body, decoded"
    return body


def presenter(client: FakeClient, memory: PresenterMemory | None = None, *,
              shared: bool = False, repost_after: float = 3600.0) -> DiscordNotifier:
    """A presenter on ``client``; ``shared``: one of several processes on ``memory``."""
    return DiscordNotifier(as_client(client), memory or InMemory(), table_interval=0.0,
                           repost_after=repost_after, shared=shared)


async def settle(notifier: DiscordNotifier) -> None:
    """Until every queued delivery (and the picture's coalescing timer) has run."""
    for _ in range(50):
        await asyncio.sleep(0)
        await notifier.outbox.drain()
        if not notifier.outbox.busy():
            await asyncio.sleep(0)
            if not notifier.outbox.busy():
                return


def dealt(seed: int | None = None) -> HandState:
    """A Shanghai hand dealt by seat 0 (its turn), from a wall in order or shuffled."""
    wall = list(full_set(rules.get("shanghai").has_flowers))
    if seed is not None:
        random.Random(seed).shuffle(wall)
    state, _ = new_hand("shanghai", None, tuple(wall), 0, (2, 5))
    return state


def discarded(state: HandState, *, claimable: bool = False) -> tuple[HandState, tuple[Event, ...]]:
    """After seat 0's first discard (one that opens a claim window if ``claimable``)."""
    for action in legal_actions(state, 0):
        if action.kind is ActionKind.DISCARD:
            after, events = apply(state, action)
            if (after.phase is not Phase.TURN) == claimable:
                return after, events
    raise AssertionError("no such discard in this deal")


def seats(*, computer: int | None = None) -> tuple[SeatInfo, ...]:
    return tuple(SeatInfo(i, USERS[i] if i != computer else None, NAMES[i], i == computer)
                 for i in range(4))


def private(state: HandState, seat: int, *, hand: int = 1, cause: Cause | None = None,
            locale: str | None = None, reminder: bool = False,
            choices: StandingChoices | None = None, away: bool = False) -> PrivateNotice:
    return PrivateNotice(REF, seat, USERS[seat], NAMES, hand, step_of(state, seat), 1e9,
                         state, choices=choices or StandingChoices(), away=away,
                         locale=locale, cause=cause, reminder=reminder)


def move(seat: int, step: int, *, hand: int = 1, kind: MoveKind = "turn",
         reminder: bool = False, mentions: Mentions = "when_needed",
         discarder: int | None = None) -> MoveNotice:
    return MoveNotice(REF, seat, USERS[seat], hand, step, kind, 1e9,
                      reminder=reminder, seats=seats(), mentions=mentions,
                      discarder=discarder)


def table(state: HandState, *, events: tuple[Any, ...] = (), hand: int = 1,
          table_seats: tuple[SeatInfo, ...] | None = None) -> TableNotice:
    return TableNotice(REF, NAMES, hand, state.seq, (), (), events, state,
                       seats=seats() if table_seats is None else table_seats)
