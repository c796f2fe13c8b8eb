"""Claim offers through the real bot: a DM asking to claim with no win on offer arrives
silently (Discord's suppress-notifications flag, which the fake records), a turn's DM
and a win's offer notify as any DM."""

from __future__ import annotations

from pathlib import Path

from botkit import Driver, make_bot, make_world, open_table, quiet
from fakediscord import SUPPRESS_NOTIFICATIONS, BotLauncher, FakeDiscord, FakeMessage


def _first_ids(message: FakeMessage) -> list[str]:
    """The custom ids the DM was sent with (a click takes its buttons off later)."""
    components = message.versions[0]["components"] if message.versions \
        else message.components
    found: list[str] = []

    def walk(items: list[dict[str, object]]) -> None:
        for item in items:
            if isinstance(item.get("custom_id"), str):
                found.append(str(item["custom_id"]))
            inner = item.get("components")
            if isinstance(inner, list):
                walk(inner)

    walk(components)
    return found


def _moves(message: FakeMessage) -> list[str]:
    """The move letters of a DM's buttons (``mj:mv:t:h:pN:move:sS``)."""
    return [c.split(":")[5][:1] for c in _first_ids(message) if c.startswith("mj:mv:")]


def _claim_offer(message: FakeMessage) -> bool:
    """A DM asking to claim (a Pass button) with no Win button."""
    moves = _moves(message)
    return "x" in moves and "w" not in moves


def _turn(message: FakeMessage) -> bool:
    return any(c.startswith("mj:dc:") for c in _first_ids(message))


async def test_a_claim_offer_without_a_win_arrives_silently(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await open_table(world)
    driver = Driver(world, win=False)

    def offers() -> list[FakeMessage]:
        return [m for p in world.players for m in fake.dms(p) if _claim_offer(m)]

    await driver.play_until(lambda: len(offers()) >= 2, idle=lambda: quiet(bots))
    await quiet(bots)
    assert all(m.silent and m.flags & SUPPRESS_NOTIFICATIONS for m in offers())
    turns = [m for p in world.players for m in fake.dms(p) if _turn(m)]
    assert turns and not any(m.silent for m in turns)
