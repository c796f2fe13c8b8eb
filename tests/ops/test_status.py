"""``mahjong-bot status``: the figures from the database alone, on both backends, and a
non-zero exit for each kind of stuck (a deadline no bot fired, a delivery owed too long,
a schema behind or ahead of the code); 2 when there is no database to read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.ops import status as status_command
from bot.ops.status import read_status, text_of
from bot.store import NewAnnouncement, NewHand, ProcessLock, Store, load_migrations
from tests.store.helpers import COMMITMENT, SALT, WALL, NewGame

LATEST = load_migrations()[-1].version


async def test_an_empty_database_is_well(database: Path | str) -> None:
    await (await Store.open(database)).close()
    found = await read_status(database, now=1000.0)
    assert (found.version, found.latest, found.stuck) == (LATEST, LATEST, [])
    assert found.figures["tables"] == {"live": 0, "playing": 0, "lobby": 0}
    text = text_of(found, 1000.0)
    assert "0 live" in text and "status      ok" in text


async def test_a_decision_waiting_is_counted_not_stuck(store: Store, database: Path | str,
                                                       new_game: NewGame) -> None:
    game = await new_game()
    await store.deadlines.set(game.hand.id, 0, seq=1, kind="turn", set_at=103.0,
                              due_at=500.0)
    await store.lobby.create_table(guild_id=1, channel_id=9, creator_id=5, rules="shanghai",
                                   at=104.0)
    found = await read_status(database, now=150.0)
    assert found.stuck == []
    assert found.figures["tables"] == {"live": 2, "playing": 1, "lobby": 1}
    assert found.figures["decisions"] == {"waiting": 1, "oldest": 103.0}
    assert found.figures["deadlines"] == {"overdue": 0, "oldest": None}
    # its DM was never sent (no bot here): owed, but not for long yet
    assert found.figures["deliveries"]["decision_dms"] == 1
    assert "1 waiting for people, the oldest since 1970-01-01 00:01 UTC" in text_of(found, 150)


async def test_a_deadline_no_bot_fired_is_stuck(store: Store, database: Path | str,
                                                new_game: NewGame) -> None:
    game = await new_game()
    await store.deadlines.set(game.hand.id, 3, seq=1, kind="computer", set_at=103.0,
                              due_at=110.0)
    assert (await read_status(database, now=110.0 + 299)).stuck == []
    found = await read_status(database, now=110.0 + 301)
    assert found.stuck == ["overdue"]
    assert found.figures["deadlines"] == {"overdue": 1, "oldest": 110.0}
    assert found.reasons[0] == ("1 deadline passed without firing, the oldest 5 min ago: "
                                "is the bot running?")
    later = await read_status(database, now=2000.0, stuck_after=3600)
    assert later.stuck == []  # --stuck-after


async def test_a_delivery_owed_too_long_is_stuck(store: Store, database: Path | str,
                                                 new_game: NewGame) -> None:
    game = await new_game()
    await store.endings.finish_hand(game.hand.id, None, settlements=[], deltas=[], at=150.0)
    await store.matches.deal(game.match.id, NewHand(
        WALL, SALT, COMMITMENT, dice=(1, 2), dealer=1, streak=0, huangfan=0,
        announcements=[NewAnnouncement("hand_started")]), at=160.0)
    assert (await read_status(database, now=200.0)).stuck == []
    found = await read_status(database, now=1000.0)
    assert found.stuck == ["owed"]
    assert found.figures["deliveries"]["announcements"] == 1
    assert found.figures["deliveries"]["oldest"] == 160.0
    (row,) = await store.outbox.undelivered()
    await store.outbox.mark(row.id, "delivered", 1001.0)
    assert (await read_status(database, now=1002.0)).stuck == []


async def test_a_schema_behind_the_code_is_stuck(store: Store, database: Path | str
                                                 ) -> None:
    # as the code before the last two migrations left it (their changes aside: status
    # reads only the version, and the rest only at the code's own)
    await store._db.execute("DELETE FROM schema_version WHERE version > ?", (LATEST - 2,))
    found = await read_status(database, now=1000.0)
    assert (found.version, found.stuck) == (LATEST - 2, ["schema_behind"])
    assert "start the bot (or mahjong-bot migrate)" in found.reasons[0]


async def test_a_schema_ahead_of_the_code_is_stuck(store: Store, database: Path | str
                                                   ) -> None:
    await store._db.execute("INSERT INTO schema_version (version, name, applied_at)"
                            " VALUES (?, ?, ?)", (LATEST + 1, "9999_future", 1.0))
    found = await read_status(database, now=1000.0)
    assert (found.version, found.stuck) == (LATEST + 1, ["schema_ahead"])


def test_the_command_exits_1_when_stuck_and_prints_json(
        db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    async def overdue() -> None:
        async with await Store.open(db_path) as store:
            table = await store.lobby.create_table(guild_id=1, channel_id=2, creator_id=3,
                                                   rules="shanghai", at=100.0)
            await store.lobby.sit_computer(table.id, 0, display_name="Bot", at=101.0)
            await store.lobby.set_status(table.id, "playing", expected="lobby")
            match = await store.matches.create(table.id, first_dealer=0, at=102.0)
            hand = await store.matches.deal(match.id, NewHand(
                WALL, SALT, COMMITMENT, dice=(3, 5), dealer=0, streak=0, huangfan=1),
                at=103.0)
            await store.deadlines.set(hand.id, 0, seq=1, kind="computer", set_at=103.0,
                                      due_at=104.0)

    assert status_command.main(["--db", str(db_path)]) == 2  # no database yet
    assert "no database at" in capsys.readouterr().err
    asyncio.run(overdue())
    assert status_command.main(["--db", str(db_path), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["stuck"] == ["overdue"] and out["ok"] is False
    assert out["tables"]["playing"] == 1 and out["bots"] == []
    with ProcessLock.acquire(db_path):  # a bot holds it: its process id is shown
        assert status_command.main(["--db", str(db_path)]) == 1
        text = capsys.readouterr().out
    assert "held by a bot (process " in text and "the bot's timers stall" in text
    assert "STUCK" in text


def test_seeing_who_holds_the_database_takes_no_lock(
        db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot starting while a status check runs is never refused (Linux: the kernel's
    table of locks is read, nothing is taken)."""
    from bot.store import lock

    if not lock.PROC_LOCKS.is_file():
        pytest.skip("no /proc/locks here: the check takes a shared lock for an instant")
    import os

    db_path.parent.mkdir(parents=True)
    assert lock.holder(db_path) is None
    with ProcessLock.acquire(db_path):
        def refuse(*_: object) -> None:
            raise AssertionError("a lock was taken")

        monkeypatch.setattr("fcntl.flock", refuse)
        assert lock.holder(db_path) == str(os.getpid())
        monkeypatch.undo()
    assert lock.holder(db_path) is None
