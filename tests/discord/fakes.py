"""Stand-ins for one Discord interaction and the table service, for the unit tests of
the commands and the buttons (the whole bot is tested against the fake Discord in
tests/e2e). The service records every call with its arguments and answers from
``answers`` (a value, or an exception to raise)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

import discord

from bot.discord.core.answering import InFlight
from bot.discord.core.pictures import Pictures
from bot.discord.delivery.outbox import Outbox
from bot.discord.hand.replies import LiveReplies


@dataclass
class FakeService:
    answers: dict[str, Any] = field(default_factory=dict)
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = field(default_factory=list)

    def __setattr__(self, name: str, value: Any) -> None:  # a test may set a method
        super().__setattr__(name, value)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)

        async def call(*args: Any, **kwargs: Any) -> Any:
            self.calls.append((name, args, kwargs))
            if name == "find_table" and name not in self.answers:
                return args[1]  # unless told otherwise, the table named is here
            answer = self.answers.get(name)
            if isinstance(answer, BaseException):
                raise answer
            return answer

        return call

    def new_language(self, cause: Any) -> bool:
        """Not async, as the service's: every interaction here tells `seen`."""
        return True

    def names(self) -> list[str]:
        """The commands and queries called, in order (`seen` runs beside them; a
        button's `find_table`, judging where it was pressed, unless answered)."""
        return [name for name, _, _ in self.calls if name != "seen"
                and (name != "find_table" or name in self.answers)]

    def seen_causes(self) -> list[Any]:
        """The causes `seen` was told, once the interactions' calls are done."""
        return [args[0] for name, args, _ in self.calls if name == "seen"]

    async def settled(self, inter: Any) -> FakeService:
        """Wait for what the interaction left running (`seen`)."""
        await asyncio.gather(*inter.client.in_flight.tasks)
        return self

    def last(self, name: str) -> tuple[tuple[Any, ...], dict[str, Any]]:
        found = [(args, kwargs) for n, args, kwargs in self.calls if n == name]
        assert found, f"{name} was not called: {self.names()}"
        return found[-1]


@dataclass
class FakeNotifier:
    clicks: list[tuple[int, int, int | None]] = field(default_factory=list)
    replies: LiveReplies = field(
        default_factory=lambda: LiveReplies(Outbox(), Pictures(0)))
    """The real one: no `/mahjong hand` reply follows here, so a click holds nothing."""

    def clicked(self, table_id: int, seat: int, message_id: int | None) -> None:
        self.clicks.append((table_id, seat, message_id))


@dataclass
class FakeClient:
    service: Any = None
    notifier: FakeNotifier = field(default_factory=FakeNotifier)
    in_flight: InFlight = field(default_factory=InFlight)


@dataclass
class FakeResponse:
    said: list[tuple[str, bool, dict[str, Any]]]
    events: list[str]
    done: bool = False

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, content: str, *, ephemeral: bool = False,
                           **kwargs: Any) -> None:
        assert not self.done
        self.done = True
        self.events.append("reply")
        self.said.append((content, ephemeral, kwargs))

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        assert not self.done
        self.done = True
        self.events.append(f"defer ephemeral={ephemeral}")

    async def edit_message(self, **kwargs: Any) -> None:
        assert not self.done
        self.done = True
        self.events.append("update")  # the message edited in the first response
        self.said.append((kwargs["content"], False, kwargs))


@dataclass
class FakeFollowup:
    said: list[tuple[str, bool, dict[str, Any]]]
    events: list[str]

    async def send(self, content: str, *, ephemeral: bool = False, **kwargs: Any) -> None:
        self.events.append("followup")
        self.said.append((content, ephemeral, kwargs))


class FakeInteraction:
    """What the adapter reads of a `discord.Interaction`; ``said`` is every answer as
    (text, private, extras), ``events`` the order of replies, deferrals and edits."""

    def __init__(self, client: FakeClient, *, user_id: int = 101, name: str = "Ann",
                 locale: discord.Locale = discord.Locale.american_english,
                 guild_locale: discord.Locale | None = None, manager: bool = False,
                 interaction_id: int = 555, message: Any = None,
                 data: dict[str, Any] | None = None) -> None:
        self.client = client
        self.user = SimpleNamespace(id=user_id, display_name=name)
        self.locale = locale
        self.guild_locale = guild_locale
        self.permissions = discord.Permissions(manage_guild=manager)
        self.id = interaction_id
        self.channel_id = 42
        self.guild_id = 900
        self.message = message
        self.data = data
        """The click as Discord sent it (``custom_id``, ``values``)."""
        self.type = discord.InteractionType.component
        self.said: list[tuple[str, bool, dict[str, Any]]] = []
        self.events: list[str] = []
        self.response = FakeResponse(self.said, self.events)
        self.followup = FakeFollowup(self.said, self.events)

    async def delete_original_response(self) -> None:
        self.events.append("delete")

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.events.append("edit")
        self.said.append((kwargs["content"], False, kwargs))


def as_interaction(fake: FakeInteraction) -> discord.Interaction:
    """The fake interaction, standing in for discord.py's (it has what the adapter
    reads of one)."""
    return cast(discord.Interaction, fake)


def interaction(service: Any = None, **kwargs: Any) -> FakeInteraction:
    """An interaction from user 101 ("Ann") in channel 42 of guild 900."""
    return FakeInteraction(FakeClient(service), **kwargs)
