"""`render.encode`: the pictures' PNGs written with ISA-L's deflate show exactly the pixels
Pillow's own PNG writer would have stored (the bytes differ, the picture does not)."""

from __future__ import annotations

import io
import random
from collections.abc import Callable

import pytest
from PIL import Image

from engine import rules
from engine.ai import choose_action
from engine.game import apply, deciding_seats, new_hand
from engine.game.state import Phase
from engine.tiles import full_set
from engine.view import spectator_view, view
from render import samples
from render.cards import render_leaderboard, render_settlement
from render.draw import png
from render.encode import palette_png
from render.hand import hand_image, render_hand
from render.palette import shared_palette
from render.table import render_table, table_image


def _pillow_png(img: Image.Image) -> bytes:
    """What `draw.png` wrote before `render.encode`: Pillow's writer, zlib level 3."""
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=3)
    return buf.getvalue()


def _decoded(data: bytes) -> tuple[str, tuple[int, int], bytes]:
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "PNG"
        return img.mode, img.size, img.convert("RGB").tobytes()


def _shared(img: Image.Image) -> Image.Image:
    return img.convert("RGB").quantize(palette=shared_palette(), dither=Image.Dither.NONE)


def _octree(img: Image.Image) -> Image.Image:
    return img.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE)


PICTURES: dict[str, Callable[[], Image.Image]] = {
    "hand_14": lambda: _shared(render_hand(samples.hand_14())),
    "hand_four_kongs": lambda: _shared(render_hand(samples.hand_four_kongs())),
    "hand_caishen_flip": lambda: _shared(render_hand(samples.hand_caishen_flip())),
    "table_late": lambda: _shared(render_table(samples.table_late(), samples.NAMES)[0]),
    "table_ended": lambda: _shared(render_table(samples.table_ended(), samples.NAMES)[0]),
    "settlement": lambda: _octree(render_settlement(samples.settlement_shanghai(),
                                                    samples.NAMES, "shanghai")),
    "leaderboard": lambda: _octree(render_leaderboard(samples.leaderboard_rows(20),
                                                      "Leaderboard")),
}


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_the_same_pixels_as_pillows_writer(name: str) -> None:
    picture = PICTURES[name]()
    ours, pillows = _decoded(palette_png(picture)), _decoded(_pillow_png(picture))
    assert ours == pillows
    assert ours[0] == "P"


def test_the_palette_indices_are_kept() -> None:
    picture = PICTURES["table_late"]()
    with Image.open(io.BytesIO(palette_png(picture))) as back:
        assert back.mode == "P"
        assert back.tobytes() == picture.tobytes()
        assert back.getpalette("RGB") == picture.getpalette("RGB")


def test_every_picture_of_a_seeded_hand_is_unchanged() -> None:
    """The hand and table pictures of a whole seeded hand, as `draw.png` makes them now,
    decode to the pixels Pillow's writer gave for the same pictures."""
    rng = random.Random(11)
    wall = full_set(rules.get("hangzhou").has_flowers)
    rng.shuffle(wall)
    state, _ = new_hand("hangzhou", None, tuple(wall), 0, (3, 4))
    checked = 0
    while state.phase is not Phase.ENDED:
        seat = deciding_seats(state)[0]
        if checked < 40 and state.seq % 3 == 0:
            mine = view(state, seat)
            assert _decoded(hand_image(mine)) == _decoded(_pillow_png(_shared(render_hand(mine))))
            table = spectator_view(state)
            drawn = render_table(table, samples.NAMES)[0]
            assert _decoded(table_image(table, samples.NAMES)) == _decoded(
                _pillow_png(_shared(drawn)))
            checked += 1
        state, _ = apply(state, choose_action(state, seat, rng))
    assert checked >= 20


def test_only_an_opaque_palette_picture_is_taken() -> None:
    with pytest.raises(ValueError, match="opaque palette image"):
        palette_png(Image.new("RGB", (4, 4)))
    clear = Image.new("P", (4, 4))
    clear.info["transparency"] = 0
    with pytest.raises(ValueError, match="opaque palette image"):
        palette_png(clear)


def test_an_rgb_picture_still_goes_through_pillow() -> None:
    img = Image.new("RGB", (8, 4), (10, 200, 30))
    assert _decoded(png(img, palette=False)) == ("RGB", (8, 4), img.tobytes())
