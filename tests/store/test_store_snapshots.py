"""Snapshots in the store (migration 0007): written with their action, sealed with the
log's digest, one per live hand, gone when the hand ends; read back in batches."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import (
    ActionRow,
    ConstraintError,
    NewAction,
    NewSnapshot,
    StaleAction,
    Store,
    log_digest,
    next_log_digest,
    state_digest,
)
from tests.narrowing import known
from tests.store.helpers import Game, NewGame

VERSION = "1-test"


async def append(store: Store, game: Game, seq: int, snapshot: str | None = None) -> None:
    await store.log.append(game.hand.id, seq, seq % 4, "discard", {"tile": f"{seq % 9 + 1}m"},
                           "player", 200.0 + seq,
                           snapshot=None if snapshot is None else
                           NewSnapshot(seq, VERSION, snapshot))


async def test_a_snapshot_is_written_with_its_action_and_sealed_with_the_log(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    for seq in range(1, 4):
        await append(store, game, seq)
    await append(store, game, 4, snapshot='{"at":4}')
    [snap] = await store.log.snapshots(game.hand.id)
    actions = await store.log.actions(game.hand.id)
    assert (snap.seq, snap.version, snap.state) == (4, VERSION, '{"at":4}')
    assert snap.log_digest == log_digest(
        (a.seq, a.seat, a.kind, '{"tile":"' + a.payload["tile"] + '"}') for a in actions)
    assert snap.state_digest == state_digest(VERSION, '{"at":4}')


async def test_a_hand_keeps_only_its_newest_snapshot(store: Store, new_game: NewGame) -> None:
    game = await new_game()
    for seq in range(1, 9):
        await append(store, game, seq, snapshot=f'{{"at":{seq}}}' if seq % 4 == 0 else None)
    assert [s.seq for s in await store.log.snapshots(game.hand.id)] == [8]


async def test_a_snapshot_lands_only_with_its_action(store: Store, new_game: NewGame) -> None:
    game = await new_game()
    await append(store, game, 1)
    with pytest.raises(StaleAction):  # the compare-and-set refuses: nothing written
        await append(store, game, 1, snapshot="{}")
    with pytest.raises(ConstraintError):  # a snapshot of another action
        await store.log.append(game.hand.id, 2, 0, "pass", {}, "player", 1.0,
                               snapshot=NewSnapshot(3, VERSION, "{}"))
    with pytest.raises(ConstraintError):  # the snapshot fails: so does its action
        await store.log.append(game.hand.id, 2, 0, "pass", {}, "player", 1.0,
                               snapshot=NewSnapshot(2, "", "{}"))
    assert [a.seq for a in await store.log.actions(game.hand.id)] == [1]
    assert await store.log.snapshots(game.hand.id) == []


async def test_the_end_of_a_hand_deletes_its_snapshot(store: Store, new_game: NewGame) -> None:
    game = await new_game()
    await append(store, game, 1, snapshot="{}")
    await store.endings.finish_hand(game.hand.id, NewAction(2, 0, "win", {}, "player", 300.0),
                                    settlements=[], deltas=[], at=300.0)
    assert await store.log.snapshots(game.hand.id) == []


async def test_cancelling_a_table_deletes_its_live_hand_s_snapshot(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    await append(store, game, 1, snapshot="{}")
    await store.endings.cancel_table(game.table.id, at=300.0)
    assert await store.log.snapshots(game.hand.id) == []


async def test_table_loads_read_the_snapshot_its_log_digest_and_the_actions_after_it(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    other = await new_game(channel_id=999, users=(5, 6, 7))
    for seq in range(1, 7):
        await append(store, game, seq, snapshot="{}" if seq == 4 else None)
    await append(store, other, 1)
    loads = await store.rebuilds.load([game.table.id, other.table.id, 12345])
    assert set(loads) == {game.table.id, other.table.id}
    load = loads[game.table.id]
    assert (load.table, load.match, load.hands) == (game.table, game.match, (game.hand,))
    assert [s.seat for s in load.seats] == [0, 1, 2, 3]
    log = load.log
    assert log is not None and log.snapshot is not None
    assert log.digest_at_snapshot == log.snapshot.log_digest
    assert [a.seq for a in log.actions] == [5, 6] and log.last_seq == 6
    assert [a.seq for a in known(loads[other.table.id].log).actions] == [1]
    whole = (await store.rebuilds.load([game.table.id], snapshots=False))[game.table.id].log
    assert whole is not None and whole.snapshot is None
    assert [a.seq for a in whole.actions] == [1, 2, 3, 4, 5, 6]
    assert whole.actions == tuple(await store.log.actions(game.hand.id))


async def test_table_loads_of_many_hands_read_each_log_from_its_own_snapshot(
        store: Store, new_game: NewGame, monkeypatch: pytest.MonkeyPatch) -> None:
    """More hands than one statement takes (read in parts), each with its snapshot at
    its own seq, or none: every log starts at its own snapshot's action."""
    monkeypatch.setattr("bot.store.rebuilds._CHUNK", 4)
    games = [await new_game(channel_id=700 + k, users=(10 + k,)) for k in range(7)]
    for k, game in enumerate(games):
        for seq in range(1, 3 + k):
            await append(store, game, seq, snapshot="{}" if k % 3 and seq == k else None)
    loads = await store.rebuilds.load([g.table.id for g in games])
    for k, game in enumerate(games):
        log = loads[game.table.id].log
        assert log is not None and log.last_seq == 2 + k
        if k % 3:
            assert log.snapshot is not None and log.snapshot.seq == k
            assert log.digest_at_snapshot == log.snapshot.log_digest
            assert [a.seq for a in log.actions] == list(range(k + 1, 3 + k))
        else:
            assert log.snapshot is None and [a.seq for a in log.actions] == list(range(1, 3 + k))


async def test_table_loads_tell_a_snapshot_whose_log_changed(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    for seq in range(1, 5):
        await append(store, game, seq, snapshot="{}" if seq == 4 else None)
    # another writer's log (a backup restored over part of it, say): actions 2… deleted
    # and other ones appended in their place
    await store._db.execute(f"DELETE FROM actions WHERE hand_id = {game.hand.id} AND seq >= 2")
    await store.log.append(game.hand.id, 2, 1, "discard", {"tile": "9p"}, "player", 9.0)
    for seq in range(3, 5):
        await append(store, game, seq)
    log = (await store.rebuilds.load([game.table.id]))[game.table.id].log
    assert log is not None and log.snapshot is not None and log.snapshot.seq == 4
    assert log.digest_at_snapshot is not None
    assert log.digest_at_snapshot != log.snapshot.log_digest
    await store._db.execute("DELETE FROM actions WHERE seq >= 3")
    log = (await store.rebuilds.load([game.table.id]))[game.table.id].log
    assert log is not None and log.digest_at_snapshot is None  # the log is shorter
    assert log.actions == () and log.last_seq == 0


async def test_a_stored_action_is_never_rewritten(store: Store, new_game: NewGame) -> None:
    """The log is append-only (migration 0012): a digest stored beside a rewritten
    payload would vouch for a log that is not there, so the database refuses."""
    game = await new_game()
    for seq in range(1, 5):
        await append(store, game, seq, snapshot="{}" if seq == 4 else None)
    for sql in ("UPDATE actions SET payload = '{\"tile\":\"9p\"}' WHERE seq = 2",
                "UPDATE actions SET log_digest = NULL WHERE seq = 4"):
        with pytest.raises(ConstraintError, match="append-only"):
            await store._db.execute(sql)
    log = (await store.rebuilds.load([game.table.id]))[game.table.id].log
    assert log is not None and log.snapshot is not None
    assert log.digest_at_snapshot == log.snapshot.log_digest


def stored_text(a: ActionRow) -> tuple[int, int, str, str]:
    return a.seq, a.seat, a.kind, '{"tile":"' + a.payload["tile"] + '"}'


async def stored_digests(store: Store, hand_id: int) -> list[str | None]:
    rows = await store._db.all(  # the test's own look at the column
        "SELECT log_digest FROM actions WHERE hand_id = ? ORDER BY seq", (hand_id,))
    return [None if r[0] is None else bytes(r[0]).hex() for r in rows]  # stored as 32 bytes


async def test_each_action_carries_the_running_digest_of_the_log_up_to_it(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    for seq in range(1, 7):
        await append(store, game, seq)
    actions = await store.log.actions(game.hand.id)
    assert await stored_digests(store, game.hand.id) == [
        log_digest(stored_text(a) for a in actions[:n]) for n in range(1, 7)]
    assert log_digest(stored_text(a) for a in actions[:3]) == next_log_digest(
        log_digest(stored_text(a) for a in actions[:2]), *stored_text(actions[2]))


async def test_the_chain_follows_the_stored_log_not_a_process_s_wrong_memory(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    for seq in range(1, 4):
        await append(store, game, seq)
    store.log._digests[game.hand.id] = (3, "0" * 64)  # what it believes is not what is stored
    await append(store, game, 4, snapshot="{}")
    actions = await store.log.actions(game.hand.id)
    truth = log_digest(stored_text(a) for a in actions)
    assert (await stored_digests(store, game.hand.id))[-1] == truth
    [snap] = await store.log.snapshots(game.hand.id)
    assert snap.log_digest == truth


async def test_a_log_written_before_the_chain_is_hashed_from_its_rows(
        store: Store, new_game: NewGame) -> None:
    """Actions written before migration 0012 carry no digest: the first append after
    works it out from the rows; a snapshot on such an action is not vouched for."""
    game = await new_game()
    for seq in (1, 2):
        await store._db.execute(
            "INSERT INTO actions (hand_id, seq, seat, kind, payload, source, at) VALUES"
            f" ({game.hand.id}, {seq}, {seq % 4}, 'discard', '{{\"tile\":\"{seq + 1}m\"}}',"
            f" 'player', {200.0 + seq})")
    load = (await store.rebuilds.load([game.table.id]))[game.table.id]
    assert load.log is not None and [a.seq for a in load.log.actions] == [1, 2]
    await append(store, game, 3, snapshot="{}")
    actions = await store.log.actions(game.hand.id)
    [snap] = await store.log.snapshots(game.hand.id)
    assert snap.log_digest == log_digest(stored_text(a) for a in actions)
    assert await stored_digests(store, game.hand.id) == [None, None, snap.log_digest]
    log = (await store.rebuilds.load([game.table.id]))[game.table.id].log
    assert log is not None and log.digest_at_snapshot == snap.log_digest


async def test_table_loads_hold_totals_deadlines_and_locales(
        store: Store, new_game: NewGame) -> None:
    game = await new_game()
    await store.lobby.set_user_locale(1, "zh-CN", at=1.0)
    await store.deadlines.set(game.hand.id, 1, seq=1, kind="turn", set_at=1.0, due_at=9.0)
    load = (await store.rebuilds.load([game.table.id]))[game.table.id]
    assert dict(load.locales) == {1: "zh-CN"}
    assert [(d.seat, d.seq) for d in load.deadlines] == [(1, 1)]
    assert load.settlements == () and dict(load.penalties) == {}


async def test_the_seal_is_the_log_s_digest_whether_or_not_the_store_was_reopened(
        store: Store, new_game: NewGame, database: Path | str) -> None:
    game = await new_game()
    for seq in range(1, 6):
        await append(store, game, seq)
    again = await Store.open(database)  # a restart: this store has not seen the hand
    try:
        for seq in range(6, 13):
            await append(again, game, seq, snapshot="{}" if seq in (7, 12) else None)
            [snap] = await again.log.snapshots(game.hand.id) if seq >= 7 else [None]
            if snap is not None:
                rows = await again.log.actions(game.hand.id, after=0)
                assert snap.log_digest == log_digest(
                    (a.seq, a.seat, a.kind, '{"tile":"' + a.payload["tile"] + '"}')
                    for a in rows[:snap.seq])
    finally:
        await again.close()
    loads = await store.rebuilds.load([game.table.id])
    log = loads[game.table.id].log
    assert log is not None and log.snapshot is not None and log.snapshot.seq == 12
    assert log.digest_at_snapshot == log.snapshot.log_digest


async def test_what_a_store_remembers_of_hands_others_ended_is_bounded(
        store: Store, database: Path | str, new_game: NewGame,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Shared mode: this process appends to hands that another process ends. Each
    hand's last digest this store remembers is forgotten at the latest once more
    hands than `DIGESTS_KEPT` came after it: memory stays bounded in a bot that runs
    for months (the other process's end is never seen here)."""
    monkeypatch.setattr("bot.store.log.DIGESTS_KEPT", 8)
    other = await Store.open(database)
    try:
        for k in range(30):
            hand = (await new_game(500 + k)).hand
            await store.log.append(hand.id, 1, 0, "discard", {"tile": "1m"}, "player",
                                   110.0)
            await other.endings.finish_hand(hand.id, None, settlements=[], deltas=[], at=120.0)
            assert len(store.log._digests) <= 8
        # the newest are still remembered, and a forgotten one is read back when needed
        hand = (await new_game(600)).hand
        for seq in range(1, 12):
            await store.log.append(hand.id, seq, 0, "discard", {"tile": "1m"}, "player",
                                   110.0 + seq)
        assert store.log._digests[hand.id][0] == 11
    finally:
        await other.close()


async def test_a_load_tells_the_last_digest_and_the_next_append_chains_from_it(
        store: Store, new_game: NewGame, database: Path | str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A cold table's load reads its log's last action with the digest stored with it
    (`HandLog.last_digest`); told it (`ActionLog.known`), a store that never appended
    to the hand (a restart) chains the next action from it without reading it, and a
    wrong guess is read again as before."""
    game = await new_game()
    for seq in range(1, 5):
        await append(store, game, seq, snapshot="{}" if seq == 2 else None)
    log = known((await store.rebuilds.load([game.table.id]))[game.table.id].log)
    assert log.last_seq == 4
    assert log.last_digest == (await stored_digests(store, game.hand.id))[-1]
    again = await Store.open(database)  # a restart: this store has not seen the hand
    try:
        again.log.known(game.hand.id, log.last_seq, log.last_digest)
        from bot.store import log as log_module
        real = log_module._digest_upto

        async def unread(*args: object) -> str:
            raise AssertionError("the digest was read again")
        monkeypatch.setattr(log_module, "_digest_upto", unread)
        await append(again, game, 5)
        again.log.known(game.hand.id, 5, "0" * 64)  # not newer than what it appended
        again.log._digests[game.hand.id] = (5, "0" * 64)  # a wrong guess: read again
        monkeypatch.setattr(log_module, "_digest_upto", real)
        await append(again, game, 6)
    finally:
        await again.close()
    actions = await store.log.actions(game.hand.id)
    assert (await stored_digests(store, game.hand.id))[-1] == \
        log_digest(stored_text(a) for a in actions)
