"""PNG bytes of a palette picture, compressed by ISA-L's deflate instead of zlib's.

Every hand and table picture is a 256-colour palette image (`draw.png`), and once the
palette is applied almost all of its encoding time is zlib's deflate: Pillow already
writes palette rows unfiltered, and its zlib levels 1–3 cost about the same. ISA-L's
level 1 (`isal`, a C library with wheels for the usual platforms) deflates the same rows
four to six times faster for about the same size (a late-game table 14.6 → 2.4 ms,
106 → 109 KB; a hand 1.4 → 0.4 ms). The pixels are exactly those Pillow would have
written (`tests/render/test_encode.py` decodes both); only the compressed bytes differ.

The file is the plainest valid PNG: IHDR (8-bit indexed colour), PLTE, one IDAT, IEND,
each row prefixed by filter type 0 (none: what libpng advises for palette images, and
what Pillow chose for these).
"""

from __future__ import annotations

import struct
import zlib

from isal import isal_zlib
from PIL import Image

LEVEL = 1
"""ISA-L's level: 0 is 15 % bigger for no gain in time, 2 and 3 several times slower
for under 1 % fewer bytes."""
SIGNATURE = b"\x89PNG\r\n\x1a\n"
INDEXED = 3
"""IHDR's colour type for palette images."""


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def palette_png(img: Image.Image) -> bytes:
    """The PNG of ``img`` (mode ``P``, no transparency) at 8 bits a pixel."""
    if img.mode != "P" or "transparency" in img.info:
        raise ValueError(f"palette_png takes an opaque palette image, not mode {img.mode}")
    width, height = img.size
    # each row after its filter byte (0): the picture one column to the right on a
    # canvas whose first column is 0 (Pillow copies a palette picture's indices as they are)
    framed = Image.new("P", (width + 1, height), 0)
    framed.paste(img, (1, 0))
    rows = framed.tobytes()
    palette = bytes(img.getpalette("RGB") or ())
    header = struct.pack(">IIBBBBB", width, height, 8, INDEXED, 0, 0, 0)
    return b"".join((SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", palette),
                     _chunk(b"IDAT", isal_zlib.compress(rows, LEVEL)), _chunk(b"IEND", b"")))
