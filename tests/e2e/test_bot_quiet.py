"""Quiet hours through the real bot and the fake Discord (issue 30): ``/mahjong quiet``
with its time zone chosen by autocomplete, its private reply with the next quiet window
as Discord timestamps, a bad input refused with its sentence and nothing changed; then a
night on a fake clock: the sleeper's DMs arrive silently, the table message says until
when they are quiet, no move is played for them before their quiet hours are over and
their time ran out, and ``/mahjong vacation`` answers with what each table honours."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from botkit import answer, latest_bot, make_bot, make_world, open_table, slash, tick
from botkit import quiet as settle
from fakediscord import SUPPRESS_NOTIFICATIONS, BotLauncher, FakeDiscord

from bot.discord.core.i18n import t
from bot.service import FakeClock

HOUR = 3600.0


def utc(day: int, hour: int, minute: int = 0) -> float:
    return dt.datetime(2026, 6, day, hour, minute, tzinfo=dt.UTC).timestamp()


async def test_quiet_hours_and_a_night_on_the_fake_clock(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)
    clock = FakeClock(utc(1, 22, 30))
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3", clock=clock, picture_processes=0))
    bot = latest_bot(bots)
    p1, p2 = world.players[0], world.players[1]

    typed = await fake.autocomplete(p1, world.guild, world.channel, "mahjong", "quiet",
                                    focused="time_zone", options={"time_zone": "shang"})
    offered = [c["value"] for c in (await typed.response()).data["choices"]]
    assert offered[0] == "Asia/Shanghai" and len(offered) <= 25

    bad = await answer(await slash(world, p1, "quiet", start="22:00", end="07:00",
                                   time_zone="Mars/Olympus"))
    assert bad.ephemeral and "Mars/Olympus" in (bad.content or "")
    assert await bot.store.people.get(p1.id) is None  # nothing changed
    said = await answer(await slash(world, p1, "quiet", start="22:00", end="07:00",
                                    time_zone="UTC"))
    assert said.ephemeral
    assert said.content == t("reply.quiet.now", "en-US", start="22:00", end="07:00",
                             zone="UTC", begin=int(utc(1, 22)), until=int(utc(2, 7)))

    await open_table(world, turn_timer=3600)  # p1 deals, asleep: her turn waits
    await settle(bots)
    (turn,) = [m for m in fake.dms(p1) if any(
        c.custom_id and c.custom_id.startswith("mj:dc:") for c in fake.components(m))]
    assert turn.silent and turn.flags & SUPPRESS_NOTIFICATIONS
    table_message = [m for m in fake.messages(world.channel) if "quiet until" in m.content]
    assert table_message and f"<t:{int(utc(2, 7))}:t>" in table_message[-1].content

    async def p1_moves() -> list[str]:
        hand = await bot.store.hands.live(1)
        assert hand is not None
        return [a.source for a in await bot.store.log.actions(hand.id) if a.seat == 0]

    await tick(clock, utc(2, 7, 59) - clock.now(), bot.service, bots)  # the whole night
    assert await p1_moves() == []
    await tick(clock, 60, bot.service, bots)  # 08:00: her hour ran out after 07:00
    assert await p1_moves() == ["timeout"]

    left = await answer(await slash(world, p2, "vacation", days=5))
    assert left.content is not None and left.content.startswith(
        t("reply.vacation.set", "en-US", until=int(clock.now() + 5 * 24 * HOUR)))
    assert f"<t:{int(clock.now() + 3 * 24 * HOUR)}:f>" in left.content  # 3 days here
    await settle(bots)
    told = [m for m in fake.dms(p1) if "on vacation" in (m.content or "")]
    assert len(told) == 1 and "p2" in told[0].content  # p1 created the table
    nothing = await answer(await slash(world, p2, "vacation"))
    assert nothing.content == t("refused.bad_days", "en-US", most=30) or \
        t("refused.bad_days", "en-US", most=30) in (nothing.content or "")
