"""What a player does in the end-to-end tests, through the fake Discord alone: open a
table and join it, and choose a move on a DM by its components' custom ids. Nothing here
imports the bot, so `bench/discord.py` plays an older revision's bot with these players
(its ``--baseline``; `botkit` re-exports them for the tests)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fakediscord import FakeDiscord, FakeGuild, FakeMessage, FakeUser, InteractionHandle


@dataclass
class World:
    fake: FakeDiscord
    guild: FakeGuild
    channel: Any
    players: list[FakeUser]
    outsider: FakeUser



async def slash(world: World, user: FakeUser, command: str, **options: Any
                ) -> InteractionHandle:
    return await world.fake.slash(user, world.guild, world.channel, "mahjong", command,
                                  options=options)


async def open_table(world: World, rules: str = "shanghai", hands: int = 1,
                     **options: Any) -> None:
    """The first player opens a table (with ``options`` of ``/mahjong new``), the others
    join by the lobby's Join button, the first presses Start."""
    fake = world.fake
    created = await slash(world, world.players[0], "new", rules=rules, hands=hands,
                          **options)
    assert (await created.response()).ephemeral
    lobby = await fake.wait_for(lambda: _lobby(fake, world))
    for player in world.players[1:]:
        join = next(c for c in fake.custom_ids(lobby) if c.endswith(":join"))
        await (await fake.click(player, lobby, join)).response()
    start = next(c for c in fake.custom_ids(lobby) if c.endswith(":start"))
    await fake.wait_for(lambda: not _disabled(fake, lobby, start))
    response = await (await fake.click(world.players[0], lobby, start)).response()
    assert response.type == 6, response


def _lobby(fake: FakeDiscord, world: World) -> FakeMessage | None:
    for m in fake.messages(world.channel):
        if any(":lobby:" in c for c in fake.custom_ids(m)):
            return m
    return None


def _disabled(fake: FakeDiscord, message: FakeMessage, custom_id: str) -> bool:
    return any(c.custom_id == custom_id and c.disabled for c in fake.components(message))


def choose(fake: FakeDiscord, message: FakeMessage, *, win: bool = True
           ) -> tuple[str, list[str] | None] | None:
    """A legal move on the message: Win (unless ``win`` is False), else Pass, else the
    suggested discard (⭐), else the first offered."""
    items = fake.components(message)
    moves = [c.custom_id for c in items if c.custom_id and c.custom_id.startswith("mj:mv:")]
    for wanted in ("w", "x") if win else ("x",):
        for move in moves:
            if move.split(":")[5] == wanted:  # mj:mv:t:h:pN:move[:s]
                return move, None
    for c in items:
        if c.custom_id and c.custom_id.startswith("mj:dc:") and c.options:
            starred = [o["value"] for o in c.raw.get("options", []) if o.get("emoji")]
            return c.custom_id, [(starred or list(c.options))[0]]
    if moves:
        return moves[0], None
    return None
