"""`Store`: every SQL statement the table service needs, behind short typed methods.

The SQL is written once, for both backends (`bot.store.database`): SQLite, the
embedded default, and PostgreSQL, for several processes on one database. One
connection per Store. Writes run in transactions where whatever a write reads before
changing is locked first (SQLite: ``BEGIN IMMEDIATE`` takes the write lock up front;
PostgreSQL: ``FOR UPDATE`` on the rows), so a racing writer waits instead of deciding on
a stale read; an asyncio lock keeps two tasks of this process from interleaving
statements on the shared connection. Any exception inside a write rolls it back: a
failed write changes nothing. Constraint violations surface as `ConstraintError`, not
the driver's errors.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from contextvars import ContextVar
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

from bot.store.database import Database, Params, Row, Session, Work
from bot.store.db import DEFAULT_BUSY_TIMEOUT_MS, file_problem, unusable
from bot.store.errors import (
    AlreadySeated,
    Conflict,
    ConstraintError,
    HandEnded,
    MigrationError,
    NotFound,
    SeatTaken,
    StaleAction,
    StaleStatus,
    StaleTable,
    StoreError,
)
from bot.store.migrate import Migration, apply_migrations
from bot.store.postgres import is_postgres_url
from bot.store.postgres import open_migrated as _open_postgres
from bot.store.rows import (
    LIVE_TABLE_STATUSES,
    ActionRow,
    ActionSource,
    AnnouncementRow,
    AnnouncementStatus,
    DeadlineKind,
    DeadlineRow,
    Departure,
    HandLog,
    HandReplyRow,
    HandRow,
    LeaderboardDelta,
    LeaderboardRow,
    MatchRow,
    MatchStatus,
    NewAction,
    NewAnnouncement,
    NewDeadline,
    NewHand,
    NewSnapshot,
    OwedDm,
    Rules,
    SeatRow,
    Settlement,
    SettlementRow,
    SnapshotRow,
    StandingChoices,
    TableLoad,
    TableRow,
    TableStatus,
    announcement_key,
    fraction_text,
    log_digest,
    next_log_digest,
    state_digest,
    totals_json,
)
from bot.store.sqlite import SqliteDatabase, sqlite_path

_WALL = re.compile(r"(?:[1-9][mpszf])+")
_LIVE = "(" + ", ".join(f"'{s}'" for s in LIVE_TABLE_STATUSES) + ")"
_PEOPLE = "player_key LIKE 'user:%'"
"""A leaderboard line of a person: computers never rank (lines kept from before are
not shown)."""
_HAND_SELECT = ("SELECT h.*, m.table_id FROM hands h JOIN matches m ON m.id = h.match_id")
_DEADLINE_SELECT = ("SELECT d.*, m.table_id FROM deadlines d "
                    "JOIN hands h ON h.id = d.hand_id JOIN matches m ON m.id = h.match_id")
_MOMENT = ("CASE WHEN d.kind <> 'computer' AND d.reminded_at IS NULL"
           " THEN d.set_at + (d.due_at - d.set_at) / 2 ELSE d.due_at END")
"""A deadline's next moment: a person's reminder at half time (`DeadlineRow.half_at`,
computed the same way) until it went out, then the deadline."""
_CLAIMABLE = f"{_MOMENT} <= ? AND (d.claimed_until IS NULL OR d.claimed_until < ?)"


def _skip_locked(db: Session, table: str) -> str:
    """Claims on PostgreSQL: lock the rows taken, skipping those another process's claim
    holds right now (it may commit them as claimed); nothing on SQLite, whose write
    transaction already holds the whole database."""
    return f" FOR UPDATE OF {table} SKIP LOCKED" if db.for_update else ""


DIGESTS_KEPT = 10_000
"""Live hands whose last digest a store remembers (`Store._remember`): one forgotten
costs its next append one more read."""

_CHUNK = 500
"""Tables read per statement by `Store.table_loads` (SQLite limits ``?`` per statement)."""

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


def _marks(values: Sequence[Any]) -> str:
    """``?, ?, …``, one per value (``NULL`` for none: ``IN (NULL)`` matches nothing)."""
    return ", ".join("?" * len(values)) or "NULL"


def _grouped(items: Iterable[V], key: Callable[[V], K]) -> dict[K, list[V]]:
    """Items by key, in the order given."""
    out: dict[K, list[V]] = {}
    for item in items:
        out.setdefault(key(item), []).append(item)
    return out


def _lock(db: Session, lock: bool) -> str:
    return db.for_update if lock else ""


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


async def _swap_dm(db: Session, table_id: int, seat: int, message_id: int | None,
                   order: int | None, shows: int | None) -> int | None:
    """`Store.swap_dm_message`'s transaction."""
    row = await db.one("SELECT dm_message_id, dm_order FROM seats WHERE table_id = ?"
                       f" AND seat = ?{db.for_update}", (table_id, seat))
    if row is None:
        return None
    stored = row["dm_order"]
    if stored is not None and order is not None and order < int(stored):
        return message_id
    if stored is not None and order is None and shows is not None and shows < int(stored):
        return message_id
    # a DM showing no decision keeps the order of the last one that did: a decision
    # pending is owed a DM (`owed_dms`) only if it is newer than that
    await db.run("UPDATE seats SET dm_message_id = ?, dm_order = COALESCE(?, dm_order)"
                 " WHERE table_id = ? AND seat = ?", (message_id, order, table_id, seat))
    old = row["dm_message_id"]
    return int(old) if old is not None else None


def _reply_of(row: Row) -> HandReplyRow | None:
    if row["reply_message_id"] is None:
        return None
    return HandReplyRow(int(row["reply_message_id"]), row["reply_token"],
                        int(row["reply_user_id"]), float(row["reply_until"]),
                        int(row["reply_order"]))


async def _swap_reply(db: Session, table_id: int, seat: int, reply: HandReplyRow | None
                      ) -> HandReplyRow | None:
    """`Store.swap_hand_reply`'s transaction."""
    row = await db.one("SELECT reply_message_id, reply_token, reply_user_id, reply_until,"
                       " reply_order FROM seats WHERE table_id = ? AND seat = ?"
                       f"{db.for_update}", (table_id, seat))
    if row is None:
        return None
    new = (None,) * 5 if reply is None else \
        (reply.message_id, reply.token, reply.user_id, reply.until, reply.order)
    await db.run("UPDATE seats SET reply_message_id = ?, reply_token = ?, reply_user_id = ?,"
                 " reply_until = ?, reply_order = ? WHERE table_id = ? AND seat = ?",
                 (*new, table_id, seat))
    return _reply_of(row)


class TableBump:
    """Shared mode: a table whose change counter (``game_tables.version``, 0008) goes one
    up inside every write transaction made while it is armed (`Store.bumping`), so a
    command's changes and its bump commit together (no transaction of their own).

    ``known``: the counter as this process last knew it to match its memory; after each
    bump it is the returned value if that is exactly one more, else None (another
    process wrote between: memory can no longer be trusted)."""

    __slots__ = ("armed", "bumps", "expect", "known", "table_id")

    def __init__(self, table_id: int, known: int | None, expect: bool = False) -> None:
        self.table_id = table_id
        self.known = known
        self.armed = True
        self.bumps = 0
        self.expect = expect and known is not None
        """The next bump is a compare-and-set: it lands only on ``known``, else the
        transaction rolls back with `StaleTable` (memory was not read fresh)."""

    def landed(self, version: int | None) -> None:
        """A bump committed with this value (None: the table is gone)."""
        self.bumps += 1
        self.expect = False
        known = self.known
        self.known = version if known is not None and version == known + 1 else None


_BUMPING: ContextVar[TableBump | None] = ContextVar("table_bump", default=None)
"""The table the current command bumps in its writes (unset: no bump, as off shared
mode, where a write pays nothing for it but this lookup)."""


async def _bump_in(db: Session, table_id: int, expected: int | None) -> int | None:
    """One more on the table's counter; with ``expected``, only from that value, else
    `StaleTable` (the caller's transaction rolls back)."""
    if expected is None:
        row = await db.one("UPDATE game_tables SET version = version + 1 WHERE id = ?"
                           " RETURNING version", (table_id,))
        return None if row is None else int(row[0])
    row = await db.one("UPDATE game_tables SET version = version + 1 WHERE id = ?"
                       " AND version = ? RETURNING version", (table_id, expected))
    if row is None:
        raise StaleTable(f"table {table_id} changed since version {expected}")
    return int(row[0])


async def _bumped(db: Session, work: Work[T], table_id: int, expected: int | None,
                  *args: Any) -> tuple[T, int | None]:
    """``work`` and the table's bump (`_bump_in`) in the same transaction."""
    done = await work(db, *args)
    return done, await _bump_in(db, table_id, expected)


async def _append_now(db: Session, hand_id: int, action: NewAction,
                      deadlines: Sequence[NewDeadline] | None, snapshot: NewSnapshot | None,
                      cached: tuple[int, str] | None) -> tuple[ActionRow, str]:
    """`Store.append_action`'s transaction, handed to the database whole
    (`Database.write_at_once`): the hand is live, ``action`` carries the next seq
    (compare-and-set) and the log's running digest up to it, the deadlines replaced, the
    snapshot (if any) sealed with that digest. Returns the action's row and the digest
    (``cached``: the one up to the seq before, if this process knows it)."""
    await _lock_live_hand(db, hand_id)
    payload, digest = await _insert_next(db, hand_id, action, cached)
    if deadlines is not None:
        await _replace_deadlines_in(db, hand_id, deadlines)
    if snapshot is not None:
        # the older snapshots go in the same statement (a trigger, migration 0007)
        await db.run("INSERT INTO hand_snapshots (hand_id, seq, version, log_digest, state,"
                     " state_digest) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (hand_id, seq)"
                     " DO UPDATE SET version = excluded.version, log_digest ="
                     " excluded.log_digest, state = excluded.state, state_digest ="
                     " excluded.state_digest",
                     (hand_id, snapshot.seq, snapshot.version, digest,
                      snapshot.state, state_digest(snapshot.version, snapshot.state)))
    return (ActionRow(hand_id, action.expected_seq, action.seat, action.kind,
                      json.loads(payload), action.source, float(action.at)), digest)


async def _lock_live_hand(db: Session, hand_id: int) -> None:
    """Lock the hand's row (on PostgreSQL; SQLite's write lock already covers the whole
    file), so what follows reads the log after any racing process's append committed;
    `NotFound` or `HandEnded` unless the hand is live."""
    hand = await db.one(f"SELECT status FROM hands WHERE id = ?{db.for_update}", (hand_id,))
    if hand is None:
        raise NotFound(f"no hand {hand_id}")
    if hand[0] != "live":
        raise HandEnded(f"hand {hand_id} has ended")


async def _insert_next(db: Session, hand_id: int, action: NewAction,
                       cached: tuple[int, str] | None) -> tuple[str, str]:
    """The log's compare-and-set (the hand locked first): ``action`` lands only as the
    hand's next seq, else `StaleAction`. Returns the payload's stored JSON text and the
    log's running digest up to it (`next_log_digest`, stored with the action).

    The digest is chained from the one stored with the action before: from ``cached``
    (this process's last append to the hand) when the insert finds that one stored, so
    the check, the chain and the insert are one statement (one round trip to a
    PostgreSQL server on every move); else from the stored one, read first. The next
    seq is read on its own only to tell a stale action."""
    seq = action.expected_seq
    payload = _json(action.payload)
    previous = "" if seq == 1 else cached[1] if cached and cached[0] == seq - 1 else None
    if previous is not None:
        digest = await _insert_chained(db, hand_id, action, payload, previous)
        if digest is not None:
            return payload, digest
        await _refuse_stale(db, hand_id, seq)
        # the seq is the next one, but this process's digest is not the stored one
    digest = await _insert_chained(db, hand_id, action, payload,
                                   await _digest_upto(db, hand_id, seq - 1))
    if digest is None:
        await _refuse_stale(db, hand_id, seq)
        raise ConstraintError(f"action {seq} of hand {hand_id} does not follow its log")
    return payload, digest


async def _insert_chained(db: Session, hand_id: int, action: NewAction, payload: str,
                          previous: str) -> str | None:
    """Insert ``action`` with the digest chained from ``previous`` if its seq is the
    next and ``previous`` is the digest stored with the action before it (none stored:
    a log written before migration 0012, whose digest ``previous`` was worked out from
    the rows); its digest, or None if nothing was written."""
    seq = action.expected_seq
    digest = next_log_digest(previous, seq, action.seat, action.kind, payload)
    landed = await db.run(
        "INSERT INTO actions (hand_id, seq, seat, kind, payload, source, at, log_digest)"
        " SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE ? = (SELECT COALESCE(MAX(seq), 0) + 1"
        " FROM actions WHERE hand_id = ?) AND ? = COALESCE((SELECT log_digest FROM actions"
        " WHERE hand_id = ? AND seq = ?), ?)",
        (hand_id, seq, action.seat, action.kind, payload, action.source, action.at,
         bytes.fromhex(digest), seq, hand_id, bytes.fromhex(previous), hand_id, seq - 1,
         bytes.fromhex(previous)))
    return digest if landed else None


async def _refuse_stale(db: Session, hand_id: int, seq: int) -> None:
    """`StaleAction` unless ``seq`` is the hand's next."""
    row = await db.one("SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE hand_id = ?",
                       (hand_id,))
    next_seq = int(row[0]) if row else 1
    if next_seq != seq:
        raise StaleAction(hand_id, seq, next_seq)


async def _digest_upto(db: Session, hand_id: int, seq: int) -> str:
    """The running digest of the hand's log up to action ``seq`` as stored with it; for
    a log written before migration 0012, worked out from the rows themselves."""
    if seq == 0:
        return ""
    row = await db.one("SELECT log_digest FROM actions WHERE hand_id = ? AND seq = ?",
                       (hand_id, seq))
    if row is not None and row[0] is not None:
        return bytes(row[0]).hex()
    return log_digest((r[0], r[1], r[2], r[3]) for r in await db.all(
        "SELECT seq, seat, kind, payload FROM actions WHERE hand_id = ? AND seq <= ?"
        " ORDER BY seq", (hand_id, seq)))


async def _replace_deadlines_in(db: Session, hand_id: int,
                                deadlines: Sequence[NewDeadline]) -> None:
    """Delete then insert: two deadlines for one seat break the primary key."""
    await db.run("DELETE FROM deadlines WHERE hand_id = ?", (hand_id,))
    if deadlines:
        await db.run_many("INSERT INTO deadlines (hand_id, seat, seq, kind, set_at, due_at)"
                          " VALUES (?, ?, ?, ?, ?, ?)",
                          [(hand_id, d.seat, d.seq, d.kind, d.set_at, d.due_at)
                           for d in deadlines])


class Store:
    """The database of tables, seats, matches, hands, actions, deadlines and standings."""

    def __init__(self, db: Database, path: Path | str) -> None:
        """Use `Store.open`; this only wraps an already prepared database."""
        self._db = db
        self.path = path if isinstance(db, SqliteDatabase) else db.target
        """The SQLite file, or the PostgreSQL URL with its password masked."""
        self._digests: dict[int, tuple[int, str]] = {}
        """Per live hand: the last seq this process appended and the running digest of
        the log up to it (`log_digest`), so the next append chains from it in its one
        insert; updated only after a commit, forgotten when the hand ends (or, past
        `DIGESTS_KEPT` hands, the oldest). A hand not here (after a start), or whose
        stored digest is another (another process appended), reads the stored one."""

    # ---- lifecycle -------------------------------------------------------------------

    @classmethod
    async def open(cls, target: Path | str, *, migrations: Sequence[Migration] | None = None,
                   busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> Store:
        """Open or create the database and bring its schema up to date: ``target`` is
        a SQLite file (a path, or ``sqlite:///path``) or a ``postgresql://`` URL."""
        if is_postgres_url(target):
            return cls(await _open_postgres(str(target), migrations), str(target))
        path = sqlite_path(target)
        db = await SqliteDatabase.open(path, busy_timeout_ms=busy_timeout_ms)
        try:
            await apply_migrations(db.connection, migrations)
        except BaseException as exc:
            await db.close()
            # the first reads and writes find a locked, damaged or read-only file too
            cause = exc.__cause__ if isinstance(exc, MigrationError) else exc
            if cause is not None and file_problem(cause):
                raise unusable(path, cause, busy_timeout_ms) from exc
            raise
        return cls(db, path)

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgres"``."""
        return self._db.dialect

    async def close(self) -> None:
        """Close the connection (on SQLite, checkpointing the WAL when it is the last)."""
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _write(self) -> AbstractAsyncContextManager[Session]:
        """One write transaction: committed if the block returns, rolled back if not
        (with the armed table's bump as its last statement: `bumping`)."""
        bump = _BUMPING.get()
        if bump is None or not bump.armed:
            return self._db.write()
        return self._bumped_write(bump)

    async def _at_once(self, work: Work[T], *args: Any) -> T:
        """``work`` as one transaction handed to the database whole
        (`Database.write_at_once`), with the armed table's bump as its last statement,
        as `_write` adds it."""
        bump = _BUMPING.get()
        if bump is None or not bump.armed:
            return await self._db.write_at_once(work, *args)
        done, version = await self._db.write_at_once(
            _bumped, work, bump.table_id, bump.known if bump.expect else None, *args)
        bump.landed(version)
        return done

    @contextlib.asynccontextmanager
    async def _bumped_write(self, bump: TableBump) -> AsyncIterator[Session]:
        async with self._db.write() as db:
            yield db
            version = await _bump_in(db, bump.table_id, bump.known if bump.expect else None)
        bump.landed(version)  # committed

    def rebase_bump(self, table_id: int, version: int) -> None:
        """The armed bump of this table (if any) counts from ``version`` on: memory was
        just rebuilt from a read of the table at that counter."""
        bump = _BUMPING.get()
        if bump is not None and bump.armed and bump.table_id == table_id:
            bump.known = version

    @contextlib.contextmanager
    def bumping(self, table_id: int, known: int | None, *,
                expect: bool = False) -> Iterator[TableBump]:
        """Shared mode: every write transaction of this task (and of tasks it starts
        meanwhile) also adds one to the table's change counter, in the same transaction
        — the command's changes and the news that the table changed commit together.
        ``known``: the counter memory was built at (`TableBump.known` says, after the
        block, whether memory is still trusted). With ``expect``, the first bump is a
        compare-and-set on ``known`` (`StaleTable` and nothing written if the counter
        moved): memory not read fresh is checked by the write that relies on it.
        Nested blocks bump their own table."""
        bump = TableBump(table_id, known, expect)
        token = _BUMPING.set(bump)
        try:
            yield bump
        finally:
            bump.armed = False  # a task started in the block and writing later: no bump
            _BUMPING.reset(token)

    async def _read_one(self, sql: str, params: Params = ()) -> Row | None:
        return await self._db.one(sql, params)

    async def _read_all(self, sql: str, params: Params = ()) -> list[Row]:
        return await self._db.all(sql, params)

    async def pragma(self, name: str) -> Any:
        """The value of a PRAGMA (for health checks and tests: is WAL really on?)."""
        if self._db.dialect != "sqlite":
            raise StoreError("PRAGMA is SQLite's; this store is on PostgreSQL")
        if not name.isidentifier():
            raise ValueError(f"not a pragma name: {name!r}")
        row = await self._read_one(f"PRAGMA {name}")
        return row[0] if row else None

    # ---- tables ----------------------------------------------------------------------

    async def create_table(self, *, guild_id: int, channel_id: int, creator_id: int,
                           rules: Rules, at: float,
                           options: Mapping[str, Any] | None = None,
                           creator_name: str | None = None) -> TableRow:
        """A new table in the lobby; with ``creator_name``, its creator sits in seat 0 in
        the same transaction: a seat refused leaves no table."""
        async with self._write() as db:
            row = await db.one(
                "INSERT INTO game_tables (guild_id, channel_id, creator_id, rules, options,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING *",
                (guild_id, channel_id, creator_id, rules, _json(dict(options or {})), at))
            assert row is not None  # an INSERT … RETURNING returns its row
            if creator_name is not None:
                await self._insert_seat(db, row["id"], 0, creator_id, creator_name, at)
            return TableRow.of(row)

    async def get_table(self, table_id: int) -> TableRow | None:
        row = await self._read_one("SELECT * FROM game_tables WHERE id = ?", (table_id,))
        return TableRow.of(row) if row else None

    async def table_in(self, table_id: int, *, guild_id: int, channel_id: int
                       ) -> TableRow | None:
        """The table ``table_id`` if it is one of that server's channel (None: there is
        no such table there, whether it is elsewhere or nowhere)."""
        row = await self._read_one(
            "SELECT * FROM game_tables WHERE id = ? AND guild_id = ? AND channel_id = ?",
            (table_id, guild_id, channel_id))
        return TableRow.of(row) if row else None

    async def tables_in_channel(self, channel_id: int, *,
                                live_only: bool = False) -> list[TableRow]:
        """The channel's tables, oldest first (live only: lobby or playing)."""
        live = f" AND status IN {_LIVE}" if live_only else ""
        rows = await self._read_all(
            f"SELECT * FROM game_tables WHERE channel_id = ?{live} ORDER BY id", (channel_id,))
        return [TableRow.of(r) for r in rows]

    async def live_tables(self) -> list[TableRow]:
        """Every table in a lobby or in play: what a restart must bring back."""
        rows = await self._read_all(
            f"SELECT * FROM game_tables WHERE status IN {_LIVE} ORDER BY id")
        return [TableRow.of(r) for r in rows]

    async def set_table_status(self, table_id: int, status: TableStatus, *,
                               expected: TableStatus | Iterable[TableStatus] | None = None
                               ) -> TableRow:
        """Move a table to ``status``; with ``expected``, only from that status.

        ``expected`` makes it a compare-and-set, so two racing Start (or Cancel) clicks
        cannot both take effect: the loser gets `StaleStatus`.
        """
        allowed = [expected] if isinstance(expected, str) else expected
        async with self._write() as db:
            current = await self._table_in(db, table_id, lock=True)
            if allowed is not None and current.status not in allowed:
                raise StaleStatus(f"table {table_id} is {current.status}, not "
                                  f"{' or '.join(allowed)}")
            await db.run("UPDATE game_tables SET status = ? WHERE id = ?", (status, table_id))
            return await self._table_in(db, table_id)

    async def set_table_options(self, table_id: int, options: Mapping[str, Any]) -> TableRow:
        return await self._update_table(table_id, "options = ?", (_json(dict(options)),))

    async def set_lobby_message(self, table_id: int, message_id: int | None) -> TableRow:
        return await self._update_table(table_id, "lobby_message_id = ?", (message_id,))

    async def set_table_message(self, table_id: int, message_id: int | None,
                                posted_at: float | None) -> TableRow:
        """The channel's table picture: which message, and when it was (re-)posted."""
        return await self._update_table(
            table_id, "table_message_id = ?, table_message_posted_at = ?",
            (message_id, posted_at))

    async def set_ping_message(self, table_id: int, message_id: int | None) -> TableRow:
        """The channel's standing "your turn" mention (None: none stands)."""
        return await self._update_table(table_id, "ping_message_id = ?", (message_id,))

    async def set_permission_error_reported(self, table_id: int, reported: bool) -> TableRow:
        """Remember that a missing permission was already reported (say it once)."""
        return await self._update_table(table_id, "permission_error_reported = ?",
                                        (int(reported),))

    async def _update_table(self, table_id: int, assignments: str, params: Params) -> TableRow:
        async with self._write() as db:
            count = await db.run(f"UPDATE game_tables SET {assignments} WHERE id = ?",
                                  (*params, table_id))
            if count == 0:
                raise NotFound(f"no table {table_id}")
            return await self._table_in(db, table_id)

    async def _table_in(self, db: Session, table_id: int, *, lock: bool = False) -> TableRow:
        """The table's row; with ``lock``, locked for the rest of this write."""
        row = await db.one(f"SELECT * FROM game_tables WHERE id = ?{_lock(db, lock)}",
                           (table_id,))
        if row is None:
            raise NotFound(f"no table {table_id}")
        return TableRow.of(row)

    # ---- seats -----------------------------------------------------------------------

    async def sit(self, table_id: int, seat: int, *, user_id: int, display_name: str,
                  at: float) -> SeatRow:
        """Seat a person; `SeatTaken` or `AlreadySeated` if that cannot be."""
        return await self._sit(table_id, seat, user_id, display_name, at)

    async def sit_computer(self, table_id: int, seat: int, *, display_name: str,
                           at: float) -> SeatRow:
        """Seat a computer player in an empty seat."""
        return await self._sit(table_id, seat, None, display_name, at)

    async def _sit(self, table_id: int, seat: int, user_id: int | None, display_name: str,
                   at: float) -> SeatRow:
        async with self._write() as db:
            await self._table_in(db, table_id, lock=True)  # one seat change at a time
            if await db.one("SELECT 1 FROM seats WHERE table_id = ? AND seat = ?",
                          (table_id, seat)):
                raise SeatTaken(f"seat {seat} of table {table_id} is taken")
            if user_id is not None and await db.one(
                    "SELECT 1 FROM seats WHERE table_id = ? AND user_id = ?",
                    (table_id, user_id)):
                raise AlreadySeated(f"user {user_id} already sits at table {table_id}")
            await self._insert_seat(db, table_id, seat, user_id, display_name, at)
            return await self._seat_in(db, table_id, seat)

    @staticmethod
    async def _insert_seat(db: Session, table_id: int, seat: int, user_id: int | None,
                           display_name: str, at: float) -> None:
        await db.run("INSERT INTO seats (table_id, seat, user_id, is_computer,"
                     " display_name, joined_at) VALUES (?, ?, ?, ?, ?, ?)",
                     (table_id, seat, user_id, int(user_id is None), display_name, at))

    async def leave(self, table_id: int, seat: int) -> None:
        """Empty a seat (in the lobby; during play use `make_computer`)."""
        async with self._write() as db:
            count = await db.run("DELETE FROM seats WHERE table_id = ? AND seat = ?",
                                  (table_id, seat))
            if count == 0:
                raise NotFound(f"seat {seat} of table {table_id} is empty")

    async def make_computer(self, table_id: int, seat: int, *, display_name: str) -> SeatRow:
        """Hand a person's seat to a computer player (they left mid-match)."""
        return await self._update_seat(
            table_id, seat, "user_id = NULL, is_computer = 1, display_name = ?, away = 0,"
                            " consecutive_timeouts = 0, dm_closed = 0", (display_name,))

    async def replace_by_computer(self, table_id: int, seat: int, *, display_name: str,
                                  match_id: int | None = None,
                                  penalties: Mapping[int, Fraction] | None = None,
                                  reason: str = "abandon",
                                  deltas: Sequence[LeaderboardDelta] = (),
                                  at: float = 0.0,
                                  left: tuple[int, int] | None = None) -> SeatRow:
        """A person leaves mid-match, in ONE transaction: the computer takes the seat,
        any penalty is recorded against the match, the standings are charged, and
        (``left``: the running hand's id and the actions it had) who the person was is
        kept (`departures`)."""
        async with self._write() as db:
            table = await self._table_in(db, table_id)
            if left is not None:
                person = await db.one("SELECT user_id, display_name FROM seats"
                                      " WHERE table_id = ? AND seat = ? AND user_id IS NOT NULL",
                                      (table_id, seat))
                if person is None:
                    raise NotFound(f"seat {seat} of table {table_id} holds no person")
                await db.run("INSERT INTO departures (hand_id, seat, seq, user_id,"
                             " display_name, at) VALUES (?, ?, ?, ?, ?, ?)",
                             (left[0], seat, left[1], person["user_id"],
                              person["display_name"], at))
            count = await db.run(
                "UPDATE seats SET user_id = NULL, is_computer = 1, display_name = ?,"
                " away = 0, consecutive_timeouts = 0, dm_closed = 0"
                " WHERE table_id = ? AND seat = ?", (display_name, table_id, seat))
            if count == 0:
                raise NotFound(f"seat {seat} of table {table_id} is empty")
            for s, amount in (penalties or {}).items():
                if match_id is None:
                    raise ConstraintError("a penalty needs the match it belongs to")
                await db.run("INSERT INTO penalties (match_id, seat, amount, reason, at)"
                               " VALUES (?, ?, ?, ?, ?)",
                           (match_id, s, fraction_text(amount), reason, at))
            await self._apply_deltas_in(db, table.guild_id, table.channel_id, table.rules,
                                        deltas)
            return await self._seat_in(db, table_id, seat)

    async def departures(self, match_id: int) -> list[Departure]:
        """The people who left the match while it ran, in the order they left."""
        rows = await self._read_all(
            "SELECT d.*, h.number FROM departures d JOIN hands h ON h.id = d.hand_id"
            " WHERE h.match_id = ? ORDER BY h.number, d.seq, d.id", (match_id,))
        return [Departure.of(r) for r in rows]

    async def penalty_totals(self, match_id: int) -> dict[int, Fraction]:
        """Each seat's penalties in a match (seats without any are left out)."""
        rows = await self._read_all("SELECT seat, amount FROM penalties WHERE match_id = ?",
                                    (match_id,))
        totals: dict[int, Fraction] = {}
        for r in rows:
            totals[r["seat"]] = totals.get(r["seat"], Fraction(0)) + Fraction(r["amount"])
        return totals

    async def set_away(self, table_id: int, seat: int, away: bool) -> SeatRow:
        return await self._update_seat(table_id, seat, "away = ?", (int(away),))

    async def add_timeout(self, table_id: int, seat: int) -> SeatRow:
        """Count one more decision in a row that timed out."""
        return await self._update_seat(
            table_id, seat, "consecutive_timeouts = consecutive_timeouts + 1", ())

    async def reset_timeouts(self, table_id: int, seat: int) -> SeatRow:
        """The player acted: their run of timeouts is over."""
        return await self._update_seat(table_id, seat, "consecutive_timeouts = 0", ())

    async def set_choices(self, table_id: int, seat: int, choices: StandingChoices) -> SeatRow:
        return await self._update_seat(table_id, seat, "choices = ?", (choices.to_json(),))

    async def set_dm_closed(self, table_id: int, seat: int, closed: bool) -> SeatRow:
        """Remember a refused DM, so the channel notice is posted once, not every turn."""
        return await self._update_seat(table_id, seat, "dm_closed = ?", (int(closed),))

    async def set_user_locale(self, user_id: int, locale: str, at: float) -> bool:
        """Remember the locale a person last used (whether or not they sit anywhere);
        True if it changed, False when it was already known (nothing written)."""
        async with self._write() as db:
            count = await db.run(
                "INSERT INTO user_locales (user_id, locale, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale,"
                " updated_at = excluded.updated_at"
                " WHERE user_locales.locale <> excluded.locale", (user_id, locale, at))
            return count > 0

    async def setting(self, key: str) -> str | None:
        """One of the bot's own settings (see migration 0006), or None if never set."""
        row = await self._read_one("SELECT value FROM bot_settings WHERE key = ?", (key,))
        return row["value"] if row is not None else None

    async def set_setting(self, key: str, value: str, *, at: float) -> None:
        async with self._write() as db:
            await db.run("INSERT INTO bot_settings (key, value, updated_at) VALUES (?, ?, ?)"
                           " ON CONFLICT (key) DO UPDATE SET value = excluded.value,"
                           " updated_at = excluded.updated_at", (key, value, at))

    async def user_locales(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The remembered locale of each of these people who has one."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        marks = ", ".join("?" * len(wanted))
        rows = await self._read_all(
            f"SELECT user_id, locale FROM user_locales WHERE user_id IN ({marks})", wanted)
        return {r["user_id"]: r["locale"] for r in rows}

    async def seats(self, table_id: int) -> list[SeatRow]:
        """The occupied seats of a table, by seat number."""
        rows = await self._read_all("SELECT * FROM seats WHERE table_id = ? ORDER BY seat",
                                    (table_id,))
        return [SeatRow.of(r) for r in rows]

    async def seat_of(self, table_id: int, user_id: int) -> SeatRow | None:
        row = await self._read_one("SELECT * FROM seats WHERE table_id = ? AND user_id = ?",
                                   (table_id, user_id))
        return SeatRow.of(row) if row else None

    async def seats_of_user(self, user_id: int, *, live_only: bool = True) -> list[SeatRow]:
        """Where a person sits (for `/mahjong hand`): live tables only by default."""
        live = f" AND t.status IN {_LIVE}" if live_only else ""
        rows = await self._read_all(
            "SELECT s.* FROM seats s JOIN game_tables t ON t.id = s.table_id"
            f" WHERE s.user_id = ?{live} ORDER BY s.table_id", (user_id,))
        return [SeatRow.of(r) for r in rows]

    async def _update_seat(self, table_id: int, seat: int, assignments: str,
                           params: Params) -> SeatRow:
        async with self._write() as db:
            count = await db.run(f"UPDATE seats SET {assignments} WHERE table_id = ? AND seat = ?",
                (*params, table_id, seat))
            if count == 0:
                raise NotFound(f"seat {seat} of table {table_id} is empty")
            return await self._seat_in(db, table_id, seat)

    async def _seat_in(self, db: Session, table_id: int, seat: int) -> SeatRow:
        row = await db.one("SELECT * FROM seats WHERE table_id = ? AND seat = ?",
                         (table_id, seat))
        if row is None:
            raise NotFound(f"seat {seat} of table {table_id} is empty")
        return SeatRow.of(row)

    # ---- matches ---------------------------------------------------------------------

    async def create_match(self, table_id: int, *, first_dealer: int, at: float) -> MatchRow:
        """The table's next match (numbered 1, 2, …); one in play at a time."""
        async with self._write() as db:
            return await self._create_match_in(db, table_id, first_dealer, at)

    async def _create_match_in(self, db: Session, table_id: int, first_dealer: int,
                               at: float) -> MatchRow:
        await self._table_in(db, table_id, lock=True)  # one new match at a time
        if await db.one("SELECT 1 FROM matches WHERE table_id = ? AND status = 'playing'",
                        (table_id,)):
            raise Conflict(f"table {table_id} already has a match in play")
        row = await db.one(
            "INSERT INTO matches (table_id, number, first_dealer, started_at)"
            " VALUES (?, (SELECT COALESCE(MAX(number), 0) + 1 FROM matches"
            " WHERE table_id = ?), ?, ?) RETURNING *", (table_id, table_id, first_dealer, at))
        assert row is not None  # an INSERT … RETURNING returns its row
        return MatchRow.of(row)

    async def start_match(self, table_id: int, *, first_dealer: int, at: float,
                          hand: NewHand) -> tuple[TableRow, MatchRow, HandRow]:
        """Start a table in ONE transaction: from the lobby to ``playing``, its match,
        and the match's first hand (its announcements and first deadlines with it).

        Another process therefore never reads a table playing with no match or no hand
        (shared mode), nor does a crash leave one. `StaleStatus` unless the table is in
        the lobby (two Start clicks: the loser's); nothing is written then."""
        async with self._write() as db:
            table = await self._table_in(db, table_id, lock=True)
            if table.status != "lobby":
                raise StaleStatus(f"table {table_id} is {table.status}, not lobby")
            await db.run("UPDATE game_tables SET status = 'playing' WHERE id = ?",
                         (table_id,))
            match = await self._create_match_in(db, table_id, first_dealer, at)
            row = await self._create_hand_in(db, match.id, hand, at)
            return await self._table_in(db, table_id), match, row

    async def get_match(self, match_id: int) -> MatchRow | None:
        row = await self._read_one("SELECT * FROM matches WHERE id = ?", (match_id,))
        return MatchRow.of(row) if row else None

    async def live_match(self, table_id: int) -> MatchRow | None:
        row = await self._read_one(
            "SELECT * FROM matches WHERE table_id = ? AND status = 'playing'", (table_id,))
        return MatchRow.of(row) if row else None

    async def matches(self, table_id: int) -> list[MatchRow]:
        rows = await self._read_all("SELECT * FROM matches WHERE table_id = ? ORDER BY number",
                                    (table_id,))
        return [MatchRow.of(r) for r in rows]

    async def finish_match(self, match_id: int, *, totals: Mapping[int, Fraction] | None,
                           at: float, status: MatchStatus = "finished") -> MatchRow:
        """End a match (finished with totals, or abandoned)."""
        async with self._write() as db:
            await self._finish_match_in(db, match_id, totals, at, status)
            return await self._match_in(db, match_id)

    async def _finish_match_in(self, db: Session, match_id: int,
                               totals: Mapping[int, Fraction] | None, at: float,
                               status: MatchStatus) -> None:
        match = await self._match_in(db, match_id, lock=True)
        if match.status != "playing":
            raise StaleStatus(f"match {match_id} is already {match.status}")
        await db.run("UPDATE matches SET status = ?, finished_at = ?, totals = ?"
                       " WHERE id = ?",
                   (status, at, totals_json(totals) if totals is not None else None, match_id))

    async def _match_in(self, db: Session, match_id: int, *, lock: bool = False) -> MatchRow:
        """The match's row; with ``lock``, locked for the rest of this write."""
        row = await db.one(f"SELECT * FROM matches WHERE id = ?{_lock(db, lock)}",
                           (match_id,))
        if row is None:
            raise NotFound(f"no match {match_id}")
        return MatchRow.of(row)

    # ---- hands -----------------------------------------------------------------------

    async def create_hand(self, match_id: int, *, wall: str, salt: str, commitment: str,
                          dice: tuple[int, int], dealer: int, streak: int, huangfan: int,
                          at: float, announcements: Sequence[NewAnnouncement] = (),
                          deadlines: Sequence[NewDeadline] = ()) -> HandRow:
        """The match's next hand (numbered 1, 2, …); one live at a time.

        ``wall`` is the dealing order, two characters a tile ("1m5z2p…"): the
        commitment shown at the start must be checkable against it at the end.
        ``announcements`` (its commitment) are about the new hand and written with it,
        and so are its first ``deadlines``. The service deals with `start_match` and
        `finish_and_deal`; this one mends a database a crash of an older version left
        with a match and no live hand.
        """
        async with self._write() as db:
            return await self._create_hand_in(db, match_id, NewHand(
                wall, salt, commitment, dice, dealer, streak, huangfan, announcements,
                deadlines), at)

    async def _create_hand_in(self, db: Session, match_id: int, new: NewHand,
                              at: float) -> HandRow:
        if not _WALL.fullmatch(new.wall):
            raise ConstraintError("the wall must be 2-character tiles in order, like '1m5z2p'")
        match = await self._match_in(db, match_id, lock=True)  # one new hand at a time
        if match.status != "playing":
            raise StaleStatus(f"match {match_id} is {match.status}")
        if await db.one("SELECT 1 FROM hands WHERE match_id = ? AND status = 'live'",
                        (match_id,)):
            raise Conflict(f"match {match_id} already has a live hand")
        row = await db.one(
            "INSERT INTO hands (match_id, number, wall, salt, commitment, dice, dealer,"
            " streak, huangfan, started_at) VALUES (?, (SELECT COALESCE(MAX(number), 0)"
            " + 1 FROM hands WHERE match_id = ?), ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (match_id, match_id, new.wall, new.salt, new.commitment,
             f"{new.dice[0]}+{new.dice[1]}", new.dealer, new.streak, new.huangfan, at))
        assert row is not None  # an INSERT … RETURNING returns its row
        hand = await self._hand_in(db, row["id"])
        if new.deadlines:
            await _replace_deadlines_in(db, hand.id, new.deadlines)
        await self._announce_in(db, hand.table_id, new.announcements, at, hand)
        return hand

    async def get_hand(self, hand_id: int) -> HandRow | None:
        row = await self._read_one(f"{_HAND_SELECT} WHERE h.id = ?", (hand_id,))
        return HandRow.of(row) if row else None

    async def last_ended_hand(self, table_id: int) -> HandRow | None:
        """The table's most recently ended hand, over all its matches (one read)."""
        row = await self._read_one(
            f"{_HAND_SELECT} WHERE m.table_id = ? AND h.status = 'ended'"
            " ORDER BY m.number DESC, h.number DESC LIMIT 1", (table_id,))
        return HandRow.of(row) if row else None

    async def live_hand(self, table_id: int) -> HandRow | None:
        """The hand being played at a table, if any."""
        row = await self._read_one(
            f"{_HAND_SELECT} WHERE m.table_id = ? AND h.status = 'live'"
            " ORDER BY h.id DESC LIMIT 1", (table_id,))
        return HandRow.of(row) if row else None

    async def hands(self, match_id: int) -> list[HandRow]:
        rows = await self._read_all(f"{_HAND_SELECT} WHERE h.match_id = ? ORDER BY h.number",
                                    (match_id,))
        return [HandRow.of(r) for r in rows]

    async def _hand_in(self, db: Session, hand_id: int) -> HandRow:
        row = await db.one(f"{_HAND_SELECT} WHERE h.id = ?", (hand_id,))
        if row is None:
            raise NotFound(f"no hand {hand_id}")
        return HandRow.of(row)

    # ---- actions ---------------------------------------------------------------------

    async def append_action(self, hand_id: int, expected_seq: int, seat: int, kind: str,
                            payload: Any, source: ActionSource, at: float, *,
                            deadlines: Sequence[NewDeadline] | None = None,
                            snapshot: NewSnapshot | None = None) -> ActionRow:
        """Write action number ``expected_seq`` of a live hand: a compare-and-set.

        It lands only if ``expected_seq`` is exactly the next seq (1 for the first);
        otherwise `StaleAction` (someone else's click got there first) and nothing is
        written. With ``deadlines``, the hand's deadlines are replaced by these in the
        same transaction, so a crash cannot leave a move without its next timer. With
        ``snapshot`` (the state this action reached), it becomes the hand's one snapshot
        in the same transaction, sealed with the digest of the log up to it.
        """
        action = NewAction(expected_seq, seat, kind, payload, source, at)
        if snapshot is not None and snapshot.seq != expected_seq:
            raise ConstraintError(f"a snapshot written with action {expected_seq} is of "
                                  f"that action, not of {snapshot.seq}")
        cached = self._digests.get(hand_id)
        row, running = await self._at_once(_append_now, hand_id, action, deadlines,
                                           snapshot, cached)
        self._remember(hand_id, expected_seq, running)  # committed: the log has it
        return row

    def _remember(self, hand_id: int, seq: int, digest: str) -> None:
        """Keep the hand's newest digest, newest hands last; past `DIGESTS_KEPT` hands
        the one appended to longest ago goes (in shared mode another process may end a
        hand this one appended to: its end is never seen here)."""
        digests = self._digests
        digests.pop(hand_id, None)
        digests[hand_id] = (seq, digest)
        if len(digests) > DIGESTS_KEPT:
            del digests[next(iter(digests))]

    async def snapshots(self, hand_id: int) -> list[SnapshotRow]:
        """A hand's snapshots, oldest first (a live hand keeps at most one)."""
        rows = await self._read_all("SELECT * FROM hand_snapshots WHERE hand_id = ?"
                                    " ORDER BY seq", (hand_id,))
        return [SnapshotRow.of(r) for r in rows]

    async def actions(self, hand_id: int, *, after: int = 0) -> list[ActionRow]:
        """The hand's log in seq order (from ``after + 1``): replayed to rebuild state."""
        rows = await self._read_all(
            "SELECT * FROM actions WHERE hand_id = ? AND seq > ? ORDER BY seq", (hand_id, after))
        return [ActionRow.of(r) for r in rows]

    async def next_seq(self, hand_id: int) -> int:
        """The seq the hand's next action must carry."""
        row = await self._read_one(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE hand_id = ?", (hand_id,))
        return int(row[0]) if row else 1

    async def _live_hand_in(self, db: Session, hand_id: int) -> HandRow:
        """The hand, locked for this write; `HandEnded` unless it is live."""
        await _lock_live_hand(db, hand_id)
        return await self._hand_in(db, hand_id)

    # ---- rebuilding live tables --------------------------------------------------------

    async def table_loads(self, table_ids: Iterable[int], *, snapshots: bool = True
                          ) -> dict[int, TableLoad]:
        """What rebuilding each of these tables reads (`TableLoad`), for many tables in
        a dozen statements rather than a dozen per table, in one read transaction (one
        consistent view). Tables that do not exist are left out. Without ``snapshots``
        each live hand's whole log is read, as if it had none."""
        wanted = sorted(set(table_ids))
        out: dict[int, TableLoad] = {}
        async with self._db.read() as db:
            for start in range(0, len(wanted), _CHUNK):
                chunk = wanted[start:start + _CHUNK]
                out.update(await self._loads_in(db, chunk, snapshots))
        return out

    async def _loads_in(self, db: Session, ids: list[int],
                        snapshots: bool) -> dict[int, TableLoad]:
        tables = [TableRow.of(r) for r in await db.all(
            f"SELECT * FROM game_tables WHERE id IN ({_marks(ids)})", ids)]
        seats = _grouped((SeatRow.of(r) for r in await db.all(
            f"SELECT * FROM seats WHERE table_id IN ({_marks(ids)}) ORDER BY table_id, seat",
            ids)),  # in the primary key's order: no sorting
            lambda s: s.table_id)
        matches = {m.table_id: m for m in (MatchRow.of(r) for r in await db.all(
            f"SELECT * FROM matches WHERE status = 'playing' AND table_id IN"
            f" ({_marks(ids)})", ids))}
        played = {int(r[0]): int(r[1]) for r in await db.all(
            f"SELECT table_id, COUNT(*) FROM matches WHERE table_id IN ({_marks(ids)})"
            " GROUP BY table_id", ids)}
        match_ids = [m.id for m in matches.values()]
        hands = _grouped((HandRow.of(r) for r in await db.all(
            f"{_HAND_SELECT} WHERE h.match_id IN ({_marks(match_ids)})"
            " ORDER BY h.match_id, h.number", match_ids)), lambda h: h.match_id)
        settled = await db.all(
            "SELECT s.*, h.match_id FROM settlements s JOIN hands h ON h.id = s.hand_id"
            f" WHERE h.match_id IN ({_marks(match_ids)}) ORDER BY h.number, s.seat",
            match_ids)
        settlements = _grouped(((r["match_id"], SettlementRow.of(r)) for r in settled),
                               lambda pair: pair[0])
        penalties: dict[int, dict[int, Fraction]] = {}
        for r in await db.all("SELECT match_id, seat, amount FROM penalties WHERE match_id"
                              f" IN ({_marks(match_ids)})", match_ids):
            charged = penalties.setdefault(r["match_id"], {})
            charged[r["seat"]] = charged.get(r["seat"], Fraction(0)) + Fraction(r["amount"])
        live_hands = [hs[-1].id for hs in hands.values() if hs[-1].status == "live"]
        logs = await self._logs_in(db, live_hands, snapshots)
        deadlines = _grouped((DeadlineRow.of(r) for r in await db.all(
            f"{_DEADLINE_SELECT} WHERE d.hand_id IN ({_marks(live_hands)})"
            " ORDER BY d.seat", live_hands)), lambda d: d.hand_id)
        users = sorted({s.user_id for ss in seats.values() for s in ss
                        if s.user_id is not None})
        locales = {r["user_id"]: r["locale"] for r in await db.all(
            f"SELECT user_id, locale FROM user_locales WHERE user_id IN ({_marks(users)})",
            users)}
        out = {}
        for t in tables:
            match = matches.get(t.id)
            mine = hands.get(match.id, []) if match else []
            last = mine[-1] if mine and mine[-1].status == "live" else None
            people = seats.get(t.id, [])
            out[t.id] = TableLoad(
                t, tuple(people),
                {s.user_id: locales[s.user_id] for s in people
                 if s.user_id is not None and s.user_id in locales},
                match, tuple(mine),
                tuple(s for _, s in settlements.get(match.id, [])) if match else (),
                penalties.get(match.id, {}) if match else {},
                logs.get(last.id) if last else None,
                tuple(deadlines.get(last.id, [])) if last else (), played.get(t.id, 0))
        return out

    async def _logs_in(self, db: Session, hand_ids: list[int],
                       snapshots: bool) -> dict[int, HandLog]:
        """Each hand's newest snapshot, the running digest stored with the action it was
        written with, and the actions after it (all of them without a snapshot): the
        actions before a snapshot are not read at all (migration 0012)."""
        newest: dict[int, SnapshotRow] = {}
        if snapshots:
            for r in await db.all(f"SELECT * FROM hand_snapshots WHERE hand_id IN"
                                    f" ({_marks(hand_ids)}) ORDER BY seq", hand_ids):
                newest[r["hand_id"]] = SnapshotRow.of(r)  # the last one read is the newest
        snapped = [h for h in hand_ids if h in newest]
        whole = [h for h in hand_ids if h not in newest]
        # from each hand's newest snapshot's own action on (its stored digest): driven
        # from the snapshots (CROSS JOIN keeps SQLite's loop order), each hand's actions
        # are a range of the primary key, not all of them filtered (a join the other
        # way round read every action of every hand, most of a rebuild's reading)
        rows: list[Row] = await db.all(
            "SELECT a.* FROM (SELECT hand_id, MAX(seq) AS seq FROM hand_snapshots"
            f" WHERE hand_id IN ({_marks(snapped)}) GROUP BY hand_id) s CROSS JOIN actions a"
            " WHERE a.hand_id = s.hand_id AND a.seq >= s.seq ORDER BY a.hand_id, a.seq",
            snapped) if snapped else []
        if whole:
            rows += await db.all("SELECT * FROM actions WHERE hand_id IN"
                                 f" ({_marks(whole)}) ORDER BY hand_id, seq", whole)
        by_hand = _grouped(rows, lambda r: r["hand_id"])
        logs: dict[int, HandLog] = {}
        for hand_id in hand_ids:
            mine = by_hand.get(hand_id, [])
            snap = newest.get(hand_id)
            digest = None
            if snap is not None and mine and mine[0]["seq"] == snap.seq:
                stored = mine[0]["log_digest"]  # None: a log written before 0012
                digest = None if stored is None else bytes(stored).hex()
            upto = snap.seq if snap is not None else 0
            logs[hand_id] = HandLog(hand_id, snap, digest,
                                    tuple(ActionRow.of(r) for r in mine if r["seq"] > upto),
                                    mine[-1]["seq"] if mine else 0)
        return logs

    # ---- the end of a hand -----------------------------------------------------------

    async def finish_hand(self, hand_id: int, final: NewAction | None, *,
                          settlements: Sequence[Settlement],
                          deltas: Sequence[LeaderboardDelta], at: float,
                          match_totals: Mapping[int, Fraction] | None = None,
                          announcements: Sequence[NewAnnouncement] = ()) -> HandRow:
        """End a hand in ONE transaction: final action, settlements, status, standings,
        and what the channel must be told of it (``announcements``, about this hand).

        ``final`` (if the hand ends on an action) goes through the same compare-and-set
        as `append_action`. The hand's deadlines are cleared. With ``match_totals`` the
        match and its table finish too. A crash or any error leaves none of it written.
        A hand after which the match goes on ends with `finish_and_deal` instead.
        """
        async with self._write() as db:
            return await self._finish_in(db, hand_id, final, settlements, deltas, at,
                                         match_totals, announcements)

    async def finish_and_deal(self, hand_id: int, final: NewAction | None, *,
                              settlements: Sequence[Settlement],
                              deltas: Sequence[LeaderboardDelta], at: float,
                              announcements: Sequence[NewAnnouncement] = (),
                              deal: NewHand) -> tuple[HandRow, HandRow]:
        """`finish_hand` and the match's next hand (``deal``) in ONE transaction: the
        ended hand's row and the new one's. No process ever reads, and no crash leaves,
        a match between two hands (shared mode: a peer's recovery would deal it too)."""
        async with self._write() as db:
            ended = await self._finish_in(db, hand_id, final, settlements, deltas, at,
                                          None, announcements)
            return ended, await self._create_hand_in(db, ended.match_id, deal, at)

    async def _finish_in(self, db: Session, hand_id: int, final: NewAction | None,
                         settlements: Sequence[Settlement],
                         deltas: Sequence[LeaderboardDelta], at: float,
                         match_totals: Mapping[int, Fraction] | None,
                         announcements: Sequence[NewAnnouncement]) -> HandRow:
        hand = await self._live_hand_in(db, hand_id)
        if final is not None:
            await _insert_next(db, hand_id, final, self._digests.get(hand_id))
        for s in settlements:
            await db.run("INSERT INTO settlements (hand_id, seat, amount, patterns, value)"
                         " VALUES (?, ?, ?, ?, ?)",
                         (hand_id, s.seat, fraction_text(s.amount), _json(s.patterns),
                          s.value))
        await db.run("UPDATE hands SET status = 'ended', ended_at = ? WHERE id = ?",
                     (at, hand_id))
        await db.run("DELETE FROM deadlines WHERE hand_id = ?", (hand_id,))
        await db.run("DELETE FROM hand_snapshots WHERE hand_id = ?", (hand_id,))
        self._digests.pop(hand_id, None)
        table = await self._table_in(db, hand.table_id)
        await self._apply_deltas_in(db, table.guild_id, table.channel_id, table.rules,
                                    deltas)
        if match_totals is not None:
            await self._finish_match_in(db, hand.match_id, match_totals, at, "finished")
            await db.run("UPDATE game_tables SET status = 'finished'"
                         " WHERE id = ? AND status = 'playing'", (hand.table_id,))
        await self._announce_in(db, hand.table_id, announcements, at, hand)
        return await self._hand_in(db, hand_id)

    async def cancel_table(self, table_id: int, *, at: float,
                           announcements: Sequence[NewAnnouncement] = ()) -> TableRow:
        """Cancel a table in ONE transaction: from the lobby or play to ``cancelled``,
        its live hand ended without settlement (void), its match abandoned, and what
        the channel must be told (the void hand's wall, the match's end) recorded.

        `StaleStatus` if the table is already over; nothing is written then."""
        async with self._write() as db:
            table = await self._table_in(db, table_id, lock=True)
            if table.status not in LIVE_TABLE_STATUSES:
                raise StaleStatus(f"table {table_id} is {table.status}, not lobby or playing")
            await db.run("UPDATE game_tables SET status = 'cancelled' WHERE id = ?",
                       (table_id,))
            live = await db.one(f"{_HAND_SELECT} WHERE m.table_id = ? AND h.status = 'live'",
                              (table_id,))
            if live is not None:
                await db.run("UPDATE hands SET status = 'ended', ended_at = ? WHERE id = ?",
                           (at, live["id"]))
                await db.run("DELETE FROM deadlines WHERE hand_id = ?", (live["id"],))
                await db.run("DELETE FROM hand_snapshots WHERE hand_id = ?", (live["id"],))
                self._digests.pop(live["id"], None)
            await db.run("UPDATE matches SET status = 'abandoned', finished_at = ?"
                           " WHERE table_id = ? AND status = 'playing'", (at, table_id))
            await self._announce_in(db, table_id, announcements, at)
            return await self._table_in(db, table_id)

    async def settlements(self, hand_id: int) -> list[SettlementRow]:
        rows = await self._read_all("SELECT * FROM settlements WHERE hand_id = ? ORDER BY seat",
                                    (hand_id,))
        return [SettlementRow.of(r) for r in rows]

    async def match_settlements(self, match_id: int) -> list[SettlementRow]:
        """Every settlement row of a match's hands (rebuilding its totals after a restart)."""
        rows = await self._read_all(
            "SELECT s.* FROM settlements s JOIN hands h ON h.id = s.hand_id"
            " WHERE h.match_id = ? ORDER BY h.number, s.seat", (match_id,))
        return [SettlementRow.of(r) for r in rows]

    # ---- announcements (the outbox) --------------------------------------------------

    async def _announce_in(self, db: Session, table_id: int,
                           items: Sequence[NewAnnouncement], at: float,
                           hand: HandRow | None = None) -> None:
        """Record announcements inside the caller's transaction; those without a hand
        of their own are about ``hand`` (if given)."""
        for item in items:
            hand_id, number = item.hand_id, item.hand_number
            if hand_id is None and hand is not None:
                hand_id, number = hand.id, hand.number
            await db.run("INSERT INTO announcements (table_id, hand_id, kind, key, facts,"
                           " created_at) VALUES (?, ?, ?, ?, ?, ?)",
                       (table_id, hand_id, item.kind,
                        announcement_key(item.kind, table_id, number),
                        _json(dict(item.facts or {})), at))

    async def undelivered(self, table_id: int | None = None) -> list[AnnouncementRow]:
        """Announcements not yet delivered (of one table, or all), oldest first."""
        where, params = (" AND table_id = ?", (table_id,)) if table_id is not None \
            else ("", ())
        rows = await self._read_all(
            f"SELECT * FROM announcements WHERE status <> 'delivered'{where} ORDER BY id",
            params)
        return [AnnouncementRow.of(r) for r in rows]

    async def announcements(self, table_id: int) -> list[AnnouncementRow]:
        """Every announcement of a table, oldest first."""
        rows = await self._read_all(
            "SELECT * FROM announcements WHERE table_id = ? ORDER BY id", (table_id,))
        return [AnnouncementRow.of(r) for r in rows]

    async def mark_announcement(self, announcement_id: int, status: AnnouncementStatus,
                                at: float) -> AnnouncementRow:
        """``sending`` right before it is handed to Discord, ``delivered`` once Discord
        accepted it (a delivered row stays delivered)."""
        async with self._write() as db:
            await db.run(
                "UPDATE announcements SET status = ?, delivered_at = ?"
                    " WHERE id = ? AND status <> 'delivered'",
                (status, at if status == "delivered" else None, announcement_id))
            row = await db.one("SELECT * FROM announcements WHERE id = ?",
                             (announcement_id,))
            if row is None:
                raise NotFound(f"no announcement {announcement_id}")
            return AnnouncementRow.of(row)

    # ---- deadlines -------------------------------------------------------------------

    async def set_deadline(self, hand_id: int, seat: int, *, seq: int, kind: DeadlineKind,
                           set_at: float, due_at: float) -> DeadlineRow:
        """Set or replace a seat's deadline in a hand (a new one is not yet reminded)."""
        async with self._write() as db:
            await self._live_hand_in(db, hand_id)
            await self._upsert_deadline(db, hand_id, NewDeadline(seat, seq, kind, set_at,
                                                                 due_at))
            return await self._deadline_in(db, hand_id, seat)

    async def replace_deadlines(self, hand_id: int,
                                deadlines: Sequence[NewDeadline]) -> list[DeadlineRow]:
        """Make these the hand's only deadlines (e.g. a claim window opens)."""
        async with self._write() as db:
            await self._live_hand_in(db, hand_id)
            await _replace_deadlines_in(db, hand_id, deadlines)
        return await self.deadlines(hand_id)

    async def clear_deadline(self, hand_id: int, seat: int) -> bool:
        """Drop a seat's deadline (it answered); False if it had none."""
        async with self._write() as db:
            count = await db.run("DELETE FROM deadlines WHERE hand_id = ? AND seat = ?",
                                  (hand_id, seat))
            return count > 0

    async def clear_deadlines(self, hand_id: int) -> int:
        """Drop all of a hand's deadlines; returns how many there were."""
        async with self._write() as db:
            count = await db.run("DELETE FROM deadlines WHERE hand_id = ?", (hand_id,))
            return count

    async def mark_reminded(self, hand_id: int, seat: int, at: float) -> DeadlineRow:
        """The half-time reminder went out: never send it twice."""
        async with self._write() as db:
            # the claim of the reminder's moment ends: the deadline's own is the next one
            count = await db.run("UPDATE deadlines SET reminded_at = ?, claimed_by = NULL,"
                                 " claimed_until = NULL WHERE hand_id = ? AND seat = ?",
                                 (at, hand_id, seat))
            if count == 0:
                raise NotFound(f"no deadline for seat {seat} in hand {hand_id}")
            return await self._deadline_in(db, hand_id, seat)

    async def defer_overdue(self, until: float, *, computer_until: float | None = None) -> int:
        """Move every deadline due before ``until`` to ``until`` (restart grace period).

        Downtime must not cost anyone a turn: call with now + grace after a restart.
        With ``computer_until``, the moves nobody waits for a person to make (kind
        "computer": a computer, an away seat, a standing choice) are moved there
        instead, since grace is for people. Returns how many deadlines moved.
        """
        async with self._write() as db:
            if computer_until is None:
                count = await db.run("UPDATE deadlines SET due_at = ? WHERE due_at < ?",
                                      (until, until))
                return count
            people = await db.run("UPDATE deadlines SET due_at = ? WHERE due_at < ?"
                                       " AND kind <> 'computer'", (until, until))
            computers = await db.run("UPDATE deadlines SET due_at = ? WHERE due_at < ?"
                                          " AND kind = 'computer'",
                                      (computer_until, computer_until))
            return people + computers

    async def earliest_deadline(self) -> DeadlineRow | None:
        """What the scheduler sleeps until."""
        row = await self._read_one(f"{_DEADLINE_SELECT} ORDER BY d.due_at, d.hand_id, d.seat"
                                   " LIMIT 1")
        return DeadlineRow.of(row) if row else None

    async def due_deadlines(self, now: float) -> list[DeadlineRow]:
        """Every deadline due at or before ``now``, soonest first."""
        rows = await self._read_all(f"{_DEADLINE_SELECT} WHERE d.due_at <= ?"
                                    " ORDER BY d.due_at, d.hand_id, d.seat", (now,))
        return [DeadlineRow.of(r) for r in rows]

    async def deadlines(self, hand_id: int | None = None) -> list[DeadlineRow]:
        """All deadlines (of one hand, or everywhere: reloaded after a restart)."""
        where, params = (" WHERE d.hand_id = ?", (hand_id,)) if hand_id is not None else ("", ())
        rows = await self._read_all(f"{_DEADLINE_SELECT}{where} ORDER BY d.due_at, d.hand_id,"
                                    " d.seat", params)
        return [DeadlineRow.of(r) for r in rows]

    async def _upsert_deadline(self, db: Session, hand_id: int,
                               d: NewDeadline) -> None:
        await db.run("INSERT INTO deadlines (hand_id, seat, seq, kind, set_at, due_at)"
                       " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (hand_id, seat) DO UPDATE SET"
                       " seq = excluded.seq, kind = excluded.kind, set_at = excluded.set_at,"
                       " due_at = excluded.due_at, reminded_at = NULL, claimed_by = NULL,"
                       " claimed_until = NULL",
                   (hand_id, d.seat, d.seq, d.kind, d.set_at, d.due_at))

    async def _deadline_in(self, db: Session, hand_id: int,
                           seat: int) -> DeadlineRow:
        row = await db.one(f"{_DEADLINE_SELECT} WHERE d.hand_id = ? AND d.seat = ?",
                         (hand_id, seat))
        if row is None:
            raise NotFound(f"no deadline for seat {seat} in hand {hand_id}")
        return DeadlineRow.of(row)

    # ---- several processes on one database (0008) -------------------------------------

    async def table_version(self, table_id: int) -> int:
        """The table's change counter (`bumping`); `NotFound` if there is no table."""
        row = await self._read_one("SELECT version FROM game_tables WHERE id = ?", (table_id,))
        if row is None:
            raise NotFound(f"no table {table_id}")
        return int(row["version"])

    async def claim_deadlines(self, now: float, *, owner: str, until: float,
                              limit: int = 20) -> list[DeadlineRow]:
        """Claim for ``owner`` (until ``until``) the deadlines whose moment has come — the
        half-time reminder a person's owes, else the deadline itself — and that nobody
        holds (or whose holder's lease ran out: a killed process). Soonest first. On
        PostgreSQL the rows are taken ``FOR UPDATE SKIP LOCKED``: a process claiming at
        the same moment neither waits for them nor gets them (SQLite's write lock
        serialises the claims)."""
        async with self._write() as db:
            rows = await db.all(f"{_DEADLINE_SELECT} WHERE {_CLAIMABLE}"
                                " ORDER BY d.due_at, d.hand_id, d.seat LIMIT ?"
                                f"{_skip_locked(db, 'd')}", (now, now, limit))
            await db.run_many("UPDATE deadlines SET claimed_by = ?, claimed_until = ?"
                              " WHERE hand_id = ? AND seat = ?",
                              [(owner, until, r["hand_id"], r["seat"]) for r in rows])
            return [DeadlineRow.of(r) for r in rows]

    async def next_claimable(self) -> float | None:
        """The earliest moment a deadline nobody holds comes due (reminder or deadline)."""
        row = await self._read_one(f"SELECT min({_MOMENT}) AS at FROM deadlines d"
                                   " WHERE d.claimed_by IS NULL")
        return None if row is None or row["at"] is None else float(row["at"])

    async def claim_announcements(self, now: float, *, owner: str, until: float,
                                  table_id: int | None = None,
                                  created_before: float | None = None
                                  ) -> list[AnnouncementRow]:
        """Claim for ``owner`` (until ``until``) the undelivered announcements (of one
        table, or all) nobody is delivering (or whose deliverer's lease ran out), oldest
        first: each is handed to one process's notifier. ``created_before``: of those
        nobody ever claimed, only the ones written before then (a sweep leaves a fresh
        row to the process that wrote it, which claims it right after its commit)."""
        where, params = (" AND table_id = ?", (table_id,)) if table_id is not None \
            else ("", ())
        if created_before is not None:
            where += " AND (claimed_by IS NOT NULL OR created_at < ?)"
            params = (*params, created_before)
        async with self._write() as db:
            rows = await db.all("SELECT * FROM announcements WHERE status <> 'delivered'"
                                " AND (claimed_until IS NULL OR claimed_until < ?)"
                                f"{where} ORDER BY id{_skip_locked(db, 'announcements')}",
                                (now, *params))
            await db.run_many("UPDATE announcements SET claimed_by = ?, claimed_until = ?"
                              " WHERE id = ?", [(owner, until, r["id"]) for r in rows])
            return [AnnouncementRow.of(r) for r in rows]

    # ---- processes' heartbeats (0010) ----------------------------------------------

    async def beat(self, owner: str, at: float, *, prune_before: float | None = None) -> None:
        """Process ``owner`` is alive at ``at``; with ``prune_before``, the rows of
        processes last seen before then (killed ones) go."""
        async with self._write() as db:
            await db.run("INSERT INTO process_heartbeats (owner, seen_at) VALUES (?, ?)"
                         " ON CONFLICT (owner) DO UPDATE SET seen_at = excluded.seen_at",
                         (owner, at))
            if prune_before is not None:
                await db.run("DELETE FROM process_heartbeats WHERE seen_at < ?",
                             (prune_before,))

    async def processes_seen(self, since: float, *, besides: str) -> list[str]:
        """The processes other than ``besides`` seen alive at or after ``since``."""
        rows = await self._read_all("SELECT owner FROM process_heartbeats WHERE seen_at >= ?"
                                    " AND owner <> ? ORDER BY owner", (since, besides))
        return [str(r["owner"]) for r in rows]

    async def take_dead_processes(self, before: float) -> list[tuple[str, float]]:
        """The processes last seen before ``before`` (killed), each as (owner, last
        seen), their rows removed in the same statement: of the processes that ask, one
        takes each dead one over."""
        async with self._write() as db:
            rows = await db.all("DELETE FROM process_heartbeats WHERE seen_at < ?"
                                " RETURNING owner, seen_at", (before,))
        return sorted((str(r["owner"]), float(r["seen_at"])) for r in rows)

    async def forget_process(self, owner: str) -> None:
        """Process ``owner`` stopped cleanly: it is no longer alive."""
        async with self._write() as db:
            await db.run("DELETE FROM process_heartbeats WHERE owner = ?", (owner,))

    # ---- leaderboard -----------------------------------------------------------------

    async def apply_leaderboard(self, guild_id: int, channel_id: int, rules: str,
                                deltas: Sequence[LeaderboardDelta]) -> None:
        """Add to the channel's standings of ``rules`` (outside a hand's end, e.g. a
        leaving penalty)."""
        async with self._write() as db:
            await self._apply_deltas_in(db, guild_id, channel_id, rules, deltas)

    async def leaderboard(self, channel_id: int, rules: str, *, limit: int = 10
                          ) -> list[LeaderboardRow]:
        """The channel's top ``limit`` of rule set ``rules`` by exact points (then hands
        won, then name): each rule set scores in its own unit, so each has its board.

        Points are exact fractions stored as text, so they are ordered here rather than
        in SQL; a channel has a few dozen players at most.
        """
        rows = await self._read_all(
            "SELECT * FROM leaderboard WHERE channel_id = ? AND rules = ?"
            f" AND {_PEOPLE}", (channel_id, rules))
        ranked = sorted((LeaderboardRow.of(r) for r in rows),
                        key=lambda e: (-e.points, -e.hands_won, e.display_name, e.player_key))
        return ranked[:limit]

    async def leaderboard_rules(self, channel_id: int) -> list[str]:
        """The rule sets the channel has standings in, the one it played last first."""
        rows = await self._read_all(
            "SELECT r.rules FROM (SELECT DISTINCT rules FROM leaderboard WHERE channel_id = ?"
            f" AND {_PEOPLE}) r"
            " ORDER BY COALESCE((SELECT MAX(t.id) FROM game_tables t WHERE t.channel_id = ?"
            " AND t.rules = r.rules), 0) DESC, r.rules", (channel_id, channel_id))
        return [r["rules"] for r in rows]

    async def leaderboard_entry(self, channel_id: int, rules: str, player_key: str
                                ) -> LeaderboardRow | None:
        row = await self._read_one(
            "SELECT * FROM leaderboard WHERE channel_id = ? AND rules = ? AND player_key = ?",
            (channel_id, rules, player_key))
        return LeaderboardRow.of(row) if row else None

    async def _apply_deltas_in(self, db: Session, guild_id: int, channel_id: int, rules: str,
                               deltas: Sequence[LeaderboardDelta]) -> None:
        line = "SELECT points FROM leaderboard WHERE channel_id = ? AND rules = ?" \
               f" AND player_key = ?{db.for_update}"
        for d in deltas:
            key = (channel_id, rules, d.player_key)
            row = await db.one(line, key)
            if row is None:  # a first line: made (or a racing process's waited for), locked
                await db.run("INSERT INTO leaderboard (guild_id, channel_id, rules, player_key,"
                             " display_name) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                             (guild_id, *key, d.display_name))
                row = await db.one(line, key)
            points = (Fraction(row["points"]) if row else Fraction(0)) + d.points
            await db.run(_UPSERT_LEADERBOARD,
                       (guild_id, *key, d.display_name,
                        fraction_text(points), d.hands_won, d.hands_played, d.matches_played,
                        d.hand_value, d.hand_desc))

    # ---- the presenter's views, shared by processes (0009) ------------------------------
    # Used by `StoreMemory` (bot/store/presenter_memory.py) in shared mode only: the
    # message ids are read fresh before each delivery and a new one is *swapped* in,
    # handing back the one it replaces in the same transaction, so that every message id
    # ever stored is handed to exactly one replacer (which deletes it or takes its
    # buttons off) however processes race.

    async def view_messages(self, table_id: int) -> list[Row]:
        """The table's presenter memory in one query: one row per seat (a table without
        seats: one row, ``seat`` NULL), each with the table's lobby_message_id,
        table_message_id, table_message_posted_at, ping_message_id and
        permission_error_reported, and the seat's dm_closed, dm_message_id and dm_order,
        and its followed reply (`hand_reply_of`). No rows: no such table."""
        return await self._read_all(
            "SELECT t.lobby_message_id, t.table_message_id, t.table_message_posted_at,"
            " t.ping_message_id, t.permission_error_reported, s.seat, s.dm_closed,"
            " s.dm_message_id, s.dm_order, s.reply_message_id, s.reply_token,"
            " s.reply_user_id, s.reply_until, s.reply_order FROM game_tables t"
            " LEFT JOIN seats s ON s.table_id = t.id"
            " WHERE t.id = ? ORDER BY s.seat", (table_id,))

    async def swap_view_message(self, table_id: int, which: str, message_id: int | None,
                                posted_at: float | None = None) -> int | None:
        """Store ``message_id`` as the table's ``which`` message ("lobby", "table" (with
        ``posted_at``) or "ping") and return the id it replaced, atomically."""
        column = _VIEW_COLUMNS.get(which)
        if column is None:
            raise ValueError(f"not a view message: {which!r}")
        async with self._write() as db:
            row = await db.one(f"SELECT {column} FROM game_tables WHERE id = ?"
                               f"{db.for_update}", (table_id,))
            if row is None:
                raise NotFound(f"no table {table_id}")
            if which == "table":
                await db.run(f"UPDATE game_tables SET {column} = ?,"
                             " table_message_posted_at = ? WHERE id = ?",
                             (message_id, posted_at, table_id))
            else:
                await db.run(f"UPDATE game_tables SET {column} = ? WHERE id = ?",
                             (message_id, table_id))
            old = row[column]
            return int(old) if old is not None else None

    async def swap_dm_message(self, table_id: int, seat: int, message_id: int | None,
                              order: int | None = None, *, shows: int | None = None
                              ) -> int | None:
        """Store ``message_id`` as the seat's DM with move buttons and return the id it
        replaced, atomically (None, and nothing stored, when the seat is empty now).
        ``order`` (`dm_order`, 0011): the step the DM shows; a DM older than the stored
        one is not stored, and its own id comes back (its buttons are the stale ones).
        ``shows``: for a DM without a decision (no ``order``), the state it shows, in
        the same numbering: one older than the stored decision (another process sent
        that newer DM first) leaves it and its buttons alone."""
        # one trip to SQLite's thread (not four: BEGIN, SELECT, UPDATE, COMMIT, each
        # holding the lock that every click's move then waits for): a DM per click
        return await self._at_once(_swap_dm, table_id, seat, message_id, order, shows)

    async def clear_dm_messages(self, table_id: int) -> None:
        """The table is over: no seat's DM or reply is to be edited any more."""
        async with self._write() as db:
            await db.run("UPDATE seats SET dm_message_id = NULL, dm_order = NULL,"
                         " reply_message_id = NULL, reply_token = NULL,"
                         " reply_user_id = NULL, reply_until = NULL, reply_order = NULL"
                         " WHERE table_id = ?",
                         (table_id,))

    @staticmethod
    def hand_reply_of(row: Row) -> HandReplyRow | None:
        """The seat's followed `/mahjong hand` reply in a `view_messages` row."""
        return _reply_of(row)

    async def swap_hand_reply(self, table_id: int, seat: int, reply: HandReplyRow | None
                              ) -> HandReplyRow | None:
        """Store ``reply`` as the `/mahjong hand` reply that follows the seat (None:
        none) and return the one it replaced, atomically (its buttons are the
        replacer's to take off). Nothing is stored when the seat is empty now."""
        return await self._at_once(_swap_reply, table_id, seat, reply)

    async def advance_hand_reply(self, table_id: int, seat: int, message_id: int,
                                 order: int) -> bool:
        """The seat's followed reply ``message_id`` shows the state ``order`` from now
        on: True when it is still the stored reply and showed an older state (the
        caller then draws it), else nothing changes (a newer reply replaced it, or
        another process drew a state as new)."""
        async with self._write() as db:
            changed = await db.run(
                "UPDATE seats SET reply_order = ? WHERE table_id = ? AND seat = ?"
                " AND reply_message_id = ? AND reply_order < ?",
                (order, table_id, seat, message_id, order))
        return changed == 1

    async def owed_dms(self, *, set_before: float | None = None) -> list[OwedDm]:
        """The people's pending decisions (turn and claim deadlines of live hands) that
        the seat's stored DM does not show: its ``dm_order`` (0011: hand number x 2^32
        + step; NULL: no decision DMed yet) is older than the decision. Seats whose DMs
        are closed (the channel mentions them) or that are away (the computer plays
        them) are left out. ``set_before``: only the decisions set at or before then."""
        where, params = ("", ()) if set_before is None else (" AND d.set_at <= ?",
                                                              (set_before,))
        rows = await self._read_all(
            "SELECT m.table_id, d.seat, h.number, d.seq FROM deadlines d"
            " JOIN hands h ON h.id = d.hand_id JOIN matches m ON m.id = h.match_id"
            " JOIN seats s ON s.table_id = m.table_id AND s.seat = d.seat"
            " WHERE d.kind <> 'computer' AND h.status = 'live' AND s.user_id IS NOT NULL"
            " AND s.dm_closed = 0 AND s.away = 0 AND (s.dm_order IS NULL"
            " OR s.dm_order < h.number * 4294967296 + d.seq)"
            f"{where} ORDER BY m.table_id, d.seat", params)
        return [OwedDm(int(r["table_id"]), int(r["seat"]), int(r["number"]), int(r["seq"]))
                for r in rows]


_VIEW_COLUMNS = {"lobby": "lobby_message_id", "table": "table_message_id",
                 "ping": "ping_message_id"}
"""`Store.swap_view_message`'s names for the table's message columns."""


_UPSERT_LEADERBOARD = """
INSERT INTO leaderboard (guild_id, channel_id, rules, player_key, display_name, points,
                         hands_won, hands_played, matches_played, best_hand_value,
                         best_hand_desc)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (channel_id, rules, player_key) DO UPDATE SET
    display_name = excluded.display_name,
    points = excluded.points,
    hands_won = leaderboard.hands_won + excluded.hands_won,
    hands_played = leaderboard.hands_played + excluded.hands_played,
    matches_played = leaderboard.matches_played + excluded.matches_played,
    best_hand_desc = CASE
        WHEN excluded.best_hand_value IS NOT NULL
             AND (leaderboard.best_hand_value IS NULL
                  OR excluded.best_hand_value > leaderboard.best_hand_value)
        THEN excluded.best_hand_desc ELSE leaderboard.best_hand_desc END,
    best_hand_value = CASE
        WHEN excluded.best_hand_value IS NOT NULL
             AND (leaderboard.best_hand_value IS NULL
                  OR excluded.best_hand_value > leaderboard.best_hand_value)
        THEN excluded.best_hand_value ELSE leaderboard.best_hand_value END
"""
"""Columns of the row already there are named with the table's name: PostgreSQL finds
a bare name ambiguous beside ``excluded``."""
