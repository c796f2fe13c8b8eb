"""Leaving mid-match, a failing notifier, timers across tables in order, the lazy warm-up,
and the offline demo."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Awaitable, Callable
from fractions import Fraction
from pathlib import Path

import pytest

from bot.demo import run_demo
from bot.service import FakeClock, Notice, RecordingNotifier
from bot.store import ActionRow, Store
from tests.engine.helpers import fractions
from tests.service.helpers import ANN, BOB, CHANNEL, CID, DEE, World, by

TIMERS = {"turn_timer": 60, "claim_timer": 20}


async def test_leaving_mid_match_hands_the_seat_to_the_computer(world: World) -> None:
    table = await world.table(options=TIMERS)
    info = await world.service.leave(by(BOB), table, agreed=Fraction(0))
    seat = info.seats[1]
    assert seat is not None and seat.is_computer and seat.user_id is None
    assert "Bob" in seat.name
    assert world.notes.of("lobby")[-1].what == "replaced"
    assert info.totals == fractions(0, 0, 0, 0)                     # Shanghai: no penalty
    # Bob's decisions are now the computer's: the hand goes on without waiting for him
    await world.until("settlement", step=60)


async def test_leaving_a_hangzhou_hand_costs_the_abandon_penalty(world: World) -> None:
    table = await world.table(rules="hangzhou", options=TIMERS)
    info = await world.service.leave(by(CID), table, agreed=Fraction(8))
    assert info.totals is not None and info.totals[2] == Fraction(-8)
    assert sum(info.totals) == Fraction(-8)                # not redistributed
    entry = await world.store.leaderboard.entry(CHANNEL, "hangzhou", f"user:{CID}")
    assert entry is not None and entry.points == -8


class Broken(RecordingNotifier):
    async def publish(self, notice: Notice) -> None:
        if notice.kind == "table":
            raise RuntimeError("discord is down")
        await super().publish(notice)


async def test_a_failing_notifier_never_undoes_or_blocks_a_move(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world()
    world.service.notifier = world.notes = Broken()
    table = await world.table((ANN,), computers=3, options={**TIMERS, "hands": 1})
    await world.until("match_ended", step=60)
    assert (await world.service.table_info(table)).status == "finished"


async def test_timers_of_several_tables_fire_in_deadline_order(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(clock=FakeClock())
    slow = await world.table(options={"turn_timer": 90, "claim_timer": 90}, channel=1)
    fast = await world.table((BOB + 10, CID + 10, DEE + 10, ANN + 10), channel=2,
                             options={"turn_timer": 30, "claim_timer": 30})
    order: list[int] = []
    for _ in range(6):
        world.clock.advance(10)
        before = {t: len(await moves(world, t)) for t in (slow, fast)}
        await world.settle()
        order += [t for t in (slow, fast) if len(await moves(world, t)) > before[t]]
    assert order == [fast, fast]                            # at 30 s and 60 s
    world.clock.advance(30)
    await world.settle()
    assert len(await moves(world, slow)) == 1 and len(await moves(world, fast)) >= 3


async def moves(world: World, table: int) -> list[ActionRow]:
    hand = await world.store.hands.live(table)
    return [] if hand is None else await world.store.log.actions(hand.id)


async def test_lazy_recovery_then_warm_up_rebuilds_every_table(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world()
    await world.table(options=TIMERS, channel=1)
    await world.table((ANN + 10, BOB + 10, CID + 10, DEE + 10), options=TIMERS, channel=2)
    await world.store.close()
    world = await make_world(FakeClock(world.clock.now() + 5))
    report = await world.service.recover(eager=False)
    assert report.rebuilt == 0
    assert await world.service.warm() == 2
    assert await world.service.warm() == 0


async def test_the_demo_plays_a_match_and_saves_pictures(tmp_path: Path) -> None:
    out = io.StringIO()
    pictures = await run_demo("hangzhou", 1, tmp_path / "pics", tmp_path / "demo.sqlite3",
                              pause=0.0, stream=out)
    text = out.getvalue()
    assert "== hand 1/1" in text and "commitment verified" in text and "match over" in text
    assert pictures > 0 and any((tmp_path / "pics").glob("*settlement.png"))
    store = await Store.open(tmp_path / "demo.sqlite3")
    try:  # what it printed counts as told: a rerun on the database does not repeat it
        assert await store.outbox.undelivered() == []
    finally:
        await store.close()


async def test_the_demo_degrades_to_text_without_render(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("render.table", "render.hand", "render.cards"):
        monkeypatch.setitem(sys.modules, name, None)
    out = io.StringIO()
    pictures = await run_demo("shanghai", 1, tmp_path / "pics", tmp_path / "demo.sqlite3",
                              pause=0.0, stream=out)
    assert pictures == 0 and "pictures unavailable" in out.getvalue()
    assert "match over" in out.getvalue()


def test_mahjong_bot_demo_command(tmp_path: Path) -> None:
    db = tmp_path / "named.sqlite3"
    done = subprocess.run([sys.executable, "-m", "bot", "demo", "--hands", "1", "--db",
                           str(db)], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    assert "match over after 1 hand(s)" in done.stdout and db.exists()


def test_the_demo_on_an_unusable_database_says_so_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bot.demo import main

    db = tmp_path / "not-a-database.sqlite3"
    db.write_text("these are not the pages of a SQLite database " * 40)
    assert main(["--hands", "1", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mahjong-bot demo: ") and str(db) in err, err
    assert err.count("\n") == 1 and "Traceback" not in err, err


def test_the_demo_will_not_share_a_database_with_a_running_bot(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bot.demo import main
    from bot.store import ProcessLock

    db = tmp_path / "bot.sqlite3"
    lock = ProcessLock.acquire(db)   # as a running mahjong-bot holds it
    try:
        assert main(["--hands", "1", "--db", str(db)]) == 2
    finally:
        lock.release()
    err = capsys.readouterr().err
    assert "already running" in err and err.count("\n") == 1, err
    assert not db.exists()


async def test_the_abandon_penalty_survives_a_restart(
        make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world()
    table = await world.table(rules="hangzhou", options=TIMERS)
    await world.service.leave(by(CID), table, agreed=Fraction(8))
    await world.store.close()
    world = await make_world(FakeClock(world.clock.now() + 1))
    await world.service.recover()
    info = await world.service.table_info(table)
    assert info.totals is not None and info.totals[2] == Fraction(-8)
    assert info.seats[2] is not None and info.seats[2].is_computer
