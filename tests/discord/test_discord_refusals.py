"""Refusals as one sentence in the reader's language: every code of the service, every
reason the engine can give (found in the engine's source, so that a new one cannot go
untranslated), seats by name and numbered as players see them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import bot.service.errors as E
from bot.discord.calculator import score_reply
from bot.discord.core.refusals import REASONS, explain, refusal_text

ROOT = Path(__file__).resolve().parents[2]
CODES = sorted(v for k, v in vars(E).items() if k.isupper() and isinstance(v, str))
ZH_NAMES = ("小明", "小红", "小刚", "小丽")  # names without Latin letters, to find English
PARAMS = {"seat": 3, "name": "小刚", "seats": (2, 4), "why": "tile_not_held",
          "detail": "you do not hold 7z", "names": ZH_NAMES}
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
    assert refusal_text("brand_new_code", "why", "zh-CN") == "未能执行。"


def test_an_engine_refusal_names_seats_and_speaks_the_readers_language() -> None:
    names = ("Ann", "Bob", "Cid", "Dee")
    detail = ("抓打: seat 1 discarded a 财神; until seat 1 draws again nobody else may chi, "
              "pong, kong or win on a discard")
    params = {"why": "restricted", "detail": detail, "names": names}
    en = refusal_text(E.ILLEGAL, detail, "en", params)
    zh = refusal_text(E.ILLEGAL, detail, "zh-CN", params)
    assert en == ("That move isn't allowed: 抓打: Bob discarded a 财神, and until they draw "
                  "again nobody else may chi, pong, kong or win on a discard.")
    assert zh == ("这一步不能走：抓打：Bob打出了财神，"
                  "在其再次摸牌前其他人不能吃、碰、杠或胡打出的牌。")
    # without names (the calculator), seats are numbered 1–4 as the lobby numbers them
    assert "seat 4" in explain("it is seat 3's turn, not yours", "not_your_decision", "en")
    # a reason nobody translated yet: the sentence for its kind, never English in Chinese
    assert explain("some new reason", "restricted", "zh-CN") == "规则现在不允许"
    assert explain("some new reason", "no_such_kind", "zh-CN") == "现在不允许"
    # to an English reader it is the engine's own English, seats numbered from 1
    assert explain("seat 0 did a new thing", "restricted", "en") == "seat 1 did a new thing"


def test_options_that_do_not_fit_are_said_with_the_options_own_name() -> None:
    detail = "option 'base' must be one of 1, 2, 3, 5, not 4"
    zh = refusal_text(E.BAD_OPTIONS, detail, "zh-CN")
    assert zh == "选项不对：底分只能是 1, 2, 3, 5，不能是 4。"
    assert refusal_text(E.BAD_OPTIONS, detail, "en") == \
        "Those options don't work: base must be one of 1, 2, 3, 5, not 4."


def test_the_calculator_says_why_a_hand_does_not_win_in_chinese() -> None:
    reply = score_reply({"hand": "1112345678999m", "win_tile": "5m", "win": "discard",
                         "rules": "hangzhou"}, "zh-CN")
    assert "不能这样胡" in reply and not _latin(reply.split("\n", 1)[1]), reply


# ---------------------------------------------------------------------------
# Every reason the engine can give, from its source


_ILLEGAL = {"IllegalAction", "HandOver", "NotYourDecision", "WrongPhase", "AlreadyAnswered",
            "TileNotHeld", "InvalidMeld", "NotAWin", "Restricted", "OptionError"}
_RULE_FUNCTIONS = re.compile(r"refusal|claim|limit|caishen|factor")


def _sample(expr: ast.expr) -> str:
    """A value for an f-string's hole, by what the expression names."""
    text = ast.unparse(expr)
    if "notation" in text or "tile" in text:
        return "5m"
    if re.search(r"seat|turn|\bx\b|discarder", text):
        return "2"
    if text.endswith("name"):
        return "'base'"
    return "3"


def _texts(node: ast.AST | None) -> list[str]:
    """Every text an expression can produce (holes filled with samples); [] when it is
    not built from literals here (a reason passed on from elsewhere)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        out = [""]
        for part in node.values:
            piece = _texts(part) if isinstance(part, ast.Constant) else \
                [_sample(part.value)]  # type: ignore[attr-defined]
            out = [a + b for a in out for b in piece]
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [a + b for a in _texts(node.left) for b in _texts(node.right)]
    if isinstance(node, ast.IfExp):
        return _texts(node.body) + _texts(node.orelse)
    if isinstance(node, ast.BoolOp):
        return [x for v in node.values for x in _texts(v)]
    return []


def _engine_reasons() -> list[str]:
    found: list[str] = []
    for name in ("engine/game/legal.py", "engine/rules/hangzhou.py",
                 "engine/rules/shanghai.py", "engine/rules/common.py"):
        tree = ast.parse((ROOT / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                    and isinstance(node.exc.func, ast.Name) and node.exc.func.id in _ILLEGAL:
                found += _texts(node.exc.args[0]) if node.exc.args else []
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "refused" and node.args:
                found += _texts(node.args[0])
            elif isinstance(node, ast.FunctionDef) and _RULE_FUNCTIONS.search(node.name) \
                    and node.returns is not None and "str" in ast.unparse(node.returns):
                found += [x for r in ast.walk(node) if isinstance(r, ast.Return)
                          for x in _texts(r.value)]
            elif isinstance(node, ast.BoolOp):
                found += [x for v in node.values if isinstance(v, ast.Constant)
                          for x in _texts(v)]
    return [r for r in found if r.strip()]


def test_the_engine_source_is_walked() -> None:
    reasons = _engine_reasons()
    assert len(reasons) > 30
    assert "the hand is over" in reasons and "not a valid win" in reasons
    assert any(r.startswith("漏胡: you passed a win on 5m") for r in reasons)


@pytest.mark.parametrize("reason", sorted(set(_engine_reasons())))
def test_every_reason_the_engine_gives_in_play_is_translated(reason: str) -> None:
    if not any(r.pattern.fullmatch(reason) for r in REASONS):
        # the calculator's complaints about a malformed case may use the fallback
        assert _calculator_input_only(reason), f"no translation for {reason!r}"
        return
    zh = explain(reason, "restricted", "zh-CN", ZH_NAMES)
    assert not _latin(zh), (reason, zh)
    en = explain(reason, "restricted", "en", ("Ann", "Bob", "Cid", "Dee"))
    assert not re.search(r"seat [0-3]\b", en), en  # seats by name, never 0–3


_CASE_WORDS = ("'from'", "'flowers'", "'claims'", "claims[", "first_go_round", "flower",
               "must be a seat", "meld(s) claimed", "win needs", "replacement",
               "Hangzhou options", "Shanghai has no", "unknown rules", "own discard",
               "chi is only from the upper player (seat")


def _calculator_input_only(reason: str) -> bool:
    """Reasons only a calculator case (JSON fields) can produce, never a move in play."""
    return any(w in reason for w in _CASE_WORDS)
