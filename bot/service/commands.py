"""`Commands`: what a person asks of a table, each taking the `Cause` first.

Lobby (create, join, computer players, leave, start, cancel), play (`act`), a seat's
standing choices and `back`, and `seen` (any interaction: the language is kept). Each
command checks who asks (`guards`), changes the store and memory under the table's
lock, and tells through the `Announcer` (its notices carry the cause). Moves go through
`Moves.commit`, the one path of every move.

To add a command: a method here taking ``cause`` first (call ``self.seen(cause)``),
one line in `TableService` (service.py) that delegates to it, and its refusal codes in
errors.py.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from bot.service import errors as E
from bot.service import fairness
from bot.service.announcements import Announcer
from bot.service.cause import Cause
from bot.service.clock import Clock
from bot.service.errors import Refused
from bot.service.guards import (
    free_seat,
    need_hand,
    need_lobby,
    need_member,
    need_name,
    need_player,
    need_seat,
)
from bot.service.languages import Languages
from bot.service.live import (
    AnswersGiven,
    LiveHand,
    LiveTable,
    answer_of,
    answers_of,
    computers_of,
    empty_seats,
    info_of,
    natural_chi,
    step_of,
)
from bot.service.moves import JUDGED, ComputerNamer, Moves, parse_action
from bot.service.notices import AwayNotice, ClaimAnswer, NextDiscard, TableInfo
from bot.service.process import ProcessModel
from bot.service.results import ActResult, Seated
from bot.service.steps import public_step_of
from bot.service.tables import LiveTables
from bot.service.timers import Timers
from bot.store import (
    AlreadySeated,
    ClaimAnswerKind,
    HandEnded,
    SeatTaken,
    StaleStatus,
    StandingChoices,
    Store,
)
from engine import rules as rulesets
from engine.game import Action, ActionKind, HandState, Phase
from engine.match import new_match
from engine.rules.common import SEATS, OptionError
from engine.tiles import Tile

log = logging.getLogger(__name__)

_HELD_FOR = {ActionKind.PONG: 2, ActionKind.KONG: 3}
"""How many of a tile a seat holds to answer its claim in advance."""
_ANSWER_NAMES: dict[ActionKind, ClaimAnswerKind] = {ActionKind.PONG: "pong",
                                                    ActionKind.KONG: "kong",
                                                    ActionKind.CHI: "chi"}


def _then_held(state: HandState, seat: int, tile: Tile, answer: ClaimAnswer) -> bool:
    """Whether the discard ``answer`` names after its claim is one the seat would still
    hold after it (a menu save keeps it then; one discarded since is dropped)."""
    try:
        _judge_answer(state, seat, tile, answer)
    except Refused:
        return False
    return True


def _judge_answer(state: HandState, seat: int, tile: Tile, answer: ClaimAnswer) -> None:
    """A claim answered in advance is one the seat could make of its own tiles now
    (whether a window will offer it, the engine says then), naming a discard it would
    still hold after it; else refused (`set_claim_answers`)."""
    held = list(state.seats[seat].hand)
    if answer.kind is ActionKind.CHI:
        if not natural_chi(state.wildcards, tile, answer.tiles) or \
                any(held.count(t) < answer.tiles.count(t) for t in answer.tiles):
            raise Refused(E.BAD_CHI_ANSWER, "a chi is answered in advance with two tiles of "
                          "your own that make a run with the tile, no 财神",
                          tile=tile, tiles=answer.tiles)
    else:
        need = _HELD_FOR.get(answer.kind)
        if need is None or held.count(tile) < need or answer.tiles:
            raise Refused(E.BAD_CLAIM_ANSWER, "a pong is answered in advance for a "
                          "tile held twice, a kong for one held three times",
                          tile=tile, kind=answer.kind.value)
    if answer.then is None:
        return
    for used in answer.uses(tile):
        held.remove(used)
    if answer.kind is ActionKind.KONG or answer.then not in held:
        raise Refused(E.BAD_THEN_DISCARD, "the discard named after a claim is one you "
                      "still hold after it (after a chi or pong)", tile=answer.then,
                      claimed=tile)


class Commands:
    """A person's requests: lobby, play, standing choices, language."""

    def __init__(self, store: Store, clock: Clock, tables: LiveTables, moves: Moves,
                 timers: Timers, announcer: Announcer, languages: Languages,
                 process: ProcessModel, *, computer_name: ComputerNamer) -> None:
        self._store = store
        self._clock = clock
        self._tables = tables
        self._moves = moves
        self._timers = timers
        self._announcer = announcer
        self._languages = languages
        self._process = process
        self._computer_name = computer_name

    async def create_table(self, cause: Cause, *, guild_id: int, channel_id: int, rules: str,
                           options: Mapping[str, Any] | None = None,
                           sit: bool = True) -> TableInfo:
        """A new table in the channel's lobby, opened by ``cause``'s person, who sits in
        seat 1 unless ``sit`` is False. Options and the name are validated before
        anything is written, and the table and its creator's seat are written in one
        transaction; a channel holds one live table at a time."""
        await self.seen(cause)
        creator_id, creator_name = cause.user_id, cause.name
        if sit:
            need_name(creator_name)
        try:
            ruleset = rulesets.get(rules)
            ruleset.options(options)
            stored = ruleset.name  # the registry's name: the store keeps it as text
        except OptionError as exc:
            raise Refused(E.BAD_OPTIONS, str(exc), refusal=exc.refusal) from None
        if await self._store.lobby.tables_in_channel(channel_id, live_only=True):
            raise Refused(E.CHANNEL_BUSY, "this channel already has a table; finish or "
                                          "cancel it first")
        now = self._clock.now()
        row = await self._store.lobby.create_table(
            guild_id=guild_id, channel_id=channel_id, creator_id=creator_id,
            rules=stored, at=now, options=dict(options or {}),
            creator_name=creator_name if sit else None)
        live = LiveTable(row, empty_seats(), version=row.version)
        for seated in await self._store.lobby.seats(row.id) if sit else ():
            live.set_seat(seated)
        self._tables.add(live)
        info = info_of(live)
        await self._announcer.lobby(info, "created", 0 if sit else None, cause=cause)
        return info

    async def join(self, cause: Cause, table_id: int, seat: int | None = None) -> Seated:
        """Sit down in the lobby (the first empty seat unless one is named), under
        ``cause.name``."""
        await self.seen(cause)
        user_id, name = cause.user_id, cause.name
        need_name(name)
        async with self._tables.locked(table_id) as live:
            need_lobby(live)
            if live.seat_of(user_id) is not None:
                raise Refused(E.ALREADY_SEATED, "you already sit at this table")
            seat = free_seat(live, seat)
            try:
                row = await self._store.lobby.sit(table_id, seat, user_id=user_id,
                                                  display_name=name, at=self._clock.now(),
                                                  fence=live.fence)
            except SeatTaken:
                raise Refused(E.SEAT_TAKEN, f"seat {seat + 1} is taken",
                              seat=seat + 1) from None
            except AlreadySeated:
                raise Refused(E.ALREADY_SEATED, "you already sit at this table") from None
            live.set_seat(row)
            info = info_of(live)
        await self._announcer.lobby(info, "joined", seat, cause=cause)
        return Seated(info, seat)

    async def add_computer(self, cause: Cause, table_id: int, seat: int | None = None
                           ) -> Seated:
        """Seat a computer player (asked by someone seated, the creator or a manager)."""
        await self.seen(cause)
        async with self._tables.locked(table_id) as live:
            need_lobby(live)
            need_member(live, cause)
            seat = free_seat(live, seat)
            try:
                row = await self._store.lobby.sit_computer(
                    table_id, seat, at=self._clock.now(),
                    display_name=self._computer_name(live.ref, seat, None), fence=live.fence)
            except SeatTaken:
                raise Refused(E.SEAT_TAKEN, f"seat {seat + 1} is taken",
                              seat=seat + 1) from None
            live.set_seat(row)
            info = info_of(live)
        await self._announcer.lobby(info, "computer_added", seat, cause=cause)
        return Seated(info, seat)

    async def remove_computer(self, cause: Cause, table_id: int, seat: int) -> TableInfo:
        await self.seen(cause)
        async with self._tables.locked(table_id) as live:
            need_lobby(live)
            need_member(live, cause)
            row = live.seats[seat] if 0 <= seat < SEATS else None
            if row is None or not row.is_computer:
                raise Refused(E.NOT_A_COMPUTER, f"seat {seat + 1} is not a computer player",
                              seat=seat + 1)
            await self._store.lobby.leave(table_id, seat, fence=live.fence)
            live.seats[seat] = None
            info = info_of(live)
        await self._announcer.lobby(info, "computer_removed", seat, cause=cause)
        return info

    async def leave(self, cause: Cause, table_id: int, *, agreed: Fraction | None = None
                    ) -> TableInfo:
        """Leave a table: in the lobby the seat empties at once. During a match the
        computer takes the seat over for the rest of it (a running Hangzhou hand charges
        the 逃跑 penalty), only once the person agreed to what it costs now: without
        ``agreed``, or with another amount than leaving costs now (a 抓打 window opened
        since), it is refused `confirm_leave` with the cost, nothing changed."""
        await self.seen(cause)
        async with self._tables.locked(table_id) as live:
            seat = need_seat(live, cause.user_id)
            if live.row.status == "lobby":
                await self._store.lobby.leave(table_id, seat, fence=live.fence)
                live.seats[seat] = None
                info = info_of(live)
                gone = None
            else:
                cost = self._moves.abandon_penalty(live, seat)
                owed = -cost[seat] if cost else Fraction(0)
                receiver = next((live.names[s] for s, a in enumerate(cost or ()) if a > 0),
                                None)
                if agreed is None or agreed != owed:
                    raise Refused(E.CONFIRM_LEAVE, "leaving the running match needs "
                                  f"confirming: it costs {owed}", penalty=owed,
                                  receiver=receiver, rules=live.row.rules, table=table_id)
                row = live.seats[seat]
                assert row is not None
                await self._moves.replace_by_computer(live, seat)
                info = info_of(live)
                gone = AwayNotice(live.ref, seat, row.user_id, row.display_name, True,
                                  removed=True, penalty=owed, by_choice=True,
                                  receiver=receiver, rules=live.row.rules)
        if gone is not None:  # the channel is told who left and what it cost
            await self._announcer.publish(gone)
        await self._announcer.lobby(info, "left" if gone is None else "replaced", seat,
                                    cause=cause)
        return info

    async def start(self, cause: Cause, table_id: int) -> TableInfo:
        """Start the match (the creator or a manager), with every seat filled."""
        await self.seen(cause)
        async with self._tables.locked(table_id) as live:
            need_lobby(live)
            if cause.user_id != live.row.creator_id and \
                    not cause.manages(live.row.guild_id):
                raise Refused(E.NOT_ALLOWED, "only the table's creator or a server manager "
                                             "can start it")
            empty = [i + 1 for i, s in enumerate(live.seats) if s is None]
            if empty:
                raise Refused(E.EMPTY_SEATS, f"seat(s) {', '.join(map(str, empty))} are empty: "
                                             "wait for players or add computer players",
                              seats=tuple(empty))
            # status, match and first hand in one transaction: another process never
            # reads the table started halfway (nor does a crash leave it so)
            dealer = fairness.first_dealer()
            dealt = self._moves.deal(live, new_match(live.row.rules, live.options,
                                                    dealer, computers_of(live)),
                                    self._clock.now())
            try:
                live.row, match_row, hand_row = await self._store.matches.start(
                    table_id, first_dealer=dealer, at=self._clock.now(), hand=dealt.new,
                    fence=live.fence)
            except StaleStatus:
                raise Refused(E.NOT_IN_LOBBY, "the table has already started") from None
            live.match_id = match_row.id
            await self._moves.dealt(live, dealt, hand_row, cause)  # tells the lobby too
            await self._tables.settle(live)  # a deal a peer's recovery ended first: reloaded
            return info_of(live)

    async def cancel(self, cause: Cause, table_id: int) -> TableInfo:
        """Cancel a table (its creator or a server manager): the running hand is void
        (no settlement) and its wall revealed; the match is recorded as abandoned."""
        await self.seen(cause)
        async with self._tables.locked(table_id) as live:
            if cause.user_id != live.row.creator_id and \
                    not cause.manages(live.row.guild_id):
                raise Refused(E.NOT_ALLOWED, "only the table's creator or a server manager "
                                             "can cancel it")
            try:
                live.row = await self._store.endings.cancel_table(
                    table_id, at=self._clock.now(),
                    announcements=self._moves.void(live, cause.name), fence=live.fence)
            except StaleStatus:
                raise Refused(E.NOT_PLAYING, "the table is already over") from None
            live.pending = {}  # it leaves memory with the lock (`LiveTables.settle`)
            info = info_of(live)
        await self._announcer.deliver(live, cause=cause)
        return info

    async def set_choices(self, cause: Cause, table_id: int,
                          choices: StandingChoices) -> StandingChoices:
        """A seat's standing choices, applied from its next decision on (or this one);
        returns the seat's choices now."""
        await self.seen(cause)
        async with self._tables.locked(table_id) as live:
            seat = need_seat(live, cause.user_id)
            row = await self._store.lobby.set_choices(table_id, seat, choices, fence=live.fence)
            live.set_seat(row)
            await self._timers.replan(live)
            return row.choices

    async def set_choice(self, cause: Cause, table_id: int, name: str, on: bool
                         ) -> StandingChoices:
        """Turn one standing choice on or off, keeping the others as they are *now*:
        read and written under the table's lock, so two quick toggles both count."""
        if name not in StandingChoices.__dataclass_fields__:
            raise ValueError(f"there is no standing choice {name!r}")  # a caller's slip
        await self.seen(cause)
        async with self._tables.locked(table_id) as live:
            seat = need_seat(live, cause.user_id)
            row = live.seats[seat]
            assert row is not None
            row = await self._store.lobby.set_choices(table_id, seat,
                                               replace(row.choices, **{name: on}), fence=live.fence)
            live.set_seat(row)
            await self._timers.replan(live)
            return row.choices

    async def set_claim_answers(self, cause: Cause, table_id: int,
                                answers: AnswersGiven, *,
                                hand_number: int | None = None) -> dict[Tile, ClaimAnswer]:
        """The claims the seat answers in advance for the live hand ("pong 5m", "kong
        5m", "chi 5m with 3m4m", each perhaps naming the discard to follow: the whole
        set, one per tile, replacing the one before; empty clears it): each a claim the
        seat could make of its own tiles now (`_judge_answer`: two for a pong, three for
        a kong, else `bad_claim_answer`; a chi's two of a run with the tile, no 财神,
        else `bad_chi_answer`; a discard still held after the claim, else
        `bad_then_discard`), or nothing changes. An answer naming no discard keeps the
        discard the same claim named before (the menu of claims does not carry them).
        A claim window offering the seat exactly that claim (and no win) is then
        answered at once, never put to them (`live.advance_answer`); a window open for
        them now too. ``hand_number`` (the menu's): an earlier hand's is `stale_hand`.
        Returns the seat's answers now."""
        await self.seen(cause)
        async with self._tables.locked(table_id) as live:
            seat = need_seat(live, cause.user_id)
            hand = need_hand(live)
            if hand_number is not None and hand_number != live.hand_number:
                raise Refused(E.STALE_HAND, "that menu is from an earlier hand")
            before = answers_of(live, seat)
            wanted: dict[Tile, ClaimAnswer] = {}
            for tile, given in answers.items():
                answer = answer_of(given)
                _judge_answer(hand.state, seat, tile, answer)
                old = before.get(tile)
                if answer.then is None and old is not None and old.same_claim(answer) \
                        and _then_held(hand.state, seat, tile, old):
                    answer = old  # the discard it named is kept while still possible
                wanted[tile] = answer
            return await self._store_answers(live, seat, wanted)

    async def set_claim_discard(self, cause: Cause, table_id: int, tile: Tile,
                                then: Tile | None, *, hand_number: int | None = None
                                ) -> dict[Tile, ClaimAnswer]:
        """Name (``then``) or clear (None) the discard to follow the seat's claim of
        ``tile`` answered in advance ("pong 5m, then 9p"): played at once after that
        claim when still held and legal (`live.played_ahead`). A tile with no chi or
        pong answered, or a discard the seat would not hold after the claim, is
        `bad_then_discard`; ``hand_number`` as `set_claim_answers`. Returns the seat's
        answers now."""
        await self.seen(cause)
        async with self._tables.locked(table_id) as live:
            seat = need_seat(live, cause.user_id)
            hand = need_hand(live)
            if hand_number is not None and hand_number != live.hand_number:
                raise Refused(E.STALE_HAND, "that menu is from an earlier hand")
            wanted = dict(answers_of(live, seat))
            old = wanted.get(tile)
            if old is None or old.kind is ActionKind.KONG:
                raise Refused(E.BAD_THEN_DISCARD, "a discard is named after a chi or pong "
                              "answered in advance", tile=then or tile, claimed=tile)
            wanted[tile] = replace(old, then=then)
            _judge_answer(hand.state, seat, tile, wanted[tile])
            return await self._store_answers(live, seat, wanted)

    async def _store_answers(self, live: LiveTable, seat: int,
                             wanted: dict[Tile, ClaimAnswer]) -> dict[Tile, ClaimAnswer]:
        hand = live.hand
        assert hand is not None
        try:
            await self._store.claim_answers.replace(
                hand.row.id, seat,
                [(t.notation, _ANSWER_NAMES[a.kind],
                  "".join(x.notation for x in a.tiles) if a.kind is ActionKind.CHI else None,
                  a.then.notation if a.then is not None else None)
                 for t, a in wanted.items()], fence=live.fence)
        except HandEnded:  # another process ended it meanwhile (shared mode)
            live.stale = True
            raise Refused(E.STALE_HAND, "that hand is over") from None
        if wanted:
            hand.answers[seat] = wanted
        else:
            hand.answers.pop(seat, None)
        await self._timers.replan(live)
        return dict(wanted)

    async def set_next_discard(self, cause: Cause, table_id: int, tile: Tile | None, *,
                               hand_number: int | None = None, seat: int | None = None
                               ) -> Tile | None:
        """Choose (``tile``) or cancel (None) the seat's next discard in advance, while
        it is not the seat's turn: played at once at its next turn if the draw offers
        no win and no kong and the tile is still held (`played_ahead`). Private: nothing
        is published. ``hand_number`` and ``seat``, from the DM's menu, refuse a menu of
        an earlier hand (`stale_hand`) or of someone else's seat (`not_yours`,
        `wrong_seat`). A tile the seat does not hold is refused `not_held`, any change
        during its own turn `your_turn`. A change keeps the pre-move's "or my draw"
        (`set_next_or_draw`); a new one starts with it on. Returns the seat's next
        discard now."""
        await self.seen(cause)
        async with self._tables.locked(table_id) as live:
            hand, mine = self._premove_seat(live, cause, hand_number, seat)
            state = hand.state
            if tile is None:
                if mine in live.premoves:
                    await self._store.premoves.clear(hand.row.id, mine, fence=live.fence)
                    del live.premoves[mine]
                return None
            if tile not in state.seats[mine].hand:
                raise Refused(E.NOT_HELD, "you do not hold that tile", tile=tile)
            await self._store.premoves.set(hand.row.id, mine, tile.notation,
                                           at=self._clock.now(), fence=live.fence)
            before = live.premoves.get(mine)
            live.premoves[mine] = NextDiscard(tile, before is None or before.or_draw)
            return tile

    async def set_next_or_draw(self, cause: Cause, table_id: int, on: bool, *,
                               hand_number: int | None = None, seat: int | None = None
                               ) -> NextDiscard:
        """Switch "or my draw if it helps less" on or off for the seat's next discard
        chosen in advance: on, its turn plays whichever of the chosen tile and the drawn
        one the engine's advice keeps less (`played_ahead`); off, exactly the chosen
        tile. Private: nothing is published. Judged as `set_next_discard` is (``seat``,
        ``hand_number``: the DM's button; `your_turn`); a seat with no next discard
        chosen is refused `no_next_discard`. Returns the seat's next discard now."""
        await self.seen(cause)
        async with self._tables.locked(table_id) as live:
            hand, mine = self._premove_seat(live, cause, hand_number, seat)
            chosen = live.premoves.get(mine)
            if chosen is None:
                raise Refused(E.NO_NEXT_DISCARD, "you have no next discard chosen")
            if chosen.or_draw != on:
                try:
                    found = await self._store.premoves.set_or_draw(hand.row.id, mine, on,
                                                                   fence=live.fence)
                except HandEnded:  # another process ended it meanwhile (shared mode)
                    live.stale = True
                    raise Refused(E.STALE_HAND, "that hand is over") from None
                if not found:  # spent by another process meanwhile (shared mode)
                    live.stale = True
                    raise Refused(E.NO_NEXT_DISCARD, "you have no next discard chosen")
                chosen = live.premoves[mine] = NextDiscard(chosen.tile, on)
            return chosen

    @staticmethod
    def _premove_seat(live: LiveTable, cause: Cause, hand_number: int | None,
                      seat: int | None) -> tuple[LiveHand, int]:
        """The live hand and the seat whose pre-move ``cause``'s person changes, judged
        in its own place: their own seat (a menu of another's: `not_yours`,
        `wrong_seat`), this hand (`stale_hand`), not during their own turn
        (`your_turn`)."""
        hand = need_hand(live)
        mine = need_player(live, cause.user_id, seat) if seat is not None \
            else need_seat(live, cause.user_id)
        if seat is not None and seat != mine:
            raise Refused(E.WRONG_SEAT, f"you sit in seat {mine + 1}; that menu is for "
                                        f"seat {seat + 1}", seat=seat + 1,
                          name=live.names[seat])
        if hand_number is not None and hand_number != live.hand_number:
            raise Refused(E.STALE_HAND, "that menu is from an earlier hand")
        state = hand.state
        if state.phase is Phase.TURN and state.turn == mine:
            raise Refused(E.YOUR_TURN, "it is your turn now: play it from the move menu")
        return hand, mine

    async def back(self, cause: Cause, table_id: int) -> TableInfo:
        """An away player is back: their timers run again instead of the computer."""
        await self.seen(cause)
        async with self._tables.locked(table_id) as live:
            seat = need_seat(live, cause.user_id)
            await self._moves.mark_present(live, seat)
            await self._timers.replan(live)
            return info_of(live)

    async def act(self, cause: Cause, table_id: int, action: Action | Mapping[str, Any], *,
                  step: int | None = None, hand_number: int | None = None,
                  public_step: int | None = None) -> ActResult:
        """Play one of the seat's legal actions, for ``cause``'s person.

        Pressing a button of a seat held by someone else is refused: ``not_yours`` for
        someone who does not sit at the table, ``wrong_seat`` for a player of another
        seat. ``public_step`` (and ``hand_number``), from the button, make a click for
        an earlier decision stale: refused, nothing changed. A duplicate click is such a
        click. ``step`` does the same in the hand's seq numbering (`step_of`): what
        buttons made before steps were public carry.
        """
        await self.seen(cause)
        async with self._tables.locked(table_id, trusting=True) as live:
            judged = 1
            while True:
                try:
                    return await self._act(live, cause, action, step, hand_number,
                                           public_step)
                except Refused as exc:
                    # shared mode: another process's move landed first, or memory
                    # judged the click without a fresh read and is behind; either way
                    # it is judged again against what is stored (`judge_again`)
                    if judged >= JUDGED or \
                            not await self._process.judge_again(self._tables, live, exc):
                        raise  # one process, or memory was current: the refusal stands
                    if self._tables.loaded.get(table_id) is not live:  # over meanwhile
                        await self._tables.get(table_id)  # say how
                        raise
                    judged += 1

    async def _act(self, live: LiveTable, cause: Cause, action: Action | Mapping[str, Any],
                   step: int | None, hand_number: int | None, public_step: int | None
                   ) -> ActResult:
        hand = need_hand(live)
        move = parse_action(action)
        seat = need_player(live, cause.user_id, move.seat)
        if move.seat != seat:
            raise Refused(E.WRONG_SEAT, f"you sit in seat {seat + 1}; that move is for "
                                        f"seat {move.seat + 1}", seat=move.seat + 1,
                          name=live.names[move.seat])
        if hand_number is not None and hand_number != live.hand_number:
            raise Refused(E.STALE_HAND, "that button is from an earlier hand")
        passed = (step is not None and step != step_of(hand.state, seat)) or \
            (public_step is not None and public_step != public_step_of(hand.state, seat))
        if passed:
            raise Refused(E.STALE, "that button is for a decision that has passed")
        return await self._moves.commit(live, move, "player", cause)

    async def seen(self, cause: Cause) -> None:
        """Any interaction, even one that changes nothing: remember the person's
        language (`Languages.seen`)."""
        await self._languages.seen(cause)
