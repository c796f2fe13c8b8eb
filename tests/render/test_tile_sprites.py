"""Tile sprites: sizes, distinctness, a few pixel facts, and the bundled font."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

import render
from engine.tiles import Tile
from render.assets.build_font import TEXT
from render.tiles import FACE_RATIO, FONT_PATH, font, thickness, tile_image, tile_size
from tests.render.pixels import pixel

WIDTHS = (32, 40, 48, 64)
ALL: list[Tile | None] = [*Tile, None]


def _pixels(img: Image.Image, box: tuple[int, int, int, int]) -> list[tuple[int, ...]]:
    x0, y0, x1, y1 = box
    return [pixel(img, (x, y)) for y in range(y0, y1) for x in range(x0, x1)]


def _glyph_bytes(f: ImageFont.FreeTypeFont, ch: str) -> bytes:
    img = Image.new("L", (48, 48), 0)
    ImageDraw.Draw(img).text((4, 4), ch, font=f, fill=255)
    return img.tobytes()


def _is_red(p: tuple[int, ...]) -> bool:
    return p[0] > 150 and p[1] < 90 and p[2] < 90


def _is_green(p: tuple[int, ...]) -> bool:
    return p[1] > p[0] + 40 and p[1] > p[2] + 20


@pytest.mark.parametrize("width", WIDTHS)
def test_every_tile_renders_at_the_documented_size(width: int) -> None:
    expected = (width, round(width * FACE_RATIO) + thickness(width))
    for tile in ALL:
        img = tile_image(tile, width)
        assert img.mode == "RGBA"
        assert img.size == expected == tile_size(width)


def test_height_is_the_face_plus_a_visible_band() -> None:
    for width in WIDTHS:
        _, h = tile_size(width)
        assert 1.35 * width + 2 <= h <= 1.35 * width + 0.2 * width + 1


@pytest.mark.parametrize("width", (40, 64))
def test_all_43_images_are_pairwise_distinct(width: int) -> None:
    images = {tile_image(tile, width).tobytes() for tile in ALL}
    assert len(images) == 43


def test_sprites_are_cached() -> None:
    assert tile_image(Tile.M5, 48) is tile_image(Tile.M5, 48)
    assert tile_image(None, 48) is tile_image(None, 48)


def test_too_small_a_width_is_refused() -> None:
    with pytest.raises(ValueError, match="minimum"):
        tile_image(Tile.M1, 8)


@pytest.mark.parametrize(("tile", "width"), list(product(ALL, (40, 64))))
def test_corners_are_transparent_and_centre_opaque(tile: Tile | None, width: int) -> None:
    img = tile_image(tile, width)
    w, h = img.size
    for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
        assert pixel(img, (x, y))[3] == 0, (tile, x, y)
    assert pixel(img, (w // 2, h // 2))[3] == 255


def test_red_dragon_centre_is_red_and_green_dragon_is_green() -> None:
    width = 48
    face_h = round(width * FACE_RATIO)
    centre = (width // 2 - 4, face_h // 2 - 4, width // 2 + 4, face_h // 2 + 4)
    red = _pixels(tile_image(Tile.RED, width), centre)
    assert sum(map(_is_red, red)) >= 8  # 中's vertical stroke crosses the centre
    assert not any(map(_is_green, red))
    green = _pixels(tile_image(Tile.GREEN, width), (0, 0, width, face_h))
    assert sum(map(_is_green, green)) >= 40
    assert not any(map(_is_red, green))


def test_characters_have_a_red_wan_and_winds_have_no_red() -> None:
    width = 48
    face_h = round(width * FACE_RATIO)
    lower = (0, face_h // 2, width, face_h)
    assert sum(map(_is_red, _pixels(tile_image(Tile.M3, width), lower))) >= 40
    for wind in (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH):
        assert not any(map(_is_red, _pixels(tile_image(wind, width), (0, 0, width, face_h))))


def test_face_tiles_show_a_green_band_and_the_back_is_green() -> None:
    width = 48
    w, h = tile_size(width)
    band_y = h - thickness(width) // 2 - 1
    assert _is_green(pixel(tile_image(Tile.P5, width), (w // 2, band_y)))
    back = tile_image(None, width)
    assert _is_green(pixel(back, (w // 4, h // 3)))
    assert not _is_green(pixel(back, (w // 2, band_y)))  # ivory face layer underneath


def test_white_dragon_has_a_blue_frame_and_blank_middle() -> None:
    width = 48
    img = tile_image(Tile.WHITE, width)
    face_h = round(width * FACE_RATIO)
    row = [pixel(img, (x, face_h // 2)) for x in range(width)]
    assert any(p[2] > p[0] + 60 for p in row)
    mid = pixel(img, (width // 2, face_h // 2))
    assert min(mid[:3]) > 220  # ivory inside the frame


def test_font_is_the_bundled_subset() -> None:
    f = font(24)
    package_dir = Path(render.__file__).resolve().parent
    assert isinstance(f.path, str) and Path(f.path).resolve() == FONT_PATH
    assert FONT_PATH.is_relative_to(package_dir / "assets")
    assert FONT_PATH.suffix == ".otf"
    assert FONT_PATH.stat().st_size < 200_000
    assert "Mahjong Tiles CJK Subset" in " ".join(name or "" for name in f.getname())
    assert font(24) is f


def test_font_covers_every_character_the_pictures_use() -> None:
    f = font(32)
    notdef = _glyph_bytes(f, "龍")  # not in the subset: renders the .notdef box
    assert any(notdef)
    missing = [ch for ch in TEXT if not ch.isspace() and _glyph_bytes(f, ch) == notdef]
    assert missing == []


def test_licence_ships_next_to_the_font() -> None:
    licence = (FONT_PATH.parent / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert "Adobe" in licence
