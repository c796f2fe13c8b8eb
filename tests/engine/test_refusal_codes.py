"""Every refusal of the engine is a code with parameters (engine/refusals.py), never a
free sentence: found in the engine's source, so that a new refusal cannot be written as
English text that nobody can translate."""

from __future__ import annotations

import ast
import pickle
import string
from pathlib import Path

import pytest

from engine.game import IllegalAction, MalformedAction, Restricted, apply, new_hand
from engine.game.actions import Action
from engine.refusals import ENGLISH, Code, Param, Refusal, RefusalError
from engine.rules import SHANGHAI
from engine.rules.common import OptionError, RuleError
from engine.score import CaseError, NumberTooLong, TooDeep
from engine.tiles import NotationError, Tile, parse_tiles

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "engine").rglob("*.py"))
REFUSING = {"RefusalError", "IllegalAction", "MalformedAction", "HandOver",
            "NotYourDecision", "WrongPhase", "AlreadyAnswered", "TileNotHeld", "InvalidMeld",
            "NotAWin", "Restricted", "OptionError", "RuleError", "NotationError", "CaseError",
            "TooDeep", "NumberTooLong"}
"""The exception types that carry a refusal (checked below to be all of them)."""


def _fields(code: Code) -> set[str]:
    """The parameters ``code``'s sentence names."""
    return {name.split(".")[0] for _, name, _, _ in string.Formatter().parse(ENGLISH[code])
            if name}


def _code_of(node: ast.expr) -> list[Code]:
    """The codes an argument names (``Code.X``, or ``Code.X if … else Code.Y``)."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and node.value.id == "Code":
        return [Code[node.attr]]
    if isinstance(node, ast.IfExp):
        return _code_of(node.body) + _code_of(node.orelse)
    return []


def _has_text(node: ast.AST) -> bool:
    """Whether ``node`` builds English of its own (a string literal or an f-string)."""
    return any(isinstance(n, ast.JoinedStr) or
               (isinstance(n, ast.Constant) and isinstance(n.value, str))
               for n in ast.walk(node))


def _calls() -> list[tuple[str, ast.Call, str]]:
    """Every call that makes a refusal: (what it calls, the call, where it is)."""
    found = []
    for path in SOURCES:
        if path.name == "refusals.py":  # the catalogue itself, which makes any
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else \
                ast.unparse(func) if isinstance(func, ast.Attribute) else ""
            if name in REFUSING or name in ("Refusal", "Refusal.of", "Settlement.refused"):
                found.append((name, node, f"{path.relative_to(ROOT)}:{node.lineno}"))
    return found


def test_the_refusing_exceptions_are_all_refusal_errors() -> None:
    from engine.game import errors
    classes = {c.__name__ for c in vars(errors).values()
               if isinstance(c, type) and issubclass(c, IllegalAction)}
    classes |= {"RefusalError", "OptionError", "RuleError", "NotationError", "CaseError",
                "TooDeep", "NumberTooLong"}
    assert classes == REFUSING
    for cls in (IllegalAction, OptionError, RuleError, NotationError, CaseError):
        assert issubclass(cls, RefusalError) and issubclass(cls, ValueError)


def test_every_refusal_in_the_engine_is_a_code_with_its_parameters() -> None:
    calls = _calls()
    assert len(calls) > 100
    for name, call, where in calls:
        assert call.args or name == "TooDeep", where
        assert not any(_has_text(a) for a in call.args), f"{where}: a refusal in words"
        assert not any(isinstance(n, ast.JoinedStr) for k in call.keywords
                       for n in ast.walk(k.value)), f"{where}: a value in words"
        codes = _code_of(call.args[0]) if call.args else []
        if codes:
            given = {k.arg for k in call.keywords}
            for code in codes:
                assert given == _fields(code), (where, code, given)
        else:  # a refusal passed on (an exception's, or a rule's)
            assert name not in ("Refusal", "Refusal.of"), where


def test_every_code_is_given_somewhere_and_has_its_english() -> None:
    source = "\n".join(p.read_text(encoding="utf-8") for p in SOURCES
                       if p.name != "refusals.py")
    for code in Code:
        assert f"Code.{code.name}" in source, f"{code} is never given"
        assert code in ENGLISH and ENGLISH[code] == code.english


def sample(code: Code) -> dict[str, Param]:
    """Values for each parameter of ``code``'s sentence, by their names."""
    out: dict[str, Param] = {}
    for name in _fields(code):
        if name.startswith("seat"):
            out[name] = 2
        elif name == "tile":
            out[name] = Tile.M5
        elif name == "tiles":
            out[name] = (Tile.M5, Tile.M6, Tile.M7)
        elif name == "choices":
            out[name] = ("fixed", "flip")
        elif name in ("n", "limit", "want", "got", "melds", "size", "need", "now", "low",
                      "high", "top", "depth", "digits", "kongs"):
            out[name] = 3
        else:
            out[name] = "'x'"
    return out


@pytest.mark.parametrize("code", list(Code))
def test_every_code_says_its_sentence_in_english(code: Code) -> None:
    refusal = Refusal.of(code, **sample(code))
    text = str(refusal)
    assert text and "{" not in text and "Tile." not in text, text
    error = RuleError(refusal)
    assert (str(error), error.code, error.params) == (text, code, refusal.params)


def test_refusals_carry_their_values() -> None:
    with pytest.raises(NotationError) as notation:
        parse_tiles("12x")
    assert notation.value.code is Code.SUIT_LETTER
    assert dict(notation.value.params) == {"letter": "x", "text": "12x"}
    assert str(notation.value) == "unknown suit letter 'x' in '12x': use m, p, s, z or f"
    with pytest.raises(MalformedAction) as malformed:
        Action.from_json({"kind": "discard", "seat": 0, "tile": "0m"})
    assert malformed.value.code is Code.NO_SUCH_TILE and malformed.value.kind == "malformed"
    state, _ = new_hand("shanghai", {}, SHANGHAI.tile_set(), dealer=0, dice=(3, 4))
    other = (state.turn + 1) % 4
    with pytest.raises(IllegalAction) as illegal:
        apply(state, Action.from_json({"kind": "discard", "seat": other,
                                       "tile": state.seats[other].hand[0].notation}))
    assert illegal.value.code is Code.NOT_YOUR_TURN
    assert dict(illegal.value.params) == {"seat": state.turn}
    assert str(illegal.value) == f"it is seat {state.turn}'s turn, not yours"
    assert issubclass(Restricted, IllegalAction)
    # copied as exceptions are (pickle, a worker's answer): the same refusal
    for exc in (notation.value, illegal.value, TooDeep(), NumberTooLong(31)):
        copy = pickle.loads(pickle.dumps(exc))
        assert (type(copy), copy.refusal, str(copy)) == (type(exc), exc.refusal, str(exc))
    assert NumberTooLong(31).digits == pickle.loads(pickle.dumps(NumberTooLong(31))).digits


def test_a_rule_sets_own_refusal_brings_both_sentences_and_is_held_to_them() -> None:
    from engine.rules import RULESETS, RuleCode, Words
    own = RuleCode("own_refusal", Words("{tile} is not for {seat}", "{seat} 不能要 {tile}"))
    assert str(RuleError(own, tile=Tile.M5, seat=2)) == "5m is not for 2"
    assert pickle.loads(pickle.dumps(Refusal.of(own, tile=Tile.M5, seat=2))).code == own
    with pytest.raises(TypeError):  # its params are those its sentence names
        RuleError(own, tile=Tile.M5)
    with pytest.raises(ValueError):  # its two sentences name the same values
        RuleCode("own_refusal", Words("{tile}", "{seat}"))
    values = [c.value for r in RULESETS.values() for c in r.refusals]
    assert len(set(values)) == len(values) and not set(values) & {c.value for c in Code}
