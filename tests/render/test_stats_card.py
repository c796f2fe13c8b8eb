"""The ``/mahjong stats`` card: every section laid out inside the picture, in English and
in Chinese, every character drawn from a bundled font, the rating as a gold badge."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import draw, samples
from render.stats import (
    HEADER_H,
    WIDTH,
    Figure,
    Section,
    StatsCard,
    columns_for,
    glyphs,
    render_stats,
    stats_card,
)
from render.tiles import name_font

CARDS = samples.stats_cards()


@pytest.mark.parametrize("name", sorted(CARDS))
def test_each_sample_card_is_a_png_of_the_card_s_width(name: str) -> None:
    data = stats_card(CARDS[name])
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "PNG" and img.width == WIDTH
        assert HEADER_H < img.height < 2000


@pytest.mark.parametrize("name", sorted(CARDS))
def test_every_character_a_card_draws_is_in_a_bundled_font(name: str) -> None:
    missing = {ch for ch in glyphs(CARDS[name])
               if not draw._has_glyph(ch) and not draw._has_glyph(ch, name_font)}
    assert missing == set()


def test_a_card_grows_with_its_sections_and_an_empty_one_is_short() -> None:
    full = render_stats(CARDS["stats_card_en"])
    fewer = render_stats(StatsCard("Alice", "x", CARDS["stats_card_en"].sections[:2]))
    empty = render_stats(CARDS["stats_card_empty"])
    assert empty.height < fewer.height < full.height


def test_rows_are_filled_evenly() -> None:
    assert [columns_for(n) for n in (1, 3, 4, 5, 6, 7, 8)] == [4, 3, 4, 5, 3, 4, 4]


def test_the_rating_badge_is_drawn_only_when_there_is_a_rating() -> None:
    section = (Section("Matches", (Figure("Matches played", "3"),)),)
    rated = render_stats(StatsCard("Ann", "Shanghai", section, badge_label="Rating",
                                   badge="1,000?"))
    unrated = render_stats(StatsCard("Ann", "Shanghai", section))

    def golden(img: Image.Image) -> int:
        rgb = img.convert("RGB")
        return sum(1 for x in range(WIDTH - 200, WIDTH - 4) for y in range(4, HEADER_H - 6)
                   if _gold(rgb.getpixel((x, y))))

    assert golden(unrated) == 0 and golden(rated) > 100


def _gold(p: object) -> bool:
    assert isinstance(p, tuple)
    return bool(p[0] > 200 and p[1] > 150 and p[2] < 120)


def test_drawing_is_deterministic() -> None:
    assert stats_card(CARDS["stats_card_zh"]) == stats_card(CARDS["stats_card_zh"])
