"""Message texts from real engine states, in both languages: settlement, captions, DMs,
pings, refusals, the rules summary. Channel texts never hold a concealed tile."""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction

import discord

from bot.discord.core.words import amount_text, fit
from bot.discord.leaderboard import leaderboard_text
from bot.discord.play.words import dm_closed_text, dm_text
from bot.discord.rules import rules_summary
from bot.discord.table.words import (
    describe_events,
    reveal_text,
    score_text,
    settlement_text,
    table_caption,
    your_move_text,
)
from bot.service import Rating
from bot.store import LeaderboardRow
from engine.game import apply
from engine.game.actions import Action
from engine.rules.common import ActionKind
from engine.tiles import Tile
from engine.view import spectator_view, view
from tests.game.helpers import AK, PASS, PONG, QUIET, WIN, D, play, start
from tests.game.test_claims import SCENE_K, SCENE_P, SCENE_ROB, SCENE_TWO
from tests.narrowing import known

LOCALES = (discord.Locale.american_english, discord.Locale.chinese)
NAMES = ["Ann", "Bob", "Cy", "Di"]


def test_rules_summary_lists_every_option_of_its_rule_set() -> None:
    en = rules_summary("shanghai", {"la_cap": 4, "turn_timer": 30}, "en")
    assert "Shanghai" in en and "喇 cap: 4" in en and "Turn timer: 30 s" in en
    assert "财神" not in en.split("Options")[1]
    zh = rules_summary("hangzhou", {"caishen_melds": False}, "zh-CN")
    assert "财神可用于吃碰杠：关" in zh and "喇上限" not in zh and "出牌时限：12 小时" in zh
    for rules in ("shanghai", "hangzhou"):
        for locale in LOCALES:
            assert len(rules_summary(rules, None, locale)) <= 2000
    assert "清一色 Full Flush (1 喇)" in en and "Options of this table:" in en
    assert "Default options" in rules_summary("shanghai", None, "en")
    assert "豪华（×2 每个）" in zh


def test_events_are_told_in_plain_words_and_private_ones_only_to_their_seat() -> None:
    state, _ = start("shanghai", SCENE_K, back="6s8s", draws="3s")
    state = play(state, D(0, "9p"), PASS(1))
    names = ["Ann", "Bob", "Cy", "Di"]
    state, events = apply(state, Action(ActionKind.CONCEALED_KONG, 1,
                                        tiles=(Tile.M4,) * 4))
    mine = describe_events(events, names, 1, "en")
    theirs = describe_events(events, names, 2, "en")
    public = describe_events(events, names, None, "zh-CN")
    assert "You declared a concealed kong (the others see four backs)." in mine
    assert "You drew Six of Bamboo." in mine
    assert not any("Four of Characters" in line for line in mine)
    assert theirs == ["Bob declared a concealed kong."]
    assert public == ["Bob 暗杠。"]


def test_channel_texts_never_hold_tiles_and_carry_the_deadline() -> None:
    ping = your_move_text("<@5>", table_id=3, hand=2, kind="claim", deadline=1.9e9,
                          locale="en")
    assert "<@5>" in ping and "<t:1900000000:R>" in ping and "/mahjong hand" in ping
    assert not re.search(r"\d[mpsz]\b", ping)
    assert "/mahjong hand" in dm_closed_text("<@5>", "zh-CN")


def test_a_settlement_tells_each_win_and_who_pays_whom() -> None:
    state, _ = start("shanghai", SCENE_TWO)
    state = play(state, D(0, "5p"), WIN(2), WIN(1))
    result = spectator_view(state).result
    assert result is not None
    en = settlement_text(result, NAMES, 3, "en", totals=result.payments)
    assert "**Hand 3: Bob wins on Ann's discard**" in en
    assert "**Hand 3: Cy wins on Ann's discard**" in en
    assert "清一色 Full Flush (1 喇)" in en and "Value: 180 花" in en
    assert "Payments: Ann −360, Bob +180, Cy +180, Di 0" in en
    assert "Match totals: Ann −360" in en
    zh = settlement_text(result, NAMES, 3, discord.Locale.chinese)
    assert "牌型：地胡（8 喇）、清一色（1 喇）" in zh and "输赢：Ann −360、Bob +180" in zh


def test_a_robbed_kong_and_a_hangzhou_multiplier_read_right() -> None:
    state, _ = start("shanghai", SCENE_ROB)
    state = play(state, D(0, "4m"), PASS(2), PONG(1, "44m"), AK(1, "4m"), WIN(2))
    text = settlement_text(known(spectator_view(state).result), NAMES, 1, "en")
    assert "Cy robs Bob's kong" in text
    assert "Bob pays 2 花 × 3 (抢杠 robbed kong: shares) = 6" in text  # the 3 shares shown
    state, _ = start("hangzhou", {0: "123456m789p111s5z9s", 1: QUIET[1], 2: QUIET[2],
                                  3: QUIET[3]})
    state = play(state, WIN(0))
    text = settlement_text(known(spectator_view(state).result), NAMES, 2, "zh-CN")
    assert "第 2 局：Ann 自摸" in text and "暴头（×2）" in text and "牌值：×2" in text


def test_amounts_keep_their_sign_and_halves() -> None:
    assert [amount_text(x) for x in (0, 12, -4, Fraction(-7, 2))] == ["0", "+12", "−4", "−3.5"]


def test_table_caption_mentions_whose_move_it_is_and_nothing_private() -> None:
    state, _ = start("shanghai", SCENE_P)
    state, _ = apply(state, D(0, "9s"))
    table = spectator_view(state)
    en = table_caption(table, table_id=4, names=NAMES, locale="en",
                       happened=["Ann discarded 9s."], mention={3: "<@3>"})
    assert en.splitlines()[0] == "Shanghai · table #4 · hand 1 · 91 tiles left"
    # who may claim is secret: nobody is named or mentioned
    assert en.splitlines()[-1] == "The discard may be claimed: waiting for answers."
    zh = table_caption(table, table_id=4, names=NAMES, locale="zh-CN")
    assert "庄家：Ann" in zh and zh.endswith("这张牌可能有人吃碰杠胡：等待决定。")
    assert "Bob" not in zh and "Cy" not in zh and "Di" not in zh
    hz, _ = start("hangzhou", {0: QUIET[0] + "9m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]})
    assert "财神: White Dragon" in table_caption(spectator_view(hz), table_id=1,
                                                    names=NAMES, locale="en")


def test_long_news_is_dropped_oldest_first_never_the_question() -> None:
    news = [f"line {i} " + "x" * 90 for i in range(40)]
    text = fit(["head"], news, ["the question", "the deadline"])
    assert len(text) <= 2000 and text.startswith("head\n")
    assert text.endswith("the question\nthe deadline") and "line 39" in text
    assert "line 0 " not in text
    state, _ = start("shanghai", SCENE_P)
    state, _ = apply(state, D(0, "9s"))
    dm = dm_text(view(state, 2), table_id=1, names=NAMES, locale="en", happened=news,
                 deadline=1.9e9, reminder=True)
    assert len(dm) <= 2000 and "Reminder" in dm and dm.endswith("default move is played.")


def test_dm_text_says_what_is_asked() -> None:
    state, _ = start("shanghai", SCENE_P)
    state, events = apply(state, D(0, "9s"))
    news = describe_events(events, NAMES, 2, "en")
    en = dm_text(view(state, 2, 5), table_id=9, names=NAMES, locale="en", deadline=1.9e9,
                 happened=news)
    # the discard is told once, with its question (not as news, then "may be claimed")
    assert en.splitlines()[:3] == ["**Shanghai · table #9 · hand 5**",
                                   "Ann discarded Nine of Bamboo: claim it or pass.",
                                   "Your hand: Characters 3 6 9, Dots 1 4 7, Nine of "
                                   "Bamboo ×2, East Wind, South Wind, West Wind, North "
                                   "Wind, Red Dragon"], en
    assert en.count("discarded") == 1 and "may be claimed" not in en
    zh = dm_text(view(state, 2, 5), table_id=9, names=NAMES, locale="zh-CN",
                 happened=describe_events(events, NAMES, 2, "zh-CN"))
    assert zh.count("九条") == 2 and "可以吃碰杠胡" not in zh, zh
    # tiles by their names, never as codes ("你的手牌：7p 4s 4s…")
    assert "你的手牌：三六九万 一四七筒 九条×2 东风 南风 西风 北风 红中" in zh
    assert not re.search(r"\d[mpszf]\b", en + zh)
    assert "<t:1900000000:R>" in en and "<t:1900000000:f>" in en
    waiting = dm_text(view(state, 0), table_id=9, names=NAMES, locale="zh-CN")
    assert "这张牌可能有人吃碰杠胡" in waiting and "<t:" not in waiting
    assert "Bob" not in waiting and "Cy" not in waiting and "Di" not in waiting


def test_leaderboard_and_score() -> None:
    rows = [LeaderboardRow(1, 2, "u:1", "Ann", Fraction(42), 3, 8, 1, None, None, "shanghai"),
            LeaderboardRow(1, 2, "u:2", "Bob", Fraction(-7, 2), 1, 8, 1, None, None,
                           "shanghai")]
    # issue 31: each line says the person's rating ("—": none), marked while provisional
    assert leaderboard_text(rows, "en").splitlines() == [
        "**Shanghai leaderboard of this channel · points: 花 × 底分**",
        "1. Ann: +42 · rating — (won 3 of 8 hands)",
        "2. Bob: −3.5 · rating — (won 1 of 8 hands)"]
    one = [replace(rows[0], hands_won=1, hands_played=1)]
    assert leaderboard_text(one, "en").splitlines()[1] == \
        "1. Ann: +42 · rating — (won 1 of 1 hand)"
    zh = leaderboard_text(rows, "zh-CN", others=["hangzhou"]).splitlines()
    assert zh[0] == "**本频道上海排行榜 · 积分：花 × 底分**"
    assert "2. Bob：−3.5 · 等级分 —（8 局胡 1 局）" in zh and "杭州" in zh[-1]
    rated = {1: Rating(30.0, 5.0, 12, 1083, False), 2: Rating(25.0, 8.0, 3, 920, True)}
    keyed = [replace(rows[0], player_key="user:1"), replace(rows[1], player_key="user:2"),
             replace(rows[1], player_key="user:3", display_name="Cy")]
    assert leaderboard_text(keyed, "en", ratings=rated).splitlines()[1:] == [
        "1. Ann: +42 · rating 1083 (won 3 of 8 hands)",
        "2. Bob: −3.5 · rating 920 (provisional) (won 1 of 8 hands)",
        "3. Cy: −3.5 · rating — (won 1 of 8 hands)"]
    assert "2. Bob：−3.5 · 等级分 920（定级中）（8 局胡 1 局）" in \
        leaderboard_text(keyed, "zh-CN", ratings=rated)
    assert leaderboard_text(keyed, "en", ratings=rated, season="all").splitlines()[0] == \
        "**Shanghai leaderboard of this channel · points: 花 × 底分 · all time**"
    assert leaderboard_text(keyed, "zh-CN", season=3).splitlines()[0] == \
        "**本频道上海排行榜 · 积分：花 × 底分 · 第 3 赛季**"
    assert leaderboard_text([], "zh-CN") == "本频道还没有结算过的牌局。"
    assert leaderboard_text([], "en", rules="hangzhou", others=["shanghai"]).splitlines() == [
        "No Hangzhou hand has been settled in this channel yet.",
        "This channel keeps a Shanghai board too: `/mahjong leaderboard` with its rules."]
    many = rows * 200
    assert len(leaderboard_text(many, "en")) <= 2000
    longer = leaderboard_text(many, "en", others=["hangzhou"])
    assert len(longer) <= 2000 and longer.endswith("with its rules.")
    score = score_text(3, NAMES, [12, -4, -4, -4], 2, 8, "en")
    assert score.splitlines()[:2] == ["**Table #3: after 2 of 8 hands**", "Ann: +12"]
    cancelled = score_text(3, NAMES, [12, -4, -4, -4], 2, 8, "zh-CN", cancelled=True)
    assert cancelled.splitlines()[0] == "**第 3 桌已取消：共 8 局，取消前打了 2 局**"


def test_reveal_fits() -> None:
    assert len(reveal_text(1, "1m" * 144, "ab" * 16, "en")) <= 2000


def test_the_streak_has_one_name_and_a_huangfan_hand_says_why() -> None:
    hz, _ = start("hangzhou", {0: QUIET[0] + "9m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]})
    table = replace(spectator_view(hz), streak=2)
    en = table_caption(table, table_id=1, names=NAMES, locale="en")
    assert "The dealer's streak: 老庄 2" in en and "dealer streak:" not in en
    assert "老庄 2" in table_caption(table, table_id=1, names=NAMES, locale="zh-CN")
    sh, _ = start("shanghai", SCENE_P)
    plain = spectator_view(sh)
    dice = replace(plain, huangfan=True, dice=(1, 1))
    assert "荒番 hand: the dice 1+1 make it one" in table_caption(
        dice, table_id=1, names=NAMES, locale="en")
    assert "骰子 1+1 带来荒番" in table_caption(dice, table_id=1, names=NAMES, locale="zh-CN")
    carried = replace(plain, huangfan=True, dice=(2, 3))
    assert "carried over from an earlier drawn hand" in table_caption(
        carried, table_id=1, names=NAMES, locale="en")
    assert "由前面的流局" in table_caption(carried, table_id=1, names=NAMES, locale="zh-CN")
