"""Who may do what: the checks a command makes on a live table before it changes
anything. Each raises `Refused` with its code (errors.py) and the values its sentence
needs."""

from __future__ import annotations

from bot.service import errors as E
from bot.service.cause import Cause
from bot.service.errors import Refused
from bot.service.live import LiveHand, LiveTable
from engine.rules.common import SEATS


def need_name(name: str) -> None:
    """A seat shows its person's name: one the seats can hold. Not empty, and no NUL
    character (PostgreSQL's text holds none; SQLite's length() stops at it)."""
    if not name or "\x00" in name:
        raise Refused(E.BAD_NAME, "a seat needs a name it can show: yours is empty or "
                                  "holds a NUL character")


def need_lobby(live: LiveTable) -> None:
    if live.row.status != "lobby":
        raise Refused(E.NOT_IN_LOBBY, "the table has already started")


def need_hand(live: LiveTable) -> LiveHand:
    if live.row.status != "playing" or live.hand is None:
        raise Refused(E.NOT_PLAYING, "no hand is being played at this table")
    return live.hand


def need_seat(live: LiveTable, user_id: int) -> int:
    seat = live.seat_of(user_id)
    if seat is None:
        raise Refused(E.NOT_SEATED, "you do not sit at this table")
    return seat


def need_player(live: LiveTable, user_id: int, seat: int) -> int:
    """The presser's seat; a stranger pressing a person's button is told whose it is."""
    mine = live.seat_of(user_id)
    if mine is not None:
        return mine
    row = live.seats[seat] if 0 <= seat < SEATS else None
    if row is not None and not row.is_computer:
        raise Refused(E.NOT_YOURS, "that button is for another player; you do not sit "
                                   "at this table", seat=seat + 1, name=live.names[seat])
    raise Refused(E.NOT_SEATED, "you do not sit at this table")


def need_member(live: LiveTable, cause: Cause) -> None:
    user_id = cause.user_id
    if not cause.manages(live.row.guild_id) and user_id != live.row.creator_id \
            and live.seat_of(user_id) is None:
        raise Refused(E.NOT_MEMBER, "only players at this table, its creator or a server "
                                    "manager can do that")


def free_seat(live: LiveTable, seat: int | None) -> int:
    if seat is None:
        free = [i for i, s in enumerate(live.seats) if s is None]
        if not free:
            raise Refused(E.TABLE_FULL, "the table is full")
        return free[0]
    if not 0 <= seat < SEATS:
        raise Refused(E.NO_SUCH_SEAT, "seats are numbered 1 to 4")
    if live.seats[seat] is not None:
        raise Refused(E.SEAT_TAKEN, f"seat {seat + 1} is taken")
    return seat
