"""The digest owed when someone's quiet hours end (0019): who is looked at, owed once,
claimed by one process at a time, put off, done; kept across a reopen."""

from __future__ import annotations

from pathlib import Path

from bot.store import DigestRow, NewDeadline, Store
from tests.store.helpers import NewGame

BIG = 2**62  # Discord ids are 64-bit


async def test_those_at_rest_with_a_decision_waiting_are_looked_at(
        store: Store, new_game: NewGame) -> None:
    game = await new_game(users=(1, BIG, 3))
    await store.people.set_quiet(BIG, time_zone="Asia/Shanghai", start=1380, end=420, at=1.0)
    await store.people.set_quiet(3, time_zone="Europe/Paris", start=0, end=360, at=1.0)
    await store.people.set_vacation(1, begin=10.0, until=500.0, at=1.0)
    assert await store.digests.resting_and_waited_for(100.0) == []  # nothing waits
    await store.deadlines.replace(game.hand.id, [NewDeadline(0, 4, "claim", 1.0, 90.0),
                                                 NewDeadline(1, 4, "claim", 1.0, 90.0),
                                                 NewDeadline(2, 4, "computer", 1.0, 1.0)])
    # 3's seat is played by its standing choice: nothing waits for 3
    assert [p.user_id for p in await store.digests.resting_and_waited_for(100.0)] == [1, BIG]
    assert [p.user_id for p in await store.digests.resting_and_waited_for(600.0)] == [BIG]
    assert await store.digests.owe(BIG, 700.0, at=100.0)
    assert not await store.digests.owe(BIG, 900.0, at=101.0)  # owed once, as it was
    assert await store.digests.owed(BIG) == DigestRow(BIG, 700.0, 100.0)
    assert [p.user_id for p in await store.digests.resting_and_waited_for(100.0)] == [1]
    await store.digests.claim(700.0, owner="a", until=800.0)
    await store.digests.done(BIG, owner="a", at=700.0)  # sent: looked at again
    assert [p.user_id for p in await store.digests.resting_and_waited_for(100.0)] == [1, BIG]


async def test_claimed_by_one_then_put_off_or_done(store: Store, database: Path | str) -> None:
    await store.digests.owe(5, 700.0, at=1.0)
    await store.digests.owe(6, 800.0, at=1.0)
    assert await store.digests.earliest() == 700.0
    assert await store.digests.claim(699.0, owner="a", until=800.0) == []
    (mine,) = await store.digests.claim(750.0, owner="a", until=800.0)
    assert (mine.user_id, mine.claimed_by, mine.claimed_until) == (5, "a", 800.0)
    assert await store.digests.claim(760.0, owner="b", until=900.0) == []  # a holds it
    assert not await store.digests.done(5, owner="b", at=760.0)
    assert await store.digests.put_off(5, 1000.0, owner="a")  # still quiet: later
    assert await store.digests.owed(5) == DigestRow(5, 1000.0, 1.0)
    assert [d.user_id for d in await store.digests.claim(850.0, owner="b", until=870.0)] == [6]
    # b was killed holding 6: once its lease ran out, c takes it, and b's word is void
    (taken,) = await store.digests.claim(880.0, owner="c", until=999.0)
    assert taken.user_id == 6 and not await store.digests.done(6, owner="b", at=881.0)
    assert await store.digests.done(6, owner="c", at=882.0)
    assert not await store.digests.done(6, owner="c", at=883.0)  # once
    assert await store.digests.claim(2000.0, owner="d", until=2100.0) == \
        [DigestRow(5, 1000.0, 1.0, "d", 2100.0)]  # a sent one is not owed
    await store.close()
    again = await Store.open(database)
    try:
        assert await again.digests.owed(6) == DigestRow(6, 800.0, 1.0, sent_at=882.0)
        assert await again.digests.earliest() == 1000.0
    finally:
        await again.close()


async def test_a_quiets_digest_is_owed_once_and_the_next_ones_after(store: Store) -> None:
    assert await store.digests.owe(5, 700.0, at=1.0)
    assert len(await store.digests.claim(700.0, owner="a", until=800.0)) == 1
    assert await store.digests.done(5, owner="a", at=701.0)
    assert not await store.digests.owe(5, 700.0, at=702.0)  # that night's went
    assert not await store.digests.owe(5, 600.0, at=702.0)  # nor an earlier one
    assert await store.digests.earliest() is None
    assert await store.digests.owe(5, 1700.0, at=1000.0)  # the next night's
    assert await store.digests.owed(5) == DigestRow(5, 1700.0, 1000.0)
    assert not await store.digests.owe(5, 2700.0, at=1001.0)  # owed: it stands
