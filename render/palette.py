"""The 256 colours every table and hand picture is reduced to, worked out once.

`draw.png` reduces a picture to a palette before compressing it (a third of the data).
Working out a palette for each picture (fast octree) costs more than drawing a hand
and half as much as drawing a table, and they all use the same few colours: the cloth,
the tile faces and inks, the panels and the text colours, with their anti-aliased
edges. So one palette is made per process, from sample pictures that show all of them
(`render.samples`: tables in play, at a claim and at the end, and hands with melds,
kongs, flowers, waits and both kinds of 财神), and every table and hand picture is
mapped to it (nearest colour, no dithering: ~0.3 ms for a hand, 2 ms for a table
instead of 1.4 and 15).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image


@lru_cache(maxsize=1)
def shared_palette() -> Image.Image:
    """A palette image (mode ``P``) for `Image.quantize`'s ``palette``."""
    # imported here: the renderers import `render.draw`, which uses this module
    from render import samples
    from render.hand import render_hand
    from render.table import render_table

    pictures = [render_table(view(), samples.NAMES)[0] for view in (
        samples.table_late, samples.table_claim, samples.table_start, samples.table_ended)]
    pictures += [render_hand(view()) for view in (
        samples.hand_14, samples.hand_ready, samples.hand_four_kongs,
        samples.hand_eight_flowers, samples.hand_caishen_fixed, samples.hand_caishen_flip)]
    swatch = Image.new("RGB", (max(p.width for p in pictures),
                               sum(p.height for p in pictures)))
    y = 0
    for picture in pictures:
        swatch.paste(picture.convert("RGB"), (0, y))
        y += picture.height
    return swatch.quantize(256, method=Image.Quantize.FASTOCTREE)
