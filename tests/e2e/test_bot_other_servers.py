"""Every request is judged in its own place (DESIGN, fairness and secrecy): a command acts
only on the tables of the channel it was typed in, a table's public buttons only in its
channel, a decision's buttons only there or in the DMs of a person seated at it. Any
other table id is answered exactly as an id no table has, and nothing changes.

Two servers share the bot: "Club" plays table 1 in #general and has table 2 waiting in
the lobby of #lounge; "Rival" is the server of mallory, who owns it (a manager there,
as anyone who adds the bot to a server of their own is) and opened table 3 in it. Each
command that takes a table, and each kind of button (forged: a client may send any id
on any message of the bot's it can see), is tried with a foreign id and with one no
table has; the answers must be the same words, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from botkit import World, answer, make_bot, make_world, open_table, press, quiet
from fakediscord import BotLauncher, FakeDiscord, FakeMessage, FakeUser

from bot.discord.lobby.leave import LeaveButton
from bot.discord.lobby.message import LOBBY_ACTIONS, LobbyButton
from bot.discord.play.choices import BackButton, PreferenceButton
from bot.discord.play.moves import DiscardSelect, MoveButton, MoveCode
from bot.discord.replay import ReplayRecord, ReplayStep, ReplayViewMenu
from engine.game.actions import Action
from engine.rules.common import ActionKind
from engine.tiles import tile_from_notation
from tests.pgcluster import Server

NOWHERE = 4242
"""A table id no table has."""
TABLE_COMMANDS = ("join", "leave", "addbot", "start", "hand", "table", "rules", "score",
                  "cancel", "history", "replay")
"""Every /mahjong command that takes a ``table``."""


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request: pytest.FixtureRequest, tmp_path: Path
                   ) -> AsyncIterator[Path | str]:
    """The bot's database: a SQLite file, or a fresh PostgreSQL database's URL."""
    if request.param == "sqlite":
        yield tmp_path / "db.sqlite3"
        return
    server: Server = request.getfixturevalue("pg_server")  # skips without PostgreSQL
    url = await server.database()
    yield url
    await server.drop(url)


async def said(handle: Any) -> tuple[str, bool]:
    """What the person who asked finally reads, and whether only they read it."""
    message = await answer(handle)
    return message.content or "", message.ephemeral


def public_buttons(table: int, user: FakeUser) -> list[tuple[str, list[str] | None]]:
    """The ids of ``table``'s buttons that belong to its channel alone: the lobby's,
    the confirmation of leaving a running match asked by ``user``, a replay's."""
    lobby: list[tuple[str, list[str] | None]] = [
        (LobbyButton(table, what).custom_id, None) for what in LOBBY_ACTIONS]
    replay: list[tuple[str, list[str] | None]] = [
        (ReplayStep(table, 1, 1, None, "f").custom_id, None),
        (ReplayViewMenu(table, 1, 0).custom_id, ["2"]),
        (ReplayRecord(table, 1).custom_id, None)]
    return lobby + [(LeaveButton(table, user.id, Fraction(0), yes).custom_id, None)
                    for yes in (True, False)] + replay


def buttons(table: int, user: FakeUser) -> list[tuple[str, list[str] | None]]:
    """One id of each kind of the bot's buttons for ``table`` (and a menu's value)."""
    return public_buttons(table, user) + decision_buttons(table)


def decision_buttons(table: int) -> list[tuple[str, list[str] | None]]:
    passing = MoveCode.of(Action(ActionKind.PASS, 0))
    discard = MoveCode.of(Action(ActionKind.DISCARD, 0, tile_from_notation("5m")))
    return [(MoveButton(table, 1, 2, passing, seat=0).custom_id, None),
            (MoveButton(table, 1, 1, discard, seat=0).custom_id, None),
            (DiscardSelect(table, 1, 1, seat=0).custom_id, ["5m"]),
            (PreferenceButton(table, "pass_claims", True).custom_id, None),
            (BackButton(table).custom_id, None)]


def _with_id(fake: FakeDiscord, messages: list[FakeMessage], part: str) -> FakeMessage:
    return next(m for m in messages if any(part in c for c in fake.custom_ids(m)))


async def test_no_request_reaches_a_table_of_another_place(
        fake: FakeDiscord, bots: BotLauncher, database: Path | str) -> None:
    world = make_world(fake)
    lounge = fake.add_channel(world.guild, "lounge")
    mallory = fake.add_user(666, "mallory")
    rival = fake.add_guild(901, "Rival", owner=mallory, members=[mallory])
    there = fake.channel(rival, "general")
    running = await bots.start(make_bot(database, picture_processes=0))
    service = running.client.service
    p1, p2 = world.players[0], world.players[1]

    await open_table(world)  # table 1, in play in Club's #general
    await (await fake.slash(p1, world.guild, lounge, "mahjong", "new",
                            options={"rules": "hangzhou"})).response()  # table 2
    await (await fake.slash(mallory, rival, there, "mahjong", "new",
                            options={"rules": "shanghai"})).response()  # table 3
    await quiet(bots)
    before = {t: await service.table_info(t) for t in (1, 2, 3)}
    assert [before[t].ref.guild_id for t in (1, 2, 3)] == [900, 900, 901]

    async def command(user: FakeUser, guild: Any, channel: Any, name: str, table: int
                      ) -> tuple[str, bool]:
        return await said(await fake.slash(user, guild, channel, "mahjong", name,
                                           options={"table": table}))

    # commands: from another server, and from another channel of the table's server
    for name in TABLE_COMMANDS:
        for table in (1, 2):
            assert await command(mallory, rival, there, name, table) == \
                await command(mallory, rival, there, name, NOWHERE), (name, table)
        outsider = world.outsider
        assert await command(outsider, world.guild, lounge, name, 1) == \
            await command(outsider, world.guild, lounge, name, NOWHERE), name
        assert await command(outsider, world.guild, world.channel, name, 2) == \
            await command(outsider, world.guild, world.channel, name, NOWHERE), name

    # buttons, pressed in another server's channel, on the bot's message there
    lobby3 = _with_id(fake, fake.messages(there), "mj:lobby:3:")
    for table in (1, 2):
        for (foreign, values), (unknown, _) in zip(buttons(table, mallory),
                                                   buttons(NOWHERE, mallory), strict=True):
            assert await press(fake, mallory, lobby3, foreign, values, "en-US") == \
                await press(fake, mallory, lobby3, unknown, values, "en-US"), foreign
    # in another channel of the table's server: table 2's buttons in #general
    on_general = _with_id(fake, fake.messages(world.channel), "mj:lobby:1:")
    for (foreign, values), (unknown, _) in zip(buttons(2, world.outsider),
                                               buttons(NOWHERE, world.outsider), strict=True):
        assert await press(fake, world.outsider, on_general, foreign, values, "en-US") == \
            await press(fake, world.outsider, on_general, unknown, values, "en-US"), foreign
    # a decision's buttons in the DMs of someone who does not sit at the table: p2 sits
    # at table 1 (whose DMs they have) but not at 2 or 3
    dm = fake.dms(p2)[-1]
    for table in (2, 3):
        for (foreign, values), (unknown, _) in zip(decision_buttons(table),
                                                   decision_buttons(NOWHERE), strict=True):
            assert await press(fake, p2, dm, foreign, values, "en-US") == \
                await press(fake, p2, dm, unknown, values, "en-US"), foreign
    # a public button is honoured only in its channel, even in a player's own DMs
    for (foreign, _), (unknown, _) in zip(public_buttons(1, p2),
                                          public_buttons(NOWHERE, p2), strict=True):
        assert await press(fake, p2, dm, foreign, None, "en-US") == \
            await press(fake, p2, dm, unknown, None, "en-US"), foreign

    await quiet(bots)
    after = {t: await service.table_info(t) for t in (1, 2, 3)}
    for t in (1, 2, 3):
        assert after[t].status == before[t].status, t
        assert after[t].seats == before[t].seats, t
    assert after[1].hand_number == before[1].hand_number == 1
    assert mallory.id not in {s.user_id for t in (1, 2) for s in after[t].seats if s}


async def test_the_tables_own_place_still_works(
        fake: FakeDiscord, bots: BotLauncher, database: Path | str) -> None:
    """The same requests in their own place are served: a table named in its own
    channel, a decision's buttons in the seated player's DMs."""
    world: World = make_world(fake)
    running = await bots.start(make_bot(database, picture_processes=0))
    await open_table(world)
    await quiet(bots)
    p1 = world.players[0]
    text, private = await said(await fake.slash(p1, world.guild, world.channel, "mahjong",
                                                "score", options={"table": 1}))
    assert not private and "Table #1" in text, text
    dealer = next(p for p in world.players
                  if any(c.startswith("mj:dc:") for c in fake.custom_ids(fake.dms(p)[-1])))
    hand = await answer(await fake.slash(dealer, world.guild, world.channel, "mahjong",
                                         "hand", options={"table": 1}))
    assert hand.ephemeral and any(c.startswith("mj:dc:1:") for c in fake.custom_ids(hand))
    pref = PreferenceButton(1, "pass_claims", True).custom_id
    assert "Saved" in await press(fake, p1, fake.dms(p1)[-1], pref, None, "en-US")
    seat = running.client.service._tables[1].seats[0]
    assert seat is not None and seat.choices.pass_claims
