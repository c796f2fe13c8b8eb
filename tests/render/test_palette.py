"""`render.palette`: the shared palette is kept (`COLOURS`), not made by each process
that draws, and is still exactly the palette the sample pictures give (`derive`)."""

from __future__ import annotations

import pytest
from PIL import Image

from render import samples
from render.hand import render_hand
from render.palette import COLOURS, derive, shared_palette
from render.table import render_table


def test_the_kept_colours_are_the_samples_palette() -> None:
    """A change to the drawing's colours (a new panel colour, a font's anti-aliasing)
    makes `derive` give other colours: write `derive()`'s palette into `COLOURS`."""
    assert len(COLOURS) == 256 * 3
    assert bytes(derive().getpalette("RGB") or ()) == COLOURS


def test_a_picture_takes_the_same_indices_as_from_the_derived_palette() -> None:
    derived = derive()
    for picture in (render_table(samples.table_late(), samples.NAMES, 1)[0],
                    render_table(samples.table_claim(), samples.NAMES)[0],
                    render_hand(samples.hand_caishen_flip())):
        ours = picture.quantize(palette=shared_palette(), dither=Image.Dither.NONE)
        theirs = picture.quantize(palette=derived, dither=Image.Dither.NONE)
        assert ours.tobytes() == theirs.tobytes()
        assert ours.getpalette() == theirs.getpalette()


def test_the_palette_is_had_without_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process's first picture no longer draws the ten samples and quantizes them
    (1–1.6 s of CPU and 122 MiB at its peak, issue 32): no renderer is called."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the palette drew a picture")

    monkeypatch.setattr("render.table.render_table", refuse)
    monkeypatch.setattr("render.hand.render_hand", refuse)
    shared_palette.cache_clear()
    try:
        assert bytes(shared_palette().getpalette("RGB") or ()) == COLOURS
    finally:
        shared_palette.cache_clear()
