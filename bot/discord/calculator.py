"""``/mahjong score`` as a calculator: slash-command fields (or a JSON case) → a case of
``shared/cases/README.md`` → `engine.score.judge_case` → a reply in the user's locale.

The fields are deliberately few: the winner is seat 1, the dealer is the winner or
seat 2, a discard or a robbed kong comes from seat 3 and a chi from the seat before
the winner. Anything richer (claims, chains, streaks) goes through ``case``.

Seats in the reply are numbered 1–4, as the lobby numbers them; a JSON ``case`` keeps
the shared contract's seats 0–3, and the engine's breakdown lines (written for that
contract) are renumbered here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from bot.discord.core.i18n import LocaleLike, t
from bot.discord.core.refusals import explain
from bot.discord.core.words import MAX_CONTENT, amounts_text, clip, rules_name, value_text
from engine.refusals import Code, Refusal
from engine.rules import DEFAULT, RULESETS
from engine.score import (
    MAX_DEPTH,
    MAX_DIGITS,
    NumberTooLong,
    TooDeep,
    judge_case,
    parse_json,
    to_output,
)

WINNER, OTHER, DISCARDER = 0, 1, 2
CHI_FROM = (WINNER + 3) % 4
_MELD_KINDS = {"chi": "chi", "pong": "pong", "peng": "pong", "kong": "kong",
               "gang": "kong", "akong": "added_kong", "added_kong": "added_kong",
               "ckong": "concealed_kong", "concealed_kong": "concealed_kong"}
_MELD_RE = re.compile(r"([a-z_]+):?([0-9a-z]+)")
MAX_ECHO = 40
"""What a reply repeats of a field it cannot read, at most."""
_ENGINE_SEAT = re.compile(r"\bseat ([0-3])\b")
"""How the engine's breakdown names a seat (the contract's 0–3)."""
_ENGINE_LINES = (
    (re.compile(r"seat ([0-3]) pays (\S+) \((\S+) shares?\)"), "calc.pays"),
    (re.compile(r"1 share = (\S+)"), "calc.share"),
)
"""The engine's English-only breakdown lines (the others are bilingual already) and
the key that says them in the reader's language; their fields in order."""


class CaseInputError(ValueError):
    """The fields cannot make a case: ``key`` names the sentence telling the user why,
    ``fields`` are its values."""

    def __init__(self, key: str, **fields: Any) -> None:
        super().__init__(key)
        self.key = key
        self.fields = fields


def melds_of(text: str | None) -> list[dict[str, Any]]:
    """"pong:555m chi:123s ckong:9999p" → the case's meld objects (who gave each is
    fixed as the module docstring says)."""
    out = []
    for token in re.split(r"[\s,;]+", (text or "").strip().lower()):
        if not token:
            continue
        match = _MELD_RE.fullmatch(token)
        kind = _MELD_KINDS.get(match[1]) if match else None
        if match is None or kind is None:
            raise CaseInputError("reply.score.bad_meld", meld=clip(token, MAX_ECHO))
        meld: dict[str, Any] = {"type": kind, "tiles": match[2]}
        if kind != "concealed_kong":
            meld["from"] = CHI_FROM if kind == "chi" else DISCARDER
        out.append(meld)
    return out


def build_case(args: Mapping[str, Any]) -> dict[str, Any]:
    """The case to score, from a JSON ``case`` or from the separate fields."""
    if args.get("case"):
        try:
            given = parse_json(args["case"])
        except json.JSONDecodeError as exc:
            raise CaseInputError("reply.score.bad_case", line=exc.lineno,
                                 column=exc.colno) from None
        except TooDeep:
            raise CaseInputError("reply.score.too_deep", depth=MAX_DEPTH) from None
        except NumberTooLong as exc:
            raise CaseInputError("reply.score.long_number", digits=exc.digits,
                                 limit=MAX_DIGITS) from None
        if not isinstance(given, dict):
            raise CaseInputError("reply.score.not_object")
        return given
    win = args.get("win") or "self_draw"
    case: dict[str, Any] = {
        "name": "discord", "rules": args.get("rules") or DEFAULT.name,
        "dealer": WINNER if args.get("dealer") else OTHER, "winner": WINNER, "win": win,
        "hand": (args.get("hand") or "").strip(), "melds": melds_of(args.get("melds"))}
    if args.get("win_tile"):
        case["win_tile"] = args["win_tile"].strip()
    if win != "self_draw":
        case["from"] = DISCARDER
    if args.get("flowers"):
        case["flowers"] = args["flowers"].strip()
    return case


def score_reply(args: Mapping[str, Any], locale: LocaleLike) -> str:
    """The calculator's answer: patterns (the breakdown lines), value and payments, or
    why the hand is not a valid win."""
    try:
        case = build_case(args)
    except CaseInputError as exc:
        return clip(t(exc.key, locale, **exc.fields), MAX_CONTENT)
    settlement = judge_case(case)
    result = to_output(None, settlement)
    rules = str(case.get("rules") or DEFAULT.name)
    title = t("reply.score.calc_title", locale,
              rules=rules_name(rules, locale) if rules in RULESETS else rules)
    if not settlement.valid:
        reason = explain(settlement.reason or Refusal(Code.NOT_VALID), locale)
        return clip(f"{title}\n" + t("reply.score.invalid", locale, reason=reason),
                    MAX_CONTENT)
    lines = [title, *(f"· {_breakdown_line(line, locale)}"
                      for line in result.get("breakdown", []))]
    lines.append(t("reply.score.value", locale, value=value_text(rules, result["value"], locale)))
    names = [t("seat.n", locale, n=i + 1) for i in range(4)]
    lines.append(t("reply.score.payments", locale,
                   payments=amounts_text(names, result["payments"], locale)))
    return clip("\n".join(lines), MAX_CONTENT)


def _seats_from_one(line: str, locale: LocaleLike) -> str:
    """An engine line with its seats as the reply numbers them ("seat 0" → "seat 1")."""
    return _ENGINE_SEAT.sub(lambda m: t("seat.n", locale, n=int(m[1]) + 1), line)


def _breakdown_line(line: str, locale: LocaleLike) -> str:
    for pattern, key in _ENGINE_LINES:
        match = pattern.fullmatch(line)
        if match is None:
            continue
        fields = dict(zip(("a", "b", "c"), match.groups(), strict=False))
        if key == "calc.pays":
            fields["a"] = t("seat.n", locale, n=int(fields["a"]) + 1)
        return t(key, locale, **fields)
    return _seats_from_one(line, locale)
