"""The registry of rule sets (`engine.rules.register`): what it takes, what it refuses,
and that what is derived from it hears of each change."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

import pytest

from engine import rules as rulesets
from engine.rules import HANGZHOU, SHANGHAI, OptionWords, Words
from engine.rules.hangzhou import Hangzhou
from engine.rules.shanghai import Options as ShanghaiOptions
from engine.rules.shanghai import Shanghai


class Copy(Shanghai):
    """Shanghai under another name: a rule set of its own to the registry."""

    __slots__ = ()
    name = "copy_of_shanghai"


def test_registering_adds_after_the_others_and_unregistering_takes_away() -> None:
    heard: list[tuple[str, ...]] = []
    stop = rulesets.on_change(lambda: heard.append(tuple(rulesets.RULESETS)))
    before = rulesets.generation()
    try:
        copy = rulesets.register(Copy())
        assert list(rulesets.RULESETS) == ["shanghai", "hangzhou", "copy_of_shanghai"]
        assert rulesets.get("copy_of_shanghai") is copy
        assert rulesets.register(Copy()) is copy  # again: nothing changes
        assert rulesets.registered()[-1] is copy and rulesets.generation() == before + 1
    finally:
        rulesets.unregister("copy_of_shanghai")
        stop()
    assert list(rulesets.RULESETS) == ["shanghai", "hangzhou"]
    assert heard[-2:] == [("shanghai", "hangzhou", "copy_of_shanghai"),
                          ("shanghai", "hangzhou")]
    rulesets.unregister("copy_of_shanghai")  # gone already: nothing changes
    assert rulesets.generation() == before + 2


def test_a_name_taken_or_unfit_is_refused() -> None:
    class Other(Hangzhou):
        __slots__ = ()
        name = "shanghai"

    class Shouting(Hangzhou):
        __slots__ = ()
        name = "Shanghai Rules"

    with pytest.raises(ValueError, match="another rule set"):
        rulesets.register(Other())
    with pytest.raises(ValueError, match="lower case"):
        rulesets.register(Shouting())
    assert rulesets.get("shanghai") is SHANGHAI and rulesets.get("hangzhou") is HANGZHOU


@dataclass(frozen=True)
class _Options(ShanghaiOptions):
    colour: str = "red"

    CHOICES: ClassVar[dict[str, tuple[object, ...]]] = {"colour": ("red", "blue")}


def _with(words: dict[str, OptionWords]) -> Shanghai:
    class Coloured(Shanghai):
        __slots__ = ()
        name = "coloured"
        options_type = _Options
        option_words = words

    return Coloured()


def test_an_option_without_its_words_is_refused() -> None:
    colour = OptionWords(Words("colour", "颜色"), Words("Colour", "颜色"),
                         Words("Colour: {value}", "颜色：{value}"),
                         choices={"red": Words("Red", "红"), "blue": Words("Blue", "蓝")})
    known = dict(SHANGHAI.option_words)
    try:
        for words, refusal in (
                (known, "says nothing of its option 'colour'"),
                ({**known, "colour": replace(colour, line=Words("Colour", "颜色"))}, "{value}"),
                ({**known, "colour": replace(colour, choices={})}, "without a name")):
            with pytest.raises(ValueError, match=refusal):
                rulesets.register(_with(words))
            assert "coloured" not in rulesets.RULESETS
        assert rulesets.register(_with({**known, "colour": colour})).own_options()[-1] == "colour"
    finally:
        rulesets.unregister("coloured")
