"""`store.stats`: a person's figures added up from the facts, by scope (a channel of its
server, a server, every server), and two people at the same tables — on SQLite and
PostgreSQL alike. Rows of another server or channel never count in a narrower scope."""

from __future__ import annotations

from fractions import Fraction

from bot.store import Store
from bot.store.rows import HandFact, MatchFact
from bot.store.stats import BiggestWin, Scope
from tests.store.helpers import CHANNEL, GUILD, NewGame

ANN, BOB, CID = 1, 2, 3
ELSEWHERE_GUILD, ELSEWHERE_CHANNEL, OTHER_CHANNEL = 999, 998, 223


def hand(game_hand: int, game_match: int, table: int, seat: int, user: int | None, *,
         guild: int = GUILD, channel: int = CHANNEL, rules: str = "shanghai",
         **kw: object) -> HandFact:
    return HandFact(game_hand, seat, game_match, table, guild, channel, rules, 1, user,
                    1000.0 + game_hand, **kw)  # type: ignore[arg-type]  # fields by name


async def _game(new_game: NewGame, **kw: object) -> tuple[int, int, int]:
    g = await new_game(**kw)
    return g.hand.id, g.match.id, g.table.id


async def test_a_person_s_hands_and_matches_add_up_by_scope(
        store: Store, new_game: NewGame) -> None:
    here = await _game(new_game, users=(ANN, BOB, CID))
    there = await _game(new_game, channel_id=OTHER_CHANNEL, users=(ANN, BOB, CID))
    foreign = await _game(new_game, guild_id=ELSEWHERE_GUILD, channel_id=ELSEWHERE_CHANNEL,
                          users=(ANN, BOB, CID))
    hz = await _game(new_game, users=(ANN, BOB, CID), rules="hangzhou")
    h, m, t = here
    await store.facts.write([
        hand(h, m, t, 0, ANN, points=Fraction(30), won=True, self_draw=False, won_from=1,
             win_value=30, patterns=("qing_yi_se",), claims=2, moves=10,
             move_hist=(4, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0), marks={"la": 1}),
        hand(h, m, t, 1, BOB, points=Fraction(-30), dealt_in=True,
             deal_in_cost=Fraction(30), timeouts=2, taken_over=True),
        hand(h, m, t, 2, CID, points=Fraction(0)),
        hand(h, m, t, 3, None, points=Fraction(0))],
        [MatchFact(m, 0, t, GUILD, CHANNEL, "shanghai", ANN, 2000.0, 1, Fraction(30), 1, 1),
         MatchFact(m, 1, t, GUILD, CHANNEL, "shanghai", BOB, 2000.0, 4, Fraction(-30), 1, 1),
         MatchFact(m, 2, t, GUILD, CHANNEL, "shanghai", CID, 2000.0, 2, Fraction(0), 1, 1),
         MatchFact(m, 3, t, GUILD, CHANNEL, "shanghai", None, 2000.0, 2, Fraction(0), 1, 1)])
    h, m, t = there
    await store.facts.write([
        hand(h, m, t, 0, ANN, channel=OTHER_CHANNEL, points=Fraction(-7, 2), dealt_in=True,
             deal_in_cost=Fraction(7, 2), moves=1, move_hist=(0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0),
             marks={"la": 2, "ba_hua": 1}),
        hand(h, m, t, 1, BOB, channel=OTHER_CHANNEL, points=Fraction(7, 2), won=True,
             won_from=0, win_value=50, patterns=("peng_peng_hu",))])
    h, m, t = foreign
    await store.facts.write([
        hand(h, m, t, 0, ANN, guild=ELSEWHERE_GUILD, channel=ELSEWHERE_CHANNEL,
             points=Fraction(100), won=True, self_draw=True, win_value=100)])
    h, m, t = hz
    await store.facts.write([hand(h, m, t, 0, ANN, rules="hangzhou", points=Fraction(2),
                                  won=True, self_draw=True, win_value=2)])

    stats = store.stats
    channel = Scope("channel", GUILD, CHANNEL)
    server = Scope("server", GUILD)
    everywhere = Scope("all")
    assert await stats.rules_played(ANN, server) == [("shanghai", 2), ("hangzhou", 1)]
    assert await stats.rules_played(ANN, everywhere) == [("shanghai", 3), ("hangzhou", 1)]
    assert await stats.rules_played(ANN, Scope("channel", GUILD, 5)) == []
    # the same channel id under another server is not this channel
    assert await stats.rules_played(ANN, Scope("channel", ELSEWHERE_GUILD, CHANNEL)) == []

    mine = await stats.hands(ANN, "shanghai", channel)
    assert (mine.hands, mine.wins, mine.self_draws, mine.deal_ins) == (1, 1, 0, 0)
    assert (mine.win_value, mine.claims, mine.claimed_hands, mine.moves) == (30, 2, 1, 10)
    assert mine.move_hist[:2] == (4, 6) and mine.marks == {"la": 1}
    wide = await stats.hands(ANN, "shanghai", server)
    assert (wide.hands, wide.wins, wide.deal_ins, wide.deal_in_cost) == \
        (2, 1, 1, Fraction(7, 2))
    assert wide.marks == {"la": 3, "ba_hua": 1} and wide.move_hist[2] == 1
    assert (await stats.hands(ANN, "shanghai", everywhere)).win_value == 130
    bob = await stats.hands(BOB, "shanghai", channel)
    assert (bob.deal_ins, bob.deal_in_cost, bob.timeouts, bob.taken_over) == \
        (1, Fraction(30), 2, 1)
    assert (await stats.hands(EVE := 77, "shanghai", everywhere)).hands == 0 and EVE

    placed = await stats.matches(ANN, "shanghai", server)
    assert (placed.matches, placed.placements, placed.firsts, placed.lasts) == (1, 1, 1, 0)
    assert (await stats.matches(BOB, "shanghai", channel)).lasts == 1
    assert (await stats.matches(ANN, "shanghai", Scope("channel", GUILD, OTHER_CHANNEL))
            ).matches == 0

    assert await stats.biggest(ANN, "shanghai", server) == \
        BiggestWin(30, ("qing_yi_se",), here[0], 1000.0 + here[0])
    assert (await stats.biggest(ANN, "shanghai", everywhere) or BiggestWin(0, (), 0, 0)
            ).value == 100
    assert await stats.biggest(CID, "shanghai", everywhere) is None

    face = await stats.together(ANN, BOB, "shanghai", server)
    assert (face.matches, face.ahead, face.behind, face.hands) == (1, 1, 0, 2)
    assert (face.won_off, face.lost_to) == (1, 1)
    assert (face.my_points, face.their_points) == (Fraction(53, 2), Fraction(-53, 2))
    back = await stats.together(BOB, ANN, "shanghai", channel)
    assert (back.matches, back.ahead, back.behind, back.hands, back.won_off, back.lost_to) \
        == (1, 0, 1, 1, 0, 1)
    assert (await stats.together(ANN, BOB, "shanghai", Scope("server", ELSEWHERE_GUILD))
            ).hands == 0


async def test_ties_at_the_bottom_are_each_last(store: Store, new_game: NewGame) -> None:
    _, m, t = await _game(new_game, users=(ANN, BOB, CID))
    await store.facts.write([], [
        MatchFact(m, 0, t, GUILD, CHANNEL, "shanghai", ANN, 2000.0, 1, Fraction(9), 2, 1),
        MatchFact(m, 1, t, GUILD, CHANNEL, "shanghai", BOB, 2000.0, 2, Fraction(-1), 2, 1),
        MatchFact(m, 2, t, GUILD, CHANNEL, "shanghai", CID, 2000.0, 3, Fraction(-4), 2, 1),
        MatchFact(m, 3, t, GUILD, CHANNEL, "shanghai", None, 2000.0, 3, Fraction(-4), 2, 1)])
    for user, last in ((ANN, 0), (BOB, 0), (CID, 1)):
        assert (await store.stats.matches(user, "shanghai", Scope("all"))).lasts == last
