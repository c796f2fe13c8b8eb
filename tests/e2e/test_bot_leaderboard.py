"""The channel's leaderboard through the real bot: one board per rule set, each titled
with its rule set and unit, never a sum of Shanghai 花 and Hangzhou multiples."""

from __future__ import annotations

from pathlib import Path

import pytest
from botkit import Driver, channel_files, make_bot, make_world, open_table, quiet, slash
from fakediscord import BotLauncher, FakeDiscord

from bot.service.fairness import Deal
from tests.service.helpers import QUIET, stacked

# The dealer (p1, seat 0) is dealt a complete hand and wins at once (天胡).
HEAVENLY = {0: "123m456m789m123p55p", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}


async def test_a_channel_playing_both_rule_sets_keeps_two_boards(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)
    # a roll with a 4 adds one to Shanghai's 荒番 counter: the payments doubled (+1200);
    # left to chance, a third of the rolls added nothing (+600) and the test failed
    monkeypatch.setattr("bot.service.fairness.roll_dice", lambda: (2, 4))
    world = make_world(fake)

    def heavenly(rules: str, dealer: int) -> Deal:  # a heavenly hand of each rule set
        return stacked(HEAVENLY, rules)(rules, dealer)

    bot = make_bot(tmp_path / "db.sqlite3", picture_processes=0,
                   service_options={"deal": heavenly})
    await bots.start(bot)
    for count, rules in enumerate(("shanghai", "hangzhou"), start=1):
        await open_table(world, rules, hands=1)

        def posted_so_far(n: int = count) -> bool:
            return len(channel_files(fake, world.channel, "leaderboard")) >= n

        await Driver(world).play_until(posted_so_far, idle=lambda: quiet(bots))
        await quiet(bots)
    posted = [m.content for m in channel_files(fake, world.channel, "leaderboard")]
    assert posted[0].startswith("**Shanghai leaderboard of this channel · points: 花 × 底分**")
    assert posted[1].startswith("**Hangzhou leaderboard of this channel · points: multiples")
    shanghai_p1 = next(line for line in posted[0].splitlines() if "p1:" in line)
    hangzhou_p1 = next(line for line in posted[1].splitlines() if "p1:" in line)
    assert "+1200" in shanghai_p1 and "+6 " in hangzhou_p1  # not +1206: units apart

    default = await (await slash(world, world.players[3], "leaderboard")).wait_followups()
    text = default[-1].content or ""
    assert text.splitlines()[0].startswith("**Hangzhou leaderboard")  # played last
    assert "+6 " in text and "+1200" not in text
    assert text.splitlines()[-1] == ("This channel keeps a Shanghai board too: "
                                     "`/mahjong leaderboard` with its rules.")
    asked = await (await slash(world, world.players[3], "leaderboard",
                               rules="shanghai")).wait_followups()
    text = asked[-1].content or ""
    assert text.splitlines()[0].startswith("**Shanghai leaderboard") and "+1200" in text
    assert [a.filename for a in asked[-1].attachments] == ["leaderboard.png"]
