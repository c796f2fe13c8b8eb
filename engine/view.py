"""What a seat (or a spectator) may see of a hand: the only input pictures and messages
need. Nothing here ever holds another seat's concealed tiles.

A concealed kong shows its four tiles to its owner and four backs (None) to everyone
else; a seat's concealed tiles appear only as a count outside its own `PlayerView`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine.game.actions import Action
from engine.melds import MeldKind
from engine.tiles import Tile

SEAT_WINDS = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)


def seat_wind(seat: int, dealer: int) -> Tile:
    """The dealer sits East; winds follow the turn order."""
    return SEAT_WINDS[(seat - dealer) % 4]


@dataclass(frozen=True)
class DiscardView:
    tile: Tile
    claimed_by: int | None = None
    """The seat that claimed this discard into a meld (drawn marked in the river)."""


@dataclass(frozen=True)
class MeldView:
    kind: MeldKind
    tiles: tuple[Tile | None, ...]
    """Physical tiles; None is a tile shown face down (a concealed kong to others)."""
    from_seat: int | None = None
    claimed: Tile | None = None
    """The claimed tile: drawn sideways, pointing at ``from_seat``."""


@dataclass(frozen=True)
class SeatView:
    seat: int
    wind: Tile
    dealer: bool
    concealed_count: int
    """Tiles in the hand, the drawn tile included: drawn as backs to others."""
    has_drawn: bool
    discards: tuple[DiscardView, ...] = ()
    melds: tuple[MeldView, ...] = ()
    flowers: tuple[Tile, ...] = ()


@dataclass(frozen=True)
class PaymentView:
    seat: int
    amount: Fraction
    """Signed: positive for the winner."""


@dataclass(frozen=True)
class PatternView:
    id: str
    zh: str
    en: str
    value: str
    """The value as the rules page writes it: "1 喇", "1 番", "×2"."""


@dataclass(frozen=True)
class SettlementView:
    """One win's settlement as players see it at the end of the hand."""

    winner: int
    win: str
    """"self_draw", "discard" or "rob_kong"."""
    from_seat: int | None
    concealed: tuple[Tile, ...]
    """The winning hand's concealed tiles before the winning tile, sorted."""
    win_tile: Tile | None
    melds: tuple[MeldView, ...]
    flowers: tuple[Tile, ...]
    patterns: tuple[PatternView, ...]
    value: int
    """Shanghai H in 花; Hangzhou the multiplier F."""
    value_unit: str
    """"花" or "×"."""
    payments: tuple[Fraction, ...]
    liability: str | None
    breakdown: tuple[str, ...]


@dataclass(frozen=True)
class ResultView:
    """How a hand ended: its wins (none for a drawn hand) and the net payments."""

    settlements: tuple[SettlementView, ...]
    payments: tuple[Fraction, ...]

    @property
    def drawn(self) -> bool:
        return not self.settlements


@dataclass(frozen=True)
class TableView:
    """The public table: what a spectator sees."""

    rules: str
    hand_number: int
    dealer: int
    streak: int
    """Hangzhou 老庄 (1–3); 1 in Shanghai."""
    huangfan: bool
    """Shanghai: a 荒番 hand."""
    dice: tuple[int, int]
    wall_left: int
    """Tiles left to draw."""
    caishen: Tile | None
    """The wild kind this hand (Hangzhou), else None."""
    turned: Tile | None
    """Hangzhou flip mode: the tile turned and set aside."""
    seats: tuple[SeatView, ...]
    phase: str
    """"turn", "claim", "rob_kong" or "ended"."""
    turn: int
    """Whose turn it is (the discarder while a claim window is open)."""
    deciding: tuple[int, ...]
    """Seats whose decision is awaited now."""
    last_discard: tuple[int, int] | None = None
    """(seat, index in that seat's discards) of the discard now in play or last made."""
    result: ResultView | None = None


@dataclass(frozen=True)
class MoveView:
    """One legal move, with what it leads to."""

    action: Action
    label: str
    """Short bilingual label, e.g. "碰 Pong 5m"."""
    waits: frozenset[Tile] = frozenset()
    """For a discard: the tiles the hand would then wait on."""
    value: int | None = None
    """For a win: what it scores (H or F)."""


@dataclass(frozen=True)
class PlayerView:
    """All one seat may see: the table plus its own concealed tiles and moves."""

    table: TableView
    seat: int
    concealed: tuple[Tile, ...]
    """Sorted, without the drawn tile."""
    drawn: Tile | None
    moves: tuple[MoveView, ...]
    waits: frozenset[Tile] = frozenset()
    """With 13 tiles (a kong counting 3): the tiles that would complete the hand."""
    shanten: int = 8
    suggested: Tile | None = None
    """The discard the computer player would make, when a discard is due."""

    @property
    def me(self) -> SeatView:
        return self.table.seats[self.seat]
