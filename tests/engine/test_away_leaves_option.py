"""The `away_leaves` table option (逃跑 after the away timeouts): both rule sets have it,
off by default, and only true or false is accepted."""

from __future__ import annotations

import pytest

from engine.rules import RULESETS, get
from engine.rules.common import OptionError


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_away_leaves_is_off_by_default_and_can_be_set(rules: str) -> None:
    assert get(rules).options({}).away_leaves is False
    options = get(rules).options({"away_leaves": True, "away_after": 2})
    assert options.away_leaves is True and options.away_after == 2
    assert options.to_dict()["away_leaves"] is True


@pytest.mark.parametrize("rules", sorted(RULESETS))
@pytest.mark.parametrize("value", ["yes", 1, 0, None, "true"])
def test_a_bad_away_leaves_value_is_refused_clearly(rules: str, value: object) -> None:
    with pytest.raises(OptionError) as caught:
        get(rules).options({"away_leaves": value})
    assert str(caught.value) == f"option 'away_leaves' must be true or false, not {value!r}"
