"""A hand in play as a versioned, explicit text (a snapshot), and back.

    text = encode(state)                      # format `SNAPSHOT_FORMAT`, one line
    state = decode(text, rules, options, wall, dealer, dice, streak, huangfan)

The store keeps a hand's newest snapshot so that a restart replays only the actions
after it (bot/service/snapshots.py); the log stays the truth, and a snapshot that does
not check out is ignored. So the encoding is explicit data, never pickle: reading a
stored text builds only tiles, melds, actions and numbers, whatever the text holds, and
anything that is not exactly a state of this format raises `SnapshotError`.

Only what play changed is encoded: the hand's fixed facts (rules, options, wall,
dealer, dice, streak, 荒番) come from the hand's own row, so a snapshot cannot
contradict them. An ended hand is not snapshotted (its result is the log's to settle).
`decode` also checks that every tile taken from the wall is somewhere, once.

The text (format 2) is positional fields, each tile ONE letter of `TILE_LETTERS` (in
tile order, so a sorted hand is a sorted word): a restart decodes every live hand's
snapshot, and format 1's JSON (a dictionary a seat, two characters a tile looked up by
slices) was a third of a 1,000-table rebuild. Fields, split by ``|``:

    2|seq|front|back|flipped|set_aside|phase|turn|replacement|first_go_round|zhua_da
     |claims|window|seat 0|seat 1|seat 2|seat 3

- a missing tile or seat (``flipped``, ``drawn``, ``zhua_da``, ``replacement``) is empty;
  flags are ``0``/``1``; numbers are plain decimals (no sign, no leading zero);
- ``claims``: the 16 counts, row by row, split by ``.``;
- ``window`` (empty if none): ``tile,from,last,opened_at,options 0..3,answers 0..3``,
  each seat's options split by ``:``, an action as kind letter, seat, tile (``-`` for
  none) and its tiles (`ACTION_LETTERS`), a missing answer empty;
- a seat: ``hand,melds,discards,claimed,flowers,drawn,chain,claimed_turn,passed_wins,
  passed_pongs``, melds split by ``;`` (kind letter, from seat or ``-``, face, claimed
  tile or ``-``, then its tiles), ``claimed`` as ``index:seat`` pairs split by ``;``.

A format 1 text (JSON, written before) is refused by its first character; in the
store it is ignored anyway, since its version is not this engine's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields
from functools import partial
from typing import Any

from engine import rules
from engine.game.actions import Action, checked
from engine.game.errors import IllegalAction
from engine.game.state import ClaimWindow, Discard, HandState, Phase, SeatState, make
from engine.melds import Meld, MeldKind
from engine.memo import IdentityMemo
from engine.rules.common import SEATS, ActionKind, ChainStep, Replacement, TableOptions
from engine.tiles import Tile

SNAPSHOT_FORMAT = 2
"""Bumped whenever the text below changes meaning; older texts are then ignored.
1: JSON, tiles in notation (sessions 5-8); 2: positional fields, a letter a tile."""

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

TILE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
"""Each tile's letter, by its value (ASCII order is tile order)."""
assert len(TILE_LETTERS) == len(Tile) and "".join(sorted(TILE_LETTERS)) == TILE_LETTERS

ACTION_LETTERS = {ActionKind.DISCARD: "d", ActionKind.CHI: "c", ActionKind.PONG: "p",
                  ActionKind.KONG: "k", ActionKind.ADDED_KONG: "a",
                  ActionKind.CONCEALED_KONG: "x", ActionKind.WIN: "w", ActionKind.PASS: "s"}
MELD_LETTERS = {MeldKind.CHI: "c", MeldKind.PONG: "p", MeldKind.KONG: "k",
                MeldKind.ADDED_KONG: "a", MeldKind.CONCEALED_KONG: "x"}
PHASE_LETTERS = {Phase.TURN: "t", Phase.CLAIM: "c", Phase.ROB_KONG: "r"}
REPLACEMENT_LETTERS = {Replacement.KONG: "k", Replacement.FLOWER: "f"}

_LETTER = list(TILE_LETTERS)
_TILE_OF = {letter: Tile(i) for i, letter in enumerate(TILE_LETTERS)}
_UNCLAIMED_OF = {letter: Discard(tile) for letter, tile in _TILE_OF.items()}
"""One shared unclaimed discard of each tile (records are immutable and compared by
value): decoding builds some 30 discards a state on every restart."""
_ACTION_KIND_OF = {v: k for k, v in ACTION_LETTERS.items()}
_MELD_KIND_OF = {v: k for k, v in MELD_LETTERS.items()}
_PHASE_OF = {v: k for k, v in PHASE_LETTERS.items()}
_REPLACEMENT_OF = {v: k for k, v in REPLACEMENT_LETTERS.items()} | {"": None}
_CHAIN_OF = {step.value: step for step in ChainStep}
_SEAT_OF = {str(s): s for s in range(SEATS)}
_OPT_SEAT_OF: dict[str, int | None] = {**_SEAT_OF, "": None}
_FLAG_OF = {"0": False, "1": True}
_SMALL = {str(n): n for n in range(1001)}
"""The canonical spelling of every count a snapshot holds but seq: one lookup each."""
_NO_CLAIMS = ".".join(["0"] * SEATS * SEATS)
_FIELD_COUNT = 13 + SEATS
_SEAT_FIELDS = 10
_WINDOW_FIELDS = 4 + 2 * SEATS
_NONE: frozenset[Tile] = frozenset()

_SEAT_TEXTS: IdentityMemo[str] = IdentityMemo("engine.game.snapshot.seat_text", 2048)
"""Each seat's text by the seat record: a move copies only the seats it changes, so a
snapshot written with every action spells one or two seats anew, not four."""


class SnapshotError(ValueError):
    """The text is not a snapshot of this format (or not of this hand)."""


def encode(state: HandState) -> str:
    """The state of a hand in play as one line of text (the module's docstring); spelled
    once per state (`HandState.remembered`): the bot writes it with the move and sends
    it again with each seat's DM of that state (`bot.discord.core.pictures.plain_state`),
    about a third of a DM job's cost on the event loop when spelled anew each time."""
    if state.result is not None or state.phase is Phase.ENDED:
        raise SnapshotError("an ended hand is not snapshotted")
    return state.remembered(_ENCODED, partial(_encode, state))


_ENCODED = "snapshot text"
"""`encode`'s question to `HandState.remembered`."""


def _encode(state: HandState) -> str:
    zhua_da = state.zhua_da
    return "|".join([
        str(SNAPSHOT_FORMAT), str(state.seq), str(state.front), str(state.back),
        _tile_text(state.flipped), _tiles_text(state.set_aside),
        PHASE_LETTERS[state.phase], str(state.turn),
        "" if state.replacement is None else REPLACEMENT_LETTERS[state.replacement],
        "1" if state.first_go_round else "0", "" if zhua_da is None else str(zhua_da),
        ".".join([str(n) for row in state.claims for n in row]),
        "" if state.window is None else _window(state.window),
        *[_SEAT_TEXTS.get(s, None, partial(_seat, s)) for s in state.seats],
    ])


def decode(text: str, ruleset_name: str, options: Mapping[str, Any] | TableOptions | None,
           wall: Sequence[Tile], dealer: int, dice: tuple[int, int], streak: int = 1,
           huangfan: bool = False) -> HandState:
    """The state ``text`` holds, for the hand dealt from these facts (as `replay` takes
    them); `SnapshotError` if it is anything else."""
    if not isinstance(text, str):
        raise SnapshotError(f"a snapshot is text, not {type(text).__name__}")
    parts = text.split("|")
    if parts[0] != str(SNAPSHOT_FORMAT):
        what = "format 1 (JSON)" if text.startswith("{") else f"format {parts[0][:8]!r}"
        raise SnapshotError(f"{what}, not {SNAPSHOT_FORMAT}")
    if len(parts) != _FIELD_COUNT:
        raise SnapshotError(f"{len(parts)} fields, not {_FIELD_COUNT}")
    try:
        state = _state(parts, ruleset_name, options, tuple(wall), dealer, dice, streak,
                       huangfan)
    except SnapshotError:
        raise
    except (IllegalAction, KeyError, TypeError, ValueError, IndexError) as exc:
        raise SnapshotError(f"not a hand's snapshot: {exc!r}") from None
    _check_tiles(state)
    return state


# ---- encoding --------------------------------------------------------------------------


def _tile_text(tile: Tile | None) -> str:
    return "" if tile is None else _LETTER[tile]


def _tiles_text(tiles: Iterable[Tile]) -> str:
    return "".join([_LETTER[t] for t in tiles])


def _seat(s: SeatState) -> str:
    discards = s.discards
    return ",".join([
        _tiles_text(s.hand),
        ";".join([_meld(m) for m in s.melds]),
        "".join([_LETTER[d.tile] for d in discards]),
        ";".join([f"{i}:{d.claimed_by}" for i, d in enumerate(discards)
                  if d.claimed_by is not None]),
        _tiles_text(s.flowers),
        _tile_text(s.drawn),
        "".join([step.value for step in s.chain]),
        "1" if s.claimed_turn else "0",
        _tiles_text(sorted(s.passed_wins)),
        _tiles_text(sorted(s.passed_pongs)),
    ])


def _meld(m: Meld) -> str:
    return (MELD_LETTERS[m.kind] + ("-" if m.from_seat is None else str(m.from_seat))
            + _LETTER[m.face] + ("-" if m.claimed is None else _LETTER[m.claimed])
            + _tiles_text(m.tiles))


def _action(a: Action) -> str:
    return (ACTION_LETTERS[a.kind] + str(a.seat) + ("-" if a.tile is None else _LETTER[a.tile])
            + _tiles_text(a.tiles))


def _window(w: ClaimWindow) -> str:
    return ",".join([
        _LETTER[w.tile], str(w.from_seat), "1" if w.last else "0", str(w.opened_at),
        *[":".join([_action(a) for a in seat]) for seat in w.options],
        *["" if a is None else _action(a) for a in w.answers],
    ])


# ---- decoding --------------------------------------------------------------------------


def _state(parts: list[str], ruleset_name: str,
           options: Mapping[str, Any] | TableOptions | None, wall: tuple[Tile, ...],
           dealer: int, dice: tuple[int, int], streak: int, huangfan: bool) -> HandState:
    ruleset = rules.get(ruleset_name)
    if isinstance(options, TableOptions) and not isinstance(options, ruleset.options_type):
        raise SnapshotError(f"{type(options).__name__} are not options for {ruleset.name}")
    opts = options if isinstance(options, TableOptions) else ruleset.options(options)
    (_, seq, front, back, flipped, set_aside, phase, turn, replacement, first_go_round,
     zhua_da, claims, window, *seats) = parts
    front_n, back_n = _int(front, 0, len(wall)), _int(back, 0, len(wall))
    if front_n + back_n > len(wall):
        raise SnapshotError("more tiles taken than the wall holds")
    return make(HandState, {
        "rules": ruleset.name, "options": opts, "wall": wall, "dealer": dealer,
        "dice": (dice[0], dice[1]), "streak": streak,
        "huangfan": huangfan and ruleset.has_huangfan,
        "seats": tuple([_seat_of(s) for s in seats]),
        "front": front_n, "back": back_n,
        "flipped": _opt_tile(flipped),
        "set_aside": _tiles(set_aside),
        "phase": _of(_PHASE_OF, phase, "phase"),
        "turn": _of(_SEAT_OF, turn, "seat"),
        "window": None if not window else _window_of(window),
        "replacement": _of(_REPLACEMENT_OF, replacement, "replacement"),
        "first_go_round": _of(_FLAG_OF, first_go_round, "flag"),
        "claims": _claims(claims),
        "zhua_da": _of(_OPT_SEAT_OF, zhua_da, "seat"),
        "result": None,
        "seq": _int(seq, 0, 10_000),
    })


def _seat_of(text: str) -> SeatState:
    parts = text.split(",")
    if len(parts) != _SEAT_FIELDS:
        raise SnapshotError(f"a seat of {len(parts)} fields, not {_SEAT_FIELDS}")
    (hand, melds, discards, claimed, flowers, drawn, chain, claimed_turn, passed_wins,
     passed_pongs) = parts
    unclaimed = _UNCLAIMED_OF
    # one lookup a tile (a KeyError on anything but a tile letter: not a snapshot)
    mine = tuple(map(unclaimed.__getitem__, discards)) if discards else ()
    if claimed:
        mine = _claimed(mine, claimed)
    return make(SeatState, {
        "hand": _sorted_hand(hand),
        "melds": tuple([_meld_of(m) for m in melds.split(";")]) if melds else (),
        "discards": mine,
        "flowers": _tiles(flowers),
        "drawn": _opt_tile(drawn),
        "chain": tuple([_of(_CHAIN_OF, c, "chain step") for c in chain]) if chain else (),
        "claimed_turn": _of(_FLAG_OF, claimed_turn, "flag"),
        "passed_wins": _tile_set(passed_wins),
        "passed_pongs": _tile_set(passed_pongs),
    })


def _claimed(discards: tuple[Discard, ...], text: str) -> tuple[Discard, ...]:
    """The discards with those of the ``index:seat`` pairs melded by that seat."""
    out = list(discards)
    for pair in text.split(";"):
        index, by = pair.split(":")
        i = _int(index, 0, len(out) - 1)
        out[i] = Discard(out[i].tile, _of(_SEAT_OF, by, "seat"))
    return tuple(out)


def _sorted_hand(text: str) -> tuple[Tile, ...]:
    """A seat's concealed tiles, which the engine keeps in tile order (`encode` writes
    them so, and `SeatState.after` inserts a drawn tile in its place): a hand in
    another order would be read wrongly by every move after it. The letters are in
    tile order, so the word itself is checked (a sort of 14 letters)."""
    if "".join(sorted(text)) != text:
        raise SnapshotError(f"a hand not in tile order: {text!r}")
    return _tiles(text)


def _tile_set(text: str) -> frozenset[Tile]:
    # usually empty: one shared empty set
    return frozenset(map(_TILE_OF.__getitem__, text)) if text else _NONE


def _meld_of(text: str) -> Meld:
    if len(text) < 7:
        raise SnapshotError(f"not a meld: {text!r}")
    return Meld(_of(_MELD_KIND_OF, text[0], "meld kind"),
                _tiles(text[4:]), _tile(text[2]),
                None if text[1] == "-" else _of(_SEAT_OF, text[1], "seat"),
                None if text[3] == "-" else _tile(text[3]))


def _window_of(text: str) -> ClaimWindow:
    parts = text.split(",")
    if len(parts) != _WINDOW_FIELDS:
        raise SnapshotError(f"a window of {len(parts)} fields, not {_WINDOW_FIELDS}")
    tile, from_seat, last, opened_at = parts[:4]
    return ClaimWindow(
        tile=_tile(tile),
        from_seat=_of(_SEAT_OF, from_seat, "seat"),
        options=tuple([tuple([_action_of(a) for a in seat.split(":")]) if seat else ()
                       for seat in parts[4:4 + SEATS]]),
        answers=tuple([_action_of(a) if a else None for a in parts[4 + SEATS:]]),
        last=_of(_FLAG_OF, last, "flag"),
        opened_at=_int(opened_at, 0, 10_000),
    )


def _action_of(text: str) -> Action:
    if len(text) < 3:
        raise SnapshotError(f"not an action: {text!r}")
    kind = _of(_ACTION_KIND_OF, text[0], "action kind")
    tile = None if text[2] == "-" else _tile(text[2])
    # `checked`: the tiles must fit the kind, as a logged action's must
    return checked(Action(kind, _of(_SEAT_OF, text[1], "seat"), tile, _tiles(text[3:])))


def _claims(text: str) -> tuple[tuple[int, ...], ...]:
    if text == _NO_CLAIMS:  # the usual case: nobody claimed yet
        return ((0,) * SEATS,) * SEATS
    counts = [_int(n, 0, 1000) for n in text.split(".")]
    if len(counts) != SEATS * SEATS:
        raise SnapshotError(f"{len(counts)} claim counts, not {SEATS * SEATS}")
    return tuple([tuple(counts[i:i + SEATS]) for i in range(0, len(counts), SEATS)])


def _of(table: Mapping[str, Any], text: str, what: str) -> Any:
    value = table.get(text, table)  # the table itself: not found (None is a value)
    if value is table:
        raise SnapshotError(f"not a {what}: {text!r}")
    return value


def _int(text: str, low: int, high: int) -> int:
    number = _SMALL.get(text)
    if number is None and text.isascii() and text.isdigit() and text[0] != "0":
        number = int(text)
    if number is None or not low <= number <= high:
        raise SnapshotError(f"expected a whole number {low}–{high}, not {text!r}")
    return number


def _tile(text: str) -> Tile:
    tile = _TILE_OF.get(text)
    if tile is None:
        raise SnapshotError(f"not a tile: {text!r}")
    return tile


def _opt_tile(text: str) -> Tile | None:
    return None if not text else _tile(text)


def _tiles(text: str) -> tuple[Tile, ...]:
    if not text:  # most of a seat's texts (flowers, passed tiles) are empty
        return ()
    try:  # one lookup a tile: decoding is on the path of every restart
        return tuple(map(_TILE_OF.__getitem__, text))
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
