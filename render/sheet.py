"""A contact sheet of every tile sprite, for looking at by eye.

    python -m render.sheet OUTDIR [WIDTH ...]   # default widths: 40 and 64

writes ``OUTDIR/tiles.png``: one block per width, each with a row per suit (characters,
dots, bamboo, honours, flowers + the back), on Discord's dark background.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

from engine.tiles import Tile
from render.tiles import tile_image, tile_size

TABLE = (49, 51, 56, 255)  # Discord's dark theme, where the pictures are seen
ROWS: list[list[Tile | None]] = [
    [Tile(i) for i in range(0, 9)],
    [Tile(i) for i in range(9, 18)],
    [Tile(i) for i in range(18, 27)],
    [Tile(i) for i in range(27, 34)],
    [*(Tile(i) for i in range(34, 42)), None],
]


def contact_sheet(widths: tuple[int, ...] = (40, 64)) -> Image.Image:
    gap = 6
    blocks = []
    for width in widths:
        w, h = tile_size(width)
        block = Image.new("RGBA", (9 * (w + 2) + 2 * gap, len(ROWS) * (h + gap) + gap), TABLE)
        for r, row in enumerate(ROWS):
            for c, tile in enumerate(row):
                sprite = tile_image(tile, width)
                block.alpha_composite(sprite, (gap + c * (w + 2), gap + r * (h + gap)))
        blocks.append(block)
    sheet = Image.new("RGBA", (max(b.width for b in blocks), sum(b.height for b in blocks)), TABLE)
    y = 0
    for block in blocks:
        sheet.alpha_composite(block, (0, y))
        y += block.height
    return sheet


def main(argv: list[str]) -> None:
    if not argv:
        sys.exit("usage: python -m render.sheet OUTDIR [WIDTH ...]")
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    widths = tuple(int(a) for a in argv[1:]) or (40, 64)
    path = out / "tiles.png"
    contact_sheet(widths).save(path)
    print(f"wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
