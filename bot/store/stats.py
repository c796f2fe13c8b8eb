"""A person's figures for ``/mahjong stats``: SQL aggregates over the projections
``hand_facts`` and ``match_facts`` (bot/service/facts.py writes them as each hand and
match ends), never the logs themselves, so an answer costs a few index look-ups
whatever the history holds.

A `Scope` says which rows count: a channel's (of its server), a server's, or every
server's. Exact amounts (points, deal-in costs) are fractions kept as text: they are
grouped in SQL (few distinct values) and added up here, exactly.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from bot.store.database import Session
from bot.store.repository import Repository
from bot.store.rows import Row

ScopeKind = Literal["channel", "server", "all"]
MOVE_BUCKET_COUNT = 11
"""How many counts a fact's ``move_hist`` holds (`bot.service.facts.MOVE_BUCKETS`)."""


@dataclass(frozen=True)
class Scope:
    """Which rows count: ``channel`` (``guild_id`` and ``channel_id``), ``server``
    (``guild_id``) or ``all`` (every server)."""

    kind: ScopeKind
    guild_id: int | None = None
    channel_id: int | None = None

    def where(self, alias: str) -> tuple[str, tuple[int, ...]]:
        """The SQL condition (`` AND …``) and its values, on the facts aliased ``alias``."""
        if self.kind == "all":
            return "", ()
        assert self.guild_id is not None
        if self.kind == "server":
            return f" AND {alias}.guild_id = ?", (self.guild_id,)
        assert self.channel_id is not None
        return (f" AND {alias}.guild_id = ? AND {alias}.channel_id = ?",
                (self.guild_id, self.channel_id))


@dataclass(frozen=True)
class HandTotals:
    """What a person's hands in one rule set and scope add up to."""

    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    deal_in_cost: Fraction = Fraction(0)
    """Paid on all those deal-ins together (≥ 0)."""
    win_value: int = 0
    """The values of all the wins together (the rule set's unit)."""
    claimed_hands: int = 0
    """Hands in which the person claimed at least once (chi, pong or an exposed kong)."""
    claims: int = 0
    drawn: int = 0
    moves: int = 0
    move_hist: tuple[int, ...] = (0,) * MOVE_BUCKET_COUNT
    timeouts: int = 0
    taken_over: int = 0
    marks: dict[str, Fraction] = field(default_factory=dict)
    """Each rule-set figure (``hand_facts.marks``) added up over the hands."""


@dataclass(frozen=True)
class MatchTotals:
    """What a person's finished matches in one rule set and scope add up to."""

    matches: int = 0
    placements: int = 0
    """The placements added up (their mean is the average placement)."""
    firsts: int = 0
    lasts: int = 0
    """Matches nobody finished behind the person (ties at the bottom included)."""


@dataclass(frozen=True)
class BiggestWin:
    """The person's most valuable win: its value, pattern ids and when."""

    value: int
    patterns: tuple[str, ...]
    hand_id: int
    ended_at: float


@dataclass(frozen=True)
class Together:
    """Two people at the same tables (``me`` asked about ``them``)."""

    matches: int = 0
    ahead: int = 0
    """Matches ``me`` finished above ``them``."""
    behind: int = 0
    hands: int = 0
    won_off: int = 0
    """Hands ``me`` won on a discard of ``them`` (or robbing their kong)."""
    lost_to: int = 0
    """Hands ``them`` won on a discard of ``me``."""
    my_points: Fraction = Fraction(0)
    """``me``'s net over the hands played together."""
    their_points: Fraction = Fraction(0)


def _int(value: Any) -> int:
    return int(value or 0)


def _number(value: Any) -> Fraction:
    """A mark's value: an int, a float or an exact fraction's text."""
    if isinstance(value, bool):
        return Fraction(int(value))
    if isinstance(value, (int, str)):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(value).limit_denominator(1000)
    return Fraction(0)


def _bucket(dialect: str, i: int) -> str:
    """Bucket ``i`` of ``move_hist`` read in SQL (a JSON list of counts)."""
    if dialect == "postgres":
        return f"COALESCE((f.move_hist::json->>{i})::bigint, 0)"
    return f"COALESCE(json_extract(f.move_hist, '$[{i}]'), 0)"


class Stats(Repository):
    """The figures of ``/mahjong stats``, from the facts."""

    async def rules_played(self, user_id: int, scope: Scope) -> list[tuple[str, int]]:
        """Each rule set the person played hands of in ``scope``, with how many: the
        most played first (then by name)."""
        cond, values = scope.where("f")
        rows = await self._all(
            "SELECT f.rules, COUNT(*) AS n FROM hand_facts f WHERE f.user_id = ?"
            f"{cond} GROUP BY f.rules", (user_id, *values))
        return sorted(((r["rules"], int(r["n"])) for r in rows), key=lambda x: (-x[1], x[0]))

    async def hands(self, user_id: int, rules: str, scope: Scope) -> HandTotals:
        """The person's hands of ``rules`` in ``scope`` added up (one read transaction:
        every figure from the same moment)."""
        async with self._db.read() as db:
            return await _hands_in(db, self._db.dialect, user_id, rules, scope)

    async def matches(self, user_id: int, rules: str, scope: Scope) -> MatchTotals:
        cond, values = scope.where("m")
        row = await self._one(
            "SELECT COUNT(*) AS matches, SUM(m.placement) AS placements,"
            " SUM(CASE WHEN m.placement = 1 THEN 1 ELSE 0 END) AS firsts,"
            " SUM(CASE WHEN m.placement = (SELECT MAX(o.placement) FROM match_facts o"
            "   WHERE o.match_id = m.match_id) THEN 1 ELSE 0 END) AS lasts"
            f" FROM match_facts m WHERE m.user_id = ? AND m.rules = ?{cond}",
            (user_id, rules, *values))
        if row is None:
            return MatchTotals()
        return MatchTotals(_int(row["matches"]), _int(row["placements"]),
                           _int(row["firsts"]), _int(row["lasts"]))

    async def biggest(self, user_id: int, rules: str, scope: Scope) -> BiggestWin | None:
        """The person's most valuable win (the earliest of equals)."""
        cond, values = scope.where("f")
        row = await self._one(
            "SELECT f.win_value, f.patterns, f.hand_id, f.ended_at FROM hand_facts f"
            f" WHERE f.user_id = ? AND f.rules = ? AND f.won = 1{cond}"
            " ORDER BY f.win_value DESC, f.ended_at, f.hand_id LIMIT 1",
            (user_id, rules, *values))
        if row is None:
            return None
        return BiggestWin(_int(row["win_value"]), tuple(json.loads(row["patterns"] or "[]")),
                          int(row["hand_id"]), float(row["ended_at"]))

    async def together(self, user_id: int, other_id: int, rules: str, scope: Scope
                       ) -> Together:
        """``user_id`` and ``other_id`` at the same tables, in ``rules`` and ``scope``
        (judged on ``user_id``'s rows)."""
        async with self._db.read() as db:
            return await _together_in(db, user_id, other_id, rules, scope)


async def _hands_in(db: Session, dialect: str, user_id: int, rules: str, scope: Scope
                    ) -> HandTotals:
    cond, values = scope.where("f")
    key = (user_id, rules, *values)
    where = f" FROM hand_facts f WHERE f.user_id = ? AND f.rules = ?{cond}"
    buckets = ", ".join(f"SUM({_bucket(dialect, i)}) AS b{i}"
                        for i in range(MOVE_BUCKET_COUNT))
    row = await db.one(
        "SELECT COUNT(*) AS hands, SUM(f.won) AS wins,"
        " SUM(CASE WHEN f.won = 1 AND f.self_draw = 1 THEN 1 ELSE 0 END) AS self_draws,"
        " SUM(f.dealt_in) AS deal_ins,"
        " SUM(CASE WHEN f.won = 1 THEN COALESCE(f.win_value, 0) ELSE 0 END) AS win_value,"
        " SUM(CASE WHEN f.claims > 0 THEN 1 ELSE 0 END) AS claimed_hands,"
        " SUM(f.claims) AS claims, SUM(f.drawn) AS drawn, SUM(f.moves) AS moves,"
        f" SUM(f.timeouts) AS timeouts, SUM(f.taken_over) AS taken_over, {buckets}"
        f"{where}", key)
    if row is None or not _int(row["hands"]):
        return HandTotals()
    costs = await db.all(f"SELECT f.deal_in_cost AS cost, COUNT(*) AS n{where}"
                         " AND f.dealt_in = 1 GROUP BY f.deal_in_cost", key)
    marked = await db.all(f"SELECT f.marks AS marks, COUNT(*) AS n{where}"
                          " AND f.marks <> '{}' GROUP BY f.marks", key)
    marks: dict[str, Fraction] = {}
    for m in marked:
        for name, value in (json.loads(m["marks"]) or {}).items():
            marks[name] = marks.get(name, Fraction(0)) + _number(value) * int(m["n"])
    return HandTotals(
        hands=_int(row["hands"]), wins=_int(row["wins"]), self_draws=_int(row["self_draws"]),
        deal_ins=_int(row["deal_ins"]),
        deal_in_cost=sum((Fraction(c["cost"]) * int(c["n"]) for c in costs), Fraction(0)),
        win_value=_int(row["win_value"]), claimed_hands=_int(row["claimed_hands"]),
        claims=_int(row["claims"]), drawn=_int(row["drawn"]), moves=_int(row["moves"]),
        move_hist=tuple(_int(row[f"b{i}"]) for i in range(MOVE_BUCKET_COUNT)),
        timeouts=_int(row["timeouts"]), taken_over=_int(row["taken_over"]), marks=marks)


async def _together_in(db: Session, user_id: int, other_id: int, rules: str, scope: Scope
                       ) -> Together:
    cond, values = scope.where("a")
    key = (other_id, user_id, rules, *values)
    placed = await db.one(
        "SELECT COUNT(*) AS matches,"
        " SUM(CASE WHEN a.placement < b.placement THEN 1 ELSE 0 END) AS ahead,"
        " SUM(CASE WHEN b.placement < a.placement THEN 1 ELSE 0 END) AS behind"
        " FROM match_facts a JOIN match_facts b ON b.match_id = a.match_id"
        " AND b.user_id = ? AND b.seat <> a.seat"
        f" WHERE a.user_id = ? AND a.rules = ?{cond}", key)
    rows: Sequence[Row] = await db.all(
        "SELECT a.points AS mine, b.points AS theirs, COUNT(*) AS n,"
        " SUM(CASE WHEN a.won = 1 AND a.won_from = b.seat THEN 1 ELSE 0 END) AS won_off,"
        " SUM(CASE WHEN b.won = 1 AND b.won_from = a.seat THEN 1 ELSE 0 END) AS lost_to"
        " FROM hand_facts a JOIN hand_facts b ON b.hand_id = a.hand_id"
        " AND b.user_id = ? AND b.seat <> a.seat"
        f" WHERE a.user_id = ? AND a.rules = ?{cond} GROUP BY a.points, b.points", key)
    return Together(
        matches=_int(placed["matches"]) if placed else 0,
        ahead=_int(placed["ahead"]) if placed else 0,
        behind=_int(placed["behind"]) if placed else 0,
        hands=sum(int(r["n"]) for r in rows),
        won_off=sum(_int(r["won_off"]) for r in rows),
        lost_to=sum(_int(r["lost_to"]) for r in rows),
        my_points=sum((Fraction(r["mine"]) * int(r["n"]) for r in rows), Fraction(0)),
        their_points=sum((Fraction(r["theirs"]) * int(r["n"]) for r in rows), Fraction(0)))
