"""The 256 colours every table and hand picture is reduced to, worked out once.

`draw.png` reduces a picture to a palette before compressing it (a third of the data).
Working out a palette for each picture (fast octree) costs more than drawing a hand
and half as much as drawing a table, and they all use the same few colours: the cloth,
the tile faces and inks, the panels and the text colours, with their anti-aliased
edges. So one palette is made from sample pictures that show all of them
(`render.samples`: tables in play, at a claim and at the end, and hands with melds,
kongs, flowers, waits and both kinds of 财神), and every table and hand picture is
mapped to it (nearest colour, no dithering: ~0.3 ms for a hand, 2 ms for a table
instead of 1.4 and 15).

The palette is kept here (`COLOURS`) rather than made by each process that draws
(`derive`): making it drew ten samples and quantized a 1200×5644 swatch, 1–1.6 s of
CPU and 122 MiB at its peak (28 MiB left behind) in every picture process as it
started, and in the bot's own when it drew while its workers started (issue 32).
`tests/render/test_palette.py` checks that `derive` still gives these colours: a
change to the drawing's colours says there to write them again here.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

COLOURS = bytes.fromhex(
    "a31e23 60655b 5b662c 681b1c d99e9b cea726 18572f 23695a "
    "9fa0a2 aa5857 93581d 596998 d66461 d8d9d8 6e909e 19306c "
    "55a06e a1922f 2e53a0 37915c 102d16 e9d2a1 de9e6a d66790 "
    "a4a5cb 988e6f d12c25 b9cbc6 7790c3 c72269 f0cd3a d14b25 "
    "a1c3aa 7234a8 dab4cb 153a89 8d5bb3 118633 778434 9d3c41 "
    "e2c56e 2f8685 2d5ec2 cb3981 4c74c5 a47dc0 1d603d 000000 "
    "113624 f7f4ea 13422c 175034 f1ede4 eae5d7 edebe2 fcfcf4 "
    "1a7c51 e2d9c4 a49c89 3a815c 1c8154 0e452b f2ecdd 276145 "
    "114a30 fed540 aca593 b3a693 b2c7b7 19784b c71924 ddd4bd "
    "1a245b ddd6c2 83837b 156844 ebb328 0b1652 077434 e5463c "
    "c5121d d4cbb6 35996a 479765 c8222b e7e0cd d8d8d5 87b996 "
    "016829 3ca070 787567 14793c 228348 c40b17 003818 121c56 "
    "093923 55866a e4a9a6 c7d7c5 78d2ff 87a894 456a54 7c7b76 "
    "779984 abc5b4 e19997 d35459 457759 0a3799 679479 dc8888 "
    "a4baa9 9ab7a4 e8c8c3 807d78 da7778 3a7554 c5c7c9 9b9683 "
    "79a589 e8b9b5 d7666a 055926 c3baa5 e8dbd5 67a67c 365846 "
    "dbe3d6 123d9b 21623e 1c8144 254936 36684b 248556 3c3c46 "
    "577865 b9bac3 a6a9b7 668875 59544b 1a45a1 02421c ca2932 "
    "647c66 2a3365 cd3c43 a8a08c 868582 224ba3 757a96 cc343b "
    "d14d52 434b76 eef1e7 555b81 232c61 b9d3bb 5473b3 00702d "
    "7ab38b 869ac4 e6b1ac 18429d 343c6b c9c2ad d65c61 758975 "
    "878ba2 13552c 2b52a5 9598ab 062717 010a49 76937a 94b49c "
    "98c3a3 4d8264 e8c3bd d0454b 26533c 646a8b 829a8a a70a15 "
    "83a38b b3b5bb f3dbd5 2c9062 bbb4a0 80796a a5c6ac b9c3d5 "
    "0b3287 2c8e61 00330c dc9493 022a86 c9c7b3 4668ae 5c8b71 "
    "c7cbd5 44634d 497c61 6cac82 d8b9b4 1d1d27 93aa9b 670308 "
    "38562d 072b79 25482a 5c6286 05134d c72677 8a91a8 68876d "
    "82859d c38685 e3d8bc 4a6bb0 96a8cc 92c19d 3c4471 78856e "
    "4b527b da6e70 52986b f1c8c3 e3a19d a8b7d2 7d819b b8a839 "
    "51587e 264486 386b51 207b52 ba0914 94917e e7c63d b7010c "
    "cd4248 667533 002c93 adb7b5 878834 168836 b97575 cbd2da "
    "a59b36 a8b3c7 48815c 355aaa f2d3cc c1010d 748cbd bab39c")
"""`derive`'s palette: 256 colours, 3 bytes (RGB) each, in its order."""


@lru_cache(maxsize=1)
def shared_palette() -> Image.Image:
    """A palette image (mode ``P``) for `Image.quantize`'s ``palette``."""
    palette = Image.new("P", (1, 1))
    palette.putpalette(COLOURS, "RGB")
    return palette


def derive() -> Image.Image:
    """The palette made from the sample pictures (`COLOURS` is what it gave)."""
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
