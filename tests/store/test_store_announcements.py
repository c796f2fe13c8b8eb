"""The outbox table: announcements are written in the transaction of the change they
announce (or not at all), each key once, and walk pending → sending → delivered."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.store import (
    ConstraintError,
    NewAction,
    NewAnnouncement,
    NewHand,
    NotFound,
    StaleAction,
    StaleStatus,
    Store,
)
from tests.narrowing import known
from tests.store.helpers import COMMITMENT, SALT, WALL, NewGame

TOLD = [NewAnnouncement("settlement", facts={"totals": ["1", "-1", "0", "0"]}),
        NewAnnouncement("reveal"), NewAnnouncement("leaderboard")]


async def test_the_end_of_a_hand_and_its_announcements_are_one_write(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    stale = NewAction(5, 0, "discard", {}, "player", 150.0)  # the log has no action 4
    with pytest.raises(StaleAction):
        await store.endings.finish_hand(game.hand.id, stale, settlements=[], deltas=[], at=150.0,
                                        announcements=TOLD)
    assert await store.outbox.of_table(game.table.id) == []   # nothing without the change
    totals = {s: Fraction(0) for s in range(4)}
    await store.endings.finish_hand(game.hand.id, None, settlements=[], deltas=[], at=151.0,
                                    match_totals=totals, announcements=TOLD)
    rows = await store.outbox.of_table(game.table.id)
    assert [(r.kind, r.key, r.hand_id, r.status) for r in rows] == [
        ("settlement", f"settlement-{game.table.id}-1", game.hand.id, "pending"),
        ("reveal", f"reveal-{game.table.id}-1", game.hand.id, "pending"),
        ("leaderboard", f"leaderboard-{game.table.id}-1", game.hand.id, "pending")]
    assert rows[0].facts == {"totals": ["1", "-1", "0", "0"]}
    assert known(await store.lobby.get_table(game.table.id)).status == "finished"  # the last hand


async def test_a_new_hand_is_written_with_its_commitment(store: Store,
                                                         new_game: NewGame) -> None:
    game = await new_game()
    await store.endings.finish_hand(game.hand.id, None, settlements=[], deltas=[], at=150.0)
    second = await store.matches.deal(game.match.id, NewHand(
        WALL, SALT, COMMITMENT, dice=(1, 2), dealer=1, streak=0, huangfan=0,
        announcements=[NewAnnouncement("hand_started")]), at=160.0)
    (row,) = await store.outbox.undelivered()
    assert (row.kind, row.hand_id, row.key) == ("hand_started", second.id,
                                                f"hand_started-{game.table.id}-2")


async def test_an_announcement_is_delivered_once_and_stays_delivered(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    await store.endings.finish_hand(game.hand.id, None, settlements=[], deltas=[], at=150.0,
                                    announcements=TOLD)
    first, *_ = await store.outbox.undelivered(game.table.id)
    assert known(await store.outbox.mark(first.id, "sending", 151.0)).status == "sending"
    done = await store.outbox.mark(first.id, "delivered", 152.0)
    assert (done.status, done.delivered_at) == ("delivered", 152.0)
    again = await store.outbox.mark(first.id, "sending", 153.0)
    assert (again.status, again.delivered_at) == ("delivered", 152.0)
    assert first.id not in {r.id for r in await store.outbox.undelivered()}
    with pytest.raises(NotFound):
        await store.outbox.mark(9999, "delivered", 1.0)


async def test_the_same_announcement_cannot_be_recorded_twice(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    with pytest.raises(ConstraintError):
        await store.endings.finish_hand(game.hand.id, None, settlements=[], deltas=[], at=150.0,
                                        announcements=[NewAnnouncement("reveal")] * 2)
    assert known(await store.hands.get(game.hand.id)).status == "live"  # rolled back as one


async def test_cancelling_is_one_write_with_its_announcements(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    told = [NewAnnouncement("reveal", game.hand.id, 1),
            NewAnnouncement("lobby", None, 1, {"what": "cancelled"})]
    table = await store.endings.cancel_table(game.table.id, at=170.0, announcements=told)
    assert table.status == "cancelled"
    assert known(await store.hands.get(game.hand.id)).status == "ended"
    assert known(await store.matches.get(game.match.id)).status == "abandoned"
    assert await store.deadlines.all(game.hand.id) == []
    assert [r.key for r in await store.outbox.undelivered()] == [
        f"reveal-{game.table.id}-1", f"lobby-{game.table.id}-1"]
    with pytest.raises(StaleStatus):
        await store.endings.cancel_table(game.table.id, at=171.0, announcements=told)
    assert len(await store.outbox.undelivered()) == 2


async def test_a_hand_ending_forgets_what_was_delivered_an_hour_before(
        store: Store, new_game: NewGame) -> None:
    """A delivered announcement is never read again: a hand's end deletes those
    delivered more than KEPT_DELIVERED seconds before it (issue 32, a finished hand
    keeps none); the undelivered, those being sent and those delivered since stay."""
    from bot.store.outbox import KEPT_DELIVERED

    game = await new_game()
    await store.endings.finish_hand(game.hand.id, None, settlements=[], deltas=[], at=150.0,
                                    announcements=TOLD)
    second = await store.matches.deal(game.match.id, NewHand(
        WALL, SALT, COMMITMENT, dice=(1, 2), dealer=1, streak=0, huangfan=0,
        announcements=[NewAnnouncement("hand_started")]), at=160.0)
    settlement, reveal, leaderboard, started = await store.outbox.of_table(game.table.id)
    await store.outbox.mark(settlement.id, "delivered", 200.0)
    await store.outbox.mark(reveal.id, "sending", 200.0)
    await store.outbox.mark(started.id, "delivered", 250.0 + 1.0)
    end = 250.0 + KEPT_DELIVERED
    await store.endings.finish_hand(second.id, None, settlements=[], deltas=[], at=end)
    kept = await store.outbox.of_table(game.table.id)
    assert [(r.id, r.status) for r in kept] == [
        (reveal.id, "sending"), (leaderboard.id, "pending"), (started.id, "delivered")]
