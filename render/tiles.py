"""Tile sprites drawn in code with Pillow, plus the bundled CJK font.

`tile_image(tile, width)` returns an RGBA sprite: an ivory face ``round(1.35 * width)``
high over a jade-green band ``thickness(width)`` high (the back layer seen from the
front, like a real tile's thickness); ``None`` gives the face-down back. Sprites are
cached per (tile, width) and shared, so callers must ``copy()`` before drawing on one.

Everything is drawn `_SS` times larger and then downsampled: Pillow's primitives are
not anti-aliased, and supersampling is the simplest way to get smooth circles and
glyph edges at the 40–64 px widths the bot uses.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from engine.tiles import Tile

FONT_PATH = Path(__file__).resolve().parent / "assets" / "tiles-cjk.otf"
NAMES_FONT_PATH = FONT_PATH.with_name("names-cjk.otf")
FACE_RATIO = 1.35
MIN_WIDTH = 16

_SS = 4  # supersampling factor
_INK_SIZE = 360  # px size glyphs are rasterised at before scaling into their box

Box = tuple[float, float, float, float]  # left, top, right, bottom in canvas pixels
RGB = tuple[int, int, int]

# Palette: muted "printed ink" colours rather than pure RGB, as on real tiles.
IVORY = (253, 250, 240)
IVORY_EDGE = (222, 211, 184)
IVORY_LINE = (140, 128, 100)
JADE = (28, 128, 84)
JADE_DARK = (12, 74, 46)
JADE_LIGHT = (60, 160, 112)
RED = (200, 30, 40)
GREEN = (18, 122, 60)
BLUE = (28, 70, 160)
NAVY = (24, 34, 90)
INK = (28, 28, 36)


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled CJK subset at `size` px (never a system font, so output is stable)."""
    return ImageFont.truetype(str(FONT_PATH), size)


@lru_cache(maxsize=32)
def name_font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled font for free text such as player names: 7,900 common characters
    (all of GB2312, kana, Latin, Greek, Cyrillic) in Noto Sans CJK SC Bold."""
    return ImageFont.truetype(str(NAMES_FONT_PATH), size)


def thickness(width: int) -> int:
    """Height of the green back band below the face."""
    return max(3, round(width * 0.14))


def tile_size(width: int) -> tuple[int, int]:
    """(width, height) of a sprite `width` px wide."""
    return width, round(width * FACE_RATIO) + thickness(width)


@lru_cache(maxsize=512)
def tile_image(tile: Tile | None, width: int = 48) -> Image.Image:
    """The sprite for `tile` (``None``: the back), `width` px wide; see the module doc."""
    if width < MIN_WIDTH:
        raise ValueError(f"tile width {width} is below the minimum {MIN_WIDTH}")
    w, h = tile_size(width)
    face_h = round(width * FACE_RATIO)
    canvas = Image.new("RGBA", (w * _SS, h * _SS), (0, 0, 0, 0))
    if tile is None:
        _draw_body(canvas, face_h * _SS, face=JADE, face_edge=JADE_DARK, band=IVORY_EDGE)
        _draw_back_pattern(canvas, face_h * _SS)
    else:
        _draw_body(canvas, face_h * _SS, face=IVORY, face_edge=IVORY_EDGE, band=JADE)
        pad_x, pad_y = 0.13 * w * _SS, 0.11 * w * _SS
        content = (pad_x, pad_y, w * _SS - pad_x, face_h * _SS - pad_y)
        _draw_face(canvas, Tile(tile), content)
    return canvas.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=256)
def sideways_image(tile: Tile | None, width: int = 48) -> Image.Image:
    """`tile` lying sideways, as a claimed tile in a meld: the face turned a quarter to
    the left, the band still at the bottom. It is ``round(1.35 * width)`` wide and
    ``width + thickness(width)`` high; cached and shared like `tile_image`.
    """
    if tile is None:  # only faces are ever laid sideways; a back just turns
        return tile_image(None, width).rotate(90, expand=True)
    face_h = round(width * FACE_RATIO)
    t = thickness(width)
    canvas = Image.new("RGBA", (face_h * _SS, (width + t) * _SS), (0, 0, 0, 0))
    _draw_body(canvas, width * _SS, face=IVORY, face_edge=IVORY_EDGE, band=JADE,
               short=width * _SS)
    upright = Image.new("RGBA", (width * _SS, face_h * _SS), (0, 0, 0, 0))
    pad_x, pad_y = 0.13 * width * _SS, 0.11 * width * _SS
    _draw_face(upright, Tile(tile), (pad_x, pad_y, width * _SS - pad_x, face_h * _SS - pad_y))
    canvas.alpha_composite(upright.rotate(90, expand=True))
    return canvas.resize((face_h, width + t), Image.Resampling.LANCZOS)


# --- the tile body ---------------------------------------------------------------


def _draw_body(canvas: Image.Image, face_h: int, face: RGB, face_edge: RGB, band: RGB,
               short: int | None = None) -> None:
    """Rounded body: a band layer showing below the face, then a bevelled face on top.

    `short` is the tile's short side when the canvas is a sideways tile, so corners and
    bevel stay the size they have on an upright tile of the same width.
    """
    w, h = canvas.size
    base = short or w
    r = base * 0.16
    draw = ImageDraw.Draw(canvas)
    dark = _shade(band, 0.55)
    # The band layer spans the whole tile; only its bottom strip stays visible. Its
    # darker lower edge reads as the shadowed underside.
    draw.rounded_rectangle((0, 0, w - 1, h - 1), r, fill=dark)
    draw.rounded_rectangle((_SS, 0, w - 1 - _SS, h - 1 - 2 * _SS), r, fill=band)
    # The face: an edge-coloured slab with a lighter plane inset and blurred into it,
    # which gives the soft bevel of a carved tile.
    draw.rounded_rectangle((0, 0, w - 1, face_h), r, fill=_shade(face_edge, 0.7))
    draw.rounded_rectangle((_SS, _SS, w - 1 - _SS, face_h - _SS), r, fill=face_edge)
    inset = base * 0.05
    plane = Image.new("L", canvas.size, 0)
    ImageDraw.Draw(plane).rounded_rectangle(
        (inset, inset * 0.8, w - 1 - inset, face_h - inset * 1.2), r * 0.7, fill=255)
    plane = plane.filter(ImageFilter.GaussianBlur(inset * 0.45))
    canvas.paste(_vertical_gradient(canvas.size, face, _shade(face, 0.93)), (0, 0), plane)


def _vertical_gradient(size: tuple[int, int], top: RGB, bottom: RGB) -> Image.Image:
    """Light falling from above: the face darkens slightly towards its lower edge."""
    ramp = Image.linear_gradient("L").resize(size)
    return Image.composite(Image.new("RGBA", size, (*bottom, 255)),
                           Image.new("RGBA", size, (*top, 255)), ramp)


def _draw_back_pattern(canvas: Image.Image, face_h: int) -> None:
    """A thin inner frame and a centre diamond: a face-down tile, not a green block."""
    w = canvas.width
    draw = ImageDraw.Draw(canvas)
    i = w * 0.16
    draw.rounded_rectangle((i, i, w - i, face_h - i), w * 0.08, outline=JADE_LIGHT,
                           width=round(w * 0.035))
    cx, cy, d = w / 2, face_h / 2, w * 0.16
    draw.polygon([(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)], fill=JADE_LIGHT)


def _shade(colour: RGB, factor: float) -> RGB:
    r, g, b = colour
    return round(r * factor), round(g * factor), round(b * factor)


# --- faces ------------------------------------------------------------------------


def _draw_face(canvas: Image.Image, tile: Tile, box: Box) -> None:
    draw = ImageDraw.Draw(canvas)
    if tile.is_suited:
        {"m": _draw_characters, "p": _draw_dots, "s": _draw_bamboo}[tile.suit.value](
            canvas, draw, tile.rank, box)
    elif tile.is_wind:
        _glyph(canvas, "東南西北"[tile.rank - 1], box, NAVY)
    elif tile is Tile.WHITE:
        _draw_white(draw, box)
    elif tile is Tile.GREEN:
        _glyph(canvas, "發", box, GREEN)
    elif tile is Tile.RED:
        _glyph(canvas, "中", box, RED)
    else:
        _draw_flower(canvas, draw, tile.rank, box)


def _sub(box: Box, fx0: float, fy0: float, fx1: float, fy1: float) -> Box:
    """The part of `box` between the given fractions of its width and height."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    return x0 + fx0 * w, y0 + fy0 * h, x0 + fx1 * w, y0 + fy1 * h


def _glyph(canvas: Image.Image, text: str, box: Box, colour: RGB, stretch: float = 1.25,
           bold: bool = False) -> None:
    """Draw `text` as large as fits in `box`, centred on its ink.

    The glyph may be stretched up to `stretch` times taller than wide: tiles are tall,
    and real tile characters fill the face rather than sitting in a square. `bold`
    thickens the strokes by about half a final pixel, for simple glyphs (numerals)
    whose thin horizontals would otherwise fade at 40 px.
    """
    x0, y0, x1, y1 = box
    ink = _ink_mask(text)
    iw, ih = ink.size
    scale = min((x1 - x0) / iw, (y1 - y0) / ih)
    sx, sy = scale, min(scale * stretch, (y1 - y0) / ih)
    tw, th = max(1, round(iw * sx)), max(1, round(ih * sy))
    mask = ink.resize((tw, th), Image.Resampling.LANCZOS)
    if bold:
        mask = mask.filter(ImageFilter.MaxFilter(2 * (_SS // 4) + 1))
    pos = (round((x0 + x1 - tw) / 2), round((y0 + y1 - th) / 2))
    canvas.paste(Image.new("RGBA", (tw, th), (*colour, 255)), pos, mask)


@lru_cache(maxsize=64)
def _ink_mask(text: str) -> Image.Image:
    """`text` rendered white-on-black at one large size, cropped to its ink.

    One size for every tile width keeps the cache small; the mask is then resized to
    the box, which is barely larger than this even for 64 px tiles.
    """
    f = font(_INK_SIZE)
    left, top, right, bottom = f.getbbox(text)
    # Whole pixels for this font, though the stubs allow any layout's fractions.
    mask = Image.new("L", (int(right - left) + 2, int(bottom - top) + 2), 0)
    ImageDraw.Draw(mask).text((1 - left, 1 - top), text, font=f, fill=255)
    return mask.crop(mask.getbbox() or (0, 0, 1, 1))


def _draw_characters(canvas: Image.Image, draw: ImageDraw.ImageDraw, rank: int, box: Box) -> None:
    """Numeral above a red 萬, the way character tiles are printed."""
    numeral = "一二三四五六七八九"[rank - 1]
    # 一 and 二 are flat; give them a short box so they are not blown up into bars.
    top = {1: (0.13, 0.35), 2: (0.04, 0.42)}.get(rank, (0.0, 0.45))
    _glyph(canvas, numeral, _sub(box, 0.0, top[0], 1.0, top[1]), NAVY, stretch=1.1, bold=True)
    _glyph(canvas, "萬", _sub(box, 0.0, 0.5, 1.0, 1.0), RED, stretch=1.1)


# Dot layouts: (x, y) as fractions of the content box, colour; and the radius as a
# fraction of the content width. These follow the usual Chinese printed sets.
_DOTS: dict[int, tuple[float, list[tuple[float, float, RGB]]]] = {
    2: (0.25, [(0.5, 0.24, GREEN), (0.5, 0.76, BLUE)]),
    3: (0.20, [(0.2, 0.14, BLUE), (0.5, 0.5, RED), (0.8, 0.86, GREEN)]),
    4: (0.21, [(0.26, 0.24, BLUE), (0.74, 0.24, GREEN), (0.26, 0.76, GREEN), (0.74, 0.76, BLUE)]),
    5: (0.19, [(0.22, 0.17, BLUE), (0.78, 0.17, GREEN), (0.5, 0.5, RED),
               (0.22, 0.83, GREEN), (0.78, 0.83, BLUE)]),
    6: (0.18, [(0.27, 0.13, GREEN), (0.73, 0.13, GREEN), (0.27, 0.55, RED),
               (0.73, 0.55, RED), (0.27, 0.87, RED), (0.73, 0.87, RED)]),
    7: (0.16, [(0.19, 0.09, GREEN), (0.5, 0.2, GREEN), (0.81, 0.31, GREEN),
               (0.27, 0.6, RED), (0.73, 0.6, RED), (0.27, 0.89, RED), (0.73, 0.89, RED)]),
    8: (0.16, [(x, y, BLUE) for y in (0.11, 0.37, 0.63, 0.89) for x in (0.27, 0.73)]),
    9: (0.155, [(x, y, c) for y, c in ((0.14, BLUE), (0.5, RED), (0.86, GREEN))
                for x in (0.18, 0.5, 0.82)]),
}


def _draw_dots(canvas: Image.Image, draw: ImageDraw.ImageDraw, rank: int, box: Box) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if rank == 1:
        _big_dot(draw, (x0 + x1) / 2, (y0 + y1) / 2, w * 0.5)
        return
    radius, layout = _DOTS[rank]
    for fx, fy, colour in layout:
        _coin(draw, x0 + fx * w, y0 + fy * h, radius * w, colour)


def _circle(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)


def _coin(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: RGB) -> None:
    """A dot: a coloured disc with an ivory ring and a centre, like a cash coin."""
    _circle(draw, cx, cy, r, _shade(colour, 0.75))
    _circle(draw, cx, cy, r * 0.86, colour)
    _circle(draw, cx, cy, r * 0.55, IVORY)
    _circle(draw, cx, cy, r * 0.36, colour)
    _circle(draw, cx, cy, r * 0.12, IVORY)


def _big_dot(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """1p: a large medallion with a petal ring, so it is never mistaken for a dot."""
    _circle(draw, cx, cy, r, BLUE)
    _circle(draw, cx, cy, r * 0.9, IVORY)
    for i in range(12):  # a ring of alternating green/blue petals
        a = 2 * math.pi * i / 12
        _circle(draw, cx + math.cos(a) * r * 0.7, cy + math.sin(a) * r * 0.7, r * 0.14,
                GREEN if i % 2 else BLUE)
    _circle(draw, cx, cy, r * 0.5, RED)
    _circle(draw, cx, cy, r * 0.36, IVORY)
    _circle(draw, cx, cy, r * 0.26, RED)
    _circle(draw, cx, cy, r * 0.08, IVORY)


# Bamboo layouts: (x, y, angle in degrees, red?) as fractions of the content box,
# and the stick length as a fraction of the content height.
_R = True
_G = False
_STICKS: dict[int, tuple[float, list[tuple[float, float, float, bool]]]] = {
    2: (0.42, [(0.5, 0.25, 0, _G), (0.5, 0.75, 0, _G)]),
    3: (0.42, [(0.5, 0.25, 0, _G), (0.28, 0.75, 0, _G), (0.72, 0.75, 0, _G)]),
    4: (0.42, [(x, y, 0, _G) for y in (0.25, 0.75) for x in (0.28, 0.72)]),
    5: (0.42, [(0.18, 0.25, 0, _G), (0.82, 0.25, 0, _G), (0.5, 0.5, 0, _R),
               (0.18, 0.75, 0, _G), (0.82, 0.75, 0, _G)]),
    6: (0.42, [(x, y, 0, _G) for y in (0.25, 0.75) for x in (0.18, 0.5, 0.82)]),
    7: (0.29, [(0.5, 0.16, 0, _R),
               *[(x, y, 0, _G) for y in (0.5, 0.84) for x in (0.18, 0.5, 0.82)]]),
    8: (0.4, [(0.08, 0.25, 0, _G), (0.36, 0.25, 18, _G), (0.64, 0.25, -18, _G),
              (0.92, 0.25, 0, _G), (0.08, 0.75, 0, _G), (0.36, 0.75, -18, _G),
              (0.64, 0.75, 18, _G), (0.92, 0.75, 0, _G)]),
    9: (0.29, [(x, y, 0, x == 0.5) for y in (0.16, 0.5, 0.84) for x in (0.18, 0.5, 0.82)]),
}


def _draw_bamboo(canvas: Image.Image, draw: ImageDraw.ImageDraw, rank: int, box: Box) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if rank == 1:
        _bird(draw, box)
        return
    length, layout = _STICKS[rank]
    thick = 0.15 if len(layout) <= 6 else 0.13  # as thick as the columns allow
    for fx, fy, angle, red in layout:
        _stick(draw, x0 + fx * w, y0 + fy * h, length * h, w * thick, angle, RED if red else GREEN)


def _quad(cx: float, cy: float, along: float, across: float, angle: float,
          offset: float = 0.0) -> list[tuple[float, float]]:
    """Corners of a rectangle centred `offset` along an axis tilted `angle` degrees."""
    a = math.radians(angle)
    ux, uy = math.sin(a), -math.cos(a)  # unit vector along the stick (up at 0°)
    vx, vy = -uy, ux
    mx, my = cx + ux * offset, cy + uy * offset
    return [(mx + ux * sa * along / 2 + vx * sc * across / 2,
             my + uy * sa * along / 2 + vy * sc * across / 2)
            for sa, sc in ((1, 1), (1, -1), (-1, -1), (-1, 1))]


def _stick(draw: ImageDraw.ImageDraw, cx: float, cy: float, length: float, width: float,
           angle: float, colour: RGB) -> None:
    """A bamboo stick: two segments with a joint in the middle and capped ends."""
    dark, light = _shade(colour, 0.6), _mix(colour, IVORY, 0.45)
    draw.polygon(_quad(cx, cy, length, width, angle), fill=colour)
    # The pale centre line is what makes sticks read as rods, not bars, at 40 px.
    draw.polygon(_quad(cx, cy, length * 0.9, width * 0.28, angle), fill=light)
    for off in (-length / 2 + length * 0.05, 0.0, length / 2 - length * 0.05):
        draw.polygon(_quad(cx, cy, length * 0.1, width * 1.35, angle, off), fill=dark)


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    red, green, blue = (round(x + (y - x) * t) for x, y in zip(a, b, strict=True))
    return red, green, blue


def _bird(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """1s: a perched sparrow with a fanned tail, the suit's traditional mark."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0

    def p(fx: float, fy: float) -> tuple[float, float]:
        return x0 + fx * w, y0 + fy * h

    # Tail feathers first so the body overlaps their roots.
    for tip, colour in (((0.02, 0.70), BLUE), ((0.10, 0.86), GREEN), ((0.28, 0.97), RED)):
        draw.line([p(0.42, 0.58), p(*tip)], fill=colour, width=round(w * 0.12))
        _circle(draw, *p(*tip), w * 0.08, colour)
    draw.ellipse((*p(0.22, 0.36), *p(0.86, 0.66)), fill=GREEN)  # body
    draw.chord((*p(0.30, 0.42), *p(0.78, 0.64)), 0, 180, fill=_shade(GREEN, 0.6))  # wing
    _circle(draw, *p(0.72, 0.3), w * 0.17, RED)  # head
    draw.polygon([p(0.84, 0.26), p(1.0, 0.31), p(0.84, 0.35)], fill=(230, 160, 20))  # beak
    _circle(draw, *p(0.76, 0.28), w * 0.045, INK)  # eye
    for fx in (0.5, 0.62):  # legs on a branch
        draw.line([p(fx, 0.64), p(fx - 0.04, 0.8)], fill=(140, 60, 30), width=round(w * 0.05))
    draw.line([p(0.2, 0.8), p(0.95, 0.8)], fill=(140, 90, 40), width=round(w * 0.06))


def _draw_white(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """白: a blank face inside a double blue frame (so it is not mistaken for a back)."""
    x0, y0, x1, y1 = _sub(box, 0.04, 0.04, 0.96, 0.96)
    w = x1 - x0
    draw.rounded_rectangle((x0, y0, x1, y1), w * 0.08, outline=BLUE, width=round(w * 0.1))
    i = w * 0.2
    draw.rounded_rectangle((x0 + i, y0 + i, x1 - i, y1 - i), w * 0.04, outline=BLUE,
                           width=round(w * 0.04))


# Flowers: each its own ink colour; seasons (1–4) number in red, plants (5–8) in blue,
# as the two groups are usually told apart.
_FLOWER_COLOURS: Sequence[RGB] = (
    (30, 140, 60),    # 春 spring: green
    (210, 70, 20),    # 夏 summer: orange-red
    (150, 90, 20),    # 秋 autumn: brown
    (40, 90, 190),    # 冬 winter: blue
    (200, 40, 120),   # 梅 plum: magenta
    (120, 60, 170),   # 蘭 orchid: purple
    (20, 120, 120),   # 竹 bamboo: teal
    (200, 150, 0),    # 菊 chrysanthemum: gold
)


def _draw_flower(canvas: Image.Image, draw: ImageDraw.ImageDraw, rank: int, box: Box) -> None:
    colour = _FLOWER_COLOURS[rank - 1]
    _glyph(canvas, "春夏秋冬梅蘭竹菊"[rank - 1], _sub(box, 0.0, 0.3, 1.0, 1.0), colour)
    _glyph(canvas, str(rank), _sub(box, 0.0, 0.0, 0.38, 0.25), RED if rank <= 4 else BLUE)
    _blossom(draw, _sub(box, 0.56, 0.0, 1.0, 0.25), colour)


def _blossom(draw: ImageDraw.ImageDraw, box: Box, colour: RGB) -> None:
    """A five-petal flower: marks the tile as a flower at a glance."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = min(x1 - x0, y1 - y0) / 2
    for i in range(5):
        a = 2 * math.pi * i / 5 - math.pi / 2
        _circle(draw, cx + math.cos(a) * r * 0.55, cy + math.sin(a) * r * 0.55, r * 0.42, colour)
    _circle(draw, cx, cy, r * 0.3, (240, 200, 40))
