"""Two bot processes, one shard each, on one PostgreSQL database (a throwaway cluster,
tests/pgcluster.py) through the fake Discord.

The table lives in a guild of shard 1: its slash commands and channel buttons reach
process 1, while every DM click reaches process 0 (Discord sends DMs to shard 0), so
one match is played by both. Then process 1 is killed mid-hand (SIGKILL) and process 0
carries on alone: the computer seat's timers fire there (those the dead process held
are taken over once their lease passes), the players finish by DM, and the hand and
its announcements complete.

Nothing lost: every action either process printed after its commit is in the log,
the log replays (every tile where it should be) to the stored settlement, which sums
to zero, and nothing is left undelivered. Nothing doubled: no (hand, seq) was committed
by both processes, the log's seqs run 1, 2, 3… without a gap or a repeat, the
commitment, settlement, reveal, standings and match end were each posted once, and no
player got two DMs for one decision (the DM prompts' custom ids, hand and step, are
all different: a reminder would repeat one, and none is due at these timers).

One view of each, whichever process drew it: the channel ends with one table picture
(each re-post deleted the one before, whoever posted it), no mention left standing (each
deleted the one before, whoever posted it, and the hand's end the last), and no DM
still offering move buttons (each newer DM, from either process, took them off the one
before). The `/mahjong hand` reply the killed process made follows the game on: the
survivor redraws it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from botkit import Driver, World, channel_files, slash
from fakediscord import FakeDiscord

from bot.service import commitment, parse_wall
from bot.store import Store
from engine.game import Action, Phase, replay
from tests.crashkit import record_commits

CHILD = Path(__file__).with_name("shard_bot.py")
SHARDS = 2


class Child:
    """One bot process and what it printed."""

    def __init__(self, proc: asyncio.subprocess.Process, shard: int) -> None:
        self.proc = proc
        self.shard = shard
        self.lines: list[str] = []
        assert proc.stdout is not None and proc.stderr is not None
        self._reader = asyncio.create_task(self._read())
        self._errors = asyncio.create_task(proc.stderr.read())

    @classmethod
    async def start(cls, fake: FakeDiscord, database: str, shard: int) -> Child:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(CHILD), fake.api_url, fake.gateway_url, database, str(shard),
            str(SHARDS), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        child = cls(proc, shard)
        await child.until(lambda: "READY" in child.lines, "READY")
        return child

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        async for raw in self.proc.stdout:
            self.lines.append(raw.decode().rstrip("\n"))

    @property
    def commits(self) -> int:
        return sum(1 for line in self.lines if line.startswith("C "))

    async def until(self, done: Any, what: str, timeout: float = 30.0) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not done():
            if self.proc.returncode is not None:
                raise AssertionError(f"shard {self.shard} ended before {what}:\n"
                                     f"{(await self._errors).decode()[-3000:]}")
            if loop.time() > end:
                raise AssertionError(f"shard {self.shard}: no {what} in {timeout}s")
            await asyncio.sleep(0.02)

    async def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        await self.proc.wait()
        await self._reader

    async def stop(self) -> str:
        """SIGTERM, a clean shutdown; returns what it wrote to stderr."""
        with contextlib.suppress(ProcessLookupError):
            self.proc.terminate()
        await asyncio.wait_for(self.proc.wait(), 30)
        await self._reader
        err = (await self._errors).decode()
        assert "DONE" in self.lines, err[-3000:]
        return err


def shard_world(fake: FakeDiscord) -> World:
    """Three players in a guild that lives on shard 1."""
    players = [fake.add_user(101 + i, f"p{i + 1}") for i in range(3)]
    outsider = fake.add_user(999, "stranger")
    guild = fake.add_guild(name="Club", members=[*players, outsider], shard=(1, SHARDS))
    return World(fake, guild, fake.channel(guild, "general"), players, outsider)


async def open_table(world: World) -> None:
    """p1 opens a one-hand table in the guild, p2 and p3 join, p1 adds a computer and
    starts: all of it through shard 1. Every person's turn is mentioned in the channel,
    by whichever process made the change before it."""
    fake = world.fake
    await (await slash(world, world.players[0], "new", rules="shanghai", hands=1,
                       mentions="every_turn")).response()
    lobby = await fake.wait_for(lambda: next(
        (m for m in fake.messages(world.channel)
         if any(":lobby:" in c for c in fake.custom_ids(m))), None), 10)

    async def press(user: Any, what: str) -> None:
        button = next(c for c in fake.custom_ids(lobby) if c.endswith(f":{what}"))
        await fake.wait_for(lambda: not any(c.custom_id == button and c.disabled
                                            for c in fake.components(lobby)), 10)
        await (await fake.click(user, lobby, button)).response(10)

    for player in world.players[1:]:
        await press(player, "join")
    await press(world.players[0], "addbot")
    await press(world.players[0], "start")


async def test_two_processes_play_one_match_and_one_survives_a_kill(
        fake: FakeDiscord, pg_url: str) -> None:
    database = pg_url
    world = shard_world(fake)
    first = await Child.start(fake, database, 0)     # syncs the commands
    second = await Child.start(fake, database, 1)
    children = [first, second]
    try:
        await fake.wait_for(lambda: fake.state.global_commands, 10, "the commands synced")
        await open_table(world)
        # p3 plays through /mahjong hand in the guild (shard 1), the others by DM (shard
        # 0); nobody wins before the kill and the computer's moves after it
        driver = Driver(world, closed={world.players[2].id}, win=False)

        async def idle() -> None:
            await fake.settle(quiet=0.1, timeout=20)

        await explained(children, driver.play_until(
            lambda: first.commits >= 3 and second.commits >= 3, idle=idle))
        # mid-hand, but not between a commit and the DMs it causes: a process killed in
        # that window leaves the next decision's DM to a survivor once its heartbeat has
        # been silent 30 s (docs/reliability.md, "What killing a process costs"), longer
        # than this test waits
        await fake.settle(quiet=0.5, timeout=20)
        await fake.wait_for(lambda: any(driver.pending(p) for p in world.players), 20,
                            "a decision's DM before the kill")
        await second.kill()
        killed_requests = len(fake.requests())
        assert not channel_files(fake, world.channel, "settlement-"), "the hand ended first"
        killed_at = len(committed_by(children))
        driver.closed = set()                        # the guild's shard is gone: DMs only
        alone = first.commits
        await driver.play_until(lambda: first.commits >= alone + 8, idle=idle)
        driver.win = True
        await driver.play_until(
            lambda: bool(channel_files(fake, world.channel, "leaderboard-")), idle=idle)
        await fake.settle(quiet=0.3, timeout=20)
        await first.stop()
    finally:
        for child in children:
            if child.proc.returncode is None:
                await child.kill()
    committed = committed_by(children)
    table, hand = await check_log(database, world.channel.id, committed)
    # alone, the survivor played the computer's moves: its deadlines fired there
    after = await sources_after(database, hand.id, killed_at)
    assert "computer" in after, after
    check_channel(fake, world, table, hand)
    check_dms(fake, world)
    check_reply_followed(fake, world, killed_requests)


def check_reply_followed(fake: FakeDiscord, world: World, since: int) -> None:
    """p3's last `/mahjong hand` reply, made by the killed process, followed the game
    on: the survivor redrew it with p3's own hand (the reply and its token are kept in
    the database for every process)."""
    p3 = world.players[2]
    asked = [r for r in fake.state.interactions.values()
             if r.user_id == p3.id and '"hand"' in json.dumps(r.payload.get("data"))]
    assert asked, "p3 never asked for their hand"
    token = asked[-1].token
    redrawn = [r for r in fake.requests()[since:] if r.method == "PATCH" and token in r.path
               and [f.filename for f in r.files] == ["hand-1-2.png"]]
    assert redrawn, "the survivor did not redraw the reply the killed process made"


async def explained(children: list[Child], work: Any) -> None:
    """``work``, and if it fails, the processes' own words with the failure (a stall
    is otherwise silent: what the bots logged is in their stderr)."""
    try:
        await work
    except AssertionError as exc:
        words = []
        for child in children:
            await child.kill()
            err = (await child._errors).decode()[-4000:]
            words.append(f"--- shard {child.shard} printed {child.lines[-15:]}\n{err}")
        raise AssertionError("\n".join([str(exc), *words])) from exc


def committed_by(children: list[Child]) -> dict[tuple[int, int], str]:
    """(hand, seq) → payload of every action a process printed: none printed twice."""
    committed: dict[tuple[int, int], str] = {}
    for child in children:
        record_commits(child.lines, committed, child.shard)
    return committed


async def sources_after(database: str, hand_id: int, seq: int) -> list[str]:
    store = await Store.open(database)
    try:
        return [a.source for a in await store.log.actions(hand_id) if a.seq > seq + 1]
    finally:
        await store.close()


async def check_log(database: str, channel: int, committed: dict[tuple[int, int], str]
                    ) -> tuple[int, Any]:
    store = await Store.open(database)
    try:
        (table,) = await store.lobby.tables_in_channel(channel, live_only=False)
        (match,) = await store.matches.of_table(table.id)
        assert table.status == "finished" and match.status == "finished"
        assert await store.outbox.undelivered() == []
        (hand,) = await store.hands.of_match(match.id)
        actions = await store.log.actions(hand.id)
        assert [a.seq for a in actions] == list(range(1, len(actions) + 1))
        stored = {(hand.id, a.seq): a.payload for a in actions}
        state = replay("shanghai", {"hands": 1}, parse_wall(hand.wall), hand.dice,
                       hand.dealer, [Action.from_json(a.payload) for a in actions],
                       streak=hand.streak, huangfan=hand.huangfan > 0)
        assert state.phase is Phase.ENDED and state.result is not None
        settled = {s.seat: s.amount for s in await store.endings.settlements(hand.id)}
        assert tuple(settled[s] for s in range(4)) == state.result.payments
        assert sum(settled.values()) == 0
        assert commitment(hand.salt, hand.wall) == hand.commitment
        for key, payload in committed.items():
            assert stored.get(key) == json.loads(payload), f"committed action {key} lost"
        # the killed process may have committed one action it had no time to print
        assert len(stored) - len(committed) <= 1
        return table.id, hand
    finally:
        await store.close()


def check_channel(fake: FakeDiscord, world: World, table: int, hand: Any) -> None:
    messages = fake.messages(world.channel, deleted=True)

    def count(test: Any) -> int:
        return sum(1 for m in messages if test(m))

    def has_file(name: str) -> Any:
        return lambda m: any(a.filename == name for a in m.attachments)

    assert count(lambda m: hand.commitment in m.content and hand.salt not in m.content) == 1
    assert count(has_file(f"settlement-{table}-1.png")) == 1
    assert count(lambda m: hand.salt in m.content) == 1
    assert count(has_file(f"leaderboard-{table}-1.png")) == 1
    assert count(lambda m: "is over" in m.content) == 1
    live = fake.messages(world.channel)
    assert sum(1 for m in live if has_file(f"table-{table}.png")(m)) == 1, "pictures"
    mentions = [m.content for m in messages if any(w in m.content for w in MENTIONS)]
    assert mentions, "no turn was mentioned"
    # each mention deleted the one before, whichever process had posted it, and the
    # hand's end the last one: none stays (two left by two processes would)
    assert not [m for m in live if m.content in mentions], "a mention was left standing"


MENTIONS = ("your turn at table", "you may claim a discard", "half of your time",
            "may be claimed at table", "Half the time to claim")
"""The channel's mentions (tests/e2e words: the guild speaks English)."""


def check_dms(fake: FakeDiscord, world: World) -> None:
    """No decision was put to a player twice: each DM prompt's move buttons name a
    (hand, step) no other DM to that player named."""
    for player in world.players:
        prompts: Counter[tuple[str, ...]] = Counter()
        for m in fake.dms(player, deleted=True):
            # a turn's prompt may be only the discard menu (mj:dc:), a claim's only
            # buttons (mj:mv:); both name (table, hand, step) in the same places
            prompts.update({tuple(c.split(":")[2:5]) for c in _custom_ids_ever(m)
                            if c.startswith(("mj:mv:", "mj:dc:"))})
        assert prompts, f"{player.name} was never asked anything by DM"
        doubled = [k for k, n in prompts.items() if n > 1]
        assert not doubled, f"{player.name} was asked twice: {doubled}"
        buttons = [m.id for m in fake.dms(player) if '"custom_id": "mj:mv:' in
                   json.dumps(m.snapshot())]
        assert not buttons, f"{player.name}'s old DMs kept their move buttons: {buttons}"


def _custom_ids_ever(message: Any) -> set[str]:
    """The custom ids a message carried in any of its versions."""
    text = json.dumps([message.snapshot(), *message.versions])
    return {part.split('"')[0] for part in text.split('"custom_id": "')[1:]}
