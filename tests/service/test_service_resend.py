"""A crash between a move's commit and its DMs: the restart DMs each decision the crash
left untold (`Recovery.resend`), and nobody whose DM already shows their decision.

What a seat's DM shows is what the presenter stored (`Presenter.swap_dm_message`'s order);
here the presenter is a `RecordingNotifier`, so the test stores it for the DMs it
counts as delivered (`delivered`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.service import PrivateNotice, RecordingNotifier
from tests.service.helpers import ANN, SCENE_PONG, D, World, by, delivered, stacked

pytestmark = pytest.mark.usefixtures("dealer_zero")
TIMERS = {"turn_timer": 600, "claim_timer": 600}
MakeWorld = Callable[..., Awaitable[World]]


def _decisions(notes: RecordingNotifier, *, resent: bool | None = None
               ) -> set[tuple[int, int]]:
    """(seat, step) of the decision DMs recorded (``resent``: only those, or the others)."""
    return {(n.seat, n.step) for n in notes.of("private_hand")
            if isinstance(n, PrivateNotice) and n.step is not None
            and (resent is None or n.resent == resent)}


async def _crash_after_commit(world: World, table: int) -> set[tuple[int, int]]:
    """Ann discards; the move commits and what it was to tell is lost (the process dies
    before its notifier hears of it). The decisions whose DMs were lost."""
    lost = RecordingNotifier()
    world.service.notifier = lost
    await world.service.act(by(ANN), table, D(0, "9m"), step=1)
    owed = _decisions(lost)
    assert owed and all(seat != 0 for seat, _ in owed)
    return owed


async def test_a_restart_dms_the_decisions_a_crash_left_untold(make_world: MakeWorld
                                                                 ) -> None:
    a = await make_world(deal=stacked(SCENE_PONG))
    table = await a.table(options=TIMERS)
    await delivered(a)                               # Ann's turn reached her
    owed = await _crash_after_commit(a, table)

    b = await make_world(deal=stacked(SCENE_PONG))
    await b.service.recover()
    await b.service.resend_dms()

    assert _decisions(b.notes, resent=True) == owed   # Cid's claim, once; Ann nothing
    assert _decisions(b.notes, resent=False) == set()
    tables = b.notes.of("table")
    assert len(tables) == 1 and tables[0].seq == 1    # the picture as the move left it
    assert tables[0].deciding == ()                   # a claim window names nobody
    # a clean restart after those DMs went out: nothing is sent again
    await delivered(b)
    c = await make_world(deal=stacked(SCENE_PONG))
    await c.service.recover()
    await c.service.resend_dms()
    assert c.notes.of("private_hand") == [] and c.notes.of("table") == []


async def test_a_clean_restart_dms_nobody(make_world: MakeWorld) -> None:
    a = await make_world(deal=stacked(SCENE_PONG))
    table = await a.table(options=TIMERS)
    await a.service.act(by(ANN), table, D(0, "9m"), step=1)
    await delivered(a)
    b = await make_world(deal=stacked(SCENE_PONG))
    await b.service.recover(eager=True)
    assert await b.service.resend_dms() == 0
    assert b.notes.of("private_hand") == [] and b.notes.of("table") == []


async def test_a_decision_taken_before_the_restart_is_not_dmed(make_world: MakeWorld
                                                                ) -> None:
    """The crash lost Cid's claim DM, but a timer (or another process) took the claim
    decision meanwhile: what is owed is the decision pending now, and only if it too
    is untold."""
    a = await make_world(deal=stacked(SCENE_PONG))
    table = await a.table(options=TIMERS)
    await delivered(a)
    await _crash_after_commit(a, table)
    # still down when the claim timer ran out: the timeout passes for Cid, Bob's turn
    a.service.notifier = a.notes
    a.notes.clear()
    await a.advance(601)
    await delivered(a)                               # Bob's turn reached him
    b = await make_world(deal=stacked(SCENE_PONG))
    await b.service.recover()
    await b.service.resend_dms()
    assert b.notes.of("private_hand") == []
