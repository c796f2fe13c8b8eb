"""The other /mahjong commands through the real bot: in English and 简体中文, the
calculator, rules, history with the wall's reveal, the public table, cancelling."""

from __future__ import annotations

from pathlib import Path

import pytest
from botkit import Driver, answer, channel_files, make_bot, make_world, open_table, quiet, slash
from fakediscord import BotLauncher, FakeDiscord

from tests.service.helpers import QUIET, stacked

MANAGE_GUILD = 1 << 5


async def test_commands_answer_in_the_users_language(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake, locales=["zh-CN"])
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    zh, en = world.players[0], world.players[1]
    group = fake.commands()[0]
    assert group["name_localizations"]["zh-CN"] == "麻将"
    rules = await (await slash(world, zh, "rules", rules="hangzhou")).response()
    assert rules.ephemeral and "杭州" in (rules.content or "")
    score = await (await slash(world, en, "score", hand="1112345678999m",
                               win_tile="5m")).response()
    assert "清一色" in (score.content or "") and "20" in (score.content or "")
    score = await (await slash(world, zh, "score", hand="1112345678999m", win_tile="5m",
                               win="discard", rules="hangzhou")).response()
    # the calculator's answer is public: the server's language, whoever asks
    assert not score.ephemeral and "Not a valid win" in (score.content or "")
    bad = await (await slash(world, en, "score", case="{nope")).response()
    assert "not valid JSON" in (bad.content or "")
    nothing = await (await slash(world, en, "join")).response()
    assert nothing.ephemeral and "/mahjong new" in (nothing.content or "")
    created = await (await slash(world, zh, "new", rules="shanghai")).response()
    assert "第 1 桌" in (created.content or "")
    busy = await (await slash(world, en, "new", rules="hangzhou")).response()
    assert busy.ephemeral and "already has a table" in (busy.content or "")


async def test_table_history_and_cancel(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake)
    manager_role = fake.add_role(world.guild, "mods", MANAGE_GUILD)
    fake.add_member(world.guild, world.outsider, [manager_role])
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await open_table(world, hands=2)
    driver = Driver(world)
    await driver.play_until(lambda: bool(channel_files(fake, world.channel, "leaderboard-")),
                            idle=lambda: quiet(bots))
    await quiet(bots)
    table = await slash(world, world.players[3], "table")
    response = await answer(table)
    assert not response.ephemeral
    assert [a.filename for a in response.attachments] == ["table-1.png"]
    history = await (await slash(world, world.players[2], "history")).response()
    text = history.content or ""
    assert "Wall of hand 1" in text and "salt" in text and "discard" in text
    totals = await (await slash(world, world.players[2], "score")).response()
    assert "Table #1" in (totals.content or "")
    refused = await (await slash(world, world.players[1], "cancel")).response()
    assert refused.ephemeral and "creator" in (refused.content or "")
    cancelled = await (await slash(world, world.outsider, "cancel")).response()
    assert not cancelled.ephemeral and "cancelled" in (cancelled.content or "")
    await quiet(bots)
    assert any("was cancelled" in m.content for m in fake.messages(world.channel))
    lobby = next(m for m in fake.messages(world.channel) if m.embeds)
    assert lobby.components == []  # a cancelled table has no buttons left



async def test_score_after_cancel_shows_the_totals_so_far(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`/mahjong score` at a cancelled table: the match's totals up to the cancel (the
    ones the cancellation message told), and that the table was cancelled — not zeros."""
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)
    heavenly = {0: "123m456m789m123p55p", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0,
                              service_options={"deal": stacked(heavenly)}))
    await open_table(world, hands=2)
    driver = Driver(world)
    await driver.play_until(lambda: bool(channel_files(fake, world.channel, "leaderboard-")),
                            idle=lambda: quiet(bots))
    await quiet(bots)
    cancelled = await (await slash(world, world.players[0], "cancel")).response()
    assert "cancelled" in (cancelled.content or "")
    await quiet(bots)
    told = next(m.content for m in fake.messages(world.channel) if "was cancelled" in m.content)
    so_far = told.split("Totals so far: ", 1)[1]
    amounts = [part.rsplit(" ", 1)[1] for part in so_far.split(", ")]
    assert any(a != "0" for a in amounts)  # the dealer's 天胡 was paid
    score = (await (await slash(world, world.players[2], "score")).response()).content or ""
    assert "cancelled" in score and "after 1 of 2 hands" in score
    rows = [line.rsplit(": ", 1)[1] for line in score.splitlines()[1:]]
    assert rows == amounts
