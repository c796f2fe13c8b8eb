"""The end-to-end tests' players (`botkit.Driver`) count what a click is told as a
person would: a refusal, or a race lost to the bot (the decision passed a moment before
the click arrived, as the bot's later decisions show)."""

from __future__ import annotations

from pathlib import Path

from botkit import (
    Snapshot,
    answer,
    moves_shown,
    press,
    slash,
    table_with_a_discard,
)
from fakediscord import BotLauncher, FakeDiscord

from bot.discord.core.words import tile_name
from engine.tiles import tile_from_notation


async def test_a_click_on_a_decision_just_played_elsewhere_is_a_race_not_a_refusal(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    driver, owner, dm, menu, value = await table_with_a_discard(fake, bots, tmp_path, 2.0)
    # the owner plays the discard through /mahjong hand, then presses the DM's menu as
    # a client that had not yet shown the bot's edit taking it off would
    shown = Snapshot.of(fake, dm)
    hand = await slash(driver.world, owner, "hand")
    await answer(hand)
    assert hand.original is not None
    await (await fake.select(owner, hand.original, menu, value)).response()
    original = hand.original
    await fake.wait_for(lambda: not moves_shown(fake, original))  # the move is played
    told = await press(fake, owner, shown, menu, value, "en-US")
    assert told == "That button is for a decision that has passed."
    await driver.heard(dm, menu, told)  # the claim window after the discard is offered
    assert driver.raced == [told] and driver.refusals == []


async def test_a_passed_answer_on_a_button_still_live_is_a_refusal(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    driver, owner, dm, menu, _ = await table_with_a_discard(fake, bots, tmp_path, 0.5)
    # the decision is still the owner's to make: "passed" would be a wrong answer
    await driver.heard(dm, menu, "That button is for a decision that has passed.")
    # and any other answer to a click is a refusal at once
    options = next(c.options for c in fake.components(dm) if c.custom_id == menu)
    absent = next(f"{n}{suit}" for suit in "mpsz" for n in range(1, 8)
                  if f"{n}{suit}" not in options)
    forged = await press(fake, owner, dm, menu, [absent], "en-US")
    named = tile_name(tile_from_notation(absent), "en")
    assert forged == f"That move isn't allowed: you do not hold {named}."
    await driver.heard(dm, menu, forged)
    assert driver.refusals == ["That button is for a decision that has passed.", forged]
    assert driver.raced == []
