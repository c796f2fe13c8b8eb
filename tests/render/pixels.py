"""Reading pixels back from the pictures the tests draw."""

from __future__ import annotations

from PIL import Image


def pixel(img: Image.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    """The band values of a multi-band image's pixel at ``xy`` (RGB, RGBA)."""
    value = img.getpixel(xy)
    assert isinstance(value, tuple), f"a {img.mode} image has no bands to read"
    return value
