"""Hostile input through the bot's Discord surface (issue 28, point 8): forged custom ids
whose numbers no database column holds, a ``table:`` option past 64 bits, and
``/mahjong score`` cases built to break the parser. Each is answered with one clear
sentence, privately, changes nothing, and leaves no traceback in the log; on SQLite and
on PostgreSQL, whose integers overflow differently."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from botkit import (
    Driver,
    World,
    answer,
    latest_bot,
    make_bot,
    make_world,
    open_table,
    private_answer,
    quiet,
    slash,
)
from fakediscord import BotLauncher, FakeDiscord, FakeMessage, FakeUser
from test_bot_failures import forged_click

from bot.discord.core.words import MAX_CONTENT
from tests.logcapture import debug_logs

PAST_64_BITS = 2**64 + 5
"""Fits the ids' 19-digit numbers' pattern once written as 2**63 (19 digits)."""
OVERFLOWS = (2**63, 9999999999999999999, PAST_64_BITS)


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request: pytest.FixtureRequest, tmp_path: Path
                   ) -> AsyncIterator[Path | str]:
    """The bot's database: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield tmp_path / "db.sqlite3"
        return
    server = request.getfixturevalue("pg_server")  # skips without PostgreSQL
    url = await server.database()
    yield url
    await server.drop(url)


async def _pending(driver: Driver, bots: BotLauncher) -> tuple[FakeUser, FakeMessage]:
    for _ in range(200):
        for user in driver.world.players:
            message = driver.pending(user)
            if message is not None:
                return user, message
        await quiet(bots)
    raise AssertionError("nobody has a decision")


def _no_tracebacks(log: str) -> None:
    assert "Traceback" not in log and "interaction failed" not in log, log[-3000:]


async def _playing(fake: FakeDiscord, bots: BotLauncher, database: Path | str
                   ) -> tuple[World, FakeUser, FakeMessage]:
    world = make_world(fake)
    await bots.start(make_bot(database))
    await open_table(world)
    user, message = await _pending(Driver(world), bots)
    return world, user, message


def _forged_ids(table: int, seat: int, big: int) -> list[str]:
    """Every kind of id, each with one number past what a database column holds."""
    return [
        f"mj:mv:{big}:1:1:x:s{seat}", f"mj:mv:{table}:{big}:1:x:s{seat}",
        f"mj:mv:{table}:1:{big}:x:s{seat}", f"mj:mv:{table}:1:{big}:x",
        f"mj:lobby:{big}:join", f"mj:lobby:{big}:start", f"mj:lobby:{big}:leave",
        f"mj:lobby:{big}:addbot", f"mj:pref:{big}:always_win:on", f"mj:back:{big}",
    ]


async def test_ids_past_64_bits_are_out_of_date_buttons_and_change_nothing(
        fake: FakeDiscord, bots: BotLauncher, database: Path | str) -> None:
    _world, user, message = await _playing(fake, bots, database)
    store = latest_bot(bots).store
    before = [await store.lobby.get_table(1), await store.lobby.seats(1)]
    seat = next(s.seat for s in await store.lobby.seats(1) if s.user_id == user.id)
    stale = "That button is out of date"
    with debug_logs() as log:
        for big in OVERFLOWS:
            for custom_id in _forged_ids(1, seat, big):
                handle = await forged_click(fake, user, message, custom_id)
                said = (await private_answer(handle)).content or ""
                assert said.startswith(stale), (custom_id, said)
            handle = await forged_click(fake, user, message, f"mj:dc:1:1:{big}:s{seat}",
                                        ["5m"])
            said = (await private_answer(handle)).content or ""
            assert said.startswith(stale), said
        await quiet(bots)
    _no_tracebacks(log.getvalue())
    assert [await store.lobby.get_table(1), await store.lobby.seats(1)] == before


COMMANDS = ("join", "leave", "addbot", "start", "hand", "table", "cancel", "history",
            "score", "rules")


async def test_a_table_option_past_64_bits_is_a_table_that_does_not_exist(
        fake: FakeDiscord, bots: BotLauncher, database: Path | str) -> None:
    world = make_world(fake)
    await bots.start(make_bot(database))
    creator = world.players[0]
    await (await slash(world, creator, "new", rules="shanghai")).response()
    await quiet(bots)
    store = latest_bot(bots).store
    before = [await store.lobby.get_table(1), await store.lobby.seats(1)]
    with debug_logs() as log:
        for command in COMMANDS:
            missing = await slash(world, creator, command, table=999)
            expected = (await answer(missing)).content or ""
            for big in (2**53 + 1, 2**63, PAST_64_BITS):
                unknown = await slash(world, creator, command, table=big)
                said = (await answer(unknown)).content or ""
                assert said == expected, (command, big, said, expected)
        await quiet(bots)
    _no_tracebacks(log.getvalue())
    assert [await store.lobby.get_table(1), await store.lobby.seats(1)] == before


def _nested(depth: int) -> str:
    return '{"name": ' + "[" * depth + "]" * depth + "}"


SCORE_INPUTS = {
    "nested_case": {"case": _nested(1000)},
    "deep_value": {"case": '{"rules": "shanghai", "hand": ' + "[" * 900 + "]" * 900 + "}"},
    "long_integer": {"case": '{"rules": "shanghai", "dealer": ' + "1" * 4301 + "}"},
    "long_melds": {"hand": "123m", "win_tile": "1m", "melds": "x" * 3090},
    "long_hand": {"hand": "1m" * 2000, "win_tile": "1m"},
    "long_case": {"case": json.dumps({"rules": "shanghai", "hand": "z" * 5000})},
}


@pytest.mark.parametrize("given", list(SCORE_INPUTS), ids=list(SCORE_INPUTS))
async def test_hostile_score_cases_get_one_short_sentence(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path, given: str) -> None:
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3"))
    with debug_logs() as log:
        handle = await slash(world, world.players[0], "score", **SCORE_INPUTS[given])
        response = await handle.response()
        await quiet(bots)
    assert response.message is not None, response
    said = response.message.content or ""
    assert 0 < len(said) <= MAX_CONTENT
    assert len(said) < 400, said  # what is echoed is clipped: one sentence, not the input
    assert "went wrong" not in said, said
    _no_tracebacks(log.getvalue())


HOSTILE_NEW = [  # the options with choices: the fake, like Discord, sends no other
    {"rules": "shanghai", "hands": 2**63}, {"rules": "shanghai", "hands": -(2**63)},
    {"rules": "shanghai", "base": 2**64}, {"rules": "shanghai", "la_cap": 0},
    {"rules": "hangzhou", "away_after": 2**63, "huangfan_multiplier": -1},
]
HOSTILE_SCORE = [
    {"hand": "\x00" * 100, "win_tile": "1m"}, {"hand": "1m", "win_tile": "x" * 5000},
    {"hand": "123m", "win_tile": "1m", "flowers": "9" * 5000},
    {"case": '{"rules": "shanghai", "options": {"' + "o" * 3000 + '": 1}}'},
    {"case": '{"rules": "hangzhou", "options": {"flipped": "' + "9" * 3000 + 'm"}}'},
    {"case": '{"rules": "shanghai", "claims": [[' + ",".join(["1e308"] * 4) + "]]}"},
    {"case": '{"' + "k" * 3000 + '": 1}'}, {"case": '"' + "s" * 5000 + '"'},
    {"case": "NaN"}, {"case": '{"rules": "shanghai", "streak": -Infinity}'},
]


async def test_no_hostile_command_logs_a_traceback_or_opens_a_table(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3"))
    sent = [("new", options) for options in HOSTILE_NEW] + \
        [("score", options) for options in HOSTILE_SCORE]
    with debug_logs() as log:
        for command, options in sent:
            handle = await slash(world, world.players[0], command, **options)
            said = (await answer(handle)).content or ""
            assert 0 < len(said) < 600, (command, options, said)
            assert "went wrong" not in said, (command, options, said)
        await quiet(bots)
    _no_tracebacks(log.getvalue())
    assert await latest_bot(bots).store.lobby.tables_in_channel(world.channel.id) == []
