"""A decision's buttons carry nothing a player could not see (issue 28, point 7).

Every answer to a claim window is an action of the hand's log, a pass as much as a
claim, yet nobody but the seat that gave it sees it. Button ids that carried the log's
number let a player count, from the gap between two of their own buttons, how many
seats had been asked to claim meanwhile. Here two tables play the same public moves: at
the second, one seat may pong the dealer's first discard and passes; at the first,
nobody may. Every seat that was not asked must be shown the very same ids at both.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from botkit import World, make_bot, make_world, open_table, quiet
from fakediscord import BotLauncher, FakeDiscord, FakeUser
from fakediscord.components import flatten

from bot.service.fairness import Deal, deal_of
from engine.game import stack_wall
from tests.service.helpers import QUIET, SCENE_PONG

NOBODY_ASKED = {0: QUIET[0] + "9m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
"""The dealer (seat 0) discards 9m, and nobody may claim it."""
ONE_ASKED = SCENE_PONG
"""The same for every seat but seat 2, which may pong the 9m."""
DRAWS = "5z5z5z5z"
"""The next four draws: each seat discards its 5z, which nobody may claim."""


def walls_in_turn(*hands: dict[int, str]) -> Callable[[str, int], Deal]:
    """Each table started gets the next of these deals (seat 0 dealing)."""
    deals = iter([deal_of(stack_wall("shanghai", h, 0, draws=DRAWS)) for h in hands])
    return lambda _rules, _dealer: next(deals)


def second_world(fake: FakeDiscord) -> World:
    players = [fake.add_user(201 + i, f"q{i + 1}") for i in range(4)]
    guild = fake.add_guild(902, "Other club", members=players)
    return World(fake, guild, fake.channel(guild, "general"), players, players[0])


def shown(fake: FakeDiscord, user: FakeUser) -> list[str]:
    """The ids of the decisions' components ``user`` was DMed, their table's number
    left out (the two tables' numbers differ)."""
    out = []
    for message in fake.dms(user):
        for components in [v["components"] for v in message.versions] + \
                [message.components]:  # every state the message was in, oldest first
            for item in flatten(components):
                if item.custom_id is not None and item.custom_id.startswith(("mj:mv:", "mj:dc:")):
                    kind, _table, rest = item.custom_id[3:].split(":", 2)
                    out.append(f"{kind}:{rest}")
    return list(dict.fromkeys(out))


async def decide(fake: FakeDiscord, bots: BotLauncher, user: FakeUser, tile: str | None
                 ) -> None:
    """``user`` discards ``tile`` from their newest DM's menu, or (None) presses Pass."""
    message = fake.dms(user)[-1]
    ids = fake.custom_ids(message)
    if tile is None:
        passing = next(c for c in ids if c.startswith("mj:mv:") and c.split(":")[5] == "x")
        handle = await fake.click(user, message, passing)
    else:
        menu = next(c for c in ids if c.startswith("mj:dc:"))
        handle = await fake.select(user, message, menu, [tile])
    response = await handle.response()
    assert not (response.ephemeral and response.content), response.content
    await quiet(bots)


async def test_the_ids_a_seat_is_shown_do_not_tell_who_was_asked_to_claim(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)
    quiet_table, asked_table = make_world(fake), second_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0, service_options={
        "deal": walls_in_turn(NOBODY_ASKED, ONE_ASKED)}))
    for world in (quiet_table, asked_table):
        await open_table(world)
        await quiet(bots)
        seats = world.players
        await decide(fake, bots, seats[0], "9m")
        if world is asked_table:
            await decide(fake, bots, seats[2], None)  # asked to pong: passes
        for seat in (1, 2, 3):
            await decide(fake, bots, seats[seat], "5z")
        # the dealer's second decision: a discard again, after the same public moves
        assert any(c.startswith("mj:dc:") for c in fake.custom_ids(fake.dms(seats[0])[-1]))
    for seat in (0, 1, 3):  # every seat but the one asked
        assert shown(fake, asked_table.players[seat]) == \
            shown(fake, quiet_table.players[seat]), seat
    assert len(shown(fake, quiet_table.players[0])) >= 2
