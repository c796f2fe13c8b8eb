"""The score calculator: ``python -m engine.score FILE.json`` (or ``-`` for stdin).

Reads scoring cases in the form of ``shared/cases/README.md`` and prints one JSON
object per case: ``valid``, ``patterns``, ``value``, ``payments`` (or ``reason``) and a
human-readable ``breakdown``. Impossible input is refused with a reason, never scored.

Input built to break a parser is refused in one sentence, never a traceback: a file
that cannot be read (not UTF-8, not JSON, nested past what the parser's recursion
holds, a number longer than `MAX_DIGITS`) is one line on standard error and exit code
2; a case nested deeper than `MAX_DEPTH` is refused as its own line, and the others
are scored. What a reason echoes of the input is clipped (`MAX_REASON`).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Mapping
from enum import Enum
from typing import Any, TypeVar

from engine import rules
from engine.melds import Meld, MeldKind
from engine.refusals import MAX_ECHO, Code, Refusal, RefusalError
from engine.rules.common import (
    SEATS,
    ChainStep,
    OptionError,
    Replacement,
    RuleError,
    Settlement,
    WinContext,
    WinKind,
    make_meld,
    number,
)
from engine.tiles import NotationError, Tile, parse_tiles, tile_from_notation

FIELDS = frozenset((
    "name", "rules", "options", "dealer", "streak", "huangfan", "winner", "win", "from",
    "hand", "win_tile", "melds", "flowers", "replacement", "first_go_round", "chain",
    "claims", "expect"))

MAX_DEPTH = 6
"""How deeply a case may nest objects and lists (it needs 3: a case, its melds, a meld);
deeper is refused before anything reads it."""
MAX_DIGITS = 30
"""The longest whole number the JSON may write (a seat, a count, an option value)."""
MAX_REASON = 200
"""A refusal's reason is clipped to this: what it echoes of the input is not repeated
whole."""
MAX_SHOWN = MAX_ECHO
"""What a reason echoes of one value, at most."""

T = TypeVar("T")
D = TypeVar("D")
E = TypeVar("E", bound=Enum)


class CaseError(RefusalError):
    """A case that cannot be read; its code says which field and why."""


class TooDeep(CaseError):
    """JSON nested deeper than `MAX_DEPTH` (or than the parser can follow)."""

    def __init__(self, refusal: Refusal | None = None) -> None:  # given: a copy (pickle)
        super().__init__(refusal or Refusal.of(Code.TOO_DEEP, depth=MAX_DEPTH))


class NumberTooLong(CaseError):
    """A whole number longer than `MAX_DIGITS` digits."""

    def __init__(self, digits: int | Refusal) -> None:
        if isinstance(digits, Refusal):  # as the exception is copied (pickle)
            super().__init__(digits)
            digits = int(str(digits.params["digits"]))
        else:
            super().__init__(Code.NUMBER_TOO_LONG, digits=digits, limit=MAX_DIGITS)
        self.digits = digits


def parse_json(text: str) -> Any:
    """The JSON value of ``text``, read as the calculator reads cases: `TooDeep` when it
    nests past what the parser follows, `NumberTooLong` for a number longer than
    `MAX_DIGITS` (Python refuses to read 4,301 digits), `json.JSONDecodeError` when it
    is not JSON."""
    try:
        return json.loads(text, parse_int=_whole_number)
    except RecursionError:
        raise TooDeep() from None


def _whole_number(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise NumberTooLong(digits)
    return int(text)


def _depth(value: Any) -> int:
    """How deeply ``value`` nests lists and objects (a scalar: 0), counted without
    recursion and no further than one past `MAX_DEPTH`."""
    deepest, level = 0, [(value, 0)]
    while level:
        item, depth = level.pop()
        if isinstance(item, Mapping | list) and depth <= MAX_DEPTH:
            deepest = max(deepest, depth + 1)
            level.extend((x, depth + 1) for x in
                         (item.values() if isinstance(item, Mapping) else item))
    return deepest


def shown(value: Any) -> str:
    """A value as a reason echoes it: its ``repr``, clipped to `MAX_SHOWN`."""
    text = repr(value) if _depth(value) <= MAX_DEPTH else "[…]"
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 1] + "…"


def score_case(case: Mapping[str, Any]) -> dict[str, Any]:
    """Judge one case and return the output object (never raises for bad input)."""
    name = case.get("name") if isinstance(case, Mapping) else None
    if not isinstance(name, str | int | float | bool):  # a name is echoed as it was
        name = None
    return to_output(name, judge_case(case))


def judge_case(case: Mapping[str, Any]) -> Settlement:
    """One case's settlement; a case that does not read is refused with its reason
    (``Settlement.reason``, a `Refusal`), never raised."""
    try:
        ruleset, options, ctx = read_case(case)
        return ruleset.score(ctx, options)
    except (CaseError, RuleError, OptionError, NotationError) as exc:
        return Settlement.refused(exc.refusal)


def to_output(name: Any, result: Settlement) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "valid": result.valid}
    if result.valid:
        out["patterns"] = list(result.patterns)
        out["value"] = result.value
        out["payments"] = [number(p) for p in result.payments]
        out["breakdown"] = list(result.breakdown)
    else:
        reason = str(result.reason or Refusal(Code.NOT_VALID))
        if len(reason) > MAX_REASON:
            reason = reason[:MAX_REASON - 1] + "…"
        out["reason"] = reason
        out["breakdown"] = [f"不能胡 Not a valid win: {reason}"]
    return out


def read_case(case: Any) -> tuple[rules.RuleSet, Any, WinContext]:
    if not isinstance(case, Mapping):
        raise CaseError(Code.CASE_NOT_OBJECT, type=type(case).__name__)
    if _depth(case) > MAX_DEPTH:
        raise TooDeep()
    unknown = sorted(set(case) - FIELDS)
    if unknown:
        raise CaseError(Code.UNKNOWN_FIELD, field=shown(unknown[0]))
    ruleset = rules.get(_need(case, "rules", str))
    raw_options = dict(_get(case, "options", dict, {}))
    flipped_text = raw_options.pop("flipped", None)
    options = ruleset.options(raw_options)
    flipped = tile_from_notation(flipped_text) if flipped_text is not None else None
    wild = ruleset.wildcards(options, flipped)
    win = _enum(WinKind, _need(case, "win", str), "win")
    win_tile_text = _get(case, "win_tile", str, None)
    winner = _seat(case, "winner")
    melds = tuple(_meld(m, wild) for m in _get(case, "melds", list, []))
    ctx = WinContext(
        winner=winner,
        dealer=_seat(case, "dealer"),
        win=win,
        concealed=tuple(parse_tiles(_need(case, "hand", str), max_copies=False)),
        win_tile=tile_from_notation(win_tile_text) if win_tile_text is not None else None,
        melds=melds,
        from_seat=_seat(case, "from") if "from" in case else None,
        flowers=tuple(parse_tiles(_get(case, "flowers", str, ""), allow_empty=True)),
        replacement=_replacement(case),
        first_go_round=_get(case, "first_go_round", bool, False),
        chain=_chain(case),
        claims=_claims(case, winner, melds),
        streak=_get(case, "streak", int, 1),
        huangfan=_get(case, "huangfan", bool, False),
        flipped=flipped,
    )
    _check_rule_fields(ruleset, ctx)
    return ruleset, options, ctx


def _check_rule_fields(ruleset: rules.RuleSet, ctx: WinContext) -> None:
    foreign = ruleset.foreign_fields(ctx)
    if foreign is not None:
        raise CaseError(foreign)


def _get(case: Mapping[str, Any], key: str, kind: type[T], default: D) -> T | D:
    if key not in case:
        return default
    return _need(case, key, kind)


def _need(case: Mapping[str, Any], key: str, kind: type[T]) -> T:
    if key not in case:
        raise CaseError(Code.MISSING_FIELD, field=key)
    value = case[key]
    if kind is int and isinstance(value, bool):
        raise CaseError(Code.FIELD_WHOLE, field=key, value=shown(value))
    if not isinstance(value, kind):
        raise CaseError(Code.FIELD_TYPE, field=key, type=kind.__name__, value=shown(value))
    return value


def _seat(case: Mapping[str, Any], key: str) -> int:
    seat = _need(case, key, int)
    if not 0 <= seat < SEATS:
        raise CaseError(Code.FIELD_SEAT, field=key, value=shown(seat))
    return seat


def _enum(kind: type[E], value: str, key: str) -> E:
    try:
        return kind(value)
    except ValueError:
        raise CaseError(Code.FIELD_CHOICE, field=key, choices=tuple(str(m.value) for m in kind),
                        value=shown(value)) from None


def _replacement(case: Mapping[str, Any]) -> Replacement | None:
    value = _get(case, "replacement", str, None)
    return None if value is None else _enum(Replacement, value, "replacement")


def _chain(case: Mapping[str, Any]) -> tuple[ChainStep, ...]:
    text = _get(case, "chain", str, "")
    bad = set(text) - {"P", "K"}
    if bad:
        raise CaseError(Code.CHAIN_STEP, char=bad.pop())
    return tuple(ChainStep(ch) for ch in text)


def _meld(data: Any, wild: Any) -> Meld:
    if not isinstance(data, Mapping):
        raise CaseError(Code.MELD_OBJECT)
    unknown = sorted(set(data) - {"type", "tiles", "from"})
    if unknown:
        raise CaseError(Code.UNKNOWN_MELD_FIELD, field=shown(unknown[0]))
    kind = _enum(MeldKind, _need(data, "type", str), "meld type")
    tiles = parse_tiles(_need(data, "tiles", str), max_copies=False)
    from_seat = _seat(data, "from") if "from" in data else None
    return make_meld(kind, tiles, from_seat, wild)


def _claims(case: Mapping[str, Any], winner: int, melds: tuple[Meld, ...]
            ) -> tuple[tuple[int, ...], ...]:
    if "claims" in case:
        rows = _need(case, "claims", list)
        if len(rows) != SEATS or any(not isinstance(r, list) or len(r) != SEATS for r in rows):
            raise CaseError(Code.CLAIMS_LIST)
        return tuple(tuple(row) for row in rows)
    # Without 'claims', the winner's own melds are the claims we know of.
    made = Counter(m.from_seat for m in melds if m.from_seat is not None)
    return tuple(tuple(made.get(b, 0) if a == winner else 0 for b in range(SEATS))
                 for a in range(SEATS))


def load(source: str) -> list[Any]:
    """The cases of a file (``-``: standard input): a list of them, or one alone."""
    if source == "-":
        text = sys.stdin.buffer.read().decode("utf-8")
    else:
        with open(source, encoding="utf-8") as handle:
            text = handle.read()
    data = parse_json(text)
    return data if isinstance(data, list) else [data]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print("usage: python -m engine.score FILE.json   (or - to read standard input)",
              file=sys.stderr)
        return 0 if args and args[0] in ("-h", "--help") else 2
    try:
        cases = load(args[0])
    except (OSError, json.JSONDecodeError, CaseError) as exc:
        print(f"cannot read cases from {args[0]}: {exc}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        print(f"cannot read cases from {args[0]}: it is not UTF-8 text (byte "
              f"{exc.start + 1})", file=sys.stderr)
        return 2
    for case in cases:
        print(json.dumps(score_case(case), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["CaseError", "NumberTooLong", "Tile", "TooDeep", "judge_case", "main", "parse_json",
           "read_case", "score_case"]
