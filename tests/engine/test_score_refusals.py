"""Impossible input is refused with a reason and never scored; the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rules import SHANGHAI, get
from engine.rules.common import OptionError
from engine.rules.hangzhou import tan_limit
from engine.score import main, score_case
from tests.conftest import ROOT
from tests.engine.helpers import case, hz, refused, sh

FLUSH = "1112345678999m"


@pytest.mark.parametrize(("fields", "words"), [
    ({"hand": "1111234567899m", "win_tile": "1m"}, ["5 copies", "1m"]),
    ({"hand": "111234567899m"}, ["13 tiles", "not 12"]),
    ({"winner": 4}, ["winner", "0–3"]),
    ({"dealer": -1}, ["dealer"]),
    ({"from": 2}, ["self-draw has no 'from'"]),
    ({"win": "discard"}, ["needs 'from'"]),
    ({"win": "discard", "from": 1}, ["own tile"]),
    ({"win": "tsumo"}, ["'win' must be one of"]),
    ({"hand": "0m"}, ["no tile 0m"]),
    ({"hand": "123m45"}, ["without a suit letter"]),
    ({"win_tile": "8z"}, ["no tile 8z"]),
    ({"rules": "tokyo"}, ["unknown rules"]),
    ({"colour": "red"}, ["unknown field 'colour'"]),
    ({"options": {"la_cap": 0}}, ["la_cap", "between"]),
    ({"options": {"bogus": 1}}, ["unknown option 'bogus'"]),
    ({"replacement": "kong", "win": "discard", "from": 0}, ["replacement", "self-draw"]),
    ({"claims": [[0, 0], [0, 0]]}, ["4×4"]),
    ({"claims": [[1, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]}, ["own discards"]),
    ({"chain": "PX"}, ["chain"]),
    ({"streak": 2}, ["hangzhou fields"]),
    ({"hand": "1112345678999m", "win_tile": "1f"}, ["flower"]),
    ({"replacement": "kong"}, ["replacement", "kong"]),
    ({"replacement": "flower"}, ["replacement", "flower"]),
    ({"flowers": "12345678f"}, ["八花", "win_tile"]),
])
def test_shanghai_refusals(fields: dict[str, Any], words: list[str]) -> None:
    data = case("shanghai", FLUSH, "5m")
    data.update(fields)
    assert refused(score_case(data), *words), score_case(data)


NONE = [0] * 4
CHIS = [{"type": "chi", "tiles": t, "from": 0} for t in ("123m", "456m", "789m")]


@pytest.mark.parametrize(("fields", "words"), [
    # 摊: two on one player, a third only between the dealer (seat 0) and another
    # player while the dealer's streak is 3
    ({"streak": 3, "claims": [NONE, NONE, [0, 0, 0, 3], NONE]},
     ["claims[2][3]", "at most 2"]),
    ({"winner": 2, "streak": 2, "claims": [NONE, [3, 0, 0, 0], NONE, NONE]},
     ["claims[1][0]", "at most 2"]),
    ({"streak": 3, "claims": [[0, 4, 0, 0], NONE, NONE, NONE]}, ["claims[0][1]", "at most 3"]),
    # the chain: each 飘 a 财神 its winner discarded, each 杠 a kong the winner shows
    ({"hand": "123456m789p111s5z", "win_tile": "7s", "chain": "PPPP"}, ["5 copies", "5z"]),
    ({"hand": "123456m789p111s5z", "win_tile": "7s", "chain": "PPP",
      "options": {"caishen": "flip", "flipped": "5z"}}, ["4 copies", "5z", "only 3"]),
    ({"chain": "KK"}, ["chain", "kong"]),
    ({"melds": [{"type": "concealed_kong", "tiles": "2222s"}], "hand": "123m456p789s1z",
      "chain": "KPK"}, ["chain", "kong"]),
    ({"replacement": "kong"}, ["replacement", "kong"]),
    # without liability nobody chis more than twice
    ({"streak": 3, "options": {"liability": False}, "melds": CHIS, "hand": "123p1z"},
     ["chi", "2"]),
])
def test_hangzhou_refusals(fields: dict[str, Any], words: list[str]) -> None:
    data = case("hangzhou", "123m456p234789s1z", "1z")
    data.update(fields)
    assert refused(score_case(data), *words), score_case(data)


def test_hangzhou_claims_within_the_limits_are_scored() -> None:
    third = [NONE, [3, 0, 0, 0], NONE, NONE]  # the dealer's streak at 3: allowed
    assert hz("456p1z", "1z", streak=3, claims=third, melds=CHIS)["valid"]
    kongs = [{"type": "concealed_kong", "tiles": "2222s"}, {"type": "kong", "tiles": "9999p",
                                                             "from": 2}]
    assert hz("456p789s1z", "1z", melds=kongs, chain="KPK", replacement="kong")["valid"]
    assert hz("456p1z", "1z", streak=3, options={"liability": False},
              melds=[*CHIS[:2], {"type": "pong", "tiles": "111s", "from": 2}])["valid"]


@pytest.mark.parametrize(("melds", "words"), [
    ([{"type": "chi", "tiles": "124m", "from": 0}], ["not a chi"]),
    ([{"type": "pong", "tiles": "112m", "from": 0}], ["not a pong"]),
    ([{"type": "kong", "tiles": "111m", "from": 0}], ["4 tiles"]),
    ([{"type": "chi", "tiles": "123m", "from": 2}], ["upper player"]),
    ([{"type": "pong", "tiles": "111z"}], ["needs 'from'"]),
    ([{"type": "concealed_kong", "tiles": "1111z", "from": 0}], ["drop its 'from'"]),
    ([{"type": "pong", "tiles": "111z", "from": 1}], ["own discard"]),
    ([{"type": "pung", "tiles": "111z", "from": 0}], ["meld type"]),
])
def test_meld_refusals(melds: list[Any], words: list[str]) -> None:
    result = sh("2345678999m", "5m", melds=melds)
    assert refused(result, *words), result


def test_claims_must_cover_the_winners_own_melds() -> None:
    melds = [{"type": "pong", "tiles": "111z", "from": 0}]
    assert refused(sh("2345678999m", "5m", melds=melds, claims=[[0] * 4] * 4), "claims[1][0]")


def test_the_winners_claims_are_no_more_than_its_melds_show() -> None:
    # Each claim is a meld that stays in sight (a pong stays one when added to), so the
    # winner's row says exactly what its melds say: no 承包 / 吃三口包 out of thin air.
    one_pong = [{"type": "pong", "tiles": "111z", "from": 0}]
    claims = [[0] * 4, [2, 0, 0, 0], [0] * 4, [0] * 4]
    assert refused(sh("2345678999m", "5m", melds=one_pong, claims=claims),
                   "claims[1][0] is 2", "shows 1 meld(s) claimed from seat 0")
    claims = [[0] * 4, [3, 0, 0, 0], [0] * 4, [0] * 4]
    assert refused(sh(FLUSH, "5m", claims=claims), "claims[1][0] is 3", "shows 0 meld(s)")
    assert refused(hz("123m456p234789s1z", "1z", streak=3, claims=claims), "claims[1][0]")
    added = [{"type": "added_kong", "tiles": "1111z", "from": 0}]
    claims = [[0] * 4, [1, 0, 0, 0], [0] * 4, [0] * 4]
    assert sh("2345678999m", "5m", melds=added, claims=claims)["valid"]


def test_nobody_makes_more_than_four_claims_in_a_hand() -> None:
    claims = [[0] * 4, [0] * 4, [2, 2, 0, 1], [0] * 4]
    assert refused(sh(FLUSH, "5m", claims=claims), "claims[2] adds up to 5", "at most 4")
    assert refused(hz("123m456p234789s1z", "1z", claims=claims), "claims[2] adds up to 5")
    claims = [[0] * 4, [0] * 4, [2, 2, 0, 0], [0] * 4]
    assert sh(FLUSH, "5m", claims=claims)["valid"]


def test_first_go_round_cannot_follow_a_claim() -> None:
    melds = [{"type": "pong", "tiles": "111z", "from": 0}]
    assert refused(sh("2345678999m", "5m", melds=melds, first_go_round=True), "first_go_round")


def test_options_validate_through_the_registry() -> None:
    assert SHANGHAI.options({"hands": 4}).hands == 4
    with pytest.raises(OptionError, match="unknown option 'caishen'"):
        get("shanghai").options({"caishen": "fixed"})
    with pytest.raises(OptionError, match="turn_timer"):
        get("hangzhou").options({"turn_timer": 1})
    with pytest.raises(OptionError, match="unknown rules"):
        get("sichuan")


_SEAT = st.integers(0, 3)
_CLAIMS = st.lists(st.lists(st.integers(0, 4), min_size=4, max_size=4), min_size=4, max_size=4)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(winner=_SEAT, dealer=_SEAT, discarder=_SEAT, claims=_CLAIMS,
       win=st.sampled_from(["self_draw", "discard", "rob_kong"]),
       rules=st.sampled_from(["shanghai", "hangzhou"]), streak=st.integers(1, 3),
       liability=st.booleans())
def test_payments_always_sum_to_zero(winner: int, dealer: int, discarder: int,
                                     claims: list[list[int]], win: str, rules: str, streak: int,
                                     liability: bool) -> None:
    # Claims that can be: none on one's own discards, at most four a player (each a
    # meld), and none by the winner, whose hand here shows no melds.
    for i in range(4):
        claims[i][i] = 0
        while sum(claims[i]) > 4:
            claims[i][claims[i].index(max(claims[i]))] -= 1
    claims[winner] = [0] * 4
    fields: dict[str, Any] = {"winner": winner, "dealer": dealer, "win": win, "claims": claims}
    if win != "self_draw":
        fields["from"] = discarder
    if rules == "hangzhou":  # 摊 past their limit cannot be (refused, tested above)
        fields["claims"] = [[min(n, tan_limit(a, b, dealer, streak)) for b, n in enumerate(row)]
                            for a, row in enumerate(claims)]
        fields.update(streak=streak, options={"liability": liability, "discard_win_streak": 1})
        result = hz("123456m789p111s5z", "7s" if win == "self_draw" else "1s", **fields)
    else:
        result = sh(FLUSH, "5m", **fields)
    if result["valid"]:
        assert sum(result["payments"]) == 0
        assert result["payments"][winner] > 0
        assert all(p <= 0 for s, p in enumerate(result["payments"]) if s != winner)
    else:
        assert result["reason"]


def test_cli_reads_standard_input_and_a_single_object() -> None:
    data = json.dumps(case("shanghai", FLUSH, "5m"))
    out = subprocess.run([sys.executable, "-m", "engine.score", "-"], input=data, cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert json.loads(out)["payments"] == [-20, 60, -20, -20]


def test_cli_refuses_unreadable_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert main([str(bad)]) == 2
    assert "cannot read cases" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.json")]) == 2
    assert main([]) == 2


def test_cli_keeps_going_after_a_bad_case(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cases.json"
    path.write_text(json.dumps([42, case("shanghai", FLUSH, "5m")]), encoding="utf-8")
    assert main([str(path)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0]["valid"] is False and "JSON object" in lines[0]["reason"]
    assert lines[1]["valid"] is True
