"""`Cause`: who asked for a change, carried into the service and out on its notices.

The adapter builds one per interaction (a slash command or a click) and passes it to
every command; the service never reads it from ambient state. Notices caused by the
command carry it back out, so a presenter can tell a player's own click from someone
else's move (and not echo the move to the player who just made it).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Cause:
    """A person's request, as the service needs it."""

    user_id: int
    name: str = ""
    """Their display name (a seat taken keeps it)."""
    locale: str | None = None
    """The language they asked in (``"zh-CN"``, ``"en-US"``): their DMs speak it."""
    is_manager: bool = False
    """They may manage the server: start or cancel any table, seat computers."""
    interaction_id: int | None = None
    """The adapter's id for the request (Discord's interaction id), for tracing."""
    message_id: int | None = None
    """The adapter's id of the message whose button or menu made the request (None for
    a command): a presenter knows that message is updated by the request's own answer,
    and any other showing the same decision is not."""
