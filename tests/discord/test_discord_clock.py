"""The clock's words (issue 30): the time bank options of ``/mahjong new`` (from the
registry, with their ranges and words in English and Chinese), the DM's bank line and
the warning DM when a quarter of a person's time is left."""

from __future__ import annotations

from bot.discord.lobby.message import lobby_embed, pace_text
from bot.discord.lobby.options import (
    BANK_ADDS,
    TIME_BANKS,
    choice_names,
    new_options,
    option_value_text,
    span,
    specs,
    table_options,
)
from bot.discord.play.words import dm_text, warning_text
from bot.discord.rules import option_lines
from bot.service import TableRef, WarningNotice
from engine import rules as rulesets
from engine.game import Action, ActionKind, apply
from engine.rules.common import TableOptions
from engine.tiles import tile_from_notation
from engine.view import view
from tests.game.helpers import D, start
from tests.game.test_claims import SCENE_P

NAMES = ("Ann", "Bob", "Cy", "Di")


def test_the_time_bank_options_come_from_the_registry_with_words_in_both_languages() -> None:
    names = [s.name for s in new_options()]
    assert names.index("time_bank") < names.index("time_bank_add")
    bank, add = specs()["time_bank"], specs()["time_bank_add"]
    assert bank.rules == frozenset(rulesets.RULESETS) == add.rules
    assert (bank.default, add.default) == (0, 0)
    assert tuple(c.value for c in bank.choices) == TIME_BANKS
    assert tuple(c.value for c in add.choices) == BANK_ADDS
    low, high = TableOptions.RANGES["time_bank"]
    assert low == 0 and all(low <= v <= high for v in TIME_BANKS)
    low, high = TableOptions.RANGES["time_bank_add"]
    assert all(low <= v <= high for v in BANK_ADDS)
    assert choice_names("time_bank")[0] == "off (default)"
    assert choice_names("time_bank")[3600] == "1 h"
    assert option_value_text("time_bank", 0, "zh-CN") == "关"
    assert option_value_text("time_bank_add", 300, "zh-CN") == "5 分钟"
    given = table_options("hangzhou", {"rules": "hangzhou", "time_bank": 7200,
                                       "time_bank_add": 600})
    options = rulesets.get("hangzhou").options(given)
    assert (options.time_bank, options.time_bank_add) == (7200, 600)
    en = option_lines("shanghai", given, "en")
    assert "· Time bank, each seat per hand: 2 h" in en
    assert "· Given back to the time bank after each own move: 10 min" in en
    assert "· 每人每局备用时间：关" in option_lines("shanghai", None, "zh-CN")


def test_spans_read_to_the_minute_in_their_two_largest_units() -> None:
    assert [span(s, "en") for s in (0, 44.6, 60, 4800, 86_400, 183_600, 183_659)] == [
        "0 s", "45 s", "1 min", "1 h 20 min", "1 d", "2 d 3 h", "2 d 3 h"]
    assert span(4800, "zh-CN") == "1 小时 20 分钟"


def test_a_decision_dm_shows_what_is_left_of_the_bank() -> None:
    state, _ = start("shanghai", SCENE_P)
    state, _ = apply(state, D(0, "9s"))
    en = dm_text(view(state, 2), table_id=1, names=NAMES, locale="en", deadline=1.9e9,
                 bank=4800.0)
    assert "Your time bank: 1 h 20 min" in en and "<t:1900000000:R>" in en
    zh = dm_text(view(state, 2), table_id=1, names=NAMES, locale="zh-CN", deadline=1.9e9,
                 bank=4800.0)
    assert "你的备用时间：1 小时 20 分钟" in zh
    assert "time bank" not in dm_text(view(state, 2), table_id=1, names=NAMES, locale="en",
                                      deadline=1.9e9)
    waiting = dm_text(view(state, 0), table_id=1, names=NAMES, locale="en", bank=600.0)
    assert "time bank" not in waiting      # nothing to decide: no deadline, no bank


def test_the_warning_says_how_long_the_bank_after_it_and_what_the_timer_plays() -> None:
    ref = TableRef(4, 7, 70)
    turn = WarningNotice(ref, 0, 11, "shanghai", 2, "turn", 1.9e9, 1.9e9 + 3600, 3600.0,
                         Action(ActionKind.DISCARD, 0, tile_from_notation("9p")))
    en = warning_text(turn, "en")
    assert en.splitlines() == [
        "⏳ **Shanghai · table #4 · hand 2**: a quarter of your time for this turn is left. "
        "Your timer runs out <t:1900000000:R> (at <t:1900000000:f>).",
        "Then your time bank runs: 1 h, until <t:1900003600:f>.",
        "Then the timer plays for you: 打 Discard Nine of Dots."], en
    zh = warning_text(turn, "zh-CN")
    assert "时间只剩四分之一" in zh and "备用时间：1 小时" in zh and "九筒" in zh
    claim = WarningNotice(ref, 2, 12, "hangzhou", 1, "claim", 1.9e9, 1.9e9, 0.0,
                          Action(ActionKind.PASS, 2))
    en = warning_text(claim, "en")
    assert "for this claim" in en and "time bank" not in en and en.endswith("过 Pass.")
    assert warning_text(claim, "zh-CN").endswith("然后计时器将替你：过。")


def test_the_lobby_says_the_table_s_pace_once_known() -> None:
    assert [pace_text(d, "en") for d in (0.3, 0.6, 1.4, 2.6)] == [
        "At this table's pace, under a day a match.", "At this table's pace, about a day "
        "a match.", "At this table's pace, about a day a match.",
        "At this table's pace, about 3 days a match."]
    assert pace_text(2.6, "zh-CN") == "按本桌玩家的速度，一场大约 3 天。"
    shown = lobby_embed(table_id=3, rules="shanghai", options={}, seats=[None] * 4,
                        locale="en", pace=4.2)
    assert shown.description is not None and shown.description.endswith(
        "\nAt this table's pace, about 4 days a match.")
    unknown = lobby_embed(table_id=3, rules="shanghai", options={}, seats=[None] * 4,
                          locale="en")
    assert unknown.description is not None and "pace" not in unknown.description
    playing = lobby_embed(table_id=3, rules="shanghai", options={}, seats=[None] * 4,
                          locale="en", status="playing", hand=2, hands=8, pace=4.2)
    assert playing.description is not None and "pace" not in playing.description
