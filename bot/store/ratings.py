"""Skill ratings per person, server and rule set (issue 31; migration 0027): a projection
of the finished matches' placements (``match_facts``), applied one match after the other
in the order (finished_at, match_id) of each server's rule set.

The store does the SQL and the bookkeeping; the arithmetic is a `Formula` handed in by
the caller (bot/service/ratings.py's), so the store knows no rating model. A match is
taken once (``rated_matches``): in the same transaction as its last settlement
(`project_match_in`, from `Endings`), or at start-up (`Ratings.start`: a changed
formula rebuilds everything, then any finished match not taken yet is), or by a rebuild.
Each server's rule set has a cursor row (``rating_cursors``) that every rating
transaction locks first: two processes never interleave one server's rule set, and a
match that reaches it after a later one (a process that committed late) has that server's
rule set replayed whole, so the ratings always equal a replay in order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bot.store.database import Session
from bot.store.repository import Repository, grouped, marks
from bot.store.rows import Row

SETTING = "rating_formula"
"""The ``bot_settings`` key holding the name of the formula the ratings were made by."""
PROVISIONAL_MATCHES = 10
"""A rating is provisional until this many rated matches made it."""


@dataclass(frozen=True)
class Skill:
    """A rating model's two numbers for one person: the skill believed (``mu``) and how
    uncertain it still is (``sigma``)."""

    mu: float
    sigma: float


@dataclass(frozen=True)
class Placed:
    """One seat of a finished match as the ratings read it: the person credited with it
    (None: a computer, the seat never had a person) and its place (1–4, ties share the
    better one)."""

    seat: int
    user_id: int | None
    placement: int


class Formula(Protocol):
    """The arithmetic of ratings (bot/service/ratings.py)."""

    @property
    def name(self) -> str:
        """Its name and version (``RATING_FORMULA``): a different one rebuilds them all."""

    @property
    def start(self) -> Skill:
        """A person's rating before their first rated match."""

    def rate(self, seats: Sequence[Placed], computers: int,
             skills: Mapping[int, Skill]) -> dict[int, Skill] | None:
        """Each person's new rating after the match (``skills``: theirs before, the
        people without one left out), or None when the match is not rated."""

    def shown(self, skill: Skill) -> int:
        """The number players see."""


@dataclass(frozen=True)
class Rating:
    """A person's rating in one server's rule set."""

    mu: float
    sigma: float
    matches: int
    """Rated matches that made it."""
    shown: int
    """The number players see (conservative: the formula's, never below 0)."""
    provisional: bool
    """Fewer than `PROVISIONAL_MATCHES` rated matches: shown marked as such."""

    @classmethod
    def of(cls, r: Row) -> Rating:
        return cls(float(r["mu"]), float(r["sigma"]), int(r["matches"]), int(r["shown"]),
                   int(r["matches"]) < PROVISIONAL_MATCHES)


@dataclass(frozen=True)
class RatingChange:
    """What one rated match did to one person's rating (``at``: the match's end)."""

    match_id: int
    user_id: int
    guild_id: int
    rules: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    shown_before: int
    shown_after: int
    at: float

    @classmethod
    def of(cls, r: Row) -> RatingChange:
        return cls(int(r["match_id"]), int(r["user_id"]), int(r["guild_id"]), r["rules"],
                   float(r["mu_before"]), float(r["sigma_before"]), float(r["mu_after"]),
                   float(r["sigma_after"]), int(r["shown_before"]), int(r["shown_after"]),
                   float(r["at"]))

    def values(self) -> tuple[object, ...]:
        return (self.match_id, self.user_id, self.guild_id, self.rules, self.mu_before,
                self.sigma_before, self.mu_after, self.sigma_after, self.shown_before,
                self.shown_after, self.at)


@dataclass(frozen=True)
class Moved:
    """One person's shown rating before and after a rebuild (None: they had none)."""

    guild_id: int
    rules: str
    user_id: int
    before: int | None
    after: int | None


@dataclass(frozen=True)
class Rebuilt:
    """What a rebuild did: matches replayed (``rated`` of them rated), and every person
    whose shown rating or count of matches is not what it was."""

    matches: int
    rated: int
    people: int
    """People with a rating after it."""
    moved: tuple[Moved, ...] = field(default=())


@dataclass(frozen=True)
class _Match:
    match_id: int
    guild_id: int
    rules: str
    finished_at: float
    computers: int
    seats: tuple[Placed, ...]


_FACTS = ("SELECT match_id, seat, guild_id, rules, user_id, finished_at, placement,"
          " computers FROM match_facts")
_CHANGE_COLUMNS = ("match_id, user_id, guild_id, rules, mu_before, sigma_before, mu_after,"
                   " sigma_after, shown_before, shown_after, at")
_INSERT_CHANGE = (f"INSERT INTO rating_changes ({_CHANGE_COLUMNS})"
                  " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
_INSERT_RATED = ("INSERT INTO rated_matches (match_id, guild_id, rules, finished_at, rated)"
                 " VALUES (?, ?, ?, ?, ?)")
_SET_CURSOR = ("INSERT INTO rating_cursors (guild_id, rules, finished_at, match_id)"
               " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, rules) DO UPDATE SET"
               " finished_at = excluded.finished_at, match_id = excluded.match_id")


def _matches(rows: Iterable[Row]) -> list[_Match]:
    """Rows of match_facts (ordered by match, then seat) as matches, in the order read."""
    out = []
    for match_id, seats in grouped(rows, lambda r: int(r["match_id"])).items():
        first = seats[0]
        out.append(_Match(match_id, int(first["guild_id"]), first["rules"],
                          float(first["finished_at"]), int(first["computers"]),
                          tuple(Placed(int(r["seat"]), None if r["user_id"] is None
                                       else int(r["user_id"]), int(r["placement"]))
                                for r in seats)))
    return out


def _rate(match: _Match, skills: Mapping[int, Skill], formula: Formula
          ) -> list[RatingChange] | None:
    """The match's changes (one per person, by user id), or None: not rated."""
    after = formula.rate(match.seats, match.computers, skills)
    if after is None:
        return None
    changes = []
    for user_id in sorted(after):
        old, new = skills.get(user_id, formula.start), after[user_id]
        changes.append(RatingChange(
            match.match_id, user_id, match.guild_id, match.rules, old.mu, old.sigma,
            new.mu, new.sigma, formula.shown(old), formula.shown(new), match.finished_at))
    return changes


async def _lock_cursor_in(db: Session, guild_id: int, rules: str
                          ) -> tuple[float, int] | None:
    """The server's rule set's cursor, locked (made first if it has none): the last match
    taken, as (finished_at, match_id), or None."""
    await db.run("INSERT INTO rating_cursors (guild_id, rules) VALUES (?, ?)"
                 " ON CONFLICT DO NOTHING", (guild_id, rules))
    row = await db.one("SELECT finished_at, match_id FROM rating_cursors WHERE guild_id = ?"
                       f" AND rules = ?{db.for_update}", (guild_id, rules))
    if row is None or row["match_id"] is None:
        return None
    return float(row["finished_at"]), int(row["match_id"])


async def project_match_in(db: Session, match_id: int, formula: Formula) -> bool:
    """Take one finished match into its server's ratings, inside the caller's
    transaction (the one writing its match_facts): True if it was taken now. A match
    without facts (not finished, or cancelled) or taken already changes nothing; one
    that finished before the last taken has its server's rule set replayed whole."""
    found = _matches(await db.all(f"{_FACTS} WHERE match_id = ? ORDER BY seat", (match_id,)))
    if not found:
        return False
    match = found[0]
    cursor = await _lock_cursor_in(db, match.guild_id, match.rules)
    if await db.one("SELECT 1 FROM rated_matches WHERE match_id = ?", (match_id,)):
        return False
    if cursor is not None and (match.finished_at, match.match_id) < cursor:
        await _replay_in(db, formula, match.guild_id, match.rules)
        return True
    users = [s.user_id for s in match.seats if s.user_id is not None]
    rows = await db.all(
        "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND rules = ?"
        f" AND user_id IN ({marks(users)})", (match.guild_id, match.rules, *users))
    skills = {int(r["user_id"]): Skill(float(r["mu"]), float(r["sigma"])) for r in rows}
    changes = _rate(match, skills, formula)
    for c in changes or ():
        await db.run(
            "INSERT INTO ratings (guild_id, rules, user_id, mu, sigma, matches, shown,"
            " updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?) ON CONFLICT (guild_id, rules,"
            " user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
            " matches = ratings.matches + 1, shown = excluded.shown,"
            " updated_at = excluded.updated_at",
            (c.guild_id, c.rules, c.user_id, c.mu_after, c.sigma_after, c.shown_after, c.at))
        await db.run(_INSERT_CHANGE, c.values())
    await db.run(_INSERT_RATED, (match.match_id, match.guild_id, match.rules,
                                 match.finished_at, int(changes is not None)))
    await db.run(_SET_CURSOR, (match.guild_id, match.rules, match.finished_at,
                               match.match_id))
    return True


async def _replay_in(db: Session, formula: Formula, guild_id: int | None = None,
                     rules: str | None = None) -> tuple[int, int]:
    """Every finished match of a server's rule set (``rules`` None: of each of its rule
    sets; ``guild_id`` None: of every server) replayed from nothing in order, what was
    there replaced: (matches taken, matches rated)."""
    where, params = _scope(guild_id, rules)
    # the cursors first, each locked (never deleted: a racing rating waits on its row)
    await db.all(f"SELECT guild_id FROM rating_cursors{where}{db.for_update}", params)
    for table in ("ratings", "rating_changes", "rated_matches"):
        await db.run(f"DELETE FROM {table}{where}", params)
    await db.run(f"UPDATE rating_cursors SET finished_at = NULL, match_id = NULL{where}",
                 params)
    matches = _matches(await db.all(
        f"{_FACTS}{where} ORDER BY guild_id, rules, finished_at, match_id, seat", params))
    skills: dict[tuple[int, str], dict[int, Skill]] = {}
    counts: dict[tuple[int, str, int], tuple[int, float]] = {}
    changes: list[RatingChange] = []
    taken: list[tuple[object, ...]] = []
    last: dict[tuple[int, str], _Match] = {}
    for match in matches:
        group = (match.guild_id, match.rules)
        mine = skills.setdefault(group, {})
        made = _rate(match, mine, formula)
        for c in made or ():
            mine[c.user_id] = Skill(c.mu_after, c.sigma_after)
            key = (c.guild_id, c.rules, c.user_id)
            counts[key] = (counts.get(key, (0, 0.0))[0] + 1, c.at)
        changes += made or ()
        taken.append((match.match_id, match.guild_id, match.rules, match.finished_at,
                      int(made is not None)))
        last[group] = match
    await _insert_in(db, "ratings", _RATING_COLUMNS,
                     [(g, r, u, s.mu, s.sigma, counts[g, r, u][0], formula.shown(s),
                       counts[g, r, u][1])
                      for (g, r), mine in skills.items() for u, s in mine.items()])
    await _insert_in(db, "rating_changes", _CHANGE_COLUMNS.split(", "),
                     [c.values() for c in changes])
    await _insert_in(db, "rated_matches", _RATED_COLUMNS, taken)
    await db.run_many(_SET_CURSOR, [(g, r, m.finished_at, m.match_id)
                                    for (g, r), m in last.items()])
    return len(taken), sum(1 for t in taken if t[-1])


_RATING_COLUMNS = ("guild_id", "rules", "user_id", "mu", "sigma", "matches", "shown",
                   "updated_at")
_RATED_COLUMNS = ("match_id", "guild_id", "rules", "finished_at", "rated")
_COPY_FROM = 200
"""Rows from which a replay's insert goes by PostgreSQL's COPY (a whole rebuild's tens
of thousands) rather than a statement a row."""


async def _insert_in(db: Session, table: str, columns: Sequence[str],
                     rows: list[tuple[object, ...]]) -> None:
    """Insert rows a replay made into a table it emptied of them (no conflict): by COPY
    where there is one and they are many, else one statement a row."""
    if len(rows) >= _COPY_FROM and await db.copy_in(table, columns, rows):
        return
    await db.run_many(f"INSERT INTO {table} ({', '.join(columns)})"
                      f" VALUES ({', '.join('?' * len(columns))})", rows)


def _scope(guild_id: int | None, rules: str | None) -> tuple[str, tuple[object, ...]]:
    if guild_id is None:
        return "", ()
    if rules is None:
        return " WHERE guild_id = ?", (guild_id,)
    return " WHERE guild_id = ? AND rules = ?", (guild_id, rules)


async def _shown_in(db: Session, guild_id: int | None) -> dict[tuple[int, str, int],
                                                              tuple[int, int]]:
    where, params = _scope(guild_id, None)
    return {(int(r["guild_id"]), r["rules"], int(r["user_id"])):
            (int(r["shown"]), int(r["matches"]))
            for r in await db.all(f"SELECT guild_id, rules, user_id, shown, matches"
                                  f" FROM ratings{where}", params)}


async def rebuild_in(db: Session, formula: Formula, guild_id: int | None) -> Rebuilt:
    """`Ratings.rebuild` inside the caller's transaction."""
    before = await _shown_in(db, guild_id)
    matches, rated = await _replay_in(db, formula, guild_id)
    after = await _shown_in(db, guild_id)
    moved = tuple(Moved(g, r, u, before[g, r, u][0] if (g, r, u) in before else None,
                        after[g, r, u][0] if (g, r, u) in after else None)
                  for g, r, u in sorted(before.keys() | after.keys())
                  if before.get((g, r, u)) != after.get((g, r, u)))
    return Rebuilt(matches, rated, len(after), moved)


class Ratings(Repository):
    """The ratings: read by the boards, the stats and the recap; written by the
    projection (`project_match_in`), `start` and `rebuild`."""

    async def shown(self, guild_id: int, rules: str, user_ids: Iterable[int]
                    ) -> dict[int, Rating]:
        """The rating of each of these people in the server's rule set; a person with
        none (no rated match there yet, or a computer) is left out."""
        users = sorted(set(user_ids))
        if not users:
            return {}
        rows = await self._all(
            "SELECT user_id, mu, sigma, matches, shown FROM ratings WHERE guild_id = ?"
            f" AND rules = ? AND user_id IN ({marks(users)})", (guild_id, rules, *users))
        return {int(r["user_id"]): Rating.of(r) for r in rows}

    async def changes_between(self, guild_id: int, start: float, end: float
                              ) -> list[RatingChange]:
        """Every rating change of the server made by a match that ended in
        [``start``, ``end``), in the order they were made (every rule set)."""
        rows = await self._all(
            f"SELECT {_CHANGE_COLUMNS} FROM rating_changes WHERE guild_id = ? AND at >= ?"
            " AND at < ? ORDER BY at, match_id, user_id", (guild_id, start, end))
        return [RatingChange.of(r) for r in rows]

    async def of_match(self, match_id: int) -> list[RatingChange]:
        """What one match did to its people's ratings (none: not rated, or not yet)."""
        rows = await self._all(f"SELECT {_CHANGE_COLUMNS} FROM rating_changes"
                               " WHERE match_id = ? ORDER BY user_id", (match_id,))
        return [RatingChange.of(r) for r in rows]

    async def project(self, match_id: int, formula: Formula) -> bool:
        """`project_match_in` as a transaction of its own."""
        async with self._write() as db:
            return await project_match_in(db, match_id, formula)

    async def rebuild(self, formula: Formula, guild_id: int | None = None) -> Rebuilt:
        """Replay the finished matches of a server (None: of every server) from nothing,
        in order, in one transaction; what changed is said."""
        async with self._write() as db:
            return await rebuild_in(db, formula, guild_id)

    async def start(self, formula: Formula, *, at: float) -> Rebuilt | None:
        """At start-up, in one transaction (several processes starting: one after the
        other, so it is done once): when the formula is not the one the ratings were
        made by, every rating is rebuilt and the formula's name kept (the `Rebuilt`
        returned); then any finished match not taken yet is (after a crash, or facts
        rebuilt), in order."""
        async with self._write() as db:
            await db.run("INSERT INTO bot_settings (key, value, updated_at) VALUES (?, '', ?)"
                         " ON CONFLICT DO NOTHING", (SETTING, at))
            row = await db.one(f"SELECT value FROM bot_settings WHERE key = ?{db.for_update}",
                               (SETTING,))
            rebuilt = None
            if row is None or row["value"] != formula.name:
                rebuilt = await rebuild_in(db, formula, None)
                await db.run("UPDATE bot_settings SET value = ?, updated_at = ? WHERE key = ?",
                             (formula.name, at, SETTING))
            missed = await db.all(
                "SELECT DISTINCT f.match_id, f.finished_at FROM match_facts f WHERE NOT EXISTS"
                " (SELECT 1 FROM rated_matches r WHERE r.match_id = f.match_id)"
                " ORDER BY f.finished_at, f.match_id")
            for r in missed:
                await project_match_in(db, int(r["match_id"]), formula)
            return rebuilt
