"""Shared drawing for the hand, table and card pictures: felt, text, tiles, melds.

Everything here works on an RGB canvas the caller owns. Sprites come from
`render.tiles` (cached and shared: they are only ever composited, never drawn on).
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engine.melds import MeldKind
from engine.tiles import Tile
from engine.view import MeldView
from render.encode import palette_png
from render.palette import shared_palette
from render.tiles import (
    FACE_RATIO,
    font,
    name_font,
    sideways_image,
    thickness,
    tile_image,
    tile_size,
)

RGB = tuple[int, int, int]

FELT = (30, 96, 62)
FELT_EDGE = (16, 58, 38)
PANEL = (20, 66, 44)
PANEL_LINE = (60, 128, 92)
WHITE = (244, 244, 236)
MUTED = (176, 200, 184)
GOLD = (236, 180, 40)
HIGHLIGHT = (255, 214, 64)
SUGGEST = (120, 210, 255)
POSITIVE = (96, 220, 120)
NEGATIVE = (255, 110, 100)
RED_BADGE = (196, 30, 40)
DIM = (0, 0, 0, 120)

PNG_LEVEL = 3  # zlib level of an RGB picture (a palette one is ISA-L's: `render.encode`)
TILE_GAP = 1  # real tiles touch; one pixel keeps neighbouring faces apart
MELD_GAP = 14


# --- output -----------------------------------------------------------------------


def png(img: Image.Image, *, palette: bool = True, shared: bool = False) -> bytes:
    """PNG bytes of `img`, reduced to a 256-colour palette unless `palette` is False.

    zlib dominates the cost of a picture; a fast-octree palette makes the data a third
    as big (one byte a pixel), which cuts the total time by half or more and the file
    to about a quarter. Tiles and text survive it without visible change; smooth
    gradients would band, so every picture is drawn on flat colours. ``shared``: the
    palette made once for all table and hand pictures (`render.palette`), not one
    worked out for this picture. A palette picture is deflated by ISA-L
    (`render.encode`: the same pixels, a fifth of zlib's time).
    """
    buf = io.BytesIO()
    out = img if img.mode == "RGB" else img.convert("RGB")  # (converting copies)
    if palette and shared:
        out = out.quantize(palette=shared_palette(), dither=Image.Dither.NONE)
    elif palette:
        out = out.quantize(256, method=Image.Quantize.FASTOCTREE)
    if out.mode == "P":
        return palette_png(out)
    out.save(buf, "PNG", compress_level=PNG_LEVEL)
    return buf.getvalue()


@lru_cache(maxsize=8)
def _cloth(size: tuple[int, int]) -> Image.Image:
    """Flat felt inside a dark rail: a table top that survives a 256-colour palette
    (see `png`)."""
    w, h = size
    img = Image.new("RGB", size, FELT_EDGE)
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((6, 6, w - 7, h - 7), radius=26, fill=(24, 80, 52))
    draw.rounded_rectangle((12, 12, w - 13, h - 13), radius=22, fill=FELT)
    return img


def cloth(size: tuple[int, int]) -> Image.Image:
    """A fresh table top of `size` to draw on (copied from a cache)."""
    return _cloth(size).copy()


# --- text -------------------------------------------------------------------------


FontFor = Callable[[int], ImageFont.FreeTypeFont]


@lru_cache(maxsize=8192)
def _has_glyph(ch: str, face: FontFor = font) -> bool:
    """Whether the bundled ``face`` draws `ch` (and not its empty-box .notdef)."""
    if ch.isspace():
        return True
    return bytes(face(24).getmask(ch)) != _notdef_mask(face)


@lru_cache(maxsize=2)
def _notdef_mask(face: FontFor) -> bytes:
    return bytes(face(24).getmask("\ufffe"))


def _face(text: str) -> FontFor:
    """The picture font when it has every character, else the names font (free text)."""
    return font if all(_has_glyph(ch) for ch in text) else name_font


def safe(text: str) -> str:
    """`text` as it will be drawn: characters neither bundled font has (emoji, rare
    scripts) become '?', since a row of .notdef boxes reads worse than a '?'."""
    if _face(text) is font:
        return text
    return "".join(ch if _has_glyph(ch, name_font) else "?" for ch in text)


def text_width(text: str, size: int) -> int:
    text = safe(text)
    return round(_length(text, size))


@lru_cache(maxsize=4096)
def _length(text: str, size: int) -> float:
    """How far `text` (already `safe`) advances in its face at `size` px."""
    return _face(text)(size).getlength(text)


@lru_cache(maxsize=4096)
def _mask(text: str, size: int, anchor: str, start: tuple[float, float]
          ) -> tuple[Image.Image, tuple[int, int]]:
    """`text`'s anti-aliased coverage as Pillow's ``text`` would draw it (``start``: the
    position's fractions), with its offset from the anchor point. A picture draws the
    same words and numbers again and again (seat names, tile numbers, labels), and
    rendering a glyph run through FreeType costs more than filling it in."""
    mask, offset = _face(text)(size).getmask2(text, "L", anchor=anchor, start=start)
    return Image.frombytes("L", mask.size, bytes(mask)), offset


def fit(text: str, size: int, max_width: int) -> str:
    """`text` cut with an ellipsis to fit `max_width` px (long names)."""
    text = safe(text)
    if text_width(text, size) <= max_width:
        return text
    while text and text_width(text + "…", size) > max_width:
        text = text[:-1]
    return text + "…"


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
              fill: RGB | tuple[int, int, int, int] = WHITE, anchor: str = "la") -> int:
    """Draw `text` in the bundled font; returns the x just after it (for "l" anchors)."""
    text = safe(text)
    if draw.fontmode != "L" or "\n" in text:
        draw.text(xy, text, font=_face(text)(size), fill=fill, anchor=anchor)
    else:  # the same pixels as draw.text, its glyphs rendered once (`_mask`)
        x, y = xy
        mask, (dx, dy) = _mask(text, size, anchor, (math.modf(x)[0], math.modf(y)[0]))
        draw.bitmap((int(x) + dx, int(y) + dy), mask, fill=fill)
    return round(xy[0] + _length(text, size))


def number(value: Fraction | float | int, signed: bool = False) -> str:
    """A score as people write it: 12, 3.5, 2⅓ as 2.33; `signed` adds '+' to gains."""
    frac = Fraction(value).limit_denominator(1000)
    text = str(frac.numerator // frac.denominator) if frac.denominator == 1 \
        else f"{float(frac):.2f}".rstrip("0").rstrip(".")
    if text == "-0":
        text = "0"
    return f"+{text}" if signed and frac > 0 else text


# --- tiles ------------------------------------------------------------------------


def face_height(width: int) -> int:
    return round(width * FACE_RATIO)


def paste_tile(canvas: Image.Image, tile: Tile | None, xy: tuple[int, int], width: int, *,
               caishen: Tile | None = None, sideways: bool = False) -> tuple[int, int]:
    """Composite one tile with its top-left at `xy`; mark it if it is the 财神 kind.

    Returns the sprite's (width, height).
    """
    sprite = sideways_image(tile, width) if sideways else tile_image(tile, width)
    composite(canvas, sprite, xy)
    if tile is not None and caishen is not None and tile == caishen:
        face = (sprite.width, sprite.height - thickness(width))
        mark_caishen(canvas, xy, face, width)
    return sprite.size


def composite(canvas: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """``canvas.paste(sprite, xy, sprite)``: the same C call without Pillow's Python
    checks, which cost about as much as pasting a tile (a table pastes some fifty).
    ``sprite``: a loaded RGBA image (`render.tiles` makes them by resizing)."""
    if canvas.readonly or canvas.mode != "RGB" or sprite.mode != "RGBA":
        canvas.paste(sprite, xy, sprite)
        return
    x, y = xy
    box = (x, y, x + sprite.width, y + sprite.height)
    canvas.im.paste(sprite.im, box, sprite.im)


def mark_caishen(canvas: Image.Image, xy: tuple[int, int], face: tuple[int, int],
                 width: int) -> None:
    """The 财神 mark: a gold frame round the face and a small 财 badge on its corner."""
    x, y = xy
    fw, fh = face
    draw = ImageDraw.Draw(canvas)
    line = max(2, round(width * 0.06))
    draw.rounded_rectangle((x, y, x + fw - 1, y + fh), radius=round(width * 0.16),
                           outline=GOLD, width=line)
    r = max(7, round(width * 0.19))
    cx, cy = x + fw - r + 3, y + r - 3
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=RED_BADGE, outline=GOLD, width=2)
    draw_text(draw, (cx, cy + 1), "财", round(r * 1.35), fill=(255, 236, 160), anchor="mm")


def outline_tile(canvas: Image.Image, xy: tuple[int, int], size: tuple[int, int],
                 colour: RGB, line: int = 3, pad: int = 3) -> None:
    """A rounded outline just outside a tile: the suggested discard, the last discard."""
    x, y = xy
    w, h = size
    ImageDraw.Draw(canvas).rounded_rectangle(
        (x - pad, y - pad, x + w - 1 + pad, y + h - 1 + pad), radius=round(w * 0.2) + pad,
        outline=colour, width=line)


def dim_tile(canvas: Image.Image, xy: tuple[int, int], width: int) -> None:
    """Shade an upright tile: a claimed discard that now lies in someone's meld."""
    mask = _dim_mask(width)
    x, y = xy
    canvas.paste(DIM[:3], (x, y, x + mask.width, y + mask.height), mask)


@lru_cache(maxsize=8)
def _dim_mask(width: int) -> Image.Image:
    """The tile's own outline at DIM's opacity, so the shade keeps the rounded corners."""
    return tile_image(None, width).getchannel("A").point(lambda v: v * DIM[3] // 255)


def row_width(n: int, width: int, gap: int = TILE_GAP) -> int:
    return max(0, n * (width + gap) - gap)


# --- melds ------------------------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    """One tile of a meld as laid on the table, relative to the meld's bottom-left."""

    tile: Tile | None
    dx: int
    bottom: int
    """Distance of the sprite's bottom above the row's baseline (a stacked tile > 0)."""
    sideways: bool = False


def claimed_index(meld: MeldView, owner: int) -> int | None:
    """Where the claimed tile lies: left from the upper player (seat - 1), in the middle
    from the opposite seat, right from the lower player (seat + 1)."""
    if meld.from_seat is None or meld.kind is MeldKind.CONCEALED_KONG:
        return None
    rel = (meld.from_seat - owner) % 4
    upright = 3 if meld.kind is MeldKind.ADDED_KONG else len(meld.tiles)
    return {3: 0, 2: 1, 1: upright - 1}.get(rel)


def chi_order(tiles: Sequence[Tile | None], caishen: Tile | None) -> list[Tile | None]:
    """A chi's tiles in the order of the run they make: a 财神 where the tile it stands
    for goes (4p 财神 6p), not last by its own kind; beside two neighbours, at the end
    the run can go on (after 4p 5p, before 8p 9p)."""
    if caishen is None or caishen not in tiles:
        return list(tiles)
    naturals = sorted(t for t in tiles if t is not None and t != caishen)
    wilds = [t for t in tiles if t == caishen]
    if not naturals or not naturals[0].is_suited:
        return [*naturals, *wilds]
    low = naturals[0].rank
    start = min(low, 7)  # the run from its lowest natural tile, as far as 7-8-9
    if naturals[-1].rank > start + 2:
        return [*naturals, *wilds]  # no run: as they are
    by_rank = {t.rank: t for t in naturals}
    out: list[Tile | None] = []
    for rank in range(start, start + 3):
        out.append(by_rank[rank] if rank in by_rank else wilds.pop())
    return out + wilds


def meld_tiles(meld: MeldView, owner: int, *, public: bool,
               caishen: Tile | None = None) -> list[tuple[Tile | None, bool]]:
    """(tile, sideways) in laying order; an added kong's fourth tile comes last (stacked);
    a 财神 in a chi where it stands (`chi_order`).

    A concealed kong is laid with its two outer tiles face down; `public` (anyone but
    the owner) shows all four face down whatever the view holds.
    """
    tiles = list(meld.tiles)
    if meld.kind is MeldKind.CHI:
        tiles = chi_order(tiles, caishen)
    if meld.kind is MeldKind.CONCEALED_KONG:
        if public:
            return [(None, False)] * 4
        return [(None if i in (0, 3) else t, False) for i, t in enumerate(tiles)]
    idx = claimed_index(meld, owner)
    if idx is None or meld.claimed is None or meld.claimed not in tiles:
        return [(t, False) for t in tiles]
    tiles.remove(meld.claimed)
    extra: list[tuple[Tile | None, bool]] = []
    if meld.kind is MeldKind.ADDED_KONG:
        extra = [(tiles.pop(), True)]  # the tile added later lies on the claimed one
    laid: list[tuple[Tile | None, bool]] = [(t, False) for t in tiles]
    laid.insert(idx, (meld.claimed, True))
    return laid + extra


def meld_layout(meld: MeldView, owner: int, width: int, *, public: bool,
                caishen: Tile | None = None) -> list[Placed]:
    laid = meld_tiles(meld, owner, public=public, caishen=caishen)
    side_h = width + thickness(width)
    out: list[Placed] = []
    x = 0
    for i, (tile, sideways) in enumerate(laid):
        if sideways and meld.kind is MeldKind.ADDED_KONG and i == len(laid) - 1:
            under = next(p for p in out if p.sideways)
            # Stacked: overlaps the lower tile's band, as a tile resting on another does.
            out.append(Placed(tile, under.dx, side_h - thickness(width), True))
            continue
        out.append(Placed(tile, x, 0, sideways))
        x += (face_height(width) if sideways else width) + TILE_GAP
    return out


def meld_size(meld: MeldView, owner: int, width: int, *, public: bool) -> tuple[int, int]:
    """(width, height) of a laid meld."""
    placed = meld_layout(meld, owner, width, public=public)
    _, tile_h = tile_size(width)
    side_h = width + thickness(width)
    right = max(p.dx + (face_height(width) if p.sideways else width) for p in placed)
    top = max(p.bottom + (side_h if p.sideways else tile_h) for p in placed)
    return right, top


def draw_meld(canvas: Image.Image, meld: MeldView, owner: int, xy: tuple[int, int],
              width: int, *, public: bool, caishen: Tile | None = None) -> int:
    """Lay `meld` with its baseline (tiles' bottom edge) at xy[1]; returns its width."""
    x0, base = xy
    _, tile_h = tile_size(width)
    side_h = width + thickness(width)
    right = 0
    for p in meld_layout(meld, owner, width, public=public, caishen=caishen):
        h = side_h if p.sideways else tile_h
        w, _ = paste_tile(canvas, p.tile, (x0 + p.dx, base - p.bottom - h), width,
                          caishen=caishen, sideways=p.sideways)
        right = max(right, p.dx + w)
    return right


def melds_width(melds: Sequence[MeldView], owner: int, width: int, *, public: bool,
                gap: int = MELD_GAP) -> int:
    sizes = [meld_size(m, owner, width, public=public)[0] for m in melds]
    return sum(sizes) + gap * max(0, len(sizes) - 1)
