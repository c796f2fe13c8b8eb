"""A hand in play as a versioned, explicit text (a snapshot), and back.

    text = encode(state)                      # JSON, format `SNAPSHOT_FORMAT`
    state = decode(text, rules, options, wall, dealer, dice, streak, huangfan)

The store keeps a snapshot every few actions so that a restart replays only the
actions after it (bot/service/snapshots.py); the log stays the truth, and a snapshot
that does not check out is ignored. So the encoding is explicit data, never pickle:
reading a stored text builds only tiles, melds, actions and numbers, whatever the text
holds, and anything that is not exactly a state of this format raises `SnapshotError`.

Only what play changed is encoded: the hand's fixed facts (rules, options, wall,
dealer, dice, streak, 荒番) come from the hand's own row, so a snapshot cannot
contradict them. An ended hand is not snapshotted (its result is the log's to settle).
`decode` also checks that every tile taken from the wall is somewhere, once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields
from typing import Any

from engine import rules
from engine.game.actions import Action
from engine.game.errors import IllegalAction
from engine.game.state import ClaimWindow, Discard, HandState, Phase, SeatState
from engine.melds import Meld, MeldKind
from engine.rules.common import SEATS, ChainStep, Replacement, TableOptions
from engine.tiles import Tile

SNAPSHOT_FORMAT = 1
"""Bumped whenever the text below changes meaning; older texts are then ignored."""

ENCODED_FIELDS = {
    HandState: frozenset({"seats", "front", "back", "flipped", "set_aside", "phase", "turn",
                          "window", "replacement", "first_go_round", "claims", "zhua_da",
                          "seq", "result"}),
    SeatState: frozenset({"hand", "melds", "discards", "flowers", "drawn", "chain",
                          "claimed_turn", "passed_wins", "passed_pongs"}),
    ClaimWindow: frozenset({"tile", "from_seat", "options", "answers", "last", "opened_at"}),
}
"""The fields each record's encoding covers (HandState's others come from the hand's
row): a test compares them with the records' fields, so a field added to the engine
cannot be silently left out of snapshots."""

_TILES = {t.notation: t for t in Tile}
_NOTATION = [t.notation for t in Tile]
"""Each tile's two characters, by its value: `Tile.notation` formats them anew at every
call, and encoding (on every `snapshot_every`-th move) spells some 80 tiles."""
_UNCLAIMED = {t: Discard(t) for t in Tile}
"""One shared unclaimed discard of each tile (records are immutable and compared by
value): decoding builds some 30 discards a state on every restart."""


class SnapshotError(ValueError):
    """The text is not a snapshot of this format (or not of this hand)."""


def encode(state: HandState) -> str:
    """The state of a hand in play as compact JSON text."""
    if state.result is not None or state.phase is Phase.ENDED:
        raise SnapshotError("an ended hand is not snapshotted")
    data = {
        "format": SNAPSHOT_FORMAT,
        "seq": state.seq,
        "front": state.front,
        "back": state.back,
        "flipped": _tile_text(state.flipped),
        "set_aside": _tiles_text(state.set_aside),
        "phase": state.phase.value,
        "turn": state.turn,
        "window": None if state.window is None else _window(state.window),
        "replacement": None if state.replacement is None else state.replacement.value,
        "first_go_round": state.first_go_round,
        "claims": [list(row) for row in state.claims],
        "zhua_da": state.zhua_da,
        "seats": [_seat(s) for s in state.seats],
    }
    return json.dumps(data, separators=(",", ":"))


def decode(text: str, ruleset_name: str, options: Mapping[str, Any] | TableOptions | None,
           wall: Sequence[Tile], dealer: int, dice: tuple[int, int], streak: int = 1,
           huangfan: bool = False) -> HandState:
    """The state ``text`` holds, for the hand dealt from these facts (as `replay` takes
    them); `SnapshotError` if it is anything else."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise SnapshotError(f"not JSON: {exc}") from None
    try:
        state = _state(data, ruleset_name, options, tuple(wall), dealer, dice, streak,
                       huangfan)
    except SnapshotError:
        raise
    except (IllegalAction, KeyError, TypeError, ValueError, IndexError) as exc:
        raise SnapshotError(f"not a hand's snapshot: {exc!r}") from None
    _check_tiles(state)
    return state


# ---- encoding --------------------------------------------------------------------------


def _tile_text(tile: Tile | None) -> str | None:
    return None if tile is None else _NOTATION[tile]


def _tiles_text(tiles: Iterable[Tile]) -> str:
    return "".join([_NOTATION[t] for t in tiles])


def _seat(s: SeatState) -> dict[str, Any]:
    return {
        "hand": _tiles_text(s.hand),
        "melds": [_meld(m) for m in s.melds],
        "discards": _tiles_text(d.tile for d in s.discards),
        "claimed": [[i, d.claimed_by] for i, d in enumerate(s.discards)
                    if d.claimed_by is not None],
        "flowers": _tiles_text(s.flowers),
        "drawn": _tile_text(s.drawn),
        "chain": "".join(step.value for step in s.chain),
        "claimed_turn": s.claimed_turn,
        "passed_wins": _tiles_text(sorted(s.passed_wins)),
        "passed_pongs": _tiles_text(sorted(s.passed_pongs)),
    }


def _meld(m: Meld) -> list[Any]:
    return [m.kind.value, _tiles_text(m.tiles), _NOTATION[m.face], m.from_seat,
            _tile_text(m.claimed)]


def _window(w: ClaimWindow) -> dict[str, Any]:
    return {
        "tile": _NOTATION[w.tile],
        "from": w.from_seat,
        "options": [[a.to_json() for a in seat] for seat in w.options],
        "answers": [None if a is None else a.to_json() for a in w.answers],
        "last": w.last,
        "opened_at": w.opened_at,
    }


# ---- decoding --------------------------------------------------------------------------


def _state(data: Any, ruleset_name: str, options: Mapping[str, Any] | TableOptions | None,
           wall: tuple[Tile, ...], dealer: int, dice: tuple[int, int], streak: int,
           huangfan: bool) -> HandState:
    data = _object(data, "snapshot")
    if data.get("format") != SNAPSHOT_FORMAT:
        raise SnapshotError(f"format {data.get('format')!r}, not {SNAPSHOT_FORMAT}")
    ruleset = rules.get(ruleset_name)
    if isinstance(options, TableOptions) and not isinstance(options, ruleset.options_type):
        raise SnapshotError(f"{type(options).__name__} are not options for {ruleset.name}")
    opts = options if isinstance(options, TableOptions) else ruleset.options(options)
    seats = _list(data["seats"], "seats")
    if len(seats) != SEATS:
        raise SnapshotError(f"{len(seats)} seats, not {SEATS}")
    front, back = _int(data["front"], 0, len(wall)), _int(data["back"], 0, len(wall))
    if front + back > len(wall):
        raise SnapshotError("more tiles taken than the wall holds")
    phase = Phase(data["phase"])
    if phase is Phase.ENDED:
        raise SnapshotError("an ended hand is not snapshotted")
    claims = _list(data["claims"], "claims")
    if len(claims) != SEATS:
        raise SnapshotError("claims must be 4 rows")
    return HandState(
        rules=ruleset.name, options=opts, wall=wall, dealer=dealer, dice=(dice[0], dice[1]),
        streak=streak, huangfan=huangfan and ruleset.has_huangfan,
        seats=tuple(_seat_of(s) for s in seats),
        front=front, back=back,
        flipped=_opt_tile(data["flipped"]),
        set_aside=_tiles(data["set_aside"]),
        phase=phase,
        turn=_int(data["turn"], 0, SEATS - 1),
        window=None if data["window"] is None else _window_of(data["window"]),
        replacement=None if data["replacement"] is None else Replacement(data["replacement"]),
        first_go_round=_bool(data["first_go_round"]),
        claims=tuple(_claims_row(row) for row in claims),
        zhua_da=None if data["zhua_da"] is None else _int(data["zhua_da"], 0, SEATS - 1),
        seq=_int(data["seq"], 0, 10_000),
    )


def _seat_of(data: Any) -> SeatState:
    data = _object(data, "seat")
    discards = [_UNCLAIMED[t] for t in _tiles(data["discards"])]
    for pair in _list(data["claimed"], "claimed"):
        index, by = _list(pair, "claimed discard")
        i = _int(index, 0, len(discards) - 1)
        discards[i] = Discard(discards[i].tile, _int(by, 0, SEATS - 1))
    melds = _list(data["melds"], "melds")
    chain = _str(data["chain"])
    return SeatState(
        hand=_sorted_hand(data["hand"]),
        melds=tuple([_meld_of(m) for m in melds]) if melds else (),
        discards=tuple(discards),
        flowers=_tiles(data["flowers"]),
        drawn=_opt_tile(data["drawn"]),
        chain=tuple([ChainStep(c) for c in chain]) if chain else (),
        claimed_turn=_bool(data["claimed_turn"]),
        passed_wins=_tile_set(data["passed_wins"]),
        passed_pongs=_tile_set(data["passed_pongs"]),
    )


def _sorted_hand(text: Any) -> tuple[Tile, ...]:
    """A seat's concealed tiles, which the engine keeps in tile order (`encode` writes
    them so, and `SeatState.with_tile` inserts a drawn tile in its place): a hand in
    another order would be read wrongly by every move after it."""
    hand = _tiles(text)
    if hand != tuple(sorted(hand)):  # a sort of 14 tiles: cheaper than a pairwise loop
        raise SnapshotError(f"a hand not in tile order: {text!r}")
    return hand


_NONE: frozenset[Tile] = frozenset()


def _tile_set(text: Any) -> frozenset[Tile]:
    tiles = _tiles(text)
    return frozenset(tiles) if tiles else _NONE  # usually empty: one shared empty set


def _meld_of(data: Any) -> Meld:
    kind, tiles, face, from_seat, claimed = _list(data, "meld")
    return Meld(MeldKind(kind), _tiles(tiles), _tile(face),
                None if from_seat is None else _int(from_seat, 0, SEATS - 1),
                _opt_tile(claimed))


def _window_of(data: Any) -> ClaimWindow:
    data = _object(data, "window")
    options = _list(data["options"], "options")
    answers = _list(data["answers"], "answers")
    if len(options) != SEATS or len(answers) != SEATS:
        raise SnapshotError("a window has 4 seats' options and answers")
    return ClaimWindow(
        tile=_tile(data["tile"]),
        from_seat=_int(data["from"], 0, SEATS - 1),
        options=tuple(tuple(Action.from_json(a) for a in _list(seat, "options"))
                      for seat in options),
        answers=tuple(None if a is None else Action.from_json(a) for a in answers),
        last=_bool(data["last"]),
        opened_at=_int(data["opened_at"], 0, 10_000),
    )


def _claims_row(data: Any) -> tuple[int, ...]:
    row = _list(data, "claims row")
    if len(row) != SEATS:
        raise SnapshotError("a claims row has 4 counts")
    if all(type(n) is int and 0 <= n <= 1000 for n in row):  # the usual case, at once
        return tuple(row)
    return tuple(_int(n, 0, 1000) for n in row)  # says which count is wrong


def _object(data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise SnapshotError(f"{what} must be an object")
    return data


def _list(data: Any, what: str) -> list[Any]:
    if not isinstance(data, list):
        raise SnapshotError(f"{what} must be a list")
    return data


def _str(data: Any) -> str:
    if not isinstance(data, str):
        raise SnapshotError(f"expected text, not {type(data).__name__}")
    return data


def _bool(data: Any) -> bool:
    if not isinstance(data, bool):
        raise SnapshotError(f"expected true or false, not {data!r}")
    return data


def _int(data: Any, low: int, high: int) -> int:
    if isinstance(data, bool) or not isinstance(data, int) or not low <= data <= high:
        raise SnapshotError(f"expected a whole number {low}–{high}, not {data!r}")
    return data


def _tile(text: Any) -> Tile:
    tile = _TILES.get(text) if isinstance(text, str) else None
    if tile is None:
        raise SnapshotError(f"not a tile: {text!r}")
    return tile


def _opt_tile(text: Any) -> Tile | None:
    return None if text is None else _tile(text)


def _tiles(text: Any) -> tuple[Tile, ...]:
    text = _str(text)
    if not text:  # most of a seat's texts (flowers, passed tiles) are empty
        return ()
    try:  # one lookup a tile: decoding is on the path of every restart
        return tuple([_TILES[text[i:i + 2]] for i in range(0, len(text), 2)])
    except KeyError:
        raise SnapshotError(f"not tiles: {text!r}") from None


def _check_tiles(state: HandState) -> None:
    """Every tile taken from the wall (front and back) is in exactly one place."""
    wall = state.wall
    taken = [*wall[:state.front], *wall[len(wall) - state.back:]]
    held: list[Tile] = list(state.set_aside)
    for s in state.seats:
        held += s.hand
        held += s.flowers
        for m in s.melds:
            held += m.tiles
        held += [d.tile for d in s.discards if d.claimed_by is None]
    # the same tiles as often each: the same sorted lists (a sort of some 60 numbers)
    if sorted(taken) != sorted(held):
        raise SnapshotError("the tiles in play are not the tiles taken from the wall")
    if any(s.drawn is not None and s.drawn not in s.hand for s in state.seats):
        raise SnapshotError("a drawn tile is not in its seat's hand")


def covered_fields() -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """For each encoded record: (its fields, the fields the encoding covers or takes
    from the hand's row). Equal pairs mean nothing is left out."""
    fixed = frozenset({"rules", "options", "wall", "dealer", "dice", "streak", "huangfan"})
    out = {}
    for record, covered in ENCODED_FIELDS.items():
        names = frozenset(f.name for f in fields(record))
        out[record.__name__] = (names, covered | (fixed if record is HandState else
                                                   frozenset()))
    return out
