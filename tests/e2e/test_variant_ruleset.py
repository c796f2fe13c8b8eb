"""A rule set is one module: this file is one. It defines a small variant, 鸡胡 Chicken
(any complete hand wins, on a discard too; its own pattern 平和 All Chows, whose value
it says in both languages; its own option ``all_chows``, what that pattern multiplies a
hand by; its own refusal, a robbed kong, with its sentence in both languages),
registers it, and plays
it through every layer: a hand in the engine, the calculator (`engine.score`), the
table service on both stores (SQLite, and PostgreSQL when there is one), and the real
bot on the fake Discord, whose ``/mahjong new`` offers the rule set and its option in
both languages, and where a hand is played and settled and its refusal said. Nothing
else in the code base names it: the command, its labels, the stored name, the pictures'
processes and the sentence of its refusal all come from the registered object.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

import pytest
from botkit import Driver, answer, channel_files, make_bot, make_world, open_table, quiet, slash
from fakediscord import BotLauncher, FakeDiscord

from bot.discord.core.refusals import explain, refusal_text
from bot.service import FakeClock, RecordingNotifier, TableService
from bot.store import Store
from engine import rules as rulesets
from engine.analysis import NO_WILDCARDS, GroupKind, HandAnalysis, ShapeRules
from engine.game import new_hand, stack_wall
from engine.melds import MeldKind
from engine.refusals import Code, Refusal
from engine.rules import OptionWords, RuleCode, RuleSet, Words
from engine.rules.common import (
    SEATS,
    Charge,
    Factor,
    FactorKind,
    Pattern,
    RuleError,
    Settlement,
    TableOptions,
    WinContext,
    WinKind,
    check_context,
    check_copies_in_play,
    check_hand_size,
)
from engine.score import score_case
from engine.selfplay import Tally, play_hand
from engine.tiles import Tile, parse_tiles
from tests.pgcluster import Server
from tests.service.helpers import ANN, CHANNEL, QUIET, W, World, by, stacked

# ---------------------------------------------------------------------------
# The rule set: everything the program needs to know of it


@dataclass(frozen=True)
class ChickenOptions(TableOptions):
    """Chicken table options: the common ones, and what 平和 multiplies a hand by."""

    all_chows: int = 2

    RANGES: ClassVar[dict[str, tuple[int, int]]] = {**TableOptions.RANGES, "all_chows": (1, 4)}


PATTERNS = {"ping_he": Pattern("ping_he", "平和", "All Chows", "× all_chows", "×平和倍数")}
NO_ROB = RuleCode("chicken_no_rob", Words(
    "Chicken has no 抢杠: nobody wins on the {tile} added to a kong",
    "鸡胡没有抢杠：不能胡别人加杠的{tile}"))
"""A refusal of its own, brought here with its sentence (no engine `Code` for it)."""
OPTION_WORDS = {"all_chows": OptionWords(
    Words("all_chows", "平和倍数"),
    Words("Chicken: what 平和 (all chows) multiplies a hand by (1–4, default 2)",
          "鸡胡：平和的倍数（1–4，默认 2）"),
    Words("平和 all chows: ×{value}", "平和倍数：×{value}"))}


class Chicken(RuleSet):
    """鸡胡: 136 tiles, no flowers, no wildcards; a hand is worth 1, or ``all_chows``
    when every set is a chow; the discarder pays a win on a discard, all three a
    self-draw; the dealer deals again after a draw or its own win."""

    __slots__ = ()

    name = "chicken"
    zh = "鸡胡"
    en = "Chicken"
    about = Words(
        "Chicken rules: 136 tiles, no flowers; any complete hand wins, on a discard too. "
        "A hand is worth 1, or the table's all_chows when every set is a chow (平和). A "
        "self-draw is paid by all three, a discard by the discarder.",
        "鸡胡：136 张牌，无花牌；任何和牌都能胡，也能胡别人打的牌。牌值为 1，全是顺子（平和）"
        "时为本桌的平和倍数。自摸三家各付，放冲由放冲者付。")
    unit = Words("points: hands' values", "积分：牌值")
    options_type = ChickenOptions
    option_words = OPTION_WORDS
    patterns = PATTERNS
    refusals = (NO_ROB,)
    shapes = ShapeRules()
    value_unit = "×"
    has_flowers = False
    multiple_winners = False
    rob_added_kong = False
    kong_burns = 0
    last_window_tiles = None
    passed_claims_bind = False

    def _score(self, ctx: WinContext, options: ChickenOptions) -> Settlement:
        judged = _judged(ctx, options)
        if isinstance(judged, Refusal):
            return Settlement.refused(judged)
        patterns, value = judged
        payers = [s for s in range(SEATS) if s != ctx.winner] \
            if ctx.win is WinKind.SELF_DRAW else [ctx.from_seat]
        payments = [Fraction(0)] * SEATS
        for seat in payers:
            assert seat is not None
            payments[seat] = Fraction(-value)
        payments[ctx.winner] = Fraction(value * len(payers))
        charges = tuple(Charge(s, (Factor(FactorKind.HAND, Fraction(value)),))
                        for s in payers if s is not None)
        lines = (*(f"{PATTERNS[p].label()}: ×{options.all_chows}" for p in patterns),
                 f"F = {value}")
        return Settlement(True, patterns, value, tuple(payments), None, lines, None, charges)

    def _win_value(self, ctx: WinContext, options: ChickenOptions) -> int | None:
        judged = _judged(ctx, options)
        return None if isinstance(judged, Refusal) else judged[1]

    def next_dealer(self, dealer: int, streak: int, winners: Sequence[int],
                    discarder: int | None) -> tuple[int, int]:
        if not winners or dealer in winners:
            return dealer, 1
        return (dealer + 1) % SEATS, 1


def _judged(ctx: WinContext, options: ChickenOptions) -> tuple[tuple[str, ...], int] | Refusal:
    """(the patterns, the value) of a win, or why it is refused."""
    try:
        check_context(ctx, flowers_allowed=False)
        if ctx.win_tile is None:
            raise RuleError(Code.NEEDS_WIN_TILE)
        if ctx.win is WinKind.ROB_KONG:
            raise RuleError(NO_ROB, tile=ctx.win_tile)
        check_hand_size(ctx)
        check_copies_in_play([*ctx.concealed, ctx.win_tile,
                              *(t for m in ctx.melds for t in m.tiles)], {})
    except RuleError as exc:
        return exc.refusal
    hand = HandAnalysis((*ctx.concealed, ctx.win_tile), ctx.melds, NO_WILDCARDS, SHAPES)
    readings = hand.readings()
    if not readings:
        return Refusal(Code.INCOMPLETE)
    chows = all(m.kind is MeldKind.CHI for m in ctx.melds) and any(
        all(g.kind is GroupKind.CHOW for g in r.melds) for r in readings)
    return (("ping_he",), options.all_chows) if chows else ((), 1)


SHAPES = ShapeRules()
CHICKEN = Chicken()

# The dealer (seat 0) is dealt four chows and a pair: a win at its first step.
ALL_CHOWS = {0: "123m456m789m123p55p", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    """Offered from now on, as a rule module registers itself; gone after the test."""
    rulesets.register(CHICKEN)
    yield
    rulesets.unregister(CHICKEN.name)


# ---------------------------------------------------------------------------
# The engine and the calculator


def test_the_engine_deals_and_plays_it_to_the_end() -> None:
    state, _ = new_hand("chicken", {"all_chows": 3}, stack_wall("chicken", ALL_CHOWS, 0),
                        dealer=0, dice=(3, 5))
    assert len(state.wall) == 136 and state.ruleset is CHICKEN
    for seed in range(3):  # computers on shuffled walls: every state checked
        wall = list(CHICKEN.tile_set())
        random.Random(seed).shuffle(wall)
        played, _ = new_hand("chicken", {}, tuple(wall), dealer=seed, dice=(2, 4))
        ended = play_hand(played, random.Random(seed), Tally())
        assert ended.result is not None and sum(ended.result.payments) == 0


def test_the_calculator_scores_its_pattern_under_its_option() -> None:
    case = {"rules": "chicken", "options": {"all_chows": 3}, "dealer": 0, "winner": 0,
            "win": "discard", "from": 2, "hand": "123m456m789m23p55p", "win_tile": "1p"}
    out = score_case(case)
    assert out["valid"] and out["patterns"] == ["ping_he"] and out["value"] == 3
    assert out["payments"] == [3, 0, -3, 0]
    pungs = score_case({**case, "hand": "111m456m789m23p55p"})
    assert pungs["valid"] and pungs["patterns"] == [] and pungs["value"] == 1
    bad = score_case({**case, "options": {"all_chows": 9}})
    assert not bad["valid"] and "between 1 and 4" in bad["reason"]
    assert not score_case({**case, "hand": "123m456m789m23p59p"})["valid"]
    robbed = score_case({**case, "win": "rob_kong"})
    assert robbed["reason"] == "Chicken has no 抢杠: nobody wins on the 1p added to a kong"


def test_its_own_refusal_is_said_in_both_languages_and_travels() -> None:
    settled = CHICKEN.score(WinContext(
        winner=0, dealer=0, win=WinKind.ROB_KONG,
        concealed=tuple(parse_tiles("123m456m789m23p55p")), win_tile=Tile.P1, from_seat=2))
    refusal = settled.reason
    assert refusal is not None and refusal.code is NO_ROB and dict(refusal.params) == {
        "tile": Tile.P1}
    assert pickle.loads(pickle.dumps(refusal)) == refusal  # to and from picture processes
    assert refusal_text("illegal", "", "en-US", {"refusal": refusal}) == (
        "That move isn't allowed: Chicken has no 抢杠: nobody wins on the One of Dots added "
        "to a kong.")
    assert explain(refusal, "zh-CN") == "鸡胡没有抢杠：不能胡别人加杠的一筒"
    with pytest.raises(TypeError):  # its sentence's values, no other
        RuleError(NO_ROB, seat=1)
    with pytest.raises(ValueError):  # a code another rule set (or the engine) has
        rulesets.register(type("Again", (Chicken,), {"name": "again"})())


# ---------------------------------------------------------------------------
# The service and the store


@pytest.fixture(params=["sqlite", "postgres"])
async def world(request: pytest.FixtureRequest, tmp_path: Path,
                monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[World]:
    """A service on a real SQLite file, or on a fresh PostgreSQL database, whose first
    hand deals the dealer four chows and a pair."""
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)
    url: str | None = None
    target: Path | str = tmp_path / "service.sqlite3"
    if request.param == "postgres":
        server: Server = request.getfixturevalue("pg_server")  # skips without PostgreSQL
        target = url = await server.database()
    store = await Store.open(target)
    clock, notes = FakeClock(), RecordingNotifier()
    try:
        yield World(store, clock, notes, TableService(
            store, notes, clock=clock, computer_pause=0.0, deal=stacked(ALL_CHOWS, "chicken")))
    finally:
        await store.close()
        if url is not None:
            await server.drop(url)


async def test_the_service_plays_settles_and_stores_it(world: World) -> None:
    table = await world.table(rules="chicken", options={"all_chows": 3})
    (row,) = await world.store.lobby.tables_in_channel(CHANNEL)
    assert row.rules == "chicken" and row.options == {"all_chows": 3}
    await world.service.act(by(ANN), table, W(0), step=1)
    (settled,) = world.notes.of("settlement")
    assert settled.totals[0] == Fraction(9)  # 3 from each of the three others
    board = await world.service.leaderboard(CHANNEL, "chicken")
    assert board.rules == "chicken"
    ann = next(r for r in board.rows if r.player_key == f"user:{ANN}")
    assert ann.points == Fraction(9) and ann.best_hand is not None
    assert ann.best_hand.rules == "chicken" and ann.best_hand.patterns == ("ping_he",)


# ---------------------------------------------------------------------------
# The bot on the fake Discord


async def test_discord_offers_it_and_a_hand_is_played_and_settled(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)
    world = make_world(fake, locales=["zh-CN"])
    bot = make_bot(tmp_path / "db.sqlite3", picture_processes=1,
                   service_options={"deal": stacked(ALL_CHOWS, "chicken")})
    await bots.start(bot)
    # pictures drawn in their processes, which learn the rule set from the bot as they start
    await bot.pictures.start()
    new = next(o for o in fake.commands()[0]["options"] if o["name"] == "new")
    rules = next(o for o in new["options"] if o["name"] == "rules")
    offered = {c["value"]: c for c in rules["choices"]}
    assert offered["chicken"]["name"] == "Chicken 鸡胡"
    assert offered["chicken"]["name_localizations"]["zh-CN"] == "鸡胡"
    option: dict[str, Any] = next(o for o in new["options"] if o["name"] == "all_chows")
    assert (option["min_value"], option["max_value"]) == (1, 4)
    assert option["name_localizations"]["zh-CN"] == "平和倍数"
    assert "Chicken" in rules["description"]
    summary = await (await slash(world, world.players[1], "rules", rules="chicken")).response()
    assert "Chicken rules" in (summary.content or "") and "×2" in (summary.content or "")
    assert "平和 All Chows (× all_chows)" in (summary.content or "")
    zh_summary = await (await slash(world, world.players[0], "rules", rules="chicken")).response()
    assert "平和（×平和倍数）" in (zh_summary.content or "")
    robbed = await answer(await slash(world, world.players[1], "score", rules="chicken",
                                      hand="123m456m789m23p55p", win_tile="1p",
                                      win="rob_kong"))
    assert "鸡胡没有抢杠" in robbed.content or "Chicken has no 抢杠" in robbed.content
    wrong = await (await slash(world, world.players[1], "new", rules="shanghai",
                               all_chows=3)).response()
    assert wrong.ephemeral and "all_chows" in (wrong.content or "")

    await open_table(world, rules="chicken", all_chows=3)
    driver = Driver(world)
    await driver.play_until(lambda: bool(channel_files(fake, world.channel, "leaderboard-")),
                            idle=lambda: quiet(bots))
    await quiet(bots)
    assert channel_files(fake, world.channel, "settlement-1-1.")
    said = "\n".join(m.content for m in fake.messages(world.channel))
    assert "Patterns: 平和 All Chows" in said and "Value: ×3" in said
    assert "Payments: p1 +9, p2 −3, p3 −3, p4 −3" in said
    assert "**Chicken leaderboard of this channel · points: hands' values**" in said
    assert bot.pictures.processes == 1 and bot.pictures.drawn["hands"] > 0  # none failed
    dealt = "\n".join(m.content for m in fake.dms(world.players[0]))
    assert "鸡胡" in dealt  # the player reads Chinese
    board = await answer(await slash(world, world.players[1], "leaderboard", rules="chicken"))
    assert "p1: +9" in board.content and not board.ephemeral
