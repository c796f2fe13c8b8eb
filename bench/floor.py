"""``python bench/floor.py``: the floor of a click — what discord.py itself costs per click
on this machine against the fake Discord, with no game behind it.

The same set-up as ``bench/discord.py --mode split`` (the fake Discord and the players in
a child process, the bot alone in this one, over 127.0.0.1), but the bot is a bare
`discord.Client` that does, per click, only the Discord work a move's click makes in the
real bot, with the engine, the store and the pictures doing nothing:

- discord.py parses the gateway's INTERACTION_CREATE, builds the `Interaction` and
  rebuilds the clicked message's view to dispatch the component (a `DynamicItem`, as the
  bot's own buttons are; the DM carries the same shape of components: a discard menu of
  14 tiles and two buttons);
- the interaction's response, the clicked DM edited without its components
  (``--answer edit``: type 7, one request, as the bot answers a click that arrives alone)
  or acknowledged first and edited after (``--answer defer``: type 6, then the edit of
  the original message: two requests, as the bot answers a click in a burst);
- the next DM with a hand picture (a real one, drawn once at start-up: bytes only, no
  drawing per click) and its components, sent as the bot sends it (``Poster.dm_id``: one
  multipart body, Discord's answer not made into a `Message`);
- every ``--table-every`` clicks, the table picture's edit in the clicking player's
  table's channel (four players a table; the real bot edits a table's picture about
  once in four clicks, coalesced), as `Poster.edit_picture` makes it.

``--no-dm`` leaves the DM out: the click is answered (type 7) with the same DM's next
components, which its player clicks again, so that the run measures discord.py's
parsing, dispatch and answer alone; the DM's share is the difference of the two runs.

Each of ``--players`` people clicks their newest DM the instant it arrives (a saturation
test: ``--players`` clicks are in flight at any moment, as with ``bench/discord.py
--tables N --think 0``, one deciding seat a table). Printed, one ``NAME VALUE UNIT`` line
each: ``clicks``, ``wall_s``, ``clicks_per_s``, ``click_response_{median,p99}_ms`` (the
click sent to its first response reaching the fake), ``bot_cpu_ms_per_click`` (this
process's CPU over the play, per click), ``bot_capacity_clicks_per_s`` (1 s of one core
÷ that: the ceiling of one process), ``bot_system_cpu_ms_per_click`` (the kernel's
part of it), ``players_cpu_ms_per_click`` (the fake and the players) and
``requests_per_click``.

``--profile FILE``: the bot's play under cProfile (``python -m pstats FILE``).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import re
import secrets
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# bench/discord.py is in this folder: it must not shadow the discord package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

import discord  # noqa: E402
import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import yarl  # noqa: E402
from discord.http import Route, handle_message_parameters  # noqa: E402
from fakediscord import FakeDiscord, FakeMessage  # noqa: E402
from fakediscord.runner import GUILD_READY_TIMEOUT  # noqa: E402

from bot.discord.core.collector import tune  # noqa: E402
from bot.discord.delivery.posting import memory_file, one_body  # noqa: E402

USER0 = 1000
"""The first player's id; the others follow."""
TILES = 14
"""Options in each DM's discard menu (a hand's tiles)."""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _cpu_of(pid: int, *, system: bool = False) -> float:
    """CPU seconds (user + system; ``system``: the kernel's part alone) a process has
    used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[12]) if system else int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def pictures() -> tuple[bytes, bytes]:
    """A hand picture and a table picture, drawn once (the bot draws them in other
    processes: their bytes are what its loop handles)."""
    from render import samples
    from render.hand import hand_image
    from render.table import table_image
    return hand_image(samples.hand_14()), table_image(samples.table_late(), samples.NAMES)


# ------------------------------------------------------------------------- the bot


class FloorBot(discord.Client):
    """Per click only the Discord work of a move's click (the module's docstring)."""

    def __init__(self, answer: str, table_every: int, dm: bool, hand_png: bytes,
                 table_png: bytes) -> None:
        super().__init__(intents=discord.Intents(guilds=True), max_messages=None)
        self.answer, self.table_every, self.dm = answer, table_every, dm
        self.hand_png, self.table_png = hand_png, table_png
        self.clicks = 0
        self.dm_channels: dict[int, int] = {}
        self.table_messages: list[tuple[int, int]] = []
        """(channel id, message id) of each table's picture (a table: four players, a
        channel), edited every few clicks."""

    async def setup_hook(self) -> None:
        self.add_dynamic_items(FloorSelect, FloorButton)

    def view(self, user: int, n: int) -> discord.ui.View:
        """A DM's components: the discard menu and two buttons, as a move's DM has."""
        view = discord.ui.View(timeout=None)
        view.add_item(FloorSelect(user, n))
        view.add_item(FloorButton(user, n, "p"))
        view.add_item(FloorButton(user, n, "x"))
        return view

    async def send_hand(self, user: int, n: int) -> int:
        """The next DM, as `Poster.dm_id` sends it: one body, the answer's id only."""
        channel = self.dm_channels.get(user)
        if channel is None:
            channel = (await self.create_dm(discord.Object(user))).id
            self.dm_channels[user] = channel
        with handle_message_parameters(
                content=f"Your turn, move {n}: discard a tile.",
                file=memory_file(self.hand_png, "hand.png"), view=self.view(user, n),
                nonce=secrets.randbits(64),
                previous_allowed_mentions=self.allowed_mentions) as params:
            body = await one_body(params.multipart or [])
            route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel)
            data = await self.http.request(route, data=body)
        return int(data["id"])

    async def clicked(self, interaction: discord.Interaction, user: int, n: int) -> None:
        """One click: its answer, the next DM, now and then the table's picture."""
        self.clicks += 1
        number = self.clicks  # this click's: others count on while it awaits
        done = f"Move {n}: done."
        # without a DM, the answer carries the next move's components (clicked again)
        view = None if self.dm else self.view(user, n + 1)
        if self.answer == "edit":
            await interaction.response.edit_message(content=done, view=view)
        else:
            await interaction.response.defer()
            await interaction.edit_original_response(content=done, view=view)
        if self.dm:
            await self.send_hand(user, n + 1)
        if self.table_every and number % self.table_every == 0:
            await self.edit_table(*self.table_messages[(user - USER0) // 4])

    async def edit_table(self, channel_id: int, message_id: int) -> None:
        """The table picture's edit as `Poster.edit_picture` makes it: one body, the
        answer not made into a `discord.Message`."""
        with handle_message_parameters(
                content="The table", attachments=[memory_file(self.table_png, "table.png")],
                previous_allowed_mentions=self.allowed_mentions) as params:
            body = await one_body(params.multipart or [])
            route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                          channel_id=channel_id, message_id=message_id)
            await self.http.request(route, data=body)


class FloorSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=r"fl:dc:(?P<user>\d+):(?P<n>\d+)"):
    def __init__(self, user: int, n: int) -> None:
        options = [discord.SelectOption(label=f"{i + 1} tile", value=str(i))
                   for i in range(TILES)]
        super().__init__(discord.ui.Select(custom_id=f"fl:dc:{user}:{n}", options=options,
                                           placeholder="Discard…"))
        self.user, self.n = user, n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> FloorSelect:
        return cls(int(match["user"]), int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        assert isinstance(client, FloorBot)
        await client.clicked(interaction, self.user, self.n)


class FloorButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"fl:mv:(?P<user>\d+):(?P<n>\d+):(?P<move>\w)"):
    def __init__(self, user: int, n: int, move: str) -> None:
        super().__init__(discord.ui.Button(label=move, custom_id=f"fl:mv:{user}:{n}:{move}"))
        self.user, self.n = user, n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> FloorButton:
        return cls(int(match["user"]), int(match["n"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        assert isinstance(client, FloorBot)
        await client.clicked(interaction, self.user, self.n)


async def bot_main(args: argparse.Namespace) -> dict[str, tuple[float, str]]:
    """The bot here; the fake and the players in a child (`players_main`)."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--role", "players", "--players", str(args.players),
        "--clicks", str(args.clicks), *(["--no-dm"] if args.no_dm else []),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, cwd=ROOT, limit=1 << 26)
    assert child.stdin is not None and child.stdout is not None
    lines, say = child.stdout, child.stdin

    async def hear(expected: str) -> list[str]:
        words = (await lines.readline()).decode().split()
        if not words or words[0] != expected:
            raise RuntimeError(f"the players' process said {words!r}, not {expected}")
        return words[1:]

    async def tell(word: str) -> None:
        say.write(f"{word}\n".encode())
        await say.drain()

    api, gateway, channels = await hear("URLS")
    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    bot = FloorBot(args.answer, args.table_every, not args.no_dm, *pictures())
    bot._connection.guild_ready_timeout = GUILD_READY_TIMEOUT
    await bot.login("fake-token")
    connection = asyncio.create_task(bot.connect(reconnect=False))
    await asyncio.wait_for(bot.wait_until_ready(), 30)
    for channel_id in map(int, channels.split(",")):
        table = await bot.get_partial_messageable(channel_id).send(
            content="The table", file=memory_file(bot.table_png, "table.png"))
        bot.table_messages.append((channel_id, table.id))
    await asyncio.gather(*(bot.send_hand(USER0 + i, 0) for i in range(args.players)))
    tune()  # the collector as the bot sets it once it is ready
    await tell("PLAY")
    cpu0, players0 = _cpu_of(os.getpid()), _cpu_of(child.pid)
    system0 = _cpu_of(os.getpid(), system=True)
    profiler = cProfile.Profile() if args.profile else None
    if profiler is not None:
        profiler.enable()
    result = json.loads((await lines.readline()).decode().split(maxsplit=1)[1])
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args.profile)
    cpu1, players1 = _cpu_of(os.getpid()), _cpu_of(child.pid)
    system = (_cpu_of(os.getpid(), system=True) - system0) * 1000
    await bot.close()
    await asyncio.wait_for(connection, 10)
    await tell("STOP")
    requests = int((await hear("REQUESTS"))[0])
    await child.wait()
    return figures(result, (cpu1 - cpu0) * 1000, (players1 - players0) * 1000, requests,
                   system)


def figures(result: dict[str, Any], bot_ms: float, players_ms: float,
            requests: int, system_ms: float = 0.0) -> dict[str, tuple[float, str]]:
    responses = result["responses"]
    n = max(1, len(responses))
    return {
        "clicks": (len(responses), "count"), "wall_s": (result["wall"], "s"),
        "clicks_per_s": (len(responses) / result["wall"], "1/s"),
        "click_response_median_ms": (statistics.median(responses) * 1000, "ms"),
        "click_response_p99_ms": (percentile(responses, 0.99) * 1000, "ms"),
        "bot_cpu_ms_per_click": (bot_ms / n, "ms"),
        "bot_system_cpu_ms_per_click": (system_ms / n, "ms"),
        "bot_capacity_clicks_per_s": (1000 * n / bot_ms if bot_ms else 0.0, "1/s"),
        "players_cpu_ms_per_click": (players_ms / n, "ms"),
        "requests_per_click": (requests / n, "1")}


# ---------------------------------------------------------------- the players


class Players:
    """Each clicks (the discard menu's first tile) on the newest DM it was sent."""

    def __init__(self, fake: FakeDiscord, count: int, clicks: int, again: bool) -> None:
        self.fake = fake
        self.again = again
        """Whether a click's answer is clicked again (``--no-dm``: no new DM comes)."""
        self.users = [fake.add_user(USER0 + i, f"u{i}") for i in range(count)]
        self.budget = clicks
        self.newest: dict[int, FakeMessage] = {}
        self.woken = {u.id: asyncio.Event() for u in self.users}
        self.responses: list[float] = []
        self._dm_user: dict[int, int] = {}
        created = fake.state.create_message

        def create_message(*args: Any, **kwargs: Any) -> FakeMessage:
            message = created(*args, **kwargs)
            self._arrived(message)
            return message

        fake.state.create_message = create_message  # type: ignore[method-assign]  # a hook

    def _arrived(self, message: FakeMessage) -> None:
        user = self._dm_user.get(message.channel_id)
        if user is None:
            self._dm_user = {c: u for u, c in self.fake.state.dm_channels.items()}
            user = self._dm_user.get(message.channel_id)
        if user is not None and user in self.woken:
            self.newest[user] = message
            self.woken[user].set()

    async def play(self, user: Any) -> None:
        for _ in range(self.budget):
            woken = self.woken[user.id]
            await woken.wait()
            if not self.again:
                woken.clear()
            message = self.newest[user.id]
            menu = next(c for c in self.fake.components(message)
                        if (c.custom_id or "").startswith("fl:dc:"))
            await asyncio.sleep(0)  # the fake serves the bot's requests between clicks
            t0 = time.monotonic()
            handle = await self.fake.select(user, message, menu.custom_id or "", ["0"])
            await handle.response(timeout=30)
            self.responses.append(time.monotonic() - t0)


async def players_main(args: argparse.Namespace) -> None:
    loop = asyncio.get_running_loop()

    async def hear() -> str:
        line: str = await loop.run_in_executor(None, sys.stdin.readline)
        return line.strip()

    fake = FakeDiscord()
    await fake.start()
    players = Players(fake, args.players, args.clicks, args.no_dm)
    tables = [f"t{i}" for i in range((args.players + 3) // 4)]
    guild = fake.add_guild(900, "Club", members=players.users, channels=tables)
    channels = ",".join(str(fake.channel(guild, name).id) for name in tables)
    print("URLS", fake.api_url, fake.gateway_url, channels, flush=True)
    if await hear() != "PLAY":
        return
    first = len(fake.state.requests)
    began = time.monotonic()
    await asyncio.gather(*(players.play(u) for u in players.users))
    wall = time.monotonic() - began
    print("DONE", json.dumps({"responses": players.responses, "wall": wall}), flush=True)
    await hear()  # STOP
    print("REQUESTS", len(fake.state.requests) - first, flush=True)
    await fake.stop()


async def main(args: argparse.Namespace) -> None:
    if args.role == "players":
        await players_main(args)
        return
    for name, (value, unit) in (await bot_main(args)).items():
        text = f"{value:.0f}" if unit == "count" else f"{value:.2f}"
        print(f"{name} {text} {unit}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=200,
                        help="people clicking at once (one deciding seat a table)")
    parser.add_argument("--clicks", type=int, default=20, help="clicks per person")
    parser.add_argument("--answer", choices=("edit", "defer"), default="edit",
                        help="edit: the click answered in one response (type 7); defer: "
                             "acknowledged (type 6), then the original edited")
    parser.add_argument("--table-every", type=int, default=4,
                        help="edit the table picture every N clicks (0: never)")
    parser.add_argument("--no-dm", action="store_true",
                        help="no DM: each click answered with the next components")
    parser.add_argument("--profile", default=None, help="cProfile the bot to FILE")
    parser.add_argument("--role", choices=("bot", "players"), default="bot",
                        help=argparse.SUPPRESS)
    asyncio.run(main(parser.parse_args()))
