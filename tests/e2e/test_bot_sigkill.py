"""A match survives SIGKILL at any moment: the real bot runs in a child process against
the fake Discord of this test, plays a match of computer players, and is killed at
random moments and restarted each time. At the end every committed move is in the log
exactly once, and the channel shows each hand's commitment, settlement, reveal and
standings, and the match's end, exactly once."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from botkit import make_world
from fakediscord import FakeDiscord

from bot.service import commitment, parse_wall
from bot.store import Store
from engine.game import Action, Phase, replay
from tests.crashkit import record_commits

CHILD = Path(__file__).with_name("crash_bot.py")
HANDS = 4
KILLS = 6
SLACK = 3


async def run_child(fake: FakeDiscord, world: Any, db: Path,
                    kill: tuple[int, float] | None) -> tuple[list[str], bool]:
    """Run the bot until it says DONE or, with ``kill`` = (moves, seconds), SIGKILL it
    that many seconds after it committed that many moves (0: after it was ready), or
    sooner, as it commits its `SLACK`-th move more. Counting moves rather than seconds
    keeps the kills spread over the match however fast or loaded the machine is: a
    bot at 3 ms a move commits some 80 moves in a quarter of a second, and a match of
    four hands is some 200 to 350 moves."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(CHILD), fake.api_url, fake.gateway_url, str(db),
        str(world.guild.id), str(world.channel.id), str(world.players[0].id), str(HANDS),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    lines: list[str] = []

    async def read() -> None:
        assert proc.stdout is not None
        async for raw in proc.stdout:
            lines.append(raw.decode().rstrip("\n"))

    def moves() -> int:
        return sum(1 for line in lines if line.startswith("C "))

    reader = asyncio.create_task(read())
    errors = asyncio.create_task(proc.stderr.read())
    killed = False
    if kill is not None:
        after, delay = kill
        while proc.returncode is None and ("READY" not in lines or moves() < after):
            await asyncio.sleep(0.005)
        deadline = asyncio.get_running_loop().time() + delay
        while (proc.returncode is None and moves() < after + SLACK
               and asyncio.get_running_loop().time() < deadline):
            await asyncio.sleep(0.001)
        with contextlib.suppress(ProcessLookupError):  # it may just have ended
            proc.kill()
            killed = True
    await asyncio.wait_for(proc.wait(), 60)
    await reader
    err = (await errors).decode()
    assert "DONE" in lines or (killed and proc.returncode == -9), err[-3000:]
    if not killed:  # a run that finished the match shut down without an error
        assert proc.returncode == 0 and "Traceback" not in err, err[-3000:]
    return lines, killed


def kill_moment(rng: random.Random) -> tuple[int, float]:
    """Now and then right after start-up (while the restart delivers what was left),
    else after some moves, at a random instant."""
    if rng.random() < 0.25:
        return 0, rng.uniform(0.0, 0.3)
    return rng.randint(1, 50), rng.uniform(0.0, 0.1)


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_match_survives_sigkill_with_every_announcement_once(
        fake: FakeDiscord, tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    world = make_world(fake)
    db = tmp_path / "bot.sqlite3"
    committed: dict[tuple[int, int], str] = {}
    kills = 0
    while True:
        lines, killed = await run_child(fake, world, db,
                                        kill_moment(rng) if kills < KILLS else None)
        record_commits(lines, committed, seed)
        if "DONE" in lines:
            if killed:  # the kill landed on its way out: a run to its end checks the exit
                lines, _ = await run_child(fake, world, db, None)
                record_commits(lines, committed, seed)
                assert "DONE" in lines
            break
        kills += 1
    assert kills >= 3, f"the match ended before it was killed often (seed {seed})"
    table, hands = await check_log(db, world.channel.id, committed)
    check_channel(fake, world, table, hands)


async def check_log(db: Path, channel: int, committed: dict[tuple[int, int], str]
                    ) -> tuple[int, list[Any]]:
    """The match finished, every committed action is in the log once, the log replays
    to the stored settlements, nothing is left to announce; returns the table's id and
    its hands."""
    store = await Store.open(db)
    try:
        (table,) = await store.lobby.tables_in_channel(channel)
        (match,) = await store.matches.of_table(table.id)
        assert table.status == "finished" and match.status == "finished"
        assert await store.outbox.undelivered() == []
        hands = await store.hands.of_match(match.id)
        assert [h.number for h in hands] == list(range(1, HANDS + 1))
        stored: dict[tuple[int, int], Any] = {}
        for hand in hands:
            actions = await store.log.actions(hand.id)
            assert [a.seq for a in actions] == list(range(1, len(actions) + 1))
            stored.update({(hand.id, a.seq): a.payload for a in actions})
            state = replay("shanghai", {"hands": HANDS}, parse_wall(hand.wall), hand.dice,
                           hand.dealer, [Action.from_json(a.payload) for a in actions],
                           streak=hand.streak, huangfan=hand.huangfan > 0)
            assert state.phase is Phase.ENDED and state.result is not None
            settled = {s.seat: s.amount for s in await store.endings.settlements(hand.id)}
            assert tuple(settled[s] for s in range(4)) == state.result.payments
            assert commitment(hand.salt, hand.wall) == hand.commitment
        for key, payload in committed.items():
            assert stored.get(key) == json.loads(payload), f"committed action {key} lost"
        return table.id, hands
    finally:
        await store.close()


def check_channel(fake: FakeDiscord, world: Any, table: int, hands: list[Any]) -> None:
    """Each hand's commitment, settlement, reveal and standings, and the match's end,
    were posted exactly once (deleted messages count too)."""
    messages = fake.messages(world.channel, deleted=True)

    def count(test: Any) -> int:
        return sum(1 for m in messages if test(m))

    def has_file(name: str) -> Any:
        return lambda m: any(a.filename == name for a in m.attachments)

    for hand in hands:
        n, t = hand.number, table
        assert count(lambda m, h=hand: h.commitment in m.content
                     and h.salt not in m.content) == 1, f"hand {n}'s commitment"
        assert count(has_file(f"settlement-{t}-{n}.png")) == 1, f"hand {n}'s settlement"
        assert count(lambda m, h=hand: h.salt in m.content) == 1, f"hand {n}'s reveal"
        assert count(has_file(f"leaderboard-{t}-{n}.png")) == 1, f"hand {n}'s standings"
    assert count(lambda m: "is over" in m.content) == 1, "the match's end"
