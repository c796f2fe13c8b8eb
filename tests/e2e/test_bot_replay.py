"""`/mahjong replay` through the real bot: a finished hand's deal with every hand open,
privately; its buttons step it back and forth and jump to the next claim or win, its
menu shows one seat's view, its record comes as a JSON file that checks its
commitment; forged or foreign ids are refused in words, and the buttons still work
after a restart. In English and 简体中文."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from botkit import (
    Driver,
    answer,
    channel_files,
    make_bot,
    make_world,
    open_table,
    press,
    private_answer,
    quiet,
    slash,
)
from fakediscord import BotLauncher, FakeDiscord, FakeMessage

from tests.pgcluster import Server


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


TITLE = re.compile(r"Replay of table #1, hand 1: step (\d+) of (\d+)")


def _id(fake: FakeDiscord, message: FakeMessage, start: str) -> str:
    return next(c for c in fake.custom_ids(message) if c.startswith(start))


def _step(fake: FakeDiscord, message: FakeMessage) -> tuple[int, int]:
    found = TITLE.search(fake.message(message).content or "")
    assert found is not None, fake.message(message).content
    return int(found[1]), int(found[2])


async def test_a_finished_hand_is_replayed_privately_with_its_buttons_and_record(
        fake: FakeDiscord, bots: BotLauncher, database: Path | str) -> None:
    world = make_world(fake, locales=["en-US", "en-US", "en-US", "zh-CN"])
    db = database
    running = await bots.start(make_bot(db, picture_processes=0))
    await open_table(world, hands=1)
    driver = Driver(world)
    await driver.play_until(lambda: bool(channel_files(fake, world.channel, "leaderboard-")),
                            idle=lambda: quiet(bots))
    await quiet(bots)
    reader = world.outsider  # anyone in the channel may replay its finished hands
    reply = await answer(await slash(world, reader, "replay"))
    assert reply.ephemeral
    assert [a.filename for a in reply.attachments] == ["replay-1-1-0.png"]
    assert reply.attachments[0].is_png
    assert "Every hand open." in reply.content and "The deal." in reply.content
    step, last = _step(fake, reply)
    assert step == 0 and last > 10
    ids = fake.custom_ids(reply)
    assert [ids[0], ids[1], ids[3], ids[4]] == [
        "mj:rp:1:1:0:a:b", "mj:rp:1:1:1:a:f", "mj:rpf:1:1", "mj:rpv:1:1:0"]
    assert re.fullmatch(r"mj:rp:1:1:\d+:a:j", ids[2])
    before = len(fake.messages(world.channel))

    # forward: the same message shows step 1
    await (await fake.click(reader, reply, "mj:rp:1:1:1:a:f")).response()
    await fake.wait_for(lambda: _step(fake, reply)[0] == 1, what="step 1 shown")
    assert fake.message(reply).attachments[0].filename == "replay-1-1-1.png"
    # every hand open: the dealer's discard, then who drew what next (a draw, told by name);
    # flowers the next seat lays aside come between the two when the deal gives it some
    assert re.search(r"\bp\d discarded .*\n(?:.*laid aside the flower.*\n)*.*\bp\d drew ",
                     fake.message(reply).content or ""), \
        fake.message(reply).content
    # the next claim or win
    jump = _id(fake, reply, "mj:rp:1:1:")
    jump = next(c for c in fake.custom_ids(reply) if c.endswith(":j"))
    assert jump == _id(fake, reply, jump)
    target = int(jump.split(":")[4])
    await (await fake.click(reader, reply, jump)).response()
    await fake.wait_for(lambda: _step(fake, reply)[0] == target, what="the jump")
    # one seat's view: its hand, the others' hidden
    menu = next(c for c in fake.custom_ids(reply) if c.startswith("mj:rpv:"))
    await (await fake.select(reader, reply, menu, ["1"])).response()
    await fake.wait_for(lambda: "As p2 saw it" in (fake.message(reply).content or ""),
                        what="p2's view")
    assert all(c.split(":")[5] == "1" for c in fake.custom_ids(reply) if c.startswith("mj:rp:"))
    # to the settlement
    await (await fake.click(reader, reply, f"mj:rp:1:1:{last}:1:f", force=True)).response()
    await fake.wait_for(lambda: _step(fake, reply)[0] == last, what="the settlement")
    assert "The settlement." in (fake.message(reply).content or "")

    # the record: a JSON file that checks its commitment
    record = await private_answer(await fake.click(reader, reply, "mj:rpf:1:1"))
    (attached,) = record.attachments
    assert attached.filename == "hand-1-1.json"
    data = json.loads(attached.data)
    assert hashlib.sha256((data["salt"] + data["wall"]).encode("ascii")).hexdigest() == \
        data["commitment"]
    assert len(data["actions"]) >= last and [s["name"] for s in data["seats"]] == \
        ["p1", "p2", "p3", "p4"]
    assert len(fake.messages(world.channel)) == before  # nothing public

    # forged ids: a step past the end, a hand never dealt: refused in words
    told = await press(fake, reader, reply, f"mj:rp:1:1:{last + 5}:a:f", None, "en-US")
    assert told == f"That hand has steps 0 to {last} only."
    told = await press(fake, reader, reply, "mj:rp:1:7:0:a:f", None, "en-US")
    assert told == "Table #1 has no finished hand 7 (its last finished hand is 1)."
    told = await press(fake, reader, reply, "mj:rpv:1:1:0", ["9"], "en-US")
    assert "out of date" in told
    asked = await answer(await slash(world, reader, "replay", hand=3))
    assert asked.ephemeral and "no finished hand 3" in (asked.content or "")

    # in Chinese, for a reader whose Discord speaks it
    zh = await answer(await slash(world, world.players[3], "replay"))
    assert zh.ephemeral and "第 1 桌第 1 局回放：第 0 步" in (zh.content or "")
    assert "所有手牌公开" in (zh.content or "")
    told = await press(fake, world.players[3], zh, f"mj:rp:1:1:{last + 1}:a:f", None, "zh-CN")
    assert told == f"这一局只有第 0 到第 {last} 步。"

    # after a restart the buttons still work: nothing was kept per message
    await bots.restart(running, make_bot(db, picture_processes=0))
    await (await fake.click(reader, reply, f"mj:rp:1:1:{last - 1}:1:b")).response()
    await fake.wait_for(lambda: _step(fake, reply)[0] == last - 1, what="a step back")
