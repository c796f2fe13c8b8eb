"""The public table: the picture the channel sees.

Four seats around a felt centre, the viewer's seat (`bottom_seat`) at the bottom and
the others in turn order counter-clockwise (lower player right, opposite top, upper
player left), as they sit. Around a centre box (winds, dice, tiles left, 财神) lie
the four rivers, discards in rows of six in the order played; at the edges each
seat's panel: name plate, concealed tiles as backs with a count, melds and flowers.

Tiles stay upright everywhere, even for the side seats: on a phone a sideways glyph
is much harder to read than a slightly less literal table.

The only input is a `TableView`, which holds no concealed tile; concealed kongs are
drawn face down whatever their tiles say, so nothing private can leak from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from PIL import Image, ImageDraw

from engine.melds import MeldKind
from engine.rules import label as rules_label
from engine.tiles import Tile
from engine.view import MeldView, OpenView, SeatView, TableView
from render.draw import (
    GOLD,
    HIGHLIGHT,
    MELD_GAP,
    MUTED,
    PANEL,
    PANEL_LINE,
    WHITE,
    cloth,
    dim_tile,
    draw_meld,
    draw_text,
    fit,
    meld_size,
    melds_width,
    outline_tile,
    paste_tile,
    png,
)
from render.encode import palette_png
from render.pieces import Part, Pieces
from render.tiles import tile_size

W = 1200
TILE_W = 40  # discards and melds
FLOWER_W = 26
CENTRE_TILE_W = 30
RIVER_COLS = 6
RIVER_ROWS = 4  # reserved; a fifth row spills outwards
EDGE_H = 124  # the top and bottom seat panels
BOX = 256  # the centre box
GAP = 12
PAD = 20
SIDE_PAD = 16
WINDS = "東南西北"
DEALER_RED = (230, 70, 60)

Box = tuple[int, int, int, int]

_TW, _TH = tile_size(TILE_W)
RIVER_W = RIVER_COLS * (_TW + 1) - 1
ROW_PITCH = _TH + 2
CENTRE_W = 2 * (RIVER_W + GAP) + BOX


@dataclass
class TableLayout:
    """Every seat's regions on the canvas; the tests read `concealed` back."""

    positions: dict[int, str]
    """seat -> "bottom", "right", "top" or "left"."""
    panels: dict[int, Box] = field(default_factory=dict)
    rivers: dict[int, Box] = field(default_factory=dict)
    concealed: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    """Where each seat's face-down tiles were pasted (top-left corners)."""
    open: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    """Where each open hand's tiles were pasted face up (a replay: `render_open_table`)."""
    extents: dict[int, Box] = field(default_factory=dict)
    """The box each seat's panel contents actually covered."""
    centre: Box = (0, 0, 0, 0)
    size: tuple[int, int] = (W, 0)


PIECES = Pieces()
"""The centres, rivers and panels drawn lately, in the shared palette (`render.pieces`)."""


def table_image(view: TableView, names: Sequence[str], bottom_seat: int = 0) -> bytes:
    """The PNG of the public table as seen from `bottom_seat`: put together from the
    pieces that did not change since they were last drawn (`render.pieces`), exactly
    the pixels of `render_table` in the shared palette."""
    if not isinstance(view, TableView):  # a PlayerView would carry a concealed hand
        raise TypeError(f"the table picture takes a TableView, not {type(view).__name__}")
    layout = _layout(view, bottom_seat)
    picture = PIECES.assemble(layout.size, _parts(view, names, layout))
    if picture is None:
        return png(render_table(view, names, bottom_seat)[0], shared=True)
    return palette_png(picture)


def _parts(view: TableView, names: Sequence[str], layout: TableLayout) -> list[Part]:
    """The pieces of `render_table`, in its order, each keyed by everything it shows."""
    parts = [Part(_centre_key(view, names, layout), layout.centre,
                  partial(_centre, view=view, layout=layout, names=names))]
    winds = tuple(s.wind for s in view.seats)
    for seat in view.seats:
        name = _name(names, seat.seat)
        pos = layout.positions[seat.seat]
        last = view.last_discard
        river = ("river", pos, seat.seat, seat.discards, view.caishen, winds,
                 last[1] if last is not None and last[0] == seat.seat else None)
        parts.append(Part(river, layout.rivers[seat.seat],
                          partial(_river, view=view, seat=seat, layout=layout)))
        panel = ("panel", pos, replace(seat, discards=()), name, seat.seat in view.deciding,
                 view.phase, view.streak, view.caishen)
        parts.append(Part(panel, layout.panels[seat.seat],
                          partial(_panel, view=view, seat=seat, name=name, layout=layout)))
    return parts


def _centre_key(view: TableView, names: Sequence[str], layout: TableLayout) -> tuple[object, ...]:
    """Everything `_centre` shows (its winds read each seat's place, wind and dealer)."""
    seats = tuple((s.seat, layout.positions[s.seat], s.wind, s.dealer) for s in view.seats)
    return ("centre", view.rules, view.hand_number, view.dice, view.wall_left, view.caishen,
            view.turned, _status(view, names), view.deciding, seats)


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else f"Seat {seat + 1}"


def render_table(view: TableView, names: Sequence[str], bottom_seat: int = 0
                 ) -> tuple[Image.Image, TableLayout]:
    """`table_image` as a Pillow image, with where things went (for tests)."""
    if not isinstance(view, TableView):  # a PlayerView would carry a concealed hand
        raise TypeError(f"the table picture takes a TableView, not {type(view).__name__}")
    return _render(view, names, bottom_seat, {})


OpenHand = tuple[tuple[Tile, ...], Tile | None]
"""A hand drawn face up: its concealed tiles and its drawn tile apart."""


def render_open_table(view: OpenView, names: Sequence[str], bottom_seat: int = 0
                      ) -> tuple[Image.Image, TableLayout]:
    """A finished hand's replay frame: the table as `render_table` draws it, with the
    hands ``view`` shows face up in their seats' panels (and those seats' concealed kongs
    as their owner sees them); the others as the public saw them."""
    if not isinstance(view, OpenView):
        raise TypeError(f"the open table takes an OpenView, not {type(view).__name__}")
    hands = {seat: (hand, view.drawn[seat]) for seat, hand in enumerate(view.hands)
             if hand is not None}
    return _render(view.table, names, bottom_seat, hands)


def open_table_image(view: OpenView, names: Sequence[str], bottom_seat: int = 0) -> bytes:
    """The PNG of `render_open_table`."""
    return png(render_open_table(view, names, bottom_seat)[0])


def _render(view: TableView, names: Sequence[str], bottom_seat: int,
            hands: dict[int, OpenHand]) -> tuple[Image.Image, TableLayout]:
    layout = _layout(view, bottom_seat)
    canvas = cloth(layout.size)
    draw = ImageDraw.Draw(canvas)
    _centre(canvas, draw, view, layout, names)
    for seat in view.seats:
        name = _name(names, seat.seat)
        _river(canvas, draw, view, seat, layout)
        _panel(canvas, draw, view, seat, name, layout, hands.get(seat.seat))
    return canvas, layout


def _layout(view: TableView, bottom_seat: int) -> TableLayout:
    order = ("bottom", "right", "top", "left")  # turn order runs counter-clockwise
    layout = TableLayout({s.seat: order[(s.seat - bottom_seat) % 4] for s in view.seats})
    # Four rows are reserved for every river; a longer one makes the picture taller
    # rather than running into a seat's panel.
    rows = max([RIVER_ROWS, *(-(-len(s.discards) // RIVER_COLS) for s in view.seats)])
    river_h = rows * ROW_PITCH
    h = 2 * EDGE_H + 2 * (river_h + GAP) + BOX
    layout.size = (W, h)
    cx0 = (W - CENTRE_W) // 2
    box_x, box_y = cx0 + RIVER_W + GAP, EDGE_H + river_h + GAP
    layout.centre = (box_x, box_y, box_x + BOX, box_y + BOX)
    mid_y = box_y + BOX // 2
    rivers = {
        "bottom": (box_x + (BOX - RIVER_W) // 2, box_y + BOX + GAP),
        "top": (box_x + (BOX - RIVER_W) // 2, box_y - GAP - river_h),
        "left": (cx0, mid_y - river_h // 2),
        "right": (box_x + BOX + GAP, mid_y - river_h // 2),
    }
    panels = {
        "bottom": (0, h - EDGE_H, W, h),
        "top": (0, 0, W, EDGE_H),
        "left": (0, EDGE_H, cx0 - GAP // 2, h - EDGE_H),
        "right": (W - cx0 + GAP // 2, EDGE_H, W, h - EDGE_H),
    }
    for seat, pos in layout.positions.items():
        x, y = rivers[pos]
        layout.rivers[seat] = (x, y, x + RIVER_W, y + river_h)
        layout.panels[seat] = panels[pos]
    return layout


# --- the centre -------------------------------------------------------------------


def _centre(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: TableView,
            layout: TableLayout, names: Sequence[str]) -> None:
    x0, y0, x1, _ = layout.centre
    draw.rounded_rectangle(layout.centre, radius=18, fill=(18, 52, 36), outline=PANEL_LINE,
                           width=2)
    _winds(draw, view, layout)
    cx = (x0 + x1) // 2
    draw_text(draw, (cx, y0 + 38), f"{rules_label(view.rules)} · 第{view.hand_number}局",
              17, MUTED, anchor="ma")
    _dice(draw, view.dice, (cx - 37, y0 + 60), 30)
    end = draw_text(draw, (cx - 50, y0 + 96), f"剩 {view.wall_left}", 28, WHITE)
    draw_text(draw, (end + 6, y0 + 108), "left", 16, MUTED)
    shown = _centre_tiles(canvas, draw, view, (cx, y0 + 134))
    status = fit(_status(view, names), 16, BOX - 24)
    if status:
        draw_text(draw, (cx, y0 + (196 if shown else 150)), status, 16, HIGHLIGHT, anchor="ma")


def _status(view: TableView, names: Sequence[str]) -> str:
    if view.result is not None:
        if view.result.drawn:
            return "流局 Drawn hand"
        winners = [s.winner for s in view.result.settlements]
        return "胡 " + ", ".join(names[w] if w < len(names) else f"Seat {w + 1}"
                                for w in winners)
    if view.huangfan:
        return "荒番 Dead-hand round"  # the multiplier is a table option: the text says it
    return ""


def _centre_tiles(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: TableView,
                  top: tuple[int, int]) -> bool:
    """The 财神 kind and, in flip mode, the turned tile, side by side, labelled below."""
    if view.turned is not None and view.turned == view.caishen:  # flip mode: one tile
        items = [(view.turned, "翻财神 turned wild")]
    else:
        items = [(t, label) for t, label in ((view.caishen, "财神 wild"),
                                              (view.turned, "翻 turned")) if t is not None]
    if not items:
        return False
    cx, y = top
    w, h = tile_size(CENTRE_TILE_W)
    step = 90
    x = cx - step * (len(items) - 1) // 2
    for tile, label in items:
        paste_tile(canvas, tile, (x - w // 2, y), CENTRE_TILE_W, caishen=view.caishen)
        draw_text(draw, (x, y + h + 3), label, 14, GOLD if tile == view.caishen else MUTED,
                  anchor="ma")
        x += step
    return True


_PIPS = {1: [(0.5, 0.5)], 2: [(0.28, 0.28), (0.72, 0.72)],
         3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
         4: [(0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)],
         5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
         6: [(x, y) for y in (0.22, 0.5, 0.78) for x in (0.3, 0.7)]}


def _dice(draw: ImageDraw.ImageDraw, dice: tuple[int, int], xy: tuple[int, int],
          size: int) -> None:
    """Two dice with pips; the 1 and 4 pips red, as on Chinese dice."""
    x, y = xy
    for value in dice:
        draw.rounded_rectangle((x, y, x + size, y + size), radius=6, fill=(250, 248, 240),
                               outline=(170, 160, 140), width=1)
        r = size * (0.13 if value == 1 else 0.085)
        colour = (205, 30, 40) if value in (1, 4) else (30, 30, 40)
        for fx, fy in _PIPS.get(value, []):
            px, py = x + fx * size, y + fy * size
            draw.ellipse((px - r, py - r, px + r, py + r), fill=colour)
        x += size + 12


def _winds(draw: ImageDraw.ImageDraw, view: TableView, layout: TableLayout) -> None:
    """Each seat's wind on the centre box's edge facing it; whose decision it is glows."""
    x0, y0, x1, y1 = layout.centre
    anchors = {"bottom": ((x0 + x1) // 2, y1 - 4, "ms"), "top": ((x0 + x1) // 2, y0 + 4, "ma")}
    for seat in view.seats:
        pos = layout.positions[seat.seat]
        deciding = seat.seat in view.deciding
        bar = {"bottom": (x0 + 60, y1 - 5, x1 - 60, y1 - 1),
               "top": (x0 + 60, y0 + 1, x1 - 60, y0 + 5),
               "left": (x0 + 1, y0 + 60, x0 + 5, y1 - 60),
               "right": (x1 - 5, y0 + 60, x1 - 1, y1 - 60)}[pos]
        if deciding:
            draw.rounded_rectangle(bar, radius=2, fill=HIGHLIGHT)
        colour = DEALER_RED if seat.dealer else (HIGHLIGHT if deciding else WHITE)
        wind = WINDS[seat.wind.rank - 1]
        if pos in anchors:
            ax, ay, anchor = anchors[pos]
            ay += -6 if pos == "bottom" else 6
        else:
            ax = x0 + 26 if pos == "left" else x1 - 26
            ay, anchor = (y0 + y1) // 2, "mm"
        draw_text(draw, (ax, ay), wind, 22, colour, anchor=anchor)


# --- rivers -----------------------------------------------------------------------


def _river(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: TableView, seat: SeatView,
           layout: TableLayout) -> None:
    """Discards in rows of six, in order; rows grow away from the centre box."""
    x0, y0, _, y1 = layout.rivers[seat.seat]
    pos = layout.positions[seat.seat]
    rows = max(1, -(-len(seat.discards) // RIVER_COLS))
    if pos == "top":  # sit against the centre box, spilling upwards when long
        y0 = y1 - rows * ROW_PITCH
    last = view.last_discard
    for i, discard in enumerate(seat.discards):
        x = x0 + (i % RIVER_COLS) * (_TW + 1)
        y = y0 + (i // RIVER_COLS) * ROW_PITCH
        paste_tile(canvas, discard.tile, (x, y), TILE_W, caishen=view.caishen)
        if discard.claimed_by is not None:
            dim_tile(canvas, (x, y), TILE_W)
            _claim_badge(draw, view, discard.claimed_by, (x + _TW - 2, y + _TH - 4))
        if last == (seat.seat, i):
            outline_tile(canvas, (x, y), (_TW, _TH), HIGHLIGHT, line=3, pad=2)


def _claim_badge(draw: ImageDraw.ImageDraw, view: TableView, claimer: int,
                 xy: tuple[int, int]) -> None:
    """A small disc with the claimer's wind: who took this discard into a meld."""
    x, y = xy
    r = 11
    draw.ellipse((x - r, y - r, x + r, y + r), fill=(60, 60, 70), outline=WHITE, width=1)
    wind = view.seats[claimer].wind if claimer < len(view.seats) else None
    draw_text(draw, (x, y + 1), WINDS[wind.rank - 1] if wind is not None else "?", 14, WHITE,
              anchor="mm")


# --- seat panels ------------------------------------------------------------------


def _panel(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: TableView, seat: SeatView,
           name: str, layout: TableLayout, hand: OpenHand | None = None) -> None:
    """A seat's panel; ``hand``: its concealed tiles face up (a replay), else backs."""
    x0, y0, x1, _ = layout.panels[seat.seat]
    vertical = layout.positions[seat.seat] in ("left", "right")
    pad = SIDE_PAD if vertical else PAD
    plate_w = (x1 - x0 - 2 * pad) if vertical else 230
    plate_h = plate_height(view, seat)
    _plate(draw, view, seat, name, (x0 + pad, y0 + pad, x0 + pad + plate_w, y0 + pad + plate_h))
    if vertical:
        x, y = x0 + pad, y0 + pad + plate_h + 12
        if hand is not None:
            y = _open_grid(canvas, view, seat, hand, (x, y), x1 - pad, layout) + 12
        else:
            y = _hidden(canvas, draw, seat, (x, y + _TH), layout, base=True) + 12
        right = x
        for meld in seat.melds:
            w, h = meld_size(meld, seat.seat, TILE_W, public=True)
            _meld(canvas, view, seat, meld, (x, y + h), TILE_W, shown=hand is not None)
            right = max(right, x + w)
            y += h + 10
        end = _flowers(canvas, seat.flowers, (x, y + 4))
        layout.extents[seat.seat] = (x0 + pad, y0 + pad, max(right, end[0]), end[1])
    else:
        # Tiles stand on one baseline near the panel's edge; stacked kong tiles rise
        # into the room above it.
        base = y0 + EDGE_H - 20
        start = (x0 + PAD + plate_w + 18, base)
        x = (_open_row(canvas, view, seat, hand, start, layout) if hand is not None
             else _hidden(canvas, draw, seat, start, layout)) + 22
        flowers_w = (min(4, len(seat.flowers)) * (FLOWER_W + 1) + 8) if seat.flowers else 0
        width = _meld_width(seat, x1 - PAD - x - flowers_w)
        for meld in seat.melds:
            x += _meld(canvas, view, seat, meld, (x, base), width,
                       shown=hand is not None) + MELD_GAP
        end = _flowers(canvas, seat.flowers, (x + 8 - (MELD_GAP if seat.melds else 0),
                                              y0 + PAD))
        layout.extents[seat.seat] = (x0 + PAD, y0 + PAD, max(x - MELD_GAP, end[0]), base)


def _meld_width(seat: SeatView, room: int) -> int:
    """The largest meld tile width (down to 28 px) at which a seat's melds fit in `room`:
    only four kongs and flowers together need less than the usual 40."""
    for width in (TILE_W, 36, 32, 28):
        if melds_width(seat.melds, seat.seat, width, public=True) <= room:
            return width
    return 28


def _meld(canvas: Image.Image, view: TableView, seat: SeatView, meld: MeldView,
          xy: tuple[int, int], width: int, *, shown: bool = False) -> int:
    """``shown``: an open hand's seat (a replay) lays its concealed kongs as their owner
    does; otherwise they are four backs whatever the view says."""
    if meld.kind is MeldKind.CONCEALED_KONG and not shown:
        meld = MeldView(meld.kind, (None,) * 4)  # never a face, whatever the view says
    return draw_meld(canvas, meld, seat.seat, xy, width, public=not shown,
                     caishen=view.caishen)


def _plate_lines(view: TableView, seat: SeatView) -> list[tuple[str, tuple[int, int, int]]]:
    """The plate's lines under the name: wind and dealer, streak, what the seat is doing."""
    lines = [(seat.wind.en.split()[0] + (" · 庄 dealer" if seat.dealer else ""), MUTED)]
    if seat.dealer and view.streak > 1:
        lines.append((f"老庄 {view.streak}", DEALER_RED))  # the streak, not a multiplier
    if seat.seat in view.deciding:
        lines.append(("▶ 出牌 to discard" if view.phase == "turn" else "▶ 决定 deciding",
                      HIGHLIGHT))
    return lines


def plate_height(view: TableView, seat: SeatView) -> int:
    return max(52, 34 + 20 * len(_plate_lines(view, seat)))


def _plate(draw: ImageDraw.ImageDraw, view: TableView, seat: SeatView, name: str,
           box: Box) -> None:
    """Name, wind, dealer mark and streak; framed in gold while the seat decides."""
    deciding = seat.seat in view.deciding
    draw.rounded_rectangle(box, radius=10, fill=PANEL,
                           outline=HIGHLIGHT if deciding else PANEL_LINE,
                           width=3 if deciding else 1)
    x0, y0, x1, _ = box
    wind = WINDS[seat.wind.rank - 1]
    draw.rounded_rectangle((x0 + 6, y0 + 6, x0 + 44, y0 + 44), radius=8,
                           fill=DEALER_RED if seat.dealer else (40, 96, 70))
    draw_text(draw, (x0 + 25, y0 + 26), wind, 26, WHITE, anchor="mm")
    tx = x0 + 52
    draw_text(draw, (tx, y0 + 5), fit(name, 19, x1 - tx - 8), 19,
              HIGHLIGHT if deciding else WHITE)
    for i, (line, colour) in enumerate(_plate_lines(view, seat)):
        # Lines below the wind badge may use the plate's whole width.
        lx = tx if i == 0 else x0 + 10
        draw_text(draw, (lx, y0 + 30 + 20 * i), fit(line, 15, x1 - lx - 8), 15, colour)


def _hidden(canvas: Image.Image, draw: ImageDraw.ImageDraw, seat: SeatView,
            xy: tuple[int, int], layout: TableLayout, base: bool = False) -> int:
    """Concealed tiles as one back and "×n", the drawn tile as a second back apart,
    standing on the baseline xy[1]. Returns the x after them, or with `base` the y of
    their bottom edge."""
    x, bottom = xy
    y = bottom - _TH
    spots: list[tuple[int, int]] = []
    held = seat.concealed_count - (1 if seat.has_drawn else 0)
    paste_tile(canvas, None, (x, y), TILE_W)
    spots.append((x, y))
    end = draw_text(draw, (x + _TW + 6, y + _TH // 2), f"×{held}", 22, WHITE, anchor="lm")
    if seat.has_drawn:
        paste_tile(canvas, None, (end + 10, y), TILE_W)
        spots.append((end + 10, y))
        end += 10 + _TW
    layout.concealed[seat.seat] = spots
    return bottom if base else end


OPEN_TILE_W = 28
"""An open hand's tiles in a side seat's narrow panel, in rows."""


def _open_row(canvas: Image.Image, view: TableView, seat: SeatView, hand: OpenHand,
              xy: tuple[int, int], layout: TableLayout) -> int:
    """An open hand face up on the baseline xy[1], the drawn tile apart; the x after it."""
    x, bottom = xy
    y = bottom - _TH
    concealed, drawn = hand
    spots = []
    for tile in concealed:
        paste_tile(canvas, tile, (x, y), TILE_W, caishen=view.caishen)
        spots.append((x, y))
        x += _TW + 1
    if drawn is not None:
        x += 10
        paste_tile(canvas, drawn, (x, y), TILE_W, caishen=view.caishen)
        spots.append((x, y))
        x += _TW
    layout.open[seat.seat] = spots
    return x


def _open_grid(canvas: Image.Image, view: TableView, seat: SeatView, hand: OpenHand,
               xy: tuple[int, int], right: int, layout: TableLayout) -> int:
    """An open hand in rows of small tiles from xy (a side panel), the drawn tile last
    and outlined; the y below it."""
    x0, y = xy
    w, h = tile_size(OPEN_TILE_W)
    per_row = max(1, (right - x0 + 1) // (w + 1))
    concealed, drawn = hand
    tiles = [*concealed, *([drawn] if drawn is not None else [])]
    spots = []
    for i, tile in enumerate(tiles):
        spot = (x0 + (i % per_row) * (w + 1), y + (i // per_row) * (h + 3))
        paste_tile(canvas, tile, spot, OPEN_TILE_W, caishen=view.caishen)
        spots.append(spot)
    if drawn is not None:
        outline_tile(canvas, spots[-1], (w, h), HIGHLIGHT, line=2, pad=1)
    layout.open[seat.seat] = spots
    return y + max(1, -(-len(tiles) // per_row)) * (h + 3) - 3


def _flowers(canvas: Image.Image, flowers: Sequence[Tile], xy: tuple[int, int]
             ) -> tuple[int, int]:
    """Flowers in a grid four wide (two rows at most: there are eight); returns the
    bottom-right corner used."""
    x, y = xy
    fw, fh = tile_size(FLOWER_W)
    right, bottom = x, y
    for i, flower in enumerate(flowers):
        fx, fy = x + (i % 4) * (fw + 1), y + (i // 4) * (fh + 3)
        paste_tile(canvas, flower, (fx, fy), FLOWER_W)
        right, bottom = max(right, fx + fw), max(bottom, fy + fh)
    return right, bottom
