"""Helpers for the end-to-end tests of the real bot (and `bench/discord.py`): build the
bot against a database file, set up a guild of players, and play by clicking what each
player received, as a person would.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fakediscord import (
    BotLauncher,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionHandle,
)
from fakediscord.runner import busy_tasks
from playkit import World as World
from playkit import choose as choose
from playkit import open_table as open_table
from playkit import slash as slash

from bot.discord.client import MahjongBot
from bot.discord.core.i18n import STRINGS

PLAYER_IDS = (101, 102, 103, 104)


def latest_bot(bots: BotLauncher) -> MahjongBot:
    """The bot ``bots`` started last."""
    bot = bots.running[-1].client
    assert isinstance(bot, MahjongBot), bot
    return bot


QUIET = 0.005
"""The quiet period `quiet` still asks of the fake once the bot has nothing queued: a
safety net only, the bot's queued work is waited for by name (`queued_work`)."""
DUE_HORIZON = 0.1
"""Scheduler entries due this soon count as queued work (a computer's move, no pause)."""
QUIET_TIMEOUT = 30.0
BOT_TASKS = ("mahjong-warm", "mahjong-ready")
"""The bot's own tasks that end once their work is done (its long-lived ones aside)."""


def queued_work(bots: BotLauncher) -> list[str]:
    """What the running bots have queued that no request or discord.py task shows yet:
    the notifier's deliveries (a picture drawn in a thread or worker process for a while
    without a request), a table picture waiting for its coalescing timer, the
    scheduler's firings under way or due, and the start-up tasks still running."""
    work = [t.get_name() for t in busy_tasks(BOT_TASKS)]
    for running in bots.running:
        bot = running.client
        if not isinstance(bot, MahjongBot) or bot.is_closed() or bot.notifier is None:
            continue
        if bot.notifier.outbox.busy():
            work.append("deliveries")
        if bot.notifier.tables.coalescing():
            work.append("a table picture's timer")
        if bot.service is not None and bot.service.scheduler.busy(DUE_HORIZON):
            work.append("the scheduler's firings")
    return work


async def quiet(bots: BotLauncher) -> None:
    """Wait until the bot is done: discord.py's tasks, the requests, and the bot's own
    queued work (`queued_work`), all at one moment."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + QUIET_TIMEOUT
    while True:
        await bots.idle(quiet=QUIET)
        if not queued_work(bots):
            return
        remaining = deadline - loop.time()
        if remaining <= 0:
            raise TimeoutError(f"the bot kept working: {queued_work(bots)}")
        await bots.fake.wait_for(lambda: not queued_work(bots), remaining,
                                 "the bot's queued work")


async def tick(clock: Any, seconds: float, service: Any, bots: Any) -> None:
    """Move a fake clock on and let the bot do what came due (and send what it queued)."""
    clock.advance(seconds)
    await asyncio.sleep(0.02)  # the scheduler wakes
    await service.scheduler.drain()
    await quiet(bots)


def make_bot(db: Path | str, **kwargs: Any) -> MahjongBot:
    """The real bot, fast: no computer pause, table picture coalesced over 0.05 s."""
    options: dict[str, Any] = {"database_path": db, "computer_pause": 0.0,
                               "table_interval": 0.05}
    options.update(kwargs)
    return MahjongBot(**options)


def make_world(fake: FakeDiscord, count: int = 4, *, locales: Iterable[str] = (),
               guild_locale: str = "en-US") -> World:
    langs = list(locales) + ["en-US"] * count
    players = [fake.add_user(PLAYER_IDS[i], f"p{i + 1}", locale=langs[i]) for i in range(count)]
    outsider = fake.add_user(999, "stranger")
    guild = fake.add_guild(900, "Club", members=[*players, outsider], locale=guild_locale)
    return World(fake, guild, fake.channel(guild, "general"), players, outsider)


FOLLOWUP_WAIT = 30.0
"""How long a deferred answer may take to follow: as long as the other waits here. A
machine busy with other work (two bot processes, PostgreSQL and other test runs on two
cores) took over 5 s for a bot's first `/mahjong hand` in a shared-mode process, which
rebuilds the table and fills its caches; a lost answer still fails the test."""


async def answer(handle: InteractionHandle) -> FakeMessage:
    """The bot's answer as the user finally sees it: the message of a direct reply, or
    after a deferral (callback type 5) the followup that replaced "thinking…" (or, when
    the thinking message was taken away, the followup sent instead)."""
    response = await handle.response()
    if response.type != 5:
        assert response.message is not None, response
        return response.message
    (*_, last) = await handle.wait_followups(timeout=FOLLOWUP_WAIT)
    return last


async def private_answer(handle: InteractionHandle) -> FakeMessage:
    """What a click was told privately: the direct reply, or after its deferred update
    (callback type 6: a move's click that arrived while others were unanswered, or whose
    move was slow, is acknowledged before it is played) the private followup."""
    response = await handle.response()
    if response.type != 6:
        assert response.message is not None and response.message.ephemeral, response
        return response.message
    (*_, last) = await handle.wait_followups()
    assert last.ephemeral, last
    return last


COMPONENT = 3
"""The interaction type of a button press or a menu choice."""


@dataclass(frozen=True)
class Snapshot:
    """A message as it was when taken (the bot later takes the buttons off a played
    decision's DM; a client that did not refresh still shows them, and `press` sends
    them as shown)."""

    id: int
    channel_id: int
    data: dict[str, Any]

    @classmethod
    def of(cls, fake: FakeDiscord, message: FakeMessage) -> Snapshot:
        return cls(message.id, message.channel_id,
                   copy.deepcopy(message.payload(fake.state.base_url)))

    def payload(self, base_url: str) -> dict[str, Any]:
        return self.data


async def press(fake: FakeDiscord, user: FakeUser, message: Any, custom_id: str,
                values: list[str] | None, locale: str) -> str:
    """``user`` presses a component of ``message`` (a `FakeMessage`, or anything with
    its ``id``, ``channel_id`` and ``payload``) in ``locale``, even one the message does
    not show (as a modified client could, or one not yet shown the bot's last edit);
    the private answer's text."""
    channel = fake.state.channels[message.channel_id]
    data: dict[str, object] = {"custom_id": custom_id, "component_type": 2}
    if values is not None:
        data.update(component_type=3, values=values)
    handle = await fake._interact(COMPONENT, fake.state.users[user.id], channel, data, locale,
                                  source=message)
    return (await private_answer(handle)).content or ""


async def leave_match(world: World, user: FakeUser) -> FakeMessage:
    """``user`` leaves the running match: ``/mahjong leave``, then "Leave the match" on
    the private confirmation; the confirmation as it ends."""
    asked = await answer(await slash(world, user, "leave"))
    confirm = next(c for c in world.fake.custom_ids(asked)
                   if c.startswith("mj:quit:") and c.endswith(":yes"))
    await (await world.fake.click(user, asked, confirm)).response()
    return world.fake.message(asked)


def channel_files(fake: FakeDiscord, channel: Any, prefix: str) -> list[FakeMessage]:
    return [m for m in fake.messages(channel)
            if any(a.filename.startswith(prefix) for a in m.attachments)]


RACED = frozenset(STRINGS[lang][key] for lang in STRINGS
                  for key in ("refused.stale", "refused.stale_hand", "refused.not_playing"))
"""What a click is told when its decision passed before it arrived (its hand, or its
match, may have ended meanwhile), in every language."""


def _decision_of(custom_id: str) -> tuple[int, int, int]:
    """(table, hand, step) of a move button's or discard menu's ``custom_id``
    (``mj:mv:{table}:{hand}:p{step}:…``, ``mj:dc:{table}:{hand}:p{step}:…``)."""
    table, hand, step = custom_id.split(":")[2:5]
    return int(table), int(hand), int(step.removeprefix("p"))


@dataclass
class Driver:
    """Plays every seat by clicking the newest components each player was given."""

    world: World
    closed: set[int] = field(default_factory=set)
    """Players whose DMs are closed: they play through ``/mahjong hand``."""
    clicked: set[int] = field(default_factory=set)
    clicks: int = 0
    refusals: list[str] = field(default_factory=list)
    on_click: Callable[[InteractionHandle], Any] | None = None
    win: bool = True
    """False: never press Win (the hand runs to its end, drawn)."""

    raced: list[str] = field(default_factory=list)
    """Clicks that lost a race with the bot: told their decision had passed (or their
    hand had ended) when it truly had, the bot offering a later decision or settling
    the hand. A quick player meets this too: seats answer a claim window one after
    another here, so a seat may press Pass just after an earlier seat's win closed the
    window and the next hand was dealt."""
    race_wait: float = 5.0
    """How long the bot has to show that a click's decision had passed when it said
    so; a "passed" answer it cannot back is a refusal."""

    async def heard(self, message: FakeMessage, custom_id: str, text: str) -> None:
        """Count the private answer ``text`` to pressing ``custom_id`` on ``message``:
        a refusal, unless it says the decision had passed and the bot then shows a
        later decision or the hand's settlement (a race, `raced`)."""
        if text in RACED:
            with contextlib.suppress(TimeoutError):
                await self.world.fake.wait_for(lambda: self._passed(custom_id),
                                               self.race_wait, "a later decision")
                self.raced.append(text)
                return
        self.refusals.append(text)

    def _passed(self, custom_id: str) -> bool:
        """Whether the decision of the move button or discard menu ``custom_id`` is
        over: a later one of its table was offered to someone, or its hand settled."""
        table, *when = _decision_of(custom_id)
        fake = self.world.fake
        if channel_files(fake, self.world.channel, f"settlement-{table}-{when[0]}."):
            return True
        offered = (_decision_of(c) for user in self.world.players for m in fake.dms(user)
                   for c in fake.custom_ids(m) if c.startswith(("mj:mv:", "mj:dc:")))
        return any(t == table and later > when for t, *later in offered)

    def pending(self, user: FakeUser) -> FakeMessage | None:
        fake = self.world.fake
        for m in reversed(fake.dms(user)):
            if m.id in self.clicked:
                return None
            if any(c.startswith(("mj:mv:", "mj:dc:")) for c in fake.custom_ids(m)):
                return m
        return None

    async def click(self, user: FakeUser, message: FakeMessage) -> bool:
        fake = self.world.fake
        self.clicked.add(message.id)
        move = choose(fake, message, win=self.win)
        if move is None:
            return False
        custom_id, values = move
        if values is None:
            handle = await fake.click(user, message, custom_id)
        else:
            handle = await fake.select(user, message, custom_id, values)
        response = await handle.response()
        self.clicks += 1
        if response.ephemeral and response.content:
            await self.heard(message, custom_id, response.content)
        if self.on_click is not None:
            self.on_click(handle)
        return True

    async def via_command(self, user: FakeUser) -> bool:
        handle = await slash(self.world, user, "hand")
        message = await answer(handle)
        if not message.ephemeral:
            return False
        if message is None or choose(self.world.fake, message, win=self.win) is None:
            return False
        return await self.click(user, message)

    async def step(self) -> bool:
        progressed = False
        for user in self.world.players:
            if user.id in self.closed:
                continue
            message = self.pending(user)
            if message is not None:
                progressed |= await self.click(user, message)
        return progressed

    async def play_until(self, done: Callable[[], bool], *, idle: Callable[[], Any],
                         limit: int = 2000) -> None:
        """Click until ``done()``; when nobody has anything new, let the bot finish its
        work, then let players with closed DMs ask with ``/mahjong hand``."""
        for _ in range(limit):
            if done():
                return
            if await self.step():
                continue
            await idle()
            if done() or await self.step():
                continue
            moved = False
            for user in self.world.players:
                if user.id in self.closed:
                    moved |= await self.via_command(user)
            if not moved:
                await asyncio.sleep(0.02)
        raise AssertionError(f"not done after {limit} rounds ({self.clicks} clicks)")


async def discard_decision(driver: Driver, bots: Any, hand: int = 1, *,
                           table: int | None = 1
                           ) -> tuple[FakeUser, FakeMessage, str, list[str]]:
    """A player with a discard menu in hand ``hand`` of table ``table`` (None: of
    whichever table and hand the driver's players see), the driver playing on until
    there is one: (player, DM, menu id, a value)."""
    prefix = "mj:dc:" if table is None else f"mj:dc:{table}:{hand}:"
    fake = driver.world.fake
    for _ in range(400):
        for user in driver.world.players:
            message = driver.pending(user)
            if message is None:
                continue
            for c in fake.components(message):
                menu = c.custom_id
                if menu is not None and menu.startswith(prefix) and c.options:
                    return user, message, menu, [c.options[0]]
        if not await driver.step():
            await quiet(bots)
    raise AssertionError(f"nobody has a discard to make in hand {hand}")


async def table_with_a_discard(fake: FakeDiscord, bots: Any, folder: Path,
                               race_wait: float = 5.0
                               ) -> tuple[Driver, FakeUser, FakeMessage, str, list[str]]:
    """One bot on a database in ``folder``, a table of four players opened and its
    first hand dealt, played on until a seat has a discard to make: the driver (its
    ``race_wait``), then the seat's person, DM, menu and a value."""
    world = make_world(fake)
    await bots.start(make_bot(folder / "db.sqlite3", picture_processes=0))
    await open_table(world)
    driver = Driver(world, race_wait=race_wait)
    return (driver, *await discard_decision(driver, bots))


def concealed_lines(fake: FakeDiscord, user: FakeUser) -> set[str]:
    """The "Your hand: …" lines user was sent (to look for them where they must not be)."""
    out = set()
    for m in fake.dms(user):
        for line in m.content.splitlines():
            if line.startswith("Your hand:"):
                out.add(line.split(":", 1)[1].split("+")[0].strip())
    return out


def moves_shown(fake: FakeDiscord, message: FakeMessage) -> list[str]:
    """The ids of the decision's move buttons and discard menu ``message`` shows (a
    message whose move was played may still offer the "Next discard…" menu)."""
    return [c for c in fake.custom_ids(message) if c.startswith(("mj:mv:", "mj:dc:"))]


def texts(message: FakeMessage) -> str:
    return message.content + json.dumps(message.embeds, ensure_ascii=False)


def assert_secrecy(fake: FakeDiscord, world: World, table_id: int = 1) -> int:
    """No channel message and no other player's DM ever carried a seat's hand picture or
    its concealed tiles (every recorded request is checked); returns how many requests
    carried a hand picture."""
    seat_of = {p.id: i for i, p in enumerate(world.players)}
    dm_owner = {fake.dm_channel_id(p): p.id for p in world.players}
    hands = 0
    for r in fake.requests():
        names = [f.filename for f in r.files]
        private = [n for n in names if n.startswith("hand-")]
        if not private:
            continue
        hands += 1
        owner = dm_owner.get(r.channel_id)
        if owner is None:  # not a DM: only an ephemeral answer to the seat's own command
            record = _interaction_of(fake, r)
            assert record is not None, f"a hand picture went to channel {r.channel_id}"
            flags = int((r.body.get("data") or r.body).get("flags", 0) or 0)
            assert flags & 64 or r.path.startswith("/api/v10/webhooks"), r.path
            owner = record.user_id
        assert set(private) == {f"hand-{table_id}-{seat_of[owner]}.png"}, (owner, private)
    lines = {p.id: concealed_lines(fake, p) for p in world.players}
    settled = channel_files(fake, world.channel, "settlement-")
    cut = settled[0].id if settled else None
    for m in fake.messages(world.channel):
        if cut is not None and m.id >= cut:
            continue  # the settlement and the wall's reveal are public by design
        shown = [texts(m)] + [json.dumps(v, ensure_ascii=False) for v in m.versions]
        for seen in lines.values():
            for line in seen:
                assert not any(line in s for s in shown), f"{line!r} in the channel"
    for p in world.players:
        others = set().union(*(v for k, v in lines.items() if k != p.id))
        for m in fake.dms(p):
            assert not any(line in m.content for line in others)
    return hands


def _interaction_of(fake: FakeDiscord, request: Any) -> Any:
    parts = request.path.split("/")
    for record in fake.state.interactions.values():
        if record.token in parts:
            return record
    return None
