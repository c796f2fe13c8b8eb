"""The fake Discord itself, proved with a throwaway bot (not the mahjong bot).

The demo bot has ``/demo ping`` (ephemeral reply, then DMs with a PNG, a dynamic
button, a dynamic select and a plain select), ``/demo table seat`` (a subcommand group
with typed options; answers with a picture and a button), ``/demo name`` (a modal),
``/demo slow`` (defer, then a followup), ``/demo boom`` (raises) and a zh-CN
translation of its names.
"""

from __future__ import annotations

import io
import re
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fakediscord import (
    EPHEMERAL,
    BotLauncher,
    CommandLookupError,
    FakeDiscord,
    FakeGuild,
    FakeUser,
    shard_of,
)
from PIL import Image

ZH = {"demo": "演示", "ping": "乒", "Demo commands": "演示命令"}


def png_bytes() -> bytes:
    """A tiny real PNG."""
    out = io.BytesIO()
    Image.new("RGB", (2, 2), (200, 30, 30)).save(out, format="PNG")
    return out.getvalue()


class ZhTranslator(app_commands.Translator):
    """Translates the demo's names into zh-CN."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The zh-CN name, if any."""
        if locale is discord.Locale.chinese:
            return ZH.get(string.message)
        return None


class PingButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo:ping:(?P<n>\d+)"):
    """A button that survives restarts: its state is in its custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Ping {n}", custom_id=f"demo:ping:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PingButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Edit the message the button is on, with the next button."""
        view = discord.ui.View(timeout=None)
        view.add_item(PingButton(self.n + 1))
        if self.n < 10:
            await interaction.response.edit_message(content=f"pinged {self.n}", view=view)
            return
        picture = discord.File(io.BytesIO(png_bytes()), f"table-{self.n}.png")
        await interaction.response.edit_message(
            content=f"pinged {self.n}", view=view, attachments=[picture]
        )


class DiscardSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"demo:discard:(?P<hand>\d+)"
):
    """A select that survives restarts; picks are kept on the bot."""

    def __init__(self, hand: int) -> None:
        options = [discord.SelectOption(label=t, value=t) for t in ("1m", "5p", "9s")]
        super().__init__(discord.ui.Select(custom_id=f"demo:discard:{hand}", options=options))
        self.hand = hand

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DiscardSelect:
        """Rebuild the select from its custom_id."""
        return cls(int(match["hand"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Say what was discarded, in place."""
        tile = self.item.values[0]
        await interaction.response.edit_message(content=f"hand {self.hand}: discarded {tile}")


class ColourView(discord.ui.View):
    """A non-persistent view with a string select."""

    def __init__(self, picks: list[list[str]]) -> None:
        super().__init__(timeout=60)
        self.picks = picks

    @discord.ui.select(
        custom_id="demo:colour",
        options=[discord.SelectOption(label=c, value=c) for c in ("red", "green", "blue")],
        max_values=2,
    )
    async def colour(self, interaction: discord.Interaction,
                     select: discord.ui.Select[ColourView]) -> None:
        """Remember the picked values, acknowledge, then edit the message."""
        self.picks.append(list(select.values))
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"picked {' and '.join(select.values)}")


class NameModal(discord.ui.Modal, title="Who are you?"):
    """A modal with a plain text input and a labelled select."""

    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Name",
                                                                 custom_id="demo:name")
    wind: discord.ui.Label[NameModal] = discord.ui.Label(
        text="Wind",
        component=discord.ui.Select(
            custom_id="demo:wind",
            options=[discord.SelectOption(label=w, value=w) for w in ("east", "west")],
        ),
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Greet with both answers."""
        select = self.wind.component
        assert isinstance(select, discord.ui.Select)
        await interaction.response.send_message(f"hi {self.name.value} of the {select.values[0]}")


class DemoBot(commands.Bot):
    """The throwaway bot."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.dm_failures: list[int] = []
        self.picks: list[list[str]] = []
        self.tree.add_command(build_group(self))
        self.add_dynamic_items(PingButton, DiscardSelect)

    async def setup_hook(self) -> None:
        """Install the translator before any sync."""
        await self.tree.set_translator(ZhTranslator())


def build_group(bot: DemoBot) -> app_commands.Group:
    """``/demo ping|name|boom|slow`` and ``/demo table seat``."""
    demo = app_commands.Group(name=app_commands.locale_str("demo"),
                              description=app_commands.locale_str("Demo commands"))
    table = app_commands.Group(name="table", description="Tables", parent=demo)

    @demo.command(name=app_commands.locale_str("ping"), description="Ping me")
    async def ping(interaction: discord.Interaction, times: int = 1) -> None:
        greeting = "你好" if interaction.locale is discord.Locale.chinese else "hello"
        await interaction.response.send_message(f"{greeting} x{times}", ephemeral=True)
        await send_hand(bot, interaction)

    @demo.command(name="name", description="Tell me your name")
    async def name(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @demo.command(name="boom", description="Fail")
    async def boom(interaction: discord.Interaction) -> None:
        raise RuntimeError("boom")

    @demo.command(name="slow", description="Think first")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("done thinking")

    @table.command(name="join", description="Join a table")
    async def join(interaction: discord.Interaction, table_name: str) -> None:
        await interaction.response.send_message(f"joined {table_name}", ephemeral=True)

    @join.autocomplete("table_name")
    async def join_names(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        names = ("north hall", "south hall", "garden")
        return [app_commands.Choice(name=n, value=n) for n in names if current in n]

    @table.command(name="seat", description="Seat a player")
    @app_commands.choices(wind=[app_commands.Choice(name=w, value=w) for w in ("east", "south")])
    async def seat(interaction: discord.Interaction, player: discord.Member,
                   wind: app_commands.Choice[str]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(PingButton(10))
        text = f"{player.display_name} sits {wind.value}"
        picture = discord.File(io.BytesIO(png_bytes()), "table.png")
        await interaction.response.send_message(text, view=view, file=picture)

    return demo


async def send_hand(bot: DemoBot, interaction: discord.Interaction) -> None:
    """DM the user a PNG, a dynamic button and a select; note a refusal."""
    view = discord.ui.View(timeout=None)
    view.add_item(PingButton(1))
    view.add_item(DiscardSelect(7))
    try:
        await interaction.user.send(
            "your hand", file=discord.File(io.BytesIO(png_bytes()), "hand.png"), view=view
        )
        await interaction.user.send("pick colours", view=ColourView(bot.picks))
    except discord.Forbidden as exc:
        bot.dm_failures.append(exc.code)
        await interaction.followup.send("I cannot DM you", ephemeral=True)


@pytest.fixture
def world(fake: FakeDiscord) -> tuple[FakeGuild, FakeUser, FakeUser]:
    """A guild with #general and two players (one reads Chinese)."""
    alice = fake.add_user(101, "alice")
    bo = fake.add_user(102, "bo", locale="zh-CN")
    guild = fake.add_guild(900, "Mahjong Club", owner=alice, members=[alice, bo])
    return guild, alice, bo


async def ping(fake: FakeDiscord, guild: FakeGuild, user: FakeUser) -> None:
    """``/demo ping`` in #general, answered."""
    general = fake.channel(guild, "general")
    await (await fake.slash(user, guild, general, "demo", "ping")).response()


async def started(bots: BotLauncher) -> DemoBot:
    """A connected demo bot with its commands synced globally."""
    bot = DemoBot()
    await bots.start(bot)
    await bot.tree.sync()
    return bot


async def test_sync_stores_commands_with_groups_and_localizations(
    fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser, FakeUser]
) -> None:
    bot = await started(bots)
    guild, alice, _ = world
    [demo] = fake.commands()
    assert demo["name"] == "demo" and demo["name_localizations"] == {"zh-CN": "演示"}
    assert {o["name"] for o in demo["options"]} == {"ping", "name", "boom", "slow", "table"}
    fetched = await bot.tree.fetch_commands()
    assert [c.name for c in fetched] == ["demo"] and fetched[0].id == int(demo["id"])
    bot.tree.copy_global_to(guild=discord.Object(guild.id))
    await bot.tree.sync(guild=discord.Object(guild.id))
    assert [c["name"] for c in fake.commands(guild)] == ["demo"]
    handle = await fake.slash(alice, guild, fake.channel(guild, "general"), "demo", "ping")
    assert handle.record.payload["data"]["guild_id"] == str(guild.id)
    assert (await handle.response()).content == "hello x1"


async def test_slash_replies_ephemeral_and_dms_a_png_with_a_button(
    fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser, FakeUser]
) -> None:
    await started(bots)
    guild, alice, _ = world
    general = fake.channel(guild, "general")
    handle = await fake.slash(alice, guild, general, "demo", "ping", options={"times": 2})
    response = await handle.response()
    assert response.type == 4 and response.ephemeral and response.flags & EPHEMERAL
    assert response.content == "hello x2"
    assert fake.messages(general) == []  # ephemeral: the channel saw nothing
    dms = await fake.wait_for(lambda: len(fake.dms(alice)) == 2 and fake.dms(alice))
    hand, colours = dms
    assert fake.pngs(hand)[0].startswith(b"\x89PNG") and fake.files(hand)[0].filename == "hand.png"
    assert fake.custom_ids(hand) == ["demo:ping:1", "demo:discard:7"]
    assert fake.components(colours)[0].options == ("red", "green", "blue")
    assert not fake.unhandled()


async def test_clicking_a_dynamic_button_edits_the_dm(
    fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser, FakeUser]
) -> None:
    await started(bots)
    guild, alice, _ = world
    await ping(fake, guild, alice)
    hand = (await fake.wait_for(lambda: fake.dms(alice)))[0]
    click = await fake.click(alice, hand, "demo:ping:1")
    response = await click.response()
    assert response.type == 7
    assert hand.content == "pinged 1" and hand.edits == 1
    assert fake.custom_ids(hand) == ["demo:ping:2"]  # the edit replaced the view
    with pytest.raises(ValueError, match="no component"):
        await fake.click(alice, hand, "demo:ping:1")


async def test_select_sends_values(
    fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser, FakeUser]
) -> None:
    bot = await started(bots)
    guild, alice, _ = world
    await ping(fake, guild, alice)
    colours = (await fake.wait_for(lambda: len(fake.dms(alice)) == 2 and fake.dms(alice)))[1]
    handle = await fake.select(alice, colours, "demo:colour", ["red", "blue"])
    assert (await handle.response()).type == 6
    assert bot.picks == [["red", "blue"]]
    await bots.idle()
    assert handle.original is not None and handle.original.content == "picked red and blue"
    with pytest.raises(ValueError, match="not among options"):
        await fake.select(alice, colours, "demo:colour", ["pink"])


async def test_subcommand_group_options_are_typed_and_resolved(
    fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser, FakeUser]
) -> None:
    await started(bots)
    guild, alice, bo = world
    general = fake.channel(guild, "general")
    handle = await fake.slash(
        alice, guild, general, "demo", "table", "seat", options={"player": bo, "wind": "south"}
    )
    response = await handle.response()
    assert response.content == "bo sits south" and not response.ephemeral
    assert [m.content for m in fake.messages(general)] == ["bo sits south"]


async def test_locale_reaches_the_bot_and_localized_names_resolve(
    fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser, FakeUser]
) -> None:
    await started(bots)
    guild, alice, bo = world
    general = fake.channel(guild, "general")
    by_user = await fake.slash(bo, guild, general, "演示", "乒")
    assert (await by_user.response()).content == "你好 x1"
    overridden = await fake.slash(alice, guild, general, "demo", "ping", locale="zh-CN")
    assert (await overridden.response()).content == "你好 x1"
    in_dm = await fake.slash(bo, None, None, "demo", "ping")
    assert (await in_dm.response()).content == "你好 x1"
    assert in_dm.record.channel_id == fake.dm_channel_id(bo)


async def test_closed_dms_are_refused_with_50007(
    fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser, FakeUser]
) -> None:
    bot = await started(bots)
    guild, alice, _ = world
    fake.close_dms(alice)
    handle = await fake.slash(alice, guild, fake.channel(guild, "general"), "demo", "ping")
    await handle.response()
    [notice] = await handle.wait_followups(1)
    assert notice.content == "I cannot DM you" and notice.ephemeral
    assert bot.dm_failures == [50007]
    assert len(fake.failures(50007)) == 1 and fake.dms(alice) == []


async def test_denied_channel_is_refused_with_50013(
    fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser, FakeUser]
) -> None:
    bot = await started(bots)
    guild, _, _ = world
    general = fake.channel(guild, "general")
    fake.deny_send(general)
    channel = bot.get_channel(general.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("hello")
    assert refused.value.code == 50013


async def test_defer_then_followup_replaces_the_thinking_message(
    fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser, FakeUser]
) -> None:
    await started(bots)
    guild, alice, _ = world
    general = fake.channel(guild, "general")
    handle = await fake.slash(alice, guild, general, "demo", "slow")
    assert (await handle.response()).type == 5
    await handle.wait_followups(1)
    assert handle.original is not None and handle.original.content == "done thinking"
    assert [m.content for m in fake.messages(general)] == ["done thinking"]


async def test_restart_keeps_old_buttons_working(
    fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser, FakeUser]
) -> None:
    first = DemoBot()
    running = await bots.start(first)
    await first.tree.sync()
    guild, alice, _ = world
    await ping(fake, guild, alice)
    hand = (await fake.wait_for(lambda: fake.dms(alice)))[0]
    second = DemoBot()
    await bots.restart(running, second)
    assert first.is_closed() and len(fake.gateway.sessions) == 2
    await (await fake.select(alice, hand, "demo:discard:7", ["5p"])).response()
    assert hand.content == "hand 7: discarded 5p"
    await (await fake.click(alice, hand, "demo:ping:1")).response()
    assert hand.content == "pinged 1"


async def test_reconnect_resumes_the_session(
    fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser, FakeUser]
) -> None:
    await started(bots)
    guild, alice, _ = world
    session = fake.gateway.current()
    await fake.reconnect()
    await fake.wait_for(lambda: session and session.sent[-1]["t"] == "RESUMED")
    await fake.wait_connected()
    handle = await fake.slash(alice, guild, fake.channel(guild, "general"), "demo", "ping")
    assert (await handle.response()).content == "hello x1"


async def test_unknown_routes_answer_404_and_are_recorded(
    fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser, FakeUser]
) -> None:
    bot = await started(bots)
    fake.strict_routes = False  # this test means to hit one
    with pytest.raises(discord.NotFound):
        await bot.fetch_invite("abc")
    assert [r.path for r in fake.unhandled()] == ["/api/v10/invites/abc"]


async def test_buttons_on_a_guild_interaction_message_work(
    fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser, FakeUser]
) -> None:
    await started(bots)
    guild, alice, bo = world
    general = fake.channel(guild, "general")
    seat = await fake.slash(alice, guild, general, "demo", "table", "seat",
                            options={"player": bo, "wind": "east"})
    table = (await seat.response()).message
    assert table is not None and table.interaction_metadata is not None
    assert [a.filename for a in fake.files(table)] == ["table.png"]
    await (await fake.click(bo, table, "demo:ping:10")).response()
    assert fake.messages(general)[0].content == "pinged 10"
    assert fake.custom_ids(table) == ["demo:ping:11"]
    assert [a.filename for a in fake.files(table)] == ["table-10.png"]
    assert len(fake.pngs(general)) == 1


async def test_modal_opens_and_submits(
    fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser, FakeUser]
) -> None:
    await started(bots)
    guild, alice, _ = world
    opened = await fake.slash(alice, guild, fake.channel(guild, "general"), "demo", "name")
    modal = await opened.response()
    assert modal.type == 9 and modal.data["custom_id"]
    with pytest.raises(ValueError, match="required"):
        await fake.submit_modal(opened, {"demo:wind": ["west"]})
    submitted = await fake.submit_modal(opened, {"demo:name": "Ann", "demo:wind": ["west"]})
    assert (await submitted.response()).content == "hi Ann of the west"


async def test_rest_answers_plain_json_never_5xx(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{fake.api_url}/users/@me") as found:
            assert found.headers["Content-Type"] == "application/json"
            assert (await found.json())["id"] == str(fake.application_id)
        async with session.get(f"{fake.api_url}/nowhere") as missing:
            assert missing.status == 404 and missing.headers["Content-Type"] == "application/json"
            assert (await missing.json())["message"] == "404: Not Found"
        bad = {"recipient_id": "not a number"}
        async with session.post(f"{fake.api_url}/users/@me/channels", json=bad) as broken:
            assert broken.status == 400
    assert [r.path for r in fake.unhandled()] == ["/api/v10/nowhere"]
    assert "ValueError" in (fake.crashed()[0].error or "")


async def test_gateway_acks_heartbeats_and_announces_new_guilds(
    fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser, FakeUser]
) -> None:
    bot = await started(bots)
    session = fake.gateway.current()
    assert session is not None and session.heartbeats >= 1
    assert [f["t"] for f in session.sent[:2]] == ["READY", "GUILD_CREATE"]
    late = fake.add_guild(901, "Late Club", channels=("lobby",))
    await fake.announce_guild(late)
    await fake.wait_for(lambda: bot.get_guild(901), what="the late guild")
    assert bot.get_channel(fake.channel(late, "lobby").id) is not None


async def test_channel_messages_can_be_fetched_edited_and_deleted(
    fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser, FakeUser]
) -> None:
    bot = await started(bots)
    guild, _, _ = world
    general = fake.channel(guild, "general")
    channel = bot.get_channel(general.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("first", embed=discord.Embed(title="Table 1"))
    await sent.edit(content="second")
    fetched = await channel.fetch_message(sent.id)
    assert fetched.content == "second" and fetched.embeds[0].title == "Table 1"
    assert [m.id async for m in channel.history(limit=5)] == [sent.id]
    await fetched.delete()
    assert fake.messages(general) == []
    [gone] = fake.messages(general, deleted=True)
    assert gone.content == "second" and gone.versions[0]["content"] == "first"


async def test_bot_errors_are_caught_by_the_fixture(
    fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser, FakeUser]
) -> None:
    await started(bots)
    guild, alice, _ = world
    handle = await fake.slash(alice, guild, fake.channel(guild, "general"), "demo", "boom")
    await bots.idle()
    assert not handle.responded
    assert "boom" in bots.errors.describe()
    bots.errors.records.clear()  # expected here; otherwise the test would fail


async def test_autocomplete_and_choices(
    fake: FakeDiscord, bots: BotLauncher, world: tuple[FakeGuild, FakeUser, FakeUser]
) -> None:
    await started(bots)
    guild, alice, bo = world
    general = fake.channel(guild, "general")
    typed = await fake.autocomplete(alice, guild, general, "demo", "table", "join",
                                    focused="table_name", options={"table_name": "hall"})
    response = await typed.response()
    assert response.type == 8
    assert [c["value"] for c in response.data["choices"]] == ["north hall", "south hall"]
    with pytest.raises(CommandLookupError, match="not a choice"):
        await fake.slash(alice, guild, general, "demo", "table", "seat",
                         options={"player": bo, "wind": "north"})


class ShardedDemo(commands.AutoShardedBot):
    """Runs some shards of two; ``/where`` answers with the shards this process runs."""

    def __init__(self, shard_ids: list[int]) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(),
                         shard_count=2, shard_ids=shard_ids)

        @self.tree.command(name="where", description="Which process answers")
        async def where(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"shards {self.shard_ids}", ephemeral=True)


async def test_shards_get_their_guilds_and_dms_go_to_shard_0(
        fake: FakeDiscord, bots: BotLauncher) -> None:
    """IDENTIFY's shard decides the guilds a session is told of and the interactions
    it is sent: a guild's to the shard owning it ((id >> 22) % count), DMs to shard 0."""
    alice = fake.add_user(101, "alice")
    guilds = [fake.add_guild(name=f"on {n}", members=[alice], shard=(n, 2)) for n in (0, 1)]
    assert [shard_of(g.id, 2) for g in guilds] == [0, 1]
    first, second = ShardedDemo([0]), ShardedDemo([1])
    await bots.start(first)
    await bots.start(second)
    await first.tree.sync()
    assert [g.id for g in first.guilds] == [guilds[0].id]
    assert [g.id for g in second.guilds] == [guilds[1].id]
    answers = []
    for guild in guilds:
        handle = await fake.slash(alice, guild, fake.channel(guild, "general"), "where")
        answers.append((await handle.response()).content)
    in_dm = await fake.slash(alice, None, None, "where")
    answers.append((await in_dm.response()).content)
    assert answers == ["shards [0]", "shards [1]", "shards [0]"]
    assert sorted(s.shard for s in fake.gateway.sessions) == [(0, 2), (1, 2)]
