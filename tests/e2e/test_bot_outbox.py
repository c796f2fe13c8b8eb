"""Announcements reach the channel exactly once across a crash: one the bot may already
have posted when it died (left "sending") is looked for in the channel before it is
posted again, and one it had not posted yet is posted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from botkit import make_bot, make_world, quiet
from fakediscord import BotLauncher, FakeDiscord

from bot.service import Cause, Receipt
from bot.store import Store


class Died(Exception):
    """The bot "dies" at this point of a delivery (the outbox logs it and goes on)."""


async def test_an_unsure_announcement_is_posted_once(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "db.sqlite3"
    world = make_world(fake)
    real_sending, real_delivered = Receipt.sending, Receipt.delivered

    async def sending(self: Receipt) -> None:
        await real_sending(self)
        if self.key.startswith("reveal-"):  # died after marking, before the send
            raise Died(self.key)

    async def delivered(self: Receipt) -> None:
        if self.key.startswith(("settlement-", "match_ended-")):  # Discord has it
            raise Died(self.key)
        await real_delivered(self)

    monkeypatch.setattr(Receipt, "sending", sending)
    monkeypatch.setattr(Receipt, "delivered", delivered)
    # Pictures drawn in this process: in a picture process (niceness +10) the first
    # one waited for that process's warm-up, which a loaded machine starved (measured
    # at load 13: the match ended 11 s after it began, and after more than 30 s in a
    # failed run; with pictures here, 2.9 s). Where pictures are drawn is not what
    # this test is about.
    running = await bots.start(make_bot(db, picture_processes=0))
    table = await computers_play_a_match(running.client, world)
    await fake.wait_for(lambda: ended(fake, world), timeout=30)
    await quiet(bots)
    assert await statuses(db, table) == {"settlement": "sending", "reveal": "sending",
                                         "match_ended": "sending"}
    assert [len(posted(fake, world)[k]) for k in ("settlement", "reveal", "match_ended")] \
        == [1, 0, 1]

    monkeypatch.setattr(Receipt, "sending", real_sending)
    monkeypatch.setattr(Receipt, "delivered", real_delivered)
    await bots.restart(running, make_bot(db, picture_processes=0))
    await quiet(bots)
    assert {k: len(v) for k, v in posted(fake, world).items()} == \
        {"hand_started": 1, "settlement": 1, "reveal": 1, "leaderboard": 1, "match_ended": 1}
    assert await statuses(db, table) == {}
    history = fake.requests("GET", f"/api/v10/channels/{world.channel.id}/messages")
    assert history, "the channel was not looked at before posting again"


async def computers_play_a_match(client: Any, world: Any) -> int:
    """A one-hand table of four computer players, started at once."""
    service = client.service
    host = world.players[0].id
    info = await service.create_table(Cause(host, "p1"), guild_id=world.guild.id,
                                      channel_id=world.channel.id, rules="shanghai",
                                      options={"hands": 1}, sit=False)
    table: int = info.ref.table_id
    for _ in range(4):
        await service.add_computer(Cause(host), table)
    await service.start(Cause(host), table)
    return table


def ended(fake: FakeDiscord, world: Any) -> bool:
    return any("is over" in m.content for m in fake.messages(world.channel))


def posted(fake: FakeDiscord, world: Any) -> dict[str, list[Any]]:
    """The channel's announcements by kind (deleted messages included)."""
    out: dict[str, list[Any]] = {k: [] for k in ("hand_started", "settlement", "reveal",
                                                 "leaderboard", "match_ended")}
    for m in fake.messages(world.channel, deleted=True):
        files = [a.filename for a in m.attachments]
        if any(f.startswith("settlement-") for f in files):
            out["settlement"].append(m)
        elif any(f.startswith("leaderboard-") for f in files):
            out["leaderboard"].append(m)
        elif "SHA-256" in m.content:
            out["hand_started"].append(m)
        elif "salt" in m.content:
            out["reveal"].append(m)
        elif "is over" in m.content:
            out["match_ended"].append(m)
    return out


async def statuses(db: Path, table: int) -> dict[str, str]:
    """Kind → status of the table's announcements that are not delivered."""
    store = await Store.open(db)
    try:
        return {a.kind: a.status for a in await store.outbox.of_table(table)
                if a.status != "delivered"}
    finally:
        await store.close()
