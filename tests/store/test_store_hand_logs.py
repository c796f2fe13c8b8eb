"""A hand ending now keeps its log deflated (`bot.store.hand_logs`, migration 0033):
the text migration 0032's encoder gives, packed; read back as the rows it was, its
running digest checked, its facts the same as a rebuild's. SQLite and PostgreSQL."""

from __future__ import annotations

import random

from bench.stats_play import play_matches, seeded_deals
from bot.service import FakeClock, RecordingNotifier, TableService
from bot.service.facts import rebuild_facts
from bot.store import Store
from bot.store.compact import decode
from bot.store.hand_logs import pack, text_of
from bot.store.rows import HAND_FACT_COLUMNS

FACTS = "SELECT * FROM hand_facts ORDER BY hand_id, seat"
COLUMNS = len(HAND_FACT_COLUMNS)
"""hand_facts' columns (the rows compared whole)."""


def test_a_packed_text_is_the_text() -> None:
    text = "bd2z0,0d5zmZ6m,1c35sYzs.~,2n1111siGoo,1sdHwv~-2"
    assert text_of("", pack(text)) == text
    assert text_of(text, None) == text
    assert len(pack(text * 10)) < len(text * 10) / 3


async def test_a_hand_ending_keeps_its_log_packed_and_whole(store: Store) -> None:
    rng = random.Random(5)
    clock = FakeClock()
    service = TableService(store, RecordingNotifier(), clock=clock, computer_pause=0.0)
    seeded_deals(service, rng)
    for rules in ("shanghai", "hangzhou"):
        await play_matches(service, clock, rng, people=(1, 2, 3), computers=1, guild_id=7,
                           channel_id=70, rules=rules, hands=2, timeouts=0.05)
    db = store._db
    rows = await db.all("SELECT l.hand_id, l.log, l.packed, h.started_at FROM hand_logs l"
                        " JOIN hands h ON h.id = l.hand_id ORDER BY l.hand_id")
    ended = await db.all("SELECT id FROM hands WHERE status = 'ended' ORDER BY id")
    assert [int(r[0]) for r in rows] == [int(r[0]) for r in ended] and len(rows) >= 4
    assert not await db.all("SELECT 1 FROM actions")  # every hand ended: no row left
    for r in rows:
        hand_id, log, packed, started = r[0], str(r[1]), r[2], r[3]
        assert log == "" and packed
        text = text_of(log, packed)
        assert len(bytes(packed)) < len(text)
        decoded = decode(int(hand_id), float(started), text)
        assert [d.row.seq for d in decoded] == list(range(1, len(decoded) + 1))
        assert await store.log.verify(int(hand_id))
        assert [a.seq for a in await store.log.actions(int(hand_id))] == \
            [d.row.seq for d in decoded]
    written = [tuple(r[i] for i in range(COLUMNS)) for r in await db.all(FACTS)]
    await rebuild_facts(store, clock.now, force=True)  # read from the packed logs
    assert [tuple(r[i] for i in range(COLUMNS)) for r in await db.all(FACTS)] == written
    assert (await store.log.answer_times([1, 2, 3]))[1]
    service.stop()
