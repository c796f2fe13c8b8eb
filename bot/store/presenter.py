"""The Discord presenter's memory as the store keeps it (used by `StoreMemory`,
bot/store/presenter_memory.py): the table's message ids (``game_tables``), each seat's
DM with move buttons (0009, 0011) and followed `/mahjong hand` reply (0015), and the
decisions whose DM never went out.

In shared mode the message ids are read fresh before each delivery and a new one is
*swapped* in, handing back the one it replaces in the same transaction, so that every
message id ever stored is handed to exactly one replacer (which deletes it or takes its
buttons off) however processes race."""

from __future__ import annotations

from bot.store.database import Session
from bot.store.errors import NotFound
from bot.store.repository import Repository
from bot.store.rows import HandReplyRow, OwedDm, Row

_VIEW_COLUMNS = {"lobby": "lobby_message_id", "table": "table_message_id",
                 "ping": "ping_message_id"}
"""`Presenter.swap_view_message`'s names for the table's message columns."""

OWED_DMS = ("FROM deadlines d JOIN hands h ON h.id = d.hand_id"
            " JOIN matches m ON m.id = h.match_id"
            " JOIN seats s ON s.table_id = m.table_id AND s.seat = d.seat"
            " WHERE d.dm_owed = 1 AND d.kind <> 'computer' AND h.status = 'live'"
            " AND s.user_id IS NOT NULL AND s.dm_closed = 0 AND s.away = 0"
            " AND (s.dm_order IS NULL OR s.dm_order < h.number * 4294967296 + d.seq)")
"""The people's decisions owed their DM (`Presenter.owed_dms`; deadline ``d``, its hand
``h``, match ``m``, seat ``s``), read through migration 0035's index of the decisions
whose DM may be owed (``d.dm_owed = 1 AND d.kind <> 'computer'``, word for word; the
seats' trigger ``seats_dm_shown`` clears the mark as a DM showing the decision is
stored)."""


async def _swap_dm(db: Session, table_id: int, seat: int, message_id: int | None,
                   order: int | None, shows: int | None) -> int | None:
    """`Presenter.swap_dm_message`'s transaction."""
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
    """`Presenter.swap_hand_reply`'s transaction."""
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


class Presenter(Repository):
    """The presenter's memory."""

    async def view_messages(self, table_id: int) -> list[Row]:
        """The table's presenter memory in one query: one row per seat (a table without
        seats: one row, ``seat`` NULL), each with the table's lobby_message_id,
        table_message_id, table_message_posted_at, ping_message_id and
        permission_error_reported and presenter_residue, and the seat's dm_closed,
        dm_message_id and dm_order, and its followed reply (`hand_reply_of`). No rows:
        no such table."""
        return await self._all(
            "SELECT t.lobby_message_id, t.table_message_id, t.table_message_posted_at,"
            " t.ping_message_id, t.permission_error_reported, t.presenter_residue,"
            " s.seat, s.dm_closed,"
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

    async def set_dm_message(self, table_id: int, seat: int, message_id: int | None,
                             order: int) -> bool:
        """Store ``message_id`` as the seat's DM with move buttons, showing step ``order``
        (`dm_order`, kept for a restart: `owed_dms`), unless the stored DM shows a newer
        step (then nothing changes: False, as when the seat is empty now). One process
        only: it knows the DM it replaces, so nothing is handed back (shared mode swaps,
        `swap_dm_message`). One conditional statement alone (`Database.run_alone`), not
        a transaction reading the seat first: a DM a click, measured at BEGIN, SELECT,
        UPDATE, COMMIT on the loop's thread (issue 32). Migration 0035's trigger still
        clears the decisions' ``dm_owed`` that the new order shows."""
        changed = await self._db.run_alone(
            "UPDATE seats SET dm_message_id = ?, dm_order = ? WHERE table_id = ? AND seat = ?"
            " AND (dm_order IS NULL OR dm_order <= ?)",
            (message_id, order, table_id, seat, order))
        return changed == 1

    async def set_residue(self, table_id: int, residue: str | None) -> None:
        """What the presenter knew of the table in memory only, kept while the table is
        out of its memory (None: nothing; 0034)."""
        async with self._write() as db:
            await db.run("UPDATE game_tables SET presenter_residue = ? WHERE id = ?",
                         (residue, table_id))

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
        them) are left out. ``set_before``: only the decisions set at or before then.
        Read through migration 0035's index of the decisions whose DM may be owed
        (``dm_owed``, cleared as each DM is stored): what it costs follows what is owed,
        not the number of live tables."""
        where, params = ("", ()) if set_before is None else (" AND d.set_at <= ?",
                                                              (set_before,))
        rows = await self._all(f"SELECT m.table_id, d.seat, h.number, d.seq {OWED_DMS}"
                               f"{where} ORDER BY m.table_id, d.seat", params)
        return [OwedDm(int(r["table_id"]), int(r["seat"]), int(r["number"]), int(r["seq"]))
                for r in rows]
