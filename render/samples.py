"""Deterministic sample views built by hand, for the gallery, the tests and the bench.

Each sample is what the engine would hand the pictures at some moment of a game; they
are plausible rather than replays (tile counts are not checked against one wall).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from functools import partial

from engine.game.prospect import Wait
from engine.melds import MeldKind
from engine.tiles import Tile, parse_tiles
from engine.view import (
    DiscardView,
    MeldView,
    PatternView,
    PlayerView,
    ResultView,
    SeatView,
    SettlementView,
    TableView,
    seat_wind,
)
from render.cards import LeaderboardRow
from render.stats import Figure, Section, StatsCard

NAMES = ("Alice", "小波", "陈伟 Chen Wei", "Dmitri_the_Long_Named_Player")
K = MeldKind


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tiles(text, max_copies=False))


def meld(kind: MeldKind, text: str, from_seat: int | None = None,
         claimed: str | None = None) -> MeldView:
    return MeldView(kind, tiles(text), from_seat, tiles(claimed)[0] if claimed else None)


def seat(n: int, dealer: int, count: int, *, drawn: bool = False,
         discards: tuple[DiscardView, ...] = (), melds: tuple[MeldView, ...] = (),
         flowers: str = "") -> SeatView:
    return SeatView(n, seat_wind(n, dealer), n == dealer, count, drawn, discards, melds,
                    tiles(flowers) if flowers else ())


def table(seats: tuple[SeatView, ...], *, rules: str = "shanghai", dealer: int = 0,
          turn: int = 0, deciding: tuple[int, ...] = (0,), caishen: Tile | None = None,
          turned: Tile | None = None, **kw: object) -> TableView:
    args: dict[str, object] = dict(
        rules=rules, hand_number=3, dealer=dealer, streak=1, huangfan=False, dice=(3, 5),
        wall_left=62, caishen=caishen, turned=turned, seats=seats, phase="turn",
        turn=turn, deciding=deciding)
    args.update(kw)
    return TableView(**args)  # type: ignore[arg-type]  # a sample: any field may be overridden


def _quiet_seats(me: SeatView, dealer: int = 0) -> tuple[SeatView, ...]:
    """Me plus three opponents with a few discards each."""
    rivers = ("19m5z", "7p1z", "3s")
    others = [seat(s, dealer, 13, discards=tuple(DiscardView(t) for t in tiles(rivers[i])))
              for i, s in enumerate(x for x in range(4) if x != me.seat)]
    out = [*others]
    out.insert(me.seat, me)
    return tuple(out)


def player(concealed: str, drawn: str | None, *, melds: tuple[MeldView, ...] = (),
           flowers: str = "", rules: str = "shanghai", caishen: Tile | None = None,
           turned: Tile | None = None, waits: str = "", suggested: str | None = None,
           seat_no: int = 0, dealer: int = 0) -> PlayerView:
    hand = tiles(concealed) if concealed else ()
    me = seat(seat_no, dealer, len(hand) + (drawn is not None), drawn=drawn is not None,
              melds=melds, flowers=flowers, discards=tuple(DiscardView(t) for t in tiles("9p2s")))
    view = table(_quiet_seats(me, dealer), rules=rules, caishen=caishen, turned=turned,
                 turn=seat_no, deciding=(seat_no,))
    return PlayerView(view, seat_no, tuple(sorted(hand)), tiles(drawn)[0] if drawn else None,
                      (), tuple(Wait(t, 1, 1) for t in sorted(set(tiles(waits)))) if waits
                      else (), 1,
                      tiles(suggested)[0] if suggested else None)


# --- hands ------------------------------------------------------------------------

MELD_SET = (
    meld(K.CHI, "345m", 3, "4m"),          # from the upper player: claimed tile left
    meld(K.PONG, "777p", 2, "7p"),         # from opposite: middle
    meld(K.KONG, "2222s", 1, "2s"),        # from the lower player: right
    meld(K.ADDED_KONG, "6666z", 2, "6z"),  # added to a pong from opposite: stacked
)


def hand_14() -> PlayerView:
    """Thirteen tiles and a drawn one, one discard from ready, with waits and a hint."""
    return player("123m456p789s1235z", "5z", waits="", suggested="1z")


def hand_ready() -> PlayerView:
    """A ready hand after the draw: every wait highlighted, the hint on a lone tile."""
    return player("567m345p6699s", "1z", waits="69s", suggested="1z",
                  melds=(MELD_SET[0],), flowers="15f")


def hand_melds(n: int) -> PlayerView:
    """A hand with `n` melds (0–4) from the usual set: chi, pong, kong, added kong."""
    body = parse_tiles("1112345678999m")[: 13 - 3 * n]
    concealed = "".join(str(t.rank) for t in body) + "m"
    return player(concealed, "5p", melds=MELD_SET[:n], waits="" if n % 2 else "5p")


def hand_four_kongs() -> PlayerView:
    """Eighteen tiles: four kongs (one concealed), a single tile and the drawn tile."""
    kongs = (
        meld(K.KONG, "1111m", 3, "1m"),
        meld(K.ADDED_KONG, "9999p", 1, "9p"),
        meld(K.CONCEALED_KONG, "5555s"),
        meld(K.KONG, "7777z", 2, "7z"),
    )
    return player("3z", "3z", melds=kongs, flowers="1357f", waits="3z")


def hand_eight_flowers() -> PlayerView:
    """Shanghai: all eight flowers (八花) with two melds."""
    return player("45788m22p789s", "6m", melds=MELD_SET[1:2], flowers="12345678f",
                  waits="36m")


def hand_caishen_fixed() -> PlayerView:
    """Hangzhou fixed mode: 白板 is the 财神, in hand and in a meld."""
    return player("23m456p778s55z", "8m", rules="hangzhou", caishen=Tile.WHITE,
                  melds=(meld(K.PONG, "3z5z3z", 0 + 3, "3z"),), waits="",
                  suggested="8m")


def hand_caishen_flip() -> PlayerView:
    """Hangzhou flip mode: 6p turned, so its three other copies are the 财神."""
    return player("123m66p345p789s11z", "6p", rules="hangzhou", caishen=Tile.P6,
                  turned=Tile.P6, waits="", suggested="1m")


# --- tables -----------------------------------------------------------------------

_RIVER_POOL = "19m19p19s1234567z2468m2468p2468s3579m3579p3579s"


def _river(rng: random.Random, n: int, claimed: dict[int, int]) -> tuple[DiscardView, ...]:
    pool = list(tiles(_RIVER_POOL))
    return tuple(DiscardView(rng.choice(pool), claimed.get(i)) for i in range(n))


def table_late() -> TableView:
    """Shanghai near the end of the wall: 20–23 discards a seat, melds, flowers."""
    rng = random.Random(20261130)
    seats = (
        seat(0, 1, 7, discards=_river(rng, 22, {4: 2}), flowers="26f",
             melds=(meld(K.PONG, "555p", 2, "5p"), meld(K.CONCEALED_KONG, "8888s"))),
        seat(1, 1, 10, discards=_river(rng, 23, {9: 3}), flowers="1f",
             melds=(meld(K.CHI, "789m", 0, "8m"),)),
        seat(2, 1, 5, drawn=True, discards=_river(rng, 21, {2: 0, 15: 3}), flowers="3578f",
             melds=(meld(K.KONG, "1111z", 1, "1z"), meld(K.PONG, "666s", 3, "6s"),
                    meld(K.ADDED_KONG, "4444p", 0, "4p"))),
        seat(3, 1, 7, discards=_river(rng, 20, {11: 1}), flowers="4f",
             melds=(meld(K.CHI, "234s", 2, "2s"), meld(K.PONG, "999m", 2, "9m"))),
    )
    return table(seats, dealer=1, turn=2, deciding=(2,), wall_left=9, hand_number=7,
                 huangfan=True, dice=(6, 2), last_discard=(1, 22), phase="turn")


def table_claim() -> TableView:
    """Hangzhou flip mode mid-hand: a claim window open for two seats, 老庄 2."""
    rng = random.Random(7)
    seats = (
        seat(0, 3, 13, discards=_river(rng, 9, {})),
        seat(1, 3, 10, discards=_river(rng, 8, {}),
             melds=(meld(K.PONG, "777p", 3, "7p"),)),
        seat(2, 3, 13, discards=_river(rng, 8, {3: 1})),
        seat(3, 3, 13, discards=_river(rng, 9, {})),
    )
    return table(seats, rules="hangzhou", dealer=3, turn=3, deciding=(0, 1), streak=2,
                 caishen=Tile.P6, turned=Tile.P6, wall_left=71, phase="claim",
                 last_discard=(3, 8), dice=(1, 4), hand_number=12)


def table_start() -> TableView:
    """Hangzhou fixed mode, the dealer's first turn: nothing discarded yet."""
    seats = tuple(seat(s, 0, 14 if s == 0 else 13, drawn=s == 0) for s in range(4))
    return table(seats, rules="hangzhou", caishen=Tile.WHITE, wall_left=83, hand_number=1)


def table_ended() -> TableView:
    """The late table once seat 2 has won by self-draw: the centre names the winner."""
    return replace(table_late(), phase="ended", deciding=(), result=settlement_shanghai())


# --- settlements ------------------------------------------------------------------

SH = {  # Shanghai patterns used below, as the rules page names them
    "qing_yi_se": PatternView("qing_yi_se", "清一色", "Full Flush", "1 喇", "1 喇"),
    "peng_peng_hu": PatternView("peng_peng_hu", "碰碰胡", "All Pungs", "1 番", "1 番"),
    "men_qing": PatternView("men_qing", "门清", "Concealed Hand", "1 番", "1 番"),
    "da_diao_che": PatternView("da_diao_che", "大吊车", "Big Crane", "1 喇", "1 喇"),
}


def settlement_shanghai() -> ResultView:
    """Shanghai self-draw with 吃三口包: one related seat pays for everyone."""
    win = SettlementView(
        winner=2, win="self_draw", from_seat=None, concealed=tiles("5567p"),
        win_tile=Tile.P8,
        melds=(meld(K.CHI, "123p", 1, "1p"), meld(K.PONG, "999p", 0, "9p"),
               meld(K.KONG, "4444p", 1, "4p")),
        flowers=tiles("137f"),
        patterns=(SH["qing_yi_se"],), value=40, value_unit="花",
        payments=(Fraction(0), Fraction(-200), Fraction(200), Fraction(0)),
        liability="吃三口包 Three-claim liability: seat 1 pays 5 shares",
        breakdown=("清一色 Full Flush: 1 喇", "H = 40", "1 share = 40", "seat 1 pays 200"))
    return ResultView((win,), win.payments)


def settlement_hangzhou() -> ResultView:
    """Hangzhou 暴头 self-draw with a 财神 in hand, dealer at streak 2."""
    win = SettlementView(
        winner=0, win="self_draw", from_seat=None, concealed=tiles("456p78s55z"),
        win_tile=Tile.S9,
        melds=(meld(K.PONG, "333m", 2, "3m"), meld(K.KONG, "1111z", 3, "1z")),
        flowers=(),
        patterns=(PatternView("bao_tou", "暴头", "Burst Head", "×2", "×2"),
                  PatternView("cai_piao", "财飘", "Floating Wildcard", "×2 each", "×2 每个")),
        value=4, value_unit="×",
        payments=(Fraction(48), Fraction(-16), Fraction(-16), Fraction(-16)),
        liability=None,
        breakdown=("暴头 Burst Head: ×2", "财飘 Floating Wildcard: ×2 each", "F = 4"))
    return ResultView((win,), win.payments)


def settlement_discard() -> ResultView:
    """Shanghai win on a discard with 承包-style liability from the discarder."""
    win = SettlementView(
        winner=1, win="discard", from_seat=3, concealed=tiles("11z"), win_tile=Tile.EAST,
        melds=(meld(K.PONG, "222z", 0, "2z"), meld(K.PONG, "333z", 2, "3z"),
               meld(K.PONG, "555z", 3, "5z"), meld(K.PONG, "777z", 0, "7z")),
        flowers=tiles("48f"),
        patterns=(PatternView("zi_yi_se", "字一色", "All Honours", "4 喇", "4 喇"),
                  SH["da_diao_che"]),
        value=100, value_unit="花",
        payments=(Fraction(-100), Fraction(400), Fraction(0), Fraction(-300)),
        liability="吃三口包 Three-claim liability: the related discarder pays 2 shares; "
                  "seat 0 pays 1 share",
        breakdown=())
    return ResultView((win,), win.payments)


def settlement_double() -> ResultView:
    """Two wins in one hand's result (as one discard can give): each, then the net."""
    first, second = settlement_shanghai().settlements[0], settlement_discard().settlements[0]
    net = tuple(a + b for a, b in zip(first.payments, second.payments, strict=True))
    return ResultView((first, second), net)


def settlement_drawn() -> ResultView:
    return ResultView((), (Fraction(0),) * 4)


# --- leaderboard ------------------------------------------------------------------

_BEST = ("清一色 Full Flush", "碰碰胡 All Pungs", "暴头 Burst Head", "—", "字一色 All Honours",
         "七对子 Seven Pairs", "杠开 Kong Bloom", "门清 Concealed Hand")


def leaderboard_rows(n: int = 20) -> list[LeaderboardRow]:
    rng = random.Random(42)
    points = sorted((Fraction(rng.randint(-900, 1600), rng.choice((1, 1, 1, 2)))
                     for _ in range(n)), reverse=True)
    names = [f"{rng.choice(('Alice', '王小明', 'Chen', 'Dana', 'Eli', '芳芳', 'Gus'))}"
             f"{rng.choice(('', '_88', ' Li', 'xx', ' the Great'))}" for _ in range(n)]
    rows = [LeaderboardRow(i + 1, names[i], points[i], rng.randint(0, 40), rng.randint(1, 12),
                           rng.choice(_BEST)) for i in range(n)]
    ratings = random.Random(31)  # the rating column: a rating, a provisional one, none
    return [replace(r, rating=ratings.choice((str(ratings.randint(900, 1300)),
                                              f"{ratings.randint(950, 1100)}?", None)))
            for r in rows]


HANDS: dict[str, Callable[[], PlayerView]] = {
    "hand_14": hand_14,
    "hand_ready": hand_ready,
    **{f"hand_melds_{n}": partial(hand_melds, n) for n in range(5)},
    "hand_four_kongs": hand_four_kongs,
    "hand_eight_flowers": hand_eight_flowers,
    "hand_caishen_fixed": hand_caishen_fixed,
    "hand_caishen_flip": hand_caishen_flip,
}
TABLES: dict[str, Callable[[], TableView]] = {
    "table_late": table_late,
    "table_claim": table_claim,
    "table_start": table_start,
    "table_ended": table_ended,
}
SETTLEMENTS: dict[str, tuple[Callable[[], ResultView], str]] = {
    "settlement_shanghai": (settlement_shanghai, "shanghai"),
    "settlement_discard": (settlement_discard, "shanghai"),
    "settlement_hangzhou": (settlement_hangzhou, "hangzhou"),
    "settlement_double": (settlement_double, "shanghai"),
    "settlement_drawn": (settlement_drawn, "hangzhou"),
}


def stats_cards() -> dict[str, StatsCard]:
    """A player's ``/mahjong stats`` card in English and in Chinese, with every section
    (the words as the adapter writes them), and one with nothing played yet."""
    en = StatsCard("Alice", "Hangzhou · this channel", (
        Section("Matches", (Figure("Matches played", "12"), Figure("Hands played", "97"),
                            Figure("Average place", "2.25"),
                            Figure("First place", "33.3%", "good"),
                            Figure("Last place", "16.7%", "bad"))),
        Section("Per hand", (Figure("Win rate 胡牌率", "26.8%", "good", "of 97"),
                             Figure("Self-drawn wins", "42.3%"),
                             Figure("Average win value", "×3.62", "gold"),
                             Figure("Deal-in rate 放铳率", "11.3%", "bad"),
                             Figure("Average deal-in cost", "-7.45", "bad"),
                             Figure("Chi/pong/kong hands", "58.8%"),
                             Figure("Drawn hands 荒庄", "9.3%"))),
        Section("Biggest hand", note="财飘 Wild Float ×2、杠开 Kong Bloom · ×32"),
        Section("Hangzhou figures", (Figure("财神 wins", "9"), Figure("暴头 wins", "5"),
                                     Figure("财飘", "3"), Figure("杠开", "2"),
                                     Figure("飘杠 wins", "1"), Figure("摊 made", "31"),
                                     Figure("摊 on your discards", "24"),
                                     Figure("承包 paid", "1"), Figure("承包 received", "2"))),
        Section("Playing by correspondence", (
            Figure("Median time to move", "47 min"), Figure("Own moves", "1,204"),
            Figure("Timeouts", "3", "bad"), Figure("Away takeovers", "1", "bad"))),
        Section("Head-to-head with 小波", (
            Figure("Matches together", "7"), Figure("Placed higher", "4 : 3", "good"),
            Figure("Hands together", "58"), Figure("Won off each other", "6 : 4"),
            Figure("Net together", "+96", "good", "小波 -40")))),
        badge_label="Rating", badge="1,083?")
    zh = StatsCard("小波", "杭州 · 本服务器", (
        Section("对局", (Figure("对局场数", "12"), Figure("局数", "97"),
                         Figure("平均名次", "2.25"), Figure("一位率", "33.3%", "good"),
                         Figure("末位率", "16.7%", "bad"))),
        Section("每局", (Figure("胡牌率", "26.8%", "good", "共 97"),
                         Figure("自摸占胡牌", "42.3%"), Figure("平均胡牌价值", "×3.62", "gold"),
                         Figure("放铳率", "11.3%", "bad"), Figure("平均放铳失分", "-7.45", "bad"),
                         Figure("吃碰杠局占比", "58.8%"), Figure("荒庄率", "9.3%"))),
        Section("最大的一手", note="财飘 ×2、杠开 · ×32"),
        Section("杭州特色", (Figure("财神胡", "9"), Figure("暴头", "5"), Figure("财飘", "3"),
                             Figure("杠开", "2"), Figure("飘杠", "1"),
                             Figure("摊（吃碰杠他人）", "31"), Figure("摊（被吃碰杠）", "24"),
                             Figure("承包（付出）", "1"), Figure("承包（收到）", "2"))),
        Section("异步对局", (Figure("出牌用时中位数", "47 分钟"), Figure("亲自操作", "1204"),
                             Figure("超时次数", "3", "bad"), Figure("托管局数", "1", "bad")))),
        badge_label="等级分", badge="1083（定级中）")
    empty = StatsCard("Dmitri_the_Long_Named_Player", "Shanghai · every server",
                      empty="Dmitri_the_Long_Named_Player has no finished hand in every "
                            "server yet: play a match with `/mahjong new`, and the figures "
                            "start with its first hand.")
    return {"stats_card_en": en, "stats_card_zh": zh, "stats_card_empty": empty}
