"""The ``mentions`` table option: chosen in ``/mahjong new``, validated with the rule
set's options, shown by ``/mahjong rules`` in English and 简体中文."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.discord.lobby.options import choices_kwargs, specs
from bot.discord.rules import rules_summary
from engine.rules import RULESETS, OptionError
from tests.discord.fakes import FakeService, interaction
from tests.discord.test_discord_commands import run


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_both_rule_sets_take_it_and_refuse_other_values(rules: str) -> None:
    ruleset = RULESETS[rules]
    assert ruleset.options({}).mentions == "when_needed"
    assert ruleset.options({"mentions": "every_turn"}).mentions == "every_turn"
    with pytest.raises(OptionError, match="'mentions' must be one of 'when_needed', "
                                          "'every_turn', not 'always'"):
        ruleset.options({"mentions": "always"})


def test_new_offers_both_choices_the_default_marked() -> None:
    assert specs()["mentions"].rules == frozenset(RULESETS)
    values = [c.value for c in choices_kwargs()["mentions"]]
    assert values == ["when_needed", "every_turn"]
    when_needed = specs()["mentions"].choices[0]
    assert when_needed.name("en-US").endswith("(default)")
    assert when_needed.name("zh-CN").endswith("（默认）")


async def test_new_passes_it_to_the_service() -> None:
    service = FakeService({"create_table": SimpleNamespace(ref=SimpleNamespace(table_id=1))})
    await run("new", interaction(service), rules="shanghai", mentions="every_turn")
    assert service.last("create_table")[1]["options"] == {"mentions": "every_turn"}


def test_rules_shows_it_in_both_languages() -> None:
    assert "Channel mentions: only when needed (closed DMs, half-time reminders)" in \
        rules_summary("hangzhou", None, "en-US")
    assert "Channel mentions: every turn" in \
        rules_summary("shanghai", {"mentions": "every_turn"}, "en-US")
    assert "频道 @ 提醒：每次轮到" in rules_summary("shanghai", {"mentions": "every_turn"},
                                                "zh-CN")
