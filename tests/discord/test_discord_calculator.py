"""The calculator's reply (/mahjong score with a hand or a case): one seat numbering
(1–4, as the lobby numbers seats) in everything it writes, in the reader's language."""

from __future__ import annotations

import re

from bot.discord.calculator import score_reply

SEAT = re.compile(r"seat (\d)")
ZH_SEAT = re.compile(r"(\d) 号位")


def _payments(reply: str, pattern: re.Pattern[str]) -> dict[int, str]:
    line = reply.splitlines()[-1]
    return {int(n): amount for n, amount in
            re.findall(pattern.pattern + r" ([+−]?[\d.]+)", line)}


def test_a_discard_win_names_the_payer_as_the_payments_do() -> None:
    reply = score_reply({"hand": "1112345678999m", "win_tile": "5m", "win": "discard"}, "en")
    payers = {int(n) for n in re.findall(r"seat (\d) pays", reply)}
    paid = _payments(reply, SEAT)
    assert payers == {3}, reply  # the fields put the discarder in seat 3
    assert paid == {1: "+20", 2: "0", 3: "−20", 4: "0"}, reply
    assert {int(n) for n in SEAT.findall(reply)} <= {1, 2, 3, 4}


def test_a_self_draw_numbers_every_seat_from_one() -> None:
    reply = score_reply({"hand": "1112345678999m", "win_tile": "5m"}, "en")
    assert {int(n) for n in re.findall(r"seat (\d) pays", reply)} == {2, 3, 4}, reply
    assert _payments(reply, SEAT) == {1: "+60", 2: "−20", 3: "−20", 4: "−20"}


def test_a_json_case_keeps_its_seats_0_to_3_but_the_reply_counts_from_one() -> None:
    case = ('{"rules": "hangzhou", "dealer": 2, "winner": 2, "win": "self_draw", '
            '"hand": "123m456p789s11z22z", "win_tile": "2z"}')
    reply = score_reply({"case": case}, "zh-CN")
    paid = _payments(reply, ZH_SEAT)
    assert paid == {1: "−2", 2: "−2", 3: "+6", 4: "−2"}, reply  # the winner is seat 2 → 3
    assert "seat" not in reply and "pays" not in reply and "share" not in reply
    assert {int(n) for n in ZH_SEAT.findall(reply)} == {1, 2, 3, 4}


def test_the_payers_are_told_in_chinese_with_the_same_numbers() -> None:
    reply = score_reply({"hand": "1112345678999m", "win_tile": "5m", "win": "discard"},
                        "zh-CN")
    assert "3 号位付 20（1 份）" in reply and "每份 = 20" in reply, reply
    assert _payments(reply, ZH_SEAT) == {1: "+20", 2: "0", 3: "−20", 4: "0"}


def test_input_the_calculator_cannot_read_is_explained_in_the_readers_language() -> None:
    assert score_reply({"case": "{nope"}, "zh-CN") == "这个案例不是有效的 JSON（第 1 行第 2 列）。"
    assert score_reply({"case": "{nope"}, "en") == \
        "That case is not valid JSON (line 1, column 2)."
    assert score_reply({"case": "[1]"}, "zh-CN") == "案例应是一个 JSON 对象（见算分器的说明）。"
    assert score_reply({"hand": "123m", "win_tile": "5m", "melds": "zz:12"}, "zh-CN") \
        .startswith("看不懂副露 zz:12；")
    assert score_reply({"hand": "12x", "win_tile": "5m"}, "zh-CN").endswith(
        "不能这样胡：12x 中的 x 不是花色字母：请用 m、p、s、z 或 f")
    assert score_reply({"hand": "1111112345678m", "win_tile": "1m"}, "zh-CN").endswith(
        "不能这样胡：一万 出现了 7 张，最多只能有 4 张")


def test_impossible_claims_are_explained_in_the_readers_language() -> None:
    case = ('{"rules": "shanghai", "dealer": 0, "winner": 1, "win": "self_draw", '
            '"hand": "1112345678999m", "win_tile": "5m", '
            '"claims": [[0,0,0,0],[3,0,0,0],[0,0,0,0],[0,0,0,0]]}')
    assert score_reply({"case": case}, "en").endswith(
        "the winner, seat 2, shows 0 meld(s) claimed from seat 1, so their claims on seat 1 "
        "are 0, not 3")
    assert score_reply({"case": case}, "zh-CN").endswith(
        "胡牌者2 号位亮出 0 组吃碰杠1 号位的副露，所以对1 号位的吃碰杠是 0 次，不是 3 次")
    row = case.replace("[[0,0,0,0],[3,0,0,0]", "[[0,2,2,1],[0,0,0,0]")
    assert score_reply({"case": row}, "en").endswith(
        "seat 1 cannot have made 5 claims in one hand: at most 4, each one a meld")
    assert score_reply({"case": row}, "zh-CN").endswith(
        "1 号位一局最多吃碰杠 4 次（每次成一组副露），不可能有 5 次")


def test_cases_built_to_break_the_parser_are_one_sentence_in_each_language() -> None:
    deep = "[" * 1000 + "]" * 1000
    assert score_reply({"case": deep}, "en").startswith("That case nests lists or objects")
    assert score_reply({"case": deep}, "zh-CN").startswith("这个案例的列表或对象嵌套超过")
    long = '{"dealer": ' + "1" * 4301 + "}"
    assert score_reply({"case": long}, "en") == (
        "That case has a number of 4301 digits; no field needs more than 30.")
    assert "4301 位" in score_reply({"case": long}, "zh-CN")
    inner = '{"rules": "shanghai", "hand": ' + "[" * 50 + "]" * 50 + "}"
    zh = score_reply({"case": inner}, "zh-CN")
    assert "嵌套超过 6 层" in zh and "nested" not in zh
    melds = score_reply({"hand": "123m", "win_tile": "1m", "melds": "x" * 3090}, "en")
    assert melds.startswith("I can't read the meld xxx") and len(melds) < 200
