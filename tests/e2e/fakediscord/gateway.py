"""The fake gateway: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME.

Shards as Discord has them: IDENTIFY's ``shard: [id, count]`` makes the session that
shard's; its READY and GUILD_CREATEs hold only the guilds it owns (``(guild_id >> 22) %
count == id``), a guild's events go to the session of the shard owning it and DM
events to shard 0. A client that sends no ``shard`` is shard 0 of 1 (every guild).

Frames are sent as uncompressed text, which discord.py accepts whatever ``compress``
it asked for in the query string.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .models import FakeGuild, JsonDict
from .state import FakeState

log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, RESUME = 0, 1, 2, 6
RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 7, 8, 9, 10, 11
HEARTBEAT_INTERVAL_MS = 41_250


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard Discord sends a guild's events to; DMs go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % count


@dataclass
class Session:
    """One gateway connection and its (resumable) session."""

    ws: web.WebSocketResponse
    session_id: str = field(default_factory=lambda: secrets.token_hex(16))
    sequence: int = 0
    identified: bool = False
    heartbeats: int = 0
    sent: list[JsonDict] = field(default_factory=list)
    shard: tuple[int, int] = (0, 1)
    """(shard id, shard count) as IDENTIFY said."""
    ready_at: float | None = None
    """When READY was sent (``time.time()``, as `RecordedRequest.time`)."""
    dropped: bool = False
    """Its connection was dropped (`Gateway.drop`) and it may be resumed: events for
    it are kept and sent on RESUME."""
    resumes: int = 0
    """How many times it was resumed."""

    def owns(self, guild_id: int | None) -> bool:
        """Whether Discord would send this guild's events (None: DMs) to this session."""
        shard_id, count = self.shard
        return shard_id == shard_of(guild_id, count)

    @property
    def open(self) -> bool:
        """Whether the connection is usable."""
        return self.identified and not self.ws.closed

    async def send(self, op: int, data: Any, event: str | None = None) -> None:
        """Send one frame; dispatches carry the next sequence number (while dropped,
        they are only kept, for the RESUME)."""
        frame: JsonDict = {"op": op, "d": data, "s": None, "t": event}
        if op == DISPATCH:
            self.sequence += 1
            frame["s"] = self.sequence
            self.sent.append(frame)
        if self.dropped:
            return
        await self.ws.send_str(json.dumps(frame))


class Gateway:
    """Serves ``/gateway/`` websockets for one :class:`FakeState`."""

    def __init__(self, state: FakeState) -> None:
        self.state = state
        self.sessions: list[Session] = []
        self.identify_delay = 0.0
        """Seconds between IDENTIFY and READY (Discord takes a moment, more for a bot on
        many servers): what a bot does meanwhile happens before it knows its guilds."""

    def install(self, app: web.Application) -> None:
        """Add the websocket route."""
        app.router.add_get("/gateway/", self.handle)
        app.router.add_get("/gateway", self.handle)

    @property
    def url(self) -> str:
        """The websocket URL discord.py should connect to."""
        return self.state.base_url.replace("http://", "ws://", 1) + "/gateway/"

    def current(self) -> Session | None:
        """The most recently identified open session, if any."""
        live = [s for s in self.sessions if s.open]
        return live[-1] if live else None

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """One websocket connection, from HELLO to close."""
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        session = Session(ws)
        await session.send(HELLO, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    break
                session = await self._on_frame(session, json.loads(msg.data))
        finally:
            if session.ws is ws:  # not taken over by a RESUME on a newer socket
                session.identified = False
            self.state.notify()
        return ws

    async def _on_frame(self, session: Session, frame: JsonDict) -> Session:
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            session.heartbeats += 1
            await session.send(HEARTBEAT_ACK, None)
        elif op == IDENTIFY:
            await self._identify(session, data or {})
        elif op == RESUME:
            session = await self._resume(session, data or {})
        elif op == REQUEST_MEMBERS:
            await self._members_chunk(session, data or {})
        else:
            log.debug("fake gateway ignores op %s", op)
        return session

    async def _identify(self, session: Session, data: JsonDict) -> None:
        state = self.state
        shard = data.get("shard") or [0, 1]
        session.shard = (int(shard[0]), int(shard[1]))
        if self.identify_delay:
            await asyncio.sleep(self.identify_delay)
        session.identified = True
        self.sessions.append(session)
        guilds = [g for g in list(state.guilds.values()) if session.owns(g.id)]
        ready = {
            "v": 10,
            "user": {**state.bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "resume_gateway_url": self.url,
            "application": {"id": str(state.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "shard": list(session.shard),
        }
        session.ready_at = time.time()
        await session.send(DISPATCH, ready, "READY")
        for guild in guilds:
            await session.send(DISPATCH, self.guild_create(guild), "GUILD_CREATE")
        state.notify()

    async def _resume(self, session: Session, data: JsonDict) -> Session:
        old = next((s for s in self.sessions if s.session_id == data.get("session_id")), None)
        if old is None:
            await session.send(INVALID_SESSION, False)
            return session
        old.ws = session.ws
        old.identified = True
        old.dropped = False
        old.resumes += 1
        seen = int(data.get("seq") or 0)
        for frame in [f for f in old.sent if f["s"] > seen]:  # what it missed, in order
            await old.ws.send_str(json.dumps(frame))
        await old.send(DISPATCH, {}, "RESUMED")
        self.state.notify()
        return old

    async def _members_chunk(self, session: Session, data: JsonDict) -> None:
        guild = self.state.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        members = [guild.member_payload(self.state.users[u]) for u in guild.members]
        chunk = {"guild_id": str(guild.id), "members": members, "chunk_index": 0,
                 "chunk_count": 1, "nonce": data.get("nonce")}
        await session.send(DISPATCH, chunk, "GUILD_MEMBERS_CHUNK")

    def guild_create(self, guild: FakeGuild) -> JsonDict:
        """The full GUILD_CREATE payload; member_count matches so no chunking is needed."""
        users = self.state.users
        members = [guild.member_payload(users[u]) for u in guild.members]
        return {
            "id": str(guild.id), "name": guild.name, "icon": None,
            "owner_id": str(guild.owner_id), "preferred_locale": guild.locale,
            "roles": [r.payload() for r in guild.roles],
            "channels": [self.state.channels[c].payload() for c in guild.channel_ids],
            "members": members, "member_count": len(members), "large": False,
            "unavailable": False, "features": [], "emojis": [], "stickers": [], "threads": [],
            "presences": [], "voice_states": [], "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [], "joined_at": guild.joined_at,
            "mfa_level": 0, "verification_level": 0, "explicit_content_filter": 0,
            "default_message_notifications": 0, "nsfw_level": 0, "premium_tier": 0,
            "afk_timeout": 300, "system_channel_id": None, "system_channel_flags": 0,
        }

    def session_for(self, guild_id: int | None) -> Session | None:
        """The newest open session of the shard owning the guild (None: DMs, shard 0),
        else the newest dropped one that may be resumed (it gets the event on RESUME)."""
        live = [s for s in self.sessions if s.open and s.owns(guild_id)]
        if not live:
            live = [s for s in self.sessions if s.dropped and s.owns(guild_id)]
        return live[-1] if live else None

    async def drop(self, resume: bool = True) -> None:
        """Close every open connection (code 4000, as a network failure): discord.py
        reconnects and RESUMEs. Without ``resume`` the sessions are forgotten, so the
        RESUME is refused (INVALID_SESSION) and the bot IDENTIFYs anew."""
        for session in [s for s in self.sessions if s.open]:
            session.dropped = resume
            if not resume:
                self.sessions.remove(session)
            session.identified = False
            await session.ws.close(code=4000, message=b"dropped by the fake")
        self.state.notify()

    async def dispatch(self, event: str, data: JsonDict, *, guild_id: int | None = None,
                       routed: bool = False) -> Session:
        """Send a dispatch to the current session (RuntimeError if none is open); when
        ``routed``, to the session of the shard owning ``guild_id`` (DMs: shard 0)."""
        session = self.session_for(guild_id) if routed else (
            self.current() or self._dropped())
        if session is None:
            where = f"the shard of guild {guild_id}" if guild_id is not None else "shard 0"
            raise RuntimeError(f"fake discord: no bot is connected to the gateway on "
                               f"{where if routed else 'any shard'}")
        await session.send(DISPATCH, data, event)
        return session

    def _dropped(self) -> Session | None:
        dropped = [s for s in self.sessions if s.dropped]
        return dropped[-1] if dropped else None

    async def reconnect(self) -> None:
        """Ask the current session to reconnect (op 7); it should RESUME."""
        session = self.current()
        if session is None:
            raise RuntimeError("fake discord: no bot is connected to the gateway")
        await session.send(RECONNECT, None)
