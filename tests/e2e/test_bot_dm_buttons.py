"""A DM shows move buttons only while its decision is open: once the player answered
it, wherever they did, the DM they did not click loses its buttons (in slow play it
would otherwise offer a dead move for hours); the DM they clicked is edited by the
click's own answer only."""

from __future__ import annotations

from pathlib import Path

from botkit import (
    answer,
    moves_shown,
    press,
    quiet,
    slash,
    table_with_a_discard,
)
from fakediscord import BotLauncher, FakeDiscord, FakeMessage


def _edits(fake: FakeDiscord, message: FakeMessage) -> int:
    """The bot's own edits of ``message`` (not its answers to a click on it)."""
    return len(fake.requests("PATCH", f"/messages/{message.id}"))


async def test_a_decision_played_through_mahjong_hand_takes_the_dms_buttons_off(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    driver, owner, dm, menu, value = await table_with_a_discard(fake, bots, tmp_path)
    words = fake.message(dm).content
    hand = await slash(driver.world, owner, "hand")
    await answer(hand)
    assert hand.original is not None
    await (await fake.select(owner, hand.original, menu, value)).response()
    await fake.wait_for(lambda: not moves_shown(fake, dm), what="the DM's buttons taken off")
    assert not moves_shown(fake, hand.original)  # the clicked reply, by the click's answer
    assert fake.message(dm).content == words  # the DM still shows what it showed
    assert _edits(fake, dm) == 1


async def test_a_click_on_the_dm_is_its_only_edit(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    _, owner, dm, menu, value = await table_with_a_discard(fake, bots, tmp_path)
    await (await fake.select(owner, dm, menu, value)).response()
    await quiet(bots)
    assert not moves_shown(fake, dm)
    assert _edits(fake, dm) == 0


async def test_a_press_on_a_button_the_message_no_longer_shows_is_answered(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    """Discord delivers a press made on a client not yet shown the edit that took the
    buttons off, with the message as it is now: it is answered as if still shown (a
    passed move refused, a standing choice saved), never left to fail unanswered."""
    driver, owner, dm, menu, value = await table_with_a_discard(fake, bots, tmp_path)
    toggles = [c.custom_id for c in fake.components(dm)
               if c.custom_id is not None and c.custom_id.startswith("mj:pref:")]
    assert toggles
    await (await fake.select(owner, dm, menu, value)).response()
    await fake.wait_for(lambda: not moves_shown(fake, dm), what="the DM's buttons taken off")
    assert await press(fake, owner, dm, menu, value, "en-US") == \
        "That button is for a decision that has passed."
    told = await press(fake, owner, dm, toggles[0], None, "en-US")
    assert told.startswith("Saved: ")
    assert not driver.refusals
