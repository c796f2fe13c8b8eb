"""`LiveReplies` alone: `/mahjong hand` replies redrawn from constructed notices, their
edits recorded by a fake webhook. The races the e2e tests cannot time: a notice that
went by while the reply was made, a newer reply asked before the older went out, a
redraw waiting for the answer to a click on the reply, a reply past its token."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
import pytest

import bot.discord.hand.replies as replies
from bot.discord.core.pictures import Pictures
from bot.discord.delivery.outbox import Outbox
from bot.discord.hand.replies import LiveReplies, Reply
from bot.service import Cause
from engine.game import HandState, apply, legal_actions
from engine.rules.common import ActionKind
from tests.discord.presenter_kit import TABLE, USERS, dealt, discarded, private

SEAT = 1
USER = USERS[SEAT]


class FakeWebhook:
    token = "token"

    def __init__(self, fails: int | None = None, times: int | None = None) -> None:
        self.edits: list[tuple[int, dict[str, Any]]] = []
        self.fails = fails
        """The HTTP status every edit fails with (None: they go through)…"""
        self.times = times
        """…the first ``times`` edits (None: every one)."""

    async def edit_message(self, message_id: int, **fields: Any) -> None:
        self.edits.append((message_id, fields))
        if self.fails is not None and (self.times is None or len(self.edits) <= self.times):
            raise discord.HTTPException(SimpleNamespace(status=self.fails, reason="x"),
                                        {"code": 0, "message": "x"})

    def buttons_off(self) -> list[int]:
        return [m for m, fields in self.edits if set(fields) == {"view"}
                and fields["view"] is None]

    def redraws(self) -> list[int]:
        return [m for m, fields in self.edits if "attachments" in fields]


def _live() -> LiveReplies:
    return LiveReplies(Outbox(), Pictures(0))


def _expect(live: LiveReplies, state: HandState) -> Reply:
    reply = live.expect(TABLE, SEAT, USER, 1, state.seq, "en-US")
    assert reply is not None
    return reply


async def _sent(live: LiveReplies, state: HandState, message_id: int = 5
                ) -> tuple[Reply, FakeWebhook]:
    reply = _expect(live, state)
    hook = FakeWebhook()
    live.sent(TABLE, SEAT, reply, hook, message_id)  # type: ignore[arg-type]  # a fake webhook
    return reply, hook


async def _settle(live: LiveReplies) -> None:
    assert await live.outbox.drain(10)


async def test_a_newer_notice_redraws_the_reply_with_its_decision() -> None:
    start = dealt(0)  # a shuffle whose dealer has a discard another seat may claim
    _, hook = await _sent(live := _live(), start)
    after, _ = discarded(start, claimable=True)
    live.private(private(after, SEAT))
    await _settle(live)
    ((message, fields),) = hook.edits
    assert message == 5
    assert "This reply follows the game until <t:" in fields["content"]
    assert [f.filename for f in fields["attachments"]] == [f"hand-{TABLE}-{SEAT}.png"]


async def test_an_older_or_the_same_state_is_not_drawn_again() -> None:
    start = dealt(0)  # a shuffle whose dealer has a discard another seat may claim
    _, hook = await _sent(live := _live(), start)
    live.private(private(start, SEAT))
    await _settle(live)
    assert hook.edits == []


async def test_notices_waiting_for_the_queue_are_drawn_once() -> None:
    start = dealt(0)  # a shuffle whose dealer has a discard another seat may claim
    reply, hook = await _sent(live := _live(), start)
    after, _ = discarded(start)
    live.private(private(after, SEAT, cause=Cause(USERS[0], "Ann")))
    live.private(private(after, SEAT, reminder=True))  # the same state, a reminder
    await _settle(live)
    assert hook.redraws() == [5]
    assert reply.shows == replies.order(1, after.seq)


async def test_a_move_played_on_the_reply_is_shown_by_the_clicks_answer_alone() -> None:
    start = dealt(0)  # a shuffle whose dealer has a discard another seat may claim
    live = _live()
    reply = live.expect(TABLE, 0, USERS[0], 1, start.seq, "en-US")
    assert reply is not None
    hook = FakeWebhook()
    live.sent(TABLE, 0, reply, hook, 5)  # type: ignore[arg-type]  # a fake webhook
    after, _ = discarded(start)  # the dealer's discard: nothing more to decide
    live.private(private(after, 0, cause=Cause(USERS[0], "Ann", message_id=5)))
    await _settle(live)
    assert hook.edits == []
    assert reply.shows == replies.order(1, after.seq)
    # the next seat's discard (a later state), then one played on another message
    later, _ = apply(after, next(a for a in legal_actions(after, 1)
                                 if a.kind is ActionKind.DISCARD))
    live.private(private(later, 0, cause=Cause(USERS[0], "Ann", message_id=6)))
    await _settle(live)
    assert hook.redraws() == [5]


async def test_a_redraw_waits_for_the_answer_to_a_click_on_the_reply() -> None:
    start = dealt(0)  # a shuffle whose dealer has a discard another seat may claim
    _, hook = await _sent(live := _live(), start)
    after, _ = discarded(start, claimable=True)
    async with live.clicking(5):
        live.private(private(after, SEAT))
        await asyncio.sleep(0.2)
        assert hook.edits == []  # the click's answer edits the reply first
    await _settle(live)
    assert hook.redraws() == [5]


async def test_a_notice_that_went_by_while_the_reply_was_made_takes_its_buttons_off(
        ) -> None:
    start = dealt(0)  # a shuffle whose dealer has a discard another seat may claim
    live = _live()
    after, _ = discarded(start, claimable=True)
    live.private(private(after, SEAT))  # between the service's answer and `expect`
    _, hook = await _sent(live, start)
    await _settle(live)
    assert hook.buttons_off() == [5]


async def test_a_notice_while_the_reply_is_drawn_is_drawn_in_it_once_sent() -> None:
    start = dealt(0)  # a shuffle whose dealer has a discard another seat may claim
    live = _live()
    reply = _expect(live, start)
    after, _ = discarded(start, claimable=True)
    live.private(private(after, SEAT))
    await _settle(live)
    hook = FakeWebhook()
    live.sent(TABLE, SEAT, reply, hook, 5)  # type: ignore[arg-type]  # a fake webhook
    await _settle(live)
    assert hook.redraws() == [5]


async def test_a_newer_reply_takes_the_buttons_off_the_older_even_unsent() -> None:
    start = dealt(0)  # a shuffle whose dealer has a discard another seat may claim
    live = _live()
    first = _expect(live, start)
    _, hook = await _sent(live, start, message_id=6)  # asked again before it went out
    live.sent(TABLE, SEAT, first, hook, 5)  # type: ignore[arg-type]  # a fake webhook
    await _settle(live)
    assert hook.buttons_off() == [5]
    _, again = await _sent(live, start, message_id=7)
    await _settle(live)
    assert hook.buttons_off() == [5, 6]
    assert again.edits == []


async def test_a_player_who_leaves_loses_the_buttons() -> None:
    start = dealt(0)  # a shuffle whose dealer has a discard another seat may claim
    _, hook = await _sent(live := _live(), start)
    live.left(TABLE, SEAT)
    await _settle(live)
    assert hook.buttons_off() == [5]
    live.private(private(discarded(start)[0], SEAT))
    await _settle(live)
    assert hook.buttons_off() == [5]


async def test_a_reply_past_its_token_is_left_as_it_is(
        monkeypatch: pytest.MonkeyPatch) -> None:
    start = dealt(0)  # a shuffle whose dealer has a discard another seat may claim
    reply, hook = await _sent(live := _live(), start)
    reply.until = 0.0
    live.private(private(discarded(start, claimable=True)[0], SEAT))
    live.left(TABLE, SEAT)
    await _settle(live)
    assert hook.edits == []
    monkeypatch.setattr(replies, "FOLLOWS_FOR", 0.0)
    assert live.expect(TABLE, SEAT, USER, 1, start.seq, "en-US") is None


async def test_a_table_that_ends_forgets_its_replies() -> None:
    start = dealt(0)  # a shuffle whose dealer has a discard another seat may claim
    _, hook = await _sent(live := _live(), start)
    live.forget(TABLE)
    live.private(private(discarded(start)[0], SEAT))
    await _settle(live)
    assert hook.edits == []


@pytest.mark.parametrize(("status", "again"), [(404, 0), (401, 0), (500, 2)])
async def test_a_dismissed_reply_is_not_drawn_again(status: int, again: int) -> None:
    """Its reader dismissed it (404), or its token is no longer valid (401): one failed
    edit, then nothing more is drawn for it. Discord's passing failure (500) is tried
    again until it answers (issue 33), and the reply is drawn on."""
    start = dealt(0)  # a shuffle whose dealer has a discard another seat may claim
    live = _live()
    reply = _expect(live, start)
    hook = FakeWebhook(fails=status, times=1 if status >= 500 else None)
    live.sent(TABLE, SEAT, reply, hook, 5)  # type: ignore[arg-type]  # a fake webhook
    after, _ = discarded(start, claimable=True)
    live.private(private(after, SEAT))
    await _settle(live)
    later, _ = apply(after, next(a for a in legal_actions(after, SEAT)))
    live.private(private(later, SEAT))
    await _settle(live)
    assert len(hook.edits) == 1 + again
