"""A finished hand's log in one short text (issue 32, "a hand costs its log").

While a hand is played its actions are rows (`bot.store.log`: the compare-and-set, the
running digest, the snapshot beside them). When it ends (settled, or voided by a
cancel), the same transaction writes them as one ``hand_logs`` row and deletes the rows
(`bot.store.hand_logs.compact_in`, the text deflated since 0033); migration 0032 did
the same to every hand that had ended before it (the text plain). A
hand whose rows do not fit the form (an action kind or payload this form does not know,
a gap in its seqs) keeps its rows, read as before.

The text is the actions in seq order (seq 1, 2, … implied), one token each, joined by
commas: ``<who><kind><tiles><took>[~<waited>]``

- ``who``: one character of ``0123456789ab``, seat + 4 × source (player 0, timeout 1,
  computer 2);
- ``kind``: ``d`` discard, ``c`` chi, ``p`` pong, ``k`` kong, ``a`` added kong,
  ``n`` concealed kong, ``w`` win, ``s`` pass;
- ``tiles``: the payload's tile or tiles, in their notation (``5m``, ``35s``: groups of
  digits, each followed by its suit; how many digits follows from the kind): the
  payload is ``{"kind","seat","tile"?,"tiles"?}`` exactly as the engine wrote it
  (`engine.game.Action.to_json`), so it is given back text for text and the running
  digest of the log (`bot.store.rows.next_log_digest`), kept as the last action's
  (``hand_logs.log_digest``), checks out;
- ``took``: the action's time (``at``, whole milliseconds) minus the one before it (the
  hand's ``started_at`` for the first), in base 64 (`ALPHABET`, most significant first,
  ``-`` before a negative one);
- ``waited``: the milliseconds from ``asked_at`` to ``at``, only where ``asked_at`` is
  not the default: a person's own move defaults to the action before it (its decision
  was asked then; 97 % of them), any other to none; ``~`` alone: none.

Times come back to the millisecond (``at`` and ``asked_at``). The encoder is SQL
(`compact_sql`, one statement per dialect, the migration's own), so the migration and
a hand ending today write the very same text; `decode` reads it back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.rows import ActionRow, ActionSource, log_digest

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_."
"""The digits of a time, 0 to 63 (none is a comma, ``~`` or ``-``)."""
_DIGIT = {c: i for i, c in enumerate(ALPHABET)}
WHO = "0123456789ab"
SOURCES: tuple[ActionSource, ...] = ("player", "timeout", "computer")
KINDS = {"discard": "d", "chi": "c", "pong": "p", "kong": "k", "added_kong": "a",
         "concealed_kong": "n", "win": "w", "pass": "s"}
_KIND_OF = {code: kind for kind, code in KINDS.items()}
TILES = {"discard": 1, "chi": 2, "pong": 2, "kong": 3, "added_kong": 1,
         "concealed_kong": 4, "win": 0, "pass": 0}
"""Tiles in each kind's payload (its ``tile`` and ``tiles`` together)."""
_COUNT = {KINDS[k]: n for k, n in TILES.items()}
_WITH_TILE = frozenset(("d", "a"))
_SHAPE = re.compile(r"(?:[0-9]+[a-z])+")
"""Tiles in their notation: groups of digits, each group's suit after it."""
_DIGITS = 8
"""Base-64 digits a time has at most (64⁸ ms: 8,900 years)."""


@dataclass(frozen=True)
class Decoded:
    """One action of a compact log, with its ``asked_at``."""

    row: ActionRow
    asked_at: float | None


def _number(text: str) -> int:
    negative = text.startswith("-")
    value = 0
    for c in text[1:] if negative else text:
        value = value * 64 + _DIGIT[c]
    return -value if negative else value


def _digits(value: int) -> str:
    if value < 0:
        return "-" + _digits(-value)
    out = ALPHABET[value % 64]
    value //= 64
    while value:
        out = ALPHABET[value % 64] + out
        value //= 64
    return out


def millis(seconds: float) -> int:
    """A time in whole milliseconds as the encoder rounds it (half up)."""
    return int((seconds * 1000 + 0.5) // 1)


def payload_of(kind: str, seat: int, tiles: str) -> dict[str, object]:
    """The payload the engine wrote for such an action (`Action.to_json`'s order)."""
    out: dict[str, object] = {"kind": kind, "seat": seat}
    if tiles:
        if KINDS[kind] in _WITH_TILE:
            out["tile"] = tiles
        else:
            out["tiles"] = tiles
    return out


def decode(hand_id: int, started_at: float, text: str) -> list[Decoded]:
    """A compact log read back: its actions in seq order."""
    out: list[Decoded] = []
    if not text:
        return out
    previous = millis(started_at)
    for seq, token in enumerate(text.split(","), start=1):
        who = WHO.index(token[0])
        seat, source = who % 4, SOURCES[who // 4]
        code = token[1]
        end = 2
        wanted = _COUNT[code]
        while wanted:  # the notation's digits, the suit letter after each group
            if token[end].isdigit():
                wanted -= 1
            end += 1
        if _COUNT[code]:
            end += 1  # the last group's suit
        tiles = token[2:end]
        took, mark, waited = token[end:].partition("~")
        at_ms = previous + _number(took)
        if mark:
            asked: float | None = (at_ms - _number(waited)) / 1000 if waited else None
        else:
            asked = previous / 1000 if source == "player" else None
        kind = _KIND_OF[code]
        out.append(Decoded(ActionRow(hand_id, seq, seat, kind, payload_of(kind, seat, tiles),
                                     source, at_ms / 1000), asked))
        previous = at_ms
    return out


def encode(started_at: float, rows: Sequence[tuple[int, int, str, str, str, float,
                                                   float | None]]) -> str | None:
    """The compact text of a log's rows ``(seq, seat, kind, payload text, source, at,
    asked_at)`` in seq order, as `compact_sql` writes it; None if they do not fit the
    form (then the rows stay). The reference the SQL is tested against."""
    tokens = []
    previous = millis(started_at)
    for number, (seq, seat, kind, payload, source, at, asked_at) in enumerate(rows, 1):
        if seq != number or kind not in KINDS or source not in SOURCES:
            return None
        data = json.loads(payload)
        tiles = (data.get("tile") or "") + (data.get("tiles") or "")
        if (json.dumps(payload_of(kind, seat, tiles), separators=(",", ":")) != payload
                or sum(c.isdigit() for c in tiles) != TILES[kind]
                or (tiles and not _SHAPE.fullmatch(tiles))):
            return None
        at_ms = millis(at)
        asked_ms = None if asked_at is None else millis(asked_at)
        if source == "player":
            suffix = ("~" if asked_ms is None else "" if asked_ms == previous
                      else "~" + _digits(at_ms - asked_ms))
        else:
            suffix = "" if asked_ms is None else "~" + _digits(at_ms - asked_ms)
        tokens.append(WHO[seat + 4 * SOURCES.index(source)] + KINDS[kind] + tiles
                      + _digits(at_ms - previous) + suffix)
        previous = at_ms
    return ",".join(tokens)


def digest_of(decoded: Sequence[Decoded]) -> str:
    """The running digest of a decoded log (what ``hand_logs.log_digest`` holds)."""
    return log_digest((d.row.seq, d.row.seat, d.row.kind,
                       json.dumps(d.row.payload, separators=(",", ":")))
                      for d in decoded)


# --- the encoder in SQL -------------------------------------------------------------


def _base64(x: str) -> str:
    """SQL: the integer expression ``x`` (a column name) in base 64, as `_digits`."""
    def digit(k: int) -> str:
        return f"substr('{ALPHABET}', CAST(({x} / {64 ** k}) % 64 AS INTEGER) + 1, 1)"

    def positive() -> str:
        cases = []
        for n in range(1, _DIGITS + 1):
            text = " || ".join(digit(k) for k in reversed(range(n)))
            cases.append(f"WHEN {x} < {64 ** n} THEN {text}" if n < _DIGITS
                         else f"ELSE {text}")
        return "CASE " + " ".join(cases) + " END"

    return positive()


def compact_sql(dialect: str, where: str) -> str:
    """The statement writing the ``hand_logs`` row of each hand ``where`` picks (a
    condition on ``h``, the hands' rows), from its actions' rows, when they all fit the
    form. Both dialects: the migration's text is this one's."""
    postgres = dialect == "postgres"
    if postgres:
        tile = "(a.payload::jsonb ->> 'tile')"
        tiles = "(a.payload::jsonb ->> 'tiles')"
        ms = "CAST(floor({} * 1000 + 0.5) AS BIGINT)"
        plain = "!~ '[^0-9a-z]'"
    else:
        tile = "json_extract(a.payload, '$.tile')"
        tiles = "json_extract(a.payload, '$.tiles')"
        ms = "CAST({} * 1000 + 0.5 AS INTEGER)"
        plain = "NOT GLOB '*[^0-9a-z]*'"
    kinds = " ".join(f"WHEN '{k}' THEN '{c}'" for k, c in KINDS.items())
    sizes = " ".join(f"WHEN '{k}' THEN {n}" for k, n in TILES.items())
    sources = " ".join(f"WHEN '{s}' THEN {i}" for i, s in enumerate(SOURCES))
    # each action's parts: who, kind, tiles, its time and the time before it, asked
    parts = (
        "SELECT a.hand_id, a.seq, a.log_digest,"
        f" substr('{WHO}', a.seat + 4 * (CASE a.source {sources} END) + 1, 1)"
        f" || (CASE a.kind {kinds} END) AS head,"
        f" COALESCE({tile}, '') || COALESCE({tiles}, '') AS tiles,"
        f" {tile} AS tile, {tiles} AS tiles_field, a.kind, a.seat, a.source, a.payload,"
        f" {ms.format('a.at')} AS at_ms,"
        f" COALESCE(LAG({ms.format('a.at')}) OVER (PARTITION BY a.hand_id ORDER BY a.seq),"
        f" {ms.format('h.started_at')}) AS before_ms,"
        f" {ms.format('a.asked_at')} AS asked_ms"
        " FROM hands h JOIN actions a ON a.hand_id = h.id"
        f" WHERE {where}")
    canonical = ("'{\"kind\":\"' || kind || '\",\"seat\":' || CAST(seat AS TEXT)"
                 " || COALESCE(',\"tile\":\"' || tile || '\"', '')"
                 " || COALESCE(',\"tiles\":\"' || tiles_field || '\"', '') || '}'")
    one = "kind IN ('discard', 'added_kong')"
    if postgres:
        digits = "length(regexp_replace(tiles, '[^0-9]', '', 'g'))"
        shaped = "(tiles = '' OR tiles ~ '^([0-9]+[a-z])+$')"
    else:
        stripped = "tiles"
        for d in "0123456789":
            stripped = f"replace({stripped}, '{d}', '')"
        digits = f"length(tiles) - length({stripped})"
        shaped = ("(tiles = '' OR (tiles GLOB '[0-9]*' AND tiles GLOB '*[0-9][a-z]'"
                  " AND tiles NOT GLOB '*[a-z][a-z]*'))")
    fits = (f"CASE WHEN payload = {canonical} AND {digits} = (CASE kind {sizes} END)"
            f" AND tiles {plain} AND {shaped}"
            f" AND head IS NOT NULL AND (tile IS NOT NULL) = ({one})"
            f" AND (tiles_field IS NULL) = ({one} OR kind IN ('win', 'pass'))"
            " THEN 1 ELSE 0 END")
    token = (f"head || tiles || (CASE WHEN took < 0 THEN '-' ELSE '' END) || {_base64('mag')}"
             " || (CASE WHEN source = 'player' THEN (CASE WHEN asked_ms IS NULL THEN '~'"
             " WHEN asked_ms = before_ms THEN '' ELSE '~' || (CASE WHEN waited < 0"
             f" THEN '-' ELSE '' END) || {_base64('wmag')} END)"
             " WHEN asked_ms IS NULL THEN '' ELSE '~' || (CASE WHEN waited < 0"
             f" THEN '-' ELSE '' END) || {_base64('wmag')} END)")
    timed = (f"SELECT p.*, at_ms - before_ms AS took, abs(at_ms - before_ms) AS mag,"
             " at_ms - asked_ms AS waited, abs(at_ms - asked_ms) AS wmag,"
             f" {fits} AS fits FROM ({parts}) p")
    if postgres:
        return ("INSERT INTO hand_logs (hand_id, log, log_digest)"
                " SELECT hand_id, string_agg(token, ',' ORDER BY seq),"
                " (array_agg(log_digest ORDER BY seq DESC))[1]"
                f" FROM (SELECT t.*, {token} AS token FROM ({timed}) t) k"
                " GROUP BY hand_id HAVING MIN(fits) = 1 AND COUNT(*) = MAX(seq)")
    window = ("OVER (PARTITION BY hand_id ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING"
              " AND UNBOUNDED FOLLOWING)")
    return ("INSERT INTO hand_logs (hand_id, log, log_digest)"
            " SELECT hand_id, log, log_digest FROM (SELECT hand_id, seq, log_digest,"
            f" group_concat(token, ',') {window} AS log, MIN(fits) {window} AS fit,"
            f" COUNT(*) {window} AS n, MAX(seq) {window} AS last"
            f" FROM (SELECT t.*, {token} AS token FROM ({timed}) t) k) w"
            " WHERE seq = last AND fit = 1 AND n = last")
