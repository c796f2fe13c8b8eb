"""The words of quiet hours and vacation (bot/discord/quiet.py): the time zone's
autocomplete, the replies in both languages with Discord timestamps, and the table
message's line beside a resting seat (until when, nothing else)."""

from __future__ import annotations

from bot.discord.core.i18n import t
from bot.discord.core.refusals import refusal_text
from bot.discord.quiet import quiet_reply, resting_lines, vacation_reply, zone_choices
from bot.service.notices import Resting
from bot.service.results import LeaveSet, QuietSet


def test_the_time_zone_autocomplete_offers_real_zones_best_first() -> None:
    assert [c.value for c in zone_choices("shang")][:1] == ["Asia/Shanghai"]
    assert [c.value for c in zone_choices("new y")][:1] == ["America/New_York"]
    assert "Europe/London" in [c.value for c in zone_choices("lond")]
    assert len(zone_choices("")) == 25 and len(zone_choices("a")) == 25
    assert zone_choices("no such place") == []


def test_the_quiet_reply_says_the_hours_and_the_next_window() -> None:
    done = QuietSet("Asia/Shanghai", 1380, 420, 1000.0, 29800.0)
    en = quiet_reply(done, "en-US")
    assert "23:00–07:00 (Asia/Shanghai)" in en and "<t:1000:f>" in en and "<t:29800:t>" in en
    zh = quiet_reply(done, "zh-CN")
    assert "免打扰" in zh and "<t:29800:t>" in zh
    now = quiet_reply(QuietSet("UTC", 1380, 420, 1000.0, 29800.0, now=True), "en-US")
    assert "quiet now" in now
    assert quiet_reply(QuietSet("UTC", None, None), "en-US").startswith(
        t("reply.quiet.off", "en-US"))


def test_the_vacation_reply_lists_what_each_table_honours() -> None:
    text = vacation_reply(LeaveSet(500000.0, ((3, 259200.0), (4, None))), "en-US")
    assert text.splitlines() == [t("reply.vacation.set", "en-US", until=500000),
                                 "· table #3: until <t:259200:f>",
                                 "· table #4: no vacation at this table"]
    assert vacation_reply(LeaveSet(None), "zh-CN") == t("reply.vacation.off", "zh-CN")


def test_the_table_shows_only_until_when_a_seat_rests() -> None:
    lines = resting_lines((Resting(1, 7200.0), Resting(3, 90000.0, leave=True)),
                          ("Ann", "Bob", "Cid", "Dee"), "en-US")
    assert lines == ["💤 Bob: quiet until <t:7200:t>",
                     "💤 Dee: on vacation until <t:90000:f>"]


def test_refusals_repeat_what_was_typed_only_in_part() -> None:
    text = refusal_text("bad_time_zone", "", "zh-CN", {"zone": "x" * 500})
    assert "x" * 39 + "…" in text and "x" * 40 not in text  # clipped
    assert refusal_text("bad_clock", "", "en-US", {"value": "25:00"}).startswith("“25:00”")
    assert "30" in refusal_text("bad_days", "", "zh-CN", {"most": 30})
