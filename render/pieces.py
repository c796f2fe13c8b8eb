"""A picture put together from pieces kept already in the shared palette.

A table picture is mostly the same from one move to the next: a discard changes one
river, the centre's count and two seats' plates; the other rivers and panels are as
they were. Drawing the whole table each time (pasting some hundred tiles on a copy of
the cloth, then mapping every pixel to the shared palette) cost about 12 ms. Here each
part ("piece": the centre, a river, a seat's panel) is drawn once for what it shows,
mapped to the palette once, and kept under a key that names everything it shows;
a picture is the cloth in the palette (made once a size) with its pieces pasted on.

Why the result is exactly the whole drawing's, pixel for pixel:

- the palette mapping has no dithering, so each pixel's index depends on that pixel's
  colour alone: mapping a part, or the whole, gives the same indices;
- a piece is drawn at its place on a clean cloth (`Pieces` keeps one canvas a size,
  put back after each piece), and only the box its drawing changed is kept;
- the pieces' boxes must not overlap (one piece's pixels then never lie under
  another's) and a piece's drawing must stay inside its room (its region and
  `MARGIN` round it). When either fails, `assemble` says so and the caller draws the
  whole picture as before.

`tests/render/test_table_pieces.py` compares the two, index for index, over whole
seeded hands of both rule sets from every seat.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from render.draw import cloth
from render.palette import shared_palette

Box = tuple[int, int, int, int]
Size = tuple[int, int]
Draw = Callable[[Image.Image, ImageDraw.ImageDraw], None]

MARGIN = 12
"""How far past its region a piece may draw (a claim badge or an outline sticks out)."""
BUDGET = 96 << 20
"""Bytes of kept pieces (one byte a pixel) before the least recently used go. A table's
nine pieces are about 0.2 MB at the start of a hand, 0.3 mid-hand and 0.55 late: this
keeps some three hundred tables' worth, more than `bench/discord.py`'s 200 at once."""
PIECE_OVERHEAD = 256
"""Bytes counted for a piece besides its pixels (the key, the image object)."""


@dataclass(frozen=True)
class Part:
    """One piece of a picture: what it shows (`key`), where, and how to draw it."""

    key: Hashable
    region: Box
    draw: Draw


@dataclass(frozen=True)
class Piece:
    """A drawn part: its pixels in the palette and their top-left corner; ``None``
    when it drew nothing on the cloth."""

    box: Box | None
    image: Image.Image | None

    def size(self) -> int:
        return PIECE_OVERHEAD + (self.image.width * self.image.height if self.image else 0)


class Escaped(Exception):
    """A piece drew up to its room's edge: it may have drawn outside it."""


@lru_cache(maxsize=8)
def paper(size: Size) -> Image.Image:
    """The cloth of `size` in the shared palette (never drawn on: copied)."""
    return in_palette(cloth(size))


def in_palette(img: Image.Image) -> Image.Image:
    return img.quantize(palette=shared_palette(), dither=Image.Dither.NONE)


class Pieces:
    """Kept pieces (least recently used dropped past `budget` bytes) and the canvases
    they are drawn on. Safe to share between threads (one lock)."""

    def __init__(self, budget: int = BUDGET) -> None:
        self.budget = budget
        self.hits = 0
        self.misses = 0
        self.kept_bytes = 0
        self._kept: OrderedDict[Hashable, Piece] = OrderedDict()
        self._canvases: dict[Size, Image.Image] = {}
        self._lock = threading.Lock()

    def assemble(self, size: Size, parts: Sequence[Part]) -> Image.Image | None:
        """The picture of `size` (mode P) with `parts` drawn on the cloth, or ``None``
        when it cannot be put together exactly (see the module doc)."""
        with self._lock:
            try:
                pieces = [self._piece(size, part) for part in parts]
            except Escaped:
                self._canvases.pop(size, None)  # may hold a stray drawing
                return None
            except BaseException:
                self._canvases.pop(size, None)  # a drawing that failed half way
                raise
        boxes = [p.box for p in pieces if p.box is not None]
        if _overlapping(boxes):
            return None
        out = paper(size).copy()
        for piece in pieces:
            if piece.image is not None and piece.box is not None:
                out.paste(piece.image, piece.box[:2])
        return out

    def _piece(self, size: Size, part: Part) -> Piece:
        key = (size, part.region, part.key)
        piece = self._kept.get(key)
        if piece is not None:
            self.hits += 1
            self._kept.move_to_end(key)
            return piece
        self.misses += 1
        piece = self._drawn(size, part)
        self._keep(key, piece)
        return piece

    def _drawn(self, size: Size, part: Part) -> Piece:
        canvas = self._canvases.get(size)
        if canvas is None:
            canvas = self._canvases.setdefault(size, cloth(size))
        room = _room(part.region, size)
        part.draw(canvas, ImageDraw.Draw(canvas))
        clean = _clean(size, room)
        changed = ImageChops.difference(canvas.crop(room), clean).getbbox()
        if changed is None:
            return Piece(None, None)
        if _at_inner_edge(changed, room, size):
            raise Escaped(part.key)
        x, y = room[0], room[1]
        box = (x + changed[0], y + changed[1], x + changed[2], y + changed[3])
        piece = Piece(box, in_palette(canvas.crop(box)))
        canvas.paste(clean, room[:2])
        return piece

    def clear(self) -> None:
        """Every kept piece and canvas let go (the next picture draws its pieces anew)."""
        with self._lock:
            self._kept.clear()
            self._canvases.clear()
            self.kept_bytes = 0

    def _keep(self, key: Hashable, piece: Piece) -> None:
        self._kept[key] = piece
        self.kept_bytes += piece.size()
        while self.kept_bytes > self.budget and self._kept:
            _, old = self._kept.popitem(last=False)
            self.kept_bytes -= old.size()


@lru_cache(maxsize=64)
def _clean(size: Size, room: Box) -> Image.Image:
    """The bare cloth of a room (what a canvas is put back to)."""
    return cloth(size).crop(room)


def _room(region: Box, size: Size) -> Box:
    x0, y0, x1, y1 = region
    w, h = size
    return (max(0, x0 - MARGIN), max(0, y0 - MARGIN), min(w, x1 + MARGIN),
            min(h, y1 + MARGIN))


def _at_inner_edge(changed: Box, room: Box, size: Size) -> bool:
    """Whether a change (relative to `room`) reaches a side of the room that is not the
    picture's own edge."""
    x0, y0, x1, y1 = room
    w, h = x1 - x0, y1 - y0
    return ((changed[0] == 0 and x0 > 0) or (changed[1] == 0 and y0 > 0)
            or (changed[2] == w and x1 < size[0]) or (changed[3] == h and y1 < size[1]))


def _overlapping(boxes: Sequence[Box]) -> bool:
    return any(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
               for i, a in enumerate(boxes) for b in boxes[i + 1:])
