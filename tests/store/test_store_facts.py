"""The projection's rows (0026): written and read back whole on both backends, replaced
when written again, finished matches read in order after a cursor, and the rebuild's
claim held by one process at a time."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from bot.store import HandFact, MatchFact, Settlement, Store
from bot.store.facts import SET_ASIDE
from bot.store.rows import HandSource, MatchSource
from tests.store.helpers import CHANNEL, GUILD, NewGame


def _hand(game_hand: int, match: int, table: int, seat: int, **kw: object) -> HandFact:
    base = HandFact(game_hand, seat, match, table, GUILD, CHANNEL, "shanghai", 1,
                    None if seat == 3 else seat + 1, 130.0, Fraction(-7, 2))
    return replace(base, **kw)  # type: ignore[arg-type]  # the fields named by each test


async def test_rows_are_written_and_read_back_whole(store: Store, new_game: NewGame) -> None:
    game = await new_game()
    g = game.hand.id, game.match.id, game.table.id
    rows = [_hand(*g, 0, won=True, self_draw=False, won_from=2, win_value=12,
                  patterns=("qing_yi_se", "pong_pong_hu"), points=Fraction(21, 2),
                  claims=2, marks={"la": 1}, moves=17, move_hist=(3, 1, 0, 0, 0, 0, 0, 0,
                                                                  0, 0, 13),
                  timeouts=1, taken_over=True, dealer=True),
            _hand(*g, 1), _hand(*g, 2, dealt_in=True, deal_in_cost=Fraction(7, 2)),
            _hand(*g, 3, drawn=False)]
    await store.facts.write(rows)
    assert await store.facts.of_hand(game.hand.id) == rows
    assert await store.facts.hands_of_match(game.match.id) == rows
    again = replace(rows[1], points=Fraction(3))
    await store.facts.write([again])  # replaced, not added
    assert (await store.facts.of_hand(game.hand.id))[1] == again
    assert len(await store.facts.all_hands()) == 4


async def test_finished_matches_come_in_order_after_a_cursor(store: Store,
                                                             new_game: NewGame) -> None:
    games = [await new_game(CHANNEL + i) for i in range(3)]
    rows = []
    # the second match finished first; the first and third at the same time
    for game, at in zip(games, (200.0, 150.0, 200.0), strict=True):
        rows += [MatchFact(game.match.id, seat, game.table.id, GUILD, game.table.channel_id,
                           "shanghai", seat + 1 if seat < 3 else None, at, seat + 1,
                           Fraction(10 - seat), 8, 1) for seat in range(4)]
    other = await new_game(CHANNEL + 9, guild_id=GUILD + 1)
    rows.append(MatchFact(other.match.id, 0, other.table.id, GUILD + 1, CHANNEL + 9,
                          "shanghai", 1, 100.0, 1, Fraction(0), 8, 3))
    await store.facts.write([], rows)
    got = await store.facts.finished_matches(GUILD, "shanghai")
    assert [m[0].match_id for m in got] == [games[1].match.id, games[0].match.id,
                                           games[2].match.id]
    assert all([f.seat for f in m] == [0, 1, 2, 3] for m in got)
    after = await store.facts.finished_matches(GUILD, "shanghai", (200.0, games[0].match.id))
    assert [m[0].match_id for m in after] == [games[2].match.id]
    assert len(await store.facts.finished_matches(GUILD, "shanghai", limit=1)) == 1
    assert await store.facts.finished_matches(GUILD, "hangzhou") == []
    assert await store.facts.of_match(games[0].match.id) == rows[:4]


class _OneRow:
    """A derivation that makes one row a settled hand (the service's is tested there)."""

    buckets = (60.0, math.inf)

    def hands(self, sources: Sequence[HandSource]) -> list[HandFact]:
        return [HandFact(s.hand_id, 0, s.match_id, s.table_id, s.guild_id, s.channel_id,
                         s.rules, s.number, s.users[0], s.ended_at,
                         sum((x.amount for x in s.settlements), Fraction(0)))
                for s in sources]

    def matches(self, sources: Sequence[MatchSource]) -> list[MatchFact]:
        return []


async def test_one_process_holds_the_rebuild_and_a_killed_ones_claim_runs_out(
        store: Store, new_game: NewGame) -> None:
    games = [await new_game(CHANNEL + i) for i in range(3)]
    for game in games:
        await store.endings.finish_hand(game.hand.id, None, settlements=[
            Settlement(seat, Fraction(0)) for seat in range(4)], deltas=[], at=130.0)
    g = games[0].hand.id, games[0].match.id, games[0].table.id
    await store.facts.write([_hand(*g, 3)])
    assert await store.facts.formula() is None
    assert await _set_aside(store) == set(SET_ASIDE)
    first = await store.facts.claim_rebuild("f-1", "a", at=10.0, hold=60.0)
    assert first is not None and first.after == 0
    assert await store.facts.all_hands() == []  # a new rebuild starts from nothing
    # its secondary indexes dropped with the rows, their definitions kept in its claim
    assert await _set_aside(store) == set() and len(first.indexes) == len(SET_ASIDE)
    assert await store.facts.claim_rebuild("f-1", "b", at=20.0, hold=60.0) is None
    held, written, more = await store.facts.rebuild_batch(first, _OneRow(), size=1,
                                                          at=30.0, hold=60.0)
    assert held is not None and held.after == games[0].hand.id and (written, more) == (1, True)
    # "a" was killed: once its claim ran out, "b" goes on where it stopped
    taken = await store.facts.claim_rebuild("f-1", "b", at=100.0, hold=60.0)
    assert taken is not None and taken.after == games[0].hand.id
    assert taken.indexes == first.indexes  # what "a" dropped, "b" makes again
    assert await store.facts.rebuild_batch(held, _OneRow(), size=1, at=101.0,
                                           hold=60.0) == (None, 0, False)
    assert await store.facts.finish_rebuild(held, at=102.0) is False
    while taken is not None:
        taken, written, more = await store.facts.rebuild_batch(taken, _OneRow(), size=1,
                                                               at=101.0, hold=60.0)
        if not more:
            break
    assert taken is not None
    assert [f.hand_id for f in await store.facts.all_hands()] == [g.hand.id for g in games]
    assert await _set_aside(store) == set()
    assert await store.facts.finish_rebuild(taken, at=102.0) is True
    assert await store.facts.formula() == "f-1"
    assert await _set_aside(store) == set(SET_ASIDE)
    assert await store.facts.claim_rebuild("f-1", "c", at=103.0, hold=60.0) is None
    again = await store.facts.claim_rebuild("f-2", "c", at=103.0, hold=60.0)
    assert again is not None and again.after == 0
    # a new formula while a rebuild runs starts over, the indexes still to be made
    other = await store.facts.claim_rebuild("f-3", "d", at=300.0, hold=60.0, force=True)
    assert other is not None and sorted(other.indexes) == sorted(again.indexes)
    assert await store.facts.finish_rebuild(other, at=301.0) is True
    assert await _set_aside(store) == set(SET_ASIDE)


async def _set_aside(store: Store) -> set[str]:
    """The indexes of `SET_ASIDE` the database has."""
    names = list(SET_ASIDE)
    marks = ", ".join("?" * len(names))
    sql = (f"SELECT indexname AS name FROM pg_indexes WHERE indexname IN ({marks})"
           if store.dialect == "postgres" else
           f"SELECT name FROM sqlite_master WHERE type = 'index' AND name IN ({marks})")
    return {str(r["name"]) for r in await store._db.all(sql, names)}
