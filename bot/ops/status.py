"""``mahjong-bot status``: how the bot is doing, read from the database alone (it runs
beside the bot, on another machine too for PostgreSQL, and writes nothing).

    mahjong-bot status [--db PATH_OR_URL] [--stuck-after SECONDS] [--json]

Prints the schema version, whether a bot holds the database, the live tables, the
decisions waiting for people (the oldest), the deadlines overdue and the deliveries
owed (the oldest). Exit code 0 when all is well, 1 when something is stuck, 2 when the
database cannot be read. Stuck means one of (`STUCK`):

- ``overdue``: a deadline passed more than ``--stuck-after`` seconds ago (default 300)
  and no bot fired it: no bot is running, or its scheduler stalls;
- ``owed``: a delivery (an announcement, a decision's DM, a quiet-hours digest) has
  waited more than ``--stuck-after`` seconds: Discord refuses it, or nothing sends;
- ``schema_behind``: the database is older than this code (start the bot, or
  ``mahjong-bot migrate``, to upgrade it);
- ``schema_ahead``: the database was written by a newer bot than this one.

A decision waiting for a person is never stuck: people take days.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.ops import CANNOT, add_database, database_of, say_error

PROG = "mahjong-bot status"
STUCK_AFTER = 300.0
"""Seconds a deadline may be late, or a delivery wait, before it counts as stuck."""
ALIVE_WITHIN = 60.0
"""PostgreSQL: a process whose heartbeat is younger than this counts as running."""
STUCK = ("overdue", "owed", "schema_behind", "schema_ahead")


@dataclass
class Status:
    """What `read_status` found."""

    database: str
    dialect: str
    version: int
    latest: int
    bots: list[str] = field(default_factory=list)
    """The processes running on the database (SQLite: the lock's holder's id)."""
    figures: dict[str, Any] = field(default_factory=dict)
    stuck: list[str] = field(default_factory=list)
    """The `STUCK` kinds found, each with its sentence in `reasons`."""
    reasons: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"database": self.database, "dialect": self.dialect,
                "schema": {"version": self.version, "latest": self.latest},
                "bots": self.bots, **self.figures, "stuck": self.stuck,
                "reasons": self.reasons, "ok": not self.stuck}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog=PROG, description="How the bot is doing, from the database alone; exit code "
                               "1 when something is stuck, 2 when the database cannot be "
                               "read.")
    add_database(parser)
    parser.add_argument("--stuck-after", type=float, default=STUCK_AFTER, metavar="SECONDS",
                        help="how late a deadline, or how old a delivery owed, counts as "
                             f"stuck (default {STUCK_AFTER:g})")
    parser.add_argument("--json", action="store_true", help="one JSON object instead")
    args = parser.parse_args(argv)
    database = database_of(args, PROG)
    if database is None:
        return CANNOT
    if isinstance(database, Path) and not database.is_file():
        return say_error(PROG, f"no database at {database} (DATABASE_PATH): nothing to "
                               "report; a bot creates it at its first start")
    from bot.store import StoreError

    try:
        status = asyncio.run(read_status(database, stuck_after=args.stuck_after))
    except StoreError as exc:
        return say_error(PROG, exc)
    if args.json:
        sys.stdout.write(json.dumps(status.as_json(), indent=2) + "\n")
    else:
        sys.stdout.write(text_of(status, time.time()))
    return 1 if status.stuck else 0


async def read_status(database: Path | str, *, stuck_after: float = STUCK_AFTER,
                      now: float | None = None) -> Status:
    """The figures of ``database`` at ``now`` (default: the clock's)."""
    from bot.store import Store, load_migrations
    from bot.store.lock import holder

    now = time.time() if now is None else now
    store = await Store.open(database, migrate=False)
    try:
        dialect = store.dialect
        latest = load_migrations(dialect="postgres" if dialect == "postgres" else "sqlite")
        status = Status(str(store.path), dialect, await store.maintenance.schema_version(),
                        latest[-1].version)
        if dialect == "postgres":
            if status.version >= 10:  # process_heartbeats
                status.bots = await store.processes.seen(now - ALIVE_WITHIN, besides="")
        else:
            held = holder(database)
            status.bots = [] if held is None else [held or "?"]
        if status.version < status.latest:
            status.stuck.append("schema_behind")
            status.reasons.append(
                f"the database is at schema {status.version}, this code at "
                f"{status.latest}: start the bot (or mahjong-bot migrate) to upgrade it")
            return status  # the rest is read at the current schema only
        if status.version > status.latest:
            status.stuck.append("schema_ahead")
            status.reasons.append(
                f"the database is at schema {status.version}, newer than this code "
                f"({status.latest}): it was written by a newer bot")
            return status
        health = await store.maintenance.read(now, overdue_before=now - stuck_after)
    finally:
        await store.close()
    owed = health.owed
    status.figures = {
        "tables": {"live": health.lobby + health.playing, "playing": health.playing,
                   "lobby": health.lobby},
        "decisions": {"waiting": health.decisions.count, "oldest": health.decisions.oldest},
        "deadlines": {"overdue": health.overdue.count, "oldest": health.overdue.oldest},
        "deliveries": {"owed": owed.count, "oldest": owed.oldest,
                       "announcements": health.announcements.count,
                       "decision_dms": health.decision_dms.count,
                       "digests": health.digests.count},
    }
    if health.overdue.count:
        assert health.overdue.oldest is not None
        status.stuck.append("overdue")
        status.reasons.append(
            f"{_many(health.overdue.count, 'deadline')} passed without firing, the oldest "
            f"{_ago(now - health.overdue.oldest)} ago: "
            + ("is the bot running?" if not status.bots else "the bot's timers stall"))
    if owed.oldest is not None and owed.oldest < now - stuck_after:
        status.stuck.append("owed")
        status.reasons.append(
            f"{_many(owed.count, 'delivery', 'deliveries')} owed, the oldest for "
            f"{_ago(now - owed.oldest)}: "
            + ("is the bot running?" if not status.bots
               else "Discord refuses them, or the bot cannot reach it (see its log)"))
    return status


def text_of(status: Status, now: float) -> str:
    """The status as an admin reads it."""
    kind = "PostgreSQL" if status.dialect == "postgres" else "SQLite"
    bots = ("no bot running" if not status.bots
            else f"held by a bot (process {status.bots[0]})" if status.dialect == "sqlite"
            else f"{_many(len(status.bots), 'bot process', 'bot processes')} running")
    lines = [f"database    {status.database} ({kind}), {bots}",
             f"schema      {status.version} (this code: {status.latest})"]
    figures = status.figures
    if figures:
        tables, decisions = figures["tables"], figures["decisions"]
        deadlines, deliveries = figures["deadlines"], figures["deliveries"]
        lines += [
            f"tables      {tables['live']} live ({tables['playing']} playing, "
            f"{tables['lobby']} in the lobby)",
            f"decisions   {decisions['waiting']} waiting for people"
            + _oldest(decisions["oldest"], now, "since"),
            f"deadlines   {deadlines['overdue']} overdue"
            + _oldest(deadlines["oldest"], now, "due"),
            f"deliveries  {deliveries['owed']} owed"
            + _oldest(deliveries["oldest"], now, "since"),
        ]
    lines.append("status      " + ("ok" if not status.stuck else "STUCK"))
    lines += [f"  - {reason}" for reason in status.reasons]
    return "\n".join(lines) + "\n"


def _oldest(moment: float | None, now: float, word: str) -> str:
    if moment is None:
        return ""
    when = datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f", the oldest {word} {when} ({_ago(now - moment)} ago)"


def _ago(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 2 * 3600:
        return f"{seconds // 60} min"
    if seconds < 2 * 86400:
        return f"{seconds // 3600} h {seconds % 3600 // 60} min"
    return f"{seconds // 86400} days"


def _many(n: int, one: str, more: str | None = None) -> str:
    return f"{n} {one if n == 1 else more or one + 's'}"
