"""`Replays`: `/mahjong replay`, a finished hand stepped through, and its record.

A replay reads a hand that has ended with a settlement (never the hand being played,
nor one a cancel voided) back from its log (`HandLog`) and replays the engine to the
step asked, each time: nothing is kept between presses, so a button works after a
restart and in every process. A step is one move: a non-pass action with the passes
that follow it (a claim window the others let go); step 0 is the deal, the last step
the settlement.

What a frame shows is everything (``viewer`` None) or one seat's knowledge then
(`engine.view.open_view`): its own hand and concealed kongs, the others' as the
public saw them, and of what happened only what that seat was told (`seen_by`).

The record (`record_of`) is the hand as data anyone can check: the wall, its salt and
commitment (SHA-256 of salt + wall: `bot.service.fairness.commitment`), every action
as logged, the settlements; replaying the actions on the wall gives the settlement.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bot.service import errors as E
from bot.service.cause import Cause
from bot.service.errors import Refused
from bot.service.hand_log import HandLog, hand_log
from bot.service.languages import Languages
from bot.service.notices import TableInfo, public_events
from bot.store import Store
from bot.store.rows import HandRow, SettlementRow, TableRow
from engine.game import Action, apply
from engine.game.events import Event, MeldDeclared
from engine.melds import MeldKind
from engine.rules.common import SEATS, ActionKind
from engine.view import OpenView, open_view

JUMPS = frozenset({ActionKind.CHI, ActionKind.PONG, ActionKind.KONG, ActionKind.WIN})
"""The moves "next claim or win" jumps to: a discard claimed, or a win."""
RECORD_FORMAT = 1
"""The record's ``format``: a reader can tell a later shape from this one."""


@dataclass(frozen=True)
class ReplayFrame:
    """One step of a finished hand, as ``viewer`` (None: everyone's hands open) may see
    it."""

    table_id: int
    hand_number: int
    rules: str
    step: int
    last: int
    """The settlement's step (steps run 0..last)."""
    viewer: int | None
    view: OpenView
    names: tuple[str, ...]
    """Who held each seat at this step."""
    events: tuple[Event, ...]
    """What happened at this step, as the viewer was told it (`seen_by`)."""
    mover: int | None
    """The seat whose move this step is (None: the deal)."""
    jump: int | None
    """The next step that is a claim or a win (None: none after this one)."""


@dataclass(frozen=True)
class HandRecord:
    """A finished hand as data (`record_of`), for its JSON file."""

    table_id: int
    hand_number: int
    data: dict[str, Any]

    @property
    def filename(self) -> str:
        return f"hand-{self.table_id}-{self.hand_number}.json"


def starts_of(actions: Sequence[Action]) -> tuple[int, ...]:
    """Where each step after the deal begins: the index of each action that is not a
    pass (the passes after it belong to its step; any before the first, to the deal)."""
    return tuple(i for i, a in enumerate(actions) if a.kind is not ActionKind.PASS)


def seen_by(events: Sequence[Event], viewer: int | None) -> tuple[Event, ...]:
    """``events`` as ``viewer`` knew them: its own private events and the public ones
    (others' concealed kongs without their tiles); everything when None (all open)."""
    if viewer is None:
        return tuple(events)
    out: list[Event] = []
    for event in events:
        private = event.private_to
        if private == viewer or (
                isinstance(event, MeldDeclared) and event.seat == viewer
                and event.meld.kind is MeldKind.CONCEALED_KONG):
            out.append(event)
        elif private is None:
            out.extend(public_events((event,)))
    return tuple(out)


LOOK_BACK = 25
"""How many of a channel's newest tables `/mahjong replay` alone looks through for a
finished hand (a channel of abandoned lobbies costs no more than that)."""


class Replays:
    """Reads finished hands back: a frame of one (`frame`), its record (`record`)."""

    def __init__(self, store: Store, languages: Languages,
                 table_info: Callable[[int], Awaitable[TableInfo]]) -> None:
        self._store = store
        self._languages = languages
        self._table_info = table_info

    async def frame(self, cause: Cause, table_id: int, hand: int | None = None,
                    step: int | None = None, viewer: int | None = None) -> ReplayFrame:
        """Step ``step`` (None: the deal) of finished hand ``hand`` (None: the table's
        last finished one) as ``viewer`` saw it (None: all open). ``table_id`` is one
        the caller found where it was asked (`find_table`)."""
        await self._languages.seen(cause)
        if viewer is not None and not 0 <= viewer < SEATS:
            raise ValueError(f"no seat {viewer}")
        log = await self._finished(table_id, hand)
        actions = log.moves()
        starts = starts_of(actions)
        last = len(starts)
        at = 0 if step is None else step
        if not 0 <= at <= last:
            raise Refused(E.NO_SUCH_STEP, f"the hand has steps 0 to {last}", last=last)
        end = starts[at] if at < last else len(actions)
        begin = 0 if at == 0 else starts[at - 1]
        state, events = log.deal()
        told: list[Event] = list(events) if at == 0 else []
        for i, action in enumerate(actions[:end]):
            state, events = apply(state, action)
            if i >= begin:
                told.extend(events)
        jump = next((k + 1 for k in range(at, last) if actions[starts[k]].kind in JUMPS),
                    None)
        number = log.hand.number
        seq = log.actions[begin].seq if at > 0 else 0
        return ReplayFrame(table_id, number, log.table.rules, at, last, viewer,
                           open_view(state, number, viewer), log.names_at(seq),
                           seen_by(told, viewer),
                           actions[begin].seat if at > 0 else None, jump)

    async def record(self, cause: Cause, table_id: int, hand: int | None = None
                     ) -> HandRecord:
        """Finished hand ``hand`` (None: the last) of ``table_id`` as data (`record_of`)."""
        await self._languages.seen(cause)
        log = await self._finished(table_id, hand)
        settled = await self._store.endings.match_settlements(log.hand.match_id)
        hands = {h.id: h.number for h in await self._store.hands.of_match(log.hand.match_id)}
        return HandRecord(table_id, log.hand.number, record_of(log, settled, hands))

    async def latest_table(self, channel_id: int) -> int | None:
        """The channel's newest table with a finished hand to replay, among its last
        `LOOK_BACK` tables (None: none of them has one)."""
        rows = await self._store.lobby.tables_in_channel(channel_id)
        for row in reversed(rows[-LOOK_BACK:]):
            hands, settled = await self._hands(row)
            if any(h.status == "ended" and h.id in settled for h in hands):
                return row.id
        return None

    async def _finished(self, table_id: int, number: int | None) -> HandLog:
        """The log of a finished hand of the table: refused when it is being played
        (`hand_running`), when no hand has ended yet (`no_finished_hand`), or when it
        was never dealt or was voided (`no_such_hand`)."""
        row = await self._store.lobby.get_table(table_id)
        if row is None:
            raise Refused(E.NO_TABLE, "there is no such table")
        hands, settled = await self._hands(row)
        finished = [h for h in hands if h.status == "ended" and h.id in settled]
        chosen = [h for h in hands if h.number == number]
        if chosen and chosen[-1].status == "live":
            raise Refused(E.HAND_RUNNING, "that hand is being played: only finished hands "
                                          "are replayed", table=table_id, hand=number)
        if not finished:
            raise Refused(E.NO_FINISHED_HAND, "no hand of this table has ended yet",
                          table=table_id)
        if number is None:
            return await hand_log(self._store, self._table_info, row, finished[-1])
        if not chosen or chosen[-1] not in finished:
            raise Refused(E.NO_SUCH_HAND, "the table has no such finished hand",
                          table=table_id, hand=number, last=finished[-1].number)
        return await hand_log(self._store, self._table_info, row, chosen[-1])

    async def _hands(self, row: TableRow) -> tuple[list[HandRow], set[int]]:
        """The hands of the table's last match, and those of them settled."""
        matches = await self._store.matches.of_table(row.id)
        if not matches:
            return [], set()
        match = matches[-1]
        settled = {s.hand_id for s in await self._store.endings.match_settlements(match.id)}
        return await self._store.hands.of_match(match.id), settled


def record_of(log: HandLog, settled: Sequence[SettlementRow], numbers: dict[int, int]
              ) -> dict[str, Any]:
    """The hand as JSON-ready data: rules and options, seats (computers marked, a
    person who left with the action after which the computer played), dealer, dice,
    streak, 荒番, the wall in dealing order, salt, commitment and how to check it, every
    action as logged, the hand's settlements and the match's totals after it.
    ``settled``: the match's settlement rows; ``numbers``: its hands' numbers by id."""
    hand = log.hand
    start = log.names_at(0)
    left = {seat: seq for seq, seat, _ in log.handovers}
    seats = [{"seat": s, "name": start[s], "computer": log.computers[s] and s not in left,
              **({"left_after_seq": left[s], "then": log.names[s]} if s in left else {})}
             for s in range(SEATS)]
    totals = [Fraction(0)] * SEATS
    for row in settled:
        if numbers.get(row.hand_id, hand.number + 1) <= hand.number:
            totals[row.seat] += row.amount
    own = sorted((r for r in settled if r.hand_id == hand.id), key=lambda r: r.seat)
    return {
        "format": RECORD_FORMAT,
        "table": log.table.id,
        "hand": hand.number,
        "rules": log.table.rules,
        "options": dict(log.table.options),
        "seats": seats,
        "dealer": hand.dealer,
        "dice": list(hand.dice),
        "streak": hand.streak,
        "huangfan": hand.huangfan,
        "wall": hand.wall,
        "salt": hand.salt,
        "commitment": hand.commitment,
        "check": {
            "algorithm": "sha256",
            "input": "salt + wall, as ASCII text",
            "expect": hand.commitment,
            "python": "hashlib.sha256((salt + wall).encode('ascii')).hexdigest()",
            "wall_notation": "two characters a tile, in dealing order: 1m-9m characters, "
                             "1p-9p dots, 1s-9s bamboo, 1z-4z winds E S W N, 5z-7z "
                             "white green red dragons, 1f-8f flowers",
        },
        "started_at": hand.started_at,
        "ended_at": hand.ended_at,
        "actions": [{"seq": a.seq, "seat": a.seat, "kind": a.kind, "payload": a.payload,
                     "source": a.source, "at": a.at} for a in log.actions],
        "settlements": [{"seat": r.seat, "amount": str(r.amount), "patterns": r.patterns,
                         "value": r.value} for r in own],
        "totals_after": [str(x) for x in totals],
    }

