"""The outbox: what the channel must be told of a change (a hand's commitment, its
settlement, the wall's reveal, the standings, the match's end) is recorded with the
change, so a crash right after the commit loses none of it: the next start delivers it,
once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.service import FakeClock, Notice, RecordingNotifier, commitment
from tests.narrowing import known
from tests.service.helpers import ANN, BOB, CHANNEL, CID, SCENE_TWO, D, P, W, World, by, stacked

pytestmark = pytest.mark.usefixtures("dealer_zero")
MakeWorld = Callable[..., Awaitable[World]]


class Died(BaseException):
    """Stands for the process being killed: nothing after it runs (not even `except
    Exception` handlers)."""


class DyingNotifier(RecordingNotifier):
    """Records like the others, but the process "dies" when it is told ``kind``."""

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.dies_at = kind

    async def publish(self, notice: Notice) -> None:
        if notice.kind == self.dies_at:
            raise Died(self.dies_at)
        await super().publish(notice)


async def crash_then_restart(make_world: MakeWorld, world: World) -> World:
    await world.store.close()
    new = await make_world(FakeClock(world.clock.now() + 60))
    await new.service.recover()
    await new.settle()
    return new


async def win_first_hand(world: World, table: int) -> None:
    """Ann discards 5p, Cid wins on it (Bob passes): hand 1 ends."""
    await world.service.act(by(ANN), table, D(0, "5p"), step=1)
    await world.service.act(by(CID), table, W(2), step=2)
    await world.service.act(by(BOB), table, P(1), step=2)


def told(notes: RecordingNotifier) -> list[tuple[str, int | None]]:
    """(kind, hand number) of every announcement, in order."""
    out = []
    for kind, notice in notes.sent:
        if kind in ("hand_started", "settlement", "reveal", "leaderboard"):
            out.append((kind, notice.hand_number))
        elif kind == "match_ended" or (
                kind == "lobby" and getattr(notice, "receipt", None) is not None):
            out.append((kind, None))
    return out


@pytest.mark.parametrize("dies_at", ["settlement", "reveal", "leaderboard"])
async def test_a_crash_after_a_hands_commit_loses_no_announcement(
        make_world: MakeWorld, dies_at: str) -> None:
    world = await make_world(deal=stacked(SCENE_TWO))
    world.service.notifier = world.notes = DyingNotifier(dies_at)
    table = await world.table(options={"hands": 2})
    with pytest.raises(Died):
        await win_first_hand(world, table)
    first = world.notes
    world = await crash_then_restart(make_world, world)
    expected = [("settlement", 1), ("reveal", 1), ("leaderboard", 1), ("hand_started", 2)]
    assert told(first) + told(world.notes) == [("hand_started", 1), *expected]
    (settled,) = first.of("settlement") + world.notes.of("settlement")
    assert [w.winner for w in settled.result.settlements] == [2]
    assert sum(settled.totals) == 0 and settled.totals[2] > 0
    (reveal,) = first.of("reveal") + world.notes.of("reveal")
    assert commitment(reveal.salt, reveal.wall) == reveal.commitment
    assert all(a.status == "delivered" for a in await world.store.outbox.of_table(table))
    # a second restart has nothing left to say
    world = await crash_then_restart(make_world, world)
    assert told(world.notes) == []


async def test_a_crash_after_dealing_loses_no_commitment(make_world: MakeWorld) -> None:
    world = await make_world(deal=stacked(SCENE_TWO))
    world.service.notifier = world.notes = DyingNotifier("hand_started")
    with pytest.raises(Died):
        await world.table(options={"hands": 2})
    (row,) = await world.store.lobby.tables_in_channel(CHANNEL)
    table = row.id
    world = await crash_then_restart(make_world, world)
    (started,) = world.notes.of("hand_started")
    hand = known(await world.store.hands.live(table))
    assert (started.hand_number, started.commitment) == (1, hand.commitment)
    assert started.dealer == 0 and started.names == ("Ann", "Bob", "Cid", "Dee")


async def test_the_last_hand_announces_the_match_end_even_after_a_crash(
        make_world: MakeWorld) -> None:
    world = await make_world(deal=stacked(SCENE_TWO))
    world.service.notifier = world.notes = DyingNotifier("settlement")
    table = await world.table(options={"hands": 1})
    with pytest.raises(Died):
        await win_first_hand(world, table)
    world = await crash_then_restart(make_world, world)
    assert told(world.notes) == [("settlement", 1), ("reveal", 1), ("leaderboard", 1),
                                 ("lobby", None), ("match_ended", None)]
    (lobby,) = world.notes.of("lobby")
    assert (lobby.what, lobby.table.status) == ("finished", "finished")
    (end,) = world.notes.of("match_ended")
    assert (end.hands_played, end.cancelled, sum(end.totals)) == (1, False, 0)
    assert known(await world.store.lobby.get_table(table)).status == "finished"


async def test_a_cancelled_tables_reveal_survives_a_crash(make_world: MakeWorld) -> None:
    world = await make_world(deal=stacked(SCENE_TWO))
    world.service.notifier = world.notes = DyingNotifier("reveal")
    table = await world.table(options={"hands": 2})
    await world.service.act(by(ANN), table, D(0, "5p"), step=1)
    with pytest.raises(Died):
        await world.service.cancel(by(ANN), table)
    world = await crash_then_restart(make_world, world)
    assert told(world.notes) == [("reveal", 1), ("lobby", None), ("match_ended", None)]
    (end,) = world.notes.of("match_ended")
    assert end.cancelled and end.hands_played == 0
    assert known(await world.store.lobby.get_table(table)).status == "cancelled"


async def test_an_announcement_that_may_have_gone_out_is_delivered_as_unsure(
        make_world: MakeWorld) -> None:
    """A crash between "handed to Discord" and "delivered": the restart says so, for
    the notifier to look in the channel before it sends again."""
    world = await make_world(deal=stacked(SCENE_TWO))
    world.service.notifier = world.notes = DyingNotifier("reveal")
    table = await world.table(options={"hands": 2})
    with pytest.raises(Died):
        await win_first_hand(world, table)
    (row,) = [a for a in await world.store.outbox.of_table(table) if a.kind == "reveal"]
    await world.store.outbox.mark(row.id, "sending", world.clock.now())
    world = await crash_then_restart(make_world, world)
    (reveal,) = world.notes.of("reveal")
    assert reveal.receipt.unsure and reveal.receipt.key == f"reveal-{table}-1"
    assert not world.notes.of("hand_started")[0].receipt.unsure
