"""What waits for a person (`/mahjong turns`): their turn and claim deadlines at every
live table of every server, soonest first, and nothing of anyone else's seats."""

from __future__ import annotations

from bot.store import NewDeadline, Store
from tests.store.helpers import CHANNEL, GUILD, NewGame

OTHER_GUILD, OTHER_CHANNEL = 333, 444


async def test_a_persons_turns_and_claims_at_every_table_soonest_first(
        store: Store, new_game: NewGame) -> None:
    here = await new_game(users=(1, 2, 3))
    there = await new_game(OTHER_CHANNEL, users=(3, 1), guild_id=OTHER_GUILD,
                           rules="hangzhou")  # 1 sits in seat 2 over there
    await store.lobby.set_table_message(here.table.id, 5555, posted_at=104.0)
    # here: 1's turn (due late); there: a claim window asking 1 and 3 (due sooner)
    await store.deadlines.replace(here.hand.id, [NewDeadline(0, 7, "turn", 110.0, 900.0)])
    await store.deadlines.replace(there.hand.id, [NewDeadline(0, 4, "claim", 120.0, 300.0),
                                                  NewDeadline(1, 4, "claim", 120.0, 300.0)])
    mine = await store.deadlines.waiting_for(1)
    assert [(w.table.id, w.seat, w.kind, w.seq, w.due_at) for w in mine] == [
        (there.table.id, 1, "claim", 4, 300.0), (here.table.id, 0, "turn", 7, 900.0)]
    first, second = mine
    assert (first.table.guild_id, first.table.channel_id, first.table.rules) == \
        (OTHER_GUILD, OTHER_CHANNEL, "hangzhou")
    assert (second.table.guild_id, second.table.channel_id, second.table.rules) == \
        (GUILD, CHANNEL, "shanghai")
    assert second.table.table_message_id == 5555
    assert (second.hand_number, second.set_at) == (1, 110.0)
    # 3 is asked over there only; 2 has nothing (seated here, but it is 1's turn)
    assert [(w.table.id, w.seat) for w in await store.deadlines.waiting_for(3)] == \
        [(there.table.id, 0)]
    assert await store.deadlines.waiting_for(2) == []
    assert await store.deadlines.waiting_for(999) == []  # sits nowhere


async def test_what_the_computer_plays_or_is_over_waits_for_nobody(
        store: Store, new_game: NewGame) -> None:
    game = await new_game(users=(1, 2, 3))
    # a standing choice or a computer seat's move: kind "computer"
    await store.deadlines.replace(game.hand.id, [NewDeadline(0, 3, "computer", 1.0, 1.0),
                                                 NewDeadline(1, 3, "claim", 1.0, 50.0),
                                                 NewDeadline(2, 3, "claim", 1.0, 50.0)])
    assert await store.deadlines.waiting_for(1) == []
    await store.lobby.set_away(game.table.id, 1, True)  # away: the computer plays it
    assert await store.deadlines.waiting_for(2) == []
    assert [w.seat for w in await store.deadlines.waiting_for(3)] == [2]
    # the table over (cancelled): nothing waits any more
    await store.endings.cancel_table(game.table.id, at=200.0)
    assert await store.deadlines.waiting_for(3) == []
