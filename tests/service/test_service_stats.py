"""`/mahjong stats` judged in place: a channel's or a server's figures only of the
server asked in (a foreign server's rows never count), every server's only of the
person asking, and in private messages only those; a person with no game gets an empty
answer; the default rule set is the one the person played most in the scope."""

from __future__ import annotations

from fractions import Fraction

from bot.service import Place
from bot.service import errors as E
from bot.service.facts import median as median_of
from bot.store import NewHand, Store
from bot.store.rows import HandFact, MatchFact
from tests.service.helpers import ANN, BOB, CHANNEL, GUILD, HERE, World, by, refused

FOREIGN_GUILD, FOREIGN_CHANNEL = 8, 80
DM = Place(None, 5)
WALL, SALT, COMMITMENT = "1m2m3m5z1f2p9s", "ab" * 16, "0123456789abcdef" * 4


async def _hand(store: Store, guild: int, channel: int, rules: str) -> tuple[int, int, int]:
    """A table with Ann and Bob (and two computers), its match and an ended hand."""
    table = await store.lobby.create_table(guild_id=guild, channel_id=channel,
                                           creator_id=ANN, rules=rules, at=100.0)
    await store.lobby.sit(table.id, 0, user_id=ANN, display_name="Ann", at=101.0)
    await store.lobby.sit(table.id, 1, user_id=BOB, display_name="Bob", at=101.0)
    for seat in (2, 3):
        await store.lobby.sit_computer(table.id, seat, display_name=f"Bot{seat}", at=101.0)
    await store.lobby.set_status(table.id, "playing", expected="lobby")
    match = await store.matches.create(table.id, first_dealer=0, at=102.0)
    hand = await store.matches.deal(match.id, NewHand(WALL, SALT, COMMITMENT, dice=(3, 5),
                                                      dealer=0, streak=0, huangfan=0), at=103.0)
    return hand.id, match.id, table.id


async def _played(store: Store, guild: int, channel: int, rules: str, *, ann_won: bool,
                  value: int = 10) -> None:
    """One settled hand and finished match of Ann and Bob: Ann wins off Bob or Bob
    off Ann."""
    h, m, t = await _hand(store, guild, channel, rules)
    win, lose = (0, 1) if ann_won else (1, 0)
    facts = [HandFact(h, win, m, t, guild, channel, rules, 1, (ANN, BOB)[win], 500.0,
                      Fraction(value), won=True, won_from=lose, win_value=value,
                      patterns=("qing_yi_se",) if rules == "shanghai" else ()),
             HandFact(h, lose, m, t, guild, channel, rules, 1, (ANN, BOB)[lose], 500.0,
                      Fraction(-value), dealt_in=True, deal_in_cost=Fraction(value))]
    placed = [MatchFact(m, win, t, guild, channel, rules, (ANN, BOB)[win], 600.0, 1,
                        Fraction(value), 1, 2),
              MatchFact(m, lose, t, guild, channel, rules, (ANN, BOB)[lose], 600.0, 4,
                        Fraction(-value), 1, 2)]
    await store.facts.write(facts, placed)


async def test_stats_are_judged_where_they_are_asked(world: World) -> None:
    store, svc = world.store, world.service
    await _played(store, GUILD, CHANNEL, "shanghai", ann_won=True, value=20)
    await _played(store, GUILD, CHANNEL + 1, "hangzhou", ann_won=False, value=4)
    await _played(store, GUILD, CHANNEL + 1, "hangzhou", ann_won=True, value=2)
    await _played(store, FOREIGN_GUILD, FOREIGN_CHANNEL, "shanghai", ann_won=True, value=90)

    here = await svc.player_stats(by(ANN, place=HERE))
    assert (here.scope, here.rules, here.hands, here.wins, here.matches) == \
        ("channel", "shanghai", 1, 1, 1)
    assert here.other_rules == () and here.first_rate == 1.0
    assert here.biggest is not None and here.biggest.value == 20  # not the foreign 90
    server = await svc.player_stats(by(ANN, place=HERE), scope="server")
    assert (server.rules, server.hands, server.other_rules) == ("hangzhou", 2, ("shanghai",))
    assert server.win_rate == 0.5 and server.deal_in_rate == 0.5
    assert server.average_deal_in_cost == Fraction(4) and server.last_rate == 0.5
    everywhere = await svc.player_stats(by(ANN, place=HERE), None, "shanghai", "all")
    assert (everywhere.hands, everywhere.average_win_value) == (2, Fraction(55))
    assert everywhere.guild_id is None

    # someone else's figures here, and against someone
    bob = await svc.player_stats(by(ANN, place=HERE), BOB, versus=ANN)
    assert (bob.hands, bob.deal_ins, bob.average_deal_in_cost) == (1, 1, Fraction(20))
    assert bob.versus is not None
    assert (bob.versus.matches, bob.versus.ahead, bob.versus.behind, bob.versus.lost_to,
            bob.versus.points, bob.versus.their_points) == \
        (1, 0, 1, 1, Fraction(-20), Fraction(20))

    # from the foreign server's channel, only its rows
    foreign = await svc.player_stats(by(ANN, place=Place(FOREIGN_GUILD, FOREIGN_CHANNEL)),
                                     scope="server")
    assert (foreign.hands, foreign.average_win_value) == (1, Fraction(90))


async def test_every_server_is_for_oneself_and_private_messages_only_have_it(
        world: World) -> None:
    svc = world.service
    await _played(world.store, GUILD, CHANNEL, "shanghai", ann_won=True)
    await refused(E.STATS_ALL_OTHERS, svc.player_stats(by(ANN, place=HERE), BOB, scope="all"))
    await refused(E.STATS_ALL_OTHERS, svc.player_stats(by(ANN, place=DM), BOB))
    await refused(E.STATS_PRIVATE_SCOPE, svc.player_stats(by(ANN, place=DM), scope="channel"))
    await refused(E.STATS_PRIVATE_SCOPE, svc.player_stats(by(ANN, place=DM), scope="server"))
    await refused(E.STATS_VERSUS_SELF, svc.player_stats(by(ANN, place=HERE), versus=ANN))
    await refused(E.STATS_BAD_SCOPE, svc.player_stats(by(ANN, place=HERE), scope="galaxy"))
    await refused(E.BAD_OPTIONS, svc.player_stats(by(ANN, place=HERE), rules="riichi"))
    mine = await svc.player_stats(by(ANN, place=DM))
    assert (mine.scope, mine.hands, mine.rating) == ("all", 1, None)
    # a person asking for their own `all` in a channel may
    assert (await svc.player_stats(by(ANN, place=HERE), ANN, scope="all")).hands == 1


async def test_a_person_with_no_game_gets_an_empty_answer(world: World) -> None:
    nobody = await world.service.player_stats(by(BOB, place=HERE), 12345)
    assert nobody.empty and nobody.hands == 0 and nobody.win_rate is None
    assert nobody.median_move_s is None and nobody.biggest is None and nobody.versus is None


def test_the_median_move_is_interpolated_inside_its_bucket() -> None:
    assert median_of([0] * 11) is None
    assert median_of([2] + [0] * 10) == 30.0  # the middle of two moves under a minute
    assert median_of([1, 1] + [0] * 9) == 60.0
    assert median_of([0, 4] + [0] * 9) == 180.0  # halfway between 60 s and 300 s
    assert median_of([0] * 10 + [3]) == 86400  # the open bucket: its lower bound
