"""`Queries`: what anyone may read of tables, changing nothing (but the language
`hand` remembers): a table's info, the channel's tables, the table a command means,
one seat's hand (private), what waits for a person (private), the public picture's
input, the last hand's history and the leaderboard."""

from __future__ import annotations

from dataclasses import replace

from bot.service import errors as E
from bot.service.cause import Cause, Place
from bot.service.errors import Refused
from bot.service.guards import need_hand, need_seat
from bot.service.hand_log import hand_log
from bot.service.languages import Languages
from bot.service.live import (
    LiveTable,
    answers_of,
    bank_left,
    deadline_of,
    empty_seats,
    info_of,
    match_totals,
    options_of,
    step_of,
)
from bot.service.notices import TableInfo, TableRef, WaitingMove, public_events
from bot.service.results import HandHistory, HandInfo, HistoryPart, Standings, TablePicture
from bot.service.steps import public_step_of
from bot.service.tables import LiveTables
from bot.store import Store, Waiting
from engine.game import Action, apply
from engine.refusals import Code, Refusal, echo
from engine.rules import DEFAULT, RULESETS
from engine.rules.common import SEATS
from engine.view import spectator_view, view

MAX_TABLE_ID = 2**63 - 1
"""The largest id a table can have: the store's integer columns (SQLite's INTEGER,
PostgreSQL's BIGINT) hold no more."""


class Queries:
    """Reads: table info, hands, pictures, history, standings."""

    def __init__(self, store: Store, tables: LiveTables, languages: Languages) -> None:
        self._store = store
        self._tables = tables
        self._languages = languages

    async def table_info(self, table_id: int) -> TableInfo:
        try:
            live = await self._tables.read(table_id)
        except Refused:
            return await self._stored_info(table_id)
        return info_of(live)

    async def _stored_info(self, table_id: int) -> TableInfo:
        """A table no longer in play (finished or cancelled), as the store has it."""
        row = await self._store.lobby.get_table(table_id)
        if row is None:
            raise Refused(E.NO_TABLE, "there is no such table")
        seats = empty_seats()
        for s in await self._store.lobby.seats(table_id):
            seats[s.seat] = s
        info = replace(info_of(LiveTable(row, seats)), hands_in_match=options_of(row).hands)
        matches = await self._store.matches.of_table(table_id)
        if not matches:
            return info
        match = matches[-1]
        # A settled hand has a settlement row per seat (a drawn one too); a hand voided
        # by cancelling has none and was not played.
        settled = await self._store.endings.match_settlements(match.id)
        if match.totals is not None:
            totals = tuple(match.totals[s] for s in range(SEATS))
        else:  # an abandoned match keeps no totals: its settled hands and penalties
            totals = match_totals(settled, await self._store.matches.penalty_totals(match.id))
        return replace(info, hands_played=len({s.hand_id for s in settled}), totals=totals)

    async def tables_in_channel(self, channel_id: int, *, live_only: bool = True
                                ) -> list[TableInfo]:
        rows = await self._store.lobby.tables_in_channel(channel_id, live_only=live_only)
        return [await self.table_info(r.id) for r in rows]

    async def find_table(self, cause: Cause, given: int | None = None, *,
                         decision: bool = False) -> int:
        """The table a request means, judged where it was made (``cause.place``):
        ``given`` when it is a table of that channel, else the channel's live table (the
        person's own first when there are several), else the channel's last table.
        ``decision``: a decision's buttons (a move, a standing choice, "I'm back"), also
        honoured in the private messages of a person seated at ``given``.

        Any other table, of another channel or server, is refused exactly as one that
        does not exist (`no_table`): a request never reaches, nor tells of, a table
        that is not its place's (nor one no table id can be: a database integer holds
        no more than `MAX_TABLE_ID`)."""
        place = cause.place
        if place is None:
            raise ValueError("a table is found from where it was asked: the cause has no place")
        if given is not None:
            if not 1 <= given <= MAX_TABLE_ID or \
                    not await self._placed(given, cause, place, decision):
                raise Refused(E.NO_TABLE, "there is no such table here")
            return given
        tables = [] if place.private else await self.tables_in_channel(place.channel_id)
        if not tables and not place.private:
            tables = (await self.tables_in_channel(place.channel_id, live_only=False))[-1:]
        if not tables:
            raise Refused(E.NO_TABLE, "there is no table in this channel; open one with "
                                      "/mahjong new")
        mine = [x for x in tables
                if any(s is not None and s.user_id == cause.user_id for s in x.seats)]
        return (mine or tables)[-1].ref.table_id

    async def _placed(self, table_id: int, cause: Cause, place: Place, decision: bool
                      ) -> bool:
        """Whether ``table_id`` is a table of ``place``: of its channel, or for a
        decision in private messages one where the person sits. A live table's server
        and channel never change, so memory answers (a seat, in shared mode, only when
        it says yes: another process may have seated the person since)."""
        live = self._tables.loaded.get(table_id)
        if place.guild_id is not None:
            if live is not None:
                return live.row.guild_id == place.guild_id and \
                    live.row.channel_id == place.channel_id
            return await self._store.lobby.table_at(table_id, guild_id=place.guild_id,
                                             channel_id=place.channel_id) is not None
        if not decision:  # a table's public buttons are its channel's alone
            return False
        if live is not None and live.seat_of(cause.user_id) is not None:
            return True
        return await self._store.lobby.seat_of(table_id, cause.user_id) is not None

    async def hand(self, cause: Cause, table_id: int) -> HandInfo:
        """The person's own hand, for `/mahjong hand` (private)."""
        await self._languages.seen(cause)
        async with self._tables.locked(table_id) as live:
            hand = need_hand(live)
            seat = need_seat(live, cause.user_id)
            pending = live.pending.get(seat)
            row = live.seats[seat]
            assert row is not None
            return HandInfo(table_id, seat, live.hand_number,
                            view(hand.state, seat, live.hand_number),
                            step_of(hand.state, seat), deadline_of(pending),
                            live.names, row.choices, row.away, hand.state.seq,
                            public_step_of(hand.state, seat), live.premoves.get(seat),
                            tuple(sorted(answers_of(live, seat).items())),
                            bank_left(live, seat, hand.state.options)
                            if hand.state.options.time_bank > 0 else None)

    async def turns(self, cause: Cause) -> tuple[WaitingMove, ...]:
        """What waits for the person asking, at every table of every server they sit at
        (`/mahjong turns`, private wherever it is asked): their turns and claim
        decisions, the soonest deadline first. Nothing of any other seat."""
        await self._languages.seen(cause)
        return await self.waiting_for(cause.user_id)

    async def waiting_for(self, user_id: int) -> tuple[WaitingMove, ...]:
        """The decisions waiting for ``user_id``, as the store has them (in shared mode
        too: fresher than any process's memory), the soonest deadline first."""
        return tuple(waiting_move(w) for w in await self._store.deadlines.waiting_for(user_id))

    async def table_picture(self, table_id: int) -> TablePicture:
        """The public table picture's input: the table and the spectator view."""
        live = await self._tables.read(table_id)
        hand = need_hand(live)
        return TablePicture(info_of(live), spectator_view(hand.state, live.hand_number))

    async def hand_history(self, table_id: int) -> HandHistory | None:
        """The last finished hand, replayed from its wall and log (None: none yet).

        Public whoever asks: the events are the channel's (`public_events`: nothing
        private to a seat, a concealed kong without its tiles); the wall itself is public
        once the hand is over.
        """
        row = await self._store.lobby.get_table(table_id)
        if row is None:
            raise Refused(E.NO_TABLE, "there is no such table")
        hand = await self._store.hands.last_ended(table_id)
        if hand is None:
            return None
        log = await hand_log(self._store, self.table_info, row, hand)
        state, events = log.deal()
        # Each action told by who made it (`HandLog.names_at`): a new run of events
        # where a person who left the hand gave the seat to the computer.
        names = log.names_at(0)
        parts: list[HistoryPart] = []
        told = list(events)
        for action in log.actions:
            now = log.names_at(action.seq)
            if now != names:
                parts.append(HistoryPart(names, public_events(told)))
                told, names = [], now
            state, events = apply(state, Action.from_json(action.payload))
            told += events
        parts.append(HistoryPart(names, public_events(told)))
        return HandHistory(table_id, hand.number, tuple(p for p in parts if p.events)
                           or tuple(parts[-1:]), hand.wall, hand.salt)

    async def leaderboard(self, channel_id: int, rules: str | None = None, *,
                          limit: int = 10) -> Standings:
        """The channel's standings of ``rules``; without it, of the rule set the channel
        played last among those it has standings in (else its last table's, else the
        default), so a board never adds up two rule sets' units."""
        if rules is not None and rules not in RULESETS:
            raise Refused(E.BAD_OPTIONS, f"there are no rules named {rules!r}",
                          refusal=Refusal.of(Code.UNKNOWN_RULES, name=echo(rules),
                                             choices=tuple(RULESETS)))
        kept = await self._store.leaderboard.rules(channel_id)
        if rules is None:
            tables = await self._store.lobby.tables_in_channel(channel_id, live_only=False)
            rules = kept[0] if kept else tables[-1].rules if tables else DEFAULT.name
        rows = await self._store.leaderboard.top(channel_id, rules, limit=limit)
        return Standings(rules, tuple(rows), tuple(r for r in kept if r != rules))


def waiting_move(waiting: Waiting) -> WaitingMove:
    """A stored waiting decision as the service tells it."""
    row = waiting.table
    return WaitingMove(TableRef(row.id, row.guild_id, row.channel_id, row.creator_id),
                       row.rules, waiting.hand_number, options_of(row).hands, waiting.kind,
                       waiting.due_at, row.table_message_id)
