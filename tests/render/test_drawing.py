"""Shared drawing helpers: meld conventions, numbers, text safety, and the gallery."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

import render.draw as draw
from engine.melds import MeldKind
from engine.tiles import Tile
from engine.view import MeldView
from render import gallery, samples
from render.draw import chi_order, meld_tiles
from render.tiles import FACE_RATIO, sideways_image, thickness, tile_image
from tests.render.pixels import pixel

K = MeldKind


@pytest.mark.parametrize(("from_seat", "index"), [(3, 0), (2, 1), (1, 2)])
def test_claimed_tile_position_points_at_the_discarder(from_seat: int, index: int) -> None:
    pong = MeldView(K.PONG, (Tile.P7,) * 3, from_seat, Tile.P7)
    laid = draw.meld_tiles(pong, 0, public=True)
    assert [sideways for _, sideways in laid].index(True) == index


@pytest.mark.parametrize(("from_seat", "index"), [(0, 0), (3, 1), (2, 3)])
def test_kong_from_each_side(from_seat: int, index: int) -> None:
    kong = MeldView(K.KONG, (Tile.S2,) * 4, from_seat, Tile.S2)
    laid = draw.meld_tiles(kong, 1, public=True)
    assert [sideways for _, sideways in laid].index(True) == index


def test_chi_keeps_the_claimed_tile_sideways_and_the_rest_in_order() -> None:
    chi = MeldView(K.CHI, (Tile.M3, Tile.M4, Tile.M5), 3, Tile.M4)
    assert draw.meld_tiles(chi, 0, public=True) == [
        (Tile.M4, True), (Tile.M3, False), (Tile.M5, False)]


def test_added_kong_stacks_its_fourth_tile_on_the_claimed_one() -> None:
    added = MeldView(K.ADDED_KONG, (Tile.GREEN,) * 4, 2, Tile.GREEN)
    placed = draw.meld_layout(added, 0, 48, public=False)
    sideways = [p for p in placed if p.sideways]
    assert len(placed) == 4 and len(sideways) == 2
    assert sideways[0].dx == sideways[1].dx and sideways[1].bottom > 0
    w, h = draw.meld_size(added, 0, 48, public=False)
    assert h > round(48 * FACE_RATIO) + thickness(48)  # taller than one upright tile
    assert w == 2 * 48 + round(48 * FACE_RATIO) + 2


def test_concealed_kong_two_backs_to_its_owner_four_to_everyone_else() -> None:
    kong = MeldView(K.CONCEALED_KONG, (Tile.S5,) * 4)
    own = draw.meld_tiles(kong, 0, public=False)
    assert [t for t, _ in own] == [None, Tile.S5, Tile.S5, None]
    assert [t for t, _ in draw.meld_tiles(kong, 0, public=True)] == [None] * 4


def test_sideways_sprite_is_the_upright_one_turned() -> None:
    up, side = tile_image(Tile.M1, 48), sideways_image(Tile.M1, 48)
    assert side.size == (round(48 * FACE_RATIO), 48 + thickness(48))
    assert pixel(side, (0, 0))[3] == 0 and pixel(side, (side.width // 2, 10))[3] == 255
    assert up.size != side.size


@pytest.mark.parametrize(("value", "signed", "text"), [
    (Fraction(7, 2), False, "3.5"), (Fraction(200), True, "+200"), (-16, True, "-16"),
    (0, True, "0"), (Fraction(-1, 3), False, "-0.33"), (2.5, True, "+2.5")])
def test_numbers_read_as_people_write_them(value: Fraction | float, signed: bool, text: str
                                           ) -> None:
    assert draw.number(value, signed=signed) == text


def test_characters_outside_the_font_become_question_marks() -> None:
    assert draw.safe("Bo 東 财神") == "Bo 東 财神"
    assert draw.safe("龍 😀") == "? ?"


def test_fit_cuts_long_names_with_an_ellipsis() -> None:
    name = "Dmitri_the_Long_Named_Player"
    cut = draw.fit(name, 19, 120)
    assert cut.endswith("…") and draw.text_width(cut, 19) <= 120
    assert draw.fit("Al", 19, 120) == "Al"


def test_every_string_the_pictures_draw_is_in_a_bundled_font(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    from render.tiles import name_font

    seen: list[str] = []
    real = draw.safe

    def recording(text: str) -> str:
        seen.append(text)
        return real(text)

    monkeypatch.setattr(draw, "safe", recording)
    gallery.pictures()
    # Fixed text is in the picture font; names may need the names font — either way,
    # nothing a sample draws turns into "?".
    missing = {ch for text in seen for ch in text
               if not draw._has_glyph(ch) and not draw._has_glyph(ch, name_font)}
    assert seen and missing == set()


def test_gallery_writes_every_sample(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                     ) -> None:
    gallery.main([str(tmp_path)])
    files = sorted(p.name for p in tmp_path.glob("*.png"))
    expected = {*samples.HANDS, *samples.TABLES, *samples.SETTLEMENTS}
    assert {f"{n}.png" for n in expected} <= set(files)
    assert "leaderboard_20.png" in files
    for path in tmp_path.glob("*.png"):
        with Image.open(path) as img:
            assert img.width <= 1200
    assert "KiB" in capsys.readouterr().out


def test_chinese_names_draw_with_the_names_font_and_emoji_fall_back() -> None:
    from render.draw import safe, text_width

    assert safe("陈伟 Chen") == "陈伟 Chen"
    assert safe("王小明🀄") == "王小明?"
    assert text_width("陈伟", 20) > text_width("?", 20) * 2


@pytest.mark.parametrize(("text", "anchor", "xy"), [
    ("12", "mt", (40, 10)), ("Ann", "la", (3.5, 7.25)), ("李雷 +12.5", "rm", (190.75, 30)),
    ("東 Dealer", "lm", (10, 40.5)), ("Zoë 🀄", "mm", (100, 50))])
def test_text_is_drawn_exactly_as_pillow_draws_it(text: str, anchor: str,
                                                  xy: tuple[float, float]) -> None:
    """`draw_text` reuses each text's rendered glyphs: the pixels must not change."""
    ours, theirs = (Image.new("RGB", (200, 64), (20, 90, 60)) for _ in range(2))
    for _ in range(2):  # the second time from the cache
        end = draw.draw_text(ImageDraw.Draw(ours), xy, text, 18, draw.GOLD, anchor=anchor)
    shown = draw.safe(text)
    face = draw._face(shown)(18)
    ImageDraw.Draw(theirs).text(xy, shown, font=face, fill=draw.GOLD, anchor=anchor)
    ImageDraw.Draw(theirs).text(xy, shown, font=face, fill=draw.GOLD, anchor=anchor)
    assert ours.tobytes() == theirs.tobytes()
    assert end == round(xy[0] + face.getlength(shown))


def test_a_caishen_in_a_chi_is_laid_where_it_stands() -> None:
    """Chi 4p + 财神 (for 5p) + 6p is laid 4p 财神 6p, not 4p 6p 财神 (by the 财神's own
    kind); beside two neighbours the 财神 goes where the run goes on."""
    wild = Tile.WHITE
    claimed = MeldView(MeldKind.CHI, (Tile.P4, Tile.P6, wild), from_seat=3, claimed=Tile.P4)
    assert meld_tiles(claimed, 0, public=True, caishen=wild) == [
        (Tile.P4, True), (wild, False), (Tile.P6, False)]
    assert chi_order((Tile.P6, Tile.P4, wild), wild) == [Tile.P4, wild, Tile.P6]
    assert chi_order((Tile.S4, Tile.S5, wild), wild) == [Tile.S4, Tile.S5, wild]
    assert chi_order((Tile.S8, Tile.S9, wild), wild) == [wild, Tile.S8, Tile.S9]
    assert chi_order((Tile.M9, wild, wild), wild) == [wild, wild, Tile.M9]
    assert chi_order((Tile.M1, Tile.M2, Tile.M3), wild) == [Tile.M1, Tile.M2, Tile.M3]


def test_a_hand_picture_speaks_its_readers_language(monkeypatch: pytest.MonkeyPatch
                                                    ) -> None:
    """A Chinese reader's hand picture is in Chinese alone (no "Hand", "left", "Wild");
    an English reader's keeps the Chinese terms glossed, as the English texts do."""
    import render.hand
    drawn: list[str] = []
    real = draw.draw_text  # what render.hand imported

    def record(draw: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(text)
        return real(draw, xy, text, *args, **kwargs)

    monkeypatch.setattr(render.hand, "draw_text", record)
    view = samples.hand_ready()
    render.hand.render_hand(view, lang="zh")
    words = [x for x in drawn if not x.isdigit()]
    assert words and not [x for x in words if re.search(r"[A-Za-z]", x)], words
    drawn.clear()
    render.hand.render_hand(view, lang="en")
    assert any("Hand" in x for x in drawn) and any("left" in x for x in drawn), drawn
