"""`Cause`: who asked for a change, carried into the service and out on its notices.

The adapter builds one per interaction (a slash command or a click) and passes it to
every command; the service never reads it from ambient state. Notices caused by the
command carry it back out, so a presenter can tell a player's own click from someone
else's move (and not echo the move to the player who just made it). Its `Place` says
where the request was made: every table it names is judged there (`Queries.find_table`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Place:
    """Where a request was made: a server's channel, or (``guild_id`` None) the person's
    private messages with the bot."""

    guild_id: int | None
    channel_id: int

    @property
    def private(self) -> bool:
        return self.guild_id is None


@dataclass(frozen=True)
class Cause:
    """A person's request, as the service needs it."""

    user_id: int
    name: str = ""
    """Their display name (a seat taken keeps it)."""
    locale: str | None = None
    """The language they asked in (``"zh-CN"``, ``"en-US"``): their DMs speak it."""
    is_manager: bool = False
    """They may manage the server they asked in (``place``): start or cancel any of its
    tables, seat computers (`manages`)."""
    interaction_id: int | None = None
    """The adapter's id for the request (Discord's interaction id), for tracing."""
    message_id: int | None = None
    """The adapter's id of the message whose button or menu made the request (None for
    a command): a presenter knows that message is updated by the request's own answer,
    and any other showing the same decision is not."""
    place: Place | None = None
    """Where they asked (None: the service's own callers, tests and tools, which name
    tables directly)."""

    def manages(self, guild_id: int) -> bool:
        """Whether they may manage the server ``guild_id``: a manager of the server they
        asked in is none of another's."""
        return self.is_manager and (self.place is None or self.place.guild_id == guild_id)
