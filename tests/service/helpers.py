"""Shared pieces of the service tests: stacked deals, quick tables, settling the clock."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.service import Cause, FakeClock, Place, RecordingNotifier, Refused, TableService
from bot.service.fairness import Deal, deal_of, shuffle
from bot.store import Store
from engine.game import Action, ActionKind, stack_wall
from engine.tiles import tile_from_notation

GUILD, CHANNEL = 7, 70
HERE = Place(GUILD, CHANNEL)
"""Where the tests' tables are (`World.table` opens them there)."""
ANN, BOB, CID, DEE, EVE = 1, 2, 3, 4, 99
NAMES = {ANN: "Ann", BOB: "Bob", CID: "Cid", DEE: "Dee", EVE: "Eve"}

QUIET = ("147m258p369s1234z", "258m369p147s1234z", "369m147p258s1467z", "258m147p369s2347z")
# The dealer (seat 0) discards 9m; only seat 2 may claim it (a pong).
SCENE_PONG = {0: QUIET[0] + "9m", 1: QUIET[1], 2: "99m369p147s12347z", 3: QUIET[3]}
# Two Shanghai players waiting on the dealer's 5p: seats 1 and 2 may both win.
SCENE_TWO = {0: "147m369s5p567z" + "258m" + "7s", 1: "1112345678999p",
             2: "5p111z222z333z444z", 3: "258m147s369m567z8p"}


def stacked(hands: Mapping[int, str], rules: str = "shanghai") -> Callable[[str, int], Deal]:
    """A deal function giving ``hands`` whenever seat 0 deals (a shuffle otherwise)."""
    def deal(_rules: str, dealer: int) -> Deal:
        if dealer != 0:
            return shuffle(rules == "shanghai")
        return deal_of(stack_wall(rules, hands, dealer))
    return deal


async def refused(code: str, coro: Awaitable[object]) -> Refused:
    """Await ``coro`` and check the service refused it with ``code``."""
    with pytest.raises(Refused) as info:
        await coro
    assert info.value.code == code, info.value
    return info.value


def by(user_id: int, name: str | None = None, *, manager: bool = False,
       locale: str | None = None, place: Place | None = None) -> Cause:
    """The cause of a test's command: the user (named as in NAMES unless ``name``),
    a server manager or not, asking in ``locale``, at ``place`` (`HERE`: the channel of
    the tests' tables; None: nowhere, naming tables directly)."""
    return Cause(user_id, NAMES.get(user_id, f"U{user_id}") if name is None else name,
                 locale, manager, place=place)


def D(seat: int, tile: str) -> Action:
    return Action(ActionKind.DISCARD, seat, tile_from_notation(tile))


def P(seat: int) -> Action:
    return Action(ActionKind.PASS, seat)


def W(seat: int) -> Action:
    return Action(ActionKind.WIN, seat)


@dataclass
class World:
    """A service on a real SQLite file with a fake clock and a recording notifier."""

    store: Store
    clock: FakeClock
    notes: RecordingNotifier
    service: TableService

    async def table(self, users: tuple[int, ...] = (ANN, BOB, CID, DEE), *,
                    rules: str = "shanghai", options: Mapping[str, object] | None = None,
                    computers: int = 0, start: bool = True, channel: int = CHANNEL) -> int:
        """A table created by the first user, the others joined, ``computers`` added."""
        svc = self.service
        info = await svc.create_table(by(users[0]),
                                      guild_id=GUILD, channel_id=channel, rules=rules,
                                      options=dict(options or {}))
        table_id = info.ref.table_id
        for user in users[1:]:
            await svc.join(by(user), table_id)
        for _ in range(computers):
            await svc.add_computer(by(users[0]), table_id)
        if start:
            await svc.start(by(users[0]), table_id)
        return table_id

    async def settle(self, limit: int = 100_000) -> int:
        """Fire everything due now, until nothing is."""
        total = 0
        while total < limit:
            fired = await self.service.run_due()
            if not fired:
                return total
            total += fired
        raise AssertionError("the scheduler never settled")

    async def advance(self, seconds: float) -> int:
        self.clock.advance(seconds)
        return await self.settle()

    async def until(self, kind: str, count: int = 1, *, step: float = 10.0,
                    limit: int = 5000) -> None:
        """Let time pass ``step`` at a time until ``count`` notices of ``kind`` arrived."""
        await self.settle()
        for _ in range(limit):
            if len(self.notes.of(kind)) >= count:
                return
            await self.advance(step)
        raise AssertionError(f"no {count} {kind} notice(s) after {limit} steps")


async def delivered(world: World, notes: RecordingNotifier | None = None) -> None:
    """Every decision DM ``notes`` (by default the world's) recorded reached its player:
    the step it shows is stored as the Discord presenter stores it (a restart DMs only
    the decisions whose DM is missing: `Recovery.resend`)."""
    for i, n in enumerate((notes or world.notes).of("private_hand")):
        if n.step is not None and n.user_id is not None:
            await world.store.presenter.swap_dm_message(n.ref.table_id, n.seat, 5000 + i,
                                                        (n.hand_number << 32) + n.step)


MakeWorld = Callable[..., Awaitable[World]]


@asynccontextmanager
async def worlds_on(database: Path | str, **defaults: Any) -> AsyncIterator[MakeWorld]:
    """Worlds (each its own store connection, notifier and service, as a process has)
    on one database, made with ``defaults`` and a call's own arguments (a clock of the
    call's, else a fresh one); their connections closed at the end."""
    stores: list[Store] = []

    async def make(clock: FakeClock | None = None, **kwargs: Any) -> World:
        store = await Store.open(database)
        stores.append(store)
        notes = RecordingNotifier()
        clock = clock or FakeClock()
        service = TableService(store, notes, clock=clock,
                               **{"computer_pause": 0.0, **defaults, **kwargs})
        return World(store, clock, notes, service)

    try:
        yield make
    finally:
        for store in stores:
            await store.close()
