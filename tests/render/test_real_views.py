"""The pictures of views the engine builds from real hands (computer players, seeded)."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from engine import rules
from engine.ai import choose_action
from engine.game import apply, deciding_seats, new_hand
from engine.game.state import Phase
from engine.tiles import full_set
from engine.view import spectator_view, view
from render.cards import settlement_card
from render.hand import hand_image, render_hand
from render.table import render_table, table_image

NAMES = ("Ann", "Ben", "Cai", "Dee")


def _width(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "PNG"
        return img.width


@pytest.mark.parametrize(("ruleset", "options"), [
    ("shanghai", None), ("hangzhou", None), ("hangzhou", {"caishen": "flip"})])
def test_a_whole_hand_renders_from_engine_views(ruleset: str, options: dict[str, Any] | None
                                                ) -> None:
    rng = random.Random(3)
    wall = full_set(rules.get(ruleset).has_flowers)
    rng.shuffle(wall)
    state, _ = new_hand(ruleset, options, tuple(wall), 1, (2, 5))
    step = 0
    while state.phase is not Phase.ENDED:
        seat = deciding_seats(state)[0]
        if step % 12 == 0:
            hand = hand_image(view(state, seat))
            assert _width(hand) <= 1200 and len(hand) <= 120_000
            table = table_image(spectator_view(state), NAMES, bottom_seat=seat)
            assert _width(table) <= 1200 and len(table) <= 300_000
        state, _ = apply(state, choose_action(state, seat, rng))
        step += 1
    public = spectator_view(state)
    assert public.result is not None
    assert _width(settlement_card(public.result, NAMES, ruleset, caishen=public.caishen)) <= 1200
    assert _width(table_image(public, NAMES)) <= 1200


def _difference(drawn: Image.Image, data: bytes) -> float:
    """Mean difference per channel (0–255) between a drawing and its PNG."""
    with Image.open(io.BytesIO(data)) as img:
        assert img.mode == "P"  # reduced to a palette: a third of the data to compress
        diff = ImageChops.difference(drawn.convert("RGB"), img.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3


def test_pictures_of_real_hands_keep_their_colours_in_the_shared_palette() -> None:
    """Table and hand pictures use one palette made from the samples (render.palette),
    not one of their own: pictures of hands the samples never showed still look the
    same (a band of the wrong colour would show as a large mean difference)."""
    rng = random.Random(8)
    wall = full_set(True)
    rng.shuffle(wall)
    state, _ = new_hand("shanghai", None, tuple(wall), 2, (4, 4))
    worst = 0.0
    while state.phase is not Phase.ENDED:
        seat = deciding_seats(state)[0]
        if state.seq % 15 == 0:
            mine = view(state, seat)
            worst = max(worst, _difference(render_hand(mine), hand_image(mine)))
            public = spectator_view(state)
            worst = max(worst, _difference(render_table(public, NAMES, seat)[0],
                                           table_image(public, NAMES, seat)))
        state, _ = apply(state, choose_action(state, seat, rng))
    assert worst < 2.0
