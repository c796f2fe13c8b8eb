"""A player's own hand: the picture sent in their DM.

Layout, top to bottom: a one-line header; the concealed tiles (sorted), numbered under
each when a discard is due (the discard menu's entries carry the same numbers), the
drawn tile set apart on the right, then the exposed melds (on a second row when they do
not fit); then a flowing strip of "chips": waits, flowers, the 财神 kind and, in flip
mode, the turned tile.

Concealed kongs are shown the way they lie on a real table: the two outer tiles face
down, the two inner ones face up (the owner knows what they are; everyone else sees
four backs in the table picture).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from PIL import Image, ImageDraw

from engine.rules import RULESETS
from engine.rules import label as rules_label
from engine.rules.common import ActionKind
from engine.tiles import Tile
from engine.view import PlayerView
from render.draw import (
    GOLD,
    HIGHLIGHT,
    MELD_GAP,
    MUTED,
    PANEL,
    SUGGEST,
    TILE_GAP,
    WHITE,
    cloth,
    draw_meld,
    draw_text,
    meld_size,
    outline_tile,
    paste_tile,
    png,
    row_width,
    text_width,
)
from render.tiles import tile_size

TILE_W = 52
CHIP_TILE_W = 40
PAD = 24
MAX_WIDTH = 1200
MIN_WIDTH = 560
DRAWN_GAP = 18  # the drawn tile sits apart, as a player holds it
MELDS_GAP = 30
HEADER_H = 46
LABEL_H = 26
OVERHANG = 8  # room above tiles for the 财神 badge
CHIP_PAD = 8
CHIP_TILE_GAP = 2
CHIP_GAP = 12
WINDS = "東南西北"


@dataclass(frozen=True)
class Chip:
    """A labelled group of small tiles in the bottom strip, in rows of `per_row`."""

    label: str
    tiles: tuple[Tile, ...]
    colour: tuple[int, int, int] = WHITE
    per_row: int = 0
    """Tiles per row; 0 puts them all on one (only waits are ever wrapped: a hand with
    two 财神 can wait on every kind)."""

    def label_width(self) -> int:
        return text_width(self.label, 18) + 10

    def rows(self) -> list[tuple[Tile, ...]]:
        n = self.per_row or max(1, len(self.tiles))
        return [self.tiles[i:i + n] for i in range(0, len(self.tiles), n)] or [()]

    def size(self) -> tuple[int, int]:
        _, th = tile_size(CHIP_TILE_W)
        rows = self.rows()
        w = self.label_width() + row_width(max(len(r) for r in rows), CHIP_TILE_W, CHIP_TILE_GAP)
        return w + 2 * CHIP_PAD, len(rows) * (th + CHIP_TILE_GAP) - CHIP_TILE_GAP + 2 * CHIP_PAD


def held_tiles(view: PlayerView) -> tuple[Tile, ...]:
    """The main row's tiles in picture order: the concealed ones sorted, then the drawn
    one. The number under a tile is its place here, from 1 (the discard menu uses it)."""
    return (*view.concealed, *([view.drawn] if view.drawn is not None else []))


def tile_numbers(view: PlayerView) -> dict[Tile, tuple[int, ...]]:
    """Each tile kind in the hand and the numbers it carries in the picture."""
    out: dict[Tile, tuple[int, ...]] = {}
    for i, tile in enumerate(held_tiles(view)):
        out[tile] = (*out.get(tile, ()), i + 1)
    return out


def suggested_number(view: PlayerView) -> int | None:
    """The number of the copy outlined as the suggested discard: the last one, which is
    the drawn tile when it matches (a player holds on to the older copy)."""
    numbers = tile_numbers(view).get(view.suggested) if view.suggested is not None else None
    return numbers[-1] if numbers else None


def offers_discard(view: PlayerView) -> bool:
    return any(m.action.kind is ActionKind.DISCARD for m in view.moves)


def hand_image(view: PlayerView, *, highlight_waits: bool = True,
               highlight_suggested: bool = True, lang: str = "en") -> bytes:
    """The PNG of `view`'s own hand (see the module doc for the layout), its words in
    its reader's language ``lang``: Chinese alone for "zh"; for "en" the Chinese terms
    glossed, as the English texts name them."""
    return png(render_hand(view, highlight_waits=highlight_waits,
                           highlight_suggested=highlight_suggested, lang=lang), shared=True)


def render_hand(view: PlayerView, *, highlight_waits: bool = True,
                highlight_suggested: bool = True, lang: str = "en") -> Image.Image:
    """`hand_image` as a Pillow image (tests sample its pixels)."""
    layout = HandLayout.of(view, highlight_waits, lang)
    canvas = cloth(layout.size)
    draw = ImageDraw.Draw(canvas)
    _header(draw, view, layout.size[0], lang)
    suggested = view.suggested if highlight_suggested else None
    _concealed(canvas, draw, view, layout, suggested)
    _melds(canvas, view, layout)
    _chips(canvas, draw, layout, view.table.caishen)
    return canvas


@dataclass(frozen=True)
class HandLayout:
    """Where everything goes; computed before drawing so the canvas is sized once."""

    size: tuple[int, int]
    baseline: int
    """y of the bottom edge of the main row's tiles."""
    tile_x: tuple[int, ...]
    """x of each concealed tile, then of the drawn tile."""
    meld_xy: tuple[tuple[int, int], ...]
    """(x, baseline) of each meld."""
    chips: tuple[tuple[Chip, int, int], ...]

    @classmethod
    def of(cls, view: PlayerView, highlight_waits: bool, lang: str = "en") -> HandLayout:
        tw, th = tile_size(TILE_W)
        xs = [PAD + i * (tw + TILE_GAP) for i in range(len(view.concealed))]
        x = xs[-1] + tw if xs else PAD
        if view.drawn is not None:
            xs.append(x + DRAWN_GAP if xs else x)
            x = xs[-1] + tw
        sizes = [meld_size(m, view.seat, TILE_W, public=False) for m in view.me.melds]
        row_h = max([th, *(h for _, h in sizes)])
        baseline = HEADER_H + OVERHANG + row_h
        meld_xy, right, y_next = _place_melds(sizes, x + MELDS_GAP, baseline)
        right = max(right, x)
        chips, chips_right, bottom = _place_chips(_chip_list(view, highlight_waits, lang),
                                                  y_next, max(right + PAD, MIN_WIDTH))
        width = min(MAX_WIDTH, max(MIN_WIDTH, right + PAD, chips_right + PAD))
        return cls((width, bottom + PAD), baseline, tuple(xs), meld_xy, chips)


def _place_melds(sizes: Sequence[tuple[int, int]], x: int, baseline: int
                 ) -> tuple[tuple[tuple[int, int], ...], int, int]:
    """Melds after the hand on the main row, wrapping to new rows when too wide.

    Returns their (x, baseline)s, the rightmost x used and the y below the tile rows.
    """
    out: list[tuple[int, int]] = []
    right = x
    row_bottom = baseline + LABEL_H
    # Any meld may end up on a wrapped row: leave room for the tallest (a stacked kong).
    tallest = max([tile_size(TILE_W)[1], *(h for _, h in sizes)])
    for w, _ in sizes:
        if x + w > MAX_WIDTH - PAD and out:
            x = PAD
            baseline = row_bottom + 10 + tallest + OVERHANG
            row_bottom = baseline + 6
        out.append((x, baseline))
        right = max(right, x + w)
        x += w + MELD_GAP
    return tuple(out), right, row_bottom + 8


WORDS = {
    "en": {"waits": "听 Waits", "flowers": "花 Flowers", "turned_wild": "翻财神 Wild (turned)",
           "wild": "财神 Wild", "turned": "翻 Turned", "hand": "第{n}局 Hand {n}",
           "dealer": "庄 Dealer", "left": "剩 {n} left"},
    "zh": {"waits": "听牌", "flowers": "花牌", "turned_wild": "翻财神", "wild": "财神",
           "turned": "翻出", "hand": "第{n}局", "dealer": "庄家", "left": "剩 {n} 张"},
}
"""The hand picture's words by the reader's language (`hand_image`)."""


def _words(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


def _chip_list(view: PlayerView, highlight_waits: bool, lang: str = "en") -> list[Chip]:
    table = view.table
    words = _words(lang)
    chips: list[Chip] = []
    if highlight_waits and view.waits:
        chips.append(Chip(words["waits"], tuple(sorted(w.tile for w in view.waits)),
                          HIGHLIGHT))
    if view.me.flowers:
        chips.append(Chip(words["flowers"], tuple(view.me.flowers)))
    if table.turned is not None and table.turned == table.caishen:
        # Flip mode: the turned tile is set aside and its other copies are the 财神.
        chips.append(Chip(words["turned_wild"], (table.turned,), GOLD))
        return chips
    if table.caishen is not None:
        chips.append(Chip(words["wild"], (table.caishen,), GOLD))
    if table.turned is not None:
        chips.append(Chip(words["turned"], (table.turned,)))
    return chips


def _place_chips(chips: Sequence[Chip], y: int, width: int
                 ) -> tuple[tuple[tuple[Chip, int, int], ...], int, int]:
    """Flow chips left to right, wrapping at `width`; returns them placed, the right
    edge and the bottom."""
    out: list[tuple[Chip, int, int]] = []
    x, right, bottom = PAD, 0, y
    limit = min(MAX_WIDTH, max(width, MIN_WIDTH)) - PAD
    for chip in chips:
        w, h = chip.size()
        if PAD + w > limit:  # too wide even alone on a line: wrap its tiles
            fit_n = (limit - PAD - 2 * CHIP_PAD - chip.label_width() + CHIP_TILE_GAP) // (
                CHIP_TILE_W + CHIP_TILE_GAP)
            chip = replace(chip, per_row=max(1, fit_n))
            w, h = chip.size()
        if x + w > limit and x > PAD:
            x, y = PAD, bottom + CHIP_GAP
        out.append((chip, x, y))
        right = max(right, x + w)
        bottom = max(bottom, y + h)
        x += w + CHIP_GAP
    return tuple(out), right, bottom


# --- drawing ----------------------------------------------------------------------


def _header(draw: ImageDraw.ImageDraw, view: PlayerView, width: int,
            lang: str = "en") -> None:
    table, me = view.table, view.me
    words = _words(lang)
    zh = lang == "zh"
    ruleset = RULESETS.get(table.rules)
    parts = [ruleset.zh if zh and ruleset is not None else rules_label(table.rules),
             words["hand"].format(n=table.hand_number),
             me.wind.zh[0] if zh else f"{WINDS[me.wind.rank - 1]} {me.wind.en.split()[0]}"]
    if me.dealer:
        parts.append(words["dealer"])
    draw_text(draw, (PAD, 18), "  ·  ".join(parts), 19, fill=MUTED)
    draw_text(draw, (width - PAD, 18), words["left"].format(n=table.wall_left), 19,
              fill=MUTED, anchor="ra")


def _concealed(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: PlayerView,
               layout: HandLayout, suggested: Tile | None) -> None:
    tw, th = tile_size(TILE_W)
    hand = held_tiles(view)
    top = layout.baseline - th
    # The hint goes on one copy only: the last, which is the drawn tile when it matches.
    hint_at = max((i for i, t in enumerate(hand) if t == suggested), default=-1)
    numbered = offers_discard(view)  # the numbers serve the discard menu, nothing else
    for i, (tile, x) in enumerate(zip(hand, layout.tile_x, strict=True)):
        paste_tile(canvas, tile, (x, top), TILE_W, caishen=view.table.caishen)
        if i == hint_at:
            outline_tile(canvas, (x, top), (tw, th), SUGGEST, line=3, pad=2)
        if not numbered:
            continue
        is_drawn = view.drawn is not None and i == len(hand) - 1
        colour = SUGGEST if i == hint_at else (HIGHLIGHT if is_drawn else MUTED)
        draw_text(draw, (x + tw // 2, layout.baseline + 5), str(i + 1), 17, fill=colour,
                  anchor="ma")


def _melds(canvas: Image.Image, view: PlayerView, layout: HandLayout) -> None:
    for meld, (x, base) in zip(view.me.melds, layout.meld_xy, strict=True):
        draw_meld(canvas, meld, view.seat, (x, base), TILE_W, public=False,
                  caishen=view.table.caishen)


def _chips(canvas: Image.Image, draw: ImageDraw.ImageDraw, layout: HandLayout,
           caishen: Tile | None) -> None:
    for chip, x, y in layout.chips:
        w, h = chip.size()
        draw.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=PANEL)
        draw_text(draw, (x + CHIP_PAD, y + h // 2), chip.label, 18, fill=chip.colour,
                  anchor="lm")
        _, th = tile_size(CHIP_TILE_W)
        for r, row in enumerate(chip.rows()):
            tx = x + CHIP_PAD + chip.label_width()
            for tile in row:
                paste_tile(canvas, tile, (tx, y + CHIP_PAD + r * (th + CHIP_TILE_GAP)),
                           CHIP_TILE_W, caishen=caishen)
                tx += CHIP_TILE_W + CHIP_TILE_GAP
