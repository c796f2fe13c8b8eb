"""A finished hand's log row (``hand_logs``) as a hand ending writes it and its readers
take it (issue 32, "a hand costs its log"; the form itself: `bot.store.compact`).

When a hand ends, its transaction turns its action rows into the form's text
(`compact_select`: migration 0032's own encoder, the query of `compact.compact_sql`),
deflated (``packed``, migration 0033: raw DEFLATE, a third smaller; ``log`` then
empty), and deletes them (`compact_in`). The hands 0032 converted keep their text plain
in ``log``; `text_of` gives either back.
"""

from __future__ import annotations

import zlib

from bot.store.compact import compact_sql
from bot.store.database import Session

_INSERT = "INSERT INTO hand_logs (hand_id, log, log_digest) "


def compact_select(dialect: str, where: str) -> str:
    """The query of `compact_sql` (migration 0032's statement): ``hand_id, log,
    log_digest`` of each hand ``where`` picks whose rows fit the form."""
    sql = compact_sql(dialect, where)
    assert sql.startswith(_INSERT)
    return sql[len(_INSERT):]


async def compact_in(db: Session, dialect: str, hand_id: int) -> bool:
    """The hand's rows written as its ``hand_logs`` row, its text packed (`pack`), and
    deleted, in the caller's transaction (the hand has ended); False if they do not fit
    (they stay)."""
    row = await db.one(compact_select(dialect, "h.id = ?"), (hand_id,))
    if row is None:
        return False
    await db.run("INSERT INTO hand_logs (hand_id, log, log_digest, packed)"
                 " VALUES (?, '', ?, ?)", (hand_id, row[2], pack(str(row[1]))))
    await db.run("DELETE FROM actions WHERE hand_id = ?", (hand_id,))
    return True


def pack(text: str) -> bytes:
    """A log's text deflated (raw, no header: a third smaller, 0033)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9)
    return packer.compress(text.encode("ascii")) + packer.flush()


def text_of(log: str, packed: bytes | None) -> str:
    """A ``hand_logs`` row's text: ``log``, or ``packed`` inflated (``log`` then empty)."""
    if packed is None:
        return log
    return zlib.decompress(bytes(packed), -15).decode("ascii")
