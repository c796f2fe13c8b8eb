"""The projection of settled hands and finished matches (``hand_facts``,
``match_facts``, migration 0026): what stats, ratings, boards and recaps read.

Derived rows, never a source (`bot.service.facts` derives them): written in the
transaction that settles their hand or finishes their match (`write_in`, composed by
`bot.store.endings`), and by the rebuild (`Facts.rebuild_batch`), which takes its claim
and records its progress in ``bot_settings`` (`Facts.claim_rebuild`). A write of a row
already there replaces it: the rebuild and the incremental writes derive the same rows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.database import Session
from bot.store.fact_sources import Derive, project_in, write_in
from bot.store.repository import Repository, grouped, marks
from bot.store.rows import HandFact, MatchFact, Rules

FORMULA_KEY = "stats_formula"
"""bot_settings: the formula (`bot.service.facts.STATS_FORMULA`) the projection was
last completely built with."""
REBUILD_KEY = "stats_rebuild"
"""bot_settings: a rebuild under way: ``{"formula", "by", "until", "after",
"indexes"}`` — the formula it builds, the process that holds it until when, the last
hand id done, and the secondary indexes it dropped (their definitions)."""
SET_ASIDE = ("hand_facts_by_user", "hand_facts_by_channel", "match_facts_in_order",
             "match_facts_by_user", "match_facts_by_channel")
"""The projection's secondary indexes a rebuild from nothing drops in its claim and
makes again when it finishes (rows written into a table without them, the indexes then
built once: cheaper than each row entered in each). Their definitions go with the
claim, so a rebuild killed midway and taken back makes them too. Not
``hand_facts_by_match``: the rebuild reads by it (`match_sources_in`)."""


@dataclass(frozen=True)
class RebuildClaim:
    """A rebuild of the projection held by one process: it goes on after hand
    ``after`` (0: from the start, everything deleted first)."""

    formula: str
    by: str
    until: float
    after: int
    indexes: tuple[str, ...] = ()
    """The definitions of the indexes set aside (`SET_ASIDE`), made at its end."""


class Facts(Repository):
    """Reads and writes of the projection."""

    async def of_hand(self, hand_id: int) -> list[HandFact]:
        rows = await self._all("SELECT * FROM hand_facts WHERE hand_id = ? ORDER BY seat",
                               (hand_id,))
        return [HandFact.of(r) for r in rows]

    async def of_match(self, match_id: int) -> list[MatchFact]:
        rows = await self._all("SELECT * FROM match_facts WHERE match_id = ? ORDER BY seat",
                               (match_id,))
        return [MatchFact.of(r) for r in rows]

    async def hands_of_match(self, match_id: int) -> list[HandFact]:
        rows = await self._all("SELECT * FROM hand_facts WHERE match_id = ?"
                               " ORDER BY hand_id, seat", (match_id,))
        return [HandFact.of(r) for r in rows]

    async def all_hands(self) -> list[HandFact]:
        """Every hand row, by hand and seat (tests and tools: it is all of them)."""
        rows = await self._all("SELECT * FROM hand_facts ORDER BY hand_id, seat")
        return [HandFact.of(r) for r in rows]

    async def all_matches(self) -> list[MatchFact]:
        """Every match row, by match and seat (tests and tools)."""
        rows = await self._all("SELECT * FROM match_facts ORDER BY match_id, seat")
        return [MatchFact.of(r) for r in rows]

    async def finished_matches(self, guild_id: int, rules: Rules,
                               after: tuple[float, int] | None = None, *,
                               limit: int = 500) -> list[tuple[MatchFact, ...]]:
        """The server's finished matches of a rule set in order (finished_at, match_id),
        those after the cursor ``after`` (its last match's (finished_at, match_id)),
        at most ``limit`` of them, each its seats' rows in seat order (the ratings'
        projector reads them; index ``match_facts_in_order``)."""
        at, match_id = after if after is not None else (float("-inf"), 0)
        rows = await self._all(
            "SELECT f.* FROM match_facts f JOIN ("
            " SELECT match_id, finished_at FROM match_facts"
            " WHERE guild_id = ? AND rules = ? AND seat = 0"
            " AND (finished_at > ? OR (finished_at = ? AND match_id > ?))"
            " ORDER BY finished_at, match_id LIMIT ?) m ON m.match_id = f.match_id"
            " ORDER BY f.finished_at, f.match_id, f.seat",
            (guild_id, rules, at, at, match_id, limit))
        return [tuple(ms) for ms in
                grouped((MatchFact.of(r) for r in rows), lambda f: f.match_id).values()]

    async def write(self, hands: Sequence[HandFact],
                    matches: Sequence[MatchFact] = ()) -> None:
        """Write (or replace) rows in a transaction of their own."""
        async with self._write() as db:
            await write_in(db, hands, matches)

    # ---- the rebuild -----------------------------------------------------------------

    async def formula(self) -> str | None:
        """The formula the projection was last completely built with (None: never)."""
        row = await self._one("SELECT value FROM bot_settings WHERE key = ?",
                              (FORMULA_KEY,))
        return None if row is None else str(row["value"])

    async def claim_rebuild(self, formula: str, by: str, *, at: float, hold: float,
                            force: bool = False) -> RebuildClaim | None:
        """Take (or take back) the rebuild to ``formula`` for process ``by`` until
        ``at + hold``: None when the projection is already built with it (unless
        ``force``: start over) or another process holds an unexpired claim. A claim
        left by a killed process goes on where it stopped (same formula); a new one
        starts from nothing: every row is deleted in the same transaction, and the
        indexes of `SET_ASIDE` dropped until `finish_rebuild` (stats asked meanwhile
        read without them)."""
        async with self._write() as db:
            for key in (REBUILD_KEY, FORMULA_KEY):
                await db.run("INSERT INTO bot_settings (key, value, updated_at)"
                             " VALUES (?, '', ?) ON CONFLICT (key) DO NOTHING", (key, at))
            # the rebuild's row is the one lock every step of it takes (first): a
            # racing process waits, and no two steps wait for each other
            held = await self._held_in(db)
            row = await db.one("SELECT value FROM bot_settings WHERE key = ?", (FORMULA_KEY,))
            built = "" if row is None else str(row["value"])
            if held is not None and held["by"] != by and held["until"] > at:
                return None
            if held is None and built == formula and not force:
                return None
            after = 0
            indexes = tuple(held.get("indexes", ())) if held is not None else ()
            if held is not None and held["formula"] == formula and not force:
                after = int(held["after"])
            else:
                indexes += await self._set_aside_in(db)
                await db.run("DELETE FROM hand_facts")
                await db.run("DELETE FROM match_facts")
            claim = RebuildClaim(formula, by, at + hold, after, indexes)
            await self._hold_in(db, claim, at)
            return claim

    async def rebuild_batch(self, claim: RebuildClaim, derive: Derive, *, size: int,
                            at: float, hold: float
                            ) -> tuple[RebuildClaim | None, int, bool]:
        """One batch of the rebuild, in one transaction: the facts of the next ``size``
        ended hands after the claim's progress (and of the matches they finish), the
        progress and the claim held on. The claim as held on, the settled hands written,
        and whether any hand was left to look at; (None, 0, False) — nothing written —
        when the claim is no longer this process's."""
        async with self._write() as db:
            held = await self._held_in(db)
            if held is None or held["by"] != claim.by or held["formula"] != claim.formula:
                return None, 0, False
            last = await db.one("SELECT MAX(id) FROM (SELECT id FROM hands WHERE id > ?"
                                " AND status = 'ended' ORDER BY id LIMIT ?) b",
                                (claim.after, size))
            if last is None or last[0] is None:
                return claim, 0, False
            upto = int(last[0])
            if db.for_update:  # PostgreSQL: the batch's queries are costed high enough
                # to be compiled (JIT), which took longer than running them (0.26 s of
                # the log's 0.5 s for 2,000 hands)
                await db.run("SET LOCAL jit = off")
            written = await project_in(db, derive, claim.after, upto)
            claim = RebuildClaim(claim.formula, claim.by, at + hold, upto, claim.indexes)
            await self._hold_in(db, claim, at)
            return claim, written, True

    async def project(self, derive: Derive, after: int, upto: int) -> int:
        """Derive and write the facts of the hands with ids in (``after``, ``upto``]
        (and of the matches they finish) in a transaction of their own."""
        async with self._write() as db:
            return await project_in(db, derive, after, upto)

    async def finish_rebuild(self, claim: RebuildClaim, *, at: float) -> bool:
        """The rebuild is complete: the indexes it set aside made again, its formula
        recorded and its claim let go, in one transaction.
        False (nothing written) when the claim is no longer this process's."""
        async with self._write() as db:
            held = await self._held_in(db)
            if held is None or held["by"] != claim.by or held["formula"] != claim.formula:
                return False
            for sql in held.get("indexes", ()):
                await db.run(sql)
            if held.get("indexes") and (db.for_update or await db.one(
                    "SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'")):
                # the planner's figures of the new rows and indexes (SQLite: only where
                # it keeps them, as dropping an index dropped its own)
                await db.run("ANALYZE hand_facts")
                await db.run("ANALYZE match_facts")
            await db.run("UPDATE bot_settings SET value = '', updated_at = ? WHERE key = ?",
                         (at, REBUILD_KEY))
            await db.run("UPDATE bot_settings SET value = ?, updated_at = ? WHERE key = ?",
                         (claim.formula, at, FORMULA_KEY))
            return True

    @staticmethod
    async def _held_in(db: Session) -> dict[str, Any] | None:
        """The rebuild under way (its row locked until the transaction ends), or None."""
        row = await db.one(f"SELECT value FROM bot_settings WHERE key = ?{db.for_update}",
                           (REBUILD_KEY,))
        return json.loads(row["value"]) if row is not None and row["value"] else None

    @staticmethod
    async def _set_aside_in(db: Session) -> tuple[str, ...]:
        """Drop the indexes of `SET_ASIDE` that exist: their definitions (each made
        with IF NOT EXISTS, so making it twice is harmless)."""
        names = list(SET_ASIDE)
        if db.for_update:  # PostgreSQL
            rows = await db.all(
                "SELECT c.relname AS name, pg_get_indexdef(c.oid) AS sql FROM pg_class c"
                " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'i'"
                f" AND n.nspname = current_schema() AND c.relname IN ({marks(names)})"
                " ORDER BY c.relname", names)
        else:
            rows = await db.all(
                "SELECT name, sql FROM sqlite_master WHERE type = 'index'"
                f" AND name IN ({marks(names)}) ORDER BY name", names)
        out = []
        for r in rows:
            sql = str(r["sql"])
            if not sql.upper().startswith("CREATE INDEX "):
                continue  # not one this knows how to make again: left alone
            out.append("CREATE INDEX IF NOT EXISTS " + sql[len("CREATE INDEX "):])
            await db.run(f"DROP INDEX {r['name']}")
        return tuple(out)

    @staticmethod
    async def _hold_in(db: Session, claim: RebuildClaim, at: float) -> None:
        value = json.dumps({"formula": claim.formula, "by": claim.by, "until": claim.until,
                            "after": claim.after, "indexes": list(claim.indexes)})
        await db.run("UPDATE bot_settings SET value = ?, updated_at = ? WHERE key = ?",
                     (value, at, REBUILD_KEY))

    async def of_hands(self, hand_ids: Sequence[int]) -> dict[int, list[HandFact]]:
        """The rows of these hands, by hand."""
        ids = list(hand_ids)
        rows = await self._all(f"SELECT * FROM hand_facts WHERE hand_id IN ({marks(ids)})"
                               " ORDER BY hand_id, seat", ids)
        return grouped((HandFact.of(r) for r in rows), lambda f: f.hand_id)
