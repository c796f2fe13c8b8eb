"""State snapshots: a live hand rebuilt from its newest snapshot and the actions after
it, never trusted over the log.

Every ``snapshot_every`` actions, the state the action reached is written with it, in
the same transaction (`snapshot_of`, `ActionLog.append(snapshot=…)`), as the
engine's explicit text (engine/game/snapshot.py, never pickle). On a rebuild
(`resume`) the snapshot is used only if all of these hold, else the whole log is
replayed as before:

- its version is this engine's (`engine_version`: the format and a fingerprint of the
  engine's code, so a snapshot written by another engine is ignored, not reinterpreted);
- its text still hashes to the digest written with it (not damaged);
- the running digest stored with the action at its seq (chained from the action
  before it at every append, migration 0012; stored actions are never rewritten) is
  the one written with it: it belongs to this log, not to one rolled back or appended
  again. The actions before that one are not read at all;
- it decodes to a state of this hand (tile by tile, see `engine.game.snapshot.decode`)
  whose seq is its own, and every action after it applies in order.
"""

from __future__ import annotations

import functools
import hashlib
from importlib import resources
from importlib.resources.abc import Traversable

from bot.service.fairness import parse_wall
from bot.store import HandLog, HandRow, NewSnapshot, Store, TableRow, state_digest
from engine.game import Action, HandState, IllegalAction, Phase, apply, replay
from engine.game.snapshot import SNAPSHOT_FORMAT, SnapshotError, decode, encode
from engine.rules.common import TableOptions

SNAPSHOT_EVERY = 1
"""A snapshot with every action: a rebuild replays nothing (the action after a snapshot,
replayed on a restored state whose analysis is cold, cost about 1.7M instructions;
half a one a hand at every 2 was a third of a rebuild), and a move pays for one encoding
of the seats it changed (format 2, the others' texts memoised) and a snapshot row.
Measured with valgrind (bench/README.md, session 9): 300 live tables rebuilt in
880M instructions at 7679e08 (format 1, every 2), 710M with format 2 at every 2, 454M
at every 1; a move costs about 114k instructions more at every 1 than at every 2."""


class UnusableSnapshot(Exception):
    """Why a snapshot was not used (the log is replayed instead)."""


@functools.cache
def engine_version() -> str:
    """The snapshot format and a fingerprint of the engine's code (every ``.py`` under
    ``engine/``): any change to the engine makes older snapshots unusable, since the
    same log may then lead to another state."""
    digest = hashlib.sha256()
    for name, data in sorted(_sources(resources.files("engine"), "")):
        digest.update(name.encode() + b"\0" + data + b"\0")
    return f"{SNAPSHOT_FORMAT}-{digest.hexdigest()[:24]}"


def _sources(folder: Traversable, prefix: str) -> list[tuple[str, bytes]]:
    out = []
    for entry in folder.iterdir():
        if entry.is_dir() and entry.name != "__pycache__":
            out += _sources(entry, f"{prefix}{entry.name}/")
        elif entry.name.endswith(".py"):
            out.append((prefix + entry.name, entry.read_bytes()))
    return out


def snapshot_of(state: HandState, every: int) -> NewSnapshot | None:
    """The snapshot to write with the action that reached ``state`` (every ``every``
    actions of a hand in play; none with ``every`` 0)."""
    if every <= 0 or state.seq % every or state.phase is Phase.ENDED:
        return None
    return NewSnapshot(state.seq, engine_version(), encode(state))


async def replay_hand(store: Store, row: TableRow, options: TableOptions, hand: HandRow
                      ) -> HandState:
    """A hand's state replayed from its whole log (an ended hand's settlement, or a
    live hand whose snapshot is not usable)."""
    actions = [Action.from_json(a.payload) for a in await store.log.actions(hand.id)]
    return replay(row.rules, options, parse_wall(hand.wall), hand.dice, hand.dealer,
                  actions, streak=hand.streak, huangfan=hand.huangfan > 0)


def resume(rules: str, options: TableOptions, hand: HandRow, log: HandLog) -> HandState:
    """The hand's state from its snapshot and the actions after it; `UnusableSnapshot`
    (saying why) if the snapshot does not check out against the log."""
    snap = log.snapshot
    if snap is None:
        raise UnusableSnapshot("there is none")
    if snap.version != engine_version():
        raise UnusableSnapshot(f"written by engine {snap.version}, not {engine_version()}")
    if state_digest(snap.version, snap.state) != snap.state_digest:
        raise UnusableSnapshot("its text does not match its digest")
    if log.digest_at_snapshot != snap.log_digest:
        raise UnusableSnapshot("the log up to it is not the log it was written with")
    try:
        state = decode(snap.state, rules, options, parse_wall(hand.wall), hand.dealer,
                       hand.dice, hand.streak, hand.huangfan > 0)
    except SnapshotError as exc:
        raise UnusableSnapshot(f"it does not decode: {exc}") from None
    if state.seq != snap.seq:
        raise UnusableSnapshot(f"it holds the state after action {state.seq}, not {snap.seq}")
    for row in log.actions:
        if row.seq != state.seq + 1:
            raise UnusableSnapshot(f"action {row.seq} does not follow {state.seq}")
        try:
            state, _ = apply(state, Action.from_json(row.payload))
        except IllegalAction as exc:
            raise UnusableSnapshot(f"action {row.seq} does not apply to it: {exc}") from None
    return state
