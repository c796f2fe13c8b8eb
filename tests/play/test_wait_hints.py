"""听 hints name only tiles the player could win on, with the win's value: the discard
menu, the DM text and the picture ask the rule set (`engine.game.prospect`), as the win
button and the calculator do, never the hand's shape alone (issue 28, point 3)."""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from engine import rules
from engine.ai import choose_action
from engine.analysis import HandAnalysis
from engine.game import Action, ActionKind, apply, deciding_seats, legal_actions, new_hand
from engine.game.legal import remembered_self_draw
from engine.game.prospect import Wait
from engine.game.settle import judge
from engine.game.state import HandState, Phase, replace
from engine.melds import MeldKind
from engine.rules.common import SEATS, WinContext, WinKind, make_meld
from engine.score import score_case
from engine.tiles import Tile, format_tiles
from engine.view import view
from tests.game.helpers import PASS, QUIET, D, play, start, tiles, window_of
from tests.game.test_hangzhou_play import SCENE_LOU_HU

NAMES = ["Ann", "Bob", "Cy", "Di"]


def _shanghai_melded(concealed: str) -> HandState:
    """Ann (the dealer, on turn) shows pong 888p, chi 567p, pong 333z and holds
    ``concealed`` (five tiles)."""
    state, _ = start("shanghai", {0: QUIET[0] + "9s", 1: QUIET[1], 2: QUIET[2],
                                  3: QUIET[3]})
    melds = (make_meld(MeldKind.PONG, tiles("888p"), 1),
             make_meld(MeldKind.CHI, tiles("567p"), 3),
             make_meld(MeldKind.PONG, tiles("333z"), 2))
    state = state.with_seat(0, hand=tiles(concealed), melds=melds)
    claims = ((0, 1, 1, 1), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
    return replace(state, first_go_round=False, claims=claims)


def _menu(state: HandState, locale: str) -> dict[str, str]:
    from bot.discord.play.moves import discard_options
    return {o.value: o.description or "" for o in discard_options(view(state, 0), locale)}


def _dm(state: HandState, locale: str) -> str:
    from bot.discord.play.words import dm_text
    return dm_text(view(state, 0), table_id=1, names=NAMES, locale=locale)


def test_a_plain_shanghai_hand_is_told_no_wait_the_calculator_refuses() -> None:
    # 4p 7p 555s: discarding 4p leaves 7p 555s, which 7p completes, but as a plain
    # hand (a chi, two suits and honours): Shanghai refuses that win.
    state = _shanghai_melded("47p555s")
    for locale in ("en", "zh-CN"):
        menu = _menu(state, locale)
        assert "听" not in menu["4p"] and "听" not in menu["7p"], menu
    state, _ = apply(state, D(0, "4p"))
    assert not view(state, 0).waits
    assert "waiting on" not in _dm(state, "en") and "听牌" not in _dm(state, "zh-CN")


def test_a_shanghai_hand_that_can_win_is_told_its_waits_and_their_value() -> None:
    # 4p 7p 555p: 888p 567p 333z with dots only and a wind is 混一色, worth 2 花
    # (the stake and the pong of West). Discarding 4p waits on 6p and 7p.
    state = _shanghai_melded("47p555p")
    menu = _menu(state, "en")
    assert menu["4p"] == "听 waits: Dots 6 7 (2 花)", menu
    assert _menu(state, "zh-CN")["7p"].endswith("听：三四六筒（2 花）")
    state, _ = apply(state, D(0, "4p"))
    assert [(w.tile, w.self_draw, w.discard) for w in view(state, 0).waits] == \
        [(Tile.P6, 2, 2), (Tile.P7, 2, 2)]
    assert "听 Ready, waiting on: Dots 6 7 (2 花)" in _dm(state, "en")
    assert "听牌：六七筒（2 花）" in _dm(state, "zh-CN")


# ---------------------------------------------------------------------------
# Every wait shown, over seeded self-play: the tile put in, as it would arrive, is a win
# the win button offers and the calculator accepts, worth the value shown.


def _states(rules_name: str, options: dict[str, Any], seed: int, hands: int
            ) -> Iterator[HandState]:
    """Every state of ``hands`` seeded hands played by computer players (a match's
    dealers and streaks, so Hangzhou's 放铳 at streak 3 comes up)."""
    rng = random.Random(seed)
    ruleset = rules.get(rules_name)
    streak, dealer = 1, rng.randrange(4)
    for _ in range(hands):
        wall = ruleset.tile_set()
        rng.shuffle(wall)
        state, _ = new_hand(rules_name, options, tuple(wall), dealer, (3, 4),
                            streak=min(streak, ruleset.max_streak),
                            huangfan=rng.random() < 0.3 and ruleset.has_huangfan)
        yield state
        while state.phase is not Phase.ENDED:
            state, _ = apply(state, choose_action(state, deciding_seats(state)[0], rng))
            yield state
        assert state.result is not None
        winners = tuple(r.winner for r in state.result.wins)
        discarder = state.result.wins[0].from_seat if winners else None
        dealer, streak = ruleset.next_dealer(dealer, streak, winners, discarder)


def _case(state: HandState, ctx: WinContext) -> dict[str, Any]:
    """The calculator's case for a win the engine judged (shared/cases/README.md)."""
    options = state.options.to_dict()
    if ctx.flipped is not None:
        options["flipped"] = ctx.flipped.notation
    case: dict[str, Any] = {
        "name": "wait", "rules": state.rules, "options": options, "dealer": ctx.dealer,
        "streak": ctx.streak, "huangfan": ctx.huangfan, "winner": ctx.winner,
        "win": ctx.win.value, "hand": format_tiles(ctx.concealed).replace(" ", ""),
        "melds": [{"type": m.kind.value, "tiles": format_tiles(m.tiles).replace(" ", ""),
                   **({"from": m.from_seat} if m.from_seat is not None else {})}
                  for m in ctx.melds],
        "flowers": format_tiles(ctx.flowers).replace(" ", ""),
        "first_go_round": ctx.first_go_round,
        "chain": "".join(step.value for step in ctx.chain),
        "claims": [list(row) for row in ctx.claims]}
    if ctx.win_tile is not None:
        case["win_tile"] = ctx.win_tile.notation
    if ctx.from_seat is not None:
        case["from"] = ctx.from_seat
    if ctx.replacement is not None:
        case["replacement"] = ctx.replacement.value
    if state.rules == "shanghai":
        del case["streak"], case["chain"]
    else:
        del case["huangfan"], case["flowers"]
    return case


def _offered_win(state: HandState, seat: int) -> int | None:
    """The value of the win ``seat`` is offered now (None: no win offered), as its win
    button shows it (`engine.view`), held to the calculator's judgement of that win."""
    if Action(ActionKind.WIN, seat) not in legal_actions(state, seat):
        return None
    record = remembered_self_draw(state, seat) if state.phase is Phase.TURN else judge(
        state, seat, WinKind.DISCARD, window_of(state).tile, window_of(state).from_seat)
    assert record is not None and record.settlement.valid
    scored = score_case(_case(state, record.context))
    assert scored["valid"] and scored["value"] == record.settlement.value, scored
    return record.settlement.value


def _given(state: HandState, seat: int, tile: Tile) -> HandState:
    """``seat`` (on turn) holding ``tile`` as the tile it just drew, in place of the
    one it drew (or of its last tile): the tile it will discard."""
    s = state.seats[seat]
    hand = list(s.hand)
    hand.remove(s.drawn if s.drawn is not None else hand[-1])
    return state.with_seat(seat, hand=tuple(sorted((*hand, tile))), drawn=tile)


class _Unknowable(Exception):
    """What follows depends on what the seat cannot know."""


def _arrival(state: HandState, seat: int, tile: Tile, discarder: int | None,
             filler: Tile) -> HandState | None:
    """Play ``state`` on without a claim until ``tile`` arrives to ``seat``: by its own
    next draw (``discarder`` None), or as ``discarder``'s discard. Every seat drawing
    before draws ``filler`` and discards it; every claim is passed. None when the hand
    ends first."""
    target = seat if discarder is None else discarder
    window = state.window
    if window is not None and any(answer is not None and answer.kind is not ActionKind.PASS
                                  for asked, answer in enumerate(window.answers)
                                  if asked != seat):
        raise _Unknowable  # another seat's claim or win, chosen already, stands
    actor = state.turn if window is None else window.from_seat
    to_discard = state.phase is not Phase.CLAIM
    if discarder == actor and not to_discard:
        return None  # its discard being answered now is the win button's (not a wait's)
    drawers = [(actor + k) % SEATS for k in range(1, SEATS + 1)]
    drawers = drawers[:drawers.index(seat) + 1]
    wall = list(state.wall)
    if state.phase is Phase.ROB_KONG:  # the added kong's replacement comes first
        wall[len(wall) - 1 - state.back] = filler
    for i, drawer in enumerate(drawers):
        if state.front + i < len(wall) - state.back:
            wall[state.front + i] = tile if drawer == target and \
                not (to_discard and drawer == actor) else filler
    state = replace(state, wall=tuple(wall))
    while True:
        if state.phase is Phase.ENDED:
            return None
        if state.phase is not Phase.TURN:
            if discarder is not None and window_of(state).from_seat == discarder and \
                    state.phase is Phase.CLAIM:
                return state
            for asked in deciding_seats(state):
                state, _ = apply(state, Action(ActionKind.PASS, asked))
            continue
        on_turn = state.turn
        if on_turn == seat:
            return state if discarder is None else None
        given = tile if on_turn == discarder else filler
        if state.seats[on_turn].drawn != given:
            state = _given(state, on_turn, given)
        state, _ = apply(state, Action(ActionKind.DISCARD, on_turn, given))
        if on_turn == discarder and (state.phase is not Phase.CLAIM or
                                     window_of(state).from_seat != discarder):
            return None  # nobody may claim it: the seat is not asked to win on it


def _filler(state: HandState, seat: int, hand: tuple[Tile, ...]) -> Tile | None:
    """A tile the seat holding ``hand`` cannot win on, no 财神 and no stand-in."""
    s = state.seats[seat]
    shape = HandAnalysis(hand, s.melds, state.wildcards, state.ruleset.shapes).waits()
    wild = state.wildcards
    for tile in Tile:
        if tile.is_flower or tile in shape or wild.plays_as(tile) is not tile:
            continue
        return tile
    return None


def _check(state: HandState, seat: int, waits: tuple[Wait, ...], hand: tuple[Tile, ...],
           tally: Counter[str], rng: random.Random) -> None:
    """Each wait (or, of many, a seeded few), put in as it would arrive, is offered and
    valued as shown."""
    filler = _filler(state, seat, hand)
    if filler is None:
        tally["no filler"] += 1
        return
    try:
        _arrival(state, seat, waits[0].tile, None, filler)
    except _Unknowable:
        tally["unknowable"] += 1
        return
    for wait in waits if len(waits) <= SAMPLED else rng.sample(waits, SAMPLED):
        drawn = _arrival(state, seat, wait.tile, None, filler)
        got = None if drawn is None else _offered_win(drawn, seat)
        assert got == wait.self_draw, (wait, got, "self-draw")
        tally["self-draw"] += got is not None
        values = set()
        for discarder in range(SEATS):
            if discarder == seat:
                continue
            given = _arrival(state, seat, wait.tile, discarder, filler)
            if given is not None:
                value = _offered_win(given, seat)
                if value is not None:
                    values.add(value)
        assert max(values, default=None) == wait.discard, (wait, values, "discard")
        tally["discard"] += bool(values)


SAMPLED = 2
"""Waits checked of one hint at most (a 暴头 hand waits on every tile)."""


@pytest.mark.parametrize(("rules_name", "options", "seed", "hands"), [
    ("shanghai", {}, 7, 8),
    ("hangzhou", {}, 8, 6),
    ("hangzhou", {"caishen": "flip", "discard_win_streak": 1}, 9, 6)])
def test_every_wait_shown_is_a_win_the_engine_and_the_calculator_accept(
        rules_name: str, options: dict[str, Any], seed: int, hands: int) -> None:
    # Every seat of every state of seeded self-played hands (about 1,500 states in
    # all; MAHJONG_WAIT_HANDS=N plays N hands of each instead): each wait its view
    # shows, and each wait every discard of its menu would leave, is put in as it would
    # next arrive: the win button offers the win at the value shown, and the calculator
    # scores the same win the same.
    hands = int(os.environ.get("MAHJONG_WAIT_HANDS", hands))
    rng = random.Random(seed)
    tally: Counter[str] = Counter()
    for state in _states(rules_name, options, seed, hands):
        if state.phase is Phase.ENDED:
            continue
        tally["states"] += 1
        for seat in range(SEATS):
            mine = view(state, seat)
            if mine.waits:
                tally["seats told waits"] += 1
                _check(state, seat, mine.waits, mine.hand, tally, rng)
            for move in mine.moves:
                if move.waits:
                    assert move.action.tile is not None
                    tally["discards told waits"] += 1
                    after, _ = apply(state, move.action)
                    if after.phase is not Phase.ENDED:
                        rest = list(mine.hand)
                        rest.remove(move.action.tile)
                        _check(after, seat, move.waits, tuple(rest), tally, rng)
    assert tally["states"] > 250 and tally["self-draw"] > 50, tally
    assert tally["discard"] > 20 or (rules_name == "hangzhou" and not options), tally


def test_a_passed_win_leaves_its_tile_a_self_draw_only_until_the_next_draw() -> None:
    # Hangzhou, the dealer's streak at 3: the dealer (seat 0) waits on 3m, which it may
    # win on a discard too (and on the 财神 5z, by self-draw only). Asked on seat 1's
    # 3m, its waits say what a pass leaves: 3m by self-draw only (漏胡) until its own
    # next draw.
    caishen = Wait(Tile.WHITE, 1, None)
    state, _ = start("hangzhou", SCENE_LOU_HU, streak=3, draws="2z3z3m5s3m")
    menu = {m.action.tile: m.waits for m in view(state, 0).moves}
    assert menu[Tile.RED] == (Wait(Tile.M3, 1, 1), caishen)
    state = play(state, D(0, "7z"))
    assert view(state, 0).waits == (Wait(Tile.M3, 1, 1), caishen)
    state = play(state, D(1, "3m"))
    assert view(state, 0).waits == (Wait(Tile.M3, 1, None), caishen)
    state = play(state, PASS(0))
    assert "听牌：三万 白板（财神）（只能自摸，×1）" in _dm(state, "zh-CN")
    assert "Three of Characters, White Dragon (财神) (self-draw only, ×1)" in _dm(state, "en")
    state = play(state, D(2, "3z"), D(3, "3m"), PASS(0))  # the dealer draws 5s
    state = play(state, D(0, "5s"))
    assert view(state, 0).waits == (Wait(Tile.M3, 1, 1), caishen)


def test_a_discarded_caishen_is_never_a_wait_on_a_discard() -> None:
    # Hangzhou, the dealer at a streak of 3: each of the nine kinds wins on anyone's
    # discard too, but the 财神 (5z) only by self-draw (a discarded 财神 is never claimed).
    state, _ = start("hangzhou", {0: "1112345678999m1z", 1: QUIET[1], 2: QUIET[2],
                                  3: QUIET[3]}, streak=3)
    east = next(m for m in view(state, 0).moves if m.action.tile is Tile.EAST)
    assert east.waits == (*(Wait(t, 1, 1) for t in tiles("123456789m")),
                          Wait(Tile.WHITE, 1, None))
    assert _menu(state, "en")["1z"].endswith(
        "听 waits: Characters 1 2 3 4 5 6 7 8 9 (×1); White Dragon (财神) (self-draw only, ×1)")
