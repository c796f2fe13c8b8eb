"""Refusals as one sentence in the reader's language: every code of the service, every
code of the engine's (engine/refusals.py: tests/engine/test_refusal_codes.py holds the
engine to them), seats by name and numbered as players see them."""

from __future__ import annotations

import re

import pytest

import bot.service.errors as E
from bot.discord.calculator import score_reply
from bot.discord.core.refusals import explain, refusal_text
from engine.refusals import Code, Refusal
from engine.rules import get
from engine.rules.common import OptionError
from engine.tiles import Tile
from tests.engine.test_refusal_codes import sample

CODES = sorted(v for k, v in vars(E).items() if k.isupper() and isinstance(v, str))
ZH_NAMES = ("小明", "小红", "小刚", "小丽")  # names without Latin letters, to find English
PARAMS = {"seat": 3, "name": "小刚", "seats": (2, 4), "why": "tile_not_held",
          "detail": "you do not hold 7z", "names": ZH_NAMES,
          "refusal": Refusal.of(Code.NOT_HELD, tiles=(Tile.RED,)), "tile": Tile.RED,
          "claimed": Tile.M9, "tiles": (Tile.M7, Tile.M8)}
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
ALLOWED_LATIN = {"mahjong", "new"}  # the command /mahjong new


def _latin(text: str) -> set[str]:
    return {w for w in LATIN_WORD.findall(text)} - ALLOWED_LATIN


@pytest.mark.parametrize("code", CODES)
def test_every_service_refusal_is_one_sentence_in_each_language(code: str) -> None:
    en = refusal_text(code, "the english reason", "en-US", PARAMS)
    zh = refusal_text(code, "the english reason", "zh-CN", PARAMS)
    assert "english reason" not in en and "english reason" not in zh
    assert not _latin(zh), zh
    # one sentence: it ends once, and no clause says the same thing twice
    assert en.endswith(".") and en.count(". ") == 0, en
    assert zh.endswith("。") and zh.count("。") == 1, zh
    clauses = [c.strip().lower() for c in re.split(r"[:;,.]", en) if c.strip()]
    assert len(clauses) == len(set(clauses)), en


def test_the_button_refusals_read_as_players_expect() -> None:
    assert refusal_text(E.STALE, "that button is for a decision that has passed", "en") \
        == "That button is for a decision that has passed."
    assert refusal_text(E.STALE, "that button is for a decision that has passed", "zh-CN") \
        == "这个按钮对应的决定已经过去了。"
    assert refusal_text(E.STALE_HAND, "x", "en") == "That button is from an earlier hand."
    assert refusal_text(E.WRONG_SEAT, "x", "en", {"seat": 2, "name": "Bob"}) \
        == "That button is for Bob, not for you."
    assert refusal_text(E.WRONG_SEAT, "x", "zh-CN", {"seat": 2, "name": "Bob"}) \
        == "这个按钮是给 Bob 的，不是给你的。"
    assert refusal_text(E.NOT_YOURS, "x", "zh-CN", {"seat": 1, "name": "Ann"}) \
        == "这个按钮是给 Ann 的；你不在这张牌桌上。"
    assert refusal_text(E.SEAT_TAKEN, "seat 3 is taken", "zh-CN", {"seat": 3}) \
        == "3 号位已经有人了。"
    assert refusal_text("brand_new_code", "why", "en") == "Not done."


def test_a_claim_answered_in_advance_names_its_tile() -> None:
    five = Tile.M5
    en = refusal_text(E.BAD_CLAIM_ANSWER, "x", "en", {"tile": five, "kind": "kong"})
    zh = refusal_text(E.BAD_CLAIM_ANSWER, "x", "zh-CN", {"tile": five, "kind": "kong"})
    assert en == ("You can answer in advance a pong of a tile you hold two of, or a kong "
                  "of one you hold three of: not Five of Characters."), en
    assert zh == "只能预先回答手里有两张的牌的碰、有三张的牌的杠：五万 不行。", zh
    assert refusal_text("brand_new_code", "why", "zh-CN") == "未能执行。"


def test_an_engine_refusal_names_seats_and_speaks_the_readers_language() -> None:
    names = ("Ann", "Bob", "Cid", "Dee")
    detail = ("抓打: seat 1 discarded a 财神; until seat 1 draws again nobody else may chi, "
              "pong, kong or win on a discard")
    params = {"why": "restricted", "detail": detail, "names": names,
              "refusal": Refusal.of(Code.ZHUA_DA_CLAIM, seat=1)}
    en = refusal_text(E.ILLEGAL, detail, "en", params)
    zh = refusal_text(E.ILLEGAL, detail, "zh-CN", params)
    assert en == ("That move isn't allowed: 抓打: Bob discarded a 财神, and until they draw "
                  "again nobody else may chi, pong, kong or win on a discard.")
    assert zh == ("这一步不能走：抓打：Bob打出了财神，"
                  "在其再次摸牌前其他人不能吃、碰、杠或胡打出的牌。")
    # without names (the calculator), seats are numbered 1–4 as the lobby numbers them
    assert "seat 4" in explain(Refusal.of(Code.NOT_YOUR_TURN, seat=3), "en")
    # a refusal without the engine's: the sentence for its kind, never English in Chinese
    assert refusal_text(E.ILLEGAL, "x", "zh-CN", {"why": "restricted"}) == \
        "这一步不能走：规则现在不允许。"
    assert refusal_text(E.ILLEGAL, "x", "zh-CN", {"why": "no_such_kind"}) == \
        "这一步不能走：现在不允许。"
    assert refusal_text(E.BAD_OPTIONS, "x", "en") == \
        "Those options don't work: one of the options does not fit these rules."


def test_options_that_do_not_fit_are_said_with_the_options_own_name() -> None:
    with pytest.raises(OptionError) as info:
        get("hangzhou").options({"base": 4})
    detail, params = str(info.value), {"refusal": info.value.refusal}
    assert detail == "option 'base' must be one of 1, 2, 3, 5, not 4"
    zh = refusal_text(E.BAD_OPTIONS, detail, "zh-CN", params)
    assert zh == "选项不对：底分只能是 1, 2, 3, 5，不能是 4。"
    assert refusal_text(E.BAD_OPTIONS, detail, "en", params) == \
        "Those options don't work: base must be one of 1, 2, 3, 5, not 4."


def test_the_calculator_says_why_a_hand_does_not_win_in_chinese() -> None:
    reply = score_reply({"hand": "1112345678999m", "win_tile": "5m", "win": "discard",
                         "rules": "hangzhou"}, "zh-CN")
    assert "不能这样胡" in reply and not _latin(reply.split("\n", 1)[1]), reply


# ---------------------------------------------------------------------------
# Every refusal the engine can give, by its code


QUOTED = re.compile(r"'[^']*'")


@pytest.mark.parametrize("code", list(Code))
def test_every_engine_refusal_is_said_in_each_language(code: Code) -> None:
    refusal = Refusal.of(code, **sample(code))
    en = explain(refusal, "en", ("Ann", "Bob", "Cid", "Dee"))
    zh = explain(refusal, "zh-CN", ZH_NAMES)
    assert en and zh and "{" not in en + zh
    said = zh  # what the input said (echoes, choices) and fields' quoted names may stay
    for value in refusal.params.values():
        if isinstance(value, tuple) and not isinstance(value[0], Tile):
            said = said.replace(", ".join(map(str, value)), "")
    assert not _latin(QUOTED.sub("", said)), zh
    assert not re.search(r"seat [0-3]\b", en), en  # seats by name, never 0–3
    if "seat" in refusal.params:
        assert "Cid" in en and "小刚" in zh, (en, zh)
    if isinstance(refusal.params.get("tile"), Tile):
        assert "5m" not in en + zh and "Five of Characters" in en and "五万" in zh, (en, zh)


def test_a_named_chi_and_a_discard_after_a_claim_say_what_was_wrong() -> None:
    chi = {"tile": Tile.M9, "tiles": (Tile.M2, Tile.M7)}
    assert refusal_text(E.BAD_CHI_ANSWER, "x", "en", chi) == (
        "A chi in advance takes two tiles of your own hand that make a run with the tile, "
        "no 财神: not Nine of Characters with Characters 2 7.")
    assert "九万" in refusal_text(E.BAD_CHI_ANSWER, "x", "zh-CN", chi)
    then = {"tile": Tile.M5, "claimed": Tile.M9}
    en = refusal_text(E.BAD_THEN_DISCARD, "x", "en", then)
    assert en.endswith("not Five of Characters after Nine of Characters."), en
    zh = refusal_text(E.BAD_THEN_DISCARD, "x", "zh-CN", then)
    assert "九万 之后打 五万 不行" in zh, zh
